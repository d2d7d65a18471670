// The logs of one eth_simulateV1 call with `traceTransfers`: geth's simulate tracer
// (internal/ethapi/logtracer.go) adds, for every frame that moves value — the call itself, an
// internal CALL / CALLCODE / CREATE / CREATE2 with value, a SELFDESTRUCT sending a balance — an
// ERC-20 Transfer log from 0xeeee…eeee, in execution order among the contracts' own logs; a frame
// that fails takes its logs (its transfer's included) with it.
//
// @ethereumjs keeps the logs of the frames that succeeded in one list, in the order they were
// emitted, a child's logs appended to its parent's when the child returns. So a frame's surviving
// logs are its list; each succeeding child's occupy a slice of it that starts where the parent's
// list stood when the child began (read off the parent's running interpreter, frames.ts). A
// frame's sequence is its transfer, then its list with each child's slice replaced by the child's
// own sequence, then a SELFDESTRUCT's transfer.
import type { EVMResult, Message } from '@ethereumjs/evm';
import { keccak256 } from '../crypto.js';
import { listen, type TracedEVM } from '../tracers/types.js';
import { trackFrames, untrackFrames } from '../tracers/frames.js';

/** A log as the receipts store it. */
export interface SimLog {
  address: Uint8Array;
  topics: Uint8Array[];
  data: Uint8Array;
}

/** geth's transferAddress: the pseudo-contract the Transfer logs come from. */
export const TRANSFER_ADDRESS = new Uint8Array(20).fill(0xee);
/** keccak256("Transfer(address,address,uint256)"). */
export const TRANSFER_TOPIC = keccak256(new TextEncoder().encode('Transfer(address,address,uint256)'));

const word = (b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(32);
  out.set(b.subarray(Math.max(0, b.length - 32)), 32 - Math.min(32, b.length));
  return out;
};
const bigWord = (v: bigint): Uint8Array => word(Buffer.from(v.toString(16).padStart(64, '0'), 'hex'));

export function transferLog(from: Uint8Array, to: Uint8Array, value: bigint): SimLog {
  return { address: TRANSFER_ADDRESS, topics: [TRANSFER_TOPIC, word(from), word(to)], data: bigWord(value) };
}

type RawLog = [Uint8Array, Uint8Array[], Uint8Array];
const asLog = ([address, topics, data]: RawLog): SimLog => ({ address, topics, data });

interface OpenFrame {
  message: Message;
  /** Where the parent's log list stood when this frame began. */
  at: number;
  children: { at: number; count: number; logs: SimLog[] }[];
}

interface RunningFrame {
  interpreter?: { _result?: { logs?: unknown[] } };
  opCode?: number;
  env?: { contract?: { balance?: bigint } };
}

const SELFDESTRUCT = 0xff;

export class TransferTracer {
  private readonly stack: OpenFrame[] = [];
  private top: SimLog[] = [];
  private readonly unlisten: () => void;
  private readonly tracking: boolean;

  constructor(private readonly evm: TracedEVM) {
    this.tracking = trackFrames(evm);
    this.unlisten = listen(evm, { beforeMessage: this.onBefore, afterMessage: this.onAfter });
  }

  detach(): void {
    this.unlisten();
    if (this.tracking) untrackFrames(this.evm);
  }

  /** The call's logs, transfers included (empty when the call failed). */
  logs(): SimLog[] {
    return this.top;
  }

  /** The running frames' run states (frames.ts): the innermost is the frame that opened the next one. */
  private running(): RunningFrame | undefined {
    const frames = (this.evm as { powderFrames?: RunningFrame[] }).powderFrames;
    return frames?.[frames.length - 1];
  }

  private readonly onBefore = (m: Message) => {
    // Without the frames (no interpreter loop to read them from) a child's logs go after its parent's.
    const at = m.depth === 0 ? 0 : (this.running()?.interpreter?._result?.logs?.length ?? Number.MAX_SAFE_INTEGER);
    this.stack.push({ message: m, at, children: [] });
  };

  private readonly onAfter = (r: EVMResult) => {
    const frame = this.stack.pop();
    if (!frame) return;
    const res = r.execResult;
    const failed = res.exceptionError !== undefined;
    const logs = failed ? [] : this.sequence(frame, r);
    const parent = this.stack[this.stack.length - 1];
    if (!parent) this.top = logs;
    else if (!failed) parent.children.push({ at: frame.at, count: (res.logs ?? []).length, logs });
  };

  /** A frame's logs in execution order: its transfer, its own and its children's, a SELFDESTRUCT's transfer. */
  private sequence(frame: OpenFrame, r: EVMResult): SimLog[] {
    const m = frame.message;
    const own = (r.execResult.logs ?? []) as RawLog[];
    const out: SimLog[] = [];
    const to = this.recipient(m, r);
    if (!m.delegatecall && m.value > 0n && to) out.push(transferLog(m.caller.bytes, to, m.value));
    let k = 0;
    for (const c of frame.children) {
      while (k < c.at && k < own.length) out.push(asLog(own[k++]));
      out.push(...c.logs);
      k += c.count;
    }
    while (k < own.length) out.push(asLog(own[k++]));
    const sd = this.selfdestructTransfer(m, r);
    if (sd) out.push(sd);
    return out;
  }

  /**
   * geth's `to` of a frame: a CALLCODE names the code's address (ethereumjs gives its message the
   * caller's own address as `to`, the code's as codeAddress), a creation the address created.
   */
  private recipient(m: Message, r: EVMResult): Uint8Array | undefined {
    if (m.depth > 0 && m.to !== undefined && !m.to.equals(m.codeAddress)) return m.codeAddress.bytes;
    return (r.createdAddress ?? m.to)?.bytes;
  }

  /** geth's SELFDESTRUCT frame: the contract's balance to the beneficiary, when there was a balance. */
  private selfdestructTransfer(m: Message, r: EVMResult): SimLog | undefined {
    const state = r.execResult.runState as RunningFrame | undefined;
    if (state?.opCode !== SELFDESTRUCT || !m.to) return undefined;
    const balance = state.env?.contract?.balance ?? 0n;
    const beneficiary = (r.execResult.selfdestruct as Map<string, string> | undefined)?.get?.(m.to.toString());
    if (balance === 0n || beneficiary === undefined) return undefined;
    return transferLog(m.to.bytes, Buffer.from(beneficiary.slice(2), 'hex'), balance);
  }
}
