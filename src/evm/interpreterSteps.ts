// The interpreter's step loop without a promise per plain opcode.
//
// @ethereumjs/evm's Interpreter.run awaits `runStep` for every opcode, and runStep is an async
// function, so each step costs a promise and a microtask turn even when the opcode is a plain
// PUSH, DUP, ADD or JUMP whose gas is a constant and whose handler is synchronous. Here a step
// waits only for a promise a handler actually returned: SLOAD, SSTORE, the calls and other state
// reads; the bundles make the dynamic gas handlers that never await synchronous
// (scripts/bundle.mjs), so an MSTORE or KECCAK256 runs straight through too — 113 of the 114
// steps of an ERC-20 `balanceOf`. runStep also asks Common for EIP-6800 and EIP-7864 on every
// step.
//
// The replacements below are the package's own methods (@ethereumjs/evm 10.1.3) with these changes:
// - runStep runs a constant-gas opcode whose handler returns no promise to its end and returns
//   undefined; for a dynamic-gas opcode whose gas handler returns a promise it returns that promise
//   chained to the rest of the step (one wait instead of the package's two); a `step` listener or
//   DEBUG, a code-chunk EIP or the performance profiler send the step to the package's runStep
//   unchanged;
// - run awaits what runStep returns only when it is a promise, and lets a long call or trace
//   give the event loop a turn every so often (callYield.ts);
// - `finish` (RETURN) ends a fast-path frame by putting the program counter past the code instead
//   of throwing the package's STOP error, and run puts the counter back where the throw left it;
// - while a step log is kept on the EVM (tracers/stepLog.ts: the struct logger,
//   tracers/structLogger.ts, or the trace files' JSON logger, api/jsonLogger.ts), a frame's steps
//   go through loggedStep, which hands the log the running frame at the point where the package
//   emits its `step` event (after the gas handler, or when the gas handler throws an EVMError),
//   without building the event. Whether a frame logs is settled once in run, so an
//   untraced step asks nothing more than before.
// The same checks run in the same order and the same errors are thrown (the run loop catches a
// synchronous throw exactly as a rejected step). `run` defers to the package for EOF code, the
// performance profiler and the code-chunk and EIP-7928 EIPs (none of which a Subnet-EVM fork
// activates), so it only ever copies the legacy-code loop. api-max-duration's wrapper
// (callDeadline.ts) wraps whatever runStep is installed and passes its result through.
import { EVMError } from '@ethereumjs/evm';
import { EthereumJSErrorWithoutCode } from '@ethereumjs/util';
import { takeTurn, turnDue } from './callYield.js';
import { invalidOpcodeText, stackUnderflowText } from './gethHalts.js';
import { listening, type Emitter } from './listening.js';


export interface OpInfo {
  code: number;
  feeBigInt: bigint;
  dynamicGas: boolean;
  isAsync: boolean;
  isInvalid: boolean;
}
export interface OpEntry {
  opcodeInfo: OpInfo;
  opHandler: (runState: unknown, common: unknown) => unknown;
  gasHandler: (runState: unknown, gas: bigint, common: unknown) => Promise<bigint> | bigint;
}
export interface RunState {
  code: Uint8Array;
  programCounter: number;
  opCode: number;
  validJumps: Uint8Array;
  cachedPushes: Record<number, bigint>;
  shouldDoJumpAnalysis: boolean;
  gasLeft: bigint;
  eip8037BurnLeftoverAfterCreateHaltOntoAlive?: boolean;
  env: { accessWitness?: { commit(): void; revert(): void } };
  memoryWordCount: bigint;
  gasRefund: bigint;
  stack: { _store: bigint[]; _len: number };
  memory: { _store: Uint8Array };
}
/**
 * What a step log (the struct logger, the JSON logger) gets for each step, where the package emits
 * its `step` event: the interpreter (its _runState and _env), the opcode's entry, the step's gas
 * and the memory size in words before the gas handler ran (the event's memory).
 */
export interface StepLog {
  /**
   * `trap`: the error the opcode's gas handler threw (the step fails before it runs). A log that
   * answers a promise (the JavaScript tracer) is waited for before the opcode runs, and its
   * rejection ends the run with that error.
   */
  step(interp: InterpreterLike, info: OpInfo & { fullName: string }, gas: bigint, memoryWordCount: bigint, trap?: unknown): void | Promise<void>;
}
type Run = (this: InterpreterLike, code: Uint8Array, opts?: { pc?: number }) => Promise<{ runState: RunState; exceptionError?: unknown }>;
export interface InterpreterLike {
  run: Run;
  _runState: RunState;
  _evm: { DEBUG: boolean; events: Emitter; powderFrames?: RunState[]; powderStepLog?: StepLog };
  _env: { depth: number; address: { toString(): string } };
  common: { isActivatedEIP(eip: number): boolean };
  profilerOpts?: { enabled?: boolean };
  /**
   * Set by run for its frame: no code-chunk EIP is active and no step log is kept (runStep's
   * per-step question: the fast path).
   */
  powderFastSteps?: boolean;
  /** Set by a RETURN on the fast path (finishFrame): the program counter the package's STOP trap would have left. */
  powderReturnedAt?: number;
  /** Set by run for its frame: the step log its steps go to (powderFastSteps is then false). */
  powderStepLog?: StepLog;
  runStep(op: OpEntry | undefined): Promise<void> | undefined;
  finish(returnData: Uint8Array): void;
  _result: { returnValue?: Uint8Array };
  lookupOpInfo(op: number): OpEntry | undefined;
  useGas(amount: bigint, context: unknown): void;
  getGasLeft(): bigint;
  _runStepHook(dynamicFee: bigint, gasLeft: bigint, memorySize: bigint): Promise<void>;
  _getValidJumpDestinations(code: Uint8Array): { jumps: Uint8Array; pushes: Record<number, bigint>; opcodesCached: OpEntry[] };
}

const EOF_FORMAT = 0xef;

/**
 * Installs run and runStep over `proto` (the package's Interpreter prototype) when its methods are
 * the ones they were copied from, and finish when it is too; returns the package's originals (for
 * tests), or undefined.
 */
export function installSyncSteps(proto: InterpreterLike): { run: Run; runStep: InterpreterLike['runStep']; finish: InterpreterLike['finish'] } | undefined {
  const originalRun = proto.run as Run & { powderSync?: boolean };
  const originalStep = proto.runStep;
  const originalFinish = proto.finish;
  if (originalRun.powderSync) return undefined;
  // The version copied (bundled or not): the return value set, then the STOP trap thrown.
  const finishCopied = /^finish\(returnData\)\s*\{\s*this\._result\.returnValue\s*=\s*returnData[;,]\s*trap\d*\(EVMError\d*\.errorMessages\.STOP\);?\s*\}$/.test(originalFinish.toString());
  // The version copied: its loop awaits runStep and its runStep checks these, in this order.
  const stepText = originalStep.toString();
  const runText = originalRun.toString();
  if (
    !/_runStepHook[\s\S]*isActivatedEIP\(6800\)[\s\S]*isInvalid[\s\S]*useGas[\s\S]*programCounter\+\+[\s\S]*consumeEip7928PostTargetCallOog\d*\(this\._runState\)[\s\S]*opInfo\.isAsync[\s\S]*accessWitness\?\.commit\(\)/.test(stepText) ||
    !/await this\.runStep\(opCodeObj\)/.test(runText) ||
    !/eip8037BurnLeftoverAfterCreateHaltOntoAlive/.test(runText) ||
    !/checkChunkWitnessPresent/.test(runText)
  ) {
    return undefined;
  }

  /** The rest of a step once its gas is known (the package's order: invalid, gas, pc, handler). */
  const finish = (interp: InterpreterLike, op: OpEntry, info: OpInfo, gas: bigint): Promise<void> | undefined => {
    if (info.isInvalid) throw new EVMError(EVMError.errorMessages.INVALID_OPCODE);
    interp.useGas(gas, info);
    interp._runState.programCounter++;
    // consumeEip7928PostTargetCallOog: a no-op unless EIP-7928 is active (run() checked it is not).
    // The package awaits the handler of an `isAsync` opcode, but most of those handlers are plain
    // functions (CALLVALUE, CALLDATALOAD, CALLDATASIZE, CALLER, ADDRESS, NUMBER, TIMESTAMP …):
    // only a handler that returned a promise is waited for.
    // (Called as a plain function: no handler reads `this`, which the package's apply(null, …)
    // left null; an array made for apply at every step was ~40 bytes of it.)
    const handler = op.opHandler;
    const pending = handler(interp._runState, interp.common);
    if (info.isAsync && pending instanceof Promise) return handlerAwaited(interp, pending);
    interp._runState.env.accessWitness?.commit();
    return undefined;
  };
  // (Apart from finish: a closure there would give every step's call of finish a context to allocate.)
  const handlerAwaited = (interp: InterpreterLike, pending: Promise<unknown>): Promise<void> =>
    pending.then(() => interp._runState.env.accessWitness?.commit());
  const telling = (interp: InterpreterLike) => interp._evm.DEBUG || listening(interp._evm.events, 'step');

  const runStep = function (this: InterpreterLike, opcodeObj: OpEntry | undefined): Promise<void> | undefined {
    const op = opcodeObj ?? this.lookupOpInfo(this._runState.opCode);
    const info = op?.opcodeInfo;
    // Only a frame run() set up, a known opcode, nothing to tell.
    if (info === undefined || this.powderFastSteps !== true || telling(this)) {
      const log = this.powderStepLog;
      return log !== undefined && info !== undefined ? loggedStep(this, op!, info, log) : originalStep.call(this, op);
    }
    if (!info.dynamicGas) return finish(this, op!, info, info.feeBigInt);
    return dynamicStep(this, op!, info);
  };

  /**
   * A step with dynamic gas. (Closures live in functions of their own, reached only when they are
   * needed: a function whose variables a closure captures allocates their context on every call,
   * ~60 bytes, even when it makes no closure; most dynamic steps — MSTORE, MLOAD, KECCAK256 — have
   * their gas at once and nobody listening.)
   */
  const dynamicStep = (interp: InterpreterLike, op: OpEntry, info: OpInfo): Promise<void> | undefined => {
    // The handler's promise is the step's only wait (the package's async runStep adds its own
    // promise and a second turn). A listener that appeared meanwhile still hears the step, as in
    // the package's runStep, which asks again after the gas handler.
    const memorySize = interp._runState.memoryWordCount;
    const gas = op.gasHandler(interp._runState, info.feeBigInt, interp.common);
    if (gas instanceof Promise) return gasAwaited(interp, op, info, gas, memorySize);
    return telling(interp) ? heardStep(interp, op, info, gas, memorySize) : finish(interp, op, info, gas);
  };
  const gasAwaited = (interp: InterpreterLike, op: OpEntry, info: OpInfo, gas: Promise<bigint>, memorySize: bigint): Promise<void> =>
    gas.then(
      (g) => (telling(interp) ? heardStep(interp, op, info, g, memorySize) : finish(interp, op, info, g)),
      (e: unknown) => {
        const ev = e as { errorType?: string } | null;
        if (typeof e === 'object' && ev !== null && ev.errorType === 'EVMError' && telling(interp)) {
          return interp._runStepHook(info.feeBigInt, interp.getGasLeft(), memorySize).then(() => Promise.reject(e));
        }
        throw e;
      },
    );
  /** The rest of a dynamic-gas step whose `step` listener (or DEBUG) hears it first. */
  const heardStep = (interp: InterpreterLike, op: OpEntry, info: OpInfo, g: bigint, memorySize: bigint): Promise<void> =>
    interp._runStepHook(g, interp.getGasLeft(), memorySize).then(() => finish(interp, op, info, g));

  /**
   * A step of a frame that keeps a step log: the package's runStep (without the code-chunk EIPs
   * and the profiler, which run() left to the package) with the log told where the package builds
   * its `step` event, and a `step` listener (or DEBUG) still told by the package's hook.
   */
  const loggedStep = (interp: InterpreterLike, op: OpEntry, info: OpInfo, log: StepLog): Promise<void> | undefined => {
    const memorySize = interp._runState.memoryWordCount;
    const heard = (g: bigint, trap?: unknown): Promise<void> | undefined => {
      const logged = log.step(interp, info as OpInfo & { fullName: string }, g, memorySize, trap);
      if (logged instanceof Promise) return telling(interp) ? logged.then(() => interp._runStepHook(g, interp.getGasLeft(), memorySize)) : logged;
      return telling(interp) ? interp._runStepHook(g, interp.getGasLeft(), memorySize) : undefined;
    };
    const paid = (g: bigint): Promise<void> | undefined => {
      const told = heard(g);
      return told === undefined ? finish(interp, op, info, g) : told.then(() => finish(interp, op, info, g));
    };
    if (!info.dynamicGas) return paid(info.feeBigInt);
    // A gas handler's trap (out of gas, a stack underflow …) is a step the package tells too.
    const failed = (e: unknown): Promise<never> => {
      const ev = e as { errorType?: string } | null;
      if (typeof e === 'object' && ev !== null && ev.errorType === 'EVMError') {
        const told = heard(info.feeBigInt, e);
        if (told !== undefined) return told.then(() => Promise.reject(e));
      }
      throw e;
    };
    let gas: Promise<bigint> | bigint;
    try {
      gas = op.gasHandler(interp._runState, info.feeBigInt, interp.common);
    } catch (e) {
      return failed(e);
    }
    return gas instanceof Promise ? gas.then(paid, failed) : paid(gas);
  };

  // A tracer that asked for it (frameTracking.ts) sees the run state of every frame running. (Not
  // an async function itself: handing runFrame's promise on from one would cost microtask turns.)
  const run: Run = function (this: InterpreterLike, code, opts = {}) {
    const frames = this._evm.powderFrames;
    return frames === undefined ? runFrame.call(this, code, opts) : runTracked.call(this, frames, code, opts);
  };
  const runTracked = async function (this: InterpreterLike, frames: RunState[], code: Uint8Array, opts: { pc?: number }) {
    frames.push(this._runState);
    try {
      return await runFrame.call(this, code, opts);
    } finally {
      frames.pop();
    }
  };

  const runFrame: Run = async function (this: InterpreterLike, code, opts = {}) {
    const common = this.common;
    if (
      (code[0] === EOF_FORMAT && common.isActivatedEIP(3540)) ||
      this.profilerOpts?.enabled === true ||
      common.isActivatedEIP(6800) ||
      common.isActivatedEIP(7864) ||
      common.isActivatedEIP(7928)
    ) {
      this.powderFastSteps = false;
      this.powderStepLog = undefined;
      return originalRun.call(this, code, opts);
    }
    const log = this._evm.powderStepLog;
    this.powderFastSteps = log === undefined;
    this.powderStepLog = log;
    const runState = this._runState;
    runState.code = code;
    runState.programCounter = opts.pc ?? runState.programCounter;
    const pc = runState.programCounter;
    if (pc !== 0 && (pc < 0 || pc >= runState.code.length)) {
      throw EthereumJSErrorWithoutCode('Internal error: program counter not in range');
    }
    let err: unknown;
    let cachedOpcodes: OpEntry[] | undefined;
    let doJumpAnalysis = true;
    let steps = 0;
    while (runState.programCounter < runState.code.length) {
      // A long call or trace gives the event loop a turn now and then (callYield.ts).
      if (++steps === 1024) {
        steps = 0;
        if (turnDue(this._evm)) await takeTurn(this._evm);
      }
      const programCounter = runState.programCounter;
      let opCode: number;
      let opCodeObj: OpEntry | undefined;
      if (doJumpAnalysis) {
        opCode = runState.code[programCounter];
        if (opCode === 0x56 || opCode === 0x57 || opCode === 0x5e) {
          const { jumps, pushes, opcodesCached } = this._getValidJumpDestinations(runState.code);
          runState.validJumps = jumps;
          runState.cachedPushes = pushes;
          runState.shouldDoJumpAnalysis = false;
          cachedOpcodes = opcodesCached;
          doJumpAnalysis = false;
        }
      } else {
        opCodeObj = cachedOpcodes![programCounter];
        opCode = opCodeObj.opcodeInfo.code;
      }
      // (The package checks a code-chunk witness for 0xfe here when EIP-7864 is active; it is not.)
      runState.opCode = opCode;
      try {
        const step = this.runStep(opCodeObj);
        if (step !== undefined) await step;
      } catch (e) {
        runState.env.accessWitness?.revert();
        // (`in` on a thrown primitive throws its TypeError, as the package's loop does.)
        const ev = e as { errorType?: string; error?: string };
        if (!('errorType' in ev && ev.errorType === 'EVMError')) throw e;
        if (ev.error !== EVMError.errorMessages.STOP) err = e;
        // geth's texts name the stack's length and the opcode's need, or the undefined opcode's
        // byte (tracers/errors.ts reads them).
        if (ev.error === EVMError.errorMessages.STACK_UNDERFLOW) (ev as { gethText?: string }).gethText = stackUnderflowText(runState.stack._len, opCode);
        else if (ev.error === EVMError.errorMessages.INVALID_OPCODE) (ev as { gethText?: string }).gethText = invalidOpcodeText(opCode);
        break;
      }
    }
    if (this.powderReturnedAt !== undefined) {
      runState.programCounter = this.powderReturnedAt;
      this.powderReturnedAt = undefined;
    }
    if (err === undefined && runState.eip8037BurnLeftoverAfterCreateHaltOntoAlive === true && runState.gasLeft > 0n) {
      runState.gasLeft = 0n;
      err = new EVMError(EVMError.errorMessages.OUT_OF_GAS);
    }
    return { runState, exceptionError: err };
  };
  /**
   * RETURN's end of a frame (the package's `finish`). The package throws a STOP EVMError, which
   * the run loop catches and treats as no error: ~1 µs of throw and unwinding per frame, most of
   * an `eth_call`'s frames ending this way. In a frame run() runs on the fast path, the return
   * value is set as the package sets it and the program counter is put past the code, so the loop
   * ends at its own test with no error; run() then puts the counter back where the package's
   * throw left it (past the RETURN), so the frame's result is the same. Elsewhere (EOF code, a
   * traced frame, which may look at the program counter) the package's throw stays.
   */
  const finishFrame = function (this: InterpreterLike, returnData: Uint8Array): void {
    if (this.powderFastSteps !== true) return originalFinish.call(this, returnData);
    this._result.returnValue = returnData;
    this.powderReturnedAt = this._runState.programCounter;
    this._runState.programCounter = this._runState.code.length;
  };

  (run as { powderSync?: boolean }).powderSync = true;
  proto.run = run;
  proto.runStep = runStep;
  if (finishCopied) proto.finish = finishFrame;
  return { run: originalRun, runStep: originalStep, finish: originalFinish };
}
