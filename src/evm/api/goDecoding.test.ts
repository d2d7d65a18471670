// Parameters decoded as Go's encoding/json decodes them into geth's argument types: null into a
// plain value leaves it as it is (no error), a type's own UnmarshalJSON sees null, and a plain Go
// string type (rpc.ID) names the JSON kind it could not take.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDevNode, signTx, DEV_ADDRS } from '../chain/testkit.js';

const { rpc } = useDevNode();
const error = async (method: string, params: unknown[]) => (await rpc.raw(method, params)).error;

test('filter ids are rpc.ID (a Go string): wrong kinds named as encoding/json names them; null is "" (no such filter)', async () => {
  for (const m of ['eth_getFilterChanges', 'eth_getFilterLogs', 'eth_uninstallFilter']) {
    assert.deepEqual(await error(m, [1]), { code: -32602, message: 'invalid argument 0: json: cannot unmarshal number into Go value of type rpc.ID' }, m);
    assert.deepEqual(await error(m, [true]), { code: -32602, message: 'invalid argument 0: json: cannot unmarshal bool into Go value of type rpc.ID' }, m);
    assert.deepEqual(await error(m, [{}]), { code: -32602, message: 'invalid argument 0: json: cannot unmarshal object into Go value of type rpc.ID' }, m);
    assert.deepEqual(await error(m, [[]]), { code: -32602, message: 'invalid argument 0: json: cannot unmarshal array into Go value of type rpc.ID' }, m);
  }
  assert.deepEqual(await error('eth_getFilterChanges', [null]), { code: -32000, message: 'filter not found' });
  assert.deepEqual(await error('eth_getFilterLogs', [null]), { code: -32000, message: 'filter not found' });
  assert.equal(await rpc('eth_uninstallFilter', [null]), false);
});

test('eth_newPendingTransactionFilter(fullTx): with true the changes are the pending txs as RPC transactions', async () => {
  const full = await rpc('eth_newPendingTransactionFilter', [true]);
  const hashes = await rpc('eth_newPendingTransactionFilter', [false]);
  const plain = await rpc('eth_newPendingTransactionFilter', [null]);
  assert.deepEqual(await error('eth_newPendingTransactionFilter', ['true']), { code: -32602, message: 'invalid argument 0: json: cannot unmarshal string into Go value of type bool' });
  await rpc('evm_setAutomine', [false]);
  try {
    const n = BigInt(await rpc('eth_getTransactionCount', [DEV_ADDRS[1], 'latest']));
    const h = await rpc('eth_sendRawTransaction', [signTx(1, { nonce: n, to: DEV_ADDRS[0], value: 9n })]);
    const [tx] = await rpc('eth_getFilterChanges', [full]);
    assert.deepEqual(tx, await rpc('eth_getTransactionByHash', [h]));
    assert.equal(tx.blockHash, null);
    assert.equal(tx.value, '0x9');
    assert.deepEqual(await rpc('eth_getFilterChanges', [hashes]), [h]);
    assert.deepEqual(await rpc('eth_getFilterChanges', [plain]), [h]);
    assert.deepEqual(await rpc('eth_getFilterChanges', [full]), []);
  } finally {
    await rpc('evm_setAutomine', [true]);
    await rpc('evm_mine', []);
  }
});

test('eth_feeHistory: a null percentile is 0 to Go (no error), so it counts in the order check', async () => {
  const withNull = await rpc('eth_feeHistory', ['0x1', 'latest', [null, 50]]);
  assert.deepEqual(withNull, await rpc('eth_feeHistory', ['0x1', 'latest', [0, 50]]));
  assert.equal(withNull.reward[0].length, 2);
  assert.deepEqual(await error('eth_feeHistory', ['0x1', 'latest', [10, null]]), { code: -32000, message: 'invalid reward percentile: #0:10.000000 >= #1:0.000000' });
  assert.deepEqual(await error('eth_feeHistory', ['0x1', 'latest', [null, 'a']]), { code: -32602, message: 'invalid argument 2: json: cannot unmarshal string into Go value of type float64' });
});

test('an access list entry that is null: AccessTuple\'s UnmarshalJSON finds no address', async () => {
  for (const m of ['eth_call', 'eth_estimateGas', 'eth_createAccessList']) {
    assert.deepEqual(await error(m, [{ to: DEV_ADDRS[0], accessList: [null] }]), { code: -32602, message: "invalid argument 0: missing required field 'address' for AccessTuple" }, m);
  }
  assert.deepEqual(await error('eth_call', [{ to: DEV_ADDRS[0], accessList: [1] }]), {
    code: -32602,
    message: 'invalid argument 0: json: cannot unmarshal number into Go struct field TransactionArgs.accessList of type types.AccessTuple',
  });
});
