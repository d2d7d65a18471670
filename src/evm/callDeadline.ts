// api-max-duration for eth_call (Subnet-EVM sets geth's RPCEVMTimeout from it): a call still
// running after that long is aborted and answered `execution aborted (timeout = <d>)`, geth's text.
//
// @ethereumjs runs a call's opcodes back to back on the event loop (its awaits are microtasks), so
// no timer can interrupt it; instead the Interpreter's runStep is wrapped, once the first deadline
// is set, to look at the clock every 1,024 steps of a frame. The deadline hangs off the EVM
// instance, and a call session's EVM runs one call at a time. Nodes that never set
// api-max-duration (the default, 0) never install the wrapper.
import { interpreterPrototype } from './vmTuning.js';
import { withYielding } from './callYield.js';

/** Thrown out of the interpreter when the running call's deadline has passed. */
export class CallTimeoutError extends Error {
  constructor() {
    super('call deadline passed');
  }
}

interface SteppingInterpreter {
  _evm: object;
  powderSteps?: number;
  runStep(op: unknown): Promise<void>;
}

/** EVM instance → Date.now() after which its running call is aborted. */
const deadlines = new WeakMap<object, number>();
let installed = false;

function install(): void {
  if (installed) return;
  const proto = interpreterPrototype as SteppingInterpreter | undefined;
  if (!proto || typeof proto.runStep !== 'function') throw new Error('api-max-duration: the EVM interpreter cannot be wrapped');
  installed = true;
  const original = proto.runStep;
  proto.runStep = function (this: SteppingInterpreter, op: unknown) {
    if (((this.powderSteps = (this.powderSteps ?? 0) + 1) & 1023) === 0) {
      const at = deadlines.get(this._evm);
      if (at !== undefined && Date.now() > at) throw new CallTimeoutError();
    }
    return original.call(this, op);
  };
}

/** The Date.now() after which `evm`'s running call or traced tx is aborted, if it has one. */
export function deadlineOf(evm: object): number | undefined {
  return deadlines.get(evm);
}

/**
 * Runs `fn` (one call or traced tx on `evm`) with a deadline `ms` from now (none when ms ≤ 0),
 * giving the event loop turns while it runs (callYield.ts).
 */
export function withDeadline<T>(evm: object, ms: number, fn: () => Promise<T>): Promise<T> {
  // Without a deadline, withYielding's promise itself (an async function handing it on would
  // cost microtask turns on every eth_call).
  return ms > 0 ? runWithDeadline(evm, ms, fn) : withYielding(evm, fn);
}

async function runWithDeadline<T>(evm: object, ms: number, fn: () => Promise<T>): Promise<T> {
  install();
  deadlines.set(evm, Date.now() + ms);
  try {
    return await withYielding(evm, fn);
  } finally {
    deadlines.delete(evm);
  }
}
