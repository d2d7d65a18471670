// CPU profiles: V8's sampling CPU profiler through a node:inspector Session, converted to a
// pprof CPU profile (sample types samples/count and cpu/nanoseconds, like Go's).
import type { Session } from 'node:inspector/promises';
import { ProfileBuilder, nowNanos, type V8CallFrame } from './pprof.js';
import type { Profile } from 'pprof-format';
import { dynamicImport } from '../dynamicImport.js';

/** V8's Profiler.Profile (the .cpuprofile JSON). */
export interface V8CpuProfile {
  nodes: { id: number; callFrame: V8CallFrame; hitCount?: number; children?: number[]; positionTicks?: { line: number; ticks: number }[] }[];
  /** Microseconds (monotonic clock). */
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Sampling interval in microseconds (V8's default; Go samples at 100 Hz). */
export const CPU_SAMPLING_INTERVAL_US = 1000;

/**
 * The V8 CPU profiler is one per process (as Go's runtime CPU profiler is): the owner of the
 * running profile, so that a second node starting one gets Go's "already in use" error.
 */
let processProfileOwner: object | undefined;

export class CpuProfileSession {
  private session: Session | undefined;
  private startedAt = 0n;
  running = false;

  /** Starts sampling; fails with `cpu profiling already in use` if any profile runs in the process. */
  async start(): Promise<void> {
    if (processProfileOwner !== undefined) throw new Error('cpu profiling already in use');
    processProfileOwner = this;
    try {
      if (!this.session) {
        // node:inspector loads with the first profile, not at every start.
        const { Session } = await dynamicImport<typeof import('node:inspector/promises')>('node:inspector/promises');
        const s = new Session();
        s.connect();
        this.session = s;
      }
      await this.session.post('Profiler.enable');
      await this.session.post('Profiler.setSamplingInterval', { interval: CPU_SAMPLING_INTERVAL_US });
      this.startedAt = nowNanos();
      await this.session.post('Profiler.start');
      this.running = true;
    } catch (e) {
      processProfileOwner = undefined;
      throw e;
    }
  }

  /** Stops sampling and returns the profile in pprof form. */
  async stop(): Promise<Profile> {
    if (!this.running || !this.session) throw new Error("cpu profiler doesn't exist");
    try {
      const { profile } = (await this.session.post('Profiler.stop')) as { profile: V8CpuProfile };
      await this.session.post('Profiler.disable');
      return cpuProfileToPprof(profile, this.startedAt);
    } finally {
      this.running = false;
      if (processProfileOwner === this) processProfileOwner = undefined;
    }
  }

  /** Stops any running profile (discarding it) and closes the session. */
  async close(): Promise<void> {
    if (this.running) await this.stop().catch(() => undefined);
    this.session?.disconnect();
    this.session = undefined;
  }
}

/** Nodes that are not work done by the process. */
const SKIPPED = new Set(['(root)', '(idle)']);

/** Converts a V8 CPU profile to pprof: one sample per call path (and per hot line of its leaf). */
export function cpuProfileToPprof(p: V8CpuProfile, timeNanos: bigint): Profile {
  const byID = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  // Per node: how many samples hit it and how much time they stood for.
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  const hits = new Map<number, { count: number; ns: number }>();
  let t = p.startTime;
  const stamps = deltas.map((d) => (t += d));
  for (let i = 0; i < samples.length; i++) {
    const next = i + 1 < stamps.length ? stamps[i + 1] : p.endTime;
    const us = Math.max(0, next - (stamps[i] ?? p.startTime));
    const h = hits.get(samples[i]) ?? { count: 0, ns: 0 };
    h.count++;
    h.ns += us * 1000;
    hits.set(samples[i], h);
  }

  const b = new ProfileBuilder();
  const fnLine = (f: V8CallFrame) => (f.lineNumber >= 0 ? f.lineNumber + 1 : 0);
  for (const [id, h] of hits) {
    const node = byID.get(id);
    if (!node || SKIPPED.has(node.callFrame.functionName)) continue;
    // Callers, innermost first, each at its function's first line (V8 does not record call sites).
    const callers: number[] = [];
    for (let p2 = parent.get(id); p2 !== undefined; p2 = parent.get(p2)) {
      const n = byID.get(p2)!;
      if (n.callFrame.functionName === '(root)') break;
      callers.push(b.location(b.function(n.callFrame), fnLine(n.callFrame)));
    }
    const fn = b.function(node.callFrame);
    // The leaf's own samples split by the line they were on (positionTicks), the rest at its start.
    let restCount = h.count;
    let restNs = h.ns;
    const ticks = node.positionTicks ?? [];
    const tickTotal = ticks.reduce((s, x) => s + x.ticks, 0);
    for (const { line, ticks: n } of ticks) {
      const count = Math.min(restCount, Math.round((h.count * n) / Math.max(tickTotal, h.count)));
      if (count <= 0) continue;
      const ns = Math.round((h.ns * count) / h.count);
      b.sample([b.location(fn, line), ...callers], [count, ns]);
      restCount -= count;
      restNs -= ns;
    }
    if (restCount > 0) b.sample([b.location(fn, fnLine(node.callFrame)), ...callers], [restCount, Math.max(0, Math.round(restNs))]);
  }
  return b.build({
    sampleTypes: [['samples', 'count'], ['cpu', 'nanoseconds']],
    periodType: ['cpu', 'nanoseconds'],
    period: CPU_SAMPLING_INTERVAL_US * 1000,
    timeNanos,
    durationNanos: BigInt(Math.max(0, Math.round((p.endTime - p.startTime) * 1000))),
  });
}
