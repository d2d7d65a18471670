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

export type { EVMResult, InterpreterStep, Message };
