// geth's default tracer (eth/tracers/logger.StructLogger): one entry per executed opcode.
//
// The entries are built from the running frame itself: while the logger is attached, the EVM
// keeps it as its step log and the interpreter loop (interpreterSteps.ts) hands it each step's
// interpreter where ethereumjs would emit its `step` event. That event copies the whole stack and
// memory and builds an object per step whatever the options, and a `step` listener turns the
// loop's fast path off; here only what the options ask for is read (no stack with disableStack,
// memory only with enableMemory, the stack's top one or two words for SLOAD and SSTORE). Where the
// loop is not installed or leaves a frame to the package (EOF and code-chunk EIPs, the profiler:
// none on a Subnet-EVM fork; stepLog.ts), the logger listens to `step` events instead, with the
// same output.
import { listen, type EVMResult, type InterpreterStep, type Message, type TracedEVM, type Tracer } from './types.js';
import { failsBeforeStep, gethErrorText } from './errors.js';
import { gethOpName } from './opnames.js';
import { dropStepLog, keepStepLog, quantityHex } from './stepLog.js';
import type { InterpreterLike, OpInfo, StepLog } from '../interpreterSteps.js';
import { memoryWords } from '../evmMemory.js';

export interface StructLoggerConfig {
  enableMemory: boolean;
  disableStack: boolean;
  disableStorage: boolean;
  enableReturnData: boolean;
  /** Maximum number of entries (0: no limit). */
  limit: number;
}

interface StructLog {
  pc: number;
  op: string;
  gas: number | bigint;
  gasCost: number | bigint;
  depth: number;
  /** geth's text of an error its interpreter met before running the step (out of gas, …). */
  error?: string;
  stack?: string[];
  returnData?: string;
  memory?: string[];
  storage?: Record<string, string>;
  refund?: number | bigint;
}

/**
 * A uint64 as a JSON number: a JavaScript number when it is exact (gas always is, below a gas cap
 * of 2^53), else the bigint the server writes as a bare number. A result without bigints is
 * encoded by one native JSON.stringify; with one, every value goes through a replacer
 * (server.ts toJSON), which made encoding ~a quarter of a long trace's time.
 */
const uint = (v: bigint): number | bigint => (v <= 9007199254740991n ? Number(v) : v);

const hex64 = (v: bigint) => v.toString(16).padStart(64, '0');
const ZERO64 = '0'.repeat(64);
/** The `stack` of every entry whose stack is empty (entries are only read, then encoded). */
const NO_WORDS: string[] = [];

export class StructLogger implements Tracer, StepLog {
  private readonly logs: StructLog[] = [];
  /** Per contract address: the storage slots seen so far (geth keeps them across steps). */
  private readonly storage = new Map<string, Map<string, string>>();
  /** An SLOAD step whose loaded value is read from the next step's stack top. */
  private pendingLoad: { snapshot: Record<string, string>; slots: Map<string, string>; key: string; depth: number } | undefined;
  private depth = 0;
  /** Per depth: the return data of the last call the frame made (geth's interpreter returnData). */
  private readonly returnData: Uint8Array[] = [];
  private output: Uint8Array = new Uint8Array(0);
  private error: string | undefined;
  private usedGas: bigint | undefined;
  private execGasUsed = 0n;
  private unlisten: (() => void) | undefined;
  /** The EVM whose interpreter loop hands this logger its steps (undefined: `step` events). */
  private loggingOn: TracedEVM | undefined;
  /** geth's opcode names by byte, with the table entry name they were made from. */
  private readonly names: ({ name: string; op: string } | undefined)[] = [];
  /** The newest step's entry and opcode (undefined: past the limit, not logged). */
  private newest: StructLog | undefined;
  private newestCode = 0;
  /** Per frame (0-based depth): the entry of its newest step, if it was logged. */
  private readonly frameLast: (StructLog | undefined)[] = [];

  constructor(private readonly cfg: StructLoggerConfig) {}

  /** A step of the running frame (interpreterSteps.ts), where ethereumjs emits its `step` event. */
  step(interp: InterpreterLike, info: OpInfo & { fullName: string }, gas: bigint, memoryWordCount: bigint): void {
    const rs = interp._runState;
    const st = rs.stack;
    const depth = interp._env.depth;
    if (this.pendingLoad) this.resolveLoad(depth, st._store, st._len);
    if (this.cfg.limit > 0 && this.logs.length >= this.cfg.limit) return this.unlogged(depth);
    const mem = this.cfg.enableMemory ? memoryWords(rs.memory._store, memoryWordCount) : undefined;
    // A constant-gas step's cost is its fee (a gas handler's trap too: the package reports the fee).
    const cost = info.dynamicGas ? uint(gas) : (info as { fee?: number }).fee ?? uint(gas);
    this.record(rs.programCounter, info.fullName, info.code, rs.gasLeft, cost, depth, st._store, st._len, mem, interp._env.address, rs.gasRefund);
  }

  private readonly onStep = (s: InterpreterStep) => {
    if (this.pendingLoad) this.resolveLoad(s.depth, s.stack, s.stack.length);
    if (this.cfg.limit > 0 && this.logs.length >= this.cfg.limit) return this.unlogged(s.depth);
    const cost = s.opcode.dynamicFee === undefined ? s.opcode.fee : uint(s.opcode.dynamicFee);
    this.record(s.pc, s.opcode.name, s.opcode.code, s.gasLeft, cost, s.depth, s.stack, s.stack.length, this.cfg.enableMemory ? s.memory : undefined, s.address, s.gasRefund);
  };

  /** One entry: `stack` holds the frame's stack in its first `n` items (top last). */
  private record(
    pc: number, name: string, code: number, gasLeft: bigint, cost: number | bigint, depth: number,
    stack: readonly bigint[], n: number, mem: Uint8Array | undefined, address: { toString(): string }, refund: bigint,
  ): void {
    const known = this.names[code];
    let op: string;
    if (known !== undefined && known.name === name) op = known.op;
    else this.names[code] = { name, op: (op = gethOpName(name, code)) };
    const entry: StructLog = { pc, op, gas: uint(gasLeft), gasCost: cost, depth: depth + 1 };
    if (!this.cfg.disableStack) {
      if (n === 0) entry.stack = NO_WORDS;
      else {
        const hex: string[] = [];
        for (let i = 0; i < n; i++) hex.push(quantityHex(stack[i]));
        entry.stack = hex;
      }
    }
    if (this.cfg.enableReturnData) {
      const rd = this.returnData[depth];
      if (rd && rd.length > 0) entry.returnData = '0x' + Buffer.from(rd).toString('hex');
    }
    if (mem !== undefined) {
      const words: string[] = [];
      const buf = Buffer.from(mem.buffer, mem.byteOffset, mem.length);
      for (let i = 0; i + 32 <= buf.length; i += 32) words.push(buf.toString('hex', i, i + 32));
      entry.memory = words;
    }
    if (!this.cfg.disableStorage && (op === 'SLOAD' || op === 'SSTORE')) {
      const addr = address.toString();
      let slots = this.storage.get(addr);
      if (!slots) this.storage.set(addr, (slots = new Map()));
      if (op === 'SLOAD' && n >= 1) {
        const key = hex64(stack[n - 1]);
        slots.set(key, slots.get(key) ?? ZERO64);
        entry.storage = snapshot(slots);
        this.pendingLoad = { snapshot: entry.storage, slots, key, depth };
      } else if (op === 'SSTORE' && n >= 2) {
        slots.set(hex64(stack[n - 1]), hex64(stack[n - 2]));
        entry.storage = snapshot(slots);
      }
    }
    if (refund > 0n) entry.refund = uint(refund);
    this.logs.push(entry);
    this.newest = this.frameLast[depth] = entry;
    this.newestCode = code;
  }

  /** A step past the limit: a failure in it is not shown on an older entry. */
  private unlogged(depth: number): void {
    this.newest = this.frameLast[depth] = undefined;
  }

  /**
   * A frame that failed in its own newest step, before geth's interpreter would have run it (out
   * of gas, a stack check, an undefined opcode …): geth's StructLogger keeps that error on the
   * step's entry (CaptureState's `err`), after `depth` in the wire order. An error the opcode
   * itself meets (REVERT, a bad jump …) geth reports through CaptureFault, which the struct
   * logger ignores.
   */
  private failedStep(depth: number, err: { error: string } | undefined): void {
    const last = this.frameLast[depth];
    this.frameLast[depth] = undefined;
    if (err === undefined || last === undefined || last !== this.newest || !failsBeforeStep(err.error)) return;
    const { pc, op, gas, gasCost, depth: d, ...rest } = last;
    const entry: StructLog = { pc, op, gas, gasCost, depth: d, error: gethErrorText(err, { name: op, code: this.newestCode }), ...rest };
    this.logs[this.logs.length - 1] = entry;
    this.newest = entry;
  }

  /** The value SLOAD pushed is on top of the stack at the next step of the same frame. */
  private resolveLoad(depth: number, stack: readonly bigint[], n: number): void {
    const p = this.pendingLoad!;
    this.pendingLoad = undefined;
    if (depth !== p.depth || n === 0) return;
    const value = hex64(stack[n - 1]);
    p.slots.set(p.key, value);
    p.snapshot[p.key] = value;
  }

  private readonly onBefore = (m: Message) => {
    this.depth++;
    this.returnData[m.depth] = new Uint8Array(0);
    this.frameLast[m.depth] = undefined;
  };

  private readonly onAfter = (r: EVMResult) => {
    this.depth--;
    this.failedStep(this.depth, r.execResult.exceptionError);
    this.pendingLoad = undefined;
    if (this.depth > 0) this.returnData[this.depth - 1] = r.execResult.returnValue;
    if (this.depth !== 0) return;
    this.output = r.execResult.returnValue;
    this.error = gethErrorText(r.execResult.exceptionError);
    this.execGasUsed = r.execResult.executionGasUsed;
  };

  attach(evm: TracedEVM): void {
    if (keepStepLog(evm, this)) {
      this.loggingOn = evm;
      this.unlisten = listen(evm, { beforeMessage: this.onBefore, afterMessage: this.onAfter });
    } else {
      this.unlisten = listen(evm, { step: this.onStep, beforeMessage: this.onBefore, afterMessage: this.onAfter });
    }
  }

  detach(): void {
    this.unlisten?.();
    this.unlisten = undefined;
    if (this.loggingOn !== undefined) dropStepLog(this.loggingOn, this);
    this.loggingOn = undefined;
  }

  txStart(): void {}

  txEnd(gasUsed: bigint): void {
    this.usedGas = gasUsed;
  }

  result(): unknown {
    const failed = this.error !== undefined;
    let returnValue = Buffer.from(this.output).toString('hex');
    if (failed && this.error !== 'execution reverted') returnValue = '';
    return {
      gas: uint(this.usedGas ?? this.execGasUsed),
      failed,
      returnValue,
      structLogs: this.logs,
    };
  }
}

/** Storage as geth prints it: keys sorted (Go map order in JSON). */
function snapshot(slots: Map<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...slots.keys()].sort()) out[k] = slots.get(k)!;
  return out;
}
