// A node's profiler (AvalancheGo utils/profiler): cpu.profile, mem.profile and lock.profile in
// its --profile-dir. Directory created 0750 on demand; files 0640, truncated each time.
import { closeSync, mkdirSync, openSync, writeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  private cpuFile: number | undefined;
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

  async startCPUProfiler(): Promise<void> {
    if (this.cpuFile !== undefined) throw new Error('cpu profiler already running');
    mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
    const fd = openSync(join(this.dir, CPU_PROFILE_FILE), 'w', FILE_MODE);
    this.cpuFile = fd;
    try {
      await this.cpu.start();
    } catch (e) {
      closeSync(fd);
      this.cpuFile = undefined;
      throw e;
    }
  }

  async stopCPUProfiler(): Promise<void> {
    const fd = this.cpuFile;
    if (fd === undefined) throw new Error("cpu profiler doesn't exist");
    this.cpuFile = undefined;
    try {
      writeSync(fd, encodeGzipped(await this.cpu.stop()));
    } finally {
      closeSync(fd);
    }
  }

  async memoryProfile(): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
    const fd = openSync(join(this.dir, MEM_PROFILE_FILE), 'w', FILE_MODE);
    try {
      this.startHeapSampling();
      const profile = await (await this.heap!).profile();
      writeSync(fd, encodeGzipped(profile));
    } finally {
      closeSync(fd);
    }
  }

  async lockProfile(): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
    writeFileSync(join(this.dir, LOCK_PROFILE_FILE), formatLockProfile(lockRecorder.snapshot()), { mode: FILE_MODE });
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
