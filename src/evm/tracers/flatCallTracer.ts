// geth's flatCallTracer (eth/tracers/native/call_flat.go): the callTracer's tree written as
// parity-style flat traces, one entry per frame in depth-first order, each with its place in the
// tree (`traceAddress`) and in the chain (block and transaction).
import { RpcError } from '../rpc/server.js';
import { CallTracer, type Frame } from './callTracer.js';
import type { TraceContext, TracedEVM, TracedVM, Tracer } from './types.js';

export interface FlatCallTracerConfig {
  convertParityErrors: boolean;
  includePrecompiles: boolean;
}

/** geth's parityErrorMapping and parityErrorMappingStartingWith. */
const PARITY_ERRORS: Record<string, string> = {
  'contract creation code storage out of gas': 'Out of gas',
  'out of gas': 'Out of gas',
  'gas uint64 overflow': 'Out of gas',
  'max code size exceeded': 'Out of gas',
  'invalid jump destination': 'Bad jump destination',
  'execution reverted': 'Reverted',
  'return data out of bounds': 'Out of bounds',
  'stack limit reached 1024 (1023)': 'Out of stack',
  'precompiled failed': 'Built-in failed',
  'invalid input length': 'Built-in failed',
};
const PARITY_PREFIXES: [string, string][] = [
  ['invalid opcode:', 'Bad instruction'],
  ['stack underflow', 'Out of stack'],
];

const qty = (v: bigint) => '0x' + v.toString(16);
const uint = (v: bigint): number | bigint => (v <= 9007199254740991n ? Number(v) : v);

export class FlatCallTracer implements Tracer {
  /** geth builds on a callTracer with its default config too. */
  private readonly calls = new CallTracer({ onlyTopCall: false, withLog: false });
  private ctx: TraceContext = {};
  private precompiles: Map<string, unknown> | undefined;

  constructor(private readonly cfg: FlatCallTracerConfig) {}

  attach(evm: TracedEVM, _vm?: TracedVM): void {
    this.precompiles = evm.precompiles;
    this.calls.attach(evm);
  }

  detach(): void {
    this.calls.detach();
  }

  txStart(gasLimit: bigint, ctx?: TraceContext): void {
    this.calls.txStart(gasLimit);
    if (ctx) this.ctx = ctx;
  }

  txEnd(gasUsed: bigint): void {
    this.calls.txEnd(gasUsed);
  }

  result(): unknown {
    const top = this.calls.frame();
    if (!top) throw new RpcError(-32000, 'invalid number of calls');
    const out: unknown[] = [];
    this.flatten(top, [], out);
    return out;
  }

  /** Parity traces leave out CALLs and STATICCALLs to precompiles (geth drops them as they exit). */
  private hidden(f: Frame): boolean {
    if (this.cfg.includePrecompiles || (f.type !== 'CALL' && f.type !== 'STATICCALL') || f.to === undefined) return false;
    return this.precompiles?.has(f.to.slice(2)) ?? false;
  }

  private flatten(f: Frame, traceAddress: number[], out: unknown[]): void {
    const calls = (f.calls ?? []).filter((c) => !this.hidden(c));
    let type: string;
    let action: Record<string, unknown>;
    let result: Record<string, unknown> | undefined;
    // Field orders: geth's flatCallAction and flatCallResult.
    if (f.type === 'CREATE' || f.type === 'CREATE2') {
      type = 'create';
      action = { creationMethod: f.type.toLowerCase(), from: f.from, gas: qty(f.gas), init: f.input, value: qty(f.value ?? 0n) };
      result = f.to === undefined ? {} : { address: f.to };
      Object.assign(result, { code: f.output ?? '0x', gasUsed: qty(f.gasUsed) });
    } else if (f.type === 'SELFDESTRUCT') {
      type = 'suicide';
      action = { address: f.from, balance: qty(f.value ?? 0n), refundAddress: f.to };
    } else {
      type = 'call';
      // A call without a value (a STATICCALL) has 0: geth's flat tracer sets it.
      action = { callType: f.type.toLowerCase(), from: f.from, gas: qty(f.gas), input: f.input, to: f.to, value: qty(f.value ?? 0n) };
      result = { gasUsed: qty(f.gasUsed), output: f.output ?? '0x' };
    }
    // Only a revert keeps its result (the revert data); another failure has none.
    if (f.error !== undefined && f.error !== 'execution reverted') result = undefined;
    const entry: Record<string, unknown> = {
      action,
      blockHash: this.ctx.blockHash ?? null,
      blockNumber: uint(this.ctx.blockNumber ?? 0n),
    };
    if (f.error !== undefined) entry.error = this.cfg.convertParityErrors ? parityError(f.error) : f.error;
    if (result !== undefined) entry.result = result;
    entry.subtraces = calls.length;
    entry.traceAddress = traceAddress;
    entry.transactionHash = this.ctx.txHash ?? null;
    entry.transactionPosition = this.ctx.txIndex ?? 0;
    entry.type = type;
    out.push(entry);
    calls.forEach((c, i) => this.flatten(c, [...traceAddress, i], out));
  }
}

function parityError(e: string): string {
  const exact = PARITY_ERRORS[e];
  if (exact !== undefined) return exact;
  for (const [prefix, text] of PARITY_PREFIXES) if (e.startsWith(prefix)) return text;
  return e;
}
