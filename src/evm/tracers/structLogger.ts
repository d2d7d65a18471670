// geth's default tracer (eth/tracers/logger.StructLogger): one entry per executed opcode.
import { listen, type EVMResult, type InterpreterStep, type Message, type TracedEVM, type Tracer } from './types.js';
import { gethErrorText } from './errors.js';
import { gethOpName } from './opnames.js';

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
  stack?: string[];
  memory?: string[];
  storage?: Record<string, string>;
  refund?: number | bigint;
  returnData?: string;
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

export class StructLogger implements Tracer {
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

  constructor(private readonly cfg: StructLoggerConfig) {}

  private readonly onStep = (s: InterpreterStep) => {
    if (this.pendingLoad) this.resolveLoad(s);
    if (this.cfg.limit > 0 && this.logs.length >= this.cfg.limit) return;
    const op = gethOpName(s.opcode.name, s.opcode.code);
    const entry: StructLog = { pc: s.pc, op, gas: uint(s.gasLeft), gasCost: s.opcode.dynamicFee === undefined ? s.opcode.fee : uint(s.opcode.dynamicFee), depth: s.depth + 1 };
    if (!this.cfg.disableStack) entry.stack = s.stack.map((v) => '0x' + v.toString(16));
    if (this.cfg.enableMemory) {
      const mem: string[] = [];
      const m = s.memory;
      for (let i = 0; i + 32 <= m.length; i += 32) mem.push(Buffer.from(m.buffer, m.byteOffset + i, 32).toString('hex'));
      entry.memory = mem;
    }
    if (!this.cfg.disableStorage && (op === 'SLOAD' || op === 'SSTORE')) {
      const addr = s.address.toString();
      let slots = this.storage.get(addr);
      if (!slots) this.storage.set(addr, (slots = new Map()));
      const n = s.stack.length;
      if (op === 'SLOAD' && n >= 1) {
        const key = hex64(s.stack[n - 1]);
        slots.set(key, slots.get(key) ?? ZERO64);
        entry.storage = snapshot(slots);
        this.pendingLoad = { snapshot: entry.storage, slots, key, depth: s.depth };
      } else if (op === 'SSTORE' && n >= 2) {
        slots.set(hex64(s.stack[n - 1]), hex64(s.stack[n - 2]));
        entry.storage = snapshot(slots);
      }
    }
    if (s.gasRefund > 0n) entry.refund = uint(s.gasRefund);
    if (this.cfg.enableReturnData) {
      const rd = this.returnData[s.depth];
      if (rd && rd.length > 0) entry.returnData = '0x' + Buffer.from(rd).toString('hex');
    }
    this.logs.push(entry);
  };

  /** The value SLOAD pushed is on top of the stack at the next step of the same frame. */
  private resolveLoad(s: InterpreterStep): void {
    const p = this.pendingLoad!;
    this.pendingLoad = undefined;
    if (s.depth !== p.depth || s.stack.length === 0) return;
    const value = hex64(s.stack[s.stack.length - 1]);
    p.slots.set(p.key, value);
    p.snapshot[p.key] = value;
  }

  private readonly onBefore = (m: Message) => {
    this.depth++;
    this.returnData[m.depth] = new Uint8Array(0);
  };

  private readonly onAfter = (r: EVMResult) => {
    this.depth--;
    this.pendingLoad = undefined;
    if (this.depth > 0) this.returnData[this.depth - 1] = r.execResult.returnValue;
    if (this.depth !== 0) return;
    this.output = r.execResult.returnValue;
    this.error = gethErrorText(r.execResult.exceptionError);
    this.execGasUsed = r.execResult.executionGasUsed;
  };

  attach(evm: TracedEVM): void {
    this.unlisten = listen(evm, { step: this.onStep, beforeMessage: this.onBefore, afterMessage: this.onAfter });
  }

  detach(): void {
    this.unlisten?.();
    this.unlisten = undefined;
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
