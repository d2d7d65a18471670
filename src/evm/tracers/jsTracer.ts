// geth's JavaScript tracers (eth/tracers/js/goja.go): a tracer written as a JavaScript object
// (`{step(log, db), fault(log, db), result(ctx, db), enter(frame)?, exit(frameResult)?,
// setup(config)?}`) or named by one of geth's bundled ones (jsTracerSources.ts), run against a
// transaction or call. jsTracer.md is its wire reference.
//
// geth runs the code in goja, a JavaScript engine of its own process that the tracer cannot leave.
// Here it runs in QuickJS compiled to WebAssembly (quickjs-emscripten, its synchronous build): the
// tracer sees only what the prelude (jsPrelude.ts) and the host functions below give it, it is
// stopped when the trace's timeout passes even inside an endless loop, and its heap is bounded.
// The tracer's calls run synchronously, as goja's do: `db.getBalance` and its siblings read the
// EVM's state through its synchronous reads (src/evm/state/readsNow.ts).
//
// Steps come from the interpreter loop (interpreterSteps.ts) as the struct logger's do, with the
// live frame: the tracer's step runs before the opcode, with the stack and memory as geth shows
// them, and its failure ends the run. geth checks an opcode's stack and gas before it logs the
// step, and a step failing there reaches the tracer's step with `log.getError()` set (and no
// fault); the same checks are made here before the step is handed over.
import { generateAddress, generateAddress2, bigIntToBytes, setLengthLeft, Address, type Account } from '@ethereumjs/util';
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { dynamicImport } from '../../dynamicImport.js';
import { hexOf } from '../../hexOf.js';
import { CallTimeoutError, deadlineOf } from '../callDeadline.js';
import { overflowsStack, stackNeed, stackUnderflowText } from '../gethHalts.js';
import type { InterpreterLike, OpInfo, StepLog } from '../interpreterSteps.js';
import { memoryWords } from '../evmMemory.js';
import { RpcError } from '../rpc/server.js';
import { failsInStep, gethErrorText } from './errors.js';
import { JS_TRACER_PRELUDE } from './jsPrelude.js';
import { gethOpName } from './opnames.js';
import { dropStepLog, keepStepLog } from './stepLog.js';
import { listen, type EVMResult, type Message, type TraceContext, type TracedEVM, type Tracer } from './types.js';
import { NOT_NOW, readsNow, type ReadsNow } from '../state/readsNow.js';

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

let engine: Promise<QuickJSWASMModule> | undefined;
/** The QuickJS module, loaded with the first JavaScript tracer (a failed load is tried again), kept for the process's life. */
function quickjs(): Promise<QuickJSWASMModule> {
  engine ??= (async () => {
    const [core, variant] = await Promise.all([
      dynamicImport<typeof import('quickjs-emscripten-core')>('quickjs-emscripten-core'),
      dynamicImport<{ default: Parameters<typeof import('quickjs-emscripten-core').newQuickJSWASMModuleFromVariant>[0] }>('@jitl/quickjs-wasmfile-release-sync'),
    ]);
    return core.newQuickJSWASMModuleFromVariant(variant.default);
  })().catch((e) => {
    engine = undefined;
    throw e;
  });
  return engine;
}

/**
 * The runtime every tracer's context lives in. Tracers get a context each (their own globals:
 * nothing of one reaches another) and only contexts are freed: QuickJS cannot always free a
 * runtime whose code was stopped midway (its `list_empty(&rt->gc_obj_list)` assertion aborts the
 * whole module). A runtime whose heap reached the limit is left as it is, and the next tracer gets
 * a new one.
 */
let shared: QuickJSRuntime | undefined;
/** The tracer whose code runs now: the runtime's interrupts are its. */
let running: JsTracer | undefined;
async function sharedRuntime(): Promise<QuickJSRuntime> {
  const mod = await quickjs();
  if (shared === undefined) {
    shared = mod.newRuntime();
    shared.setMemoryLimit(MEMORY_LIMIT);
    shared.setInterruptHandler(() => running?.interrupted() ?? false);
  }
  return shared;
}

/**
 * Runs `fn` (a call into `tracer`'s code) with the runtime's interrupts its; an exception out of
 * the module itself, not the tracer's (those are results), is answered as the tracer's failure.
 */
function enter<T>(tracer: JsTracer, fn: () => T): T | { engineFailure: string } {
  const before = running;
  running = tracer;
  try {
    return fn();
  } catch (e) {
    return { engineFailure: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  } finally {
    running = before;
  }
}

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
  private unlisten: (() => void) | undefined;
  private cur: StepView | undefined;
  private frame: FrameView | undefined;
  private frameResult: FrameResultView | undefined;
  /** Per depth: the frame's newest step (its error set when geth would have failed it before the step). */
  private readonly lastStep: (StepView | undefined)[] = [];
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

  /** The tracer's functions in its context (set once its code is loaded). */
  private fns: Record<'step' | 'fault' | 'enter' | 'exit' | 'result', QuickJSHandle> | undefined;

  private constructor(
    private readonly rt: QuickJSRuntime,
    private readonly vm: QuickJSContext,
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
      const loaded = enter(tracer, () => vm.evalCode(`__powder.load(${JSON.stringify(code)}, ${JSON.stringify(config)})`));
      if ('engineFailure' in loaded) throw new RpcError(-32000, loaded.engineFailure);
      if (loaded.error || tracer.raised !== undefined) {
        const text = tracer.raised ?? errorText(vm, loaded.error!);
        if (loaded.error) loaded.error.dispose();
        else loaded.value.dispose();
        tracer.exhausted ||= isOutOfMemory(text);
        throw new RpcError(-32000, tracer.raised === undefined && Date.now() > tracer.deadline! ? 'execution timeout' : text);
      }
      const outcome = vm.getString(loaded.value);
      loaded.value.dispose();
      // The object's value was null or undefined: goja's ToObject panics, which geth's RPC server answers.
      if (outcome === 'nil') throw new RpcError(-32603, 'method handler crashed');
      if (outcome.startsWith('trace object')) throw new RpcError(-32000, outcome);
      tracer.hasStep = outcome.includes('step');
      tracer.hasFrames = outcome.includes('frames');
      const api = vm.getProp(vm.global, '__powder');
      tracer.fns = { step: vm.getProp(api, 'step'), fault: vm.getProp(api, 'fault'), enter: vm.getProp(api, 'enter'), exit: vm.getProp(api, 'exit'), result: vm.getProp(api, 'result') };
      api.dispose();
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
  /** The run's state, read synchronously (geth's StateDB is). */
  state_(): ReadsNow {
    const r = readsNow(this.evm?.stateManager);
    if (r === undefined) throw this.raise('tracer accessed the state outside a run');
    return r;
  }
  /** A read that answered at once, or the tracer's failure (no state here can wait). */
  now<T>(v: T | typeof NOT_NOW): T {
    if (v === NOT_NOW) throw this.raise('tracer accessed state that cannot be read without waiting');
    return v;
  }
  isPrecompiled(addrHex: string): boolean {
    return this.evm?.precompiles?.has(addrHex) ?? false;
  }
  contextJSON(): string {
    return JSON.stringify(this.ctx);
  }
  /**
   * A host function's failure: geth interrupts the tracer with it (its catch does not stop it).
   * The host function throws it into the tracer's code, and the runtime's interrupt check stops
   * that code if it catches the error; the call fails with this text either way.
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
      memory: memoryWords(rs.memory._store, memoryWordCount),
      error,
    };
    this.lastStep[depth] = view;
    const selfdestructs = code === 0xff && error === null && this.hasFrames && !it._env.isStatic;
    if (!this.hasStep && !selfdestructs) return undefined;
    this.runStep(view, it, selfdestructs);
    if (this.timedOut) return Promise.reject(new CallTimeoutError());
    return this.failure !== undefined ? Promise.reject(this.failure) : undefined;
  }

  private runStep(view: StepView, it: Interp, selfdestructs: boolean): void {
    if (this.hasStep) {
      this.cur = view;
      try {
        this.call('step');
      } finally {
        this.cur = undefined;
      }
    }
    // geth's opSelfdestruct reports a frame of its own to enter and exit: the contract's balance
    // sent to the beneficiary (the stack's top).
    if (selfdestructs && this.failure === undefined && !this.timedOut) {
      const rs = it._runState;
      const beneficiary = setLengthLeft(bigIntToBytes(rs.stack._store[rs.stack._len - 1] ?? 0n), 32).subarray(12);
      const self = it._env.address as Address;
      const acct = readsNow(this.evm?.stateManager)?.accountNow(self);
      const balance = acct === NOT_NOW || acct === undefined ? 0n : acct.balance;
      this.frame = { type: 'SELFDESTRUCT', from: self.bytes, to: beneficiary, input: new Uint8Array(0), gas: 0n, value: balance };
      this.callFrame('enter');
      this.frameResult = { gasUsed: 0n, output: new Uint8Array(0), error: null };
      this.callFrame('exit');
    }
  }

  private readonly onBefore = (m: Message): void => {
    this.before(m);
  };

  private before(m: Message): void {
    const depth = m.depth;
    this.depths.push(depth);
    this.lastStep[depth] = undefined;
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
      to = this.createdAddress(m);
    }
    // geth 1.13 gives a DELEGATECALL its caller's value; a STATICCALL has none.
    this.frame = { type, from, to, input: m.data, gas: m.gasLimit, value: type === 'STATICCALL' ? undefined : m.value };
    this.callFrame('enter');
  }

  /** The address a CREATE or CREATE2 frame is about to make (ethereumjs sets it after beforeMessage). */
  private createdAddress(m: Message): Uint8Array {
    if (m.salt !== undefined) return generateAddress2(m.caller.bytes, m.salt, m.data);
    // The CREATE opcode has already taken the caller's nonce.
    const acct = readsNow(this.evm?.stateManager)?.accountNow(m.caller);
    const nonce = (acct === NOT_NOW || acct === undefined ? 1n : acct.nonce) - 1n;
    return generateAddress(m.caller.bytes, bigIntToBytes(nonce < 0n ? 0n : nonce));
  }

  private readonly onAfter = (r: EVMResult): void => {
    this.after(r);
  };

  private after(r: EVMResult): void {
    const res = r.execResult;
    const depth = this.depths.pop() ?? 0;
    const last = this.lastStep[depth];
    const failed = res.exceptionError;
    const err = gethErrorText(failed, last ? { name: last.opName, code: last.op } : undefined) ?? null;
    // geth's CaptureFault: an opcode that failed while it ran (after its step was logged).
    if (failed !== undefined && last !== undefined && last.error === null && failsInStep(failed.error) && this.failure === undefined) {
      const rs = last.interp._runState as Interp['_runState'];
      this.cur = { ...last, memory: memoryWords(rs.memory._store, rs.memoryWordCount), error: err };
      try {
        this.call('fault');
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
    this.callFrame('exit');
  }

  private callFrame(fn: 'enter' | 'exit'): void {
    try {
      this.call(fn);
    } finally {
      if (fn === 'enter') this.frame = undefined;
      else this.frameResult = undefined;
    }
  }

  /**
   * Runs the tracer's `fn`; its failure becomes the tracer's (geth's onError), a timeout the run's
   * (timedOut: the next step stops the run, as geth's Stop does).
   */
  private call(fn: 'step' | 'fault' | 'enter' | 'exit'): void {
    if (this.failure !== undefined || this.timedOut || this.disposed) return;
    if (this.evm !== undefined) this.deadline = deadlineOf(this.evm) ?? this.deadline;
    const r = enter(this, () => {
      if (fn !== 'step' && fn !== 'fault') return this.vm.callFunction(this.fns![fn], this.vm.undefined);
      const numbers = this.vm.newArrayBuffer(stepNumbers(this.cur!));
      try {
        return this.vm.callFunction(this.fns![fn], this.vm.undefined, numbers);
      } finally {
        numbers.dispose();
      }
    });
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
      return;
    }
    this.failure = new JsTracerError(`${text}    in server-side tracer function '${fn}'`);
  }

  /** The tracer's result(ctx, db), as JSON; the first failure of its code instead, as geth answers. */
  async result(): Promise<unknown> {
    try {
      if (this.timedOut) throw new JsTracerError('execution timeout');
      if (this.failure !== undefined) throw this.failure;
      this.deadline ??= Date.now() + RESULT_BUDGET_MS;
      const r = enter(this, () => this.vm.callFunction(this.fns!.result, this.vm.undefined));
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
      for (const h of Object.values(this.fns ?? {})) h.dispose();
      this.vm.dispose();
    } catch {
      // Nothing to do: its objects stay in the runtime's heap.
    }
  }
}

const isOutOfMemory = (text: string) => text === 'InternalError: out of memory';

/**
 * A step's numbers for the tracer's `log` (jsPrelude.ts reads them in this order), handed over
 * with the call: each read would otherwise be a call back into the host (~5 µs each).
 */
function stepNumbers(v: StepView): ArrayBuffer {
  const rs = (v.interp as Interp)._runState;
  return Float64Array.of(v.pc, v.op, Number(v.gas), Number(v.cost), v.depth, Number(v.refund), rs.stack._len, v.memory.length, v.error === null ? 0 : 1).buffer;
}

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
function errorText(vm: QuickJSContext, handle: QuickJSHandle): string {
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
function defineHost(vm: QuickJSContext, host: QuickJSHandle, tracer: JsTracer): void {
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
  fn('opName', () => str(self().step_().opName));
  fn('error', () => nullable(self().step_().error));
  fn('peek', (i) => {
    const st = (self().step_().interp as Interp)._runState.stack;
    const idx = argNum(i);
    if (idx < 0 || st._len <= idx) throw self().raise(`tracer accessed out of bound stack: size ${st._len}, index ${idx}`);
    return str(st._store[st._len - idx - 1].toString(16));
  });
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
  const acct = (a: QuickJSHandle) => self().now(self().state_().accountNow(addr(a)));
  fn('balance', (a) => str((acct(a)?.balance ?? 0n).toString(16)));
  fn('nonce', (a) => num(acct(a)?.nonce ?? 0n));
  fn('code', (a) => buf(self().now(self().state_().codeNow(addr(a)))));
  fn('state', (a, k) => buf(setLengthLeft(self().now(self().state_().storageNow(addr(a), bytesOfHex(argStr(k)))), 32)));
  fn('exists', (a) => (acct(a) !== undefined ? vm.true : vm.false));
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
