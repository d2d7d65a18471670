// geth's callTracer (eth/tracers/native/call.go): the tree of calls a transaction made.
import { listen, type EVMResult, type InterpreterStep, type Message, type TracedEVM, type Tracer } from './types.js';
import { gethErrorText, unpackRevert } from './errors.js';
import { currentOp, lastOpOf, trackFrames, untrackFrames } from './frames.js';

export interface CallTracerConfig {
  onlyTopCall: boolean;
  withLog: boolean;
}

interface CallLog {
  address: string;
  topics: string[];
  data: string;
  position: string;
}

export interface Frame {
  type: string;
  from: string;
  gas: bigint;
  gasUsed: bigint;
  to?: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: Frame[];
  logs?: CallLog[];
  value?: bigint;
  /** The address whose code runs in the frame (the caller's for DELEGATECALL and CALLCODE); not written. */
  self?: string;
}

const CALL_OPS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2']);
const hex = (b: Uint8Array) => '0x' + Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const qty = (v: bigint) => '0x' + v.toString(16);

export class CallTracer implements Tracer {
  /** Open frames, outermost first. */
  private readonly stack: Frame[] = [];
  private top: Frame | undefined;
  /** The last opcode seen at each depth: names the kind of the next frame (when steps are listened to). */
  private readonly lastOp: { name: string; code: number }[] = [];
  /** The traced EVM, when its running frames tell the opcodes instead (frames.ts). */
  private framesOf: object | undefined;
  private gasLimit: bigint | undefined;
  private gasUsed: bigint | undefined;
  private unlisten: (() => void) | undefined;

  constructor(private readonly cfg: CallTracerConfig) {}

  private readonly onStep = (s: InterpreterStep) => {
    this.lastOp[s.depth] = { name: s.opcode.name, code: s.opcode.code };
    if (!this.cfg.withLog) return;
    const name = s.opcode.name;
    if (!name.startsWith('LOG') || name.length !== 4) return;
    if (this.cfg.onlyTopCall && s.depth > 0) return;
    const frame = this.stack[this.stack.length - 1];
    if (!frame) return;
    const n = Number(name[3]);
    const st = s.stack;
    if (st.length < 2 + n) return;
    const offset = st[st.length - 1];
    const size = st[st.length - 2];
    const topics: string[] = [];
    for (let i = 0; i < n; i++) topics.push('0x' + st[st.length - 3 - i].toString(16).padStart(64, '0'));
    if (size > 1_000_000n) return; // geth skips unrealistic sizes too
    const data = new Uint8Array(Number(size));
    const mem = s.memory;
    const start = Number(offset);
    if (offset < BigInt(mem.length)) data.set(mem.subarray(start, Math.min(mem.length, start + Number(size))));
    (frame.logs ??= []).push({ address: s.address.toString(), topics, data: hex(data), position: qty(BigInt(frame.calls?.length ?? 0)) });
  };

  private readonly onBefore = (m: Message) => {
    const depth = m.depth;
    if (this.cfg.onlyTopCall && depth > 0) {
      this.stack.push(undefined as unknown as Frame); // placeholder, keeps depths aligned
      return;
    }
    let type: string;
    if (depth === 0) type = m.to ? 'CALL' : 'CREATE';
    else {
      const op = (this.framesOf ? currentOp(this.framesOf) : this.lastOp[depth - 1])?.name ?? 'CALL';
      type = CALL_OPS.has(op) ? op : 'CALL';
    }
    let from = m.caller.toString();
    let to = m.to?.toString();
    if (type === 'DELEGATECALL' || type === 'CALLCODE') {
      // ethereumjs runs these in the caller's context; geth names the code's address as `to`.
      from = m.to!.toString();
      to = m.codeAddress.toString();
    }
    const frame: Frame = { type, from, gas: m.gasLimit, gasUsed: 0n, to, input: hex(m.data), self: m.to?.toString() };
    // geth 1.13 gives a DELEGATECALL its caller's value (evm.DelegateCall passes parent.value), as
    // ethereumjs's message does; a STATICCALL has none.
    if (type !== 'STATICCALL') frame.value = m.value;
    this.stack.push(frame);
  };

  private readonly onAfter = (r: EVMResult) => {
    const frame = this.stack.pop();
    if (!frame) return;
    const res = r.execResult;
    frame.gasUsed = res.executionGasUsed;
    if (frame.type === 'CREATE' || frame.type === 'CREATE2') frame.self = frame.to = r.createdAddress?.toString();
    const depth = this.stack.length;
    const last = this.framesOf ? lastOpOf(this.framesOf, res.runState) : this.lastOp[depth];
    const err = gethErrorText(res.exceptionError, last);
    this.lastOp.length = depth; // the frame's opcodes are done
    if (err === undefined) {
      frame.output = hex(res.returnValue);
      if (last?.code === 0xff && !this.cfg.onlyTopCall) this.selfdestructed(frame, r);
    } else {
      frame.error = err;
      if (frame.type === 'CREATE' || frame.type === 'CREATE2') frame.to = undefined;
      if (err === 'execution reverted' && res.returnValue.length > 0) {
        frame.output = hex(res.returnValue);
        const reason = unpackRevert(res.returnValue);
        if (reason !== undefined) frame.revertReason = reason;
      }
    }
    const parent = this.stack[this.stack.length - 1];
    if (depth === 0) this.top = frame;
    else if (parent) (parent.calls ??= []).push(frame);
  };

  /**
   * geth's opSelfdestruct reports a SELFDESTRUCT frame (no gas, the contract's balance as value, the
   * beneficiary as `to`) as the last child of the frame it ends. ethereumjs tells the beneficiary
   * in the tx's selfdestruct map and moved the balance its frame environment held.
   */
  private selfdestructed(frame: Frame, r: EVMResult): void {
    const res = r.execResult;
    const beneficiary = frame.self === undefined ? undefined : (res.selfdestruct as Map<string, string> | undefined)?.get?.(frame.self);
    const balance = (res.runState as { env?: { contract?: { balance?: bigint } } } | undefined)?.env?.contract?.balance;
    if (beneficiary === undefined || balance === undefined) return;
    (frame.calls ??= []).push({ type: 'SELFDESTRUCT', from: frame.self!, gas: 0n, gasUsed: 0n, to: beneficiary.toLowerCase(), input: '0x', value: balance });
  }

  attach(evm: TracedEVM): void {
    // The opcodes come from the running frames when they can (frames.ts); steps are heard for the
    // logs, or for the opcodes when the frames cannot tell them.
    this.framesOf = trackFrames(evm) ? evm : undefined;
    const steps = this.cfg.withLog || !this.framesOf;
    this.unlisten = listen(evm, { step: steps ? this.onStep : undefined, beforeMessage: this.onBefore, afterMessage: this.onAfter });
  }

  detach(): void {
    this.unlisten?.();
    this.unlisten = undefined;
    if (this.framesOf) untrackFrames(this.framesOf);
    this.framesOf = undefined;
  }

  txStart(gasLimit: bigint): void {
    this.gasLimit = gasLimit;
  }

  txEnd(gasUsed: bigint): void {
    this.gasUsed = gasUsed;
  }

  /**
   * The tree as the EVM ran it, without the tx-level numbers frame() puts on the top frame: its
   * `gas` is what its execution was given (the tx's gas less the intrinsic gas) and its `gasUsed`
   * what the execution spent, as Parity reports a tx's top call (parityTrace.ts). Call it instead
   * of frame(), not after it.
   */
  executedFrame(): Frame | undefined {
    return this.top;
  }

  /** The finished tree (what result() writes), for the tracers built on it (flatCallTracer). */
  frame(): Frame | undefined {
    const top = this.top;
    if (!top) return undefined;
    if (this.gasLimit !== undefined) top.gas = this.gasLimit;
    if (this.gasUsed !== undefined) top.gasUsed = this.gasUsed;
    clearFailedLogs(top, false);
    return top;
  }

  result(): unknown {
    const top = this.frame();
    return top ? toJSONFrame(top) : null;
  }
}

/** Logs of failed frames (and of everything under them) are dropped, as geth does. */
function clearFailedLogs(f: Frame, parentFailed: boolean): void {
  const failed = f.error !== undefined || parentFailed;
  if (failed) f.logs = undefined;
  for (const c of f.calls ?? []) clearFailedLogs(c, failed);
}

/** geth's field order: from, gas, gasUsed, to, input, output, error, revertReason, calls, logs, value, type. */
function toJSONFrame(f: Frame): Record<string, unknown> {
  const o: Record<string, unknown> = { from: f.from, gas: qty(f.gas), gasUsed: qty(f.gasUsed) };
  if (f.to !== undefined) o.to = f.to;
  o.input = f.input;
  if (f.output !== undefined && f.output !== '0x') o.output = f.output;
  if (f.error !== undefined) o.error = f.error;
  if (f.revertReason !== undefined) o.revertReason = f.revertReason;
  if (f.calls?.length) o.calls = f.calls.map(toJSONFrame);
  if (f.logs?.length) o.logs = f.logs;
  if (f.value !== undefined) o.value = qty(f.value);
  o.type = f.type;
  return o;
}
