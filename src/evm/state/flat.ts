// A flat read cache in front of the Merkle tries. A trie's content is fixed by its root, so a
// value read at (root, key) never changes: accounts are cached under the account trie's root,
// storage slots under the account's storage root. Shared by the block builder's state and every
// read view of one chain (content addressing makes sharing safe), bounded by entry count.
// Reads that hit it skip the key hashing, the trie walk and the node decoding.
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { CODEHASH_PREFIX, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, EthereumJSErrorWithoutCode, concatBytes, createAccountFromRLP, createAddressFromString, unpadBytes, type Address } from '@ethereumjs/util';
import { hexOf } from '../../hexOf.js';
import { BatchTrie, NodeCache, trieGet, type NodeStore } from './batchTrie.js';
import { NOT_NOW, type NotNow, type ReadsNow } from './readsNow.js';

type Slot = Uint8Array | null;

const EMPTY = new Uint8Array(0);
const RLP_EMPTY = Uint8Array.from([0x80]);

/**
 * Where a trie key's preimage is stored beside the trie nodes: its hash after the byte 'p' (33
 * bytes, so it can never be a node's 32-byte hash key).
 */
export function preimageKey(hash: Uint8Array): Uint8Array {
  const k = new Uint8Array(33);
  k[0] = 0x70;
  k.set(hash, 1);
  return k;
}

/**
 * Accounts decoded from their RLP, by the RLP's Uint8Array instance: the state caches hand out
 * the same instance until the account is written again, and the EVM reads an account many times
 * per tx (createAccountFromRLP ~3 µs, a copy of the fields ~0.06 µs). Callers get a fresh copy,
 * as they may change the account they read.
 */
const decodedAccounts = new WeakMap<Uint8Array, Account>();

/** A new Account with the same fields (the byte arrays are shared: they are replaced, never changed). */
export const copyAccount = (a: Account) => new Account(a.nonce, a.balance, a.storageRoot, a.codeHash);

export function accountFromRLP(rlp: Uint8Array): Account {
  let a = decodedAccounts.get(rlp);
  if (a === undefined) {
    a = createAccountFromRLP(rlp);
    decodedAccounts.set(rlp, a);
  }
  return copyAccount(a);
}

export class FlatCache {
  /** trie root (hex) → key (hex) → RLP value or null (absent). Oldest root first. */
  private readonly byRoot = new Map<string, Map<string, Slot>>();
  private entries = 0;
  constructor(private readonly maxEntries = 200_000) {}

  get(root: string, key: string): Slot | undefined {
    return this.byRoot.get(root)?.get(key);
  }

  /**
   * The account trie went from `from` to `to` by exactly `writes` (key → RLP or null): the
   * entries known at `from` carry over to `to` (they are moved, not copied: old states are
   * rarely read again, and a miss only costs a trie walk).
   */
  rebase(from: string, to: string, writes: Map<string, Slot>): void {
    const old = this.byRoot.get(from);
    if (!old) {
      for (const [k, v] of writes) this.set(to, k, v);
      return;
    }
    this.byRoot.delete(from);
    const cur = this.byRoot.get(to);
    const counted = old.size + (cur?.size ?? 0);
    if (cur) for (const [k, v] of cur) old.set(k, v);
    for (const [k, v] of writes) old.set(k, v);
    this.byRoot.set(to, old);
    // Kept up to date here rather than recounted over every root (one map per storage root seen).
    this.entries += old.size - counted;
    this.evict();
  }

  private evict(): void {
    // Drop whole oldest roots: old states are the least likely to be read again.
    while (this.entries > this.maxEntries && this.byRoot.size > 0) {
      const [oldRoot, old] = this.byRoot.entries().next().value!;
      this.entries -= old.size;
      this.byRoot.delete(oldRoot);
    }
  }

  set(root: string, key: string, value: Slot): void {
    let m = this.byRoot.get(root);
    if (!m) {
      m = new Map();
      this.byRoot.set(root, m);
    }
    if (!m.has(key)) this.entries++;
    m.set(key, value);
    this.evict();
  }
}

/**
 * MerkleStateManager whose trie reads of accounts and storage go through a FlatCache, and whose
 * flush updates the tries in one batch each (BatchTrie) instead of one @ethereumjs/mpt put per key.
 */
/** A node database with synchronous access, keyed by unprefixed hex (trieDB.ts). */
interface SyncNodeDB {
  getSync(key: string): Uint8Array | undefined;
  putSync(key: string, val: Uint8Array): void;
}

export class FlatStateManager extends MerkleStateManager implements ReadsNow {
  constructor(
    opts: ConstructorParameters<typeof MerkleStateManager>[0],
    private readonly flat: FlatCache,
    private readonly nodeCache: NodeCache,
    /** Subnet-EVM's preimages-enabled: store each trie key under its hash when it is written. */
    private readonly recordPreimages = false,
    /**
     * Entries (accounts, code, storage slots) the caches may hold after a flush before they are
     * dropped whole. @ethereumjs's ordered-map caches ignore their size option, so a long-lived
     * state (the block builder's) would otherwise keep every account and slot it ever touched.
     * Dropping them loses nothing: what they held is in the tries, and the flat cache answers it.
     */
    private readonly maxCacheEntries = Infinity,
  ) {
    super(opts);
  }

  /** Accounts, codes and storage slots the caches hold (the storage cache counts addresses itself). */
  cacheEntries(): number {
    const c = this._caches;
    if (!c) return 0;
    let n = (c.account?.size() ?? 0) + (c.code?.size() ?? 0);
    const byAddress = (c.storage as unknown as { _orderedMapCache?: { forEach(f: (e: [string, Map<string, unknown>]) => void): void } } | undefined)
      ?._orderedMapCache;
    if (byAddress) byAddress.forEach(([, slots]) => (n += slots.size));
    else n += c.storage?.size() ?? 0;
    return n;
  }

  /** A trie over this state's nodes (all flushed so far) rooted at `root`, e.g. a storage root to walk. */
  trieAt(root: Uint8Array): MerklePatriciaTrie {
    const trie = this._trie.shallowCopy(false);
    trie.root(root);
    return trie;
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const now = this.accountNow(address);
    return now !== NOT_NOW ? now : this.accountFrom(await this._trie.get(address.bytes), address);
  }

  /** The account from the caches, the flat cache or a synchronous trie walk (ReadsNow). */
  accountNow(address: Address): Account | undefined | NotNow {
    const elem = this._caches?.account?.get(address);
    if (elem !== undefined) return elem.accountRLP !== undefined ? accountFromRLP(elem.accountRLP) : undefined;
    const rlp = this.flat.get(hexOf(this._trie.root()), hexOf(address.bytes));
    if (rlp !== undefined) return this.accountFrom(rlp, address, false);
    const getNode = this.syncNodeReader();
    return getNode ? this.accountFrom(trieGet(this._trie.root(), this.hashKey(address.bytes), getNode, this.nodeCache), address) : NOT_NOW;
  }

  /** The account of trie value `rlp`, remembered in the caches (and the flat cache when read from the trie). */
  private accountFrom(rlp: Uint8Array | null, address: Address, fromTrie = true): Account | undefined {
    if (fromTrie) this.flat.set(hexOf(this._trie.root()), hexOf(address.bytes), rlp);
    const account = rlp !== null ? accountFromRLP(rlp) : undefined;
    this._caches?.account?.put(address, account);
    return account;
  }

  /** The code from the code cache or the synchronous node store (ReadsNow). */
  codeNow(address: Address): Uint8Array | NotNow {
    const elem = this._caches?.code?.get(address);
    if (elem !== undefined) return elem.code ?? EMPTY;
    const account = this.accountNow(address);
    if (account === NOT_NOW) return NOT_NOW;
    if (!account || !account.isContract()) return EMPTY;
    const db = this.syncNodeDB();
    if (db === undefined) return NOT_NOW;
    const key = this._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, account.codeHash) : account.codeHash;
    return db.getSync(hexOf(key)) ?? EMPTY;
  }

  /**
   * The account cache serializes what is put; the next read of the account would decode that RLP
   * again, so the account (a copy: the caller may go on changing its object) is remembered for it.
   */
  override putAccount(address: Address, account: Account | undefined): Promise<void> {
    // With an account cache the base class has put the account when it returns (its async body
    // has no await on that path), so its promise is handed on rather than awaited here.
    const done = super.putAccount(address, account);
    if (account === undefined) return done;
    const rlp = this._caches?.account?.get(address)?.accountRLP;
    if (rlp !== undefined) decodedAccounts.set(rlp, copyAccount(account));
    return done;
  }

  // Trie checkpoints are taken when the trie is first written inside them, not at checkpoint().
  // With all three caches, a run writes nothing to the trie until a flush (which commit and revert
  // do only at the outermost level), so every transaction's two or three checkpoints would each
  // cost the trie a lock, a checkpoint layer and a commit that merges nothing: ~25 promises per
  // ERC-20 transfer (docs/performance.md, session 19). `lazyTrieCheckpoints` counts the innermost
  // levels with no trie checkpoint yet; since nothing wrote the trie since they began, taking them
  // later (flush, before its first write) gives the trie the same content to return to.
  private lazyTrieCheckpoints = 0;

  private cachesEverything(): boolean {
    const c = this._caches;
    return c?.account !== undefined && c.storage !== undefined && c.code !== undefined;
  }

  override async checkpoint(): Promise<void> {
    if (!this.cachesEverything()) return super.checkpoint();
    this.lazyTrieCheckpoints++;
    this._caches!.checkpoint();
    this._checkpointCount++;
  }

  override async commit(): Promise<void> {
    if (this.lazyTrieCheckpoints === 0) return super.commit();
    this.lazyTrieCheckpoints--;
    this._caches!.commit();
    await this.leaveCheckpoint();
  }

  override async revert(): Promise<void> {
    if (this.lazyTrieCheckpoints === 0) return super.revert();
    this.lazyTrieCheckpoints--;
    this._caches!.revert();
    this._storageTries = {};
    await this.leaveCheckpoint();
  }

  /** What the base class's commit and revert do after their trie and cache steps. */
  private async leaveCheckpoint(): Promise<void> {
    this._checkpointCount--;
    if (this._checkpointCount === 0) {
      await this.flush();
      this.originalStorageCache.clear();
    }
  }

  /**
   * Writes the cached changes into the tries and records the account writes so the flat entries
   * follow the new root. Storage and account changes go through BatchTrie (same nodes and roots as
   * @ethereumjs/mpt); flushes inside a trie checkpoint take the original path.
   */
  override async flush(): Promise<void> {
    const trie = this._trie;
    // A flush inside checkpoints writes the trie: the checkpoints it must be able to undo first.
    for (; this.lazyTrieCheckpoints > 0; this.lazyTrieCheckpoints--) trie.checkpoint();
    const before = hexOf(trie.root());
    const writes = new Map<string, Slot>();
    const db = this.syncNodeDB();
    if (db === undefined) await this.flushThroughTrie(writes);
    else await this.flushBatched(writes, { get: (h) => db.getSync(hexOf(h)), put: (h, enc) => db.putSync(hexOf(h), enc) });
    const after = hexOf(trie.root());
    if (after !== before) this.flat.rebase(before, after, writes);
    // Outside every checkpoint the caches hold nothing unwritten (they were just flushed).
    if (this._checkpointCount === 0 && this.maxCacheEntries !== Infinity && this.cacheEntries() > this.maxCacheEntries) this._caches?.clear();
  }

  /** Stores `preimage` under its hash once (the same accounts are written block after block). */
  private recordPreimage(store: NodeStore, hash: Uint8Array, preimage: Uint8Array): void {
    const k = preimageKey(hash);
    if (store.get(k) === undefined) store.put(k, preimage);
  }

  /**
   * The trie's node database (TrieNodeDB, or a view's OverlayDB), read and written synchronously,
   * when every node this state can reach is in it: not inside a trie checkpoint (whose writes sit
   * in the trie's own checkpoint layer; outside one, that layer writes straight through, and nodes
   * are content-addressed, so nothing its cache holds can differ) and without prefixed storage
   * keys. Otherwise undefined: the trie's own paths. Used by trieGet's reads and BatchTrie's flush.
   */
  private syncNodeDB(): SyncNodeDB | undefined {
    if (this._prefixStorageTrieKeys || this._trie.hasCheckpoints()) return undefined;
    const db = (this._trie.database() as unknown as { db?: Partial<SyncNodeDB> }).db;
    return typeof db?.getSync === 'function' && typeof db.putSync === 'function' ? (db as SyncNodeDB) : undefined;
  }

  /** Reads trie nodes synchronously for trieGet (the decoded-node walk), when syncNodeDB allows. */
  private syncNodeReader(): ((hashHex: string) => Uint8Array | undefined) | undefined {
    const db = this.syncNodeDB();
    if (db === undefined) return undefined;
    return (this.nodeReader ??= (h: string) => db.getSync(h));
  }
  private nodeReader?: (hashHex: string) => Uint8Array | undefined;

  /** The trie key of an address or slot (the chain's keccak, as the base class uses). */
  private hashKey(b: Uint8Array): Uint8Array {
    return (this as unknown as { keccakFunction(b: Uint8Array): Uint8Array }).keccakFunction(b);
  }

  private async flushBatched(writes: Map<string, Slot>, store: NodeStore): Promise<void> {
    const trie = this._trie;
    // Code as the base class flushes it. The code cache also holds code that was only read: code
    // already stored under its hash (content addressing) is not stored again, and an account
    // whose code hash already matches is not marked as changed (the same trie either way).
    const codeItems = this._caches?.code?.flush() ?? [];
    const codeDB = this._getCodeDB();
    for (const [addrHex, elem] of codeItems) {
      const code = elem.code;
      if (code === undefined) continue;
      const addr = createAddressFromString(`0x${addrHex}`);
      const codeHash = this.hashKey(code);
      const key = this._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, codeHash) : codeHash;
      if ((await codeDB.get(key)) === undefined) await codeDB.put(key, code);
      const account = await this.getAccount(addr);
      if (account === undefined) await this.putAccount(addr, new Account());
      if (account === undefined || Buffer.compare(account.codeHash, codeHash) !== 0) await this.modifyAccountFields(addr, { codeHash });
    }
    const storageItems = this._caches?.storage?.flush() ?? [];
    const byAddress = new Map<string, [Uint8Array, Uint8Array | null][]>();
    for (const [addrHex, keyHex, value] of storageItems) {
      const decoded = RLP.decode(value ?? EMPTY) as Uint8Array;
      let list = byAddress.get(addrHex);
      if (!list) byAddress.set(addrHex, (list = []));
      list.push([Buffer.from(keyHex, 'hex'), decoded instanceof Uint8Array && decoded.length ? RLP.encode(decoded) : null]);
    }
    for (const [addrHex, slots] of byAddress) {
      const address = createAddressFromString(`0x${addrHex}`);
      const account = await this.getAccount(address);
      if (!account) continue;
      const st = new BatchTrie(account.storageRoot, store, this.nodeCache);
      for (const [key, value] of slots) {
        const hash = this.hashKey(key);
        if (this.recordPreimages) this.recordPreimage(store, hash, key);
        st.update(hash, value);
      }
      account.storageRoot = st.commit();
      await this.putAccount(address, account);
    }
    const accountItems = this._caches?.account?.flush() ?? [];
    if (accountItems.length) {
      const at = new BatchTrie(trie.root(), store, this.nodeCache);
      for (const [addrHex, elem] of accountItems) {
        const value = elem.accountRLP ?? null;
        writes.set(addrHex, value && value.length ? value : null);
        const address = Buffer.from(addrHex, 'hex');
        const hash = this.hashKey(address);
        if (this.recordPreimages) this.recordPreimage(store, hash, address);
        at.update(hash, value);
      }
      trie.root(at.commit());
    }
    // Storage tries cached by the base class would still point at the old storage roots.
    if (byAddress.size) this._storageTries = {};
  }

  /** The original flush (one @ethereumjs/mpt put per key), recording the account writes. */
  private async flushThroughTrie(writes: Map<string, Slot>): Promise<void> {
    const trie = this._trie;
    const put = trie.put;
    const del = trie.del;
    trie.put = (key: Uint8Array, value: Uint8Array | null, skip?: boolean) => {
      writes.set(hexOf(key), value && value.length ? value : null);
      return put.call(trie, key, value, skip);
    };
    trie.del = (key: Uint8Array, skip?: boolean) => {
      writes.set(hexOf(key), null);
      return del.call(trie, key, skip);
    };
    try {
      await super.flush();
    } finally {
      delete (trie as { put?: unknown }).put;
      delete (trie as { del?: unknown }).del;
    }
  }

  /**
   * With a storage cache, a write goes to the cache only; flush() puts it in the storage trie.
   * (The base class also writes every SSTORE through to the storage trie at once — its
   * `cache.put(...) ?? write()` always takes the right side as put returns nothing — which
   * costs a trie update per SSTORE and changes nothing: flush applies the same writes.)
   */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const cache = this._caches?.storage;
    if (!cache) return super.putStorage(address, key, value);
    if (key.length !== 32) throw EthereumJSErrorWithoutCode('Storage key must be 32 bytes long');
    if (value.length > 32) throw EthereumJSErrorWithoutCode('Storage value cannot be longer than 32 bytes');
    if (!(await this.getAccount(address))) throw EthereumJSErrorWithoutCode('putStorage() called on non-existing account');
    cache.put(address, key, RLP.encode(unpadBytes(value)));
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const now = this.storageNow(address, key);
    if (now !== NOT_NOW) return now;
    const account = await this.getAccount(address);
    if (!account) return new Uint8Array();
    return this.slotFrom(await this._getStorageTrie(address, account).get(key), address, key, account);
  }

  /** A slot from the caches, the flat cache or a synchronous trie walk (ReadsNow). */
  storageNow(address: Address, key: Uint8Array): Uint8Array | NotNow {
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long');
    const cached = this._caches?.storage?.get(address, key);
    if (cached !== undefined) return RLP.decode(cached ?? EMPTY) as Uint8Array;
    const account = this.accountNow(address);
    if (account === NOT_NOW) return NOT_NOW;
    if (!account) return new Uint8Array();
    const value = this.flat.get(hexOf(account.storageRoot), hexOf(key));
    if (value !== undefined) return this.slotFrom(value, address, key, account, false);
    const getNode = this.syncNodeReader();
    return getNode ? this.slotFrom(trieGet(account.storageRoot, this.hashKey(key), getNode, this.nodeCache), address, key, account) : NOT_NOW;
  }

  /** The slot of trie value `value`, remembered in the caches (and the flat cache when read from the trie). */
  private slotFrom(value: Uint8Array | null, address: Address, key: Uint8Array, account: Account, fromTrie = true): Uint8Array {
    if (fromTrie) this.flat.set(hexOf(account.storageRoot), hexOf(key), value);
    this._caches?.storage?.put(address, key, value ?? RLP_EMPTY);
    return RLP.decode(value ?? EMPTY) as Uint8Array;
  }
}
