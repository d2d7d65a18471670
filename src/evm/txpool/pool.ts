// The transaction pool (reference subnet-evm.md §9.2): geth's legacypool rules as a single node
// needs them — per-sender pending (nonce-contiguous) and queued (gapped) txs, replacement by a
// 10 % price bump, the fee-cap floor (minBaseFee), and the real node's error texts.
import { Capability, type TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import { checksumAddress } from '../chain/devAccounts.js';
import { keccak256 } from '../crypto.js';
import { feeCap, tipCap } from './txFees.js';
import { cheapestFirst, pendingOverflow, pricedAbove, queueCapOverflow, queueOverflow, txSlots } from './truncate.js';

export class TxPoolError extends Error {}

export interface PoolTx {
  tx: TypedTransaction;
  hash: string; // 0x lower-case
  from: string; // 0x lower-case
  nonce: bigint;
  /** Arrival order, for geth's "first seen" tie break. */
  seq: number;
  raw: Uint8Array;
}

/** Head facts the pool validates against. */
export interface PoolHead {
  gasLimit: bigint;
  /** Fee-cap floor: minBaseFee of the fee config at the last accepted block. */
  minBaseFee: bigint;
  /** Durango active at the head: initcode size limit applies. */
  isDurango: boolean;
  getNonce(addr: Address): Promise<bigint>;
  getBalance(addr: Address): Promise<bigint>;
  /** Precompile hook (TxAllowList): throws the real error text if the sender may not issue txs. */
  checkSender?(from: Address): Promise<void>;
  /**
   * True once a newer block was accepted than the one these facts were read from. Checked after
   * the awaits of add(): a nonce read from a superseded head would mark the sender's next tx as
   * gapped and strand it (no block would ever be built for it).
   */
  superseded?(): boolean;
}

/** The new head's facts the pool is reset on. */
export interface PoolResetHead {
  nonce(from: string): Promise<bigint>;
  /** The sender's balance at the head: txs costing more are dropped (geth's list.Filter). */
  balance?(from: string): Promise<bigint>;
  /** The head's gas limit: txs needing more gas are dropped. */
  gasLimit?: bigint;
}

/** The head moved while a tx was validated; the caller retries with the new head. */
export class PoolHeadMovedError extends Error {
  constructor() {
    super('pool head moved during validation');
  }
}

export const TX_MAX_SIZE = 131072;
export const MAX_INITCODE_SIZE = 49152;

/** The VM config's tx-pool-* keys (Subnet-EVM's defaults below). */
export interface TxPoolLimits {
  /** tx-pool-price-bump: % both fee caps of a replacement must rise. */
  priceBump: bigint;
  /** tx-pool-account-slots / tx-pool-global-slots: executable txs per sender / in all. */
  accountSlots: number;
  globalSlots: number;
  /** tx-pool-account-queue / tx-pool-global-queue: queued (nonce-gapped) txs per sender / in all. */
  accountQueue: number;
  globalQueue: number;
  /** tx-pool-lifetime (ms): a sender's queued txs are dropped after this long without progress. */
  lifetimeMs: number;
  /**
   * geth's "locals", whose queued txs never expire: every sender when local-txs-enabled (the
   * pool's txs all come in over RPC here), else the priority-regossip-addresses (lower case).
   */
  allLocal: boolean;
  locals: ReadonlySet<string>;
}
export const DEFAULT_POOL_LIMITS: TxPoolLimits = {
  priceBump: 10n,
  accountSlots: 16,
  globalSlots: 5120,
  accountQueue: 64,
  globalQueue: 1024,
  lifetimeMs: 10 * 60_000,
  allLocal: false,
  locals: new Set(),
};

export function effectiveTip(tx: TypedTransaction, baseFee: bigint): bigint {
  const cap = feeCap(tx);
  const tip = tipCap(tx);
  return cap - baseFee < tip ? cap - baseFee : tip;
}
export { feeCap as txFeeCap, tipCap as txTipCap };

interface Account {
  /** nonce → tx; executable ones are those contiguous from the state nonce. */
  txs: Map<bigint, PoolTx>;
}

export class TxPool {
  private readonly all = new Map<string, PoolTx>();
  /**
   * geth's "heartbeat" per sender: when it entered the pool or last made progress (a tx became
   * executable, or its nonce moved with a new head). Queued txs of a sender whose heartbeat is
   * older than the lifetime are dropped by evictStale().
   */
  private readonly beats = new Map<string, number>();
  readonly limits: TxPoolLimits;

  constructor(limits: Partial<TxPoolLimits> = {}, private readonly now: () => number = Date.now) {
    this.limits = { ...DEFAULT_POOL_LIMITS, ...limits };
  }

  private readonly accounts = new Map<string, Account>();
  /** State nonce per sender at the head, updated on each new head. */
  private readonly stateNonces = new Map<string, bigint>();
  private seq = 0;
  /** geth's all.Slots(): the pool's txs counted in 32 KiB slots. */
  private slots = 0;
  /** Hashes of the pool's txs already announced to the listeners (announceExecutable). */
  private readonly announced = new Set<string>();
  private readonly listeners: ((p: PoolTx) => void)[] = [];

  /** Called for every tx once it is executable (newPendingTransactions); queued txs wait for their gap to fill. */
  onAdded(fn: (p: PoolTx) => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  get size(): number {
    return this.all.size;
  }

  get(hash: string): PoolTx | undefined {
    return this.all.get(hash.toLowerCase());
  }

  /** Validates and admits a tx; returns its hash. Throws TxPoolError with geth's text. */
  async add(tx: TypedTransaction, raw: Uint8Array, head: PoolHead): Promise<PoolTx> {
    // An unsigned tx (empty signature fields, which geth decodes as zeros) has a hash all the
    // same, and fails below as geth's does: at the sender.
    const hash = '0x' + Buffer.from(tx.isSigned() ? tx.hash() : keccak256(tx.serialize())).toString('hex');
    if (this.all.has(hash)) throw new TxPoolError('already known');
    if (tx.type !== 0 && tx.type !== 1 && tx.type !== 2) throw new TxPoolError('transaction type not supported');
    if (raw.length > TX_MAX_SIZE) throw new TxPoolError(`oversized data: transaction size ${raw.length}, limit ${TX_MAX_SIZE}`);
    if (head.isDurango && tx.to === undefined && tx.data.length > MAX_INITCODE_SIZE) {
      throw new TxPoolError(`max initcode size exceeded: code size ${tx.data.length}, limit ${MAX_INITCODE_SIZE}`);
    }
    if (tx.gasLimit > head.gasLimit) throw new TxPoolError(`exceeds block gas limit: tx gas (${tx.gasLimit}) > current max gas (${head.gasLimit})`);
    const cap = feeCap(tx);
    const tip = tipCap(tx);
    if (cap >= 1n << 256n) throw new TxPoolError('max fee per gas higher than 2^256-1');
    if (tip >= 1n << 256n) throw new TxPoolError('max priority fee per gas higher than 2^256-1');
    if (cap < tip) throw new TxPoolError('max priority fee per gas higher than max fee per gas');
    let sender: Address;
    try {
      sender = tx.getSenderAddress();
    } catch {
      throw new TxPoolError('invalid sender');
    }
    const from = sender.toString();
    if (head.checkSender) await head.checkSender(sender);
    if (cap < head.minBaseFee) {
      throw new TxPoolError(`transaction underpriced: address ${checksum(sender)} have gas fee cap (${cap}) < pool minimum fee cap (${head.minBaseFee})`);
    }
    const intrinsic = tx.getIntrinsicGas();
    if (tx.gasLimit < intrinsic) {
      throw new TxPoolError(`intrinsic gas too low: address ${checksum(sender)} tx gas (${tx.gasLimit}), minimum needed ${intrinsic}`);
    }
    const stateNonce = await head.getNonce(sender);
    if (tx.nonce < stateNonce) throw new TxPoolError(`nonce too low: next nonce ${stateNonce}, tx nonce ${tx.nonce}`);
    const balance = await head.getBalance(sender);
    if (head.superseded?.()) throw new PoolHeadMovedError();
    this.stateNonces.set(from, stateNonce);
    const cost = tx.gasLimit * cap + tx.value;
    if (balance < cost) {
      throw new TxPoolError(`insufficient funds for gas * price + value: balance ${balance}, tx cost ${cost}, overshot ${cost - balance}`);
    }
    let acct = this.accounts.get(from);
    let old = acct?.txs.get(tx.nonce);
    // geth 1.13's overdraft check (ExistingExpenditure / ExistingCost): the sender's executable
    // txs must all stay payable, a replacement counting only its extra cost.
    if (acct) {
      let spent = 0n;
      let prev: bigint | undefined;
      for (const q of this.split(from, stateNonce).pending) {
        const c = q.tx.gasLimit * feeCap(q.tx) + q.tx.value;
        spent += c;
        if (q.nonce === tx.nonce) prev = c;
      }
      const extra = prev === undefined ? cost : cost - prev;
      if (balance < spent + extra) {
        throw new TxPoolError(`insufficient funds for gas * price + value: balance ${balance}, queued cost ${spent}, tx cost ${extra}, overshot ${spent + extra - balance}`);
      }
    }
    if (this.slots + txSlots(raw) > this.limits.globalSlots + this.limits.globalQueue) {
      this.makeRoom(tx, from, raw, this.isExecutableNonce(from, tx.nonce, stateNonce));
      acct = this.accounts.get(from);
      old = acct?.txs.get(tx.nonce);
    }
    if (old) {
      // Replacement needs both caps bumped by tx-pool-price-bump percent; geth's thresholds are
      // old × (100 + bump) / 100 rounded down.
      const oldCap = feeCap(old.tx);
      const oldTip = tipCap(old.tx);
      const bump = 100n + this.limits.priceBump;
      if (cap <= oldCap || tip <= oldTip || cap < (oldCap * bump) / 100n || tip < (oldTip * bump) / 100n) {
        throw new TxPoolError('replacement transaction underpriced');
      }
    }
    // A replacement takes its predecessor's place, so it is executable when that one was.
    const executable = this.isExecutableNonce(from, tx.nonce, stateNonce);
    if (!old && (executable || !this.beats.has(from))) this.beats.set(from, this.now());
    // No limit refuses the tx here: as geth's reorg after an add, truncate() below trims the pool
    // back to its limits (the new tx itself may be what goes), and the hash is answered anyway.
    if (!acct) this.accounts.set(from, (acct = { txs: new Map() }));
    const p: PoolTx = { tx, hash, from, nonce: tx.nonce, seq: this.seq++, raw };
    if (old) this.forget(old.hash);
    acct.txs.set(tx.nonce, p);
    this.index(p);
    this.truncate([from]);
    // Only an executable tx makes txs executable: itself and the queued ones it closes the gap to.
    if (executable) this.announceExecutable(from, tx.nonce);
    return p;
  }

  /**
   * geth's reorg trimming (legacypool's promoteExecutables, truncatePending, truncateQueue; see
   * truncate.ts): the queued txs of each sender in `dirty` past tx-pool-account-queue, then the
   * executable txs past tx-pool-global-slots, then the queued txs past tx-pool-global-queue. Locals
   * are never trimmed. Returns the hashes dropped.
   */
  private truncate(dirty: Iterable<string>): string[] {
    const { accountSlots, globalSlots, accountQueue, globalQueue } = this.limits;
    const dropped: PoolTx[] = [];
    for (const from of dirty) {
      // A sender with no more txs than the cap has no more queued ones either (no split needed).
      if ((this.accounts.get(from)?.txs.size ?? 0) <= accountQueue || this.isLocal(from)) continue;
      dropped.push(...queueCapOverflow(this.split(from).queued, accountQueue));
    }
    for (const p of dropped) this.remove(p.hash);
    // The global limits need every sender's counts: only when the pool is big enough to pass one.
    if (this.all.size > Math.min(globalSlots, globalQueue)) {
      const pending = new Map<string, PoolTx[]>();
      const queued: { beat: number; list: PoolTx[] }[] = [];
      let pendingTotal = 0;
      let queuedTotal = 0;
      for (const from of this.accounts.keys()) {
        const s = this.split(from);
        pendingTotal += s.pending.length;
        queuedTotal += s.queued.length;
        if (this.isLocal(from)) continue;
        pending.set(from, s.pending);
        if (s.queued.length) queued.push({ beat: this.beats.get(from) ?? this.now(), list: s.queued });
      }
      const overflow = [...pendingOverflow(pending, pendingTotal, accountSlots, globalSlots), ...queueOverflow(queued, queuedTotal, globalQueue)];
      for (const p of overflow) this.remove(p.hash);
      dropped.push(...overflow);
    }
    return dropped.map((p) => p.hash);
  }

  /**
   * geth's add() when the pool holds tx-pool-global-slots + tx-pool-global-queue slots: a remote
   * tx priced no better than the cheapest remote one is `transaction underpriced`; else the
   * cheapest remote txs go to make room (`txpool is full` when they are not enough; a local tx
   * takes what there is), unless a gapped tx would push out an executable one.
   */
  private makeRoom(tx: TypedTransaction, from: string, raw: Uint8Array, executable: boolean): void {
    const local = this.isLocal(from);
    const remotes = cheapestFirst([...this.all.values()].filter((p) => !this.isLocal(p.from)));
    if (!local && remotes.length > 0 && !pricedAbove(tx, remotes[0].tx)) throw new TxPoolError('transaction underpriced');
    let need = this.slots - (this.limits.globalSlots + this.limits.globalQueue) + txSlots(raw);
    const drop: PoolTx[] = [];
    for (const p of remotes) {
      if (need <= 0) break;
      drop.push(p);
      need -= txSlots(p.raw);
    }
    if (need > 0 && !local) throw new TxPoolError('txpool is full');
    if (!local && !executable && drop.some((p) => this.split(p.from).pending.includes(p))) {
      throw new TxPoolError('future transaction tries to replace pending');
    }
    for (const p of drop) this.remove(p.hash);
  }

  private isLocal(from: string): boolean {
    return this.limits.allLocal || this.limits.locals.has(from);
  }

  /**
   * geth announces a tx (NewTxsEvent: newPendingTransactions, pending-tx filters) when it becomes
   * executable, not when it is queued: a sender's executable txs not announced yet, in nonce order.
   */
  private announceExecutable(from: string, fromNonce = this.stateNonces.get(from) ?? 0n): void {
    const acct = this.accounts.get(from);
    if (!acct) return;
    // The executable run from `fromNonce` (itself executable) on, walked by nonce (no split: this
    // runs with every add).
    let n = fromNonce;
    for (let p = acct.txs.get(n); p !== undefined; p = acct.txs.get(++n)) {
      if (this.announced.has(p.hash)) continue;
      this.announced.add(p.hash);
      for (const l of this.listeners) l(p);
    }
  }

  private isExecutableNonce(from: string, nonce: bigint, stateNonce: bigint): boolean {
    const acct = this.accounts.get(from);
    let n = stateNonce;
    while (n < nonce && acct?.txs.has(n)) n++;
    return n === nonce;
  }

  /**
   * Puts back the txs of a block that could not be written (reset() had dropped them): each into
   * its sender's nonce slot unless a tx took that slot meanwhile.
   */
  restore(txs: readonly PoolTx[]): void {
    for (const p of txs) {
      let acct = this.accounts.get(p.from);
      if (!acct) this.accounts.set(p.from, (acct = { txs: new Map() }));
      if (acct.txs.has(p.nonce) || this.all.has(p.hash)) continue;
      acct.txs.set(p.nonce, p);
      this.index(p);
      this.announced.add(p.hash); // announced when it first came
      const n = this.stateNonces.get(p.from);
      if (n === undefined || p.nonce < n) this.stateNonces.set(p.from, p.nonce);
    }
  }

  /** Pending (contiguous from the state nonce) and queued txs of one sender, in nonce order. */
  split(from: string, stateNonce = this.stateNonces.get(from) ?? 0n): { pending: PoolTx[]; queued: PoolTx[] } {
    const acct = this.accounts.get(from);
    if (!acct) return { pending: [], queued: [] };
    const pending: PoolTx[] = [];
    let n = stateNonce;
    while (acct.txs.has(n)) pending.push(acct.txs.get(n++)!);
    const queued = [...acct.txs.values()].filter((p) => p.nonce > n).sort((a, b) => (a.nonce < b.nonce ? -1 : 1));
    return { pending, queued };
  }

  senders(): string[] {
    return [...this.accounts.keys()];
  }

  counts(): { pending: number; queued: number } {
    let pending = 0;
    let queued = 0;
    for (const from of this.accounts.keys()) {
      const s = this.split(from);
      pending += s.pending.length;
      queued += s.queued.length;
    }
    return { pending, queued };
  }

  hasExecutable(): boolean {
    for (const [from, acct] of this.accounts) if (acct.txs.has(this.stateNonces.get(from) ?? 0n)) return true;
    return false;
  }

  /**
   * geth's "price and nonce" order: per sender in nonce order; across senders the highest
   * effective tip first, ties by arrival. Only txs whose fee cap covers `baseFee`. The miner
   * (fillTransactions) takes the locals' txs first, then the remotes' (reference §9.1).
   */
  *ordered(baseFee: bigint): Generator<PoolTx, void, boolean | undefined> {
    const heads: { list: PoolTx[]; i: number; local: boolean }[] = [];
    const { allLocal, locals } = this.limits;
    for (const from of this.accounts.keys()) {
      const { pending } = this.split(from);
      if (pending.length) heads.push({ list: pending, i: 0, local: allLocal || locals.has(from) });
    }
    const better = (ha: { list: PoolTx[]; i: number; local: boolean }, hb: { list: PoolTx[]; i: number; local: boolean }) => {
      if (ha.local !== hb.local) return ha.local;
      const a = ha.list[ha.i];
      const b = hb.list[hb.i];
      const ta = effectiveTip(a.tx, baseFee);
      const tb = effectiveTip(b.tx, baseFee);
      return ta !== tb ? ta > tb : a.seq < b.seq;
    };
    while (heads.length) {
      let best = 0;
      for (let k = 1; k < heads.length; k++) if (better(heads[k], heads[best])) best = k;
      const h = heads[best];
      const p = h.list[h.i];
      if (feeCap(p.tx) < baseFee) {
        heads.splice(best, 1); // this sender's later nonces cannot run either
        continue;
      }
      const skipSender = yield p;
      h.i++;
      if (skipSender || h.i >= h.list.length) heads.splice(best, 1);
    }
  }

  /**
   * After a new head (geth's reset and the reorg after it): drop txs whose nonce is now used and
   * refresh the state nonces; with `head.balance`, geth's list.Filter too — a tx whose cost (gas ×
   * fee cap + value) passes its sender's balance, or whose gas passes the head's gas limit, goes
   * (an executable one's later nonces are then queued behind the gap); then the limits.
   */
  async reset(head: PoolResetHead | ((from: string) => Promise<bigint>)): Promise<void> {
    const facts: PoolResetHead = typeof head === 'function' ? { nonce: head } : head;
    for (const [from, acct] of this.accounts) {
      const n = await facts.nonce(from);
      if (n !== this.stateNonces.get(from)) this.beats.set(from, this.now()); // progress
      this.stateNonces.set(from, n);
      for (const [nonce, p] of acct.txs) {
        if (nonce < n) {
          acct.txs.delete(nonce);
          this.forget(p.hash);
        }
      }
      if (facts.balance && acct.txs.size > 0) {
        const balance = await facts.balance(from);
        for (const [nonce, p] of acct.txs) {
          const tooCostly = p.tx.gasLimit * feeCap(p.tx) + p.tx.value > balance;
          if (tooCostly || (facts.gasLimit !== undefined && p.tx.gasLimit > facts.gasLimit)) {
            acct.txs.delete(nonce);
            this.forget(p.hash);
          }
        }
      }
      if (acct.txs.size === 0) {
        this.accounts.delete(from);
        this.stateNonces.delete(from);
        this.beats.delete(from);
      }
    }
    // geth's reorg after a reset: every sender's limits, then the txs that became executable.
    this.truncate([...this.accounts.keys()]);
    for (const from of this.accounts.keys()) this.announceExecutable(from);
  }

  /**
   * Drops the queued txs of every sender without progress for the lifetime (geth's eviction
   * loop; its executable txs stay; locals are never dropped). Returns the hashes dropped.
   */
  evictStale(): string[] {
    const dropped: string[] = [];
    const now = this.now();
    if (this.limits.allLocal) return dropped;
    for (const from of [...this.accounts.keys()]) {
      if (this.limits.locals.has(from) || now - (this.beats.get(from) ?? now) <= this.limits.lifetimeMs) continue;
      for (const p of this.split(from).queued) {
        this.remove(p.hash);
        dropped.push(p.hash);
      }
    }
    return dropped;
  }

  /** Removes one tx (e.g. it can never be included). */
  remove(hash: string): void {
    const p = this.all.get(hash);
    if (!p) return;
    this.forget(hash);
    const acct = this.accounts.get(p.from);
    acct?.txs.delete(p.nonce);
    if (acct && acct.txs.size === 0) {
      this.accounts.delete(p.from);
      this.beats.delete(p.from);
    }
  }

  private index(p: PoolTx): void {
    this.all.set(p.hash, p);
    this.slots += txSlots(p.raw);
  }

  /** Takes a tx out of the hash index (its sender's slot is the caller's business). */
  private forget(hash: string): void {
    const p = this.all.get(hash);
    if (!p) return;
    this.all.delete(hash);
    this.slots -= txSlots(p.raw);
    this.announced.delete(hash);
  }

  clear(): void {
    this.all.clear();
    this.slots = 0;
    this.announced.clear();
    this.accounts.clear();
    this.stateNonces.clear();
    this.beats.clear();
  }

  /** Next nonce a sender would use, counting its pending txs (eth_getTransactionCount "pending"). */
  pendingNonce(from: string, stateNonce: bigint): bigint {
    const acct = this.accounts.get(from);
    let n = stateNonce;
    // Go's uint64 wraps: after a pending tx at nonce 2^64-1 geth's pool names 0.
    while (acct?.txs.has(n)) n = (n + 1n) & 0xffffffffffffffffn;
    return n;
  }
}

function checksum(a: Address): string {
  return checksumAddress(a.toString());
}

export const supportsEip155 = (tx: TypedTransaction) => tx.type !== 0 || tx.supports(Capability.EIP155ReplayProtection);
