// hardhat_mine / anvil_mine / evm_mine with `blocks`: many real blocks in one call, written to the
// database 256 at a time (one transaction per run), every block readable and durable once the call
// answers; reads wait for a run's write; a run whose write fails leaves no trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { devNode, signTx, rpcError, BLACKHOLE, type Rpc } from '../chain/testkit.js';
import type { TestNode } from '../../../test/helpers.js';

type Mode = 'pass' | 'hold' | 'fail';

/** Counts the chain database's writes, and holds or fails the next one on demand. */
function watchWrites(node: TestNode) {
  const kv = node.node.db.store('chain/' + node.node.chains.aliaser.lookup('dev'));
  const write = kv.write.bind(kv);
  const w = { count: 0, mode: 'pass' as Mode, release: () => {}, held: Promise.resolve() };
  let onHeld = () => {};
  w.held = new Promise<void>((r) => (onHeld = r));
  kv.write = (ops) => {
    w.count++;
    const mode = w.mode;
    w.mode = 'pass';
    if (mode === 'fail') return Promise.reject(new Error('disk full (test)'));
    if (mode === 'pass') return write(ops);
    return new Promise<void>((resolve, reject) => {
      w.release = () => void write(ops).then(resolve, reject);
      onHeld();
    });
  };
  /** Holds the next write; resolves once it is held. */
  const holdNext = () => {
    w.mode = 'hold';
    w.held = new Promise<void>((r) => (onHeld = r));
    return w.held;
  };
  return { w, holdNext };
}

async function headsOf(rpc: Rpc, from: bigint, to: bigint): Promise<any[]> {
  const res = await fetch(rpc.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(Array.from({ length: Number(to - from + 1n) }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_getBlockByNumber', params: ['0x' + (from + BigInt(i)).toString(16), false] }))),
  });
  return ((await res.json()) as { result: any }[]).map((r) => r.result);
}

test('hardhat_mine: blocks written 256 per transaction, each linked, notified and durable across a restart', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-mine-'));
  try {
    let { node, rpc } = await devNode({ 'data-dir': dataDir });
    const ws = new WebSocket(node.url.replace(/^http/, 'ws') + '/ext/bc/dev/ws');
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    const heads: bigint[] = [];
    ws.on('message', (d) => {
      const m = JSON.parse(String(d));
      if (m.method === 'eth_subscription') heads.push(BigInt(m.params.result.number));
    });
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
    await new Promise((r) => ws.once('message', r));

    const { w } = watchWrites(node);
    const start = BigInt(await rpc('eth_blockNumber'));
    await rpc('evm_setAutomine', [false]);
    const txHash = await rpc('eth_sendRawTransaction', [signTx(0, { nonce: 0n, to: BLACKHOLE, value: 7n })]);
    w.count = 0;
    assert.equal(await rpc('hardhat_mine', ['0x258', '0x2']), null); // 600 blocks, 2 s apart
    assert.equal(w.count, 3, 'ceil(600 / 256) writes');
    assert.equal(BigInt(await rpc('eth_blockNumber')), start + 600n);

    const blocks = await headsOf(rpc, start, start + 600n);
    for (let i = 1; i <= 600; i++) {
      assert.equal(blocks[i].parentHash, blocks[i - 1].hash, `block ${i} links to its parent`);
      if (i >= 2) assert.equal(BigInt(blocks[i].timestamp) - BigInt(blocks[i - 1].timestamp), 2n, `block ${i} is 2 s after its parent`);
    }
    assert.deepEqual(blocks[1].transactions, [txHash], 'the pending tx went into the first block');
    assert.equal((await rpc('eth_getTransactionReceipt', [txHash])).status, '0x1');
    for (let i = 0; i < 100 && heads.length < 600; i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(heads, Array.from({ length: 600 }, (_, i) => start + 1n + BigInt(i)), 'one newHeads notification per block, in order');
    ws.close();

    await node.stop();
    ({ node, rpc } = await devNode({ 'data-dir': dataDir }));
    try {
      assert.equal(BigInt(await rpc('eth_blockNumber')), start + 600n);
      assert.deepEqual(await headsOf(rpc, start, start + 600n), blocks, 'every block as it was before the restart');
      assert.equal(BigInt((await rpc('eth_getTransactionReceipt', [txHash])).blockNumber), start + 1n);
    } finally {
      await node.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('hardhat_mine: reads wait for a run to be on disk; a run whose write fails is taken back, the runs before it stay', { timeout: 60_000 }, async () => {
  const { node, rpc } = await devNode();
  try {
    const { w, holdNext } = watchWrites(node);
    const start = BigInt(await rpc('eth_blockNumber'));

    const held = holdNext();
    const mining = rpc('hardhat_mine', ['0x12c']); // 300 blocks: runs of 256 and 44
    await held;
    let released = false;
    const read = rpc('eth_blockNumber').then((n) => ({ n: BigInt(n), afterRelease: released }));
    await new Promise((r) => setTimeout(r, 50));
    released = true;
    w.release();
    const r = await read;
    assert.equal(r.afterRelease, true, 'the read was answered after the run was written');
    assert.ok(r.n >= start + 256n, `the read saw the run (${r.n - start} blocks)`);
    await mining;
    assert.equal(BigInt(await rpc('eth_blockNumber')), start + 300n);

    // The first run's write fails: nothing of it stays, and the pending tx is back in the pool.
    await rpc('evm_setAutomine', [false]);
    const txHash = await rpc('eth_sendRawTransaction', [signTx(1, { nonce: 0n, to: BLACKHOLE, value: 1n })]);
    w.mode = 'fail';
    const e = await rpcError(rpc('hardhat_mine', ['0x12c']));
    assert.match(e.message, /disk full \(test\)/);
    assert.equal(BigInt(await rpc('eth_blockNumber')), start + 300n);
    assert.equal((await rpcError(rpc('eth_getBlockByNumber', ['0x' + (start + 301n).toString(16), false]))).message, 'cannot query unfinalized data');
    assert.equal(await rpc('eth_getTransactionReceipt', [txHash]), null);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x1', queued: '0x0' });

    // The second run's write fails: the first run's 256 blocks stay (as when blocks were written one by one).
    let writes = 0;
    const kv = node.node.db.store('chain/' + node.node.chains.aliaser.lookup('dev'));
    const counted = kv.write;
    kv.write = (ops) => {
      if (++writes === 2) w.mode = 'fail';
      return counted(ops);
    };
    await rpcError(rpc('hardhat_mine', ['0x12c']));
    assert.equal(BigInt(await rpc('eth_blockNumber')), start + 556n);
    assert.equal((await rpc('eth_getTransactionReceipt', [txHash])).blockNumber, '0x' + (start + 301n).toString(16));

    // The chain goes on from there.
    assert.equal(await rpc('anvil_mine', ['0x3']), null);
    assert.equal(BigInt(await rpc('eth_blockNumber')), start + 559n);
    const [b558, b559] = await headsOf(rpc, start + 558n, start + 559n);
    assert.equal(b559.parentHash, b558.hash);
  } finally {
    await node.stop();
  }
});
