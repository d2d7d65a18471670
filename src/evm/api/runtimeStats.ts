// debug_memStats / debug_gcStats: Go's runtime.MemStats and debug.GCStats filled from what a
// Node.js process has: process.memoryUsage(), v8.getHeapStatistics(), and the collections seen by
// a perf_hooks 'gc' observer plus a v8.GCProfiler (bytes freed per collection). One recorder per
// process (Go's runtime statistics are process-wide too), started with the first chain serving
// `debug-handler`; it holds no event-loop reference. Fields without a Node counterpart are 0
// (debugHandler.md lists them).
import v8 from 'node:v8';
import vm from 'node:vm';
import { PerformanceObserver, performance, constants as perf } from 'node:perf_hooks';

/** len(runtime.MemStats.PauseNs) */
const PAUSE_HISTORY = 256;
/** len(runtime.MemStats.BySize) */
const SIZE_CLASSES = 61;
/** How often the GCProfiler's per-collection records are folded into the freed-bytes total. */
const DRAIN_MS = 30_000;

class GcRecorder {
  numGC = 0;
  numForcedGC = 0;
  pauseTotalNs = 0;
  /** Unix ns of the end of the last collection (0: none yet). */
  lastGC = 0;
  /** Circular, as Go's: the most recent pause is at [(numGC + 255) % 256]. */
  readonly pauseNs = new Array<number>(PAUSE_HISTORY).fill(0);
  readonly pauseEnd = new Array<number>(PAUSE_HISTORY).fill(0);
  /** Bytes the collections seen so far freed (GCProfiler before/after used heap). */
  freedBytes = 0;
  readonly startedAt = performance.now();
  private profiler: v8.GCProfiler | undefined;
  private waiters: { forced: number; resolve: () => void }[] = [];

  constructor() {
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) this.observe(e.startTime, e.duration, (e as unknown as { detail?: { flags?: number } }).detail?.flags ?? 0);
    });
    obs.observe({ entryTypes: ['gc'] });
    this.profiler = new v8.GCProfiler();
    this.profiler.start();
    setInterval(() => this.drain(), DRAIN_MS).unref();
  }

  private observe(startMs: number, durationMs: number, flags: number): void {
    const pause = Math.max(0, Math.round(durationMs * 1e6));
    const end = Math.round((performance.timeOrigin + startMs + durationMs) * 1e6);
    const i = this.numGC % PAUSE_HISTORY;
    this.pauseNs[i] = pause;
    this.pauseEnd[i] = end;
    this.numGC++;
    this.pauseTotalNs += pause;
    this.lastGC = end;
    if (flags & perf.NODE_PERFORMANCE_GC_FLAGS_FORCED) this.numForcedGC++;
    this.waiters = this.waiters.filter((w) => (this.numForcedGC >= w.forced ? (w.resolve(), false) : true));
  }

  /** Resolves once `n` forced collections have been observed, or after `ms`. */
  forcedSeen(n: number, ms = 2000): Promise<void> {
    if (this.numForcedGC >= n) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      t.unref();
      this.waiters.push({ forced: n, resolve: () => (clearTimeout(t), resolve()) });
    });
  }

  /** Folds the GCProfiler's records into freedBytes (it keeps them until stopped). */
  drain(): void {
    const p = this.profiler;
    if (!p) return;
    const r = p.stop() as unknown as { statistics?: { beforeGC: { heapStatistics: { usedHeapSize: number } }; afterGC: { heapStatistics: { usedHeapSize: number } } }[] } | undefined;
    for (const s of r?.statistics ?? []) this.freedBytes += Math.max(0, s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize);
    this.profiler = new v8.GCProfiler();
    this.profiler.start();
  }
}

let recorder: GcRecorder | undefined;

/** The process's GC recorder, started at the first call. */
export function gcRecorder(): GcRecorder {
  return (recorder ??= new GcRecorder());
}

let gcFn: (() => void) | undefined;

/**
 * debug.FreeOSMemory: a full, forced collection (V8's gc() made reachable through --expose-gc in
 * a fresh context), then waits for the observer to record it so that the next memStats shows it.
 */
export async function freeOSMemory(): Promise<void> {
  const rec = gcRecorder();
  if (!gcFn) {
    v8.setFlagsFromString('--expose-gc');
    gcFn = vm.runInNewContext('gc') as () => void;
  }
  const forced = rec.numForcedGC + 1;
  gcFn();
  await rec.forcedSeen(forced);
}

/** runtime.MemStats as Go's encoding/json writes it (field names and order). */
export function memStats(): Record<string, unknown> {
  const rec = gcRecorder();
  rec.drain();
  const h = v8.getHeapStatistics();
  const rss = process.memoryUsage.rss();
  const heapSys = h.total_heap_size;
  const heapInuse = h.used_heap_size;
  const heapReleased = Math.max(0, h.total_heap_size - h.total_physical_size);
  const otherSys = Math.max(0, rss - h.total_physical_size);
  const elapsedNs = Math.max(1, (performance.now() - rec.startedAt) * 1e6);
  return {
    Alloc: heapInuse,
    TotalAlloc: rec.freedBytes + heapInuse,
    Sys: heapSys + otherSys,
    Lookups: 0,
    Mallocs: 0,
    Frees: 0,
    HeapAlloc: heapInuse,
    HeapSys: heapSys,
    HeapIdle: Math.max(0, heapSys - heapInuse),
    HeapInuse: heapInuse,
    HeapReleased: heapReleased,
    HeapObjects: 0,
    StackInuse: 0,
    StackSys: 0,
    MSpanInuse: 0,
    MSpanSys: 0,
    MCacheInuse: 0,
    MCacheSys: 0,
    BuckHashSys: 0,
    GCSys: 0,
    OtherSys: otherSys,
    NextGC: 0,
    LastGC: rec.lastGC,
    PauseTotalNs: rec.pauseTotalNs,
    PauseNs: [...rec.pauseNs],
    PauseEnd: [...rec.pauseEnd],
    NumGC: rec.numGC,
    NumForcedGC: rec.numForcedGC,
    GCCPUFraction: Math.min(1, rec.pauseTotalNs / elapsedNs),
    EnableGC: true,
    DebugGC: false,
    BySize: Array.from({ length: SIZE_CLASSES }, () => ({ Size: 0, Mallocs: 0, Frees: 0 })),
  };
}

/** Go's time.Time JSON (RFC 3339 with nanoseconds, trailing zeros trimmed), in UTC. */
export function rfc3339Nano(unixNs: number): string {
  const ns = BigInt(Math.round(unixNs));
  const ms = ns / 1_000_000n;
  const sub = ns % 1_000_000_000n;
  const base = new Date(Number(ms)).toISOString().slice(0, 19);
  const frac = sub === 0n ? '' : '.' + sub.toString().padStart(9, '0').replace(/0+$/, '');
  return `${base}${frac}Z`;
}

/** debug.GCStats as geth's GcStats returns it: most recent pause first, no quantiles asked. */
export function gcStats(): Record<string, unknown> {
  const rec = gcRecorder();
  const n = Math.min(rec.numGC, PAUSE_HISTORY);
  const pause: number[] = [];
  const pauseEnd: string[] = [];
  for (let k = 0; k < n; k++) {
    const i = (rec.numGC - 1 - k + PAUSE_HISTORY * 2) % PAUSE_HISTORY;
    pause.push(rec.pauseNs[i]);
    pauseEnd.push(rfc3339Nano(rec.pauseEnd[i]));
  }
  return {
    LastGC: rfc3339Nano(rec.lastGC),
    NumGC: rec.numGC,
    PauseTotal: rec.pauseTotalNs,
    Pause: pause,
    PauseEnd: pauseEnd,
    PauseQuantiles: null,
  };
}
