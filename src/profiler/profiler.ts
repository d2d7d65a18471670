// A node's profiler (AvalancheGo utils/profiler): cpu.profile, mem.profile and lock.profile in
// its --profile-dir. Directory created 0750 on demand; files 0640, truncated each time.
// File writes and compression are asynchronous: profiling never stalls the node's requests.
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { goMkdirAllError, goPathError } from '../goPathError.js';
import { CpuProfileSession } from './cpu.js';
import { acquireHeapSampler, type HeapSampler } from './heap.js';
import { formatLockProfile } from './lockprofile.js';
import { lockRecorder } from './locks.js';
import { encodeGzipped } from './pprof.js';

export const CPU_PROFILE_FILE = 'cpu.profile';
export const MEM_PROFILE_FILE = 'mem.profile';
export const LOCK_PROFILE_FILE = 'lock.profile';

const DIR_MODE = 0o750;
const FILE_MODE = 0o640;

export class Profiler {
  private readonly cpu = new CpuProfileSession();
  /** The open cpu.profile while a CPU profile runs (Go keeps the file open the same way). */
  private cpuFile: FileHandle | undefined;
  /** Set while startCPUProfiler runs, so a concurrent second start fails as "already running". */
  private cpuStarting = false;
  private heap: Promise<HeapSampler> | undefined;
  private closed = false;

  constructor(readonly dir: string) {}

  /**
   * Starts the process-wide heap sampler now, so mem.profile shows what was allocated since
   * (V8 samples only allocations made after sampling begins). Failures surface at memoryProfile.
   */
  startHeapSampling(): void {
    this.heap ??= acquireHeapSampler();
    this.heap.catch(() => undefined);
  }

  /** Creates (truncates) `<dir>/<name>` as Go's perms.Create does; failures in Go's words (goPathError.ts). */
  private async create(name: string): Promise<FileHandle> {
    try {
      await mkdir(this.dir, { recursive: true, mode: DIR_MODE });
    } catch (e) {
      throw new Error(goMkdirAllError(this.dir, e));
    }
    const file = join(this.dir, name);
    try {
      return await open(file, 'w', FILE_MODE);
    } catch (e) {
      throw new Error(goPathError('open', file, e));
    }
  }

  async startCPUProfiler(): Promise<void> {
    if (this.cpuFile !== undefined || this.cpuStarting) throw new Error('cpu profiler already running');
    this.cpuStarting = true;
    try {
      // The process's CPU profiler is claimed first, synchronously within this call: of two
      // profilers started one after the other (the node's continuous one, then a chain's) the first
      // gets it, whatever their directories' I/O does.
      await this.cpu.start();
      try {
        this.cpuFile = await this.create(CPU_PROFILE_FILE);
      } catch (e) {
        await this.cpu.stop().catch(() => undefined);
        throw e;
      }
    } finally {
      this.cpuStarting = false;
    }
  }

  async stopCPUProfiler(): Promise<void> {
    const file = this.cpuFile;
    if (file === undefined) throw new Error("cpu profiler doesn't exist");
    this.cpuFile = undefined;
    try {
      await file.write(await encodeGzipped(await this.cpu.stop()));
    } finally {
      await file.close();
    }
  }

  async memoryProfile(): Promise<void> {
    const file = await this.create(MEM_PROFILE_FILE);
    try {
      this.startHeapSampling();
      const profile = await (await this.heap!).profile();
      await file.write(await encodeGzipped(profile));
    } finally {
      await file.close();
    }
  }

  async lockProfile(): Promise<void> {
    const file = await this.create(LOCK_PROFILE_FILE);
    try {
      await file.write(formatLockProfile(lockRecorder.snapshot()));
    } finally {
      await file.close();
    }
  }

  /** At node stop: a running CPU profile is finished and written; the samplers are let go. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.cpuFile !== undefined) await this.stopCPUProfiler();
    } finally {
      await this.cpu.close();
      const heap = this.heap;
      this.heap = undefined;
      if (heap) await heap.then((h) => h.release(), () => undefined);
    }
  }
}
