// Automine under 32 concurrent senders: after every eth_sendRawTransaction answer its tx is in a
// block for any later request (the receipt exists), and no tx is left behind in the pool. Guards the
// automine contract against two races fixed in the miner and pool: concurrent drains answering
// before the block existed, and a nonce read from a superseded head stranding a sender's next tx.
// (Those races showed under the benchmark's faster load; this test's scale did not reproduce them.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTx, type TypedTxData } from '@ethereumjs/tx';
import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { devAccounts } from '../chain/devAccounts.js';
import { devNode, CHAIN_ID, BLACKHOLE } from '../chain/testkit.js';

const common = createCustomCommon({ chainId: CHAIN_ID.toString() }, Mainnet, { hardfork: 'cancun' });

function sign(key: string, nonce: bigint): string {
  const data = { type: 2, nonce, to: BLACKHOLE, value: 1n, gasLimit: 21000n, maxFeePerGas: 300_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n, chainId: CHAIN_ID };
  const tx = createTx(data as TypedTxData, { common }).sign(Buffer.from(key.slice(2), 'hex'));
  return '0x' + Buffer.from(tx.serialize()).toString('hex');
}

test('automine with 32 concurrent senders: each answer has its receipt, nothing is stranded', async () => {
  const { node, rpc } = await devNode({ 'dev-accounts': 32 });
  try {
    const accounts = devAccounts(undefined, 32);
    const PER_SENDER = 30;
    const raws = accounts.map((a) => Array.from({ length: PER_SENDER }, (_, i) => sign(a.privateKey, BigInt(i))));
    const hashes: string[] = [];
    await Promise.all(
      raws.map(async (list) => {
        // Back to back, each answer awaited: the next tx is sent the moment the last one is mined.
        for (const raw of list) hashes.push(await rpc('eth_sendRawTransaction', [raw]));
      }),
    );
    // Every answered tx is in a block: its receipt exists now, without waiting.
    const receipts = await Promise.all(hashes.map((h) => rpc('eth_getTransactionReceipt', [h])));
    assert.deepEqual(hashes.filter((h, i) => !receipts[i] || receipts[i].status !== '0x1'), []);
    assert.deepEqual(await rpc('txpool_status', []), { pending: '0x0', queued: '0x0' });
    for (const a of accounts) assert.equal(BigInt(await rpc('eth_getTransactionCount', [a.address, 'latest'])), BigInt(PER_SENDER));
  } finally {
    await node.stop();
  }
});
