// The chain: genesis, the canonical blocks, receipts, lookups and the state at each block.
// With one validator every built block is accepted at once, so "last accepted" = head.
import { RLP } from '@ethereumjs/rlp';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { Account, Address } from '@ethereumjs/util';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { KVStore } from '../../db/database.js';
import { BoundedMap } from '../../boundedMap.js';
import { accountFromRLP } from '../state/flat.js';
import { StateStore } from '../state/state.js';
import { Commons, forkFor, type EvmFork } from './common.js';
import { ChainStore, type Op, type StoredReceipt } from './store.js';
import { recallGenesisState, rememberGenesisState } from './genesisMemo.js';
import { EMPTY_ROOT, EMPTY_UNCLE_HASH, decodeHeader, encodeHeader, hashHeader, type ChainHeader } from './header.js';
import type { ChainRulesView } from './consensus.js';
import { withSender } from './exec.js';
import { orderedTrieRootSync } from './orderedTrie.js';
import { hex0x, hexOf } from '../../hexOf.js';

export interface Block {
  hash: Uint8Array;
  hashHex: string;
  header: ChainHeader;
  rawTxs: Uint8Array[];
  senders: Uint8Array[];
  /** Decoded lazily. */
  _txs?: TypedTransaction[];
}

const hex = hex0x;

/** Which mined transactions keep a hash → block lookup (eth_getTransactionByHash/Receipt). */
export interface TxIndexConfig {
  /** Only the last `history` blocks' transactions (0 = all). */
  history: bigint;
  /** No lookups are written for new blocks. */
  skip: boolean;
}

export class Blockchain {
  readonly store: ChainStore;
  readonly state: StateStore;
  readonly commons: Commons;
  head!: Block;
  /** State root of the head: the header's, or the one left by test-control edits. */
  headStateRoot!: Uint8Array;
  /**
   * Recent blocks by hash (hex) and their receipts (the last 64 and 128 at least; older ones are
   * decoded from the store). Each cached block keeps its decoded transactions alive, and larger
   * caches measurably added GC work to every block (performance.md, session 10).
   */
  private readonly cache = new BoundedMap<string, Block>(128);
  private readonly receiptCache = new BoundedMap<string, StoredReceipt[]>(256);

  constructor(
    db: KVStore,
    readonly rules: ChainRulesView,
    /** transaction-history / skip-tx-indexing of the VM config (geth's TxLookupLimit). */
    private readonly txIndex: TxIndexConfig = { history: 0n, skip: false },
  ) {
    this.store = new ChainStore(db);
    this.state = new StateStore(db);
    this.commons = new Commons(rules.chainId);
  }

  /**
   * Loads the head, or writes the genesis block (with `genesisOps`, written in the same
   * transaction). True when it wrote the genesis block. With `stateKey` (genesisMemo.ts; asked only
   * when the genesis block is written), the genesis state's nodes come from the last chain of this
   * process whose state had that key.
   */
  async init(genesisState: (sm: MerkleStateManager) => Promise<void>, genesisHeader: (stateRoot: Uint8Array) => ChainHeader, genesisOps: Op[] = [], stateKeyOf?: () => string): Promise<boolean> {
    const headHash = this.store.head();
    if (headHash) {
      const b = this.blockByHash(headHash);
      if (!b) throw new Error('database corrupt: head block missing');
      this.head = b;
      this.headStateRoot = this.store.stateOverride(headHash) ?? b.header.stateRoot;
      await this.unindexBeyondHistory();
      return false;
    }
    const stateKey = stateKeyOf?.();
    let state = stateKey === undefined ? undefined : recallGenesisState(stateKey);
    if (!state) {
      const sm = this.state.live(this.commons.get('cancun'), EMPTY_ROOT);
      await sm.checkpoint();
      await genesisState(sm);
      await sm.commit();
      state = { root: await sm.getStateRoot(), nodes: this.state.nodes.takeBatch() };
      if (stateKey !== undefined) rememberGenesisState(stateKey, state.nodes, state.root);
    }
    const { root } = state;
    const header = genesisHeader(root);
    const hash = hashHeader(header);
    const block: Block = { hash, hashHex: hex(hash), header, rawTxs: [], senders: [] };
    const ops: Op[] = [...state.nodes, ...this.blockOps(block, []), ...genesisOps];
    // Committed synchronously (nothing else is in flight yet): the chain answers only once this
    // is durable, and lmdb-js's write thread took ~6 ms longer to hand the commit back
    // (docs/performance.md, session 32).
    await this.store.writeNow(ops);
    this.state.nodes.settle();
    this.head = block;
    this.headStateRoot = root;
    return true;
  }

  forkAt(timestamp: bigint): EvmFork {
    return forkFor(this.rules.rulesAt(timestamp));
  }

  /** The block's writes; `headerRLP`: its header's encoding when the caller has it (it hashed it). */
  blockOps(block: Block, receipts: StoredReceipt[], headerRLP = encodeHeader(block.header)): Op[] {
    const ops: Op[] = [
      this.store.bodyOp(block.hash, { headerRLP, txs: block.rawTxs, senders: block.senders }),
      this.store.receiptsOp(block.hash, receipts),
      this.store.canonOp(block.header.number, block.hash),
      this.store.headOp(block.hash),
    ];
    if (!this.txIndex.skip) this.txsOf(block).forEach((tx, i) => ops.push(this.store.txLookupOp(tx.hash(), block.header.number, i)));
    // With a transaction history, the block leaving the window loses its lookups in the same write.
    const { history } = this.txIndex;
    if (history > 0n && block.header.number > history) {
      ops.push(...this.unindexOps(block.header.number - history), this.store.txIndexTailOp(block.header.number - history + 1n));
    }
    return ops;
  }

  /** Deletes block `n`'s tx lookups (none for a block without txs or one not found). */
  private unindexOps(n: bigint): Op[] {
    const b = this.blockByNumber(n);
    return b ? this.txsOf(b).map((tx) => this.store.txLookupOp(tx.hash(), n, null)) : [];
  }

  /**
   * At start with a transaction history (set, or made shorter, since the chain last ran): removes
   * the lookups of blocks now behind the window, from its edge down to the stored tail (the blocks
   * below it are unindexed already), so a restart reads only the blocks that left the window.
   */
  private async unindexBeyondHistory(): Promise<void> {
    const { history } = this.txIndex;
    if (history === 0n || this.head.header.number <= history) return;
    const edge = this.head.header.number - history;
    const tail = this.store.txIndexTail() ?? 1n;
    if (tail > edge) return;
    const ops: Op[] = [];
    for (let n = edge; n >= tail; n--) ops.push(...this.unindexOps(n));
    ops.push(this.store.txIndexTailOp(edge + 1n));
    await this.store.write(ops);
  }

  /** Makes `block` the head once its write is durable. */
  accepted(block: Block, receipts: StoredReceipt[], stateRoot: Uint8Array): void {
    this.remember(block);
    this.receiptCache.set(block.hashHex, receipts);
    this.head = block;
    this.headStateRoot = stateRoot;
  }

  /** Undoes accepted() for a block whose write failed: `parent` is the head again. */
  unaccept(block: Block, parent: Block, parentStateRoot: Uint8Array): void {
    if (this.head === block) this.unacceptRun([block], parent, parentStateRoot);
  }

  /** Undoes accepted() for a run of blocks whose write failed (oldest first): `parent` is the head again. */
  unacceptRun(blocks: Block[], parent: Block, parentStateRoot: Uint8Array): void {
    for (const b of blocks) {
      this.cache.delete(b.hashHex);
      this.receiptCache.delete(b.hashHex);
    }
    this.head = parent;
    this.headStateRoot = parentStateRoot;
  }

  private remember(b: Block): void {
    this.cache.set(b.hashHex, b);
  }

  blockByHash(hash: Uint8Array): Block | undefined {
    const key = hex(hash);
    const c = this.cache.get(key);
    if (c) return c;
    const body = this.store.body(hash);
    if (!body) return undefined;
    const b: Block = { hash: Uint8Array.from(hash), hashHex: key, header: decodeHeader(body.headerRLP), rawTxs: body.txs, senders: body.senders };
    this.remember(b);
    return b;
  }

  /** Canonical block by number (only up to the head). */
  blockByNumber(n: bigint): Block | undefined {
    if (n > this.head.header.number || n < 0n) return undefined;
    if (n === this.head.header.number) return this.head;
    const h = this.store.canonicalHash(n);
    return h ? this.blockByHash(h) : undefined;
  }

  /** Canonical: the block at its number is this one. */
  isCanonical(b: Block): boolean {
    const h = this.store.canonicalHash(b.header.number);
    return !!h && Buffer.compare(h, b.hash) === 0 && b.header.number <= this.head.header.number;
  }

  receipts(b: Block): StoredReceipt[] {
    let r = this.receiptCache.get(b.hashHex);
    if (!r) {
      r = this.store.receipts(b.hash) ?? [];
      this.receiptCache.set(b.hashHex, r);
    }
    return r;
  }

  txsOf(b: Block): TypedTransaction[] {
    if (!b._txs) {
      const common = this.commons.get(this.forkAt(b.header.timestamp));
      b._txs = b.rawTxs.map((raw, i) => {
        const tx = createTxFromRLP(raw, { common, freeze: false });
        // Unfrozen (withSender defines methods on it), the package's hash() would serialize the
        // tx again on every call (receipt and tx lookups, filters): its answer is kept instead.
        let hash: Uint8Array | undefined;
        const own = tx.hash.bind(tx);
        Object.defineProperty(tx, 'hash', { value: () => (hash ??= own()), configurable: true });
        return withSender(tx, new Address(b.senders[i]));
      });
    }
    return b._txs;
  }

  /** Where a tx was included (canonical only). */
  findTx(hash: Uint8Array): { block: Block; index: number } | undefined {
    const l = this.store.txLookup(hash);
    if (!l || l.number > this.head.header.number) return undefined;
    const block = this.blockByNumber(l.number);
    if (!block || l.index >= block.rawTxs.length) return undefined;
    return { block, index: l.index };
  }

  /** State root to read for a block: the head may carry test-control edits. */
  /**
   * The state `b`'s successors were built on: its header's root, or the root a test control's
   * edit (anvil_set*) left while it was the head (kept per block, so replays of the next block
   * start from what it really ran on).
   */
  stateRootOf(b: Block): Uint8Array {
    if (b === this.head || b.hashHex === this.head.hashHex) return this.headStateRoot;
    return this.store.stateOverride(b.hash) ?? b.header.stateRoot;
  }

  stateView(b: Block): MerkleStateManager {
    return this.state.view(this.commons.get(this.forkAt(b.header.timestamp)), this.stateRootOf(b));
  }

  private headView?: { root: string; sm: MerkleStateManager };
  /** A read-only view (never written to): cached for the head's state, shared by readers. */
  readView(b: Block): MerkleStateManager {
    const root = this.stateRootOf(b);
    const key = hex(root);
    if (this.headView?.root === key) return this.headView.sm;
    const sm = this.state.readOnly(this.commons.get(this.forkAt(b.header.timestamp)), root);
    if (b.hashHex === this.head.hashHex) this.headView = { root: key, sm };
    return sm;
  }

  /**
   * The account at `b`'s state when the shared flat cache already holds it (no trie read, no
   * await): an empty account for an absent one; undefined when it is not cached.
   */
  cachedAccount(b: Block, addrHex: string): Account | undefined {
    const rlp = this.state.flat.get(hexOf(this.stateRootOf(b)), addrHex.slice(2));
    if (rlp === undefined) return undefined;
    return rlp === null ? new Account() : accountFromRLP(rlp);
  }

  async accountAt(b: Block, address: Address): Promise<Account> {
    return (await this.readView(b).getAccount(address)) ?? new Account();
  }

  /**
   * Rewinds the chain to block `n` (evm_revert): later blocks leave the canonical index.
   */
  async rewindTo(n: bigint, stateRoot: Uint8Array | undefined): Promise<void> {
    const target = this.blockByNumber(n);
    if (!target) throw new Error(`unknown block ${n}`);
    const ops: Op[] = [];
    for (let k = this.head.header.number; k > n; k--) {
      const b = this.blockByNumber(k);
      if (!b) continue;
      for (const tx of this.txsOf(b)) ops.push(this.store.txLookupOp(tx.hash(), k, null));
      ops.push(this.store.canonOp(k, null));
      this.cache.delete(b.hashHex);
    }
    ops.push(this.store.headOp(target.hash));
    const root = stateRoot ?? target.header.stateRoot;
    ops.push(this.store.stateOverrideOp(target.hash, Buffer.compare(root, target.header.stateRoot) === 0 ? null : root));
    await this.store.write(ops);
    this.head = target;
    this.headStateRoot = root;
  }

  /** Persists a state edit of the head (anvil_setBalance & co.): at once unless a write is in flight. */
  async setHeadState(root: Uint8Array): Promise<void> {
    const ops: Op[] = [...this.state.nodes.takeBatch(), this.store.stateOverrideOp(this.head.hash, root)];
    await this.store.writeNow(ops);
    this.state.nodes.settle();
    this.headStateRoot = root;
  }
}

/** Root of the trie {rlp(i) → item}, as for transactions and receipts. */
export async function orderedTrieRoot(items: Uint8Array[]): Promise<Uint8Array> {
  return orderedTrieRootSync(items);
}

export { EMPTY_UNCLE_HASH };
