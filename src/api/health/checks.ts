// The node's health checks, as AvalancheGo's api/health worker keeps them (reference:
// avalanchego-node.md §9.2): three check sets (health, readiness, liveness), each check with tags,
// results kept from the last run; checks run at start and then every --health-check-frequency.
import { sortedObject } from '../../rpc/gorilla.js';

/** A check returns details (shown as `message`) or throws (shown as `error`). */
export type CheckFn = () => unknown | Promise<unknown>;

export type CheckSet = 'health' | 'readiness' | 'liveness';
export const CHECK_SETS: readonly CheckSet[] = ['health', 'readiness', 'liveness'];

/** Tag every check carries; results for it are "all checks". */
export const ALL_TAG = 'all';
/** Tag of node-wide checks: returned whatever tags a caller filters on. */
export const APPLICATION_TAG = 'application';

/** One check's result, with AvalancheGo's JSON member order and omissions. */
export interface CheckResult {
  message?: unknown;
  error?: string;
  timestamp: string;
  duration: number;
  contiguousFailures?: number;
  timeOfFirstFailure?: string;
}

export interface Report {
  checks: Record<string, CheckResult>;
  healthy: boolean;
}

interface Check {
  name: string;
  fn: CheckFn;
  tags: Set<string>;
  result: CheckResult;
  running?: Promise<void>;
}

/** Go's time.Time zero value as JSON. */
const ZERO_TIME = '0001-01-01T00:00:00Z';

/** RFC 3339 with fractional seconds trimmed of trailing zeros, as Go's RFC3339Nano. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0*Z$/, 'Z');
}

function notYetRun(): CheckResult {
  return { error: 'not yet run', timestamp: ZERO_TIME, duration: 0 };
}

/** One check set: its checks by name, in registration order. */
class Worker {
  readonly checks = new Map<string, Check>();

  register(name: string, fn: CheckFn, tags: string[]): Check {
    if (this.checks.has(name)) throw new Error(`duplicated check: ${name}`);
    const check: Check = { name, fn, tags: new Set([ALL_TAG, ...tags]), result: notYetRun() };
    this.checks.set(name, check);
    return check;
  }

  /** Checks carrying one of the tags, plus every application-wide check; all of them for no tags. */
  select(tags: string[]): Check[] {
    const want = tags.length === 0 ? [ALL_TAG] : [...tags, APPLICATION_TAG];
    return [...this.checks.values()].filter((c) => want.some((t) => c.tags.has(t)));
  }
}

export class HealthChecks {
  private readonly workers: Record<CheckSet, Worker> = { health: new Worker(), readiness: new Worker(), liveness: new Worker() };
  private timer: NodeJS.Timeout | undefined;
  private started = false;

  /**
   * `refresh` runs before every round and every report: it registers checks for things that
   * appeared since (chains created by admin.loadVMs).
   */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly refresh: () => void = () => {},
  ) {}

  /** Registers a check; once the checks have started, it runs at once. */
  register(set: CheckSet, name: string, fn: CheckFn, tags: string[] = []): void {
    const check = this.workers[set].register(name, fn, tags);
    if (this.started) void this.run(check);
  }

  has(set: CheckSet, name: string): boolean {
    return this.workers[set].checks.has(name);
  }

  /** Runs every check now and then every `frequencyMs`. */
  start(frequencyMs: number): Promise<void> {
    this.started = true;
    if (frequencyMs > 0) {
      this.timer = setInterval(() => void this.runAll(), frequencyMs);
      this.timer.unref();
    }
    return this.runAll();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.started = false;
  }

  runAll(): Promise<void> {
    this.refresh();
    const all = CHECK_SETS.flatMap((s) => [...this.workers[s].checks.values()]);
    return Promise.all(all.map((c) => this.run(c))).then(() => {});
  }

  private run(check: Check): Promise<void> {
    // A check still running from the previous round is not started twice.
    if (check.running) return check.running;
    const p = this.runOnce(check).finally(() => {
      check.running = undefined;
    });
    check.running = p;
    return p;
  }

  private async runOnce(check: Check): Promise<void> {
    const startedAt = this.now();
    const t0 = process.hrtime.bigint();
    let details: unknown;
    let error: string | undefined;
    try {
      details = await check.fn();
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
      details = (e as { details?: unknown })?.details;
    }
    const duration = Number(process.hrtime.bigint() - t0);
    const prev = check.result;
    const result = {} as CheckResult;
    if (details !== undefined && details !== null) result.message = details;
    if (error !== undefined) result.error = error;
    result.timestamp = rfc3339(startedAt);
    result.duration = duration;
    if (error !== undefined) {
      // "not yet run" is not a failure of the check itself.
      const failedBefore = prev.contiguousFailures !== undefined;
      result.contiguousFailures = (prev.contiguousFailures ?? 0) + 1;
      result.timeOfFirstFailure = failedBefore ? prev.timeOfFirstFailure : rfc3339(startedAt);
    }
    check.result = result;
  }

  /**
   * The set's results for the tags (all checks for none). Checks registered since the last round
   * and already running are awaited, so a new chain does not show as "not yet run" for a whole period.
   */
  async report(set: CheckSet, tags: string[] = []): Promise<Report> {
    this.refresh();
    const selected = this.workers[set].select(tags);
    await Promise.all(selected.filter((c) => c.result.timestamp === ZERO_TIME).map((c) => c.running));
    let healthy = true;
    for (const c of selected) if (c.result.error !== undefined) healthy = false;
    // Go's map[string]Result: keys in byte order, whatever the registration order.
    const checks = sortedObject(selected.map((c) => [c.name, c.result]));
    return { checks, healthy };
  }

  /** Number of failing checks per set and tag (for /ext/metrics). */
  failing(): { set: CheckSet; tag: string; count: number }[] {
    const out: { set: CheckSet; tag: string; count: number }[] = [];
    for (const set of CHECK_SETS) {
      const counts = new Map<string, number>([[ALL_TAG, 0]]);
      for (const c of this.workers[set].checks.values()) {
        for (const t of c.tags) {
          if (!counts.has(t)) counts.set(t, 0);
          if (c.result.error !== undefined) counts.set(t, counts.get(t)! + 1);
        }
      }
      for (const [tag, count] of counts) out.push({ set, tag, count });
    }
    return out;
  }
}

/** An error carrying details, so a failing check can still show a `message`. */
export class CheckError extends Error {
  constructor(
    message: string,
    readonly details: unknown,
  ) {
    super(message);
  }
}
