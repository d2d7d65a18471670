// Lookups of blocks that do not exist, method by method as geth's handlers answer them: the ones
// that return a bare value drop the backend's error (null, or empty bytes); debug_getRaw* name an
// unknown hash as Go's %d prints it; a nil block those handlers dereference is -32603.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDevNode, devNodeWithConfig, rpcError, DEV_ADDRS, type Rpc } from '../chain/testkit.js';

const { rpc } = useDevNode();
const future = async (r: Rpc) => '0x' + (BigInt(await r('eth_blockNumber')) + 100n).toString(16);

test('past the last accepted block: the bare-value methods answer null, the others `cannot query unfinalized data`', async () => {
  await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], value: '0x1' }]);
  const far = await future(rpc);
  assert.equal(await rpc('eth_getBlockTransactionCountByNumber', [far]), null);
  assert.equal(await rpc('eth_getUncleCountByBlockNumber', [far]), null);
  assert.equal(await rpc('eth_getTransactionByBlockNumberAndIndex', [far, '0x0']), null);
  assert.equal(await rpc('eth_getRawTransactionByBlockNumberAndIndex', [far, '0x0']), '0x');
  assert.equal(await rpc('eth_getBlockReceipts', [far]), null);
  assert.equal(await rpc('eth_getBlockReceipts', [{ blockNumber: far }]), null);
  for (const [m, p] of [
    ['eth_getBlockByNumber', [far, false]],
    ['eth_getHeaderByNumber', [far]],
    ['eth_getUncleByBlockNumberAndIndex', [far, '0x0']],
    ['debug_getRawHeader', [far]],
    ['debug_getRawBlock', [far]],
    ['debug_getRawReceipts', [far]],
  ] as const) {
    const e = await rpcError(rpc(m, [...p]));
    assert.deepEqual([e.code, e.message], [-32000, 'cannot query unfinalized data'], m);
  }
  // The arguments are still decoded first: a bad index is -32602 whatever the block.
  for (const m of ['eth_getTransactionByBlockNumberAndIndex', 'eth_getRawTransactionByBlockNumberAndIndex', 'eth_getUncleByBlockNumberAndIndex']) {
    assert.equal((await rpcError(rpc(m, [far, '0x']))).code, -32602, m);
  }
  // The head block still answers.
  const head = await rpc('eth_blockNumber');
  assert.equal(await rpc('eth_getBlockTransactionCountByNumber', [head]), '0x1');
  assert.equal((await rpc('eth_getBlockReceipts', [head])).length, 1);
});

test('a hash that must be canonical and is not (a block evm_revert took back): eth_getBlockReceipts null, eth_getBalance the error', async () => {
  const snap = await rpc('evm_snapshot');
  await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], value: '0x1' }]);
  const gone = (await rpc('eth_getBlockByNumber', ['latest', false])).hash;
  await rpc('evm_revert', [snap]);
  const spec = { blockHash: gone, requireCanonical: true };
  const e = await rpcError(rpc('eth_getBalance', [DEV_ADDRS[0], spec]));
  assert.equal(e.message, 'hash is not currently canonical');
  assert.equal(await rpc('eth_getBlockReceipts', [spec]), null);
  assert.equal(await rpc('eth_getBlockReceipts', [{ blockHash: '0x' + 'ab'.repeat(32), requireCanonical: true }]), null);
});

test('debug_getRaw* for an unknown hash: geth\'s texts (%d of a hash), receipts []', async () => {
  const hash = '0x' + '0102'.repeat(16);
  const printed = '[' + Array.from({ length: 32 }, (_, i) => (i % 2 ? 2 : 1)).join(' ') + ']';
  assert.deepEqual(await rpcError(rpc('debug_getRawHeader', [hash])), { code: -32000, message: `header #${printed} not found`, data: undefined });
  assert.deepEqual(await rpcError(rpc('debug_getRawBlock', [{ blockHash: hash }])), { code: -32000, message: `block #${printed} not found`, data: undefined });
  assert.deepEqual(await rpc('debug_getRawReceipts', [hash]), []);
});

test('allow-unfinalized-queries: debug_getRaw* of a number past the head dereference a nil block (-32603); the bare-value methods null', async () => {
  const { node, rpc: r } = await devNodeWithConfig({ 'allow-unfinalized-queries': true });
  try {
    const far = await future(r);
    for (const m of ['debug_getRawHeader', 'debug_getRawBlock', 'debug_getRawReceipts']) {
      assert.deepEqual(await rpcError(r(m, [far])), { code: -32603, message: 'method handler crashed', data: undefined }, m);
    }
    assert.equal(await r('eth_getBlockReceipts', [far]), null);
    assert.equal(await r('eth_getBlockTransactionCountByNumber', [far]), null);
    assert.equal(await r('eth_getBlockByNumber', [far, false]), null);
    // The node is fine afterwards.
    assert.match(await r('debug_getRawHeader', ['latest']), /^0x[0-9a-f]+$/);
  } finally {
    await node.stop();
  }
});
