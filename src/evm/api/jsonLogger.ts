// geth 1.13's logger.JSONLogger (eth/tracers/logger/logger_json.go): the EIP-3155 standard trace
// that debug_standardTraceBlockToFile writes, one JSON object per executed opcode and a final
// `{"output":…,"gasUsed":…}` line for the transaction's top-level call. It reads the same EVM
// step events as the struct logger (src/evm/tracers/structLogger.ts) and writes them as geth's
// StructLog.MarshalJSON does: pc, op (the opcode byte), gas and gasCost as hex, memory (only with
// enableMemory, omitted when empty), memSize, stack (hex words; null with disableStack),
// returnData (only with enableReturnData, omitted when empty), depth, refund, opName, error.
// Storage never appears (json:"-"), and geth's JSONLogger ignores `limit` and `disableStorage`.
import { gethErrorText } from '../tracers/errors.js';
import { gethOpName } from '../tracers/opnames.js';
import { listen, type EVMResult, type InterpreterStep, type Message, type TracedEVM, type Tracer } from '../tracers/types.js';

export interface JsonLoggerConfig {
  enableMemory: boolean;
  disableStack: boolean;
  enableReturnData: boolean;
}

interface Line {
  pc: number;
  op: number;
  gas: string;
  gasCost: string;
  memory?: string;
  memSize: number;
  stack: string[] | null;
  returnData?: string;
  depth: number;
  refund: number | string;
  opName: string;
  error?: string;
}

const hexQ = (v: bigint) => '0x' + v.toString(16);

/**
 * Errors geth's interpreter meets before it logs the step (stack checks, gas): the step's own
 * line carries the error. Others happen while the opcode runs (REVERT, a bad jump, a write in a
 * static call, return data out of bounds): geth logs the step, then CaptureFault logs it again
 * with the error.
 */
const BEFORE_LOG = new Set(['out of gas', 'stack underflow', 'stack overflow', 'invalid opcode']);
const DURING_OP = (msg: string) => msg === 'revert' || msg.startsWith('invalid JUMP') || msg === 'static state change' || msg === 'value out of range';

/** Words an opcode pops before it can fail with a during-op error (geth's stack at CaptureFault). */
const POPPED: Record<string, number> = { REVERT: 2, JUMP: 1, JUMPI: 2, RETURNDATACOPY: 3 };

/** Encoded trace text handed to the sink at a time (a long trace never sits in memory whole). */
const SINK_CHUNK = 1 << 20;

export class JsonLogger implements Tracer {
  /** The newest line, not yet encoded: a fault may still set its error (onAfter). */
  private tail: Line | undefined;
  /** Encoded lines not yet handed to the sink (all of them without a sink). */
  private chunks: string[] = [];
  private chunkLength = 0;
  private depth = 0;
  private readonly returnData: Uint8Array[] = [];
  /** The last step of each open frame (by geth depth), with what a fault line needs. */
  private readonly last = new Map<number, { line: Line; stack: bigint[]; memory: Uint8Array }>();
  private summary: { output: string; gasUsed: string; error?: string } | undefined;
  private unlisten: (() => void) | undefined;

  /**
   * `sink`, when given, receives the trace text as it is made, in chunks of about 1 MiB (a tx that
   * runs millions of steps writes a file of gigabytes, as geth's streaming JSONLogger does;
   * collected whole it would not fit in a string, or in the heap). Call finish() at the end.
   */
  constructor(
    private readonly cfg: JsonLoggerConfig,
    private readonly sink?: (text: string) => void,
  ) {}

  private push(l: Line): void {
    if (this.tail) this.emit(encodeLine(this.tail) + '\n');
    this.tail = l;
  }

  private emit(text: string): void {
    this.chunks.push(text);
    this.chunkLength += text.length;
    if (this.sink && this.chunkLength >= SINK_CHUNK) this.flush();
  }

  private flush(): void {
    if (!this.sink || this.chunks.length === 0) return;
    const text = this.chunks.join('');
    this.chunks = [];
    this.chunkLength = 0;
    this.sink(text);
  }

  /** Hands the rest of the trace (the last line and the summary) to the sink. */
  finish(): void {
    if (this.tail) this.emit(encodeLine(this.tail) + '\n');
    this.tail = undefined;
    if (this.summary) this.emit(JSON.stringify(this.summary) + '\n');
    this.summary = undefined;
    this.flush();
  }

  private line(s: InterpreterStep, stack: bigint[], memory: Uint8Array, memSize: number): Line {
    const op = gethOpName(s.opcode.name, s.opcode.code);
    const l: Line = {
      pc: s.pc,
      op: s.opcode.code,
      gas: hexQ(s.gasLeft),
      gasCost: hexQ(s.opcode.dynamicFee ?? BigInt(s.opcode.fee)),
      memSize,
      stack: null,
      depth: s.depth + 1,
      refund: 0,
      opName: op,
    };
    if (this.cfg.enableMemory && memory.length > 0) l.memory = '0x' + Buffer.from(memory).toString('hex');
    if (!this.cfg.disableStack) l.stack = stack.map((v) => '0x' + v.toString(16));
    if (this.cfg.enableReturnData) {
      const rd = this.returnData[s.depth];
      if (rd && rd.length > 0) l.returnData = '0x' + Buffer.from(rd).toString('hex');
    }
    const refund = s.gasRefund;
    l.refund = refund <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(refund) : refund.toString();
    return l;
  }

  private readonly onStep = (s: InterpreterStep) => {
    const memory = s.memory;
    const l = this.line(s, s.stack, memory, Number(s.memoryWordCount) * 32);
    // key order as geth's encoder writes it (memory before memSize, returnData after stack)
    this.push(l);
    this.last.set(s.depth + 1, { line: l, stack: [...s.stack], memory: Uint8Array.from(memory) });
  };

  private readonly onBefore = (m: Message) => {
    this.depth++;
    this.returnData[m.depth] = new Uint8Array(0);
    this.last.delete(this.depth);
  };

  private readonly onAfter = (r: EVMResult) => {
    const depth = this.depth;
    this.depth--;
    const err = r.execResult.exceptionError;
    const last = this.last.get(depth);
    this.last.delete(depth);
    if (err && last && this.tail === last.line) {
      const msg = err.error;
      const text = gethErrorText(err, { name: last.line.opName === 'INVALID' ? 'INVALID' : last.line.opName, code: last.line.op }) ?? msg;
      if (BEFORE_LOG.has(msg)) last.line.error = text;
      else if (DURING_OP(msg)) this.push(this.faultLine(last, text));
    }
    if (depth > 1) this.returnData[depth - 2] = r.execResult.returnValue;
    if (depth !== 1) return;
    const error = gethErrorText(err);
    const reverted = error === 'execution reverted';
    const output = err && !reverted ? '' : Buffer.from(r.execResult.returnValue).toString('hex');
    this.summary = { output, gasUsed: hexQ(r.execResult.executionGasUsed) };
    if (error) this.summary.error = error;
  };

  /** geth's CaptureFault line: the step again, with the stack (and memory) as the opcode left them. */
  private faultLine(last: { line: Line; stack: bigint[]; memory: Uint8Array }, error: string): Line {
    const l = last.line;
    const stack = last.stack.slice(0, Math.max(0, last.stack.length - (POPPED[l.opName] ?? 0)));
    let memory = last.memory;
    if (l.opName === 'REVERT' && last.stack.length >= 2) {
      // the memory was expanded to cover the revert data before the opcode ran
      const offset = last.stack[last.stack.length - 1];
      const size = last.stack[last.stack.length - 2];
      if (size > 0n) {
        const end = Number(((offset + size + 31n) / 32n) * 32n);
        if (end > memory.length) {
          const grown = new Uint8Array(end);
          grown.set(memory);
          memory = grown;
        }
      }
    }
    const f: Line = { ...l, memSize: memory.length, stack: this.cfg.disableStack ? null : stack.map((v) => '0x' + v.toString(16)), error };
    delete f.memory;
    delete f.returnData; // geth passes no return data to CaptureFault
    if (this.cfg.enableMemory && memory.length > 0) f.memory = '0x' + Buffer.from(memory).toString('hex');
    return f;
  }

  attach(evm: TracedEVM): void {
    this.unlisten = listen(evm, { step: this.onStep, beforeMessage: this.onBefore, afterMessage: this.onAfter });
  }

  detach(): void {
    this.unlisten?.();
    this.unlisten = undefined;
  }

  txStart(): void {}
  txEnd(): void {}

  /**
   * The trace as geth's json.Encoder writes it: one object per line, each line ending in "\n"
   * (without a sink; with one, what finish() has not handed on yet).
   */
  text(): string {
    let out = this.chunks.join('');
    if (this.tail) out += encodeLine(this.tail) + '\n';
    if (this.summary) out += JSON.stringify(this.summary) + '\n';
    return out;
  }

  result(): unknown {
    return this.text();
  }
}

/** Field order of geth's generated StructLog.MarshalJSON. */
function encodeLine(l: Line): string {
  const o: Record<string, unknown> = { pc: l.pc, op: l.op, gas: l.gas, gasCost: l.gasCost };
  if (l.memory !== undefined) o.memory = l.memory;
  o.memSize = l.memSize;
  o.stack = l.stack;
  if (l.returnData !== undefined) o.returnData = l.returnData;
  o.depth = l.depth;
  o.refund = l.refund;
  o.opName = l.opName;
  if (l.error !== undefined) o.error = l.error;
  // a refund past 2^53 stays exact: written as a bare number
  return JSON.stringify(o).replace(/"refund":"(\d+)"/, '"refund":$1');
}
