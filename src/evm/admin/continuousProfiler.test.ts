// A Subnet-EVM chain's own continuous profiler through a real node: continuous-profiler-dir,
// -frequency and -max-files in the chain's config.json write and rotate cpu/mem/lock profiles in
// that directory; a failure (the process's CPU profiler already taken by the node's continuous
// profiler) is logged and the chain keeps serving.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Profile } from 'pprof-format';
import { startTestNode } from '../../../test/helpers.js';
import { rpcClient } from '../chain/testkit.js';

function chainConfigDir(base: string, config: Record<string, unknown>): string {
  const cfgDir = join(base, 'configs');
  mkdirSync(join(cfgDir, 'dev'), { recursive: true });
  writeFileSync(join(cfgDir, 'dev', 'config.json'), JSON.stringify(config));
  return cfgDir;
}

async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const sampleTypes = (path: string) => {
  const p = Profile.decode(gunzipSync(readFileSync(path)));
  return p.sampleType.map((v) => p.stringTable.strings[Number(v.type)]);
};

test('chain continuous profiler: profiles in continuous-profiler-dir, rotated, max-files kept, written at stop', async () => {
  const base = mkdtempSync(join(tmpdir(), 'powder-chain-cprof-'));
  const dir = join(base, 'chain-profiles');
  const t = await startTestNode({
    'db-type': 'memdb',
    'chain-config-dir': chainConfigDir(base, { 'continuous-profiler-dir': dir, 'continuous-profiler-frequency': '150ms', 'continuous-profiler-max-files': 2 }),
  });
  try {
    await until('a fourth rotation', () => existsSync(join(dir, 'cpu.profile.2')) && existsSync(join(dir, 'lock.profile.2')));
    assert.equal(await rpcClient(`${t.url}/ext/bc/dev/rpc`)('eth_chainId'), '0xa8ca');
  } finally {
    await t.stop();
  }
  // Read once the node has stopped: a rotation renames the files one after the other, so while it
  // runs every 150 ms a `.1` can be missing for a moment.
  const names = readdirSync(dir).sort();
  assert.ok(names.every((n) => /^(cpu|mem|lock)\.profile(\.[12])?$/.test(n)), `the files themselves, .1 and .2 only, no subfolder: ${names}`);
  assert.deepEqual(sampleTypes(join(dir, 'cpu.profile.1')), ['samples', 'cpu']);
  assert.deepEqual(sampleTypes(join(dir, 'mem.profile.1')), ['alloc_objects', 'alloc_space', 'inuse_objects', 'inuse_space']);
  assert.deepEqual(sampleTypes(join(dir, 'cpu.profile')), ['samples', 'cpu'], 'the running period is written at stop');
  rmSync(base, { recursive: true, force: true });
});

test('chain continuous profiler: without a dir nothing runs; a failure is logged and the chain keeps serving', async () => {
  const base = mkdtempSync(join(tmpdir(), 'powder-chain-cprof-'));
  const dir = join(base, 'chain-profiles');
  // The node's own continuous profiler holds the process's CPU profiler, so the chain's cannot start one.
  const t = await startTestNode({
    'db-type': 'memdb',
    'profile-dir': join(base, 'node-profiles'),
    'profile-continuous-enabled': true,
    'profile-continuous-freq': '1h',
    'chain-config-dir': chainConfigDir(base, { 'continuous-profiler-dir': dir, 'continuous-profiler-frequency': '150ms' }),
  });
  try {
    const logs = () => readdirSync(join(t.dataDir, 'logs')).map((f) => readFileSync(join(t.dataDir, 'logs', f), 'utf8')).join('\n');
    await until('the failure in the log', () => /continuous profiler failed.*cpu profiling already in use/.test(logs()));
    assert.match(logs(), /Dispatching continuous profiler.*"freq": "150ms", "maxFiles": 5/);
    assert.equal(await rpcClient(`${t.url}/ext/bc/dev/rpc`)('eth_chainId'), '0xa8ca');
    assert.equal(existsSync(join(dir, 'cpu.profile')), false);
  } finally {
    await t.stop();
    rmSync(base, { recursive: true, force: true });
  }
  // No continuous-profiler-dir (the default): no profiler, no files.
  const plain = await startTestNode({ 'db-type': 'memdb' });
  try {
    assert.equal(await rpcClient(`${plain.url}/ext/bc/dev/rpc`)('eth_chainId'), '0xa8ca');
    assert.doesNotMatch(readdirSync(join(plain.dataDir, 'logs')).map((f) => readFileSync(join(plain.dataDir, 'logs', f), 'utf8')).join('\n'), /Dispatching continuous profiler/);
  } finally {
    await plain.stop();
  }
});
