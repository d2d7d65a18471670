import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';
import type { Account, Address } from '@ethereumjs/util';

/** What a tracer needs of an @ethereumjs/evm EVM: its event emitter (and, to read state, its state). */
export interface TracedEVM {
  events?: {
    on(event: 'step', fn: (data: InterpreterStep, resolve: () => void) => void): unknown;
    on(event: 'beforeMessage', fn: (data: Message, resolve: () => void) => void): unknown;
    on(event: 'afterMessage', fn: (data: EVMResult, resolve: () => void) => void): unknown;
    off(event: string, fn: (...args: any[]) => void): unknown;
  };
  stateManager?: TracedState;
  /** The active precompiles, keyed by unprefixed lower-case address hex. */
  precompiles?: Map<string, unknown>;
}

/** The state reads the prestate tracer makes. */
export interface TracedState {
  getAccount(address: Address): Promise<Account | undefined>;
  getCode(address: Address): Promise<Uint8Array>;
  getStorage(address: Address, key: Uint8Array): Promise<Uint8Array>;
}

/** The VM running a transaction (runTx): its `beforeTx` event comes before the gas is bought. */
export interface TracedVM {
  events: {
    on(event: 'beforeTx', fn: (tx: TracedTx, resolve: () => void) => void): unknown;
    off(event: string, fn: (...args: any[]) => void): unknown;
  };
}

export interface TracedTx {
  to?: Address;
  value: bigint;
  getSenderAddress(): Address;
}

/** geth's tracers.Context: where the traced transaction is (zero for debug_traceCall). */
export interface TraceContext {
  blockHash?: string;
  blockNumber?: bigint;
  txIndex?: number;
  txHash?: string;
}

export interface Tracer {
  /**
   * Starts listening to the EVM's events (call before running the transaction or call). `vm`,
   * when the run is a transaction of that VM, lets a tracer see the state before the tx starts.
   */
  attach(evm: TracedEVM, vm?: TracedVM): void;
  /** Stops listening. */
  detach(): void;
  /** Optional: the transaction's gas limit, reported as the top frame's `gas` (geth does), and where it is. */
  txStart(gasLimit: bigint, ctx?: TraceContext): void;
  /** Optional: the transaction's gas used (intrinsic gas included, after refunds), as geth reports. */
  txEnd(gasUsed: bigint): void;
  /**
   * The tracer's JSON result (wire values; numbers may be bigint). A tracer that reads the state
   * after the run (prestateTracer's diffMode) answers a promise: await it before the state moves on.
   */
  result(): unknown;
  /**
   * Frees what the tracer holds outside the JavaScript heap (a JavaScript tracer's engine): call
   * it when the run ends without a result (a result frees it itself). Repeated calls do nothing.
   */
  dispose?(): void;
}

/** Event handlers; one declared with a second parameter is awaited until it calls `resolve`. */
export interface TracerHandlers {
  step?: (data: InterpreterStep, resolve: () => void) => void;
  beforeMessage?: (data: Message, resolve: () => void) => void;
  afterMessage?: (data: EVMResult, resolve: () => void) => void;
}

/**
 * Subscribes a tracer's handlers to the EVM's events; returns the function that unsubscribes them.
 */
export function listen(evm: TracedEVM, h: TracerHandlers): () => void {
  if (h.step) evm.events?.on('step', h.step);
  if (h.beforeMessage) evm.events?.on('beforeMessage', h.beforeMessage);
  if (h.afterMessage) evm.events?.on('afterMessage', h.afterMessage);
  return () => {
    for (const [event, fn] of Object.entries(h)) if (fn) evm.events?.off(event, fn);
  };
}

export type { EVMResult, InterpreterStep, Message };
