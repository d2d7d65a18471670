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

  constructor(private readonly now: () => number = () => performance.now()) {}

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
    if (this.maxUs === 0) this.until = 0; // a poll under way ends at its next turn
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
      // Not unref'd: an unref'd immediate does not stop libuv from blocking in epoll_wait.
      setImmediate(this.tick);
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

  private readonly tick = (): void => {
    if (this.now() < this.until) setImmediate(this.tick);
    else this.polling = false;
  };
}

/** The process's poller: the HTTP fast path, node:http's path and WebSocket connections report to it. */
export const busyPoll = new BusyPoll();
