// Logs, polling filters (eth_newFilter & co., 5-minute idle timeout like geth) and eth_subscribe
// kinds. Only accepted blocks are delivered (§1.3).
import { randomBytes } from 'node:crypto';
import { RpcError, subscriptionNotFound, type SubscriptionSource } from '../rpc/server.js';
import type { Block } from '../chain/blockchain.js';
import { headerNotificationJSON } from '../chain/header.js';
import { keccak256 } from '../crypto.js';
import { blockNumberCode, bool, type BlockSpec } from './args.js';
import { filterCriteriaArg, type BlockNumber } from '../rpc/params.js';
import type { EvmBackend } from './backend.js';
import { hexD, logJSON, txJSON } from './format.js';
import type { MinedBlock } from '../miner/miner.js';
import type { PoolTx } from '../txpool/pool.js';
import { subscribeTraceChain } from './traceChain.js';

export interface LogCriteria {
  fromBlock?: BlockSpec;
  toBlock?: BlockSpec;
  blockHash?: string;
  addresses: Set<string>;
  /** Per position: undefined = wildcard, else any-of. */
  topics: (Set<string> | undefined)[];
}

export function parseLogCriteria(v: unknown, i: number): LogCriteria {
  const f = filterCriteriaArg(v, i);
  const spec = (n: BlockNumber | undefined): BlockSpec | undefined => (n === undefined ? undefined : typeof n === 'bigint' ? { kind: 'number', number: n } : { kind: 'tag', tag: n });
  return {
    blockHash: f.blockHash?.toLowerCase(),
    fromBlock: spec(f.fromBlock),
    toBlock: spec(f.toBlock),
    addresses: new Set(f.addresses.map((a) => a.toLowerCase())),
    topics: f.topics.map((t) => (t === null || t === undefined ? undefined : new Set(t.map((x) => x.toLowerCase())))),
  };
}

function matches(c: LogCriteria, addr: string, topics: string[]): boolean {
  if (c.addresses.size && !c.addresses.has(addr)) return false;
  if (c.topics.length > topics.length) return false;
  for (let k = 0; k < c.topics.length; k++) {
    const want = c.topics[k];
    if (want && !want.has(topics[k])) return false;
  }
  return true;
}

/**
 * The range combinations a log filter or `logs` subscription accepts (geth's SubscribeLogs, as
 * Subnet-EVM has it): new logs (latest..latest, n..latest, with pending: there is no pending
 * block), or a numeric range n..m with n ≤ m. Anything else: `invalid from and to block combination`.
 */
function checkSubscriptionRange(c: LogCriteria): void {
  const from = blockNumberCode(c.fromBlock);
  const to = blockNumberCode(c.toBlock);
  const ok =
    (from === -1n && to === -1n) ||
    (from === -2n && to === -2n) ||
    (from >= 0n && to >= 0n && to >= from) ||
    (from >= -2n && to === -1n) ||
    (from >= 0n && to === -2n);
  if (!ok) throw new RpcError(-32000, 'invalid from and to block combination');
}

/**
 * geth's filterLogs range check for new blocks: numeric ends bound them, tags do not. A
 * `pending`..`pending` range is geth's pending-logs subscription, which only the pending block
 * feeds: Subnet-EVM has none, so it never delivers.
 */
function inRange(c: LogCriteria, n: bigint): boolean {
  const from = blockNumberCode(c.fromBlock);
  const to = blockNumberCode(c.toBlock);
  if (from === -1n && to === -1n) return false;
  return !(from >= 0n && from > n) && !(to >= 0n && to < n);
}

function inBloom(bloom: Uint8Array, value: string): boolean {
  const h = keccak256(Buffer.from(value.slice(2), 'hex'));
  for (let i = 0; i < 6; i += 2) {
    const bit = ((h[i] << 8) | h[i + 1]) & 2047;
    if ((bloom[255 - (bit >> 3)] & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}

/** The header bloom can rule a block out without reading its receipts. */
function mayMatch(bloom: Uint8Array, c: LogCriteria): boolean {
  if (c.addresses.size && ![...c.addresses].some((a) => inBloom(bloom, a))) return false;
  for (const want of c.topics) if (want && ![...want].some((t) => inBloom(bloom, t))) return false;
  return true;
}

/** The logs of `b` that match `c`; `removed`: as geth sends them for a block taken off the chain. */
export function blockLogs(be: EvmBackend, b: Block, c: LogCriteria, removed = false): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (!mayMatch(b.header.logsBloom, c)) return out;
  const rs = be.chain.receipts(b);
  if (rs.length === 0) return out;
  const txs = be.chain.txsOf(b);
  let logIndex = 0;
  rs.forEach((r, ti) => {
    const txHash = hexD(txs[ti].hash());
    for (const l of r.logs) {
      const addr = hexD(l.address);
      const topics = l.topics.map(hexD);
      if (matches(c, addr, topics)) {
        const j = logJSON(l, b, txHash, ti, logIndex);
        if (removed) j.removed = true;
        out.push(j);
      }
      logIndex++;
    }
  });
  return out;
}

/**
 * geth's filter system on a reorg (handleRemovedLogs): the logs of the blocks taken off the chain,
 * lowest block first, each with `removed: true`, matched by address and topics only — the
 * filter's block range does not apply to them.
 */
export function removedLogs(be: EvmBackend, blocks: Block[], c: LogCriteria): Record<string, unknown>[] {
  return blocks.flatMap((b) => (b.rawTxs.length ? blockLogs(be, b, c, true) : []));
}

function rangeEnd(be: EvmBackend, s: BlockSpec | undefined, dflt: bigint): bigint {
  if (!s) return dflt;
  if (s.kind === 'tag') return s.tag === 'earliest' ? 0n : be.chain.head.header.number;
  if (s.kind === 'number') return s.number;
  return dflt;
}

export function getLogs(be: EvmBackend, c: LogCriteria): Record<string, unknown>[] {
  if (c.blockHash) {
    const b = be.chain.blockByHash(Buffer.from(c.blockHash.slice(2), 'hex'));
    if (!b) throw new RpcError(-32000, 'unknown block');
    return blockLogs(be, b, c);
  }
  const head = be.chain.head.header.number;
  // geth compares the numbers as given (tags are negative there): only two explicit numbers can
  // make an invalid range; `latest`..0x100 is an empty one.
  const fromCode = blockNumberCode(c.fromBlock);
  const toCode = blockNumberCode(c.toBlock);
  if (fromCode > 0n && toCode > 0n && fromCode > toCode) throw new RpcError(-32000, 'invalid block range');
  // Subnet-EVM's filter.Logs (coreth's): a range from `pending` must end there, and there is no
  // pending block, so it has no logs.
  if (fromCode === -1n) {
    if (toCode !== -1n) throw new RpcError(-32000, 'invalid block range');
    return [];
  }
  const from = rangeEnd(be, c.fromBlock, head);
  let to = rangeEnd(be, c.toBlock, head);
  // Subnet-EVM's filters (coreth): without allow-unfinalized-queries a range must end at the last
  // accepted block, which here is the head.
  if (!be.config.allowUnfinalizedQueries) {
    if (from > head) throw new RpcError(-32000, `requested from block ${from} after last accepted block ${head}`);
    if (to > head) throw new RpcError(-32000, `requested to block ${to} after last accepted block ${head}`);
  }
  if (to > head) to = head;
  const limit = be.config.apiMaxBlocksPerRequest;
  if (limit > 0 && to - from + 1n > BigInt(limit)) throw new RpcError(-32000, `requested too many blocks from ${from} to ${to}, maximum is set to ${limit}`);
  const out: Record<string, unknown>[] = [];
  for (let n = from; n <= to; n++) {
    const b = be.chain.blockByNumber(n);
    if (!b) break;
    // Quick reject with the header bloom is not needed for correctness; receipts are cached.
    if (b.rawTxs.length) out.push(...blockLogs(be, b, c));
  }
  return out;
}

type Filter =
  | { kind: 'logs'; criteria: LogCriteria; pending: Record<string, unknown>[]; lastSeen: number }
  | { kind: 'blocks'; pending: string[]; lastSeen: number }
  | { kind: 'pendingTxs'; pending: PoolTx[]; fullTx: boolean; lastSeen: number };

const FILTER_TIMEOUT_MS = 5 * 60_000;

function newId(): string {
  return '0x' + randomBytes(16).toString('hex').replace(/^0+/, '');
}

export class EvmSubscriptions implements SubscriptionSource {
  private readonly filters = new Map<string, Filter>();
  private readonly unsub: (() => void)[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly be: EvmBackend) {
    this.unsub.push(
      be.miner.onBlock((m) => this.onBlock(m)),
      be.miner.onRemoved((blocks) => {
        for (const f of this.filters.values()) if (f.kind === 'logs') f.pending.push(...removedLogs(be, blocks, f.criteria));
      }),
      be.pool.onAdded((p) => {
        for (const f of this.filters.values()) if (f.kind === 'pendingTxs') f.pending.push(p);
      }),
    );
    this.timer = setInterval(() => {
      const now = Date.now();
      for (const [id, f] of this.filters) if (now - f.lastSeen > FILTER_TIMEOUT_MS) this.filters.delete(id);
    }, 60_000);
    this.timer.unref?.();
  }

  private onBlock(m: MinedBlock): void {
    for (const f of this.filters.values()) {
      if (f.kind === 'blocks') f.pending.push(m.block.hashHex);
      else if (f.kind === 'logs' && inRange(f.criteria, m.block.header.number)) f.pending.push(...blockLogs(this.be, m.block, f.criteria));
    }
  }

  newFilter(c: LogCriteria): string {
    checkSubscriptionRange(c);
    const id = newId();
    this.filters.set(id, { kind: 'logs', criteria: c, pending: [], lastSeen: Date.now() });
    return id;
  }
  newBlockFilter(): string {
    const id = newId();
    this.filters.set(id, { kind: 'blocks', pending: [], lastSeen: Date.now() });
    return id;
  }
  newPendingTransactionFilter(fullTx = false): string {
    const id = newId();
    this.filters.set(id, { kind: 'pendingTxs', pending: [], fullTx, lastSeen: Date.now() });
    return id;
  }
  changes(id: string): unknown[] {
    const f = this.filters.get(id.toLowerCase());
    if (!f) throw new RpcError(-32000, 'filter not found');
    f.lastSeen = Date.now();
    if (f.kind === 'pendingTxs') {
      const txs = f.pending;
      f.pending = [];
      // geth: the hashes, or with fullTx each tx as a pending RPCTransaction.
      return txs.map((p) => (f.fullTx ? txJSON(p.tx, p.from) : p.hash));
    }
    const out = f.pending;
    f.pending = [];
    return out;
  }
  logs(id: string): unknown[] {
    const f = this.filters.get(id.toLowerCase());
    if (!f || f.kind !== 'logs') throw new RpcError(-32000, 'filter not found');
    f.lastSeen = Date.now();
    return getLogs(this.be, f.criteria);
  }
  uninstall(id: string): boolean {
    return this.filters.delete(id.toLowerCase());
  }

  subscribe(kind: string, params: unknown[], emit: (result: unknown) => void, namespace = 'eth'): () => void {
    const be = this.be;
    // The kinds are the subscription methods of the services the chain serves (eth-apis): the
    // filter API's under eth, the tracer API's traceChain under debug.
    if (namespace === 'debug' && kind === 'traceChain' && be.config.ethApis.includes('debug-tracer')) {
      return subscribeTraceChain(be, params, emit, (e) => be.log.warn('traceChain failed', { error: String((e as Error)?.stack ?? e) }));
    }
    if (namespace !== 'eth' || !be.config.ethApis.includes('eth-filter')) throw subscriptionNotFound(kind, namespace);
    const max = kind === 'newHeads' ? 1 : 2;
    if (params.length > max) throw new RpcError(-32602, `too many arguments, want at most ${max}`);
    switch (kind) {
      case 'newHeads':
        return be.miner.onBlock((m) => emit(headerNotificationJSON(m.block.header, m.block.hash)));
      case 'logs': {
        const c = parseLogCriteria(params[1], 1);
        checkSubscriptionRange(c);
        const offBlock = be.miner.onBlock((m) => {
          if (!inRange(c, m.block.header.number)) return;
          for (const l of blockLogs(be, m.block, c)) emit(l);
        });
        const offRemoved = be.miner.onRemoved((blocks) => {
          for (const l of removedLogs(be, blocks, c)) emit(l);
        });
        return () => {
          offBlock();
          offRemoved();
        };
      }
      case 'newPendingTransactions': {
        const full = params[1] === undefined || params[1] === null ? false : bool(params[1], 1);
        return be.pool.onAdded((p) => emit(full ? txJSON(p.tx, p.from) : p.hash));
      }
      case 'newAcceptedTransactions': {
        const full = params[1] === undefined || params[1] === null ? false : bool(params[1], 1);
        return be.miner.onBlock((m) => {
          const txs = be.chain.txsOf(m.block);
          txs.forEach((tx, i) => emit(full ? txJSON(tx, hexD(m.block.senders[i]), { block: m.block, index: i }) : hexD(tx.hash())));
        });
      }
      default:
        throw subscriptionNotFound(kind);
    }
  }

  close(): void {
    clearInterval(this.timer);
    for (const u of this.unsub) u();
    this.filters.clear();
  }
}
