// The Parity / OpenEthereum `trace_` namespace as Anvil serves it (crates/anvil/src/eth/api.rs
// trace_*, its traces built by revm-inspectors' ParityTraceBuilder), served with the test controls:
// trace_transaction, trace_block, trace_filter, trace_replayTransaction and
// trace_replayBlockTransactions. Shapes are Parity's "localized traces" with Anvil's key orders;
// where Anvil, Parity and geth differ the choice is written down in parityTrace.md.
//
// Call frames come from re-executing the mined block with geth's callTracer (debug.ts traceBlock),
// as debug_traceTransaction does; each tx's tree is flattened depth-first into one trace per frame,
// with its place in the tree (`traceAddress`) and in the chain (block and tx). Unlike geth's
// flatCallTracer (debug_trace* with `flatCallTracer`), the top call's gas leaves out the intrinsic
// gas and failures carry Parity's texts. The replays' `stateDiff` runs geth's prestateTracer in the
// same run and diffs what it read against the state the tx left (stateDiffOf).
import { RpcError, goKind } from '../rpc/server.js';
import { memberLiteral } from '../rpc/rawNumbers.js';
import type { Block } from '../chain/blockchain.js';
import { Address } from '@ethereumjs/util';
import { CallTracer, type Frame } from '../tracers/callTracer.js';
import { PrestateTracer, type State } from '../tracers/prestateTracer.js';
import type { TraceContext, TracedEVM, TracedVM, Tracer } from '../tracers/types.js';
import { address, blockNumber, hash32, invalidArg, quantity, required, type BlockSpec } from './args.js';
import type { EvmBackend } from './backend.js';
import { TraceTimeoutError, traceBlock } from './debug.js';
import type { MethodTable } from './eth.js';
import { hexQ } from './format.js';
import { blockArg, blockOrNull, findMined } from './otterscan.js';
import { withArity } from './controlContext.js';

/** Every method's most positional arguments: more is geth's `too many arguments, want at most N`. */
const ARITY: Record<string, number> = {
  trace_transaction: 1,
  trace_block: 1,
  trace_filter: 1,
  trace_replayTransaction: 2,
  trace_replayBlockTransactions: 2,
};

/** Anvil's bound on trace_filter: `toBlock − fromBlock` above it is refused (so at most 301 blocks). */
export const MAX_FILTER_RANGE = 300n;

// ---------------------------------------------------------------------------------------------
// Parity's error texts (OpenEthereum's trace::TraceError), from geth's (what the callTracer writes)

const PARITY_ERRORS: Record<string, string> = {
  'execution reverted': 'Reverted',
  'out of gas': 'Out of gas',
  'gas uint64 overflow': 'Out of gas',
  // Parity fails a creation whose code cannot be stored, or whose address is taken, as out of gas.
  'contract creation code storage out of gas': 'Out of gas',
  'max code size exceeded': 'Out of gas',
  'max initcode size exceeded': 'Out of gas',
  'contract address collision': 'Out of gas',
  'invalid jump destination': 'Bad jump destination',
  'write protection': 'Mutable Call In Static Context',
  'return data out of bounds': 'Out of bounds',
  'stack limit reached 1024 (1023)': 'Out of stack',
  'precompiled failed': 'Built-in failed',
  'invalid input length': 'Built-in failed',
};
/** geth texts that carry details after a fixed start (`invalid opcode: INVALID`, `stack underflow (0 <=> 2)`). */
const PARITY_PREFIXES: [string, string][] = [
  ['invalid opcode', 'Bad instruction'],
  ['stack underflow', 'Stack underflow'],
];

/** Parity's text for a geth failure text; one Parity has no word for keeps geth's. */
export function parityError(geth: string): string {
  const exact = PARITY_ERRORS[geth];
  if (exact !== undefined) return exact;
  for (const [prefix, text] of PARITY_PREFIXES) if (geth.startsWith(prefix)) return text;
  return geth;
}

// ---------------------------------------------------------------------------------------------
// Flat traces

/** One frame as a Parity trace, before it is placed in the chain. */
interface FlatTrace {
  type: 'call' | 'create' | 'suicide';
  action: Record<string, unknown>;
  error?: string;
  result: Record<string, unknown> | null;
  subtraces: number;
  traceAddress: number[];
}

/** A tx's traces, its output, and where it is (the trace context traceBlock gives the tracer). */
interface TxTraces {
  traces: FlatTrace[];
  output: string;
  at: TraceContext;
  /** Parity's stateDiff, when it was asked for. */
  stateDiff?: StateDiff;
}

const isCreate = (f: Frame) => f.type === 'CREATE' || f.type === 'CREATE2';

/** The action, Anvil's (alloy's) field orders: CallAction, CreateAction, SelfdestructAction. */
function actionOf(f: Frame): Pick<FlatTrace, 'type' | 'action'> {
  if (f.type === 'SELFDESTRUCT') return { type: 'suicide', action: { address: f.from, balance: hexQ(f.value ?? 0n), refundAddress: f.to } };
  if (isCreate(f)) {
    return { type: 'create', action: { from: f.from, gas: hexQ(f.gas), init: f.input, value: hexQ(f.value ?? 0n), creationMethod: f.type.toLowerCase() } };
  }
  // A STATICCALL moves no value (0); a DELEGATECALL shows its caller's, as Parity's apparent value.
  return { type: 'call', action: { from: f.from, callType: f.type.toLowerCase(), gas: hexQ(f.gas), input: f.input, to: f.to, value: hexQ(f.value ?? 0n) } };
}

/**
 * The result, as revm-inspectors writes it: none for a self-destruct or a failure other than a
 * revert; a revert keeps its gas used and its revert data (and a creation the address it tried).
 */
function resultOf(f: Frame): Record<string, unknown> | null {
  if (f.type === 'SELFDESTRUCT') return null;
  if (f.error !== undefined && f.error !== 'execution reverted') return null;
  if (!isCreate(f)) return { gasUsed: hexQ(f.gasUsed), output: f.output ?? '0x' };
  const created = f.to ?? f.self;
  return { ...(created === undefined ? {} : { address: created }), code: f.output ?? '0x', gasUsed: hexQ(f.gasUsed) };
}

/**
 * The tree, depth-first (execution order: a self-destruct is the last child of the frame it ends).
 * Calls to precompiles are kept, as Anvil 1.7.1 keeps them.
 */
function flatten(f: Frame, traceAddress: number[] = [], out: FlatTrace[] = []): FlatTrace[] {
  const children = f.calls ?? [];
  const t: FlatTrace = { ...actionOf(f), result: resultOf(f), subtraces: children.length, traceAddress };
  if (f.error !== undefined) t.error = parityError(f.error);
  out.push(t);
  children.forEach((c, i) => flatten(c, [...traceAddress, i], out));
  return out;
}

/** What the tx returned: its output, or its revert data; "0x" for another failure. */
const txOutput = (top: Frame) => (top.error === undefined || top.error === 'execution reverted' ? (top.output ?? '0x') : '0x');

/**
 * The callTracer's tree of one tx, answered as its flat traces (traceBlock's tracer); with
 * `stateDiff`, geth's prestateTracer runs alongside and the tx's state diff is added.
 */
class ParityTracer implements Tracer {
  private readonly calls = new CallTracer({ onlyTopCall: false, withLog: false });
  private readonly prestate: PrestateTracer | undefined;
  private at: TraceContext = {};

  constructor(withStateDiff = false) {
    this.prestate = withStateDiff ? new PrestateTracer({ diffMode: false }) : undefined;
  }

  attach(evm: TracedEVM, vm?: TracedVM): void {
    this.calls.attach(evm);
    this.prestate?.attach(evm, vm);
  }

  detach(): void {
    this.calls.detach();
    this.prestate?.detach();
  }

  txStart(_gasLimit: bigint, ctx?: TraceContext): void {
    if (ctx) this.at = ctx;
  }

  txEnd(): void {
    // The top call's numbers are the execution's own (executedFrame), not the tx's.
  }

  /** A promise with stateDiff: the diff reads the state the tx left, before the next tx runs. */
  result(): TxTraces | Promise<TxTraces> {
    const top = this.calls.executedFrame();
    if (!top) throw new RpcError(-32000, 'transaction trace unavailable');
    const out: TxTraces = { traces: flatten(top), output: txOutput(top), at: this.at };
    if (!this.prestate) return out;
    return stateDiffOf(this.prestate).then((stateDiff) => ({ ...out, stateDiff }));
  }
}

// ---------------------------------------------------------------------------------------------
// State diffs (Parity's stateDiff, as revm-inspectors writes it for Anvil)

/** Parity's Delta: unchanged, created, removed, or changed. */
type Delta = '=' | { '+': string } | { '-': string } | { '*': { from: string; to: string } };

interface AccountDiff {
  balance: Delta;
  code: Delta;
  nonce: Delta;
  storage: Record<string, Delta>;
}

type StateDiff = Record<string, AccountDiff>;

const ZERO_WORD = '0x' + '0'.repeat(64);
const bytesHex = (b: Uint8Array) => '0x' + Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const wordHex = (v: Uint8Array) => (v.length === 0 ? ZERO_WORD : '0x' + Buffer.from(v).toString('hex').padStart(64, '0'));
const changed = (from: string, to: string): Delta => (from === to ? '=' : { '*': { from, to } });
const existed = (s: Readonly<State>) => s.nonce > 0n || s.code.length > 0 || s.balance !== 0n;

/**
 * The tx's state diff: each account it touched (the prestate tracer's record: sender, recipient,
 * coinbase, the accounts and slots opcodes named, the addresses created) as it was before and as
 * the tx left it, addresses and slots in order. As Anvil writes it: an account the tx created
 * (and did not destroy) is `+` in every field and in its non-zero slots; any other account is `=`
 * or `*` field by field (an account that did not exist before, paid by a transfer, is `*` from
 * 0x0), `*` for each slot whose value changed; one that existed and is gone is `-`. An account
 * with no change is left out.
 */
async function stateDiffOf(tracer: PrestateTracer): Promise<StateDiff> {
  const { pre, created, state } = tracer.touched();
  const out: StateDiff = {};
  for (const key of [...pre.keys()].sort()) {
    const was = pre.get(key)!;
    const a = new Address(Buffer.from(key.slice(2), 'hex'));
    const acc = await state.getAccount(a);
    const code = acc ? await state.getCode(a) : new Uint8Array(0);
    const slots = [...was.storage.keys()].sort();
    const now = new Map<string, string>();
    for (const slot of slots) now.set(slot, wordHex(await state.getStorage(a, Buffer.from(slot.slice(2), 'hex'))));
    const balance = acc?.balance ?? 0n;
    const nonce = acc?.nonce ?? 0n;
    const storage: Record<string, Delta> = {};
    let d: AccountDiff;
    // Created: the tx (or a CREATE in it) made a contract where there was no account. (Where a
    // balance was paid before, Anvil writes each field `=` or `*`: the else branch.)
    if (created.has(key) && !existed(was) && (nonce > 0n || code.length > 0)) {
      for (const slot of slots) if (now.get(slot) !== ZERO_WORD) storage[slot] = { '+': now.get(slot)! };
      d = { balance: { '+': hexQ(balance) }, code: { '+': bytesHex(code) }, nonce: { '+': hexQ(nonce) }, storage };
    } else if (acc === undefined && existed(was)) {
      for (const slot of slots) if (was.storage.get(slot) !== ZERO_WORD) storage[slot] = { '-': was.storage.get(slot)! };
      d = { balance: { '-': hexQ(was.balance) }, code: { '-': bytesHex(was.code) }, nonce: { '-': hexQ(was.nonce) }, storage };
    } else {
      for (const slot of slots) {
        const delta = changed(was.storage.get(slot)!, now.get(slot)!);
        if (delta !== '=') storage[slot] = delta;
      }
      d = { balance: changed(hexQ(was.balance), hexQ(balance)), code: changed(bytesHex(was.code), bytesHex(code)), nonce: changed(hexQ(was.nonce), hexQ(nonce)), storage };
    }
    if (d.balance !== '=' || d.code !== '=' || d.nonce !== '=' || Object.keys(storage).length > 0) out[key] = d;
  }
  return out;
}

/** The block's txs' traces (tx `only`, or every tx); a tx stopped at the trace timeout fails the call. */
async function traceTxs(be: EvmBackend, block: Block, only?: number, withStateDiff = false): Promise<TxTraces[]> {
  if (block.rawTxs.length === 0) return [];
  const out = await traceBlock(be, block, () => new ParityTracer(withStateDiff), only);
  if (only !== undefined) return out as TxTraces[];
  return (out as { result?: TxTraces; error?: string }[]).map((e) => {
    if (e.result === undefined) throw new TraceTimeoutError();
    return e.result;
  });
}

/** Anvil's LocalizedTransactionTrace (alloy's hand-written order): the trace placed in the chain. */
function localized(t: FlatTrace, at: TraceContext): Record<string, unknown> {
  const o: Record<string, unknown> = { action: t.action, blockHash: at.blockHash, blockNumber: Number(at.blockNumber) };
  if (t.error !== undefined) o.error = t.error;
  o.result = t.result;
  o.subtraces = t.subtraces;
  o.traceAddress = t.traceAddress;
  o.transactionHash = at.txHash;
  o.transactionPosition = at.txIndex;
  o.type = t.type;
  return o;
}

/** A replay's trace: the same keys without the chain's, `type` first (Anvil's TransactionTrace order). */
function unplaced(t: FlatTrace): Record<string, unknown> {
  const o: Record<string, unknown> = { type: t.type, action: t.action };
  if (t.error !== undefined) o.error = t.error;
  Object.assign(o, { result: t.result, subtraces: t.subtraces, traceAddress: t.traceAddress });
  return o;
}

const localizeAll = (txs: TxTraces[]) => txs.flatMap((tx) => tx.traces.map((t) => localized(t, tx.at)));

// ---------------------------------------------------------------------------------------------
// trace_transaction, trace_block

/** trace_transaction: a tx that is not mined has no traces, `[]` (Anvil; Parity answered null). */
async function transactionTraces(be: EvmBackend, hash: string): Promise<Record<string, unknown>[]> {
  const found = findMined(be, hash);
  if (!found) return [];
  return localizeAll(await traceTxs(be, found.block, found.index));
}

/** trace_block: a block past the head has no traces, `[]` (Anvil). No reward traces: Avalanche pays none. */
async function blockTraces(be: EvmBackend, spec: BlockSpec): Promise<Record<string, unknown>[]> {
  const b = blockOrNull(be, spec);
  return b ? localizeAll(await traceTxs(be, b)) : [];
}

// ---------------------------------------------------------------------------------------------
// trace_filter

interface TraceFilter {
  fromBlock?: BlockSpec;
  toBlock?: BlockSpec;
  fromAddress: Set<string>;
  toAddress: Set<string>;
  mode: 'union' | 'intersection';
  after: bigint;
  count?: bigint;
}

/** Runs a field's decoder; its failure is `invalid argument 0: <field>: <why>`. */
function field<T>(name: string, decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    if (e instanceof RpcError && e.code === -32602) throw invalidArg(0, `${name}: ${e.message.replace(/^invalid argument \d+: /, '')}`);
    throw e;
  }
}

const MAX_UINT64 = (1n << 64n) - 1n;

/** A uint64 member given as a JSON number (read from its text as sent) or a hex quantity. */
function uint64Member(o: Record<string, unknown>, k: string): bigint {
  const v = o[k];
  if (typeof v === 'string') return field(k, () => quantity(v, 0, 'hexutil.Uint64'));
  if (typeof v !== 'number') throw invalidArg(0, `${k}: json: cannot unmarshal ${goKind(v)} into Go value of type uint64`);
  const text = memberLiteral(o, k) ?? String(v);
  if (!/^(0|[1-9][0-9]*)$/.test(text) || BigInt(text) > MAX_UINT64) throw invalidArg(0, `${k}: json: cannot unmarshal number ${text} into Go value of type uint64`);
  return BigInt(text);
}

/** A filter block: a JSON number, a hex quantity or a tag (Anvil takes numbers only; Erigon tags too). */
function filterBlock(o: Record<string, unknown>, k: string): BlockSpec {
  if (typeof o[k] === 'number') return { kind: 'number', number: uint64Member(o, k) };
  return field(k, () => blockNumber(o[k], 0));
}

function addressList(name: string, v: unknown): Set<string> {
  if (v === undefined || v === null) return new Set();
  if (!Array.isArray(v)) throw invalidArg(0, `${name}: json: cannot unmarshal ${goKind(v)} into Go value of type []common.Address`);
  return new Set(v.map((a, i) => field(`${name}[${i}]`, () => address(a, 0))));
}

/** Anvil's (alloy's) TraceFilter: camelCase keys, unknown ones ignored, every one optional. */
function traceFilterArg(p: unknown[]): TraceFilter {
  const v = required(p, 0);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw invalidArg(0, `json: cannot unmarshal ${goKind(v)} into Go value of type TraceFilter`);
  const o = v as Record<string, unknown>;
  const given = (k: string) => o[k] !== undefined && o[k] !== null;
  const mode = o.mode ?? 'union';
  if (mode !== 'union' && mode !== 'intersection') {
    // (Named by its Go kind when it is no string: a value nested deep enough would break JSON.stringify.)
    throw invalidArg(0, `mode: want "union" or "intersection", not ${typeof mode === 'string' ? JSON.stringify(mode) : goKind(mode)}`);
  }
  return {
    fromBlock: given('fromBlock') ? filterBlock(o, 'fromBlock') : undefined,
    toBlock: given('toBlock') ? filterBlock(o, 'toBlock') : undefined,
    fromAddress: addressList('fromAddress', o.fromAddress),
    toAddress: addressList('toAddress', o.toAddress),
    mode,
    after: given('after') ? uint64Member(o, 'after') : 0n,
    count: given('count') ? uint64Member(o, 'count') : undefined,
  };
}

/** A filter block's number: a tag is where it points now (`earliest` 0, the others the head). */
function numberOf(be: EvmBackend, spec: BlockSpec): bigint {
  if (spec.kind === 'number') return spec.number;
  return (blockOrNull(be, spec) ?? be.chain.head).header.number;
}

/** The trace's two ends: a creation's `to` is the contract it made, a self-destruct's its beneficiary. */
function endsOf(t: FlatTrace): [from: string, to: string | undefined] {
  if (t.type === 'suicide') return [t.action.address as string, t.action.refundAddress as string];
  if (t.type === 'create') return [t.action.from as string, t.result?.address as string | undefined];
  return [t.action.from as string, t.action.to as string];
}

/**
 * alloy's TraceFilterMatcher: no address at all matches every trace; in `union` mode a trace
 * matches when its `from` is listed in fromAddress or its `to` in toAddress; in `intersection`
 * mode each list given must list its end.
 */
function matches(f: TraceFilter, t: FlatTrace): boolean {
  if (f.fromAddress.size === 0 && f.toAddress.size === 0) return true;
  const [from, to] = endsOf(t);
  const fromHit = f.fromAddress.has(from);
  const toHit = to !== undefined && f.toAddress.has(to);
  if (f.mode === 'union') return fromHit || toHit;
  return (f.fromAddress.size === 0 || fromHit) && (f.toAddress.size === 0 || toHit);
}

/**
 * trace_filter (Anvil's): blocks fromBlock (0) to toBlock (the head), at most 301 of them; the
 * matching traces in chain order, `after` of them skipped, then at most `count`.
 */
async function filterTraces(be: EvmBackend, f: TraceFilter): Promise<Record<string, unknown>[]> {
  const head = be.chain.head.header.number;
  const start = f.fromBlock ? numberOf(be, f.fromBlock) : 0n;
  const end = f.toBlock ? numberOf(be, f.toBlock) : head;
  if (start > end) throw new RpcError(-32602, 'invalid block range, ensure that to block is greater than from block');
  if (end - start > MAX_FILTER_RANGE) throw new RpcError(-32602, `block range too large, currently limited to ${MAX_FILTER_RANGE}`);
  const out: Record<string, unknown>[] = [];
  let skip = f.after;
  const full = () => f.count !== undefined && BigInt(out.length) >= f.count;
  for (let n = start; n <= end && n <= head && !full(); n++) {
    const b = be.chain.blockByNumber(n);
    if (!b) continue;
    for (const tx of await traceTxs(be, b)) {
      for (const t of tx.traces) {
        if (full() || !matches(f, t)) continue;
        if (skip > 0n) skip--;
        else out.push(localized(t, tx.at));
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// trace_replayTransaction, trace_replayBlockTransactions

const TRACE_TYPES = ['trace', 'vmTrace', 'stateDiff'];

/** The trace types asked for: `trace` and `stateDiff` are served; `vmTrace` is refused. */
interface TraceTypes {
  trace: boolean;
  stateDiff: boolean;
}

function traceTypesArg(p: unknown[], i: number): TraceTypes {
  const v = required(p, i);
  if (!Array.isArray(v)) throw invalidArg(i, `json: cannot unmarshal ${goKind(v)} into Go value of type []string`);
  const types: TraceTypes = { trace: false, stateDiff: false };
  for (const t of v) {
    if (typeof t !== 'string') throw invalidArg(i, `json: cannot unmarshal ${goKind(t)} into Go value of type string`);
    if (!TRACE_TYPES.includes(t)) throw invalidArg(i, `unknown trace type ${JSON.stringify(t)} (want "trace", "vmTrace" or "stateDiff")`);
    if (t === 'vmTrace') throw invalidArg(i, `trace type "vmTrace" is not served (only "trace" and "stateDiff")`);
    types[t as keyof TraceTypes] = true;
  }
  return types;
}

/** Parity's TraceResults: the tx's output, its state diff (null unless asked for) and its traces (`[]` unless asked for). */
function replayResult(tx: TxTraces, types: TraceTypes): Record<string, unknown> {
  return { output: tx.output, stateDiff: types.stateDiff ? (tx.stateDiff ?? null) : null, trace: types.trace ? tx.traces.map(unplaced) : [], vmTrace: null };
}

async function replayTransaction(be: EvmBackend, hash: string, types: TraceTypes): Promise<Record<string, unknown>> {
  const found = findMined(be, hash);
  if (!found) throw new RpcError(-32000, 'transaction not found');
  const [tx] = await traceTxs(be, found.block, found.index, types.stateDiff);
  return replayResult(tx, types);
}

/** Each tx's TraceResults with its hash; `[]` for a block past the head (Anvil; reth and Erigon: null). */
async function replayBlock(be: EvmBackend, spec: BlockSpec, types: TraceTypes): Promise<Record<string, unknown>[]> {
  const b = blockOrNull(be, spec);
  if (!b) return [];
  return (await traceTxs(be, b, undefined, types.stateDiff)).map((tx) => ({ ...replayResult(tx, types), transactionHash: tx.at.txHash }));
}

// ---------------------------------------------------------------------------------------------
// The methods

export function parityTraceMethods(be: EvmBackend): MethodTable {
  const m: MethodTable = new Map();
  const set = (name: string, fn: (p: unknown[]) => unknown) => m.set(name, withArity(ARITY[name], fn));

  set('trace_transaction', (p) => transactionTraces(be, hash32(required(p, 0), 0)));
  set('trace_block', (p) => blockTraces(be, blockArg(p, 0)));
  set('trace_filter', (p) => filterTraces(be, traceFilterArg(p)));
  set('trace_replayTransaction', (p) => {
    const hash = hash32(required(p, 0), 0);
    return replayTransaction(be, hash, traceTypesArg(p, 1));
  });
  set('trace_replayBlockTransactions', (p) => {
    const spec = blockArg(p, 0);
    return replayBlock(be, spec, traceTypesArg(p, 1));
  });
  return m;
}
