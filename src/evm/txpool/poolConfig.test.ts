// The chain's config.json tx-pool-* keys reach the pool of a real node: the per-sender queue limit,
// the replacement price bump, and the lifetime after which a sender's queued txs are dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { devNodeWithConfig, signTx, rpcError, DEV_ADDRS, type Rpc } from '../chain/testkit.js';


const nonceOf = async (rpc: Rpc, i: number) => BigInt((await rpc('eth_getTransactionCount', [DEV_ADDRS[i], 'latest'])) as string);
const sendErr = async (rpc: Rpc, raw: string) => (await rpcError(rpc('eth_sendRawTransaction', [raw]))).message;

test('tx-pool-account-queue and tx-pool-price-bump from config.json', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'tx-pool-account-queue': 2, 'tx-pool-price-bump': 50 });
  try {
    const n = await nonceOf(rpc, 1);
    // Two gapped txs queue; a third from the same sender is over its queue: taken, answered, and
    // trimmed right away (geth's reorg caps the queue, highest nonces first).
    await rpc('eth_sendRawTransaction', [signTx(1, { nonce: n + 1n, to: DEV_ADDRS[0] })]);
    await rpc('eth_sendRawTransaction', [signTx(1, { nonce: n + 2n, to: DEV_ADDRS[0] })]);
    const over = (await rpc('eth_sendRawTransaction', [signTx(1, { nonce: n + 3n, to: DEV_ADDRS[0] })])) as string;
    assert.match(over, /^0x[0-9a-f]{64}$/);
    assert.equal(await rpc('eth_getTransactionByHash', [over]), null);
    // Another sender has its own queue.
    const m = await nonceOf(rpc, 2);
    await rpc('eth_sendRawTransaction', [signTx(2, { nonce: m + 1n, to: DEV_ADDRS[0], maxFeePerGas: 30_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n })]);
    // A 20 % bump is not enough with tx-pool-price-bump 50; 50 % is.
    const replace = (pct: bigint) =>
      signTx(2, { nonce: m + 1n, to: DEV_ADDRS[0], value: 1n, maxFeePerGas: (30_000_000_000n * (100n + pct)) / 100n, maxPriorityFeePerGas: (1_000_000_000n * (100n + pct)) / 100n });
    assert.equal(await sendErr(rpc, replace(20n)), 'replacement transaction underpriced');
    await rpc('eth_sendRawTransaction', [replace(50n)]);
    const status = (await rpc('txpool_status')) as { pending: string; queued: string };
    assert.deepEqual(status, { pending: '0x0', queued: '0x3' });
  } finally {
    await node.stop();
  }
});

test('tx-pool-lifetime: a sender\'s queued txs are dropped after the lifetime without progress', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'tx-pool-lifetime': '1s' });
  try {
    const n = await nonceOf(rpc, 1);
    const hash = (await rpc('eth_sendRawTransaction', [signTx(1, { nonce: n + 1n, to: DEV_ADDRS[0] })])) as string;
    assert.equal(((await rpc('eth_getTransactionByHash', [hash])) as { hash: string }).hash, hash);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x0', queued: '0x1' });
    const start = Date.now();
    while (Date.now() - start < 5000 && (await rpc('eth_getTransactionByHash', [hash])) !== null) await new Promise((r) => setTimeout(r, 100));
    const waited = Date.now() - start;
    assert.equal(await rpc('eth_getTransactionByHash', [hash]), null, 'the queued tx was dropped');
    assert.ok(waited >= 900, `not before the lifetime (${waited} ms)`);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x0', queued: '0x0' });
    // The sender can still send; its nonce never moved.
    await rpc('eth_sendRawTransaction', [signTx(1, { nonce: n, to: DEV_ADDRS[0] })]);
    assert.equal(await nonceOf(rpc, 1), n + 1n);
  } finally {
    await node.stop();
  }
});

test('tx-pool-* values Go cannot decode stop the chain with its texts; 0 means the default', async () => {
  for (const [config, message] of [
    [{ 'tx-pool-account-slots': -1 }, /failed to unmarshal config .*json: cannot unmarshal number -1 into Go struct field Config\.tx-pool-account-slots of type uint64/],
    [{ 'tx-pool-global-queue': '10' }, /json: cannot unmarshal string into Go struct field Config\.tx-pool-global-queue of type uint64/],
    [{ 'tx-pool-price-bump': 1.5 }, /json: cannot unmarshal number 1\.5 into Go struct field Config\.tx-pool-price-bump of type uint64/],
  ] as const) {
    await assert.rejects(devNodeWithConfig(config), message);
  }
  const { node, rpc } = await devNodeWithConfig({ 'tx-pool-account-queue': 0 });
  try {
    const n = await nonceOf(rpc, 2);
    for (let i = 1n; i <= 3n; i++) await rpc('eth_sendRawTransaction', [signTx(2, { nonce: n + i, to: DEV_ADDRS[0] })]);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x0', queued: '0x3' });
  } finally {
    await node.stop();
  }
});

test('locals never expire: priority-regossip-addresses, and every sender with local-txs-enabled', async () => {
  const gapped = async (rpc: Rpc, i: number) => (await rpc('eth_sendRawTransaction', [signTx(i, { nonce: (await nonceOf(rpc, i)) + 1n, to: DEV_ADDRS[0] })])) as string;
  const gone = async (rpc: Rpc, hash: string) => (await rpc('eth_getTransactionByHash', [hash])) === null;
  const waitGone = async (rpc: Rpc, hash: string) => {
    for (const start = Date.now(); Date.now() - start < 5000 && !(await gone(rpc, hash)); ) await new Promise((r) => setTimeout(r, 100));
  };
  {
    // A checksummed address in the config names the same sender.
    const { node, rpc } = await devNodeWithConfig({ 'tx-pool-lifetime': '1s', 'priority-regossip-addresses': ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'] });
    try {
      const local = await gapped(rpc, 1);
      const remote = await gapped(rpc, 2);
      await waitGone(rpc, remote);
      assert.equal(await gone(rpc, remote), true, 'the other sender\'s queued tx expired');
      assert.equal(await gone(rpc, local), false, 'the priority address\'s queued tx stays');
    } finally {
      await node.stop();
    }
  }
  {
    const { node, rpc } = await devNodeWithConfig({ 'tx-pool-lifetime': '1s', 'local-txs-enabled': true });
    try {
      const hash = await gapped(rpc, 2);
      await new Promise((r) => setTimeout(r, 1800));
      assert.equal(await gone(rpc, hash), false, 'with local-txs-enabled nothing expires');
    } finally {
      await node.stop();
    }
  }
});

test('block building takes the locals\' txs first (priority-regossip-addresses), then the rest by tip', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'priority-regossip-addresses': ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'] });
  try {
    await rpc('evm_setAutomine', [false]);
    const [n0, n1, n2] = [await nonceOf(rpc, 0), await nonceOf(rpc, 1), await nonceOf(rpc, 2)];
    const tip = (gwei: bigint) => ({ maxFeePerGas: 100_000_000_000n, maxPriorityFeePerGas: gwei * 1_000_000_000n });
    const high = (await rpc('eth_sendRawTransaction', [signTx(2, { nonce: n2, to: DEV_ADDRS[0], ...tip(20n) })])) as string;
    const mid = (await rpc('eth_sendRawTransaction', [signTx(0, { nonce: n0, to: DEV_ADDRS[2], ...tip(10n) })])) as string;
    const local = (await rpc('eth_sendRawTransaction', [signTx(1, { nonce: n1, to: DEV_ADDRS[0], ...tip(1n) })])) as string;
    await rpc('evm_mine', []);
    const block = (await rpc('eth_getBlockByNumber', ['latest', false])) as { transactions: string[] };
    assert.deepEqual(block.transactions, [local, high, mid], 'the local sender first despite its lowest tip');
  } finally {
    await node.stop();
  }
});
