// transaction-history and skip-tx-indexing from the chain's config.json: which mined transactions
// keep a hash lookup (eth_getTransactionByHash / eth_getTransactionReceipt), as geth's TxLookupLimit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devNode, devNodeWithConfig, DEV_ADDRS, type Rpc } from './testkit.js';

/** Sends `n` transfers (one block each on the automining dev chain); returns their hashes in order. */
async function transfers(rpc: Rpc, n: number): Promise<string[]> {
  const hashes: string[] = [];
  for (let i = 0; i < n; i++) hashes.push(await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], value: '0x1' }]));
  return hashes;
}

const indexed = async (rpc: Rpc, hashes: string[]) =>
  Promise.all(hashes.map(async (h) => (await rpc('eth_getTransactionByHash', [h])) !== null && (await rpc('eth_getTransactionReceipt', [h])) !== null));

test('transaction-history: only the last N blocks keep their tx lookups; the blocks themselves stay', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'transaction-history': 2 });
  try {
    const hashes = await transfers(rpc, 5);
    assert.equal(Number(BigInt(await rpc('eth_blockNumber'))), 5);
    assert.deepEqual(await indexed(rpc, hashes), [false, false, false, true, true]);
    const block1 = (await rpc('eth_getBlockByNumber', ['0x1', false])) as { transactions: string[] };
    assert.deepEqual(block1.transactions, [hashes[0]]);
  } finally {
    await node.stop();
  }
});

test('skip-tx-indexing: mined txs get no lookups; a bad value stops the chain with Go\'s text', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'skip-tx-indexing': true });
  try {
    const hashes = await transfers(rpc, 2);
    assert.deepEqual(await indexed(rpc, hashes), [false, false]);
    const block = (await rpc('eth_getBlockByNumber', ['0x2', true])) as { transactions: { hash: string }[] };
    assert.equal(block.transactions[0]!.hash, hashes[1]);
  } finally {
    await node.stop();
  }
  await assert.rejects(devNodeWithConfig({ 'skip-tx-indexing': 'yes' }), /json: cannot unmarshal string into Go struct field Config\.skip-tx-indexing of type bool/);
  await assert.rejects(devNodeWithConfig({ 'transaction-history': -1 }), /json: cannot unmarshal number -1 into Go struct field Config\.transaction-history of type uint64/);
});

test('transaction-history set after a restart unindexes the blocks already behind the window', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-txindex-'));
  const cfgDir = join(dataDir, 'chain-configs');
  mkdirSync(join(cfgDir, 'dev'), { recursive: true });
  try {
    let { node, rpc } = await devNode({ 'data-dir': dataDir, 'chain-config-dir': cfgDir });
    const hashes = await transfers(rpc, 4);
    await rpc('evm_mine'); // a block without txs inside the window's edge
    assert.deepEqual(await indexed(rpc, hashes), [true, true, true, true]);
    await node.stop();
    writeFileSync(join(cfgDir, 'dev', 'config.json'), JSON.stringify({ 'transaction-history': 3 }));
    ({ node, rpc } = await devNode({ 'data-dir': dataDir, 'chain-config-dir': cfgDir }));
    try {
      // Head 5: blocks 3, 4, 5 keep their lookups.
      assert.deepEqual(await indexed(rpc, hashes), [false, false, true, true]);
    } finally {
      await node.stop();
    }
    // Shorter again: the blocks between the stored tail (3) and the new edge (4) lose theirs too.
    writeFileSync(join(cfgDir, 'dev', 'config.json'), JSON.stringify({ 'transaction-history': 1 }));
    ({ node, rpc } = await devNode({ 'data-dir': dataDir, 'chain-config-dir': cfgDir }));
    try {
      assert.deepEqual(await indexed(rpc, hashes), [false, false, false, false]);
      // New blocks are indexed, and leave the window one block later.
      const [next] = await transfers(rpc, 1);
      assert.deepEqual(await indexed(rpc, [next!]), [true]);
      await rpc('evm_mine');
      assert.deepEqual(await indexed(rpc, [next!]), [false]);
    } finally {
      await node.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
