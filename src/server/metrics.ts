// Per-route API call counters, as AvalancheGo's api/server metrics: calls processed, calls in
// flight, and total time spent, labelled by the route that served them.
import { performance } from 'node:perf_hooks';

export class RouteCalls {
  processed = 0;
  processing = 0;
  /** Total handling time in nanoseconds, kept as a float (exact to 2^53 ns, ~104 days) so a call
   *  costs no bigint allocation. */
  private ns = 0;

  /** Total handling time, nanoseconds. */
  get durationNs(): bigint {
    return BigInt(Math.round(this.ns));
  }

  /** Marks a call started; pass the returned start time to `finish`. */
  begin(): number {
    this.processing++;
    return performance.now();
  }

  finish(start: number): void {
    this.processing--;
    this.processed++;
    this.ns += (performance.now() - start) * 1e6;
  }
}

export class ApiCallMetrics {
  readonly byRoute = new Map<string, RouteCalls>();

  /** The counters of a route (created on first use). */
  entry(route: string): RouteCalls {
    let e = this.byRoute.get(route);
    if (!e) this.byRoute.set(route, (e = new RouteCalls()));
    return e;
  }

  /** Marks a call started; the returned function marks it finished. */
  start(route: string): () => void {
    const e = this.entry(route);
    const t0 = e.begin();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      e.finish(t0);
    };
  }
}
