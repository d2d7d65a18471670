// eth_subscribe over /ws: newHeads, logs, newPendingTransactions, newAcceptedTransactions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { useDevNode, rpcError, DEV_ADDRS } from '../chain/testkit.js';

const { rpc, node } = useDevNode();

function wsClient(url: string) {
  const ws = new WebSocket(url);
  const notes: any[] = [];
  const waiting = new Map<number, (m: any) => void>();
  let id = 0;
  ws.on('message', (d) => {
    const m = JSON.parse(String(d));
    if (m.method === 'eth_subscription') notes.push(m.params);
    else waiting.get(m.id)?.(m);
  });
  const opened = new Promise((r) => ws.once('open', r));
  return {
    notes,
    async call(method: string, params: unknown[]) {
      await opened;
      const myId = ++id;
      const p = new Promise<any>((r) => waiting.set(myId, r));
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: myId, method, params }));
      return p;
    },
    close: () => ws.close(),
  };
}

test('subscriptions deliver accepted heads, logs and txs', async () => {
  const c = wsClient(node().url.replace('http', 'ws') + '/ext/bc/dev/ws');
  try {
    const heads = (await c.call('eth_subscribe', ['newHeads'])).result;
    const logs = (await c.call('eth_subscribe', ['logs', {}])).result;
    const pending = (await c.call('eth_subscribe', ['newPendingTransactions'])).result;
    const accepted = (await c.call('eth_subscribe', ['newAcceptedTransactions'])).result;
    const bad = await c.call('eth_subscribe', ['nope']);
    assert.equal(bad.error.code, -32601);
    // A contract creation whose constructor logs nothing, then a plain transfer.
    const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], value: '0x1' }]);
    const r = await rpc('eth_getTransactionReceipt', [h]);
    for (let i = 0; i < 100 && c.notes.filter((n) => n.subscription === accepted).length === 0; i++) await new Promise((res) => setTimeout(res, 20));
    const head = c.notes.find((n) => n.subscription === heads)?.result;
    assert.equal(head.hash, r.blockHash);
    assert.equal(head.number, r.blockNumber);
    assert.equal(c.notes.find((n) => n.subscription === pending)?.result, h);
    assert.equal(c.notes.find((n) => n.subscription === accepted)?.result, h);
    assert.equal(c.notes.filter((n) => n.subscription === logs).length, 0);
    assert.equal((await c.call('eth_unsubscribe', [heads])).result, true);
    const e = await rpcError(rpc('eth_subscribe', ['newHeads']));
    assert.equal(e.code, -32601);
  } finally {
    c.close();
  }
});
