// The continuous profiler through a real node: --profile-continuous-* flags, the three files per
// period in <profile-dir>/continuous, their rotation and its bound, the files written at stop, the
// process-wide CPU profiler shared with the admin API, bad flag values, and a failing profile dir.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Profile } from 'pprof-format';
import { startTestNode, rpc } from '../../test/helpers.js';
import { resolveConfig } from '../config/config.js';
import { rotate } from './continuous.js';

function sampleTypes(path: string): string[] {
  const p = Profile.decode(gunzipSync(readFileSync(path)));
  return p.sampleType.map((v) => p.stringTable.strings[Number(v.type)]);
}

async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('continuous profiler: writes and rotates cpu/mem/lock profiles, keeps max-files, writes at stop', async () => {
  const profileDir = join(mkdtempSync(join(tmpdir(), 'powder-cprof-')), 'profiles');
  const dir = join(profileDir, 'continuous');
  const t = await startTestNode({
    'db-type': 'memdb',
    'api-admin-enabled': true,
    'profile-dir': profileDir,
    'profile-continuous-enabled': true,
    'profile-continuous-freq': '150ms',
    'profile-continuous-max-files': 2,
  });
  try {
    // The CPU profiler is one per process, as in Go: the admin API can't start a second one.
    assert.equal((await rpc(`${t.url}/ext/admin`, 'admin.startCPUProfiler', {})).error.message, 'cpu profiling already in use');
    // Four periods at least: .1 and .2 of each file, never a .3.
    await until('a fourth rotation', () => existsSync(join(dir, 'cpu.profile.2')) && existsSync(join(dir, 'lock.profile.2')));
    const before = readFileSync(join(dir, 'cpu.profile.2'));
    await until('the oldest file to be replaced', () => !readFileSync(join(dir, 'cpu.profile.2')).equals(before));
    // A rotation renames file by file (as Go's does), so a listing taken mid-rotation can miss a
    // .1 for a moment: look at one taken between rotations.
    const complete = (list: string[]) => ['cpu', 'mem', 'lock'].every((k) => list.includes(`${k}.profile.1`) && list.includes(`${k}.profile.2`));
    let names: string[] = [];
    await until('a listing between rotations', () => complete((names = readdirSync(dir).sort())));
    for (const kind of ['cpu', 'mem', 'lock']) {
      assert.ok(names.includes(`${kind}.profile.1`), `${kind}.profile.1 in ${names}`);
      assert.ok(names.includes(`${kind}.profile.2`), `${kind}.profile.2 in ${names}`);
    }
    assert.ok(names.every((n) => /^(cpu|mem|lock)\.profile(\.[12])?$/.test(n)), `only .1 and .2 kept: ${names}`);
  } finally {
    await t.stop();
  }
  // The rotated files' contents, read once the node has stopped rotating them.
  assert.deepEqual(sampleTypes(join(dir, 'cpu.profile.1')), ['samples', 'cpu']);
  assert.deepEqual(sampleTypes(join(dir, 'mem.profile.1')), ['alloc_objects', 'alloc_space', 'inuse_objects', 'inuse_space']);
  assert.match(readFileSync(join(dir, 'lock.profile.1'), 'utf8'), /^--- mutex:\ncycles\/second=1000000000\n/);
  // At stop the running period is written (not rotated) and the CPU profiler is free again.
  assert.deepEqual(sampleTypes(join(dir, 'cpu.profile')), ['samples', 'cpu']);
  assert.deepEqual(sampleTypes(join(dir, 'mem.profile')), ['alloc_objects', 'alloc_space', 'inuse_objects', 'inuse_space']);
  assert.match(readFileSync(join(dir, 'lock.profile'), 'utf8'), /^--- mutex:/);
  const again = await startTestNode({ 'db-type': 'memdb', 'api-admin-enabled': true, 'profile-dir': profileDir });
  try {
    assert.deepEqual((await rpc(`${again.url}/ext/admin`, 'admin.startCPUProfiler', {})).result, {});
    assert.deepEqual((await rpc(`${again.url}/ext/admin`, 'admin.stopCPUProfiler', {})).result, {});
  } finally {
    await again.stop();
    rmSync(join(profileDir, '..'), { recursive: true, force: true });
  }
});

test('continuous profiler: off by default; the admin API owns the CPU profiler then', async () => {
  const profileDir = join(mkdtempSync(join(tmpdir(), 'powder-cprof-')), 'profiles');
  const t = await startTestNode({ 'db-type': 'memdb', 'api-admin-enabled': true, 'profile-dir': profileDir });
  try {
    assert.equal(t.node.config.profileContinuousEnabled, false);
    assert.equal(t.node.config.profileContinuousFreqMs, 15 * 60_000);
    assert.equal(t.node.config.profileContinuousMaxFiles, 5);
    assert.deepEqual((await rpc(`${t.url}/ext/admin`, 'admin.startCPUProfiler', {})).result, {});
    assert.deepEqual((await rpc(`${t.url}/ext/admin`, 'admin.stopCPUProfiler', {})).result, {});
    assert.equal(existsSync(join(profileDir, 'continuous')), false);
  } finally {
    await t.stop();
    rmSync(join(profileDir, '..'), { recursive: true, force: true });
  }
});

test('continuous profiler flags: bad values are start errors with the real texts', () => {
  const argv = (...a: string[]) => () => resolveConfig({ argv: ['--data-dir', tmpdir(), ...a], env: {} });
  assert.throws(argv('--profile-continuous-freq=-1s'), { message: 'profile-continuous-freq must be >= 0' });
  assert.throws(argv('--profile-continuous-freq=soon'), { message: /invalid argument "soon" for "--profile-continuous-freq" flag: time: invalid duration/ });
  // An int in AvalancheGo (fs.Int): a negative count is taken (rotation then keeps one file).
  assert.equal(resolveConfig({ argv: ['--data-dir', tmpdir(), '--profile-continuous-max-files=-1'], env: {} }).profileContinuousMaxFiles, -1);
  assert.throws(argv('--profile-continuous-max-files=1.5'), { message: /invalid argument "1.5" for "--profile-continuous-max-files" flag: strconv.ParseInt: parsing "1.5": invalid syntax/ });
  assert.throws(argv('--profile-continuous-max-files=many'), { message: /strconv.ParseInt/ });
  assert.throws(argv('--profile-continuous-enabled=maybe'), { message: /strconv.ParseBool/ });
  assert.equal(resolveConfig({ argv: ['--data-dir', tmpdir(), '--profile-continuous-freq=1m30s'], env: {} }).profileContinuousFreqMs, 90_000);
});

test('continuous profiler: a profile dir it cannot write stops the node (fatal), as on the real node', async () => {
  const base = mkdtempSync(join(tmpdir(), 'powder-cprof-'));
  const blocker = join(base, 'not-a-dir');
  writeFileSync(blocker, 'a file where the profile dir should be');
  const t = await startTestNode({ 'db-type': 'memdb', 'profile-dir': blocker, 'profile-continuous-enabled': true, 'profile-continuous-freq': '1s' });
  const code = await new Promise<number>((resolve) => t.node.onSelfStop(resolve));
  assert.equal(code, 1);
  assert.equal(t.node.stopped, true);
  await assert.rejects(fetch(`${t.url}/ext/health`));
  await t.stop();
  assert.equal(readFileSync(blocker, 'utf8'), 'a file where the profile dir should be');
  rmSync(base, { recursive: true, force: true });
});

test('rotate: name → name.1 → … → name.<max>, the oldest overwritten, missing files skipped', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-rotate-'));
  const f = join(dir, 'cpu.profile');
  try {
    await rotate(f, 3); // nothing there yet: no error
    for (const gen of ['a', 'b', 'c', 'd']) {
      writeFileSync(f, gen);
      await rotate(f, 3);
    }
    assert.deepEqual(readdirSync(dir).sort(), ['cpu.profile.1', 'cpu.profile.2', 'cpu.profile.3']);
    assert.deepEqual([1, 2, 3].map((i) => readFileSync(`${f}.${i}`, 'utf8')), ['d', 'c', 'b']);
    // A count of 0 or less (the flag is an int) keeps just name.1, as Go's loop does.
    for (const max of [0, -2]) {
      writeFileSync(f, `max ${max}`);
      await rotate(f, max);
      assert.equal(readFileSync(`${f}.1`, 'utf8'), `max ${max}`);
      assert.equal(readFileSync(`${f}.2`, 'utf8'), 'c');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
