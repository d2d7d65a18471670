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
import { devNode, CHAIN_ID, BLACKHOLE, DEV_ADDRS } from '../chain/testkit.js';

const common = createCustomCommon({ chainId: CHAIN_ID.toString() }, Mainnet, { hardfork: 'cancun' });

function sign(key: string, nonce: bigint): string {
  const data = { type: 2, nonce, to: BLACKHOLE, value: 1n, gasLimit: 21000n, maxFeePerGas: 300_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n, chainId: CHAIN_ID };
  const tx = createTx(data as TypedTxData, { common }).sign(Buffer.from(key.slice(2), 'hex'));
  return '0x' + Buffer.from(tx.serialize()).toString('hex');
}

/** A genesis whose only funded account is dev account 0, with `config` over Subnet-EVM's fee config. */
function genesisWith(config: Record<string, unknown>) {
  return {
    config: {
      chainId: Number(CHAIN_ID),
      feeConfig: { gasLimit: 8000000, targetBlockRate: 2, minBaseFee: 25000000000, targetGas: 15000000, baseFeeChangeDenominator: 36, minBlockGasCost: 0, maxBlockGasCost: 1000000, blockGasCostStep: 200000 },
      ...config,
    },
    alloc: { [DEV_ADDRS[0]]: { balance: '0xd3c21bcecceda1000000' } },
    timestamp: '0x5FCB13D0',
    gasLimit: '0x7a1200',
    difficulty: '0x0',
  };
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

test('before Granite, a block its block gas cost stops is built again in 100 ms steps until the cost has fallen (Subnet-EVM\'s builder retry)', async () => {
  const { startTestNode } = await import('../../../test/helpers.js');
  const { rpcClient, signTx, DEV_ADDRS } = await import('../chain/testkit.js');
  const genesis = genesisWith({ graniteTimestamp: 1900000000 });
  const node = await startTestNode({ chains: [{ name: 'pre', aliases: ['pre'], genesis }] });
  try {
    const rpc = rpcClient(node.url + '/ext/bc/pre/rpc');
    // Long after genesis, a zero-tip tx fits (the block gas cost has fallen to 0).
    const first = await rpc('eth_sendRawTransaction', [signTx(0, { nonce: 0n, to: DEV_ADDRS[1] })]);
    assert.equal((await rpc('eth_getTransactionReceipt', [first])).status, '0x1');
    // Right after it, another zero-tip tx cannot pay the cost of a block < 2 s later (400,000 gas
    // × base fee): the automine fails, the tx waits in the pool and the node answers meanwhile.
    const t0 = Date.now();
    const second = await rpc('eth_sendRawTransaction', [signTx(0, { nonce: 1n, to: DEV_ADDRS[1] })]);
    assert.equal(await rpc('eth_getTransactionReceipt', [second]), null);
    // Without another tx arriving, the retries build its block once 2 s have passed.
    let receipt = null;
    while (receipt === null && Date.now() - t0 < 10_000) {
      await new Promise((r) => setTimeout(r, 100));
      receipt = await rpc('eth_getTransactionReceipt', [second]);
    }
    assert.equal(receipt?.status, '0x1', 'mined by a retry');
    const [a, b] = await Promise.all([first, second].map(async (h) => rpc('eth_getBlockByHash', [(await rpc('eth_getTransactionReceipt', [h])).blockHash, false])));
    assert.ok(BigInt(b.timestamp) - BigInt(a.timestamp) >= 2n, `${a.timestamp} → ${b.timestamp}`);
    assert.equal(b.blockGasCost, '0x0');
  } finally {
    await node.stop();
  }
});

test('Granite with the default 2 s block delay: a burst is mined at once up to 10 s ahead of the clock, then one block per delay; every answer has its receipt', async () => {
  const { startTestNode } = await import('../../../test/helpers.js');
  const { rpcClient, signTx, DEV_ADDRS } = await import('../chain/testkit.js');
  // A Granite genesis without initialMinDelayMS: ACP-226's default 2,000 ms between blocks.
  const genesis = genesisWith({});
  const node = await startTestNode({ chains: [{ name: 'slow', aliases: ['slow'], genesis }] });
  try {
    const rpc = rpcClient(node.url + '/ext/bc/slow/rpc');
    const blocks: { ms: bigint; seenAt: number }[] = [];
    for (let nonce = 0n; nonce < 8n; nonce++) {
      const hash = await rpc('eth_sendRawTransaction', [signTx(0, { nonce, to: DEV_ADDRS[1], maxPriorityFeePerGas: 1n })]);
      const receipt = await rpc('eth_getTransactionReceipt', [hash]);
      assert.equal(receipt?.status, '0x1', `tx ${nonce} mined before the next request was answered`);
      const b = await rpc('eth_getBlockByHash', [receipt.blockHash, false]);
      blocks.push({ ms: BigInt(b.timestampMilliseconds), seenAt: Date.now() });
    }
    for (let i = 1; i < blocks.length; i++) assert.ok(blocks[i].ms - blocks[i - 1].ms >= 2000n, `block ${i} at least 2 s after its parent`);
    // No block is more than 10 s ahead of the clock (Subnet-EVM refuses such a block).
    for (const b of blocks) assert.ok(b.ms <= BigInt(b.seenAt) + 10_000n, `${b.ms} vs seen at ${b.seenAt}`);
    // Eight blocks 2 s apart started within ~10 s of the clock: the last ones waited for their delay.
    assert.ok(blocks[7].seenAt - blocks[0].seenAt >= 2000, 'the burst was slowed down to the delay');
  } finally {
    await node.stop();
  }
});

test('a head made far ahead on purpose (hardhat_mine with an interval) does not hold the automine: the next tx is mined at once', async () => {
  const { node, rpc } = await devNode();
  try {
    const { signTx, DEV_ADDRS } = await import('../chain/testkit.js');
    await rpc('hardhat_mine', ['0x2', '0xe10']); // two blocks an hour apart: the head is an hour ahead
    const head = await rpc('eth_getBlockByNumber', ['latest', false]);
    const hash = await rpc('eth_sendRawTransaction', [signTx(0, { nonce: 0n, to: DEV_ADDRS[1] })]);
    const receipt = await rpc('eth_getTransactionReceipt', [hash]);
    assert.equal(receipt?.status, '0x1');
    const b = await rpc('eth_getBlockByHash', [receipt.blockHash, false]);
    assert.equal(BigInt(b.timestampMilliseconds), BigInt(head.timestampMilliseconds) + 1n, 'one block delay (1 ms) after its parent');
  } finally {
    await node.stop();
  }
});

test('a block delay longer than 2 s: the automine waits without holding requests (the receipt comes with the block)', async () => {
  const { startTestNode } = await import('../../../test/helpers.js');
  const { rpcClient, signTx, DEV_ADDRS } = await import('../chain/testkit.js');
  const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const genesis = genesisWith({});
  // min-delay-target raises each block's delay excess by ACP-226's step: after 2,000 blocks the
  // delay is ~2.9 s (from 2 s), longer than requests are held for.
  const dir = mkdtempSync(join(tmpdir(), 'powder-delay-'));
  mkdirSync(join(dir, 'slower'));
  writeFileSync(join(dir, 'slower', 'config.json'), JSON.stringify({ 'min-delay-target': 60000 }));
  const node = await startTestNode({ 'chain-config-dir': dir, chains: [{ name: 'slower', aliases: ['slower'], genesis }] });
  try {
    const rpc = rpcClient(node.url + '/ext/bc/slower/rpc');
    await rpc('hardhat_mine', ['0x7d0']);
    const head = await rpc('eth_getBlockByNumber', ['latest', false]);
    // The blocks were made a delay apart, far ahead of the clock: bring the clock to the head.
    const offsetS = Number(await rpc('evm_increaseTime', [Math.ceil((Number(BigInt(head.timestampMilliseconds)) - Date.now()) / 1000)]));
    const hashes: string[] = [];
    let pending: string | undefined;
    for (let nonce = 0n; nonce < 8n && pending === undefined; nonce++) {
      const hash = await rpc('eth_sendRawTransaction', [signTx(0, { nonce, to: DEV_ADDRS[1], maxPriorityFeePerGas: 1n })]);
      hashes.push(hash);
      if ((await rpc('eth_getTransactionReceipt', [hash])) === null) pending = hash;
    }
    // Within ~10 s of the clock each block came at once (or after a held wait); then one whose
    // delay was over 2 s away was left to its timer, and the node answered meanwhile.
    assert.ok(pending, 'a transaction was answered before its block existed');
    assert.equal(BigInt(await rpc('eth_blockNumber')), 2000n + BigInt(hashes.length - 1));
    let receipt = null;
    for (let i = 0; receipt === null && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 100));
      receipt = await rpc('eth_getTransactionReceipt', [pending]);
    }
    assert.equal(receipt?.status, '0x1', 'mined once its delay allowed');
    const b = await rpc('eth_getBlockByHash', [receipt.blockHash, false]);
    // (The chain's clock: the wall clock plus the offset, which evm_increaseTime gives in whole seconds.)
    assert.ok(BigInt(b.timestampMilliseconds) <= BigInt(Date.now() + offsetS * 1000 + 1000) + 10_000n, 'not more than 10 s ahead of the chain clock');
  } finally {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
