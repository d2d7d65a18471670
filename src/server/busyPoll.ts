// Busy polling after an answer (--http-busy-poll). When the event loop has nothing to do it sleeps
// in epoll_wait, and on a virtual machine a sleeping thread halts its vCPU. Waking it for the next
// request then costs both sides: the client's write has to wake the halted vCPU, and the node's
// code runs slower right after such a sleep (docs/performance.md, sessions 12 and 36). A client that
// sends its requests one after another — a test suite awaiting each call — pays that on every
// request. So after answering, the event loop keeps turning (a chain of setImmediate callbacks:
// libuv then polls its sockets without blocking) for a short window before it may sleep, as Linux's
// haltpoll cpuidle governor does inside a guest kernel (where it is often off:
// guest_halt_poll_ns=0 on the machine the benchmarks ran on).
//
// The window adapts as haltpoll's does, so that a node whose clients pause between requests stops
// spending CPU on it: a request that comes within the window leaves it as it is; one that comes
// after the window but within the longest window grows it (×2, from MIN_WINDOW_US); one that comes
// later still shrinks it (÷2, to 0 below MIN_WINDOW_US). It is process-wide, like the event loop:
// with several nodes in one process the longest setting of those running applies.
//
// How the loop is kept turning matters for the collector. A chain of setImmediate callbacks makes
// an Immediate, an async id and Node's per-callback bookkeeping at every turn (~420 B of garbage per
// ~1 µs turn): polling through a one-connection client's ~100 µs round trip then made about as
// much garbage as an eth_call, and twice the young-generation collections, most of the
// one-connection p99 (docs/performance.md, session 42). So where Node's timers allow it, the loop
// is kept turning with no JavaScript at all (loopKeeper below), and a timer ends the window.
import { performance } from 'node:perf_hooks';

/** The smallest window polled; a window shrunk below it is 0 (no polling) until requests come fast again. */
export const MIN_WINDOW_US = 25;

export class BusyPoll {
  /** The settings in use (one per running node), microseconds; the largest applies. */
  private readonly settings: number[] = [];
  private maxUs = 0;
  private windowUs = 0;
  /** now() at which the current poll ends. */
  private until = 0;
  private polling = false;
  /** now() of the last answer no request has followed yet (-1: none). */
  private answeredAt = -1;
  /** Polls started and request gaps seen, since start (for tests and the docs' measurements). */
  readonly stats = { polls: 0, caught: 0, grown: 0, shrunk: 0 };

  /**
   * `now`: the clock (milliseconds); `keeperOf`: how the loop is kept turning (loopKeeper; a test
   * gives `() => undefined` for the chain of immediates).
   */
  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly keeperOf: () => LoopKeeper | undefined = loopKeeper,
  ) {}

  /** Adds a node's setting (microseconds, 0 = off); the returned function removes it. */
  use(us: number): () => void {
    this.settings.push(us);
    this.apply();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.settings.splice(this.settings.indexOf(us), 1);
      this.apply();
    };
  }

  private apply(): void {
    this.maxUs = Math.max(0, ...this.settings);
    this.windowUs = this.maxUs;
    this.answeredAt = -1;
    if (this.maxUs === 0) {
      this.until = 0;
      this.stopPolling();
    }
  }

  /** The current window, microseconds (0: the loop sleeps right after an answer). */
  get window(): number {
    return this.windowUs;
  }

  /** Whether the event loop is being kept busy now. */
  get active(): boolean {
    return this.polling;
  }

  /** An answer was handed to the socket: keep the loop turning for the window. */
  answered(): void {
    if (this.maxUs === 0) return;
    const now = this.now();
    this.answeredAt = now;
    if (this.windowUs === 0) return;
    this.until = now + this.windowUs / 1000;
    if (!this.polling) {
      this.polling = true;
      this.stats.polls++;
      const keeper = this.keeperOf();
      if (keeper !== undefined) {
        keeper.hold();
        // libuv's timers have millisecond steps: the window ends at the first step past `until`.
        if (this.expiry === undefined) this.expiry = setTimeout(this.expire, 1).unref();
        else this.expiry.refresh();
      } else {
        // Not unref'd: an unref'd immediate does not stop libuv from blocking in epoll_wait.
        setImmediate(this.tick);
      }
    }
  }

  /** A request (or its first bytes) arrived: adapt the window to how long after the last answer. */
  arrived(): void {
    if (this.answeredAt < 0) return;
    const gapUs = (this.now() - this.answeredAt) * 1000;
    this.answeredAt = -1;
    if (gapUs <= this.windowUs) {
      this.stats.caught++;
    } else if (gapUs <= this.maxUs) {
      this.windowUs = Math.min(this.maxUs, Math.max(MIN_WINDOW_US, this.windowUs * 2));
      this.stats.grown++;
    } else if (this.windowUs > 0) {
      this.windowUs = this.windowUs / 2 < MIN_WINDOW_US ? 0 : this.windowUs / 2;
      this.stats.shrunk++;
    }
  }

  /** The chain of immediates (where the loop keeper cannot be used): one callback per turn. */
  private readonly tick = (): void => {
    if (this.now() < this.until) setImmediate(this.tick);
    else this.polling = false;
  };

  /** The loop keeper's window timer (unref'd: the held count keeps the loop alive while polling). */
  private expiry: NodeJS.Timeout | undefined;

  private readonly expire = (): void => {
    if (!this.polling) return; // ended by apply() meanwhile
    if (this.now() < this.until) {
      this.expiry!.refresh();
      return;
    }
    this.polling = false;
    this.keeperOf()!.release();
  };

  /** Ends a poll under way at once (the last node asking for it has stopped). */
  private stopPolling(): void {
    const keeper = this.keeperOf();
    if (!this.polling || keeper === undefined) return; // a chain ends at its next turn (until is 0)
    this.polling = false;
    keeper.release();
  }
}

/** Holds libuv's loop awake with no Immediate queued while any hold() has no release() yet. */
export interface LoopKeeper {
  hold(): void;
  release(): void;
}

const noop = (): void => {};
let keeperChecked = false;
let keeper: LoopKeeper | undefined;

/**
 * Node keeps libuv's poll from blocking while its count of referenced Immediates is above zero (an
 * idle handle with an empty callback), and calls into JavaScript at the check phase only while an
 * Immediate is queued. So the keeper holds one count with nothing queued: an Immediate is made,
 * marked unreferenced behind the count's back (its `refed` field, a symbol of Node's timers module)
 * and cleared, which leaves the count up; release() marks it referenced again and unrefs it, which
 * takes the count down (and stops the idle handle at zero). A turn then makes only the C++ check
 * phase's one object (~68 B per ~0.6 µs turn, against the chain's ~420 B per ~1 µs turn). This leans
 * on Node's internals, so it is checked once, on first use, against the count that
 * process.getActiveResourcesInfo() reports; where it does not behave, the chain of immediates is
 * used instead (undefined).
 */
export function loopKeeper(): LoopKeeper | undefined {
  if (keeperChecked) return keeper;
  keeperChecked = true;
  try {
    const probe = setImmediate(noop);
    const refed = Object.getOwnPropertySymbols(probe).find((s) => s.description === 'refed');
    clearImmediate(probe);
    if (refed === undefined) return undefined;
    type Flagged = NodeJS.Immediate & Record<symbol, unknown>;
    // One count held for any number of holders (each BusyPoll holds at most once at a time).
    let held: Flagged | undefined;
    let holders = 0;
    const candidate: LoopKeeper = {
      hold() {
        if (holders++ > 0) return;
        const i = setImmediate(noop) as Flagged;
        i[refed] = false;
        clearImmediate(i);
        held = i;
      },
      release() {
        if (holders === 0 || --holders > 0) return;
        const i = held!;
        held = undefined;
        i[refed] = true;
        i.unref();
      },
    };
    const counted = () => process.getActiveResourcesInfo().filter((r) => r === 'Immediate').length;
    const before = counted();
    candidate.hold();
    const holding = counted();
    candidate.release();
    if (holding === before + 1 && counted() === before) keeper = candidate;
  } catch {
    keeper = undefined;
  }
  return keeper;
}

/** The process's poller: the HTTP fast path, node:http's path and WebSocket connections report to it. */
export const busyPoll = new BusyPoll();
