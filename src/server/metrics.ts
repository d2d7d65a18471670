// Per-route API call counters, as AvalancheGo's api/server metrics: calls processed, calls in
// flight, and total time spent, labelled by the route that served them.

export interface RouteCalls {
  processed: number;
  processing: number;
  /** Total handling time, nanoseconds. */
  durationNs: bigint;
}

export class ApiCallMetrics {
  readonly byRoute = new Map<string, RouteCalls>();

  private entry(route: string): RouteCalls {
    let e = this.byRoute.get(route);
    if (!e) this.byRoute.set(route, (e = { processed: 0, processing: 0, durationNs: 0n }));
    return e;
  }

  /** Marks a call started; the returned function marks it finished. */
  start(route: string): () => void {
    const e = this.entry(route);
    e.processing++;
    const t0 = process.hrtime.bigint();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      e.processing--;
      e.processed++;
      e.durationNs += process.hrtime.bigint() - t0;
    };
  }
}
