// historical-proof-query-window from the chain's config.json: eth_getProof answers only for blocks
// within the window behind the last accepted one, with Subnet-EVM's error text; 0 means any block.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { devNodeWithConfig, rpcError, DEV_ADDRS, type Rpc } from '../chain/testkit.js';


const proofAt = (rpc: Rpc, block: string) => rpc('eth_getProof', [DEV_ADDRS[0], [], block]) as Promise<{ accountProof: string[] }>;

test('eth_getProof: only within historical-proof-query-window blocks of the last accepted', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'historical-proof-query-window': 2 });
  try {
    for (let i = 0; i < 5; i++) await rpc('evm_mine');
    const head = Number(BigInt((await rpc('eth_blockNumber')) as string));
    assert.equal(head, 5);
    // 5 - 2 = 3 is the oldest allowed block.
    assert.ok((await proofAt(rpc, '0x3')).accountProof.length > 0);
    assert.ok((await proofAt(rpc, 'latest')).accountProof.length > 0);
    const e = await rpcError(proofAt(rpc, '0x2'));
    assert.deepEqual([e.code, e.message], [-32000, 'block number 2 is before the oldest allowed block number 3 (window of 2 blocks)']);
    // By hash too.
    const genesis = (await rpc('eth_getBlockByNumber', ['0x0', false])) as { hash: string };
    const byHash = await rpcError(rpc('eth_getProof', [DEV_ADDRS[0], [], { blockHash: genesis.hash }]));
    assert.equal(byHash.message, 'block number 0 is before the oldest allowed block number 3 (window of 2 blocks)');
    // Other state reads are not limited by it.
    assert.match((await rpc('eth_getBalance', [DEV_ADDRS[0], '0x0'])) as string, /^0x[0-9a-f]+$/);
  } finally {
    await node.stop();
  }
});

test('eth_getProof: a window of 0 allows any block; a bad window value stops the chain with Go\'s text', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'historical-proof-query-window': 0 });
  try {
    for (let i = 0; i < 3; i++) await rpc('evm_mine');
    assert.ok((await proofAt(rpc, '0x0')).accountProof.length > 0);
  } finally {
    await node.stop();
  }
  await assert.rejects(
    devNodeWithConfig({ 'historical-proof-query-window': -5 }),
    /json: cannot unmarshal number -5 into Go struct field Config\.historical-proof-query-window of type uint64/,
  );
});
