// The continuous profiler (AvalancheGo utils/profiler/continuous.go): profiles the CPU for one
// period, then writes cpu.profile, mem.profile and lock.profile into its directory, rotates each
// file (name → name.1 → … → name.<max-files>, the oldest overwritten) and starts again. At stop the
// running period is written, without a rotation. The node runs one with --profile-continuous-* in
// <profile-dir>/continuous (node.go initProfiler); a Subnet-EVM chain runs one with its config's
// continuous-profiler-* keys in continuous-profiler-dir itself (vm.go initContinuousProfiler).
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { CPU_PROFILE_FILE, LOCK_PROFILE_FILE, MEM_PROFILE_FILE, Profiler } from './profiler.js';

/** The node's continuous profiles go to <profile-dir>/continuous. */
export const CONTINUOUS_SUBDIR = 'continuous';

export class ContinuousProfiler {
  readonly dir: string;
  private readonly profiler: Profiler;
  private timer: NodeJS.Timeout | undefined;
  /** Resolves the wait of the running period early, at shutdown. */
  private wake: (() => void) | undefined;
  private shuttingDown = false;
  private loop: Promise<void> | undefined;

  /** `dir` is where the files go (created when the first ones are written). */
  constructor(
    dir: string,
    private readonly freqMs: number,
    private readonly maxFiles: number,
  ) {
    this.dir = dir;
    this.profiler = new Profiler(dir);
  }

  /**
   * Starts the loop (Go's Dispatch). `onFailure` gets the error that ended it early — the real node
   * logs it as fatal and shuts down; a clean shutdown does not call it.
   */
  dispatch(onFailure: (err: Error) => void): void {
    if (this.loop) return;
    this.profiler.startHeapSampling();
    this.loop = this.run().catch((e: unknown) => {
      if (!this.shuttingDown) onFailure(e instanceof Error ? e : new Error(String(e)));
    });
  }

  private async run(): Promise<void> {
    for (;;) {
      await this.profiler.startCPUProfiler();
      await this.period();
      await this.writeAll();
      if (this.shuttingDown) return;
      await this.rotateAll();
    }
  }

  /** Waits one period, or until shutdown. */
  private period(): Promise<void> {
    if (this.shuttingDown) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, this.freqMs);
      this.timer.unref();
    }).then(() => {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.wake = undefined;
    });
  }

  /** Stops the CPU profile and writes all three files together; fails with the first error, after all ended (errgroup). */
  private async writeAll(): Promise<void> {
    await firstError([this.profiler.stopCPUProfiler(), this.profiler.memoryProfile(), this.profiler.lockProfile()]);
  }

  private async rotateAll(): Promise<void> {
    await firstError([CPU_PROFILE_FILE, MEM_PROFILE_FILE, LOCK_PROFILE_FILE].map((name) => rotate(join(this.dir, name), this.maxFiles)));
  }

  /** Ends the loop: the running period's files are written; then the profiler is released. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    this.wake?.();
    await this.loop;
    await this.profiler.close();
  }
}

async function firstError(work: Promise<unknown>[]): Promise<void> {
  const results = await Promise.allSettled(work);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** name.<max-1> → name.<max>, …, name.1 → name.2, then name → name.1; missing files are skipped. */
export async function rotate(name: string, maxFiles: number): Promise<void> {
  for (let i = maxFiles - 1; i > 0; i--) await renameIfExists(`${name}.${i}`, `${name}.${i + 1}`);
  await renameIfExists(name, `${name}.1`);
}

async function renameIfExists(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}
