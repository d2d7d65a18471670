// Otterscan's `ots_` namespace (and the `erigon_getHeaderByNumber` it calls), served with the test
// controls. Shapes follow Anvil (crates/anvil/src/eth/otterscan) and Otterscan's
// docs/custom-jsonrpc.md; where they differ the choice is written down in otterscan.md.
//
// Blocks, txs and receipts are written by eth.ts / format.ts's formatters. Call frames come from
// re-executing the mined block with the callTracer (debug.ts traceBlock), as debug_traceTransaction
// does. The searches (ots_searchTransactions*, ots_getContractCreator) need every call a tx made:
// each block is traced once, in one replay, and what the searches need of it is kept per block hash
// (a block's contents never change under its hash); blocks whose txs cannot run code are not traced.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createAddressFromString } from '@ethereumjs/util';
import { RpcError, goKind } from '../rpc/server.js';
import { uint64NumberArg } from '../rpc/params.js';
import { BoundedMap } from '../../boundedMap.js';
import type { Block } from '../chain/blockchain.js';
import { CallTracer, type Frame } from '../tracers/callTracer.js';
import { address, blockNumber, blockNumberOrHash, hash32, invalidArg, quantity, required, type BlockSpec } from './args.js';
import type { EvmBackend } from './backend.js';
import { traceBlock } from './debug.js';
import { blockJSON, receiptsOf, type MethodTable } from './eth.js';
import { hexD, hexQ, txJSON } from './format.js';
import { withArity } from './controlContext.js';

/** What ots_getApiLevel answers: the level of Otterscan's spec served (Anvil and Erigon answer 8). */
export const OTS_API_LEVEL = 8;

/** The `type` numbers of ots_getInternalOperations. */
const OP_TRANSFER = 0;
const OP_SELF_DESTRUCT = 1;
const OP_CREATE = 2;
const OP_CREATE2 = 3;

/** Blocks whose call summaries are kept (a few addresses per tx each). */
const BLOCK_CALLS_CACHE = 4096;
/** Blocks a scan walks between two turns of the event loop. */
const BLOCKS_PER_TURN = 256;

/** Every method's most positional arguments: more is geth's `too many arguments, want at most N`. */
const ARITY: Record<string, number> = {
  ots_getApiLevel: 0,
  erigon_getHeaderByNumber: 1,
  ots_hasCode: 2,
  ots_getInternalOperations: 1,
  ots_traceTransaction: 1,
  ots_getTransactionError: 1,
  ots_getBlockDetails: 1,
  ots_getBlockDetailsByHash: 1,
  ots_getBlockTransactions: 3,
  ots_searchTransactionsBefore: 3,
  ots_searchTransactionsAfter: 3,
  ots_getTransactionBySenderAndNonce: 2,
  ots_getContractCreator: 1,
  eth_getTransactionBySenderAndNonce: 2,
};

// ---------------------------------------------------------------------------------------------
// Arguments: Otterscan sends block numbers, page numbers and nonces as bare JSON numbers; hex
// quantities (and for blocks the usual tags) are taken too, as by Anvil's lenient decoders.

/** A block given as a JSON number, a hex quantity or a tag. */
export function blockArg(p: unknown[], i: number): BlockSpec {
  const v = required(p, i);
  if (typeof v === 'number') return { kind: 'number', number: uint64NumberArg(p, i) };
  return blockNumber(v, i);
}

/** A uint64 given as a JSON number or a hex quantity (null is 0, as for Go). */
function uintArg(p: unknown[], i: number): bigint {
  const v = required(p, i);
  if (typeof v === 'string') return quantity(v, i, 'hexutil.Uint64');
  if (v !== null && typeof v !== 'number') throw invalidArg(i, `json: cannot unmarshal ${goKind(v)} into Go value of type uint64`);
  return uint64NumberArg(p, i);
}

/** ots_hasCode's block: optional (latest), a JSON number, or geth's block number or hash. */
function stateBlockArg(p: unknown[], i: number): BlockSpec | undefined {
  const v = p[i];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number') return { kind: 'number', number: uint64NumberArg(p, i) };
  return blockNumberOrHash(v, i);
}

// ---------------------------------------------------------------------------------------------
// Blocks and txs

/** The block, or null where the backend refuses it (a number past the head). */
export function blockOrNull(be: EvmBackend, spec: BlockSpec): Block | null {
  try {
    return be.resolve(spec);
  } catch (e) {
    if (e instanceof RpcError && e.code === -32000) return null;
    throw e;
  }
}

/** A mined tx's block and index, or undefined (unknown, or still in the pool). */
export function findMined(be: EvmBackend, hash: string): { block: Block; index: number } | undefined {
  return be.chain.findTx(Buffer.from(hash.slice(2), 'hex'));
}

/** A mined tx's block and index; the same error as debug_traceTransaction's for an unknown one. */
function minedTx(be: EvmBackend, hash: string): { block: Block; index: number } {
  const found = findMined(be, hash);
  if (!found) throw new RpcError(-32000, 'transaction not found');
  return found;
}

/**
 * The slim block: the header fields and the tx count as a number. The logs bloom is kept, as Anvil
 * keeps it (Erigon writes null).
 */
function slimBlock(be: EvmBackend, b: Block, fullTx: boolean): Record<string, unknown> {
  const out = blockJSON(be, b, fullTx);
  out.transactionCount = b.rawTxs.length;
  return out;
}

/** An unknown block in ots_getBlockDetails(ByHash) and ots_getBlockTransactions: Anvil's error. */
function blockNotFound(): never {
  throw new RpcError(-32001, 'Resource not found');
}

const blockTimestamp = (b: Block) => hexQ(b.header.timestamp);

/** Σ gasUsed × effectiveGasPrice over the block's receipts. */
function totalFees(receipts: Record<string, unknown>[]): bigint {
  return receipts.reduce((sum, r) => sum + BigInt(r.gasUsed as string) * BigInt(r.effectiveGasPrice as string), 0n);
}

function blockDetails(be: EvmBackend, b: Block | null): Record<string, unknown> {
  if (!b) blockNotFound();
  const block = slimBlock(be, b, false);
  delete block.transactions;
  return {
    block,
    issuance: { blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' },
    totalFees: hexQ(totalFees(receiptsOf(be, b))),
  };
}

/** Anvil's page of `total` txs, [start, end): skip pageNumber × pageSize from the first, take pageSize. */
function pageRange(total: number, page: bigint, size: bigint): [number, number] {
  const clamp = (n: bigint) => Number(n < BigInt(total) ? n : BigInt(total));
  const start = clamp(page * size);
  return [start, clamp(BigInt(start) + size)];
}

/**
 * A page of the block's txs. As Anvil (and Erigon): each tx's `input` is cut to its first 4 bytes
 * (the selector); the receipts keep their logs and bloom (Anvil; Erigon writes null for both).
 */
function blockTransactionsPage(be: EvmBackend, b: Block | null, page: bigint, size: bigint): Record<string, unknown> {
  if (!b) blockNotFound();
  const [start, end] = pageRange(b.rawTxs.length, page, size);
  const fullblock = slimBlock(be, b, true);
  fullblock.transactions = (fullblock.transactions as Record<string, unknown>[])
    .slice(start, end)
    .map((t) => ({ ...t, input: typeof t.input === 'string' ? t.input.slice(0, 10) : t.input }));
  const receipts = receiptsOf(be, b)
    .slice(start, end)
    .map((r) => ({ ...r, timestamp: blockTimestamp(b) }));
  return { fullblock, receipts };
}

// ---------------------------------------------------------------------------------------------
// Call frames

function newCallTracer(): CallTracer {
  return new CallTracer({ onlyTopCall: false, withLog: false });
}

/** The mined tx's call tree (its block replayed up to it, the tx under the callTracer). */
async function txFrames(be: EvmBackend, { block, index }: { block: Block; index: number }): Promise<Frame> {
  const tracer = newCallTracer();
  await traceBlock(be, block, () => tracer, index);
  const top = tracer.frame();
  if (!top) throw new RpcError(-32000, 'transaction trace unavailable');
  return top;
}

/** Visits every frame in execution order (pre-order), with its depth (0: the tx's own). */
function walkFrames(f: Frame, visit: (f: Frame, depth: number) => void, depth = 0): void {
  visit(f, depth);
  for (const c of f.calls ?? []) walkFrames(c, visit, depth + 1);
}

/** The address a frame ran at: a failed CREATE's callTracer frame has no `to`, the address tried is kept. */
const frameTo = (f: Frame): string | null => f.to ?? f.self ?? null;

/**
 * ots_getInternalOperations: value moves, self-destructs and creations, the top frame's included
 * (Anvil: a call with value is a TRANSFER, a creation tx a CREATE; Erigon leaves the top frame out).
 */
function internalOperations(top: Frame): Record<string, unknown>[] {
  const ops: Record<string, unknown>[] = [];
  const add = (type: number, f: Frame) => ops.push({ type, from: f.from, to: frameTo(f), value: hexQ(f.value ?? 0n) });
  walkFrames(top, (f) => {
    if ((f.type === 'CALL' || f.type === 'CALLCODE') && (f.value ?? 0n) > 0n) add(OP_TRANSFER, f);
    else if (f.type === 'SELFDESTRUCT') add(OP_SELF_DESTRUCT, f);
    else if (f.type === 'CREATE') add(OP_CREATE, f);
    else if (f.type === 'CREATE2') add(OP_CREATE2, f);
  });
  return ops;
}

/**
 * ots_traceTransaction: every frame, flat, with its depth. `value` as Anvil writes it: `"0x0"` for a
 * STATICCALL, the caller's (apparent) value for a DELEGATECALL (Erigon writes null for both).
 */
function traceEntries(top: Frame): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  walkFrames(top, (f, depth) => {
    out.push({ type: f.type, depth, from: f.from, to: frameTo(f), value: hexQ(f.value ?? 0n), input: f.input, output: f.output ?? '0x' });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Per-block call summaries (the searches)

/** What the searches need of one tx's calls: every address a frame names, and the contracts it created. */
interface TxCalls {
  addresses: Set<string>;
  /** Created address → the direct creator (the sender, or the contract that ran CREATE / CREATE2). */
  creations: Map<string, string>;
}

function summarize(top: Frame): TxCalls {
  const s: TxCalls = { addresses: new Set(), creations: new Map() };
  walkFrames(top, (f) => {
    s.addresses.add(f.from);
    if (f.to !== undefined) s.addresses.add(f.to);
    if ((f.type === 'CREATE' || f.type === 'CREATE2') && f.error === undefined && f.to !== undefined) s.creations.set(f.to, f.from);
  });
  return s;
}

/** A tx's summary from its own fields: for a tx that ran no code, or one whose trace timed out. */
function plainCalls(b: Block, i: number, to: string | undefined, created: Uint8Array | undefined): TxCalls {
  const s: TxCalls = { addresses: new Set([hexD(b.senders[i])]), creations: new Map() };
  if (to) s.addresses.add(to);
  if (created) s.addresses.add(hexD(created));
  return s;
}

/** The contract a block's tx `i` created (read from its receipt only for a creation). */
function createdBy(be: EvmBackend, b: Block, i: number): Uint8Array | undefined {
  return be.chain.txsOf(b)[i].to ? undefined : be.chain.receipts(b)[i]?.contractAddress;
}

class BlockCalls {
  private readonly cache = new BoundedMap<string, TxCalls[]>(BLOCK_CALLS_CACHE);
  constructor(private readonly be: EvmBackend) {}

  /** The block's txs' call summaries: traced once (one replay of the block), then kept. */
  async of(b: Block): Promise<TxCalls[]> {
    const kept = this.cache.get(b.hashHex);
    if (kept) return kept;
    const txs = this.be.chain.txsOf(b);
    const plain = (i: number) => plainCalls(b, i, txs[i].to?.toString(), createdBy(this.be, b, i));
    if (!(await this.runsCode(b))) {
      const calls = txs.map((_, i) => plain(i));
      this.cache.set(b.hashHex, calls);
      return calls;
    }
    const tracers: CallTracer[] = [];
    await traceBlock(this.be, b, () => {
      const t = newCallTracer();
      tracers.push(t);
      return t;
    });
    const tops = tracers.map((t) => t.frame());
    const calls = tops.map((top, i) => (top ? summarize(top) : plain(i)));
    // A tx stopped at the trace timeout has only its own fields: asked again, it is traced again.
    if (tops.every((t) => t !== undefined)) this.cache.set(b.hashHex, calls);
    return calls;
  }

  /**
   * Whether any tx of the block can run code: one creates a contract, or calls an account with
   * code at the parent's state. Otherwise no tx runs code, so none can put code anywhere for a
   * later one, and every tx is a plain transfer (its trace would be its own fields).
   */
  private async runsCode(b: Block): Promise<boolean> {
    const chain = this.be.chain;
    const txs = chain.txsOf(b);
    if (txs.length === 0) return false;
    if (txs.some((tx) => !tx.to)) return true;
    const parent = chain.blockByHash(b.header.parentHash);
    if (!parent) return true;
    const view = chain.readView(parent);
    for (const to of new Set(txs.map((tx) => tx.to!.toString()))) {
      if ((await view.getCode(createAddressFromString(to))).length > 0) return true;
    }
    return false;
  }
}

/** The indices of the block's txs that involve `addr`: sender, recipient, created contract or any frame's from / to. */
async function txsInvolving(be: EvmBackend, calls: BlockCalls, b: Block, addr: string): Promise<number[]> {
  const txs = be.chain.txsOf(b);
  const created = (i: number) => createdBy(be, b, i);
  const direct = (i: number) => hexD(b.senders[i]) === addr || txs[i].to?.toString() === addr || (created(i) !== undefined && hexD(created(i)!) === addr);
  let traced: TxCalls[] | undefined;
  const out: number[] = [];
  for (let i = 0; i < txs.length; i++) {
    if (direct(i)) out.push(i);
    else if ((traced ??= await calls.of(b))[i].addresses.has(addr)) out.push(i);
  }
  return out;
}

interface TxRef {
  block: Block;
  index: number;
}

/** The searches' answer: the txs and their receipts (each with the block's timestamp). */
function searchResult(be: EvmBackend, found: TxRef[], firstPage: boolean, lastPage: boolean): Record<string, unknown> {
  const receiptsByBlock = new Map<string, Record<string, unknown>[]>();
  const receiptOf = ({ block, index }: TxRef) => {
    let rs = receiptsByBlock.get(block.hashHex);
    if (!rs) receiptsByBlock.set(block.hashHex, (rs = receiptsOf(be, block)));
    return { ...rs[index], timestamp: blockTimestamp(block) };
  };
  const txs = found.map(({ block, index }) => txJSON(be.chain.txsOf(block)[index], hexD(block.senders[index]), { block, index }));
  return { txs, receipts: found.map(receiptOf), firstPage, lastPage };
}

/**
 * ots_searchTransactionsBefore (Anvil's walk): from `before − 1` (the head for 0) down to block 1,
 * whole blocks, until at least `pageSize` txs are found; newest first.
 */
async function searchBefore(be: EvmBackend, calls: BlockCalls, addr: string, before: bigint, pageSize: bigint) {
  const head = be.chain.head.header.number;
  const from = before === 0n ? head : before - 1n;
  const found: TxRef[] = [];
  let n = from < head ? from : head;
  while (n >= 1n) {
    const b = be.chain.blockByNumber(n);
    if (b) for (const index of (await txsInvolving(be, calls, b, addr)).reverse()) found.push({ block: b, index });
    n--;
    if (BigInt(found.length) >= pageSize) break;
    if (n % BigInt(BLOCKS_PER_TURN) === 0n) await nextTurn();
  }
  return searchResult(be, found, from >= head, n < 1n);
}

/**
 * ots_searchTransactionsAfter (Anvil's walk): from `after + 1` (block 0 for 0) up to the head,
 * whole blocks, until at least `pageSize` txs are found; answered newest first too.
 */
async function searchAfter(be: EvmBackend, calls: BlockCalls, addr: string, after: bigint, pageSize: bigint) {
  const head = be.chain.head.header.number;
  const from = after === 0n ? 0n : after + 1n;
  let firstPage = from >= head;
  const found: TxRef[] = [];
  let n = from;
  while (n <= head) {
    const b = be.chain.blockByNumber(n);
    if (b) for (const index of await txsInvolving(be, calls, b, addr)) found.push({ block: b, index });
    if (n === head) firstPage = true;
    n++;
    if (BigInt(found.length) >= pageSize) break;
    if (n % BigInt(BLOCKS_PER_TURN) === 0n) await nextTurn();
  }
  return searchResult(be, found.reverse(), firstPage, from === 0n);
}

// ---------------------------------------------------------------------------------------------
// Looking a tx up by what the state says

/** The lowest block number in [lo, hi] where `holds` is true, for a `holds` that stays true once it is; undefined if it is not at hi. */
async function firstBlockWhere(lo: bigint, hi: bigint, holds: (n: bigint) => Promise<boolean>): Promise<bigint | undefined> {
  if (!(await holds(hi))) return undefined;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (await holds(mid)) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

/** The index of `sender`'s tx with `nonce` in the block, or -1. */
function indexBySenderAndNonce(be: EvmBackend, b: Block, sender: string, nonce: bigint): number {
  const txs = be.chain.txsOf(b);
  return txs.findIndex((tx, i) => hexD(b.senders[i]) === sender && tx.nonce === nonce);
}

/**
 * The block where the sender's nonce passed `nonce` (a binary search over the blocks' states),
 * then its tx there. A nonce changed by anvil_setNonce can send the search to a block without
 * the tx: then every block is looked at, from the head down (Anvil's walk).
 */
async function minedBySenderAndNonce(be: EvmBackend, sender: string, nonce: bigint): Promise<{ block: Block; index: number } | null> {
  const chain = be.chain;
  const head = chain.head;
  const nonceAt = async (n: bigint) => (await chain.accountAt(chain.blockByNumber(n) ?? head, createAddressFromString(sender))).nonce;
  const n = await firstBlockWhere(0n, head.header.number, async (k) => (await nonceAt(k)) > nonce);
  if (n === undefined || n === 0n) return null;
  const b = chain.blockByNumber(n);
  const i = b ? indexBySenderAndNonce(be, b, sender, nonce) : -1;
  if (b && i >= 0) return { block: b, index: i };
  for (let k = head.header.number; k >= 1n; k--) {
    const blk = chain.blockByNumber(k);
    const j = blk && blk.senders.some((s) => hexD(s) === sender) ? indexBySenderAndNonce(be, blk, sender, nonce) : -1;
    if (blk && j >= 0) return { block: blk, index: j };
    if (k % BigInt(BLOCKS_PER_TURN) === 0n) await nextTurn();
  }
  return null;
}

/**
 * The block where code first appeared at `addr` (a binary search over the blocks' states), traced
 * for the creation there. Null for an account without code now, a genesis contract, or code put
 * there by anvil_setCode (no tx created it).
 */
async function contractCreator(be: EvmBackend, calls: BlockCalls, addr: string): Promise<{ hash: string; creator: string } | null> {
  const chain = be.chain;
  const head = chain.head;
  const a = createAddressFromString(addr);
  const hasCode = async (n: bigint) => (await chain.readView(chain.blockByNumber(n) ?? head).getCode(a)).length > 0;
  const n = await firstBlockWhere(0n, head.header.number, hasCode);
  if (n === undefined || n === 0n) return null;
  const b = chain.blockByNumber(n);
  if (!b) return null;
  const summaries = await calls.of(b);
  const i = summaries.findIndex((s) => s.creations.has(addr));
  if (i < 0) return null;
  return { hash: hexD(chain.txsOf(b)[i].hash()), creator: summaries[i].creations.get(addr)! };
}

// ---------------------------------------------------------------------------------------------
// The methods

export function otterscanMethods(be: EvmBackend): MethodTable {
  const m: MethodTable = new Map();
  const calls = new BlockCalls(be);
  const set = (name: string, fn: (p: unknown[]) => unknown) => m.set(name, withArity(ARITY[name], fn));

  set('ots_getApiLevel', () => OTS_API_LEVEL);
  set('erigon_getHeaderByNumber', (p) => {
    const b = blockOrNull(be, blockArg(p, 0));
    return b ? blockJSON(be, b, false) : null;
  });
  set('ots_hasCode', async (p) => {
    const a = address(required(p, 0), 0);
    const b = be.resolveForState(stateBlockArg(p, 1));
    return (await be.chain.readView(b).getCode(createAddressFromString(a))).length > 0;
  });
  set('ots_getInternalOperations', async (p) => internalOperations(await txFrames(be, minedTx(be, hash32(required(p, 0), 0)))));
  // An unknown tx (or one still in the pool): Anvil's answers, [] and "0x".
  set('ots_traceTransaction', async (p) => {
    const found = findMined(be, hash32(required(p, 0), 0));
    return found ? traceEntries(await txFrames(be, found)) : [];
  });
  set('ots_getTransactionError', async (p) => {
    const found = findMined(be, hash32(required(p, 0), 0));
    if (!found || be.chain.receipts(found.block)[found.index]?.status === 1) return '0x';
    return (await txFrames(be, found)).output ?? '0x';
  });
  set('ots_getBlockDetails', (p) => blockDetails(be, blockOrNull(be, blockArg(p, 0))));
  set('ots_getBlockDetailsByHash', (p) => blockDetails(be, be.resolve({ kind: 'hash', hash: hash32(required(p, 0), 0), requireCanonical: false })));
  set('ots_getBlockTransactions', (p) => {
    const spec = blockArg(p, 0);
    const page = uintArg(p, 1);
    const size = uintArg(p, 2);
    return blockTransactionsPage(be, blockOrNull(be, spec), page, size);
  });
  set('ots_searchTransactionsBefore', (p) => searchBefore(be, calls, address(required(p, 0), 0), uintArg(p, 1), uintArg(p, 2)));
  set('ots_searchTransactionsAfter', (p) => searchAfter(be, calls, address(required(p, 0), 0), uintArg(p, 1), uintArg(p, 2)));
  set('ots_getTransactionBySenderAndNonce', async (p) => {
    const found = await minedBySenderAndNonce(be, address(required(p, 0), 0), uintArg(p, 1));
    return found ? hexD(be.chain.txsOf(found.block)[found.index]!.hash()) : null;
  });
  set('ots_getContractCreator', (p) => contractCreator(be, calls, address(required(p, 0), 0)));
  // Anvil's (and reth's) eth_ twin: the transaction object, from the pool first (pending or
  // queued, without block fields), then the chain; null when neither has it.
  set('eth_getTransactionBySenderAndNonce', async (p) => {
    const sender = address(required(p, 0), 0);
    const nonce = uintArg(p, 1);
    const { pending, queued } = be.pool.split(sender);
    const pooled = pending.find((t) => t.nonce === nonce) ?? queued.find((t) => t.nonce === nonce);
    if (pooled) return txJSON(pooled.tx, pooled.from);
    const found = await minedBySenderAndNonce(be, sender, nonce);
    return found ? txJSON(be.chain.txsOf(found.block)[found.index]!, sender, { block: found.block, index: found.index }) : null;
  });
  return m;
}
