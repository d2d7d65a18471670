// geth's muxTracer (eth/tracers/native/mux.go): several tracers over one run; the result is an
// object of tracer name → that tracer's result.
import type { TraceContext, TracedEVM, TracedVM, Tracer } from './types.js';

export class MuxTracer implements Tracer {
  constructor(private readonly tracers: [name: string, tracer: Tracer][]) {}

  attach(evm: TracedEVM, vm?: TracedVM): void {
    for (const [, t] of this.tracers) t.attach(evm, vm);
  }

  detach(): void {
    for (const [, t] of this.tracers) t.detach();
  }

  txStart(gasLimit: bigint, ctx?: TraceContext): void {
    for (const [, t] of this.tracers) t.txStart(gasLimit, ctx);
  }

  txEnd(gasUsed: bigint): void {
    for (const [, t] of this.tracers) t.txEnd(gasUsed);
  }

  dispose(): void {
    for (const [, t] of this.tracers) t.dispose?.();
  }

  /** Names in order (Go writes a map's keys sorted); a promise when a tracer answers one. */
  result(): unknown {
    const sorted = [...this.tracers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const results = sorted.map(([, t]) => t.result());
    const named = (rs: unknown[]) => Object.fromEntries(sorted.map(([n], i) => [n, rs[i]]));
    return results.some((r) => r instanceof Promise) ? Promise.all(results).then(named) : named(results);
  }
}
