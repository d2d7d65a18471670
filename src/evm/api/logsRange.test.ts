// eth_getLogs ranges that start at `pending`, as Subnet-EVM's filter.Logs (coreth's) takes them:
// the range must end at `pending` too (else `invalid block range`), and there is no pending block,
// so it has no logs — not the last accepted block's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDevNode, rpcError, DEV_ADDRS } from '../chain/testkit.js';

const { rpc } = useDevNode();

test('eth_getLogs from `pending`: only pending..pending, which is empty', async () => {
  // A creation whose init code emits one LOG0 (PUSH1 0 PUSH1 0 LOG0 STOP): the head block has a log.
  const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], data: '0x60006000a000', gas: '0x20000' }]);
  assert.equal((await rpc('eth_getTransactionReceipt', [h])).logs.length, 1);
  assert.equal((await rpc('eth_getLogs', [{ fromBlock: 'latest' }])).length, 1, 'the head block has the log');
  assert.deepEqual(await rpc('eth_getLogs', [{ fromBlock: 'pending', toBlock: 'pending' }]), []);
  for (const toBlock of [undefined, 'latest', 'earliest', '0x0', 'safe']) {
    const e = await rpcError(rpc('eth_getLogs', [{ fromBlock: 'pending', ...(toBlock ? { toBlock } : {}) }]));
    assert.deepEqual([e.code, e.message], [-32000, 'invalid block range'], String(toBlock));
  }
  // Ending at pending is the head, as before.
  assert.equal((await rpc('eth_getLogs', [{ fromBlock: 'latest', toBlock: 'pending' }])).length, 1);
});

test('a pending..pending log filter or `logs` subscription is geth\'s pending-logs one: no pending block, nothing delivered', async () => {
  const { wsClient } = await import('../../../test/wsClient.js');
  const c = await wsClient(rpc.url.replace('http', 'ws').replace(/\/rpc$/, '/ws'));
  try {
    const pendingSub = (await c.request('eth_subscribe', ['logs', { fromBlock: 'pending', toBlock: 'pending' }])).result;
    const newSub = (await c.request('eth_subscribe', ['logs', {}])).result;
    const pendingFilter = await rpc('eth_newFilter', [{ fromBlock: 'pending', toBlock: 'pending' }]);
    const newFilter = await rpc('eth_newFilter', [{}]);
    await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], data: '0x60006000a000', gas: '0x20000' }]);
    // The plain subscription gets the accepted log; the pending-only one nothing (checked after it).
    const note = await c.notification(newSub);
    assert.equal(note.params.result.removed, false);
    assert.equal((await rpc('eth_getFilterChanges', [newFilter])).length, 1);
    assert.deepEqual(await rpc('eth_getFilterChanges', [pendingFilter]), []);
    assert.deepEqual(await rpc('eth_getFilterLogs', [pendingFilter]), []);
    assert.equal((await c.request('eth_unsubscribe', [pendingSub])).result, true);
    const stray = await Promise.race([c.next((m) => m.params?.subscription === pendingSub), new Promise((r) => setImmediate(() => r('none')))]);
    assert.equal(stray, 'none');
  } finally {
    c.close();
  }
});
