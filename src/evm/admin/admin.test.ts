// The chain's admin API (/ext/bc/<chain>/admin) through a real node: only with admin-api-enabled,
// profiles in <admin-api-dir>_subnet_evm_performance_<alias>, setLogLevel with geth's level names
// filtering the chain's log, getVMConfig with every key and Go durations, and bad config values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Profile } from 'pprof-format';
import { startTestNode, rpc } from '../../../test/helpers.js';
import { VM_CONFIG_DEFAULTS, goDuration } from './vmConfigJson.js';
import { DEV_ETH_APIS } from '../api/vmConfig.js';

/** A temp dir with configs/dev/config.json; `config` may use the dir's path. */
function configDir(config: Record<string, unknown> | ((base: string) => Record<string, unknown>)): { base: string; cfgDir: string } {
  const base = mkdtempSync(join(tmpdir(), 'powder-chain-admin-'));
  const cfgDir = join(base, 'configs');
  mkdirSync(join(cfgDir, 'dev'), { recursive: true });
  writeFileSync(join(cfgDir, 'dev', 'config.json'), JSON.stringify(typeof config === 'function' ? config(base) : config));
  return { base, cfgDir };
}

/** All lines of the node's log files that mention `text`. */
function logLines(dataDir: string, text: string): string[] {
  const dir = join(dataDir, 'logs');
  return readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l.includes(text)));
}

test('chain admin API: profiles, setLogLevel, getVMConfig', async () => {
  const { base, cfgDir } = configDir((dir) => ({
    'admin-api-enabled': true,
    'admin-api-dir': join(dir, 'perf'),
    'log-level': 'debug',
    'tx-pool-lifetime': '1h',
    'api-max-duration': 1_500_000_000, // nanoseconds, as Go reads numbers
    'powder-test-controls': true,
  }));
  const adminDir = join(base, 'perf');
  const t = await startTestNode({ 'db-type': 'memdb', 'chain-config-dir': cfgDir, 'log-level': 'verbo' });
  const admin = (method: string, params: unknown = {}) => rpc(`${t.url}/ext/bc/dev/admin`, method, params);
  try {
    // Profiles: the real node's directory name and errors.
    const profDir = `${adminDir}_subnet_evm_performance_dev`;
    assert.deepEqual((await admin('admin.startCPUProfiler')).result, {});
    assert.equal((await admin('admin.startCPUProfiler')).error.message, 'cpu profiler already running');
    assert.deepEqual((await admin('admin.stopCPUProfiler')).result, {});
    assert.equal((await admin('admin.stopCPUProfiler')).error.message, "cpu profiler doesn't exist");
    assert.deepEqual((await admin('admin.memoryProfile')).result, {});
    assert.deepEqual((await admin('admin.lockProfile')).result, {});
    for (const f of ['cpu.profile', 'mem.profile', 'lock.profile']) assert.ok(statSync(join(profDir, f)).size > 0, f);
    const cpu = Profile.decode(gunzipSync(readFileSync(join(profDir, 'cpu.profile'))));
    assert.equal(cpu.stringTable.strings[Number(cpu.sampleType[0].type)], 'samples');
    assert.match(readFileSync(join(profDir, 'lock.profile'), 'utf8'), /^--- mutex:/);

    // getVMConfig: every key of Subnet-EVM's config, file values over defaults, Go durations.
    const { config } = (await admin('admin.getVMConfig')).result;
    assert.deepEqual(Object.keys(config), VM_CONFIG_DEFAULTS.map(([k]) => k));
    assert.equal(config['admin-api-enabled'], true);
    assert.equal(config['tx-pool-lifetime'], '1h0m0s');
    assert.equal(config['api-max-duration'], '1.5s');
    assert.equal(config['continuous-profiler-frequency'], '15m0s');
    assert.equal(config['push-gossip-frequency'], '100ms');
    assert.equal(config['ws-cpu-refill-rate'], '0s');
    assert.equal(config['rpc-gas-cap'], 50_000_000);
    assert.equal(config['log-level'], 'debug');
    assert.deepEqual(config['eth-apis'], DEV_ETH_APIS); // the dev chain's effective list
    assert.equal('powder-test-controls' in config, false);

    // setLogLevel: geth's names; the chain's entries below it are dropped.
    const e = await admin('admin.setLogLevel', { level: 'loud' });
    assert.deepEqual([e.error.code, e.error.message], [-32000, 'failed to parse log level: unknown level: loud ']);
    assert.deepEqual((await admin('admin.setLogLevel', { level: 'ERROR' })).result, {});
    await admin('admin.lockProfile'); // logs "Admin: LockProfile called" at info: filtered now
    assert.deepEqual((await admin('admin.setLogLevel', { level: 'info' })).result, {});
    await admin('admin.memoryProfile'); // at info again: written
    assert.equal(logLines(t.dataDir, 'Admin: LockProfile called').length, 1); // only the first, at level debug
    assert.equal(logLines(t.dataDir, 'Admin: MemoryProfile called').length, 2);
    assert.equal(logLines(t.dataDir, 'EVM: SetLogLevel called').length, 2); // the call made at level ERROR is dropped
  } finally {
    await t.stop();
    rmSync(base, { recursive: true, force: true });
  }
});

test('chain admin API: absent unless admin-api-enabled', async () => {
  const t = await startTestNode({ 'db-type': 'memdb' });
  try {
    const res = await fetch(`${t.url}/ext/bc/dev/admin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"admin.getVMConfig","params":{}}' });
    assert.equal(res.status, 404);
    assert.equal(existsSync(join(t.dataDir, 'configs')), false);
  } finally {
    await t.stop();
  }
});

test('chain config: a bad log-level or duration stops the chain from starting with the real texts', async () => {
  for (const [config, message] of [
    [{ 'log-level': 'loud' }, /failed to parse log level: unknown level: loud/],
    [{ 'tx-pool-lifetime': 'soon' }, /failed to unmarshal config .*time: invalid duration "soon"/],
  ] as const) {
    const { base, cfgDir } = configDir(config);
    try {
      await assert.rejects(startTestNode({ 'db-type': 'memdb', 'chain-config-dir': cfgDir }), message);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }
});

test('goDuration prints as Go does', () => {
  const cases: [number, string][] = [
    [0, '0s'],
    [0.000001, '1ns'],
    [0.0015, '1.5µs'],
    [100, '100ms'],
    [1500, '1.5s'],
    [30_000, '30s'],
    [90_000, '1m30s'],
    [15 * 60_000, '15m0s'],
    [3_600_000, '1h0m0s'],
    [3_723_500, '1h2m3.5s'],
  ];
  for (const [ms, s] of cases) assert.equal(goDuration(ms), s, String(ms));
});
