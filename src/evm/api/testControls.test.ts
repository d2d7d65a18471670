// Test controls (evm_*, anvil_*, hardhat_*), and a chain config that turns them off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devNode, useDevNode, rpcError, signTx, DEV_ADDRS } from '../chain/testkit.js';

const { rpc } = useDevNode();

const OTHER = '0x1234567890123456789012345678901234567890';

test('evm_mine mines an empty block; anvil_mine / hardhat_mine mine several', async () => {
  const n = BigInt(await rpc('eth_blockNumber'));
  assert.equal(await rpc('evm_mine'), '0x0');
  const b = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.equal(BigInt(b.number), n + 1n);
  assert.equal(b.transactions.length, 0);
  await rpc('anvil_mine', ['0x3']);
  await rpc('hardhat_mine', [2]);
  assert.equal(BigInt(await rpc('eth_blockNumber')), n + 6n);
});

test('evm_setNextBlockTimestamp and evm_increaseTime move block time', async () => {
  const head = await rpc('eth_getBlockByNumber', ['latest', false]);
  const target = BigInt(head.timestamp) + 1000n;
  assert.equal(await rpc('evm_setNextBlockTimestamp', [Number(target)]), null);
  await rpc('evm_mine');
  const b = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.equal(BigInt(b.timestamp), target);
  assert.equal(BigInt(b.timestampMilliseconds), target * 1000n);
  // The total offset: Hardhat's decimal string, and Anvil's number under Anvil's name.
  const total = await rpc('evm_increaseTime', [3600]);
  assert.match(total, /^\d+$/);
  assert.equal(await rpc('anvil_increaseTime', [0]), Number(total));
  assert.equal(await rpc('anvil_setAutomine', [true]), null);
  assert.equal(await rpc('evm_setAutomine', [true]), true);
  await rpc('evm_mine');
  const c = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.ok(BigInt(c.timestamp) >= target + 3600n);
  const e = await rpcError(rpc('evm_setNextBlockTimestamp', [1000]));
  assert.equal(e.code, -32000);
  // The head's own second, as Anvil takes it, also when the head is within that second (ms time).
  const d = c; // mined at the clock's time: a millisecond time within its second
  assert.equal(await rpc('evm_setNextBlockTimestamp', [Number(BigInt(d.timestamp))]), null);
  await rpc('evm_mine');
  const same = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.equal(same.timestamp, d.timestamp);
  assert.ok(BigInt(same.timestampMilliseconds) > BigInt(d.timestampMilliseconds));
  const lower = await rpcError(rpc('evm_setNextBlockTimestamp', [Number(BigInt(d.timestamp) - 1n)]));
  assert.equal(lower.message, `Timestamp ${BigInt(d.timestamp) - 1n} is lower than the previous block's timestamp ${BigInt(d.timestamp)}`);
});

test('anvil_setBalance / setCode / setNonce / setStorageAt change the latest state', async () => {
  assert.equal(await rpc('anvil_setBalance', [OTHER, '0xde0b6b3a7640000']), null); // Anvil's answer (Hardhat's name answers true)
  assert.equal(await rpc('eth_getBalance', [OTHER, 'latest']), '0xde0b6b3a7640000');
  assert.equal(await rpc('hardhat_setCode', [OTHER, '0x602a60005260206000f3']), true);
  assert.equal(await rpc('eth_getCode', [OTHER, 'latest']), '0x602a60005260206000f3');
  assert.equal(BigInt(await rpc('eth_call', [{ to: OTHER }, 'latest'])), 42n);
  await rpc('anvil_setNonce', [OTHER, '0x7']);
  assert.equal(await rpc('eth_getTransactionCount', [OTHER, 'latest']), '0x7');
  await rpc('hardhat_setStorageAt', [OTHER, '0x1', '0x' + '00'.repeat(31) + '05']);
  assert.equal(BigInt(await rpc('eth_getStorageAt', [OTHER, '0x1', 'latest'])), 5n);
  // The edited state is the parent state of the next block.
  await rpc('evm_mine');
  assert.equal(await rpc('eth_getBalance', [OTHER, 'latest']), '0xde0b6b3a7640000');
  const e = await rpcError(rpc('anvil_setBalance', ['0x12', '0x1']));
  assert.equal(e.code, -32602);
});

test('impersonation: eth_sendTransaction from any address after anvil_impersonateAccount', async () => {
  const who = '0x00000000000000000000000000000000000000aa';
  await rpc('anvil_setBalance', [who, '0xde0b6b3a7640000']);
  let e = await rpcError(rpc('eth_sendTransaction', [{ from: who, to: DEV_ADDRS[1], value: '0x1' }]));
  assert.equal(e.message, 'unknown account');
  await rpc('anvil_impersonateAccount', [who]);
  const h = await rpc('eth_sendTransaction', [{ from: who, to: DEV_ADDRS[1], value: '0x1' }]);
  const r = await rpc('eth_getTransactionReceipt', [h]);
  assert.equal(r.from, who);
  assert.equal(r.status, '0x1');
  assert.equal((await rpc('eth_getTransactionByHash', [h])).from, who);
  await rpc('anvil_stopImpersonatingAccount', [who]);
  e = await rpcError(rpc('eth_sendTransaction', [{ from: who, to: DEV_ADDRS[1], value: '0x1' }]));
  assert.equal(e.message, 'unknown account');
});

test('evm_snapshot / evm_revert rewind blocks, state and receipts', async () => {
  const id = await rpc('evm_snapshot');
  const n = await rpc('eth_blockNumber');
  const bal = await rpc('eth_getBalance', [DEV_ADDRS[1], 'latest']);
  const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], value: '0x100' }]);
  await rpc('anvil_setBalance', [OTHER, '0x1']);
  assert.notEqual(await rpc('eth_blockNumber'), n);
  assert.equal(await rpc('evm_revert', [id]), true);
  assert.equal(await rpc('eth_blockNumber'), n);
  assert.equal(await rpc('eth_getBalance', [DEV_ADDRS[1], 'latest']), bal);
  assert.equal(await rpc('eth_getTransactionReceipt', [h]), null);
  assert.equal(await rpc('eth_getBalance', [OTHER, 'latest']), '0xde0b6b3a7640000');
  assert.equal(await rpc('evm_revert', [id]), false, 'a snapshot is used once');
  // The chain goes on from the reverted head.
  const h2 = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], value: '0x100' }]);
  assert.equal((await rpc('eth_getTransactionReceipt', [h2])).blockNumber, '0x' + (BigInt(n) + 1n).toString(16));
});

test('evm_setAutomine(false) leaves txs in the pool until evm_mine; interval mining mines on its own', async () => {
  await rpc('evm_setAutomine', [false]);
  assert.equal(await rpc('hardhat_getAutomine'), false);
  const nonce = BigInt(await rpc('eth_getTransactionCount', [DEV_ADDRS[1], 'latest']));
  const h = await rpc('eth_sendRawTransaction', [signTx(1, { nonce, to: DEV_ADDRS[0], value: 1n })]);
  assert.equal(await rpc('eth_getTransactionReceipt', [h]), null);
  assert.equal((await rpc('eth_getTransactionByHash', [h])).blockHash, null);
  await rpc('evm_mine');
  assert.equal((await rpc('eth_getTransactionReceipt', [h])).status, '0x1');
  const n = BigInt(await rpc('eth_blockNumber'));
  await rpc('evm_setIntervalMining', [50]);
  for (let i = 0; i < 200 && BigInt(await rpc('eth_blockNumber')) < n + 2n; i++) await new Promise((r) => setTimeout(r, 25));
  await rpc('evm_setIntervalMining', [0]);
  // A tick that fired before the interval was turned off may still be building its block (it has
  // asked for the block builder's lock): a block mined now queues behind it, so the next test
  // starts on a quiet chain.
  await rpc('evm_mine');
  assert.ok(BigInt(await rpc('eth_blockNumber')) >= n + 2n);
  await rpc('evm_setAutomine', [true]);
});

test('bad input to the test controls: out-of-range times and counts are -32602, the chain unchanged, the node answering', async () => {
  const before = await rpc('eth_getBlockByNumber', ['latest', false]);
  const bad = async (method: string, params: unknown[], pattern: RegExp) => {
    const e = await rpcError(rpc(method, params));
    assert.equal(e.code, -32602, `${method} ${JSON.stringify(params)}: ${e.message}`);
    assert.match(e.message, pattern, `${method} ${JSON.stringify(params)}`);
  };
  // Timestamps must stay uint64 milliseconds (a larger one broke every later block and TIMESTAMP).
  for (const ts of [1e300, '0x10000000000000000', '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '18446744073709552']) {
    await bad('evm_mine', [ts], /^invalid argument 0: timestamp \d+ out of range/);
    await bad('evm_setNextBlockTimestamp', [ts], /^invalid argument 0: timestamp \d+ out of range/);
    await bad('evm_mine', [{ timestamp: ts }], /^invalid argument 0: timestamp \d+ out of range/);
  }
  await bad('evm_increaseTime', [1e300], /^invalid argument 0: \d+ s later would pass the largest block time/);
  await bad('anvil_mine', ['0x2', '0xffffffffffffffff'], /^invalid argument 1: /);
  // Block counts: at most a million per call (2^64 used to hang the node until it ran out of memory).
  for (const method of ['anvil_mine', 'hardhat_mine']) {
    await bad(method, ['0xffffffffffffffff'], /^invalid argument 0: cannot mine 18446744073709551615 blocks in one call \(at most 1000000\)$/);
    await bad(method, [1e300], /^invalid argument 0: cannot mine \d+ blocks in one call/);
  }
  await bad('evm_mine', [{ blocks: 1e7 }], /^invalid argument 0: cannot mine 10000000 blocks/);
  // Interval mining: whole milliseconds.
  await bad('evm_setIntervalMining', [0.001], /^invalid argument 0: interval must be a non-negative whole number of milliseconds below 2\^53$/);
  await bad('evm_setIntervalMining', [-5], /^invalid argument 0: /);
  await bad('evm_increaseTime', [-1], /^invalid argument 0: -1 is not a non-negative whole number \(a number, a decimal string or a hex quantity\)$/);
  await bad('anvil_mine', [1.5], /^invalid argument 0: 1.5 is not a non-negative whole number/);
  const after = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.equal(after.hash, before.hash, 'nothing was mined');
  // The largest time still works, and the chain goes on from there... on a copy: revert after.
  const snap = await rpc('evm_snapshot');
  await rpc('evm_mine', ['18446744073709551']);
  const last = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.equal(BigInt(last.timestamp), 18446744073709551n);
  // 615 ms are left; blocks are at least 1 ms apart: 616 blocks cannot be made, and none is.
  await bad('anvil_mine', ['0x268'], /^invalid argument 0: 616 blocks 1 ms apart would pass the largest block time \(18446744073709551615 ms\)$/);
  assert.equal((await rpc('eth_getBlockByNumber', ['latest', false])).hash, last.hash);
  await rpc('anvil_mine', ['0x2', '0x1']).then(
    () => assert.fail('two blocks 1 s apart fit in 615 ms?'),
    (e: { code: number }) => assert.equal(e.code, -32602),
  );
  // Blocks until the last millisecond (the clock runs on from there), then the miner refuses.
  try {
    let end: { code: number; message: string } | undefined;
    for (let i = 0; i < 700 && !end; i++) end = await rpc('evm_mine', []).then(() => undefined, (e) => e);
    assert.ok(end, 'the miner stopped');
    assert.equal(end.code, -32000);
    assert.match(end.message, /^cannot build a block at 184467440737095516\d\d ms: block times end at 18446744073709551615 ms \(uint64\)$/);
    assert.ok(BigInt((await rpc('eth_getBlockByNumber', ['latest', false])).timestampMilliseconds) <= 2n ** 64n - 1n);
  } finally {
    assert.equal(await rpc('evm_revert', [snap]), true);
  }
});

test('interval mining longer than Node\'s timers allow (2^31 ms) waits instead of mining every millisecond', async () => {
  const n = BigInt(await rpc('eth_blockNumber'));
  await rpc('evm_setAutomine', [false]);
  try {
    assert.equal(await rpc('evm_setIntervalMining', [3_000_000_000]), true);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(BigInt(await rpc('eth_blockNumber')), n, 'no block in 300 ms');
    assert.equal(await rpc('anvil_setIntervalMining', ['0xffffffff']), null);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(BigInt(await rpc('eth_blockNumber')), n);
  } finally {
    await rpc('evm_setIntervalMining', [0]);
    await rpc('evm_setAutomine', [true]);
  }
});

test('mining many blocks leaves the node answering other requests', async () => {
  const n = BigInt(await rpc('eth_blockNumber'));
  const mining = rpc('hardhat_mine', ['0x7d0']); // 2,000 blocks
  let answered = 0;
  let done = false;
  void mining.then(() => (done = true));
  while (!done) {
    assert.equal(await rpc('eth_chainId'), '0xa8ca');
    answered++;
  }
  await mining;
  assert.equal(BigInt(await rpc('eth_blockNumber')), n + 2000n);
  assert.ok(answered > 1, `only ${answered} request answered while mining`);
});

test('"powder-test-controls": false makes the chain answer like a real node', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-test-'));
  const cfgDir = join(dataDir, 'configs', 'chains');
  mkdirSync(join(cfgDir, 'dev'), { recursive: true });
  writeFileSync(join(cfgDir, 'dev', 'config.json'), JSON.stringify({ 'powder-test-controls': false, 'eth-apis': ['eth', 'internal-blockchain'] }));
  const { node: n2, rpc: r2 } = await devNode({ 'chain-config-dir': cfgDir });
  try {
    for (const m of ['evm_mine', 'anvil_setBalance', 'evm_snapshot', 'eth_accounts', 'txpool_status', 'eth_getTransactionCount']) {
      const e = await rpcError(r2(m, []));
      assert.deepEqual([e.code, e.message], [-32601, `the method ${m} does not exist/is not available`]);
    }
    assert.equal(await r2('eth_chainId'), '0xa8ca');
  } finally {
    await n2.stop();
  }
});
