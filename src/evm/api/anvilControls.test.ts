// The test controls a test suite resets and steers a chain with between tests: anvil_reset /
// hardhat_reset, Anvil's block timestamp interval, the pool edits (drop one tx, all txs, a
// sender's txs), Anvil's unsigned send, the coinbase, the setters Subnet-EVM's fee config refuses,
// and Ganache's names (evm_setTime, evm_setAccount*). Each against a real node over HTTP (LMDB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { devNodeWithConfig, rpcClient, rpcError, signTx, BLACKHOLE, DEV_ADDRS, type Rpc, withDevNode } from '../chain/testkit.js';

const OTHER = '0x1234567890123456789012345678901234567890';


const head = (rpc: Rpc) => rpc('eth_getBlockByNumber', ['latest', false]);

test('anvil_reset / hardhat_reset: back to genesis (blocks, txs, state edits, pool, time, snapshots, impersonation, mining mode), and it lasts over a restart', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-reset-'));
  try {
    const genesis = await withGenesis(dataDir, async (rpc) => {
      const genesis = await rpc('eth_getBlockByNumber', ['0x0', false]);
      const startBalance = await rpc('eth_getBalance', [DEV_ADDRS[1], 'latest']);
      const sent = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], value: '0x100' }]);
      await rpc('anvil_mine', ['0x3']);
      await rpc('anvil_setBalance', [OTHER, '0x1']);
      await rpc('anvil_impersonateAccount', [OTHER]);
      await rpc('evm_increaseTime', [100000]);
      await rpc('anvil_setBlockTimestampInterval', [50]);
      const snap = await rpc('evm_snapshot');
      await rpc('evm_setAutomine', [false]);
      const queued = await rpc('eth_sendRawTransaction', [signTx(2, { nonce: 0n, to: OTHER, value: 1n })]);
      assert.equal(BigInt(await rpc('eth_blockNumber')), 4n);

      assert.equal(await rpc('anvil_reset'), null);
      assert.equal(await rpc('eth_blockNumber'), '0x0');
      assert.deepEqual(await head(rpc), genesis);
      assert.equal(await rpc('eth_getTransactionReceipt', [sent]), null);
      assert.equal(await rpc('eth_getTransactionByHash', [sent]), null);
      assert.equal(await rpc('eth_getTransactionByHash', [queued]), null);
      assert.equal(await rpc('eth_getBalance', [DEV_ADDRS[1], 'latest']), startBalance);
      assert.equal(await rpc('eth_getBalance', [OTHER, 'latest']), '0x0');
      assert.deepEqual(await rpc('txpool_status'), { pending: '0x0', queued: '0x0' });
      assert.equal(await rpc('evm_revert', [snap]), false, 'snapshots are gone');
      assert.equal(await rpc('hardhat_getAutomine'), true, 'the mining mode the chain started with');
      assert.equal(await rpc('anvil_removeBlockTimestampInterval'), false, 'the interval is gone');
      const e = await rpcError(rpc('eth_sendTransaction', [{ from: OTHER, to: DEV_ADDRS[1], value: '0x1' }]));
      assert.equal(e.message, 'unknown account', 'impersonation is gone');

      // The time offset is gone: the next block is at the clock's time again, not ~28 h ahead.
      const before = Math.floor(Date.now() / 1000);
      const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], value: '0x1' }]);
      const r = await rpc('eth_getTransactionReceipt', [h]);
      assert.equal(r.blockNumber, '0x1');
      const t = Number((await head(rpc)).timestamp);
      assert.ok(t >= before - 1 && t < before + 60, `block time ${t} near the clock ${before}`);
      assert.equal(await rpc('hardhat_reset', []), true);
      assert.equal(await rpc('eth_blockNumber'), '0x0');
      return genesis;
    });
    // Reset is durable: a restart on the same folder starts from the genesis.
    await withGenesis(dataDir, async (rpc) => {
      assert.equal(await rpc('eth_blockNumber'), '0x0');
      assert.deepEqual(await head(rpc), genesis);
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** A dev node on `dataDir` (a restart when it holds a chain). */
const withGenesis = <T>(dataDir: string, fn: (rpc: Rpc) => Promise<T>): Promise<T> => withDevNode((rpc) => fn(rpc), { 'data-dir': dataDir });

test('reset refuses a forking config (Powder does not fork) and bad params, and changes nothing', () =>
  withDevNode(async (rpc) => {
    await rpc('evm_mine');
    for (const [method, params] of [
      ['hardhat_reset', [{ forking: { jsonRpcUrl: 'http://127.0.0.1:8545' } }]],
      ['anvil_reset', [{ jsonRpcUrl: 'http://127.0.0.1:8545', blockNumber: 5 }]],
      ['anvil_reset', [{ forking: { blockNumber: 1 } }]],
    ] as const) {
      const e = await rpcError(rpc(method, [...params]));
      assert.deepEqual([e.code, e.message], [-32602, 'forking is not supported: a Powder chain resets to its own genesis']);
    }
    for (const bad of [5, 'x', [1]]) {
      const e = await rpcError(rpc('anvil_reset', [bad]));
      assert.equal(e.code, -32602);
    }
    assert.equal(await rpc('eth_blockNumber'), '0x1');
    // An empty forking config (viem's reset() without a fork) is a plain reset.
    assert.equal(await rpc('hardhat_reset', [{ forking: {} }]), true);
    assert.equal(await rpc('eth_blockNumber'), '0x0');
    assert.equal(await rpc('anvil_reset', [{}]), null);
  }));

test('anvil_setBlockTimestampInterval: each block that far after its parent, whatever the clock, until removed', () =>
  withDevNode(async (rpc) => {
    await rpc('evm_mine');
    const t0 = BigInt((await head(rpc)).timestamp);
    assert.equal(await rpc('anvil_setBlockTimestampInterval', [3600]), null);
    await rpc('evm_mine');
    await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], value: '0x1' }]);
    await rpc('anvil_mine', [2]);
    const times: bigint[] = [];
    for (let n = 2n; n <= 5n; n++) times.push(BigInt((await rpc('eth_getBlockByNumber', ['0x' + n.toString(16), false])).timestamp));
    assert.deepEqual(times, [t0 + 3600n, t0 + 7200n, t0 + 10800n, t0 + 14400n]);
    // A one-shot timestamp still wins for its block.
    await rpc('evm_setNextBlockTimestamp', [Number(t0 + 20000n)]);
    await rpc('evm_mine');
    assert.equal(BigInt((await head(rpc)).timestamp), t0 + 20000n);
    await rpc('evm_mine');
    assert.equal(BigInt((await head(rpc)).timestamp), t0 + 23600n);
    assert.equal(await rpc('anvil_removeBlockTimestampInterval'), true);
    assert.equal(await rpc('anvil_removeBlockTimestampInterval'), false);
    // Removed: the next block follows the clock (moved by evm_setNextBlockTimestamp) again.
    await rpc('evm_mine');
    const last = BigInt((await head(rpc)).timestamp);
    assert.ok(last > t0 + 20000n && last < t0 + 23600n + 10n, `${last}`);
    for (const bad of [-1, 'abc', 2n ** 64n]) {
      const e = await rpcError(rpc('anvil_setBlockTimestampInterval', [typeof bad === 'bigint' ? '0x' + bad.toString(16) : bad]));
      assert.equal(e.code, -32602);
    }
    const e = await rpcError(rpc('anvil_setBlockTimestampInterval', []));
    assert.equal(e.code, -32602);
  }));

test('pool edits: anvil_dropTransaction, hardhat_dropTransaction, anvil_dropAllTransactions, anvil_removePoolTransactions', () =>
  withDevNode(async (rpc) => {
    await rpc('evm_setAutomine', [false]);
    const send = (key: number, nonce: bigint) => rpc('eth_sendRawTransaction', [signTx(key, { nonce, to: OTHER, value: 1n })]);
    const a0 = await send(1, 0n);
    const a1 = await send(1, 1n);
    const b0 = await send(2, 0n);
    const b1 = await send(2, 1n);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x4', queued: '0x0' });

    // Dropping the first of a sender's txs leaves the later one waiting for its nonce.
    assert.equal(await rpc('anvil_dropTransaction', [a0]), a0);
    assert.equal(await rpc('anvil_dropTransaction', [a0]), null);
    assert.equal(await rpc('eth_getTransactionByHash', [a0]), null);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x2', queued: '0x1' });
    assert.equal(await rpc('hardhat_dropTransaction', [a1]), true);
    assert.equal(await rpc('hardhat_dropTransaction', [a1]), false);
    assert.equal(await rpc('anvil_removePoolTransactions', [DEV_ADDRS[2]]), null);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x0', queued: '0x0' });
    for (const h of [b0, b1]) assert.equal(await rpc('eth_getTransactionByHash', [h]), null);

    await send(1, 0n);
    await send(2, 0n);
    assert.equal(await rpc('anvil_dropAllTransactions'), null);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x0', queued: '0x0' });
    // A dropped tx can be sent again; once mined it cannot be dropped (Hardhat's error).
    const mined = await send(1, 0n);
    await rpc('evm_mine');
    assert.equal((await rpc('eth_getTransactionReceipt', [mined])).status, '0x1');
    let e = await rpcError(rpc('hardhat_dropTransaction', [mined]));
    assert.deepEqual([e.code, e.message], [-32602, `Transaction ${mined} cannot be dropped because it's already mined`]);
    assert.equal(await rpc('anvil_dropTransaction', [mined]), null);

    for (const [m, bad] of [['anvil_dropTransaction', '0x12'], ['hardhat_dropTransaction', 7], ['anvil_removePoolTransactions', '0xzz']] as const) {
      e = await rpcError(rpc(m, [bad]));
      assert.equal(e.code, -32602);
    }
  }));

test('eth_sendUnsignedTransaction: from any address, without its key or impersonation', () =>
  withDevNode(async (rpc) => {
    const who = '0x00000000000000000000000000000000000000bb';
    await rpc('anvil_setBalance', [who, '0xde0b6b3a7640000']);
    const h = await rpc('eth_sendUnsignedTransaction', [{ from: who, to: OTHER, value: '0x5' }]);
    const r = await rpc('eth_getTransactionReceipt', [h]);
    assert.deepEqual([r.status, r.from], ['0x1', who]);
    assert.equal(await rpc('eth_getBalance', [OTHER, 'latest']), '0x5');
    // Still not a signer for eth_sendTransaction.
    let e = await rpcError(rpc('eth_sendTransaction', [{ from: who, to: OTHER, value: '0x1' }]));
    assert.equal(e.message, 'unknown account');
    // No `from`: the first dev account, as on Anvil.
    const h2 = await rpc('eth_sendUnsignedTransaction', [{ to: OTHER, value: '0x1' }]);
    assert.equal((await rpc('eth_getTransactionReceipt', [h2])).from, DEV_ADDRS[0].toLowerCase());
    // The usual checks still apply: no funds, a bad argument.
    e = await rpcError(rpc('eth_sendUnsignedTransaction', [{ from: '0x00000000000000000000000000000000000000cc', to: OTHER, value: '0x1' }]));
    assert.equal(e.code, -32000);
    assert.match(e.message, /insufficient funds/);
    e = await rpcError(rpc('eth_sendUnsignedTransaction', [{ from: 'nope' }]));
    assert.equal(e.code, -32602);
    e = await rpcError(rpc('eth_sendUnsignedTransaction', []));
    assert.equal(e.code, -32602);
  }));

test('anvil_setCoinbase / hardhat_setCoinbase: the fee recipient where the chain allows one, refused where blocks must pay the blackhole', () =>
  withDevNode(
    async (_rpc, _dir) => {
      const url = (chain: string) => _rpc.url.replace('/ext/bc/dev/rpc', `/ext/bc/${chain}/rpc`);
      const dev = rpcClient(url('dev'));
      const fr = rpcClient(url('fr'));
      let e = await rpcError(dev('anvil_setCoinbase', [OTHER]));
      assert.deepEqual([e.code, e.message], [-32000, `fee recipients are not allowed on this chain: its blocks pay ${BLACKHOLE} (allowFeeRecipients or the RewardManager precompile decide)`]);
      await dev('evm_mine');
      assert.equal((await head(dev)).miner, BLACKHOLE);

      assert.equal(await fr('hardhat_setCoinbase', [OTHER]), true);
      const who = '0x00000000000000000000000000000000000000dd';
      await fr('anvil_setBalance', [who, '0xde0b6b3a7640000']);
      const h = await fr('eth_sendUnsignedTransaction', [{ from: who, to: who, value: '0x0', maxPriorityFeePerGas: '0x3b9aca00' }]);
      const r = await fr('eth_getTransactionReceipt', [h]);
      assert.equal((await fr('eth_getBlockByHash', [r.blockHash, false])).miner, OTHER);
      assert.ok(BigInt(await fr('eth_getBalance', [OTHER, 'latest'])) > 0n, 'the fees were paid to the new coinbase');
      assert.equal(await fr('anvil_setCoinbase', [DEV_ADDRS[2]]), null);
      await fr('evm_mine');
      assert.equal((await head(fr)).miner, DEV_ADDRS[2].toLowerCase());
      e = await rpcError(fr('anvil_setCoinbase', ['0x1234']));
      assert.equal(e.code, -32602);
    },
    {
      chains: [
        { name: 'dev', aliases: ['dev'], dev: true },
        { name: 'fr', aliases: ['fr'], genesis: { config: { chainId: 99990, allowFeeRecipients: true }, alloc: {}, gasLimit: '0x7A1200', difficulty: '0x0', timestamp: '0x0' } },
      ],
    },
  ));

test('block gas limit, next base fee and minimum gas price are the fee config\'s: a clear refusal, nothing changed', () =>
  withDevNode(async (rpc) => {
    const before = await head(rpc);
    for (const [m, what] of [
      ['evm_setBlockGasLimit', 'the block gas limit'],
      ['anvil_setBlockGasLimit', 'the block gas limit'],
      ['hardhat_setNextBlockBaseFeePerGas', 'the base fee'],
      ['anvil_setNextBlockBaseFeePerGas', 'the base fee'],
      ['hardhat_setMinGasPrice', 'the minimum gas price (minBaseFee)'],
      ['anvil_setMinGasPrice', 'the minimum gas price (minBaseFee)'],
    ]) {
      const e = await rpcError(rpc(m, ['0x1']));
      assert.deepEqual([e.code, e.message], [-32000, `${what} is set by the chain's fee config (genesis feeConfig, upgrade.json or the FeeManager precompile): Subnet-EVM rejects a block with another`]);
    }
    await rpc('evm_mine');
    const after = await head(rpc);
    assert.equal(after.gasLimit, before.gasLimit);
  }));

test("Ganache's names: evm_setTime (milliseconds or a date, backwards too) and evm_setAccountBalance / Code / Nonce / StorageAt", () =>
  withDevNode(async (rpc) => {
    const day = 86_400_000;
    const offset = await rpc('evm_setTime', [Date.now() + day]);
    assert.ok(Math.abs(offset - 86_400) <= 2, `offset ${offset} s`);
    await rpc('evm_mine');
    const ahead = Number((await head(rpc)).timestamp);
    assert.ok(Math.abs(ahead - (Date.now() + day) / 1000) <= 5, `${ahead}`);
    // Backwards: the clock goes back, the next block is still after its parent.
    const back = await rpc('evm_setTime', [new Date(Date.now() - day).toISOString()]);
    assert.ok(Math.abs(back + 86_400) <= 2, `offset ${back} s`);
    await rpc('evm_mine');
    assert.ok(Number((await head(rpc)).timestamp) >= ahead);
    assert.ok(Math.abs((await rpc('evm_setTime', ['0x' + Date.now().toString(16)])) - 0) <= 2);
    for (const bad of ['tomorrow', -5, 2 ** 70, null]) {
      const e = await rpcError(rpc('evm_setTime', [bad]));
      assert.equal(e.code, -32602, String(bad));
    }
    // A number below 10^11 is Anvil's seconds (Anvil serves evm_setTime as anvil_setTime): its answer.
    const secs = Math.floor(Date.now() / 1000) + 2 * 86_400;
    const moved = await rpc('evm_setTime', [secs]);
    assert.ok(typeof moved === 'number' && Math.abs(moved - 2 * 86_400) <= 2, `moved ${moved} s`);
    await rpc('evm_mine');
    assert.ok(Math.abs(Number((await head(rpc)).timestamp) - secs) <= 5);

    assert.equal(await rpc('evm_setAccountBalance', [OTHER, '0x64']), true);
    assert.equal(await rpc('evm_setAccountNonce', [OTHER, '0x3']), true);
    assert.equal(await rpc('evm_setAccountCode', [OTHER, '0x602a60005260206000f3']), true);
    assert.equal(await rpc('evm_setAccountStorageAt', [OTHER, '0x2', '0x09']), true);
    assert.equal(await rpc('eth_getBalance', [OTHER, 'latest']), '0x64');
    assert.equal(await rpc('eth_getTransactionCount', [OTHER, 'latest']), '0x3');
    assert.equal(await rpc('eth_getCode', [OTHER, 'latest']), '0x602a60005260206000f3');
    assert.equal(BigInt(await rpc('eth_getStorageAt', [OTHER, '0x2', 'latest'])), 9n);
    const e = await rpcError(rpc('evm_setAccountBalance', ['0x12', '0x1']));
    assert.equal(e.code, -32602);
  }));

test('anvil_dumpState / anvil_loadState: the latest accounts out of one node and into another (gzipped or plain JSON); a bad file changes nothing', async () => {
  const W = '0x00000000000000000000000000000000000000ee';
  let dump = '';
  let devBalance = '';
  await withDevNode(async (rpc) => {
    await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: OTHER, value: '0x7' }]);
    await rpc('anvil_setCode', [W, '0x602a60005260206000f3']);
    await rpc('anvil_setStorageAt', [W, '0x5', '0x' + 'ab'.repeat(32)]);
    await rpc('anvil_setNonce', [W, '0x9']);
    dump = await rpc('anvil_dumpState');
    devBalance = await rpc('eth_getBalance', [DEV_ADDRS[0], 'latest']);
    assert.match(dump, /^0x1f8b/, 'gzipped, as Anvil writes it');
    const state = JSON.parse(gunzipSync(Buffer.from(dump.slice(2), 'hex')).toString());
    assert.deepEqual(state.accounts[W], { nonce: 9, balance: '0x0', code: '0x602a60005260206000f3', storage: { '0x5': '0x' + 'ab'.repeat(32) } });
    assert.equal(state.accounts[OTHER].balance, '0x7');
    assert.equal(state.best_block_number, await rpc('eth_blockNumber'));
  });
  await withDevNode(async (rpc) => {
    assert.equal(await rpc('anvil_loadState', [dump]), true);
    assert.equal(await rpc('eth_getBalance', [OTHER, 'latest']), '0x7');
    assert.equal(await rpc('eth_getBalance', [DEV_ADDRS[0], 'latest']), devBalance);
    assert.equal(await rpc('eth_getCode', [W, 'latest']), '0x602a60005260206000f3');
    assert.equal(await rpc('eth_getStorageAt', [W, '0x5', 'latest']), '0x' + 'ab'.repeat(32));
    assert.equal(await rpc('eth_getTransactionCount', [W, 'latest']), '0x9');
    assert.equal(BigInt(await rpc('eth_call', [{ to: W }, 'latest'])), 42n);
    assert.equal(await rpc('eth_blockNumber'), '0x0', 'accounts only: no blocks are carried over');

    // An Anvil file written by hand, not gzipped: its fields win, slots not in it stay.
    const plain = '0x' + Buffer.from(JSON.stringify({ accounts: { [W]: { nonce: 1, balance: '0x10', code: '0x', storage: { '0x6': '0x2' } } } })).toString('hex');
    assert.equal(await rpc('anvil_loadState', [plain]), true);
    assert.equal(await rpc('eth_getBalance', [W, 'latest']), '0x10');
    assert.equal(await rpc('eth_getCode', [W, 'latest']), '0x');
    assert.equal(BigInt(await rpc('eth_getStorageAt', [W, '0x6', 'latest'])), 2n);
    assert.equal(await rpc('eth_getStorageAt', [W, '0x5', 'latest']), '0x' + 'ab'.repeat(32));

    const hexOf = (o: unknown) => '0x' + Buffer.from(typeof o === 'string' ? o : JSON.stringify(o)).toString('hex');
    for (const bad of [
      'nope',
      42,
      '0x123',
      '0x1f8b0000',
      hexOf('{"accounts":'),
      hexOf([1]),
      hexOf({ block: {} }),
      hexOf({ accounts: { '0x12': {} } }),
      hexOf({ accounts: { [W]: { balance: '0x20', nonce: '0x10000000000000000' } } }),
      hexOf({ accounts: { [W]: { balance: '0x20', code: 'zz' } } }),
      hexOf({ accounts: { [W]: { balance: '0x20', storage: { x: '0x1' } } } }),
      hexOf({ accounts: { [W]: { balance: '0x20' }, [OTHER]: { balance: -1 } } }),
    ]) {
      const e = await rpcError(rpc('anvil_loadState', [bad]));
      assert.equal(e.code, -32602, String(bad));
    }
    assert.equal(await rpc('eth_getBalance', [W, 'latest']), '0x10', 'nothing applied');
  });
});

test('anvil_dumpState on a chain that does not record preimages: a clear error', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'preimages-enabled': false });
  try {
    const e = await rpcError(rpc('anvil_dumpState'));
    assert.equal(e.code, -32000);
    assert.match(e.message, /preimages-enabled/);
  } finally {
    await node.stop();
  }
});
