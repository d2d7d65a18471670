// Memory profiles: V8's sampling heap profiler (one per process, shared by every node in it),
// converted to a pprof heap profile with Go's four sample types.
import type { Session } from 'node:inspector/promises';
import type { Profile } from 'pprof-format';
import { Mutex } from './locks.js';
import { ProfileBuilder, nowNanos, type V8CallFrame } from './pprof.js';
import { dynamicImport } from '../dynamicImport.js';

/** Average bytes between samples: Go's runtime.MemProfileRate default (512 KiB). */
export const HEAP_SAMPLING_INTERVAL = 512 * 1024;

interface V8HeapNode {
  callFrame: V8CallFrame;
  selfSize: number;
  id: number;
  children: V8HeapNode[];
}

/** V8's HeapProfiler.SamplingHeapProfile. */
export interface V8HeapProfile {
  head: V8HeapNode;
  samples: { size: number; nodeId: number; ordinal: number }[];
}

/**
 * V8 has one sampling heap profiler per isolate: every inspector session sees (and can stop) the
 * same one. So the process keeps one session and counts its users; sampling stops with the last.
 */
const sharedLock = new Mutex('heap-sampler');
let shared: { session: Session; users: number } | undefined;

export interface HeapSampler {
  /** Collects garbage (as Go's memoryProfile runs a GC first), then returns the sampled heap. */
  profile(): Promise<Profile>;
  release(): Promise<void>;
}

export async function acquireHeapSampler(): Promise<HeapSampler> {
  await sharedLock.runExclusive(async () => {
    if (shared) {
      shared.users++;
      return;
    }
    const { Session } = await dynamicImport<typeof import('node:inspector/promises')>('node:inspector/promises'); // loaded with the first profile
    const session = new Session();
    session.connect();
    try {
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', { samplingInterval: HEAP_SAMPLING_INTERVAL });
    } catch (e) {
      session.disconnect();
      throw e;
    }
    shared = { session, users: 1 };
  });
  let released = false;
  return {
    profile: () =>
      sharedLock.runExclusive(async () => {
        if (released || !shared) throw new Error('heap sampler released');
        await shared.session.post('HeapProfiler.collectGarbage');
        const { profile } = (await shared.session.post('HeapProfiler.getSamplingProfile')) as unknown as { profile: V8HeapProfile };
        return heapProfileToPprof(profile, HEAP_SAMPLING_INTERVAL);
      }),
    release: () =>
      sharedLock.runExclusive(async () => {
        if (released || !shared) return;
        released = true;
        if (--shared.users > 0) return;
        const { session } = shared;
        shared = undefined;
        try {
          await session.post('HeapProfiler.stopSampling');
          await session.post('HeapProfiler.disable');
        } finally {
          session.disconnect();
        }
      }),
  };
}

/**
 * One pprof sample per allocation stack. Each V8 sample is one live object of `size` bytes picked
 * with probability 1 - e^(-size/rate); it is scaled back by the inverse, as Go scales its samples.
 * V8 drops samples of collected objects, so the alloc_* columns hold the same (live) values as
 * inuse_*: Node.js offers no record of what was allocated and freed.
 */
export function heapProfileToPprof(p: V8HeapProfile, rate: number): Profile {
  const nodes = new Map<number, { node: V8HeapNode; parent?: number }>();
  const walk = (n: V8HeapNode, parent?: number) => {
    nodes.set(n.id, { node: n, parent });
    for (const c of n.children) walk(c, n.id);
  };
  walk(p.head);

  const totals = new Map<number, { objects: number; bytes: number }>();
  for (const s of p.samples) {
    const scale = 1 / (1 - Math.exp(-s.size / rate));
    const t = totals.get(s.nodeId) ?? { objects: 0, bytes: 0 };
    t.objects += scale;
    t.bytes += s.size * scale;
    totals.set(s.nodeId, t);
  }

  const b = new ProfileBuilder();
  for (const [id, t] of totals) {
    const stack: number[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = nodes.get(cur)?.parent) {
      const n = nodes.get(cur)?.node;
      if (!n || n.callFrame.functionName === '(root)') break;
      const line = n.callFrame.lineNumber >= 0 ? n.callFrame.lineNumber + 1 : 0;
      stack.push(b.location(b.function(n.callFrame), line));
    }
    if (stack.length === 0) continue;
    const objects = Math.max(1, Math.round(t.objects));
    const bytes = Math.round(t.bytes);
    b.sample(stack, [objects, bytes, objects, bytes]);
  }
  return b.build({
    sampleTypes: [['alloc_objects', 'count'], ['alloc_space', 'bytes'], ['inuse_objects', 'count'], ['inuse_space', 'bytes']],
    periodType: ['space', 'bytes'],
    period: rate,
    timeNanos: nowNanos(),
  });
}
