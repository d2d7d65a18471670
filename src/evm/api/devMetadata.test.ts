// anvil_nodeInfo, anvil_metadata, hardhat_metadata and anvil_setLoggingEnabled /
// hardhat_setLoggingEnabled, against real nodes over HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rpcError, CHAIN_ID, DEV_ADDRS, type Rpc, withDevNode } from '../chain/testkit.js';
import { LogFactory } from '../../logging/logger.js';
import { Levels } from '../../logging/levels.js';


const HASH = /^0x[0-9a-f]{64}$/;

test('hardhat_metadata / anvil_metadata: client version, chain id, latest block, snapshots; the instance id new per start and per reset', async () => {
  let firstId = '';
  await withDevNode(async (rpc) => {
    await rpc('evm_mine');
    const head = await rpc('eth_getBlockByNumber', ['latest', false]);
    const hh = await rpc('hardhat_metadata');
    assert.deepEqual(Object.keys(hh).sort(), ['chainId', 'clientVersion', 'instanceId', 'latestBlockHash', 'latestBlockNumber']);
    assert.equal(hh.clientVersion, await rpc('web3_clientVersion'));
    assert.equal(hh.chainId, Number(CHAIN_ID));
    assert.match(hh.instanceId, HASH);
    assert.equal(hh.latestBlockNumber, 1);
    assert.equal(hh.latestBlockHash, head.hash);
    assert.equal(hh.forkedNetwork, undefined, 'no fork: absent, as on Hardhat');
    firstId = hh.instanceId;

    const snap = await rpc('evm_snapshot');
    await rpc('evm_mine');
    const snap2 = await rpc('anvil_snapshot');
    const head2 = await rpc('eth_getBlockByNumber', ['latest', false]);
    const an = await rpc('anvil_metadata');
    assert.deepEqual(an, {
      clientVersion: hh.clientVersion,
      chainId: Number(CHAIN_ID),
      instanceId: firstId,
      latestBlockNumber: 2,
      latestBlockHash: head2.hash,
      forkedNetwork: null,
      snapshots: { [snap]: [1, head.hash], [snap2]: [2, head2.hash] },
    });
    // Reverting drops the later snapshots from the list; a reset gives a new instance id.
    assert.equal(await rpc('anvil_revert', [snap]), true);
    assert.deepEqual((await rpc('anvil_metadata')).snapshots, {});
    assert.equal((await rpc('hardhat_metadata')).instanceId, firstId, 'the same instance until a reset');
    await rpc('hardhat_reset');
    const afterReset = await rpc('hardhat_metadata');
    assert.notEqual(afterReset.instanceId, firstId);
    assert.equal(afterReset.latestBlockNumber, 0);
    assert.equal((await rpc('anvil_metadata')).instanceId, afterReset.instanceId);

    for (const m of ['hardhat_metadata', 'anvil_metadata', 'anvil_nodeInfo']) {
      const e = await rpcError(rpc(m, [1]));
      assert.deepEqual([e.code, e.message], [-32602, 'too many arguments, want at most 0'], m);
    }
  });
  await withDevNode(async (rpc) => {
    assert.notEqual((await rpc('hardhat_metadata')).instanceId, firstId, 'a new start, a new instance');
  });
});

test("anvil_nodeInfo: Anvil's NodeInfo with the head, the fork rules, the next base fee, gas limit and price, no fork", () =>
  withDevNode(async (rpc) => {
    await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], value: '0x1' }]);
    const head = await rpc('eth_getBlockByNumber', ['latest', false]);
    const info = await rpc('anvil_nodeInfo');
    assert.deepEqual(Object.keys(info), ['currentBlockNumber', 'currentBlockTimestamp', 'currentBlockHash', 'hardFork', 'transactionOrder', 'environment', 'forkConfig']);
    assert.equal(info.currentBlockNumber, head.number);
    assert.equal(info.currentBlockTimestamp, Number(head.timestamp));
    assert.equal(info.currentBlockHash, head.hash);
    assert.equal(info.hardFork, 'cancun', 'the dev chain runs Etna and later: geth Cancun rules');
    assert.equal(info.transactionOrder, 'fees');
    assert.equal(info.environment.chainId, Number(CHAIN_ID));
    assert.equal(info.environment.gasLimit, head.gasLimit);
    assert.equal(info.environment.gasPrice, await rpc('eth_gasPrice'));
    assert.match(info.environment.baseFee, /^0x[0-9a-f]+$/);
    assert.ok(BigInt(info.environment.baseFee) > 0n);
    assert.deepEqual(info.forkConfig, { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null });
  }));

const apiRequestsIn = (text: string) => text.split('\n').filter((l) => l.includes('API request')).length;
const fileRequests = (dataDir: string) => {
  const file = join(dataDir, 'logs', 'dev.log');
  return existsSync(file) ? apiRequestsIn(readFileSync(file, 'utf8')) : 0;
};

test("anvil_setLoggingEnabled / hardhat_setLoggingEnabled: the chain's per-request display lines stop and come back; the log file keeps them", async () => {
  // The node runs in this process: its display is this process's stdout, captured here (and not
  // passed on, so the test runner's output stays clean).
  let shown = '';
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    shown += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    await withDevNode(
      async (rpc, dataDir) => {
        await rpc('eth_blockNumber');
        const on = apiRequestsIn(shown);
        assert.ok(on >= 1, 'a request line per request at DEBUG');
        assert.equal(await rpc('anvil_setLoggingEnabled', [false]), null);
        const muted = apiRequestsIn(shown); // the toggle's own request was logged before it ran
        const filed = fileRequests(dataDir);
        for (let i = 0; i < 3; i++) await rpc('eth_blockNumber');
        await rpc('evm_mine');
        assert.equal(apiRequestsIn(shown), muted, 'nothing displayed while muted');
        assert.equal(fileRequests(dataDir), filed + 4, 'the log file keeps every request');
        assert.equal(await rpc('hardhat_setLoggingEnabled', [true]), true);
        await rpc('eth_blockNumber');
        assert.equal(apiRequestsIn(shown), muted + 1, 'displayed again');

        for (const [params, code] of [[[], -32602], [['yes'], -32602], [[1], -32602], [[true, 1], -32602]] as const) {
          const e = await rpcError(rpc('anvil_setLoggingEnabled', [...params]));
          assert.equal(e.code, code, JSON.stringify(params));
          assert.match(e.message, /^(invalid argument 0: |missing value for required argument 0|too many arguments)/);
        }
        await rpc('eth_blockNumber');
        assert.equal(apiRequestsIn(shown), muted + 6, 'a bad call leaves logging as it was');
      },
      { 'log-level': 'debug', 'log-display-level': 'debug' },
    );
  } finally {
    process.stdout.write = write;
  }
});

test('a muted logger displays no entry below WARN (its own or the node\'s) and keeps warnings and errors', () => {
  const lines: string[] = [];
  const f = new LogFactory({ dir: '/tmp/powder-muted-logger-unused', logLevel: Levels.Off, displayLevel: Levels.Verbo, format: 'plain', display: (l) => lines.push(l) });
  const log = f.make('chain', 'chain Chain');
  log.muted = true;
  log.debug('d');
  log.info('i');
  log.nodeDebug('API request');
  assert.equal(log.nodeEnabled(Levels.Debug), false);
  log.warn('w');
  log.error('e');
  assert.deepEqual(lines.map((l) => l.split(' ').at(-1)), ['w', 'e']);
  log.muted = false;
  log.info('i2');
  assert.equal(lines.length, 3);
});
