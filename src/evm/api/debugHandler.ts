// The `debug-handler` service: geth's internal/debug HandlerT (debug_verbosity … debug_setGCPercent)
// on what a Node.js process has. One handler per process, as geth's debug.Handler: a CPU profile
// or trace started through one chain is the one every chain sees. debugHandler.md is the wire
// reference and lists how each Go facility is mapped.
import { goPathError } from '../../goPathError.js';
import v8 from 'node:v8';
import { homedir } from 'node:os';
import { posix } from 'node:path';
import { open, type FileHandle } from 'node:fs/promises';
import type { Session } from 'node:inspector/promises';
import type { EvmBackend } from './backend.js';
import type { MethodTable } from './eth.js';
import { arg, GoTypeError, intNumberArg, jsonKind, missingArgument, goUintArg } from '../rpc/params.js';
import { CpuProfileSession } from '../../profiler/cpu.js';
import { acquireHeapSampler, type HeapSampler } from '../../profiler/heap.js';
import { lockRecorder, type ContentionRecord } from '../../profiler/locks.js';
import { parseStack } from '../../profiler/lockprofile.js';
import { ProfileBuilder, encodeGzipped, nowNanos } from '../../profiler/pprof.js';
import { dynamicImport } from '../../dynamicImport.js';
import { freeOSMemory, gcRecorder, gcStats, memStats } from './runtimeStats.js';
import { stacks } from './stacksDump.js';
import { legacyLevel, setVerbosity, setVmodule } from './logVerbosity.js';

// ---------------------------------------------------------------------------------------------
// Arguments (Go's encoding/json into string / uint)

/** A Go `string` argument: null leaves "" (as encoding/json does). */
const stringArg = (p: unknown[], i: number): string => {
  const v = p[i];
  if (v === undefined) throw missingArgument(i);
  if (v === null) return '';
  return arg(i, () => {
    if (typeof v !== 'string') throw new GoTypeError(jsonKind(v), 'string');
    return v;
  });
};

/** An optional `*string` argument. */
const optStringArg = (p: unknown[], i: number): string | undefined => {
  const v = p[i];
  if (v === undefined || v === null) return undefined;
  return arg(i, () => {
    if (typeof v !== 'string') throw new GoTypeError(jsonKind(v), 'string');
    return v;
  });
};

// ---------------------------------------------------------------------------------------------
// Files: geth's expandHome + os.Create, with Go's *PathError texts

/** filepath.Clean */
function clean(p: string): string {
  if (p === '') return '.';
  const n = posix.normalize(p);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}

/** geth's expandHome: a leading `~/` is $HOME (or the user's home); the path is cleaned. */
export function expandHome(p: string): string {
  if (p.startsWith('~/') || p.startsWith('~\\')) {
    const home = process.env.HOME || homedir();
    if (home) p = home + p.slice(1);
  }
  return clean(p);
}

/** os.Create(expandHome(file)): O_RDWR|O_CREATE|O_TRUNC, 0666 before umask. */
async function create(file: string): Promise<FileHandle> {
  const path = expandHome(file);
  try {
    return await open(path, 'w+', 0o666);
  } catch (e) {
    throw new Error(goPathError('open', path, e));
  }
}

async function writeFile(file: string, data: () => Promise<Buffer | string>): Promise<void> {
  const f = await create(file);
  try {
    const d = await data();
    await (typeof d === 'string' ? f.write(d) : f.write(d));
  } finally {
    await f.close();
  }
}

/**
 * geth's `time.Sleep(time.Duration(nsec) * time.Second)`: the product wraps as Go's int64 does, and
 * a duration that wraps to zero or below returns at once (2^63 - 1 seconds is -1 s there).
 */
const sleepSeconds = async (nsec: bigint): Promise<void> => {
  let ms = Number(BigInt.asIntN(64, nsec * 1_000_000_000n) / 1_000_000n);
  while (ms > 0) {
    const step = Math.min(ms, 2 ** 31 - 1);
    await new Promise<void>((r) => setTimeout(r, step).unref());
    ms -= step;
  }
};

// ---------------------------------------------------------------------------------------------
// The process's handler state

const cpu = new CpuProfileSession();
/** The running CPU profile (geth's cpuW/cpuFile); `file` undefined while it starts. */
let cpuRun: { file?: FileHandle; name: string } | undefined;

/** The running trace: a node:inspector NodeTracing session streaming into the file. */
interface TraceRun {
  session?: Session;
  file?: FileHandle;
  name: string;
  writes: Promise<unknown>;
  first: boolean;
}
let traceRun: TraceRun | undefined;

/** Trace-event categories recorded by debug_startGoTrace (what Go's execution trace covers). */
export const TRACE_CATEGORIES = [
  'v8',
  'node',
  'node.async_hooks',
  'node.perf',
  'node.fs.async',
  'node.net.native',
  'node.dns.native',
  'node.http',
  'node.threadpoolwork.async',
  'node.promises.rejections',
];

/** Lock-contention recording: on while either Go profile is (both read the same records). */
const contention = { block: lockRecorder.enabled, mutex: lockRecorder.enabled };
const applyContention = () => {
  lockRecorder.enabled = contention.block || contention.mutex;
};

let heapSampler: Promise<HeapSampler> | undefined;
const heap = () => {
  heapSampler ??= acquireHeapSampler();
  heapSampler.catch(() => {
    heapSampler = undefined;
  });
  return heapSampler;
};

/** The --heap-growing-percent the process started with (bin/powder.js sets 50), else 0 (V8's own). */
function initialGrowingPercent(): number {
  const opts = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  for (let i = 0; i < opts.length; i++) {
    const m = /^--heap[-_]growing[-_]percent(?:=(\d+))?$/.exec(opts[i]);
    if (m) return Number(m[1] ?? opts[i + 1]) || 0;
  }
  return (globalThis as { __powderImport?: unknown }).__powderImport ? 50 : 0;
}
let gcPercent: number | undefined;

/** Started with the first chain that serves debug-handler: GC records and heap samples from then on. */
let started = false;
function startService(): void {
  if (started) return;
  started = true;
  gcRecorder();
  heap();
}

// ---------------------------------------------------------------------------------------------
// Profiles

async function startCPUProfile(file: string, be: EvmBackend): Promise<void> {
  if (cpuRun) throw new Error('CPU profiling already in progress');
  const run: { file?: FileHandle; name: string } = { name: file };
  cpuRun = run;
  try {
    run.file = await create(file);
    try {
      await cpu.start();
    } catch (e) {
      await run.file.close();
      throw e;
    }
  } catch (e) {
    cpuRun = undefined;
    throw e;
  }
  be.log.info('CPU profiling started', { dump: file });
}

async function stopCPUProfile(be: EvmBackend): Promise<void> {
  const run = cpuRun;
  if (!run || !run.file) throw new Error('CPU profiling not in progress');
  cpuRun = undefined;
  be.log.info('Done writing CPU profile', { dump: run.name });
  try {
    await run.file.write(await encodeGzipped(await cpu.stop()));
  } finally {
    await run.file.close();
  }
}

async function startGoTrace(file: string, be: EvmBackend): Promise<void> {
  if (traceRun) throw new Error('trace already in progress');
  const run: TraceRun = { name: file, writes: Promise.resolve(), first: true };
  traceRun = run;
  try {
    run.file = await create(file);
    const fh = run.file;
    try {
      const { Session } = await dynamicImport<typeof import('node:inspector/promises')>('node:inspector/promises');
      const s = new Session();
      s.connect();
      run.session = s;
      await fh.write('{"traceEvents":[');
      s.on('NodeTracing.dataCollected', (m: { params: { value: object[] } }) => {
        if (!m.params.value.length) return;
        let text = m.params.value.map((ev) => JSON.stringify(ev)).join(',\n');
        if (!run.first) text = ',\n' + text;
        run.first = false;
        run.writes = run.writes.then(() => fh.write(text)).catch(() => undefined);
      });
      await s.post('NodeTracing.start', { traceConfig: { recordMode: 'recordContinuously', includedCategories: TRACE_CATEGORIES } });
    } catch (e) {
      run.session?.disconnect();
      await fh.close();
      throw e;
    }
  } catch (e) {
    traceRun = undefined;
    throw e;
  }
  be.log.info('Go tracing started', { dump: file });
}

async function stopGoTrace(be: EvmBackend): Promise<void> {
  const run = traceRun;
  if (!run || !run.session || !run.file) throw new Error('trace not in progress');
  traceRun = undefined;
  const { session, file } = run;
  try {
    const complete = new Promise<void>((r) => session.once('NodeTracing.tracingComplete', () => r()));
    await session.post('NodeTracing.stop');
    await complete;
    await run.writes;
    await file.write(']}\n');
    be.log.info('Done writing Go trace', { dump: run.name });
  } finally {
    session.disconnect();
    await file.close();
  }
}

/** Go's block/mutex profile (pprof, debug=0) from the contention records of the node's Mutexes. */
export function contentionProfile(records: ContentionRecord[]) {
  const b = new ProfileBuilder();
  for (const r of records) {
    const frames = parseStack(r.stack);
    if (frames.length && /(^|\.)acquire$/.test(frames[0].function)) frames[0] = { ...frames[0], function: `Mutex(${r.lock}).acquire` };
    const stack = frames.map((f) =>
      b.location(b.function({ functionName: f.function, url: f.file, lineNumber: -1, columnNumber: 0 }), f.line),
    );
    if (stack.length) b.sample(stack, [r.count, r.totalNs]);
  }
  return b.build({ sampleTypes: [['contentions', 'count'], ['delay', 'nanoseconds']], periodType: ['contentions', 'count'], period: 1, timeNanos: nowNanos() });
}

function writeProfile(kind: 'block' | 'mutex' | 'heap', file: string, be: EvmBackend): Promise<void> {
  const records = kind === 'heap' ? [] : lockRecorder.snapshot();
  be.log.info('Writing profile records', { count: records.length, type: kind, dump: file });
  return writeFile(file, async () => encodeGzipped(kind === 'heap' ? await (await heap()).profile() : contentionProfile(records)));
}

// ---------------------------------------------------------------------------------------------

export function debugHandlerMethods(be: EvmBackend): MethodTable {
  const m: MethodTable = new Map();
  if (!be.config.ethApis.includes('debug-handler')) return m;
  startService();

  m.set('debug_verbosity', (p) => {
    setVerbosity(be.log, legacyLevel(intNumberArg(p, 0)));
    return null;
  });
  m.set('debug_vmodule', (p) => {
    setVmodule(be.log, stringArg(p, 0));
    return null;
  });
  m.set('debug_memStats', () => memStats());
  m.set('debug_gcStats', () => gcStats());

  m.set('debug_cpuProfile', async (p) => {
    const file = stringArg(p, 0);
    const nsec = goUintArg(p, 1);
    await startCPUProfile(file, be);
    await sleepSeconds(nsec);
    await stopCPUProfile(be).catch(() => undefined);
    return null;
  });
  m.set('debug_startCPUProfile', async (p) => {
    await startCPUProfile(stringArg(p, 0), be);
    return null;
  });
  m.set('debug_stopCPUProfile', async () => {
    await stopCPUProfile(be);
    return null;
  });

  m.set('debug_goTrace', async (p) => {
    const file = stringArg(p, 0);
    const nsec = goUintArg(p, 1);
    await startGoTrace(file, be);
    await sleepSeconds(nsec);
    await stopGoTrace(be).catch(() => undefined);
    return null;
  });
  m.set('debug_startGoTrace', async (p) => {
    await startGoTrace(stringArg(p, 0), be);
    return null;
  });
  m.set('debug_stopGoTrace', async () => {
    await stopGoTrace(be);
    return null;
  });

  m.set('debug_blockProfile', async (p) => {
    const file = stringArg(p, 0);
    const nsec = goUintArg(p, 1);
    contention.block = true;
    applyContention();
    await sleepSeconds(nsec);
    try {
      await writeProfile('block', file, be);
    } finally {
      contention.block = false;
      applyContention();
    }
    return null;
  });
  m.set('debug_setBlockProfileRate', (p) => {
    contention.block = intNumberArg(p, 0) > 0;
    applyContention();
    return null;
  });
  m.set('debug_writeBlockProfile', async (p) => {
    await writeProfile('block', stringArg(p, 0), be);
    return null;
  });
  m.set('debug_mutexProfile', async (p) => {
    const file = stringArg(p, 0);
    const nsec = goUintArg(p, 1);
    contention.mutex = true;
    applyContention();
    await sleepSeconds(nsec);
    try {
      await writeProfile('mutex', file, be);
    } finally {
      contention.mutex = false;
      applyContention();
    }
    return null;
  });
  m.set('debug_setMutexProfileFraction', (p) => {
    const rate = intNumberArg(p, 0);
    // Go: a negative rate only reads the current one.
    if (rate >= 0) {
      contention.mutex = rate > 0;
      applyContention();
    }
    return null;
  });
  m.set('debug_writeMutexProfile', async (p) => {
    await writeProfile('mutex', stringArg(p, 0), be);
    return null;
  });
  m.set('debug_writeMemProfile', async (p) => {
    await writeProfile('heap', stringArg(p, 0), be);
    return null;
  });

  m.set('debug_stacks', (p) => stacks(optStringArg(p, 0)));
  m.set('debug_freeOSMemory', async () => {
    await freeOSMemory();
    return null;
  });
  m.set('debug_setGCPercent', (p) => {
    const v = intNumberArg(p, 0);
    const prev = gcPercent ?? initialGrowingPercent();
    // GOGC=v → V8's old-generation growing percent; 0 (collect at once) → 1, the least growth;
    // negative (Go: collector off, which V8 cannot do) → 0, V8's own dynamic growing.
    v8.setFlagsFromString(`--heap-growing-percent=${v > 0 ? Math.min(v, 2 ** 31 - 1) : v === 0 ? 1 : 0}`);
    gcPercent = v;
    return prev;
  });
  return m;
}
