// Over a pool limit geth's legacy pool (Subnet-EVM's) takes the tx, answers its hash and trims
// itself at the reorg that follows: a sender's queue past tx-pool-account-queue loses its highest
// nonces, the queue past tx-pool-global-queue the txs of the senders with the oldest heartbeat,
// the executable txs past tx-pool-global-slots those of the senders with the most. Only a full
// pool (global slots + global queue) refuses, by price. Locals are never trimmed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { devNodeWithConfig, signTx, rpcError, DEV_ADDRS, type Rpc } from '../chain/testkit.js';

const CHECKSUMMED = ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'];
const nonceOf = async (rpc: Rpc, i: number) => BigInt((await rpc('eth_getTransactionCount', [DEV_ADDRS[i], 'latest'])) as string);
const send = async (rpc: Rpc, raw: string) => (await rpc('eth_sendRawTransaction', [raw])) as string;
const inPool = async (rpc: Rpc, hash: string) => (await rpc('eth_getTransactionByHash', [hash])) !== null;
/** Nonces (decimal strings) per sender in txpool_content's `pending` or `queued`. */
async function poolNonces(rpc: Rpc, part: 'pending' | 'queued', i: number): Promise<string[]> {
  const content = (await rpc('txpool_content')) as Record<string, Record<string, Record<string, unknown>>>;
  return Object.keys(content[part][CHECKSUMMED[i]] ?? {});
}

test('tx-pool-account-queue: a sender\'s queue over the limit keeps its lowest nonces, whatever the arrival order', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'tx-pool-account-queue': 2 });
  try {
    const n = await nonceOf(rpc, 1);
    const tx = (k: bigint) => signTx(1, { nonce: n + k, to: DEV_ADDRS[0], value: k });
    const h3 = await send(rpc, tx(3n));
    const h1 = await send(rpc, tx(1n));
    // The third queued tx is taken (its hash answered); the highest nonce, the first to come, goes.
    const h2 = await send(rpc, tx(2n));
    assert.equal(await inPool(rpc, h3), false, 'nonce n+3 trimmed');
    assert.deepEqual(await poolNonces(rpc, 'queued', 1), [String(n + 1n), String(n + 2n)]);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x0', queued: '0x2' });
    // Filling the gap mines the two kept txs (automine); the trimmed one is gone for good.
    await send(rpc, tx(0n));
    for (const h of [h1, h2]) assert.equal(((await rpc('eth_getTransactionReceipt', [h])) as { status: string }).status, '0x1');
    assert.equal(await nonceOf(rpc, 1), n + 3n);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x0', queued: '0x0' });
  } finally {
    await node.stop();
  }
});

test('tx-pool-account-queue does not trim locals (priority-regossip-addresses)', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'tx-pool-account-queue': 1, 'priority-regossip-addresses': [CHECKSUMMED[1]] });
  try {
    const [n1, n2] = [await nonceOf(rpc, 1), await nonceOf(rpc, 2)];
    for (let k = 1n; k <= 3n; k++) await send(rpc, signTx(1, { nonce: n1 + k, to: DEV_ADDRS[0] }));
    for (let k = 1n; k <= 3n; k++) await send(rpc, signTx(2, { nonce: n2 + k, to: DEV_ADDRS[0] }));
    assert.equal((await poolNonces(rpc, 'queued', 1)).length, 3, 'the local sender keeps all three');
    assert.deepEqual(await poolNonces(rpc, 'queued', 2), [String(n2 + 1n)], 'the remote sender keeps one');
  } finally {
    await node.stop();
  }
});

test('tx-pool-global-queue: the senders with the oldest heartbeat lose their highest queued nonces', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'tx-pool-global-queue': 3 });
  try {
    const [n1, n2] = [await nonceOf(rpc, 1), await nonceOf(rpc, 2)];
    await send(rpc, signTx(1, { nonce: n1 + 1n, to: DEV_ADDRS[0] }));
    const old2 = await send(rpc, signTx(1, { nonce: n1 + 2n, to: DEV_ADDRS[0] }));
    // Sender 2's heartbeat (its first queued tx) is later than sender 1's.
    await new Promise((r) => setTimeout(r, 20));
    await send(rpc, signTx(2, { nonce: n2 + 1n, to: DEV_ADDRS[0] }));
    const last = await send(rpc, signTx(2, { nonce: n2 + 2n, to: DEV_ADDRS[0] }));
    assert.match(last, /^0x[0-9a-f]{64}$/, 'the fourth queued tx is answered');
    assert.equal(await inPool(rpc, old2), false, 'sender 1 (oldest heartbeat) lost nonce n+2');
    assert.deepEqual(await poolNonces(rpc, 'queued', 1), [String(n1 + 1n)]);
    assert.deepEqual(await poolNonces(rpc, 'queued', 2), [String(n2 + 1n), String(n2 + 2n)]);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x0', queued: '0x3' });
  } finally {
    await node.stop();
  }
});

test('tx-pool-global-slots: executable txs over the limit are taken from the senders with the most (geth\'s truncatePending)', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'tx-pool-global-slots': 6, 'tx-pool-account-slots': 2 });
  try {
    await rpc('evm_setAutomine', [false]);
    const [n0, n1, n2] = [await nonceOf(rpc, 0), await nonceOf(rpc, 1), await nonceOf(rpc, 2)];
    for (let k = 0n; k < 4n; k++) await send(rpc, signTx(0, { nonce: n0 + k, to: DEV_ADDRS[2] }));
    for (let k = 0n; k < 3n; k++) await send(rpc, signTx(1, { nonce: n1 + k, to: DEV_ADDRS[2] }));
    // 7 > 6: sender 0 (4) is evened out down to sender 1 (3).
    assert.equal((await poolNonces(rpc, 'pending', 0)).length, 3);
    assert.equal((await poolNonces(rpc, 'pending', 1)).length, 3);
    // 7 > 6 again, the two offenders equal: both lose their highest nonce together (geth drops
    // one per offender per round, so the pool ends below the limit).
    await send(rpc, signTx(2, { nonce: n2, to: DEV_ADDRS[0] }));
    assert.deepEqual(await poolNonces(rpc, 'pending', 0), [String(n0), String(n0 + 1n)]);
    assert.deepEqual(await poolNonces(rpc, 'pending', 1), [String(n1), String(n1 + 1n)]);
    assert.deepEqual(await poolNonces(rpc, 'pending', 2), [String(n2)]);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x5', queued: '0x0' });
    // The pending nonce follows what is left.
    assert.equal(await rpc('eth_getTransactionCount', [DEV_ADDRS[0], 'pending']), '0x' + (n0 + 2n).toString(16));
  } finally {
    await node.stop();
  }
});

test('a full pool (global slots + global queue) takes a better-priced remote tx by evicting the cheapest; else its errors', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'tx-pool-global-slots': 1, 'tx-pool-global-queue': 1 });
  try {
    await rpc('evm_setAutomine', [false]);
    const [n0, n1, n2] = [await nonceOf(rpc, 0), await nonceOf(rpc, 1), await nonceOf(rpc, 2)];
    const cheap = await send(rpc, signTx(0, { nonce: n0, to: DEV_ADDRS[1] }));
    const dearer = await send(rpc, signTx(1, { nonce: n1, to: DEV_ADDRS[0], maxFeePerGas: 31_000_000_000n }));
    const sendErr = async (raw: string) => (await rpcError(rpc('eth_sendRawTransaction', [raw]))).message;
    // Two slots taken: a tx priced no better than the cheapest is refused.
    assert.equal(await sendErr(signTx(2, { nonce: n2, to: DEV_ADDRS[0] })), 'transaction underpriced');
    // A gapped tx may not push out an executable one.
    assert.equal(await sendErr(signTx(2, { nonce: n2 + 1n, to: DEV_ADDRS[0], maxFeePerGas: 40_000_000_000n })), 'future transaction tries to replace pending');
    // A better-priced one evicts the cheapest.
    const better = await send(rpc, signTx(2, { nonce: n2, to: DEV_ADDRS[0], maxFeePerGas: 40_000_000_000n }));
    assert.equal(await inPool(rpc, cheap), false, 'the cheapest tx was evicted');
    assert.equal(await inPool(rpc, dearer), true);
    assert.equal(await inPool(rpc, better), true);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x2', queued: '0x0' });
  } finally {
    await node.stop();
  }
});

test('a full pool of locals: a remote tx is `txpool is full`; a local one is taken', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'tx-pool-global-slots': 1, 'tx-pool-global-queue': 1, 'priority-regossip-addresses': [CHECKSUMMED[0], CHECKSUMMED[1]] });
  try {
    await rpc('evm_setAutomine', [false]);
    const [n0, n1, n2] = [await nonceOf(rpc, 0), await nonceOf(rpc, 1), await nonceOf(rpc, 2)];
    await send(rpc, signTx(0, { nonce: n0, to: DEV_ADDRS[1] }));
    await send(rpc, signTx(1, { nonce: n1, to: DEV_ADDRS[0] }));
    assert.equal((await rpcError(rpc('eth_sendRawTransaction', [signTx(2, { nonce: n2, to: DEV_ADDRS[0], maxFeePerGas: 90_000_000_000n })]))).message, 'txpool is full');
    await send(rpc, signTx(0, { nonce: n0 + 1n, to: DEV_ADDRS[1] }));
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x3', queued: '0x0' });
  } finally {
    await node.stop();
  }
});

test('a new head drops the txs their sender can no longer pay (geth\'s Filter at reset): an executable one\'s later nonces queue behind the gap', async () => {
  const { node, rpc } = await devNodeWithConfig({});
  try {
    await rpc('evm_setAutomine', [false]);
    const [n1, n2] = [await nonceOf(rpc, 1), await nonceOf(rpc, 2)];
    // Sender 2: a queued tx costing 21000 × 30 gwei.
    const queued = await send(rpc, signTx(2, { nonce: n2 + 1n, to: DEV_ADDRS[0] }));
    // Sender 1: an executable tx with a large value, then a cheap one after it.
    const costly = await send(rpc, signTx(1, { nonce: n1, to: DEV_ADDRS[0], value: 10n ** 20n }));
    const cheap = await send(rpc, signTx(1, { nonce: n1 + 1n, to: DEV_ADDRS[0], value: 1n }));
    // Both senders become poorer than those txs cost (a test-control edit: no new head yet).
    const cost = 21000n * 30_000_000_000n;
    await rpc('anvil_setBalance', [DEV_ADDRS[2], '0x' + (cost - 1n).toString(16)]);
    await rpc('anvil_setBalance', [DEV_ADDRS[1], '0x' + (10n ** 19n).toString(16)]);
    assert.equal(await inPool(rpc, queued), true, 'kept until a new head');
    // A new head (sender 0's tx): the pool is reset on it.
    await send(rpc, signTx(0, { nonce: await nonceOf(rpc, 0), to: DEV_ADDRS[2] }));
    await rpc('evm_mine', []);
    assert.equal(await inPool(rpc, queued), false, 'sender 2 cannot pay its queued tx');
    assert.equal(await inPool(rpc, costly), false, 'sender 1 cannot pay its executable tx');
    assert.equal(await inPool(rpc, cheap), true, 'the cheap one stays');
    assert.deepEqual(await poolNonces(rpc, 'queued', 1), [String(n1 + 1n)], 'now behind a gap');
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x0', queued: '0x1' });
  } finally {
    await node.stop();
  }
});
