// The node's instrumented locks. Work that must not interleave (block building, state writes)
// goes through a Mutex; each wait is recorded so admin.lockProfile can show where work waited
// on a lock, how often and for how long (a Go-style mutex profile).
export interface Release {
  (): void;
}

export class Mutex {
  private locked = false;
  private readonly waiters: (() => void)[] = [];

  constructor(readonly name: string) {}

  /** Waits for the lock; returns the function that releases it. */
  async acquire(): Promise<Release> {
    if (!this.locked) {
      this.locked = true;
      return () => this.release();
    }
    const started = process.hrtime.bigint();
    const site = lockRecorder.enabled ? new Error().stack : undefined;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
    if (site !== undefined) lockRecorder.record(this.name, site, process.hrtime.bigint() - started);
    return () => this.release();
  }

  async runExclusive<T>(fn: () => Promise<T> | T): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }

  get isLocked(): boolean {
    return this.locked;
  }

  private release(): void {
    const next = this.waiters.shift();
    if (next) next(); // hand the lock over directly; stays locked
    else this.locked = false;
  }
}

export interface ContentionRecord {
  lock: string;
  stack: string;
  count: number;
  totalNs: bigint;
}

/** Process-wide record of lock contention (Go's mutex profile is process-wide too). */
export class LockRecorder {
  enabled = true;
  private readonly records = new Map<string, ContentionRecord>();

  record(lock: string, stack: string, waitedNs: bigint): void {
    const key = lock + '\n' + stack;
    const r = this.records.get(key);
    if (r) {
      r.count++;
      r.totalNs += waitedNs;
    } else this.records.set(key, { lock, stack, count: 1, totalNs: waitedNs });
  }

  snapshot(): ContentionRecord[] {
    return [...this.records.values()].map((r) => ({ ...r }));
  }
}

export const lockRecorder = new LockRecorder();
