// Profiles over real HTTP through /ext/admin: cpu.profile and mem.profile decoded as pprof,
// lock.profile in Go's text format from real contention, the real node's errors, stacktrace.txt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Profile } from 'pprof-format';
import { startTestNode, rpc } from '../../test/helpers.js';
import { Mutex, lockRecorder } from './locks.js';
import { formatLockProfile, parseStack } from './lockprofile.js';

function decodeProfile(path: string): { p: Profile; str: (i: number | bigint) => string } {
  const p = Profile.decode(gunzipSync(readFileSync(path)));
  return { p, str: (i) => p.stringTable.strings[Number(i)] };
}

function functionNames(p: Profile, str: (i: number | bigint) => string): Set<string> {
  return new Set(p.function.map((f) => str(f.name)));
}

/** Keeps the CPU busy in a function the profile can name. */
function burnCpuForProfile(ms: number): number {
  let x = 0;
  const end = Date.now() + ms;
  while (Date.now() < end) for (let i = 0; i < 1000; i++) x += Math.sqrt(i + x);
  return x;
}

/** Allocates ~16 MB of live objects in a function the heap profile can name. */
function allocateRetainedForProfile(): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < 40_000; i++) out.push({ i, payload: new Array(40).fill(i), text: `item-${i}-${'p'.repeat(64)}` });
  return out;
}

async function call(url: string, method: string): Promise<any> {
  return rpc(`${url}/ext/admin`, method, {});
}

test('CPU profile: start, errors of the real node, pprof with samples, functions and lines', async () => {
  const profileDir = join(mkdtempSync(join(tmpdir(), 'powder-prof-')), 'nested', 'profiles');
  const t = await startTestNode({ 'db-type': 'memdb', 'api-admin-enabled': true, 'profile-dir': profileDir });
  try {
    assert.equal((await call(t.url, 'admin.stopCPUProfiler')).error.message, "cpu profiler doesn't exist");
    assert.deepEqual((await call(t.url, 'admin.startCPUProfiler')).result, {});
    // The file exists (truncated) from the start, as on the real node; the dir is 0750, the file 0640.
    const file = join(profileDir, 'cpu.profile');
    assert.equal(statSync(file).size, 0);
    assert.equal(statSync(profileDir).mode & 0o777, 0o750);
    assert.equal(statSync(file).mode & 0o777, 0o640);
    assert.equal((await call(t.url, 'admin.startCPUProfiler')).error.message, 'cpu profiler already running');
    burnCpuForProfile(300);
    assert.deepEqual((await call(t.url, 'admin.stopCPUProfiler')).result, {});
    assert.equal((await call(t.url, 'admin.stopCPUProfiler')).error.message, "cpu profiler doesn't exist");

    const { p, str } = decodeProfile(file);
    assert.deepEqual(p.sampleType.map((v) => [str(v.type), str(v.unit)]), [['samples', 'count'], ['cpu', 'nanoseconds']]);
    assert.deepEqual([str(p.periodType!.type), str(p.periodType!.unit)], ['cpu', 'nanoseconds']);
    assert.ok(Number(p.period) > 0);
    const total = p.sample.reduce((s, x) => s + Number(x.value[0]), 0);
    const cpuNs = p.sample.reduce((s, x) => s + Number(x.value[1]), 0);
    assert.ok(total > 0 && cpuNs > 0, `samples ${total}, cpu ${cpuNs}ns`);
    assert.ok(functionNames(p, str).has('burnCpuForProfile'), [...functionNames(p, str)].join(', '));
    // Every sample's locations resolve to functions with a file and a line.
    const locs = new Map(p.location.map((l) => [Number(l.id), l]));
    const fns = new Map(p.function.map((f) => [Number(f.id), f]));
    const burn = p.function.find((f) => str(f.name) === 'burnCpuForProfile')!;
    assert.match(str(burn.filename), /profiler\.test\.[jt]s$/);
    assert.ok(Number(burn.startLine) > 0);
    for (const s of p.sample) {
      assert.ok(s.locationId.length > 0);
      for (const id of s.locationId) assert.ok(fns.has(Number(locs.get(Number(id))!.line[0].functionId)));
    }
    // The function's samples sit on lines of its body (V8's position ticks; lines are those of the
    // script V8 ran, i.e. the compiled .js).
    const burnLines = p.location.filter((l) => Number(l.line[0].functionId) === Number(burn.id)).map((l) => Number(l.line[0].line));
    assert.ok(burnLines.length > 0 && burnLines.every((l) => l >= Number(burn.startLine)), `lines ${burnLines}`);

    // A second run truncates and rewrites.
    await call(t.url, 'admin.startCPUProfiler');
    assert.equal(statSync(file).size, 0);
    await call(t.url, 'admin.stopCPUProfiler');
    assert.ok(statSync(file).size > 0);
  } finally {
    await t.stop();
    rmSync(join(profileDir, '..', '..'), { recursive: true, force: true });
  }
});

test('CPU profiling is one per process: a second node gets "cpu profiling already in use"; stop releases it', async () => {
  const profileDir = mkdtempSync(join(tmpdir(), 'powder-prof-a-'));
  const a = await startTestNode({ 'db-type': 'memdb', 'api-admin-enabled': true, 'profile-dir': profileDir });
  const b = await startTestNode({ 'db-type': 'memdb', 'api-admin-enabled': true });
  try {
    assert.deepEqual((await call(a.url, 'admin.startCPUProfiler')).result, {});
    assert.equal((await call(b.url, 'admin.startCPUProfiler')).error.message, 'cpu profiling already in use');
    // b has no profile of its own.
    assert.equal((await call(b.url, 'admin.stopCPUProfiler')).error.message, "cpu profiler doesn't exist");
    // Stopping node a while it profiles finishes its profile and frees the profiler.
    await a.stop();
    assert.ok(statSync(join(profileDir, 'cpu.profile')).size > 0);
    assert.deepEqual((await call(b.url, 'admin.startCPUProfiler')).result, {});
    assert.deepEqual((await call(b.url, 'admin.stopCPUProfiler')).result, {});
  } finally {
    await a.stop();
    await b.stop();
    rmSync(profileDir, { recursive: true, force: true });
  }
});

test('memory profile: pprof heap profile with Go\'s sample types and the allocating function', async () => {
  const t = await startTestNode({ 'db-type': 'memdb', 'api-admin-enabled': true });
  try {
    // The sampler starts with the admin service, asynchronously (it loads node:inspector); the
    // first profile waits for it, so what is allocated after that call is sampled for certain.
    assert.deepEqual((await call(t.url, 'admin.memoryProfile')).result, {});
    const file = join(t.dataDir, 'profiles', 'mem.profile');
    const before = readFileSync(file);
    const retained = allocateRetainedForProfile();
    assert.deepEqual((await call(t.url, 'admin.memoryProfile')).result, {});
    assert.equal(statSync(file).mode & 0o777, 0o640);
    const { p, str } = decodeProfile(file);
    assert.deepEqual(
      p.sampleType.map((v) => [str(v.type), str(v.unit)]),
      [['alloc_objects', 'count'], ['alloc_space', 'bytes'], ['inuse_objects', 'count'], ['inuse_space', 'bytes']],
    );
    assert.deepEqual([str(p.periodType!.type), str(p.periodType!.unit)], ['space', 'bytes']);
    assert.equal(Number(p.period), 512 * 1024);
    assert.ok(p.sample.length > 0);
    const inuse = p.sample.reduce((s, x) => s + Number(x.value[3]), 0);
    assert.ok(inuse > 4 * 1024 * 1024, `inuse_space ${inuse}`);
    assert.ok(functionNames(p, str).has('allocateRetainedForProfile'));
    assert.equal(retained.length, 40_000);
    // Overwritten each time.
    assert.notDeepEqual(readFileSync(file), before);
  } finally {
    await t.stop();
  }
});

test('lock profile: concurrent admin calls contend on the admin lock; lock.profile shows where and how long', async () => {
  const t = await startTestNode({ 'db-type': 'memdb', 'api-admin-enabled': true });
  try {
    const before = lockRecorder.snapshot().filter((r) => r.lock === 'admin').reduce((s, r) => s + r.count, 0);
    // memoryProfile runs a GC under the admin lock: concurrent calls wait for each other.
    const replies = await Promise.all(Array.from({ length: 4 }, () => call(t.url, 'admin.memoryProfile')));
    for (const r of replies) assert.deepEqual(r.result, {});
    const after = lockRecorder.snapshot().filter((r) => r.lock === 'admin').reduce((s, r) => s + r.count, 0);
    assert.ok(after > before, 'the concurrent calls waited on the admin lock');

    assert.deepEqual((await call(t.url, 'admin.lockProfile')).result, {});
    const text = readFileSync(join(t.dataDir, 'profiles', 'lock.profile'), 'utf8');
    assert.match(text, /^--- mutex:\ncycles\/second=1000000000\nsampling period=1\n/);
    const adminBlock = text.split('\n\n').find((b) => b.includes('Mutex(admin).acquire'));
    assert.ok(adminBlock, text);
    const [head, ...frames] = adminBlock!.replace(/^--- mutex:\ncycles\/second=\d+\nsampling period=1\n/, '').split('\n');
    const m = /^(\d+) (\d+) @((?: 0x[0-9a-f]+)+)$/.exec(head);
    assert.ok(m, head);
    assert.ok(BigInt(m![1]) > 0n && Number(m![2]) > 0);
    const addrs = m![3].trim().split(' ');
    assert.equal(frames.length, addrs.length);
    frames.forEach((f, i) => assert.match(f, new RegExp(`^#\\t${addrs[i]}\\t\\S.*\\+0x[0-9a-f]+\\t.+:\\d+$`)));
    assert.match(frames[0], /Mutex\(admin\)\.acquire\+0x[0-9a-f]+\t.*locks\.[jt]s:\d+$/);
    assert.ok(frames.some((f) => /api\/admin\/service\.[jt]s:\d+$/.test(f)), frames.join('\n'));
    assert.equal(statSync(join(t.dataDir, 'profiles', 'lock.profile')).mode & 0o777, 0o640);
  } finally {
    await t.stop();
  }
});

test('lock profile format: a contended Mutex, records sorted by wait, stable addresses', async () => {
  const m = new Mutex('test-lock');
  const release = await m.acquire();
  const waiters = [m.runExclusive(() => 1), m.runExclusive(() => 2)];
  await new Promise((r) => setTimeout(r, 5));
  release();
  assert.deepEqual(await Promise.all(waiters), [1, 2]);
  const mine = lockRecorder.snapshot().filter((r) => r.lock === 'test-lock');
  assert.equal(mine.reduce((s, r) => s + r.count, 0), 2);
  assert.ok(mine.every((r) => r.totalNs > 0n));

  const text = formatLockProfile([
    { lock: 'a', stack: 'Error\n    at Mutex.acquire (file:///x/locks.js:10:5)\n    at work (/x/app.js:3:7)', count: 1, totalNs: 10n },
    { lock: 'b', stack: 'Error\n    at Mutex.acquire (file:///x/locks.js:10:5)\n    at async other (/x/app.js:9:2)', count: 3, totalNs: 500n },
  ]);
  assert.equal(
    text,
    [
      '--- mutex:',
      'cycles/second=1000000000',
      'sampling period=1',
      '500 3 @ 0x400005 0x410002',
      '#\t0x400005\tMutex(b).acquire+0x5\t/x/locks.js:10',
      '#\t0x410002\tasync other+0x2\t/x/app.js:9',
      '',
      '10 1 @ 0x400005 0x420007',
      '#\t0x400005\tMutex(a).acquire+0x5\t/x/locks.js:10',
      '#\t0x420007\twork+0x7\t/x/app.js:3',
      '',
      '',
    ].join('\n'),
  );
  assert.deepEqual(parseStack('Error\n    at /x/anon.js:1:2\n    at native'), [{ function: '(anonymous)', file: '/x/anon.js', line: 1, column: 2 }]);
  assert.equal(formatLockProfile([]), '--- mutex:\ncycles/second=1000000000\nsampling period=1\n');
});

test('stacktrace: writes stacktrace.txt in the process working directory', async () => {
  const t = await startTestNode({ 'db-type': 'memdb', 'api-admin-enabled': true });
  const cwd = process.cwd();
  const dir = mkdtempSync(join(tmpdir(), 'powder-cwd-'));
  process.chdir(dir);
  try {
    assert.deepEqual((await call(t.url, 'admin.stacktrace')).result, {});
    const file = join(dir, 'stacktrace.txt');
    assert.ok(existsSync(file));
    assert.equal(statSync(file).mode & 0o777, 0o640);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /== JavaScript stack/);
    assert.match(text, /profiler\/stacktrace\.[jt]s:\d+/);
    assert.match(text, /== Active async resources \(\d+\) ==\n.*TCP/s);
    assert.match(text, /== libuv handles and requests/);
    assert.match(text, /"javascriptStack"/);
    // Not in the profile dir.
    assert.equal(existsSync(join(t.dataDir, 'profiles', 'stacktrace.txt')), false);
  } finally {
    process.chdir(cwd);
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('profile files that cannot be made: Go\'s path errors (the parent that is a file; a directory where the profile goes)', async () => {
  const base = mkdtempSync(join(tmpdir(), 'powder-proferr-'));
  const file = join(base, 'file');
  writeFileSync(file, 'not a directory');
  const t = await startTestNode({ 'db-type': 'memdb', 'api-admin-enabled': true, 'profile-dir': join(file, 'prof') });
  try {
    for (const m of ['admin.startCPUProfiler', 'admin.memoryProfile', 'admin.lockProfile']) {
      assert.equal((await call(t.url, m)).error?.message, `mkdir ${file}: not a directory`, m);
    }
  } finally {
    await t.stop();
  }
  const dir = join(base, 'profiles');
  const t2 = await startTestNode({ 'db-type': 'memdb', 'api-admin-enabled': true, 'profile-dir': dir });
  try {
    mkdirSync(join(dir, 'lock.profile'), { recursive: true });
    assert.equal((await call(t2.url, 'admin.lockProfile')).error?.message, `open ${join(dir, 'lock.profile')}: is a directory`);
  } finally {
    await t2.stop();
    rmSync(base, { recursive: true, force: true });
  }
});
