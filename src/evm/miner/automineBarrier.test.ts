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

test('while a block is written to disk, eth_sendRawTransaction is answered and checked as after it; reads wait for the write; a failed write puts the block back', { timeout: 20_000 }, async () => {
  const { node, rpc } = await devNode(); // LMDB: a block is on disk before reads see it
  try {
    // Hold the chain database's next write until released (or fail it): the real write runs then.
    const kv = node.node.db.store('chain/' + node.node.chains.aliaser.lookup('dev'));
    const write = kv.write.bind(kv);
    let mode: 'pass' | 'hold' | 'fail' = 'pass';
    let held: (() => void) | undefined;
    let heldNow: () => void = () => {};
    kv.write = (ops) => {
      if (mode === 'pass') return write(ops);
      if (mode === 'fail') {
        mode = 'pass';
        return Promise.reject(new Error('disk full (test)'));
      }
      mode = 'pass';
      return new Promise<void>((resolve, reject) => {
        held = () => write(ops).then(resolve, reject);
        heldNow();
      });
    };
    const holding = () => new Promise<void>((r) => (heldNow = r));

    const start = BigInt(await rpc('eth_blockNumber'));
    const n = BigInt(await rpc('eth_getTransactionCount', [DEV_ADDRS[0], 'latest']));
    const tx0 = signTx(0, { nonce: n, to: BLACKHOLE, value: 1n });
    mode = 'hold';
    const isHeld = holding();
    const h0 = await rpc('eth_sendRawTransaction', [tx0]);
    await isHeld; // tx0's block is built and being written
    // A submission does not wait for the disk: it is answered now, checked against that block.
    const h1 = await rpc('eth_sendRawTransaction', [signTx(0, { nonce: n + 1n, to: BLACKHOLE, value: 1n })]);
    assert.match(h1, /^0x[0-9a-f]{64}$/);
    const again = await rpc('eth_sendRawTransaction', [tx0]).then(() => 'answered', (e) => e.message);
    assert.equal(again, `nonce too low: next nonce ${n + 1n}, tx nonce ${n}`);
    // A read waits for the write.
    let released = false;
    const read = rpc('eth_getTransactionReceipt', [h0]).then((r) => ({ r, afterRelease: released }));
    await new Promise((r) => setTimeout(r, 50));
    released = true;
    held!();
    const { r, afterRelease } = await read;
    assert.equal(afterRelease, true, 'the read was answered after the write');
    assert.equal(r.status, '0x1');
    assert.equal(BigInt(r.blockNumber), start + 1n);
    const r1 = await rpc('eth_getTransactionReceipt', [h1]);
    assert.equal(BigInt(r1.blockNumber), start + 2n, 'the submission went into the next block');

    // A block whose write fails is not the head: its tx is back in the pool and mined by the retry.
    mode = 'fail';
    const h2 = await rpc('eth_sendRawTransaction', [signTx(0, { nonce: n + 2n, to: BLACKHOLE, value: 1n })]);
    let r2 = null;
    for (let i = 0; i < 100 && r2 === null; i++) {
      r2 = await rpc('eth_getTransactionReceipt', [h2]);
      if (r2 === null) await new Promise((res) => setTimeout(res, 50));
    }
    assert.equal(r2?.status, '0x1');
    assert.equal(BigInt(r2.blockNumber), start + 3n, 'the failed block\'s number is built again');
    assert.equal(BigInt(await rpc('eth_getTransactionCount', [DEV_ADDRS[0], 'latest'])), n + 3n);

    // A block mined outside the automine (evm_mine, interval mining: requests do not wait for
    // those) becomes the head only once it is on disk: meanwhile reads answer the block before.
    mode = 'hold';
    const minedHeld = holding();
    const mined = rpc('evm_mine', []);
    await minedHeld;
    assert.equal(BigInt(await rpc('eth_blockNumber', [])), start + 3n, 'the head while the block is written');
    held!();
    await mined;
    assert.equal(BigInt(await rpc('eth_blockNumber', [])), start + 4n);

    // A read waiting for the automine closes admission: the drain ends with the txs it has, so a
    // steady sender cannot keep reads waiting (and the read sees every tx answered before it).
    const m = BigInt(await rpc('eth_getTransactionCount', [DEV_ADDRS[0], 'latest']));
    mode = 'hold';
    const heldAgain = holding();
    await rpc('eth_sendRawTransaction', [signTx(0, { nonce: m, to: BLACKHOLE, value: 1n })]);
    await heldAgain;
    await rpc('eth_sendRawTransaction', [signTx(0, { nonce: m + 1n, to: BLACKHOLE, value: 1n })]); // admitted during the write
    const count = rpc('eth_getTransactionCount', [DEV_ADDRS[0], 'latest']);
    await new Promise((r) => setTimeout(r, 50));
    let lateAnswered = false;
    const late = rpc('eth_sendRawTransaction', [signTx(0, { nonce: m + 2n, to: BLACKHOLE, value: 1n })]).then((h) => ((lateAnswered = true), h));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(lateAnswered, false, 'a submission waits while a read waits');
    held!();
    assert.equal(BigInt(await count), m + 2n, 'the read sees both earlier txs mined, not the later one');
    assert.equal((await rpc('eth_getTransactionReceipt', [await late])).status, '0x1');
  } finally {
    await node.stop();
  }
});
