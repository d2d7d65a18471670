// geth 1.13's logger.JSONLogger (eth/tracers/logger/logger_json.go): the EIP-3155 standard trace
// that debug_standardTraceBlockToFile writes, one JSON object per executed opcode and a final
// `{"output":…,"gasUsed":…}` line for the transaction's top-level call. Lines are written as geth's
// StructLog.MarshalJSON does: pc, op (the opcode byte), gas and gasCost as hex, memory (only with
// enableMemory, omitted when empty), memSize, stack (hex words; null with disableStack),
// returnData (only with enableReturnData, omitted when empty), depth, refund, opName, error.
// Storage never appears (json:"-"), and geth's JSONLogger ignores `limit` and `disableStorage`.
//
// Like the struct logger (src/evm/tracers/structLogger.ts), the lines are made from the running
// frame: while the logger is attached, the EVM keeps it as its step log and the interpreter loop
// (src/evm/interpreterSteps.ts) hands it each step's interpreter where ethereumjs would emit its
// `step` event — an event that copies the whole stack and memory and builds an object per step,
// and whose listener turns the loop's fast path off. Each line is written as text from what the
// options ask for (no stack with disableStack, memory only with enableMemory). Where the loop cannot
// log (tracers/stepLog.ts: no loop installed, EOF or code-chunk EIPs, the profiler, another step
// log on the same EVM) the logger listens to `step` events instead, with the same output.
import { failsBeforeStep, failsInStep, gethErrorText } from '../tracers/errors.js';
import { gethOpName } from '../tracers/opnames.js';
import { dropStepLog, keepStepLog, quantityHex } from '../tracers/stepLog.js';
import { listen, type EVMResult, type InterpreterStep, type Message, type TracedEVM, type Tracer } from '../tracers/types.js';
import type { InterpreterLike, OpInfo, StepLog } from '../interpreterSteps.js';
import { hexOf } from '../../hexOf.js';
// geth's json.Encoder escapes <, > and & (`stack underflow (0 \u003c=\u003e 2)`).
import { goJSON } from '../../rpc/gorilla.js';

export interface JsonLoggerConfig {
  enableMemory: boolean;
  disableStack: boolean;
  enableReturnData: boolean;
}

/**
 * A step's line, kept as parts until the next line comes: a fault may still give it its error, or
 * follow it with geth's CaptureFault line, which differs in memory, stack and return data.
 */
interface Line {
  /** `{"pc":…,"op":…,"gas":"…","gasCost":"…"` */
  head: string;
  /** The memory's hex without 0x (enableMemory, a memory not empty). */
  memory: string | undefined;
  /** The bytes of memory the step read (fewer than memSize where the store ends before it). */
  memLength: number;
  memSize: number;
  /** The stack's words as hex, bottom first; null with disableStack. */
  stack: string[] | null;
  /** `,"returnData":"0x…"`, or ''. */
  returnData: string;
  /** `,"depth":…,"refund":…,"opName":"…"` */
  ending: string;
  op: number;
  opName: string;
  /**
   * The memory region of an opcode that can fail after geth grew the memory for it (REVERT's
   * data, RETURNDATACOPY's destination): its fault line shows the memory grown to cover it.
   */
  grows: { offset: bigint; size: bigint } | undefined;
  error: string | undefined;
}

/** geth's name of an opcode (`op`, and as a JSON string), made from the opcode table's `name`. */
interface OpName {
  name: string;
  op: string;
  json: string;
}

const REVERT = 0xfd;
const RETURNDATACOPY = 0x3e;

/** Words an opcode pops before it can fail with a during-op error (geth's stack at CaptureFault). */
const POPPED: Record<string, number> = { REVERT: 2, JUMP: 1, JUMPI: 2, RETURNDATACOPY: 3 };

/**
 * The trace's text is joined into chunks of about this length, each handed to the sink as it is
 * made (a long trace never sits in memory whole). A line is a rope of ~15 strings: joined soon,
 * they die young instead of being carried through the collector's scavenges (half a long trace's
 * time when 1 MiB of lines waited for the sink), and a chunk this size is an ordinary young
 * object, where one of 1 MiB took ~4 ms to make (a large object, on pages of its own each time;
 * docs/performance.md, session 26).
 */
const CHUNK = 64 << 10;

export class JsonLogger implements Tracer, StepLog {
  /** The newest line, not yet encoded: a fault may still set its error (onAfter). */
  private tail: Line | undefined;
  /** Without a sink: the trace's text so far, in chunks. */
  private readonly chunks: string[] = [];
  /** The lines of the next chunk, and their length. */
  private lines: string[] = [];
  private linesLength = 0;
  private depth = 0;
  /** Per depth (0-based): the `returnData` member of the frame's lines (with enableReturnData). */
  private readonly returnData: string[] = [];
  /** The last line of each open frame (by geth depth): a fault repeats it. */
  private readonly frameLast: (Line | undefined)[] = [];
  private summary: { output: string; gasUsed: string; error?: string } | undefined;
  private unlisten: (() => void) | undefined;
  /** The EVM whose interpreter loop hands this logger its steps (undefined: `step` events). */
  private loggingOn: TracedEVM | undefined;
  /** geth's opcode names by byte, with the table entry name they were made from. */
  private readonly names: (OpName | undefined)[] = [];

  /**
   * `sink`, when given, receives the trace text as it is made, in chunks of about 64 KiB (a tx that
   * runs millions of steps writes a file of gigabytes, as geth's streaming JSONLogger does;
   * collected whole it would not fit in a string, or in the heap). Call finish() at the end.
   */
  constructor(
    private readonly cfg: JsonLoggerConfig,
    private readonly sink?: (text: string) => void,
  ) {}

  /** A step of the running frame (interpreterSteps.ts), where ethereumjs emits its `step` event. */
  step(interp: InterpreterLike, info: OpInfo & { fullName: string }, gas: bigint, memoryWordCount: bigint): void {
    const rs = interp._runState;
    const memory = rs.memory._store;
    const memSize = Number(memoryWordCount) * 32;
    const st = rs.stack;
    this.record(rs.programCounter, info.fullName, info.code, rs.gasLeft, gas, interp._env.depth, st._store, st._len, memory, Math.min(memory.length, memSize), memSize, rs.gasRefund);
  }

  private readonly onStep = (s: InterpreterStep) => {
    const cost = s.opcode.dynamicFee ?? BigInt(s.opcode.fee);
    this.record(s.pc, s.opcode.name, s.opcode.code, s.gasLeft, cost, s.depth, s.stack, s.stack.length, s.memory, s.memory.length, Number(s.memoryWordCount) * 32, s.gasRefund);
  };

  /**
   * One line: `stack` holds the frame's stack in its first `n` items (top last), `memory` the
   * frame's memory in its first `memLength` bytes.
   */
  private record(
    pc: number, name: string, code: number, gasLeft: bigint, cost: bigint, depth: number,
    stack: readonly bigint[], n: number, memory: Uint8Array, memLength: number, memSize: number, refund: bigint,
  ): void {
    const opName = this.opName(name, code);
    const l: Line = {
      head: '{"pc":' + pc + ',"op":' + code + ',"gas":"0x' + gasLeft.toString(16) + '","gasCost":"' + quantityHex(cost) + '"',
      memory: this.cfg.enableMemory && memLength > 0 ? hexOf(memory.subarray(0, memLength)) : undefined,
      memLength,
      memSize,
      stack: this.cfg.disableStack ? null : stackWords(stack, n),
      returnData: this.cfg.enableReturnData ? this.returnData[depth] ?? '' : '',
      // a refund past 2^53 stays exact: written as a bare number
      ending: ',"depth":' + (depth + 1) + ',"refund":' + refund + ',"opName":' + opName.json,
      op: code,
      opName: opName.op,
      grows:
        code === REVERT && n >= 2 ? { offset: stack[n - 1], size: stack[n - 2] }
        : code === RETURNDATACOPY && n >= 3 ? { offset: stack[n - 1], size: stack[n - 3] }
        : undefined,
      error: undefined,
    };
    this.push(l);
    this.frameLast[depth + 1] = l;
  }

  private opName(name: string, code: number): OpName {
    const known = this.names[code];
    if (known !== undefined && known.name === name) return known;
    const op = gethOpName(name, code);
    return (this.names[code] = { name, op, json: JSON.stringify(op) });
  }

  private push(l: Line): void {
    if (this.tail) this.emit(encodeLine(this.tail));
    this.tail = l;
  }

  private emit(text: string): void {
    this.lines.push(text);
    this.linesLength += text.length;
    if (this.linesLength >= CHUNK) this.flush();
  }

  /** Joins the lines into a chunk: handed to the sink, or kept (without one). */
  private flush(): void {
    if (this.lines.length === 0) return;
    const chunk = this.lines.join('');
    this.lines = [];
    this.linesLength = 0;
    if (this.sink) this.sink(chunk);
    else this.chunks.push(chunk);
  }

  /** Hands the rest of the trace (the last line and the summary) to the sink. */
  finish(): void {
    if (this.tail) this.emit(encodeLine(this.tail));
    this.tail = undefined;
    if (this.summary) this.emit(goJSON(this.summary) + '\n');
    this.summary = undefined;
    this.flush();
  }

  private readonly onBefore = (m: Message) => {
    this.depth++;
    this.returnData[m.depth] = '';
    this.frameLast[this.depth] = undefined;
  };

  private readonly onAfter = (r: EVMResult) => {
    const depth = this.depth;
    this.depth--;
    const err = r.execResult.exceptionError;
    const last = this.frameLast[depth];
    this.frameLast[depth] = undefined;
    // Only a frame whose own step is the newest line failed in that step (not in a child's).
    if (err && last !== undefined && this.tail === last) {
      const msg = err.error;
      const text = gethErrorText(err, { name: last.opName, code: last.op }) ?? msg;
      // geth logs a failure before the step on the step's line; one in the opcode's run again,
      // as its CaptureFault line.
      if (failsBeforeStep(msg)) last.error = text;
      else if (failsInStep(msg)) this.push(this.faultLine(last, text));
    }
    if (depth > 1 && this.cfg.enableReturnData) this.returnData[depth - 2] = returnDataMember(r.execResult.returnValue);
    if (depth !== 1) return;
    const error = gethErrorText(err);
    const reverted = error === 'execution reverted';
    const output = err && !reverted ? '' : hexOf(r.execResult.returnValue);
    this.summary = { output, gasUsed: '0x' + r.execResult.executionGasUsed.toString(16) };
    if (error) this.summary.error = error;
  };

  /** geth's CaptureFault line: the step again, with the stack (and memory) as the opcode left them. */
  private faultLine(l: Line, error: string): Line {
    const memLength = l.grows === undefined ? l.memLength : grownMemory(l.memLength, l.grows);
    const memory = this.cfg.enableMemory && memLength > 0 ? (l.memory ?? '') + '00'.repeat(memLength - l.memLength) : undefined;
    const stack = l.stack === null ? null : l.stack.slice(0, Math.max(0, l.stack.length - (POPPED[l.opName] ?? 0)));
    // geth passes no return data to CaptureFault
    return { ...l, memory, memLength, memSize: memLength, stack, returnData: '', grows: undefined, error };
  }

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
  txEnd(): void {}

  /**
   * The trace as geth's json.Encoder writes it: one object per line, each line ending in "\n"
   * (without a sink; with one, what finish() has not handed on yet).
   */
  text(): string {
    let out = this.chunks.join('') + this.lines.join('');
    if (this.tail) out += encodeLine(this.tail);
    if (this.summary) out += goJSON(this.summary) + '\n';
    return out;
  }

  result(): unknown {
    return this.text();
  }
}

/** The first `n` words of `stack` as hex. */
function stackWords(stack: readonly bigint[], n: number): string[] {
  const words = new Array<string>(n);
  for (let i = 0; i < n; i++) words[i] = quantityHex(stack[i]);
  return words;
}

/** The memory's length once geth expanded it to cover an opcode's region (before the opcode ran). */
function grownMemory(memLength: number, { offset, size }: { offset: bigint; size: bigint }): number {
  if (size === 0n) return memLength;
  return Math.max(memLength, Number(((offset + size + 31n) / 32n) * 32n));
}

function returnDataMember(data: Uint8Array): string {
  return data.length > 0 ? ',"returnData":"0x' + hexOf(data) + '"' : '';
}

/** The line and its newline, in the field order of geth's generated StructLog.MarshalJSON. */
function encodeLine(l: Line): string {
  const memory = l.memory === undefined ? '' : ',"memory":"0x' + l.memory + '"';
  const stack = l.stack === null ? 'null' : l.stack.length === 0 ? '[]' : '["' + l.stack.join('","') + '"]';
  const error = l.error === undefined ? '' : ',"error":' + goJSON(l.error);
  return l.head + memory + ',"memSize":' + l.memSize + ',"stack":' + stack + l.returnData + l.ending + error + '}\n';
}
