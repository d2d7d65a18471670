// The `debug-handler` service through a real node (chain config eth-apis: eth, debug-handler) over
// HTTP: pprof files really written, memStats/gcStats shapes, GC counters moving, the chain logger's
// verbosity and vmodule, stacks and its filter, and geth's errors for every kind of bad input.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Profile } from 'pprof-format';
import { devNodeWithConfig, type Rpc } from '../chain/testkit.js';
import type { TestNode } from '../../../test/helpers.js';
import { Levels } from '../../logging/levels.js';
import type { NamedLogger } from '../../logging/logger.js';
import { Mutex } from '../../profiler/locks.js';
import { parseStacksFilter } from './stacksDump.js';
import { parseVmodule } from './logVerbosity.js';

let node: TestNode;
let rpc: Rpc;
const dir = mkdtempSync(join(tmpdir(), 'powder-dbgh-'));

before(async () => {
  ({ node, rpc } = await devNodeWithConfig({ 'eth-apis': ['eth', 'debug-handler'] }));
});
after(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function pprof(path: string): { types: string[]; functions: string[]; samples: number } {
  const p = Profile.decode(gunzipSync(readFileSync(path)));
  const s = (i: unknown) => p.stringTable.strings[Number(i)];
  return { types: p.sampleType.map((v) => s(v.type)), functions: p.function.map((f) => s(f.name)), samples: p.sample.length };
}

async function rpcError(method: string, params: unknown[]): Promise<{ code: number; message: string }> {
  const r = await rpc.raw(method, params);
  assert.ok(r.error, `${method} ${JSON.stringify(params)} should fail, got ${JSON.stringify(r.result)?.slice(0, 100)}`);
  return r.error;
}

/** The dev chain's logger: the one whose source level debug_verbosity moves. */
async function chainLogger(): Promise<NamedLogger> {
  await rpc('debug_verbosity', [1]);
  const l = node.node.logs.names().map((n) => node.node.logs.get(n)).filter((x) => x.sourceLevel === Levels.Error);
  assert.equal(l.length, 1, 'one logger at error level');
  return l[0];
}

test('debug-handler: methods exist only when the chain lists the service', async () => {
  const r = await rpc.raw('debug_memStats', []);
  assert.equal(r.error, undefined);
  // The default eth-apis do not include it.
  const { node: other, rpc: rpc2 } = await devNodeWithConfig({});
  try {
    const e = (await rpc2.raw('debug_memStats', [])).error;
    assert.equal(e.code, -32601);
    assert.equal(e.message, 'the method debug_memStats does not exist/is not available');
  } finally {
    await other.stop();
  }
});

test('debug_memStats: Go runtime.MemStats shape from V8 and the GC observer', async () => {
  const m = await rpc('debug_memStats');
  assert.deepEqual(Object.keys(m), [
    'Alloc', 'TotalAlloc', 'Sys', 'Lookups', 'Mallocs', 'Frees', 'HeapAlloc', 'HeapSys', 'HeapIdle', 'HeapInuse', 'HeapReleased',
    'HeapObjects', 'StackInuse', 'StackSys', 'MSpanInuse', 'MSpanSys', 'MCacheInuse', 'MCacheSys', 'BuckHashSys', 'GCSys', 'OtherSys',
    'NextGC', 'LastGC', 'PauseTotalNs', 'PauseNs', 'PauseEnd', 'NumGC', 'NumForcedGC', 'GCCPUFraction', 'EnableGC', 'DebugGC', 'BySize',
  ]);
  assert.ok(m.Alloc > 0 && m.Alloc === m.HeapAlloc);
  assert.ok(m.TotalAlloc >= m.Alloc);
  assert.ok(m.HeapSys >= m.HeapInuse);
  assert.equal(m.HeapIdle, m.HeapSys - m.HeapInuse);
  assert.equal(m.Sys, m.HeapSys + m.OtherSys);
  assert.ok(m.Sys > m.HeapSys);
  assert.equal(m.PauseNs.length, 256);
  assert.equal(m.PauseEnd.length, 256);
  assert.equal(m.BySize.length, 61);
  assert.deepEqual(m.BySize[0], { Size: 0, Mallocs: 0, Frees: 0 });
  assert.equal(m.EnableGC, true);
  assert.equal(m.DebugGC, false);
  assert.ok(m.GCCPUFraction >= 0 && m.GCCPUFraction <= 1);
});

test('debug_freeOSMemory forces a collection: NumGC, NumForcedGC, LastGC and gcStats move', async () => {
  const before = await rpc('debug_memStats');
  const gBefore = await rpc('debug_gcStats');
  assert.equal(await rpc('debug_freeOSMemory'), null);
  const after = await rpc('debug_memStats');
  assert.ok(after.NumGC > before.NumGC, `NumGC ${before.NumGC} → ${after.NumGC}`);
  assert.equal(after.NumForcedGC, before.NumForcedGC + 1);
  assert.ok(after.LastGC > 1.6e18 && after.LastGC >= before.LastGC);
  assert.ok(after.PauseTotalNs > before.PauseTotalNs);
  // The most recent pause is at PauseNs[(NumGC+255)%256].
  const i = (after.NumGC + 255) % 256;
  assert.equal(after.PauseEnd[i], after.LastGC);
  assert.ok(after.PauseNs[i] > 0);

  const g = await rpc('debug_gcStats');
  assert.deepEqual(Object.keys(g), ['LastGC', 'NumGC', 'PauseTotal', 'Pause', 'PauseEnd', 'PauseQuantiles']);
  assert.ok(g.NumGC > gBefore.NumGC);
  assert.match(g.LastGC, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/);
  assert.ok(Date.parse(g.LastGC) > Date.now() - 60_000);
  assert.equal(g.Pause.length, Math.min(g.NumGC, 256));
  assert.equal(g.PauseEnd.length, g.Pause.length);
  assert.equal(g.PauseEnd[0], g.LastGC, 'most recent first');
  assert.equal(g.PauseQuantiles, null);
  assert.ok(Number.isInteger(g.PauseTotal) && Number.isInteger(g.Pause[0]));
});

test('CPU profiles: start/stop and cpuProfile write pprof; one at a time; geth errors', async () => {
  const f = join(dir, 'cpu.prof');
  assert.equal(await rpc('debug_startCPUProfile', [f]), null);
  assert.deepEqual(await rpcError('debug_startCPUProfile', [join(dir, 'other.prof')]), { code: -32000, message: 'CPU profiling already in progress' });
  assert.ok(!existsSync(join(dir, 'other.prof')));
  for (let i = 0; i < 20; i++) await rpc('debug_memStats');
  assert.equal(await rpc('debug_stopCPUProfile'), null);
  assert.deepEqual(pprof(f).types, ['samples', 'cpu']);
  assert.deepEqual(await rpcError('debug_stopCPUProfile', []), { code: -32000, message: 'CPU profiling not in progress' });

  const g = join(dir, 'cpu2.prof');
  const t0 = Date.now();
  assert.equal(await rpc('debug_cpuProfile', [g, 1]), null);
  assert.ok(Date.now() - t0 >= 950, 'blocks nsec seconds');
  assert.deepEqual(pprof(g).types, ['samples', 'cpu']);
  // Free again afterwards.
  assert.deepEqual(await rpcError('debug_stopCPUProfile', []), { code: -32000, message: 'CPU profiling not in progress' });
});

test('CPU profile: the process profiler owned elsewhere answers Go pprof error', async () => {
  const { CpuProfileSession } = await import('../../profiler/cpu.js');
  const other = new CpuProfileSession();
  await other.start();
  try {
    const e = await rpcError('debug_startCPUProfile', [join(dir, 'busy.prof')]);
    assert.deepEqual(e, { code: -32000, message: 'cpu profiling already in use' });
    // The handler is not left half-started.
    assert.deepEqual(await rpcError('debug_stopCPUProfile', []), { code: -32000, message: 'CPU profiling not in progress' });
  } finally {
    await other.close();
  }
});

test('file paths: ~ expands to $HOME, relative paths are the working directory, Go open errors', async () => {
  const home = mkdtempSync(join(tmpdir(), 'powder-home-'));
  const saved = process.env.HOME;
  process.env.HOME = home;
  try {
    assert.equal(await rpc('debug_writeMemProfile', ['~/mem.prof']), null);
    assert.ok(statSync(join(home, 'mem.prof')).size > 0);
  } finally {
    process.env.HOME = saved;
    rmSync(home, { recursive: true, force: true });
  }
  const rel = `powder-dbgh-${process.pid}.prof`;
  try {
    assert.equal(await rpc('debug_writeBlockProfile', [rel]), null);
    assert.ok(existsSync(join(process.cwd(), rel)));
  } finally {
    rmSync(join(process.cwd(), rel), { force: true });
  }
  const missing = join(dir, 'no-such-dir', 'x.prof');
  for (const m of ['debug_startCPUProfile', 'debug_startGoTrace', 'debug_writeMemProfile', 'debug_writeBlockProfile', 'debug_writeMutexProfile']) {
    assert.deepEqual(await rpcError(m, [missing]), { code: -32000, message: `open ${missing}: no such file or directory` }, m);
  }
  assert.deepEqual(await rpcError('debug_cpuProfile', [missing, 0]), { code: -32000, message: `open ${missing}: no such file or directory` });
  assert.deepEqual(await rpcError('debug_goTrace', [missing, 0]), { code: -32000, message: `open ${missing}: no such file or directory` });
  assert.deepEqual(await rpcError('debug_writeMemProfile', ['']), { code: -32000, message: 'open .: is a directory' });
  assert.deepEqual(await rpcError('debug_writeMemProfile', [dir + '//a/../']), { code: -32000, message: `open ${dir}: is a directory` });
  // A failed start leaves nothing running.
  assert.deepEqual(await rpcError('debug_stopCPUProfile', []), { code: -32000, message: 'CPU profiling not in progress' });
  assert.deepEqual(await rpcError('debug_stopGoTrace', []), { code: -32000, message: 'trace not in progress' });
});

test('writeMemProfile: a pprof heap profile', async () => {
  const f = join(dir, 'heap.prof');
  assert.equal(await rpc('debug_writeMemProfile', [f]), null);
  assert.deepEqual(pprof(f).types, ['alloc_objects', 'alloc_space', 'inuse_objects', 'inuse_space']);
  assert.ok(pprof(f).samples > 0);
});

test('block and mutex profiles: pprof contention profiles of the node\'s locks', async () => {
  // Contention on a node Mutex, recorded process-wide.
  const lock = new Mutex('dbgh-test');
  const release = await lock.acquire();
  const waiting = lock.runExclusive(() => undefined);
  await new Promise((r) => setTimeout(r, 20));
  release();
  await waiting;

  for (const [method, params] of [
    ['debug_writeMutexProfile', []],
    ['debug_writeBlockProfile', []],
    ['debug_mutexProfile', [0]],
    ['debug_blockProfile', [0]],
  ] as const) {
    const f = join(dir, `${method}.prof`);
    assert.equal(await rpc(method, [f, ...params]), null);
    const p = pprof(f);
    assert.deepEqual(p.types, ['contentions', 'delay'], method);
    assert.ok(p.functions.includes('Mutex(dbgh-test).acquire'), `${method}: ${p.functions.slice(0, 5)}`);
  }

  // Rates switch the recording (process-wide, as Go's runtime rates).
  const { lockRecorder } = await import('../../profiler/locks.js');
  assert.equal(await rpc('debug_setMutexProfileFraction', [0]), null);
  assert.equal(await rpc('debug_setBlockProfileRate', [0]), null);
  assert.equal(lockRecorder.enabled, false);
  assert.equal(await rpc('debug_setMutexProfileFraction', [-1]), null); // only reads in Go
  assert.equal(lockRecorder.enabled, false);
  assert.equal(await rpc('debug_setBlockProfileRate', [1]), null);
  assert.equal(lockRecorder.enabled, true);
  assert.equal(await rpc('debug_setMutexProfileFraction', [5]), null);
  assert.equal(await rpc('debug_setBlockProfileRate', [0]), null);
  assert.equal(lockRecorder.enabled, true, 'the mutex profile still records');
  await rpc('debug_setBlockProfileRate', [1]);
});

test('nsec wraps as Go\'s time.Duration(nsec) * time.Second: 2^63 - 1 and 2^64 - 1 seconds return at once, 2^63 + 1 waits 1 s', async () => {
  // Sent as raw JSON text: the exact integers (a JS number would round them to 2^63 or 2^64).
  const timed = async (nsec: string): Promise<{ ms: number; body: { result?: unknown; error?: unknown } }> => {
    const f = JSON.stringify(join(dir, `wrap-${nsec}.prof`));
    const t0 = performance.now();
    const res = await fetch(rpc.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"jsonrpc":"2.0","id":1,"method":"debug_blockProfile","params":[${f},${nsec}]}` });
    return { body: (await res.json()) as { result?: unknown }, ms: performance.now() - t0 };
  };
  for (const nsec of ['9223372036854775807', '18446744073709551615']) {
    const { ms, body } = await timed(nsec);
    assert.equal(body.result, null, nsec);
    assert.ok(ms < 900, `${nsec}: answered after ${ms.toFixed(0)} ms (Go sleeps a negative duration: not at all)`);
  }
  const { ms, body } = await timed('9223372036854775809');
  assert.equal(body.result, null);
  assert.ok(ms >= 990, `(2^63 + 1) * 1e9 wraps to 1 s; answered after ${ms.toFixed(0)} ms`);
});

test('Go traces: a Chrome trace-event file from node:inspector NodeTracing', async () => {
  const f = join(dir, 'trace.json');
  assert.equal(await rpc('debug_startGoTrace', [f]), null);
  assert.deepEqual(await rpcError('debug_startGoTrace', [join(dir, 'trace2.json')]), { code: -32000, message: 'trace already in progress' });
  await rpc('debug_memStats');
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(await rpc('debug_stopGoTrace'), null);
  const t = JSON.parse(readFileSync(f, 'utf8'));
  assert.ok(Array.isArray(t.traceEvents) && t.traceEvents.length > 0);
  assert.ok(t.traceEvents.every((e: any) => typeof e.ph === 'string' && typeof e.pid === 'number'));
  assert.deepEqual(await rpcError('debug_stopGoTrace', []), { code: -32000, message: 'trace not in progress' });

  const g = join(dir, 'trace3.json');
  assert.equal(await rpc('debug_goTrace', [g, 0]), null);
  assert.ok(Array.isArray(JSON.parse(readFileSync(g, 'utf8')).traceEvents));
});

test('debug_verbosity and debug_vmodule drive the chain logger', async () => {
  const log = await chainLogger();
  const want: [number, number][] = [[0, Levels.Fatal], [1, Levels.Error], [2, Levels.Warn], [3, Levels.Info], [4, Levels.Debug], [5, Levels.Verbo], [9, Levels.Verbo], [-3, Levels.Fatal]];
  for (const [geth, lvl] of want) {
    assert.equal(await rpc('debug_verbosity', [geth]), null);
    assert.equal(log.sourceLevel, lvl, `verbosity ${geth}`);
  }
  await rpc('debug_verbosity', [3]);
  const savedLevel = log.logLevel;
  log.logLevel = Levels.Verbo;
  try {
    assert.equal(log.enabled(Levels.Debug), false);
    // A rule for this file (debugHandler.test.ts, matched as debugHandler.test.go) raises it here only.
    assert.equal(await rpc('debug_vmodule', ['nomatch.go=5,api/debugHandler.test.go=4']), null);
    assert.equal(log.enabled(Levels.Debug), true);
    assert.equal(log.enabled(Levels.Verbo), false);
    assert.equal(await rpc('debug_vmodule', ['evm/*=5']), null);
    assert.equal(log.enabled(Levels.Verbo), true);
    // Verbosity still sets the ceiling under rules; an empty ruleset removes them.
    await rpc('debug_verbosity', [1]);
    assert.equal(log.enabled(Levels.Info), true, 'the rule still raises this file');
    assert.equal(await rpc('debug_vmodule', ['']), null);
    assert.equal(log.enabled(Levels.Info), false);
    assert.equal(log.sourceLevel, Levels.Error);
  } finally {
    log.logLevel = savedLevel;
    await rpc('debug_verbosity', [3]);
  }
  for (const bad of ['eth', 'a=b=3', '=3', 'eth=', 'eth=x', 'eth=1.5']) {
    assert.deepEqual(await rpcError('debug_vmodule', [bad]), { code: -32000, message: 'expect comma-separated list of filename=N' }, bad);
  }
  assert.equal(parseVmodule('eth=0,p2p=3,,').length, 1, 'crit rules and empty entries are dropped');
  assert.ok(parseVmodule('eth/*=5')[0].re.test('/x/eth/downloader/api.go'));
  assert.ok(parseVmodule('api.go=5')[0].re.test('/x/eth/api.go'));
  assert.ok(!parseVmodule('api.go=5')[0].re.test('/x/eth/myapi.go'));
});

test('debug_stacks: the JavaScript and native stacks, libuv handles, geth\'s filter', async () => {
  const all: string = await rpc('debug_stacks');
  assert.match(all, /^thread 1 \[running, JavaScript main thread, serving debug_stacks\]:\n\tat /);
  assert.match(all, /debugHandler\.[jt]s:\d+/);
  assert.match(all, /thread 1 \[native stack of the main thread\]:/);
  assert.match(all, /\nlibuv tcp \[/);
  // No filter (absent, null or ""): the whole dump.
  for (const p of [[null], ['']]) assert.match(await rpc('debug_stacks', p), /^thread 1 \[running[^]*\nlibuv /);

  const tcp: string = await rpc('debug_stacks', ['libuv && tcp']);
  const sections = tcp.split('\n\n').filter(Boolean);
  assert.ok(sections.length > 0 && sections.every((s) => s.startsWith('libuv tcp')), tcp);
  assert.ok(tcp.endsWith('\n\n'));
  const notUv: string = await rpc('debug_stacks', ['!libuv']);
  assert.ok(notUv.includes('thread 1 [running') && !notUv.includes('libuv '));
  const either: string = await rpc('debug_stacks', ['(tcp || timer) && !native']);
  assert.ok(either.includes('libuv tcp') && !either.includes('native stack'));
  assert.equal(await rpc('debug_stacks', ['no-such-thing-anywhere']), '');
  for (const bad of ['(eth', 'eth ||', 'a b', 'eth && ', '$x']) assert.equal(await rpc('debug_stacks', [bad]), '', bad);
  assert.ok(parseStacksFilter('(eth || snap) && !p2p')!('eth/handler'));
  assert.ok(!parseStacksFilter('(eth || snap) && !p2p')!('eth p2p'));
});

test('debug_setGCPercent returns the previous setting', async () => {
  const first = await rpc('debug_setGCPercent', [80]);
  assert.equal(typeof first, 'number');
  assert.equal(await rpc('debug_setGCPercent', [-1]), 80);
  assert.equal(await rpc('debug_setGCPercent', [0]), -1);
  assert.equal(await rpc('debug_setGCPercent', [first]), 0);
});

test('bad input: geth\'s -32602 errors, and the node keeps serving', async () => {
  const f = join(dir, 'bad.prof');
  const cases: [string, unknown[], string][] = [
    ['debug_verbosity', [], 'missing value for required argument 0'],
    ['debug_verbosity', ['3'], 'invalid argument 0: json: cannot unmarshal string into Go value of type int'],
    ['debug_verbosity', [1.5], 'invalid argument 0: json: cannot unmarshal number 1.5 into Go value of type int'],
    ['debug_verbosity', [3, 4], 'too many arguments, want at most 1'],
    ['debug_vmodule', [], 'missing value for required argument 0'],
    ['debug_vmodule', [5], 'invalid argument 0: json: cannot unmarshal number into Go value of type string'],
    ['debug_memStats', [1], 'too many arguments, want at most 0'],
    ['debug_gcStats', [1], 'too many arguments, want at most 0'],
    ['debug_cpuProfile', [f], 'missing value for required argument 1'],
    ['debug_cpuProfile', [], 'missing value for required argument 0'],
    ['debug_cpuProfile', [f, -1], 'invalid argument 1: json: cannot unmarshal number -1 into Go value of type uint'],
    ['debug_cpuProfile', [f, '1'], 'invalid argument 1: json: cannot unmarshal string into Go value of type uint'],
    ['debug_cpuProfile', [f, 1, 2], 'too many arguments, want at most 2'],
    ['debug_startCPUProfile', [{}], 'invalid argument 0: json: cannot unmarshal object into Go value of type string'],
    ['debug_startCPUProfile', [], 'missing value for required argument 0'],
    ['debug_stopCPUProfile', [f], 'too many arguments, want at most 0'],
    ['debug_goTrace', [f, true], 'invalid argument 1: json: cannot unmarshal bool into Go value of type uint'],
    ['debug_startGoTrace', [[f]], 'invalid argument 0: json: cannot unmarshal array into Go value of type string'],
    ['debug_stopGoTrace', [1], 'too many arguments, want at most 0'],
    ['debug_blockProfile', [f], 'missing value for required argument 1'],
    ['debug_setBlockProfileRate', ['x'], 'invalid argument 0: json: cannot unmarshal string into Go value of type int'],
    ['debug_writeBlockProfile', [1], 'invalid argument 0: json: cannot unmarshal number into Go value of type string'],
    ['debug_mutexProfile', [f, 2.5], 'invalid argument 1: json: cannot unmarshal number 2.5 into Go value of type uint'],
    ['debug_setMutexProfileFraction', [], 'missing value for required argument 0'],
    ['debug_writeMutexProfile', [f, f], 'too many arguments, want at most 1'],
    ['debug_writeMemProfile', [false], 'invalid argument 0: json: cannot unmarshal bool into Go value of type string'],
    ['debug_stacks', [1], 'invalid argument 0: json: cannot unmarshal number into Go value of type string'],
    ['debug_stacks', ['a', 'b'], 'too many arguments, want at most 1'],
    ['debug_freeOSMemory', [1], 'too many arguments, want at most 0'],
    ['debug_setGCPercent', [], 'missing value for required argument 0'],
    ['debug_setGCPercent', ['100'], 'invalid argument 0: json: cannot unmarshal string into Go value of type int'],
  ];
  for (const [method, params, message] of cases) {
    assert.deepEqual(await rpcError(method, params), { code: -32602, message }, `${method} ${JSON.stringify(params)}`);
  }
  assert.ok(!existsSync(f));
  // null decodes to Go's zero value: "" for a string (→ open .), 0 for an int/uint.
  assert.deepEqual(await rpcError('debug_writeMemProfile', [null]), { code: -32000, message: 'open .: is a directory' });
  assert.equal(await rpc('debug_cpuProfile', [join(dir, 'zero.prof'), null]), null);
  assert.deepEqual(pprof(join(dir, 'zero.prof')).types, ['samples', 'cpu']);
  assert.equal(typeof (await rpc('eth_coinbase')), 'string');
});
