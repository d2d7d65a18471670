import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';

/** What a tracer needs of an @ethereumjs/evm EVM: its event emitter. */
export interface TracedEVM {
  events?: {
    on(event: 'step', fn: (data: InterpreterStep) => void): unknown;
    on(event: 'beforeMessage', fn: (data: Message) => void): unknown;
    on(event: 'afterMessage', fn: (data: EVMResult) => void): unknown;
    off(event: string, fn: (...args: any[]) => void): unknown;
  };
}

export interface Tracer {
  /** Starts listening to the EVM's events (call before running the transaction or call). */
  attach(evm: TracedEVM): void;
  /** Stops listening. */
  detach(): void;
  /** Optional: the transaction's gas limit, reported as the top frame's `gas` (geth does). */
  txStart(gasLimit: bigint): void;
  /** Optional: the transaction's gas used (intrinsic gas included, after refunds), as geth reports. */
  txEnd(gasUsed: bigint): void;
  /** The tracer's JSON result (wire values; numbers may be bigint). */
  result(): unknown;
}

export interface TracerHandlers {
  step?: (data: InterpreterStep) => void;
  beforeMessage?: (data: Message) => void;
  afterMessage?: (data: EVMResult) => void;
}

/** Subscribes a tracer's handlers to the EVM's events; returns the function that unsubscribes them. */
export function listen(evm: TracedEVM, h: TracerHandlers): () => void {
  if (h.step) evm.events?.on('step', h.step);
  if (h.beforeMessage) evm.events?.on('beforeMessage', h.beforeMessage);
  if (h.afterMessage) evm.events?.on('afterMessage', h.afterMessage);
  return () => {
    for (const [event, fn] of Object.entries(h)) if (fn) evm.events?.off(event, fn);
  };
}

export type { EVMResult, InterpreterStep, Message };
