// Automine answers eth_sendRawTransaction before the tx's block is built (the client's turn-around
// overlaps the build), so every request on the chain waits for the automine to go idle first:
// whatever a client asks after the answer — on another connection, over WebSocket, in a batch —
// sees the tx mined, as after Hardhat's and Anvil's answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { devNode, signTx, DEV_ADDRS, BLACKHOLE } from '../chain/testkit.js';

test('automine: a request made right after the send answer sees the tx mined (HTTP, WebSocket, batch)', async () => {
  const { node, rpc } = await devNode();
  const ws = new WebSocket(node.url.replace(/^http/, 'ws') + '/ext/bc/dev/ws');
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  let wsId = 0;
  const wsCall = (method: string, params: unknown[]) =>
    new Promise<any>((resolve) => {
      const id = ++wsId;
      const onMessage = (data: WebSocket.RawData) => {
        const msg = JSON.parse(String(data));
        if (msg.id !== id) return;
        ws.off('message', onMessage);
        resolve(msg);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  try {
    const start = BigInt(await rpc('eth_blockNumber'));
    const N = 20;
    for (let i = 0; i < N; i++) {
      const raw = signTx(0, { nonce: BigInt(i), to: BLACKHOLE, value: 1n });
      // Alternate where the tx is sent; the checks go to the other transport at once.
      const hash = i % 2 === 0 ? await rpc('eth_sendRawTransaction', [raw]) : (await wsCall('eth_sendRawTransaction', [raw])).result;
      const [receipt, count, block] = await Promise.all([
        i % 2 === 0 ? wsCall('eth_getTransactionReceipt', [hash]).then((m) => m.result) : rpc('eth_getTransactionReceipt', [hash]),
        rpc('eth_getTransactionCount', [DEV_ADDRS[0], 'latest']),
        rpc('eth_blockNumber'),
      ]);
      assert.ok(receipt, `tx ${i}: receipt right after the answer`);
      assert.equal(receipt.status, '0x1');
      assert.equal(BigInt(count), BigInt(i + 1), `tx ${i}: nonce right after the answer`);
      assert.equal(BigInt(block), start + BigInt(i + 1), `tx ${i}: head right after the answer`);
    }
    // A batch runs its calls in order: the receipt call waits for the send's block.
    const raw = signTx(0, { nonce: BigInt(N), to: BLACKHOLE, value: 1n });
    const res = await fetch(rpc.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] },
        { jsonrpc: '2.0', id: 2, method: 'eth_getTransactionCount', params: [DEV_ADDRS[0], 'latest'] },
      ]),
    });
    const [sent, counted] = (await res.json()) as { result: string }[];
    assert.match(sent.result, /^0x[0-9a-f]{64}$/);
    assert.equal(BigInt(counted.result), BigInt(N + 1));
    // A tx that cannot run yet (nonce gap) is answered at once and waits in the pool; reads are not held up by it.
    const gapHash = await rpc('eth_sendRawTransaction', [signTx(0, { nonce: BigInt(N + 5), to: BLACKHOLE, value: 1n })]);
    assert.equal(await rpc('eth_getTransactionReceipt', [gapHash]), null);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x0', queued: '0x1' });
  } finally {
    ws.close();
    await node.stop();
  }
});
