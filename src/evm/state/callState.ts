// The state eth_call and eth_estimateGas run on: a StateReader holds what one state root contains
// (decoded accounts, storage values, code), kept across calls on that root — a root's content never
// changes, so nothing in it can go stale — and a CallState is the EVM's state manager for a run: a
// journaled overlay of the run's writes over the reader, checkpointed and reverted like
// MerkleStateManager's caches. A call thus costs map lookups for what earlier calls on the same
// state already read, instead of trie walks, RLP decoding and a fresh copy of every cache.
//
// Semantics follow MerkleStateManager (the state manager blocks are built with): storage is read
// at the account's current storageRoot, deleted accounts have no storage, clearStorage empties it,
// putStorage needs an existing account and stores unpadded values.
import { RLP } from '@ethereumjs/rlp';
import { CODEHASH_PREFIX, OriginalStorageCache, type MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, EthereumJSErrorWithoutCode, KECCAK256_NULL, KECCAK256_RLP, concatBytes, equalsBytes, unpadBytes, type Address } from '@ethereumjs/util';
import type { AccountFields, StateManagerInterface } from '@ethereumjs/common';
import { hexOf } from '../../hexOf.js';
import { keccak256 } from '../crypto.js';
import { trieGet } from './batchTrie.js';
import { copyAccount } from './flat.js';
import type { StateStore } from './state.js';
import { NOT_NOW, readsNow, type NotNow, type ReadsNow } from './readsNow.js';
import { SETTLED, settledOf } from '../settled.js';
import { addressHex } from '../addressHex.js';

const EMPTY = new Uint8Array(0);
const copyOrNone = (a: Account | undefined): Account | undefined => (a ? copyAccount(a) : undefined);

/**
 * Entries a reader keeps before it starts over (memory bound; a miss only costs a flat-cache
 * lookup or a trie read). Each slot entry keeps ~150 bytes of heap, and a reader outlives the head
 * it was made for.
 */
const MAX_READER_ENTRIES = 16_384;

/** What one state root contains, read once and kept (content addressing: it never changes). */
export class StateReader {
  private readonly accounts = new Map<string, Account | null>();
  /** storageRoot hex → slot hex → value (unpadded) of the slots read that hold one. */
  private readonly slots = new Map<string, Map<string, Uint8Array>>();
  private slotCount = 0;
  /**
   * The storage root last read and its hex: a call's reads are mostly of one contract, whose
   * account (and root array: roots are replaced, never written in place) it reads again and again.
   */
  private lastRoot: Uint8Array | undefined;
  private lastRootHex = '';
  private lastCodeHash: Uint8Array | undefined;
  private lastCodeHashHex = '';
  /** code hash hex → code (the same instance every time, so per-code caches keyed by it hit). */
  private readonly codes = new Map<string, Uint8Array>();
  private readonly getNode = (hashHex: string) => this.store.nodes.getSync(hashHex);

  constructor(
    readonly root: Uint8Array,
    private readonly base: MerkleStateManager,
    private readonly store: StateStore,
  ) {}

  // The three reads answer what they hold without a promise: a call makes ~10 of them, and each
  // promise an async function hands to another costs microtask turns (docs/performance.md,
  // session 19). Only a first read of an account or a code waits for the base state.

  /** The account at this root (shared: callers must not change it). */
  account(address: Address, addrHex: string): Account | undefined | Promise<Account | undefined> {
    const a = this.accounts.get(addrHex);
    if (a !== undefined) return a ?? undefined;
    return this.loadAccount(address, addrHex);
  }

  /** The account at this root without waiting (ReadsNow), when the base state can tell it at once. */
  accountNow(address: Address, addrHex: string): Account | undefined | NotNow {
    const a = this.accounts.get(addrHex);
    if (a !== undefined) return a ?? undefined;
    const now = readsNow(this.base)?.accountNow(address) ?? NOT_NOW;
    if (now === NOT_NOW) return NOT_NOW;
    this.bound(this.accounts);
    this.accounts.set(addrHex, now ?? null);
    return now;
  }

  /** The code with hash `codeHash` without waiting (ReadsNow): this reader's, or the base state's when it is that code. */
  codeNow(address: Address, codeHash: Uint8Array): Uint8Array | NotNow {
    const known = this.codes.get(hexOf(codeHash));
    if (known !== undefined) return known;
    const c = readsNow(this.base)?.codeNow(address) ?? NOT_NOW;
    return c !== NOT_NOW && equalsBytes(keccak256(c), codeHash) ? c : NOT_NOW;
  }

  private async loadAccount(address: Address, addrHex: string): Promise<Account | undefined> {
    const a = (await this.base.getAccount(address)) ?? null;
    this.bound(this.accounts);
    this.accounts.set(addrHex, a);
    return a ?? undefined;
  }

  /** The value of `slot` in the storage trie whose root is `storageRoot`. */
  slot(storageRoot: Uint8Array, slot: Uint8Array): Uint8Array {
    let rootHex = this.lastRootHex;
    if (storageRoot !== this.lastRoot) {
      rootHex = this.lastRootHex = hexOf(storageRoot);
      this.lastRoot = storageRoot;
    }
    // (Maps by root, then by slot: one key of 128 characters, made and hashed for every read,
    // cost more than two lookups by strings whose hashes V8 keeps; docs/performance.md, session 41.)
    const slotHex = hexOf(slot);
    let bySlot = this.slots.get(rootHex);
    let v = bySlot?.get(slotHex);
    if (v === undefined) {
      let rlp = this.store.flat.get(rootHex, slotHex);
      if (rlp === undefined) {
        rlp = trieGet(storageRoot, keccak256(slot), this.getNode, this.store.trieNodes);
        // Only a value found goes to the shared flat cache: its entries stay until it holds
        // 200,000 (old roots are dropped only then).
        if (rlp !== null) this.store.flat.set(rootHex, slotHex, rlp);
      }
      if (rlp === null) {
        // Nor is an absence remembered here: a stream of calls that each read a new slot (a new
        // holder per balanceOf) made each one's key (~130 characters) an entry that outlived two
        // scavenges, for V8 to copy into the old generation and sweep later (~4 µs per such call
        // in process, docs/performance.md, session 39). Reading one again walks the trie's decoded
        // nodes again (~1–2 µs); a repeated call is answered by the call cache before it runs.
        return EMPTY;
      }
      v = RLP.decode(rlp) as Uint8Array;
      if (this.slotCount >= MAX_READER_ENTRIES) {
        this.slots.clear();
        this.slotCount = 0;
        bySlot = undefined;
      }
      if (bySlot === undefined) this.slots.set(rootHex, (bySlot = new Map()));
      bySlot.set(slotHex, v);
      this.slotCount++;
    }
    return v;
  }

  /** The code of `address`, whose account (at any state) has `codeHash`. */
  code(address: Address, codeHash: Uint8Array): Uint8Array | Promise<Uint8Array> {
    // (heldCode keeps the last code hash's hex as the last root's is kept: an account's hash array
    // is replaced, never written.)
    return this.heldCode(codeHash) ?? this.loadCode(address, codeHash, this.lastCodeHashHex);
  }

  /** The code with hash `codeHash` if this reader has read it (the instance `code` gives). */
  heldCode(codeHash: Uint8Array): Uint8Array | undefined {
    let hashHex = this.lastCodeHashHex;
    if (codeHash !== this.lastCodeHash) {
      hashHex = this.lastCodeHashHex = hexOf(codeHash);
      this.lastCodeHash = codeHash;
    }
    return this.codes.get(hashHex);
  }

  private async loadCode(address: Address, codeHash: Uint8Array, hashHex: string): Promise<Uint8Array> {
    // Code is stored by hash, so the base state's code DB has it whatever root it is read at.
    let c = await this.base.getCode(address);
    if (!equalsBytes(keccak256(c), codeHash)) c = await this.codeByHash(codeHash);
    this.bound(this.codes);
    this.codes.set(hashHex, c);
    return c;
  }

  private async codeByHash(codeHash: Uint8Array): Promise<Uint8Array> {
    const db = (this.base as unknown as { _getCodeDB(): { get(k: Uint8Array): Promise<Uint8Array | undefined> } })._getCodeDB();
    const prefixed = (this.base as unknown as { _prefixCodeHashes: boolean })._prefixCodeHashes;
    const key = prefixed ? concatBytes(CODEHASH_PREFIX, codeHash) : codeHash;
    return (await db.get(key)) ?? EMPTY;
  }

  private bound(m: Map<string, unknown>): void {
    if (m.size >= MAX_READER_ENTRIES) m.clear();
  }
}

type Undo = () => void;

/** The EVM's state manager for calls: the run's writes, journaled, over a StateReader. */
export class CallState implements StateManagerInterface, ReadsNow {
  /** address hex → the account as the run left it (null: deleted). */
  private readonly accounts = new Map<string, Account | null>();
  /** address hex → slot hex → value written (unpadded). A cleared or deleted account gets a fresh map. */
  private readonly storage = new Map<string, Map<string, Uint8Array>>();
  /** address hex → code put by the run, with its hash. */
  private readonly codes = new Map<string, { code: Uint8Array; hash: Uint8Array }>();
  /** Undo logs of the open checkpoints, innermost last. */
  private readonly frames: Undo[][] = [];
  readonly originalStorageCache: OriginalStorageCache;

  constructor(readonly reader: StateReader) {
    this.originalStorageCache = new OriginalStorageCache(this.getStorage.bind(this));
  }

  private undo(f: Undo): void {
    this.frames[this.frames.length - 1]?.push(f);
  }

  private setAccount(addrHex: string, a: Account | null): void {
    if (this.frames.length) {
      const had = this.accounts.has(addrHex);
      const prev = this.accounts.get(addrHex);
      this.undo(() => (had ? this.accounts.set(addrHex, prev!) : this.accounts.delete(addrHex)));
    }
    this.accounts.set(addrHex, a);
  }

  /** Replaces the address's written slots with an empty map (storage cleared or account deleted). */
  private resetStorage(addrHex: string): void {
    if (this.frames.length) {
      const prev = this.storage.get(addrHex);
      this.undo(() => (prev ? this.storage.set(addrHex, prev) : this.storage.delete(addrHex)));
    }
    this.storage.set(addrHex, new Map());
  }

  /** The account as this run sees it (its own write, else the reader's); a value when it can. */
  private current(address: Address, addrHex: string): Account | undefined | Promise<Account | undefined> {
    const own = this.accounts.get(addrHex);
    if (own !== undefined) return own ?? undefined;
    return this.reader.account(address, addrHex);
  }

  // The reads and the journal's steps below hand back a promise without being async functions:
  // what the run already holds comes back in an already-settled promise, with no await inside
  // (each one a microtask turn, ~15 per call; docs/performance.md, session 19). A throw still
  // arrives as a rejection, as from an async function (each a `try` around settledOf;
  // settled.ts).

  getAccount(address: Address): Promise<Account | undefined> {
    try {
      const a = this.current(address, addressHex(address));
      return a instanceof Promise ? a.then(copyOrNone) : settledOf(copyOrNone(a));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /**
   * What getAccount would resolve to (a copy), without its promise, when the run or the reader
   * holds the account (or the reader's base state tells it at once); NOT_NOW otherwise.
   */
  getAccountNow(address: Address): Account | undefined | NotNow {
    const a = this.accountNow(address);
    return a === NOT_NOW ? NOT_NOW : copyOrNone(a);
  }

  /**
   * What getCode would resolve to — the very array, which per-code caches (the jump analysis) are
   * keyed by — without its promise, when the account and its code are held; NOT_NOW otherwise.
   */
  getCodeNow(address: Address): Uint8Array | NotNow {
    return this.codeAtOnce(address, false);
  }

  putAccount(address: Address, account?: Account): Promise<void> {
    try {
      const addrHex = addressHex(address);
      if (account === undefined) this.removeAccount(addrHex);
      else this.setAccount(addrHex, copyAccount(account));
      return SETTLED;
    } catch (e) {
      return Promise.reject(e);
    }
  }

  async deleteAccount(address: Address): Promise<void> {
    this.removeAccount(addressHex(address));
  }

  private removeAccount(addrHex: string): void {
    this.setAccount(addrHex, null);
    this.resetStorage(addrHex);
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account();
    account.nonce = fields.nonce ?? account.nonce;
    account.balance = fields.balance ?? account.balance;
    account.storageRoot = fields.storageRoot ?? account.storageRoot;
    account.codeHash = fields.codeHash ?? account.codeHash;
    await this.putAccount(address, account);
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    const addrHex = addressHex(address);
    if (this.frames.length) {
      const prev = this.codes.get(addrHex);
      this.undo(() => (prev ? this.codes.set(addrHex, prev) : this.codes.delete(addrHex)));
    }
    const hash = keccak256(value);
    this.codes.set(addrHex, { code: value, hash });
    await this.modifyAccountFields(address, { codeHash: hash });
  }

  getCode(address: Address): Promise<Uint8Array> {
    try {
      const addrHex = addressHex(address);
      const a = this.current(address, addrHex);
      return a instanceof Promise ? a.then((account) => this.codeOf(address, addrHex, account)) : settledOf(this.codeOf(address, addrHex, a));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private codeOf(address: Address, addrHex: string, account: Account | undefined): Uint8Array | Promise<Uint8Array> {
    if (!account || equalsBytes(account.codeHash, KECCAK256_NULL)) return EMPTY;
    const own = this.codes.get(addrHex);
    if (own !== undefined && equalsBytes(own.hash, account.codeHash)) return own.code;
    return this.reader.code(address, account.codeHash);
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length;
  }

  getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    try {
      if (key.length !== 32) throw EthereumJSErrorWithoutCode('Storage key must be 32 bytes long');
      const addrHex = addressHex(address);
      const own = this.storage.get(addrHex);
      if (own) {
        const v = own.get(hexOf(key));
        if (v !== undefined) return Promise.resolve(v);
      }
      // Below the run's writes: the trie at the account's current storage root (empty after
      // clearStorage; a deleted account has none), as MerkleStateManager reads it.
      const a = this.current(address, addrHex);
      return a instanceof Promise ? a.then((account) => this.slotOf(account, key)) : Promise.resolve(this.slotOf(a, key));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  // ReadsNow: the run's own writes, else the reader's without waiting.
  accountNow(address: Address): Account | undefined | NotNow {
    const addrHex = addressHex(address);
    const own = this.accounts.get(addrHex);
    if (own !== undefined) return own ?? undefined;
    return this.reader.accountNow(address, addrHex);
  }

  storageNow(address: Address, key: Uint8Array): Uint8Array | NotNow {
    const addrHex = addressHex(address);
    const v = this.storage.get(addrHex)?.get(hexOf(key));
    if (v !== undefined) return v;
    const a = this.accountNow(address);
    return a === NOT_NOW ? NOT_NOW : this.slotOf(a, key);
  }

  codeNow(address: Address): Uint8Array | NotNow {
    return this.codeAtOnce(address, true);
  }

  /**
   * The code as the run sees it, without waiting: the run's own, the reader's, and — `readBase` —
   * the base state's when the reader has not read it yet (ReadsNow's codeNow; a different array
   * from the one getCode will keep, and hashed to check it, so getCodeNow answers NOT_NOW instead).
   */
  private codeAtOnce(address: Address, readBase: boolean): Uint8Array | NotNow {
    const addrHex = addressHex(address);
    const account = this.accountNow(address);
    if (account === NOT_NOW) return NOT_NOW;
    if (!account || equalsBytes(account.codeHash, KECCAK256_NULL)) return EMPTY;
    const own = this.codes.get(addrHex);
    if (own !== undefined && equalsBytes(own.hash, account.codeHash)) return own.code;
    return readBase ? this.reader.codeNow(address, account.codeHash) : (this.reader.heldCode(account.codeHash) ?? NOT_NOW);
  }

  private slotOf(account: Account | undefined, key: Uint8Array): Uint8Array {
    return account ? this.reader.slot(account.storageRoot, key) : EMPTY;
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    if (key.length !== 32) throw EthereumJSErrorWithoutCode('Storage key must be 32 bytes long');
    if (value.length > 32) throw EthereumJSErrorWithoutCode('Storage value cannot be longer than 32 bytes');
    const addrHex = addressHex(address);
    if (!(await this.current(address, addrHex))) throw EthereumJSErrorWithoutCode('putStorage() called on non-existing account');
    let own = this.storage.get(addrHex);
    if (!own) {
      if (this.frames.length) this.undo(() => this.storage.delete(addrHex));
      this.storage.set(addrHex, (own = new Map()));
    }
    const slotHex = hexOf(key);
    if (this.frames.length) {
      const m = own;
      const had = m.has(slotHex);
      const prev = m.get(slotHex);
      this.undo(() => (had ? m.set(slotHex, prev!) : m.delete(slotHex)));
    }
    own.set(slotHex, unpadBytes(value));
  }

  async clearStorage(address: Address): Promise<void> {
    const addrHex = addressHex(address);
    const account = (await this.current(address, addrHex)) ?? new Account();
    this.resetStorage(addrHex);
    const a = copyAccount(account);
    a.storageRoot = KECCAK256_RLP;
    this.setAccount(addrHex, a);
  }

  checkpoint(): Promise<void> {
    this.frames.push([]);
    return SETTLED;
  }

  commit(): Promise<void> {
    const top = this.frames.pop();
    if (!top) return Promise.reject(EthereumJSErrorWithoutCode('commit without a checkpoint'));
    const parent = this.frames[this.frames.length - 1];
    if (parent) for (const u of top) parent.push(u);
    return SETTLED;
  }

  revert(): Promise<void> {
    try {
      const top = this.frames.pop();
      if (!top) throw EthereumJSErrorWithoutCode('revert without a checkpoint');
      for (let i = top.length - 1; i >= 0; i--) top[i]();
      return SETTLED;
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** The root the run started from (a call's post-state root is never computed). */
  async getStateRoot(): Promise<Uint8Array> {
    return this.reader.root;
  }

  async setStateRoot(): Promise<void> {
    throw EthereumJSErrorWithoutCode('a call state is fixed to its root');
  }

  async hasStateRoot(root: Uint8Array): Promise<boolean> {
    return equalsBytes(root, this.reader.root);
  }

  clearCaches(): void {}

  shallowCopy(): StateManagerInterface {
    return new CallState(this.reader);
  }
}
