// anvil_reorg [depth, txBlockPairs] against a real node: over HTTP and a WebSocket (the removed
// logs of the blocks it takes off, to a `logs` subscription and a log filter), on LMDB with a
// restart on its data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpcError, signTx, deployFromDev, DEV_ADDRS, type Rpc, withDevNode } from '../chain/testkit.js';
import { wsClient } from '../../../test/wsClient.js';

const OTHER = '0x1234567890123456789012345678901234567890';
/** A contract that logs LOG1(topic 0x2a, no data) on every call: PUSH1 0x2a PUSH1 0 PUSH1 0 LOG1 STOP behind its creation code. */
const LOGGER_CREATION = '0x67602a60006000a1006000526008' + '6018f3';
const TOPIC = '0x' + '2a'.padStart(64, '0');

const withNode = <T>(dataDir: string, fn: (rpc: Rpc) => Promise<T>): Promise<T> => withDevNode((rpc) => fn(rpc), { 'data-dir': dataDir });

test('anvil_reorg: the last blocks replaced by as many new ones holding the given txs; removed logs to subscriptions and filters; durable', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-reorg-'));
  try {
    const kept = await withNode(dataDir, async (rpc) => {
      const logger = await deployFromDev(rpc, LOGGER_CREATION); // block 1
      const ws = await wsClient(rpc.url.replace(/^http/, 'ws').replace(/\/rpc$/, '/ws'));
      /** The next `n` notifications of subscription `sub`. */
      const notes = async (sub: string, n: number) => {
        const out = [];
        for (let i = 0; i < n; i++) out.push((await ws.notification(sub)).params.result);
        return out;
      };
      try {
        const logsSub = (await ws.request('eth_subscribe', ['logs', { address: logger }])).result;
        const headsSub = (await ws.request('eth_subscribe', ['newHeads'])).result;
        const filter = await rpc('eth_newFilter', [{ address: logger }]);
        const a = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: logger }]); // block 2
        const b = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: logger }]); // block 3
        const old2 = await rpc('eth_getBlockByNumber', ['0x2', false]);
        const old3 = await rpc('eth_getBlockByNumber', ['0x3', false]);
        assert.equal((await notes(logsSub, 2)).length, 2);
        assert.equal((await rpc('eth_getFilterChanges', [filter])).length, 2);
        const nonce1 = BigInt(await rpc('eth_getTransactionCount', [DEV_ADDRS[1], 'latest']));

        // Block 2 gets a signed tx of dev key 2; block 3 two requests from dev account 1, signed by
        // the node with nonces counted from block 1 (given out of order: sorted by block).
        const raw = signTx(2, { nonce: 0n, to: logger, gasLimit: 50_000n });
        const pairs = [
          [{ from: DEV_ADDRS[1], to: logger }, 1],
          [raw, 0],
          [{ from: DEV_ADDRS[1], to: OTHER, value: '0x7' }, 1],
        ];
        assert.equal(await rpc('anvil_reorg', [2, pairs]), null);

        assert.equal(await rpc('eth_blockNumber'), '0x3');
        const new2 = await rpc('eth_getBlockByNumber', ['0x2', true]);
        const new3 = await rpc('eth_getBlockByNumber', ['0x3', true]);
        assert.notEqual(new2.hash, old2.hash);
        assert.notEqual(new3.hash, old3.hash);
        assert.equal(new2.parentHash, old2.parentHash, 'block 1 is the common block');
        assert.equal(new3.parentHash, new2.hash);
        assert.equal(await rpc('eth_getTransactionReceipt', [a]), null);
        assert.equal(await rpc('eth_getTransactionReceipt', [b]), null);
        assert.equal(await rpc('eth_getBlockByHash', [old3.hash, false]), null);
        assert.deepEqual(new2.transactions.map((t: any) => t.from), [DEV_ADDRS[2].toLowerCase()]);
        assert.deepEqual(new3.transactions.map((t: any) => [t.from, t.nonce, t.to]), [
          [DEV_ADDRS[1].toLowerCase(), '0x' + nonce1.toString(16), logger],
          [DEV_ADDRS[1].toLowerCase(), '0x' + (nonce1 + 1n).toString(16), OTHER],
        ]);
        for (const t of [...new2.transactions, ...new3.transactions]) assert.equal((await rpc('eth_getTransactionReceipt', [t.hash])).status, '0x1');
        assert.equal(await rpc('eth_getBalance', [OTHER, 'latest']), '0x7');

        // geth's order on a reorg: the removed logs, lowest block first, then the new chain's.
        const expected = [
          { removed: true, blockHash: old2.hash, transactionHash: a },
          { removed: true, blockHash: old3.hash, transactionHash: b },
          { removed: false, blockHash: new2.hash, transactionHash: new2.transactions[0].hash },
          { removed: false, blockHash: new3.hash, transactionHash: new3.transactions[0].hash },
        ];
        const shape = (l: any) => ({ removed: l.removed, blockHash: l.blockHash, transactionHash: l.transactionHash });
        const subLogs = await notes(logsSub, 4);
        assert.deepEqual(subLogs.map(shape), expected);
        for (const l of subLogs) assert.deepEqual([l.address, l.topics], [logger, [TOPIC]]);
        assert.deepEqual((await rpc('eth_getFilterChanges', [filter])).map(shape), expected);
        // The new heads are announced as any mined block is.
        const heads = await notes(headsSub, 4);
        assert.deepEqual(heads.slice(-2).map((h: any) => h.hash), [new2.hash, new3.hash]);
      } finally {
        ws.close();
      }
      return rpc('eth_getBlockByNumber', ['latest', true]);
    });
    await withNode(dataDir, async (rpc) => {
      assert.deepEqual(await rpc('eth_getBlockByNumber', ['latest', true]), kept, 'the reorged chain is the one on disk');
      assert.equal(await rpc('eth_getBalance', [OTHER, 'latest']), '0x7');
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('anvil_reorg: object params, empty new blocks, a tx that cannot run left out, anvil_rollback sends removed logs too', async () => {
  await withDevNode(async (rpc) => {
    const logger = await deployFromDev(rpc, LOGGER_CREATION); // block 1
    await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: logger }]); // block 2
    const filter = await rpc('eth_newFilter', [{ topics: [TOPIC] }]);
    const snap = await rpc('evm_snapshot');
    const old2 = await rpc('eth_getBlockByNumber', ['0x2', false]);
    // Object form, no txs: block 2 replaced by an empty block.
    assert.equal(await rpc('anvil_reorg', [{ depth: 1, txBlockPairs: [] }]), null);
    const new2 = await rpc('eth_getBlockByNumber', ['0x2', false]);
    assert.notEqual(new2.hash, old2.hash);
    assert.deepEqual(new2.transactions, []);
    assert.deepEqual((await rpc('eth_getFilterChanges', [filter])).map((l: any) => [l.removed, l.blockHash]), [[true, old2.hash]]);
    assert.equal(await rpc('evm_revert', [snap]), false, 'the snapshot at the old block 2 went with it');

    // A tx whose nonce is too high cannot run: the block is mined without it (Anvil's "invalid txs").
    const gap = signTx(2, { nonce: 5n, to: OTHER, value: 1n });
    const ok = signTx(2, { nonce: 0n, to: logger, gasLimit: 50_000n });
    assert.equal(await rpc('anvil_reorg', [1, [[gap, 0], [ok, 0]]]), null);
    const again2 = await rpc('eth_getBlockByNumber', ['0x2', false]);
    assert.equal(again2.transactions.length, 1);
    assert.equal((await rpc('eth_getTransactionByHash', [again2.transactions[0]])).nonce, '0x0');
    assert.deepEqual((await rpc('eth_getFilterChanges', [filter])).map((l: any) => [l.removed, l.blockHash]), [[false, again2.hash]], 'the empty block removed had no logs');

    // anvil_rollback is a reorg for the filters too.
    assert.equal(await rpc('anvil_rollback', [1]), null);
    assert.deepEqual((await rpc('eth_getFilterChanges', [filter])).map((l: any) => [l.removed, l.blockHash]), [[true, again2.hash]]);
    assert.equal(await rpc('eth_blockNumber'), '0x1');

    // depth 0 with no txs changes nothing.
    const head = await rpc('eth_getBlockByNumber', ['latest', false]);
    assert.equal(await rpc('anvil_reorg', [0, []]), null);
    assert.deepEqual(await rpc('eth_getBlockByNumber', ['latest', false]), head);
  });
});

test('anvil_reorg: bad input is -32602 with Anvil\'s words where it has them, and changes nothing', async () => {
  await withDevNode(async (rpc) => {
    await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: OTHER, value: '0x1' }]);
    const head = await rpc('eth_getBlockByNumber', ['latest', false]);
    const cases: [unknown[], RegExp][] = [
      [[2, []], /^invalid argument 0: Reorg depth must not exceed current chain height: current height 1, depth 2$/],
      [[1, [[signTx(0, { nonce: 1n, to: OTHER }), 1]]], /^invalid argument 1: Block number for reorg tx will exceed the reorged chain height\. Block number 1 must not exceed \(depth-1\) 0$/],
      [[0, [[signTx(0, { nonce: 1n, to: OTHER }), 0]]], /must not exceed \(depth-1\) 18446744073709551615$/],
      [[], /^invalid argument 0: missing depth$/],
      [[-1, []], /^invalid argument 0: /],
      [['0xzz', []], /^invalid argument 0: /],
      [[1, 'nope'], /^invalid argument 1: txBlockPairs: want an array/],
      [[1, [['0x02', 0, 1]]], /^invalid argument 1: txBlockPairs\[0\]: want a \[transaction, block\] pair$/],
      [[1, [[42, 0]]], /^invalid argument 1: txBlockPairs\[0\]\[0\]: want signed transaction bytes/],
      [[1, [['0xabc', 0]]], /^invalid argument 1: txBlockPairs\[0\]\[0\]: want signed transaction bytes/],
      [[1, [[{ to: OTHER }, -3]]], /^invalid argument 1: txBlockPairs\[0\]\[1\]: want a block index/],
      [[1, [[{ to: 'nope' }, 0]]], /^invalid argument 1: /],
      [[1, [], 3], /^too many arguments, want at most 2$/],
    ];
    for (const [params, want] of cases) {
      const e = await rpcError(rpc('anvil_reorg', params));
      assert.equal(e.code, -32602, JSON.stringify(params));
      assert.match(e.message, want, JSON.stringify(params));
    }
    // Bad transactions: geth's decoding texts, and `unknown account` for a sender the node cannot sign for.
    let e = await rpcError(rpc('anvil_reorg', [1, [['0x02c0', 0]]]));
    assert.deepEqual([e.code, e.message], [-32000, 'rlp: too few elements for types.DynamicFeeTx']);
    e = await rpcError(rpc('anvil_reorg', [1, [[{ from: OTHER, to: OTHER }, 0]]]));
    assert.deepEqual([e.code, e.message], [-32000, 'unknown account']);
    assert.deepEqual(await rpc('eth_getBlockByNumber', ['latest', false]), head, 'nothing changed');

    // New blocks that would pass the largest block time (uint64 ms) are refused before anything changes.
    await rpc('anvil_mine', [700]);
    await rpc('evm_setTime', ['18446744073709551000']); // (milliseconds, as Hardhat's)
    const tall = await rpc('eth_getBlockByNumber', ['latest', false]);
    e = await rpcError(rpc('anvil_reorg', [700, []]));
    assert.deepEqual([e.code, e.message], [-32602, 'invalid argument 0: 700 new blocks from the clock\'s time would pass the largest block time (18446744073709551615 ms)']);
    assert.deepEqual(await rpc('eth_getBlockByNumber', ['latest', false]), tall, 'nothing changed');
  });
});
