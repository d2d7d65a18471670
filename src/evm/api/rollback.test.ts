// anvil_rollback [depth?] against a real node over HTTP, on LMDB (and a restart on its data).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpcError, signTx, DEV_ADDRS, type Rpc, withDevNode } from '../chain/testkit.js';

const OTHER = '0x1234567890123456789012345678901234567890';
const EDITED = '0x00000000000000000000000000000000000000e3';

/** A dev node on `dataDir` (a restart when it holds a chain). */
const withNode = <T>(dataDir: string, fn: (rpc: Rpc) => Promise<T>): Promise<T> => withDevNode((rpc) => fn(rpc), { 'data-dir': dataDir });

test('anvil_rollback: the last blocks gone (txs, receipts, state), the head state with its edits, the pool kept, later snapshots dropped; durable', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-rollback-'));
  try {
    const kept = await withNode(dataDir, async (rpc) => {
      const t1 = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: OTHER, value: '0x1' }]);
      // A state edit while block 1 is the head: part of block 1's state as the head.
      await rpc('anvil_setBalance', [EDITED, '0x64']);
      const snapAt1 = await rpc('evm_snapshot');
      const b1 = await rpc('eth_getBlockByNumber', ['0x1', false]);
      const t2 = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: OTHER, value: '0x2' }]);
      const snapAt2 = await rpc('evm_snapshot');
      const t3 = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[1], to: OTHER, value: '0x4' }]);
      await rpc('anvil_setBalance', [EDITED, '0x99']);
      assert.equal(await rpc('eth_blockNumber'), '0x3');

      assert.equal(await rpc('anvil_rollback'), null, 'depth 1 by default');
      assert.equal(await rpc('eth_blockNumber'), '0x2');
      assert.equal(await rpc('eth_getTransactionReceipt', [t3]), null);
      assert.equal(await rpc('eth_getTransactionByHash', [t3]), null);
      assert.equal(await rpc('eth_getBalance', [OTHER, 'latest']), '0x3');
      assert.equal(await rpc('eth_getBalance', [EDITED, 'latest']), '0x64', "the edit made on block 3 is gone, block 1's is not");
      assert.equal(await rpc('txpool_status').then((s: any) => s.pending), '0x0', 'the rolled-back tx is not put back in the pool');

      // A tx waiting in the pool stays there; its nonce is checked again against the new head.
      await rpc('evm_setAutomine', [false]);
      const waiting = await rpc('eth_sendRawTransaction', [signTx(2, { nonce: 0n, to: OTHER, value: 8n })]);
      assert.equal(await rpc('anvil_rollback', ['0x1']), null);
      assert.equal(await rpc('eth_blockNumber'), '0x1');
      assert.equal(await rpc('eth_getTransactionReceipt', [t2]), null);
      assert.equal((await rpc('eth_getTransactionReceipt', [t1])).status, '0x1');
      assert.equal(await rpc('eth_getBalance', [OTHER, 'latest']), '0x1');
      assert.equal((await rpc('eth_getTransactionByHash', [waiting])).blockHash, null, 'still pending');
      assert.deepEqual(await rpc('eth_getBlockByNumber', ['latest', false]), b1);
      // The snapshot taken at block 2 went with it; the one at block 1 still works.
      assert.deepEqual(Object.keys((await rpc('anvil_metadata')).snapshots), [snapAt1]);
      assert.equal(await rpc('evm_revert', [snapAt2]), false);

      // The chain goes on from the new head.
      await rpc('evm_mine');
      const b2 = await rpc('eth_getBlockByNumber', ['latest', true]);
      assert.equal(b2.number, '0x2');
      assert.equal(b2.parentHash, b1.hash);
      assert.deepEqual(b2.transactions.map((t: any) => t.hash), [waiting]);
      assert.equal(await rpc('eth_getBalance', [OTHER, 'latest']), '0x9');
      return b2;
    });
    // Durable: a restart on the same folder starts on the rolled-back chain.
    await withNode(dataDir, async (rpc) => {
      assert.deepEqual(await rpc('eth_getBlockByNumber', ['latest', true]), kept);
      assert.equal(await rpc('eth_blockNumber'), '0x2');
      assert.equal(await rpc('eth_getBalance', [EDITED, 'latest']), '0x64');
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('anvil_rollback: depth past the genesis is refused with Anvil\'s words, depth 0 changes nothing, bad params are -32602', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-rollback-'));
  try {
    await withNode(dataDir, async (rpc) => {
      await rpc('anvil_mine', [3]);
      const head = await rpc('eth_getBlockByNumber', ['latest', false]);
      let e = await rpcError(rpc('anvil_rollback', [4]));
      assert.deepEqual([e.code, e.message], [-32602, 'invalid argument 0: Rollback depth must not exceed current chain height: current height 3, depth 4']);
      assert.equal(await rpc('anvil_rollback', [0]), null);
      for (const bad of [[-1], ['x'], [1.5], [{}], [[1]], [true], [1, 2]]) {
        e = await rpcError(rpc('anvil_rollback', bad));
        assert.equal(e.code, -32602, JSON.stringify(bad));
        assert.match(e.message, /^(invalid argument 0: |too many arguments, want at most 1)/);
      }
      assert.deepEqual(await rpc('eth_getBlockByNumber', ['latest', false]), head);
      // The whole chain back to the genesis.
      assert.equal(await rpc('anvil_rollback', ['3']), null);
      assert.equal(await rpc('eth_blockNumber'), '0x0');
      e = await rpcError(rpc('anvil_rollback'));
      assert.equal(e.message, 'invalid argument 0: Rollback depth must not exceed current chain height: current height 0, depth 1');
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
