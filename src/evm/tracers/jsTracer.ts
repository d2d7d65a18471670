// geth's JavaScript tracers (eth/tracers/js/goja.go): a tracer written as a JavaScript object
// (`{step(log, db), fault(log, db), result(ctx, db), enter(frame)?, exit(frameResult)?,
// setup(config)?}`) or named by one of geth's bundled ones (jsTracerSources.ts), run against a
// transaction or call. jsTracer.md is its wire reference.
//
// geth runs the code in goja, a JavaScript engine of its own process that the tracer cannot leave.
// Here it runs in QuickJS compiled to WebAssembly (quickjs-emscripten): the tracer sees only what
// the prelude (jsPrelude.ts) and the host functions below give it, it is stopped when the trace's
// timeout passes even inside an endless loop, and its heap is bounded. The asyncified build lets
// `db.getBalance` and its siblings wait for the EVM's state (read asynchronously here) as though
// they were synchronous, as the tracer expects. One WebAssembly module serves every tracer; it can
// wait for one such read at a time, so entries into tracers' code take turns (`turn`).
//
// Steps come from the interpreter loop (interpreterSteps.ts) as the struct logger's do, with the
// live frame: the tracer's step runs before the opcode, with the stack and memory as geth shows
// them, and its failure ends the run. geth checks an opcode's stack and gas before it logs the
// step, and a step failing there reaches the tracer's step with `log.getError()` set (and no
// fault); the same checks are made here before the step is handed over.
import { generateAddress, generateAddress2, bigIntToBytes, setLengthLeft, Address, type Account } from '@ethereumjs/util';
import type { QuickJSAsyncContext, QuickJSAsyncRuntime, QuickJSAsyncWASMModule, QuickJSHandle } from 'quickjs-emscripten-core';
import { dynamicImport } from '../../dynamicImport.js';
import { CallTimeoutError, deadlineOf } from '../callDeadline.js';
import { overflowsStack, stackNeed, stackUnderflowText } from '../gethHalts.js';
import type { InterpreterLike, OpInfo, StepLog } from '../interpreterSteps.js';
import { RpcError } from '../rpc/server.js';
import { failsInStep, gethErrorText } from './errors.js';
import { JS_TRACER_PRELUDE } from './jsPrelude.js';
import { gethOpName } from './opnames.js';
import { dropStepLog, keepStepLog } from './stepLog.js';
import { listen, type EVMResult, type Message, type TraceContext, type TracedEVM, type TracedState, type Tracer } from './types.js';

/** A JavaScript tracer's failure: geth's text, `<error>    in server-side tracer function '<fn>'`. */
export class JsTracerError extends RpcError {
  constructor(message: string) {
    super(-32000, message);
  }
}

/** The heap one tracer may use (geth's goja has no bound; a runaway tracer here fails instead). */
const MEMORY_LIMIT = 128 * 1024 * 1024;
/** A result() run after the trace's deadline is known gets this long. */
const RESULT_BUDGET_MS = 5_000;

let engine: Promise<QuickJSAsyncWASMModule> | undefined;
/** The QuickJS module, loaded with the first JavaScript tracer (a failed load is tried again), kept for the process's life. */
function quickjs(): Promise<QuickJSAsyncWASMModule> {
  engine ??= (async () => {
    const [core, variant] = await Promise.all([
      dynamicImport<typeof import('quickjs-emscripten-core')>('quickjs-emscripten-core'),
      dynamicImport<{ default: Parameters<typeof import('quickjs-emscripten-core').newQuickJSAsyncWASMModuleFromVariant>[0] }>('@jitl/quickjs-wasmfile-release-asyncify'),
    ]);
    return core.newQuickJSAsyncWASMModuleFromVariant(variant.default);
  })().catch((e) => {
    engine = undefined;
    throw e;
  });
  return engine;
}

/**
 * The runtime every tracer's context lives in. Tracers get a context each (their own globals:
 * nothing of one reaches another) and only contexts are freed: QuickJS cannot always free a
 * runtime whose code was stopped midway or failed (its `list_empty(&rt->gc_obj_list)` assertion
 * aborts the whole module), and a module loaded later in the process serves worse (engineFailed).
 * A runtime whose heap reached the limit is left as it is, and the next tracer gets a new one.
 */
let shared: QuickJSAsyncRuntime | undefined;
/** The tracer whose code runs now (turn gives one at a time): the runtime's interrupts are its. */
let running: JsTracer | undefined;
async function sharedRuntime(): Promise<QuickJSAsyncRuntime> {
  const mod = await quickjs();
  if (shared === undefined) {
    shared = mod.newRuntime();
    shared.setMemoryLimit(MEMORY_LIMIT);
    // The runtime's default stack bound: a larger one lets deep recursion overflow the host's
    // stack under asyncify (a RangeError out of the module) before QuickJS's own check.
    shared.setInterruptHandler(() => running?.interrupted() ?? false);
  }
  return shared;
}

/** Entries into tracers' code, one at a time (the module's single asyncify stack). */
let turns: Promise<unknown> = Promise.resolve();
function turn<T>(tracer: JsTracer, fn: () => Promise<T>): Promise<T> {
  const guarded = async () => {
    running = tracer;
    try {
      return await fn();
    } catch (e) {
      return engineFailed(e);
    } finally {
      running = undefined;
    }
  };
  const run = turns.then(guarded, guarded);
  turns = run.catch(() => undefined);
  return run;
}

/**
 * An exception out of the module itself, not the tracer's (those are results): e.g. the host's
 * `RangeError: Maximum call stack size exceeded` when a tracer recurses deeper than the host's
 * stack before QuickJS's own bound. The entry answers it as the tracer's failure. The module is
 * kept: one loaded later in the process meets the host's stack bound after ~100 nested calls.
 */
function engineFailed(e: unknown): never {
  const err = e as Error | undefined;
  throw new EngineFailure(err instanceof Error ? `${err.name}: ${err.message}` : String(e));
}
class EngineFailure extends Error {}

/** `r`, or the tracer's failure text when the engine itself failed. */
async function entry<T>(r: Promise<T>): Promise<T | { engineFailure: string }> {
  try {
    return await r;
  } catch (e) {
    if (e instanceof EngineFailure) return { engineFailure: e.message };
    throw e;
  }
}

const hexOf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const bytesOfHex = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));
/** A JavaScript number from what the tracer passed (geth's goja converts to an int64). */
const int = (v: number) => (Number.isFinite(v) ? Math.trunc(v) : 0);

/** What a step (or the fault after it) shows through `log`. */
interface StepView {
  interp: InterpreterLike;
  pc: number;
  op: number;
  opName: string;
  gas: bigint;
  cost: bigint;
  depth: number;
  refund: bigint;
  memory: Uint8Array;
  error: string | null;
}

/** The frame `enter` shows (geth's callFrame), or the result `exit` shows. */
interface FrameView {
  type: string;
  from: Uint8Array;
  to: Uint8Array;
  input: Uint8Array;
  gas: bigint;
  value: bigint | undefined;
}
interface FrameResultView {
  gasUsed: bigint;
  output: Uint8Array;
  error: string | null;
}

interface Interp extends InterpreterLike {
  _runState: InterpreterLike['_runState'] & { memoryWordCount: bigint };
  _env: InterpreterLike['_env'] & { caller: Address; callValue: bigint; callData: Uint8Array; isStatic: boolean };
}

const CALL_TYPES: Record<number, string> = { 0xf0: 'CREATE', 0xf1: 'CALL', 0xf2: 'CALLCODE', 0xf4: 'DELEGATECALL', 0xf5: 'CREATE2', 0xfa: 'STATICCALL' };

export class JsTracer implements Tracer, StepLog {
  private evm: TracedEVM | undefined;
  private state: TracedState | undefined;
  private unlisten: (() => void) | undefined;
  private cur: StepView | undefined;
  private frame: FrameView | undefined;
  private frameResult: FrameResultView | undefined;
  /** Per depth: the frame's newest step, and whether geth would have failed it before the step. */
  private readonly lastStep: (StepView | undefined)[] = [];
  private readonly failedBefore: boolean[] = [];
  /** geth's ctx for result(): filled as the run goes. */
  private readonly ctx: Record<string, unknown> = {};
  /** The first failure of the tracer's code (geth's t.err): nothing more of it runs. */
  private failure: JsTracerError | undefined;
  /** An error a host function raised (geth interrupts the VM with it: the tracer cannot catch it). */
  raised: string | undefined;
  deadline: number | undefined;
  private disposed = false;

  /** Whether the tracer has a step function, and enter and exit (set once its code is loaded). */
  private hasStep = false;
  private hasFrames = false;
  /** Per running frame, outermost first: its depth (a frame without code has no run state to tell it). */
  private readonly depths: number[] = [];
  private timedOut = false;

  /** Its code met the heap limit: the shared runtime is left to it (sharedRuntime). */
  private exhausted = false;

  private constructor(
    private readonly rt: QuickJSAsyncRuntime,
    private readonly vm: QuickJSAsyncContext,
  ) {}

  /**
   * Evaluates `code` as geth does (`(` + code + `)`), checks the object and calls its setup with
   * `config` (the tracerConfig's JSON text); errors as geth's.
   */
  static async create(code: string, config: string): Promise<JsTracer> {
    const rt = await sharedRuntime();
    const vm = rt.newContext();
    const tracer = new JsTracer(rt, vm);
    try {
      tracer.deadline = Date.now() + RESULT_BUDGET_MS;
      const host = vm.newObject();
      defineHost(vm, host, tracer);
      vm.setProp(vm.global, '__powderHost', host);
      host.dispose();
      vm.unwrapResult(vm.evalCode(JS_TRACER_PRELUDE, 'prelude.js')).dispose();
      const loaded = await entry(turn(tracer, () => vm.evalCodeAsync(`__powder.load(${JSON.stringify(code)}, ${JSON.stringify(config)})`)));
      if ('engineFailure' in loaded) throw new RpcError(-32000, loaded.engineFailure);
      if (loaded.error || tracer.raised !== undefined) {
        const text = tracer.raised ?? errorText(vm, loaded.error!);
        if (loaded.error) loaded.error.dispose();
        else loaded.value.dispose();
        tracer.exhausted ||= isOutOfMemory(text);
        throw new RpcError(-32000, tracer.raised === undefined && Date.now() > tracer.deadline ? 'execution timeout' : text);
      }
      const outcome = vm.getString(loaded.value);
      loaded.value.dispose();
      // The object's value was null or undefined: goja's ToObject panics, which geth's RPC server answers.
      if (outcome === 'nil') throw new RpcError(-32603, 'method handler crashed');
      if (outcome.startsWith('trace object')) throw new RpcError(-32000, outcome);
      tracer.hasStep = outcome.includes('step');
      tracer.hasFrames = outcome.includes('frames');
      tracer.deadline = undefined;
      return tracer;
    } catch (e) {
      tracer.dispose();
      throw e;
    }
  }

  // ---- what the host functions read (defineHost) ----
  /** The running step, for `log` (a host function called outside step or fault fails). */
  step_(): StepView {
    if (this.cur === undefined) throw this.raise('tracer accessed log outside step and fault');
    return this.cur;
  }
  frame_(): FrameView {
    if (this.frame === undefined) throw this.raise('tracer accessed a call frame outside enter');
    return this.frame;
  }
  frameResult_(): FrameResultView {
    if (this.frameResult === undefined) throw this.raise('tracer accessed a call frame result outside exit');
    return this.frameResult;
  }
  state_(): TracedState {
    if (this.state === undefined) throw this.raise('tracer accessed the state outside a run');
    return this.state;
  }
  isPrecompiled(addrHex: string): boolean {
    return this.evm?.precompiles?.has(addrHex) ?? false;
  }
  contextJSON(): string {
    return JSON.stringify(this.ctx);
  }
  /**
   * A host function's failure: geth interrupts the tracer with it (its catch does not stop it).
   * The host function returns undefined and the runtime's interrupt check stops the tracer's code
   * (a host exception thrown into QuickJS would be catchable, and leaves its stack check unreliable).
   */
  raise(message: string): Raised {
    this.raised ??= message;
    return new Raised(message);
  }

  interrupted(): boolean {
    if (this.raised !== undefined) return true;
    const d = this.deadline;
    return d !== undefined && Date.now() > d;
  }

  // ---- the run ----
  attach(evm: TracedEVM): void {
    this.evm = evm;
    this.state = evm.stateManager;
    if (!keepStepLog(evm, this)) {
      throw new RpcError(-32000, 'a JavaScript tracer cannot run here: another tracer of this run already reads every step');
    }
    this.unlisten = listen(evm, { beforeMessage: this.onBefore, afterMessage: this.onAfter });
  }

  detach(): void {
    this.unlisten?.();
    this.unlisten = undefined;
    if (this.evm !== undefined) dropStepLog(this.evm, this);
  }

  txStart(gasLimit: bigint, ctx?: TraceContext): void {
    this.ctx.gas = Number(gasLimit);
    // geth's tracers.Context: blockHash when known; txIndex and txHash with a transaction's hash.
    if (ctx?.blockHash !== undefined) {
      this.ctx.blockHash = ctx.blockHash.slice(2);
      if (ctx.txHash !== undefined) {
        this.ctx.txIndex = ctx.txIndex ?? 0;
        this.ctx.txHash = ctx.txHash.slice(2);
      }
    }
  }

  txEnd(gasUsed: bigint): void {
    this.ctx.gasUsed = Number(gasUsed);
  }

  /** A step of the running frame (interpreterSteps.ts), before the opcode runs. */
  step(interp: InterpreterLike, info: OpInfo & { fullName: string }, gas: bigint, memoryWordCount: bigint, trap?: unknown): Promise<void> | undefined {
    if (this.timedOut) return Promise.reject(new CallTimeoutError());
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const it = interp as Interp;
    const rs = it._runState;
    const depth = it._env.depth;
    const code = info.code;
    const len = rs.stack._len;
    // geth's checks before it logs a step, in its order: the stack, then the gas.
    let error: string | null = null;
    if (len < stackNeed(code)) error = stackUnderflowText(len, code);
    else if (overflowsStack(len, code)) error = `stack limit reached ${len} (1023)`;
    else if (trap !== undefined) error = gethErrorText(trap as { error: string }, { name: info.fullName, code }) ?? null;
    else if (rs.gasLeft < gas) error = 'out of gas';
    const view: StepView = {
      interp,
      pc: rs.programCounter,
      op: code,
      opName: gethOpName(info.fullName, code),
      gas: rs.gasLeft,
      cost: gas,
      depth: depth + 1,
      refund: rs.gasRefund,
      memory: rs.memory._store.subarray(0, Number(memoryWordCount) * 32),
      error,
    };
    this.lastStep[depth] = view;
    this.failedBefore[depth] = error !== null;
    const selfdestructs = code === 0xff && error === null && this.hasFrames && !it._env.isStatic;
    if (!this.hasStep && !selfdestructs) return undefined;
    return this.runStep(view, it, selfdestructs);
  }

  private async runStep(view: StepView, it: Interp, selfdestructs: boolean): Promise<void> {
    if (this.hasStep) {
      this.cur = view;
      try {
        await this.call('step');
      } finally {
        this.cur = undefined;
      }
    }
    // geth's opSelfdestruct reports a frame of its own to enter and exit: the contract's balance
    // sent to the beneficiary (the stack's top).
    if (selfdestructs && this.failure === undefined) {
      const rs = it._runState;
      const beneficiary = setLengthLeft(bigIntToBytes(rs.stack._store[rs.stack._len - 1] ?? 0n), 32).subarray(12);
      const self = it._env.address as Address;
      const acct = await this.state?.getAccount(self);
      this.frame = { type: 'SELFDESTRUCT', from: self.bytes, to: beneficiary, input: new Uint8Array(0), gas: 0n, value: acct?.balance ?? 0n };
      await this.callFrame('enter');
      this.frameResult = { gasUsed: 0n, output: new Uint8Array(0), error: null };
      await this.callFrame('exit');
    }
    if (this.failure !== undefined) throw this.failure;
  }

  private readonly onBefore = (m: Message, resolve: () => void): void => {
    this.before(m).then(resolve, resolve);
  };

  private async before(m: Message): Promise<void> {
    const depth = m.depth;
    this.depths.push(depth);
    this.lastStep[depth] = undefined;
    this.failedBefore[depth] = false;
    if (depth === 0) {
      // The trace's deadline (withDeadline set it for the run): result() has what is left of it.
      if (this.evm !== undefined) this.deadline = deadlineOf(this.evm) ?? this.deadline;
      const evm = this.evm as { _tx?: { gasPrice?: bigint }; _block?: { header: { number: bigint } }; common?: { isActivatedEIP(eip: number): boolean } } | undefined;
      this.ctx.type = m.to ? 'CALL' : 'CREATE';
      this.ctx.from = hexOf(m.caller.bytes);
      this.ctx.to = m.to ? hexOf(m.to.bytes) : '';
      this.ctx.input = hexOf(m.data);
      this.ctx.value = m.value.toString(16);
      this.ctx.block = Number(evm?._block?.header.number ?? 0n);
      this.ctx.gasPrice = (evm?._tx?.gasPrice ?? 0n).toString(16);
      this.ctx.intrinsicGas = intrinsicGas(m.data, m.to === undefined, evm?.common?.isActivatedEIP(3860) ?? false);
      return;
    }
    if (!this.hasFrames || this.failure !== undefined) return;
    const opener = this.lastStep[depth - 1]?.op ?? 0xf1;
    const type = CALL_TYPES[opener] ?? 'CALL';
    let from = m.caller.bytes;
    let to: Uint8Array;
    if (type === 'DELEGATECALL' || type === 'CALLCODE') {
      // ethereumjs runs these in the caller's context; geth names the running contract and the code's address.
      from = m.to!.bytes;
      to = m.codeAddress.bytes;
    } else if (m.to !== undefined) {
      to = m.to.bytes;
    } else {
      to = await this.createdAddress(m);
    }
    // geth 1.13 gives a DELEGATECALL its caller's value; a STATICCALL has none.
    this.frame = { type, from, to, input: m.data, gas: m.gasLimit, value: type === 'STATICCALL' ? undefined : m.value };
    await this.callFrame('enter');
  }

  /** The address a CREATE or CREATE2 frame is about to make (ethereumjs sets it after beforeMessage). */
  private async createdAddress(m: Message): Promise<Uint8Array> {
    if (m.salt !== undefined) return generateAddress2(m.caller.bytes, m.salt, m.data);
    // The CREATE opcode has already taken the caller's nonce.
    const acct: Account | undefined = await this.state?.getAccount(m.caller);
    const nonce = (acct?.nonce ?? 1n) - 1n;
    return generateAddress(m.caller.bytes, bigIntToBytes(nonce));
  }

  private readonly onAfter = (r: EVMResult, resolve: () => void): void => {
    this.after(r).then(resolve, resolve);
  };

  private async after(r: EVMResult): Promise<void> {
    const res = r.execResult;
    const depth = this.depths.pop() ?? 0;
    const last = this.lastStep[depth];
    const failed = res.exceptionError;
    const err = gethErrorText(failed, last ? { name: last.opName, code: last.op } : undefined) ?? null;
    // geth's CaptureFault: an opcode that failed while it ran (after its step was logged).
    if (failed !== undefined && last !== undefined && !this.failedBefore[depth] && failsInStep(failed.error) && this.failure === undefined) {
      const rs = last.interp._runState as Interp['_runState'];
      this.cur = { ...last, memory: rs.memory._store.subarray(0, Number(rs.memoryWordCount) * 32), error: err };
      try {
        await this.call('fault');
      } finally {
        this.cur = undefined;
      }
    }
    this.lastStep[depth] = undefined;
    if (depth === 0) {
      if (err !== null) this.ctx.error = err;
      this.ctx.output = hexOf(res.returnValue);
      if (this.ctx.type === 'CREATE' && r.createdAddress !== undefined) this.ctx.to = hexOf(r.createdAddress.bytes);
      return;
    }
    if (!this.hasFrames || this.failure !== undefined) return;
    this.frameResult = { gasUsed: res.executionGasUsed, output: res.returnValue, error: err };
    await this.callFrame('exit');
  }

  private async callFrame(fn: 'enter' | 'exit'): Promise<void> {
    try {
      await this.call(fn);
    } finally {
      if (fn === 'enter') this.frame = undefined;
      else this.frameResult = undefined;
    }
  }

  /** Runs the tracer's `fn`; its failure becomes the tracer's (geth's onError), a timeout the run's. */
  private async call(fn: 'step' | 'fault' | 'enter' | 'exit'): Promise<void> {
    if (this.failure !== undefined || this.disposed) return;
    if (this.evm !== undefined) this.deadline = deadlineOf(this.evm) ?? this.deadline;
    const r = await entry(turn(this, () => this.vm.evalCodeAsync(`__powder.${fn}()`)));
    if ('engineFailure' in r) {
      this.failure = new JsTracerError(`${r.engineFailure}    in server-side tracer function '${fn}'`);
      return;
    }
    if (!r.error) {
      r.value.dispose();
      if (this.raised === undefined) return;
    }
    const text = this.raised ?? errorText(this.vm, r.error!);
    r.error?.dispose();
    this.exhausted ||= isOutOfMemory(text);
    if (this.raised === undefined && this.deadline !== undefined && Date.now() > this.deadline) {
      this.timedOut = true;
      throw new CallTimeoutError();
    }
    this.failure = new JsTracerError(`${text}    in server-side tracer function '${fn}'`);
  }

  /** The tracer's result(ctx, db), as JSON; the first failure of its code instead, as geth answers. */
  async result(): Promise<unknown> {
    try {
      if (this.timedOut) throw new JsTracerError('execution timeout');
      if (this.failure !== undefined) throw this.failure;
      this.deadline ??= Date.now() + RESULT_BUDGET_MS;
      const r = await entry(turn(this, () => this.vm.evalCodeAsync('__powder.result()')));
      if ('engineFailure' in r) throw new JsTracerError(`${r.engineFailure}    in server-side tracer function 'result'`);
      if (r.error || this.raised !== undefined) {
        const text = this.raised ?? errorText(this.vm, r.error!);
        r.error?.dispose();
        if (!r.error) r.value.dispose();
        this.exhausted ||= isOutOfMemory(text);
        if (this.raised === undefined && Date.now() > this.deadline) throw new JsTracerError('execution timeout');
        throw new JsTracerError(`${text}    in server-side tracer function 'result'`);
      }
      const json = this.vm.getString(r.value);
      r.value.dispose();
      return JSON.parse(json);
    } finally {
      this.dispose();
    }
  }

  /** Frees the tracer's QuickJS runtime (after its result, or when the run ends without one). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.detach();
    if (this.exhausted && shared === this.rt) shared = undefined;
    try {
      this.vm.dispose();
    } catch {
      // Nothing to do: its objects stay in the runtime's heap.
    }
  }
}

const isOutOfMemory = (text: string) => text === 'InternalError: out of memory';

/** What a host function raised (JsTracer.raise). */
class Raised extends Error {}

/** geth's IntrinsicGas as its JS tracer computes it: no access list. */
function intrinsicGas(data: Uint8Array, create: boolean, shanghai: boolean): number {
  let gas = create ? 53000 : 21000;
  let nonZero = 0;
  for (const b of data) if (b !== 0) nonZero++;
  gas += nonZero * 16 + (data.length - nonZero) * 4;
  if (create && shanghai) gas += Math.ceil(data.length / 32) * 2;
  return gas;
}

/** An exception's text as goja's would read: `Name: message` for an Error, the value's text otherwise. */
function errorText(vm: QuickJSAsyncContext, handle: QuickJSHandle): string {
  const v = vm.dump(handle) as unknown;
  if (v !== null && typeof v === 'object' && 'message' in v) {
    const e = v as { name?: unknown; message?: unknown };
    const name = typeof e.name === 'string' && e.name !== '' ? e.name : 'Error';
    // QuickJS quotes an unknown name (`'x' is not defined`); goja does not.
    const message = String(e.message).replace(/^'(.*)' is not defined$/, '$1 is not defined');
    return `${name}: ${message}`;
  }
  return String(v);
}

/** The host functions the prelude builds `log`, `db`, the frames and the helpers over. */
function defineHost(vm: QuickJSAsyncContext, host: QuickJSHandle, tracer: JsTracer): void {
  const self = () => tracer;
  const unlessRaised = (e: unknown): QuickJSHandle | { error: QuickJSHandle } => {
    if (e instanceof Raised) return { error: vm.newError(e.message) };
    throw e;
  };
  const fn = (name: string, f: (...args: QuickJSHandle[]) => QuickJSHandle | { error: QuickJSHandle } | undefined) => {
    const h = vm.newFunction(name, (...args) => {
      try {
        return f(...args);
      } catch (e) {
        return unlessRaised(e);
      }
    });
    vm.setProp(host, name, h);
    h.dispose();
  };
  const asyncFn = (name: string, f: (...args: QuickJSHandle[]) => Promise<QuickJSHandle | { error: QuickJSHandle }>) => {
    const h = vm.newAsyncifiedFunction(name, (...args) => f(...args).catch(unlessRaised));
    vm.setProp(host, name, h);
    h.dispose();
  };
  const num = (n: number | bigint) => vm.newNumber(Number(n));
  const str = (s: string) => vm.newString(s);
  const buf = (b: Uint8Array) => vm.newArrayBuffer(b.slice().buffer);
  const nullable = (s: string | null | undefined) => (s === null || s === undefined ? vm.null : vm.newString(s));
  const argNum = (h: QuickJSHandle) => int(vm.getNumber(h));
  const argStr = (h: QuickJSHandle) => vm.getString(h);
  const addr = (h: QuickJSHandle) => new Address(bytesOfHex(argStr(h)));

  fn('fail', (msg) => {
    throw self().raise(argStr(msg));
  });
  // log
  fn('op', () => num(self().step_().op));
  fn('opName', () => str(self().step_().opName));
  fn('pc', () => num(self().step_().pc));
  fn('gas', () => num(self().step_().gas));
  fn('cost', () => num(self().step_().cost));
  fn('depth', () => num(self().step_().depth));
  fn('refund', () => num(self().step_().refund));
  fn('error', () => nullable(self().step_().error));
  fn('stackLength', () => num((self().step_().interp as Interp)._runState.stack._len));
  fn('peek', (i) => {
    const st = (self().step_().interp as Interp)._runState.stack;
    const idx = argNum(i);
    if (idx < 0 || st._len <= idx) throw self().raise(`tracer accessed out of bound stack: size ${st._len}, index ${idx}`);
    return str(st._store[st._len - idx - 1].toString(16));
  });
  fn('memoryLength', () => num(self().step_().memory.length));
  fn('memorySlice', (a, b) => {
    const mem = self().step_().memory;
    const begin = argNum(a);
    const end = argNum(b);
    if (end === begin) return buf(new Uint8Array(0));
    if (end < begin || begin < 0) throw self().raise(`tracer accessed out of bound memory: offset ${begin}, end ${end}`);
    // geth's GetMemoryCopyPadded: past the memory's end, zeros (at most 1 MiB of them).
    const padding = end - mem.length;
    if (padding > 1024 * 1024) throw self().raise(`reached limit for padding memory slice: ${padding}`);
    const out = new Uint8Array(end - begin);
    if (begin < mem.length) out.set(mem.subarray(begin, Math.min(end, mem.length)));
    return buf(out);
  });
  fn('memoryWord', (a) => {
    const mem = self().step_().memory;
    const at = argNum(a);
    if (mem.length < at + 32 || at < 0) throw self().raise(`tracer accessed out of bound memory: available ${mem.length}, offset ${at}, size 32`);
    return str(hexOf(mem.subarray(at, at + 32)) || '0');
  });
  const env = () => (self().step_().interp as Interp)._env;
  fn('caller', () => buf(env().caller.bytes));
  fn('address', () => buf((env().address as Address).bytes));
  fn('value', () => str(env().callValue.toString(16)));
  fn('input', () => buf(env().callData));
  // db
  asyncFn('balance', async (a) => str(((await self().state_().getAccount(addr(a)))?.balance ?? 0n).toString(16)));
  asyncFn('nonce', async (a) => num((await self().state_().getAccount(addr(a)))?.nonce ?? 0n));
  asyncFn('code', async (a) => buf(await self().state_().getCode(addr(a))));
  asyncFn('state', async (a, k) => buf(setLengthLeft(await self().state_().getStorage(addr(a), bytesOfHex(argStr(k))), 32)));
  asyncFn('exists', async (a) => ((await self().state_().getAccount(addr(a))) !== undefined ? vm.true : vm.false));
  // the frames
  fn('frameType', () => str(self().frame_().type));
  fn('frameFrom', () => buf(self().frame_().from));
  fn('frameTo', () => buf(self().frame_().to));
  fn('frameInput', () => buf(self().frame_().input));
  fn('frameGas', () => num(self().frame_().gas));
  fn('frameValue', () => {
    const v = self().frame_().value;
    return v === undefined ? vm.null : str(v.toString(16));
  });
  fn('frameGasUsed', () => num(self().frameResult_().gasUsed));
  fn('frameOutput', () => buf(self().frameResult_().output));
  fn('frameError', () => nullable(self().frameResult_().error));
  // helpers and ctx
  fn('contractAddress', (from, nonce) => buf(generateAddress(bytesOfHex(argStr(from)), bigIntToBytes(BigInt(Math.max(0, argNum(nonce)))))));
  fn('contract2Address', (from, salt, code) => {
    let s = argStr(salt);
    if (/^0x/i.test(s)) s = s.slice(2);
    // common.HexToHash: FromHex (odd length padded, decoding up to a bad digit), the last 32 bytes.
    if (s.length % 2 === 1) s = '0' + s;
    const valid = /^(?:[0-9a-fA-F]{2})*/.exec(s)![0];
    const saltBytes = setLengthLeft(bytesOfHex(valid).slice(-32), 32);
    return buf(generateAddress2(bytesOfHex(argStr(from)), saltBytes, bytesOfHex(argStr(code))));
  });
  fn('isPrecompiled', (a) => (self().isPrecompiled(argStr(a)) ? vm.true : vm.false));
  fn('context', () => str(self().contextJSON()));
}
