// A flat read cache in front of the Merkle tries. A trie's content is fixed by its root, so a
// value read at (root, key) never changes: accounts are cached under the account trie's root,
// storage slots under the account's storage root. Shared by the block builder's state and every
// read view of one chain (content addressing makes sharing safe), bounded by entry count.
// Reads that hit it skip the key hashing, the trie walk and the node decoding.
import { RLP } from '@ethereumjs/rlp';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { createAccountFromRLP, type Account, type Address } from '@ethereumjs/util';

type Slot = Uint8Array | null;

const hexOf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const EMPTY = new Uint8Array(0);
const RLP_EMPTY = Uint8Array.from([0x80]);

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
    if (cur) for (const [k, v] of cur) old.set(k, v);
    for (const [k, v] of writes) old.set(k, v);
    this.byRoot.set(to, old);
    this.recount();
  }

  private recount(): void {
    let n = 0;
    for (const m of this.byRoot.values()) n += m.size;
    this.entries = n;
    this.evict();
  }

  private evict(): void {
    // Drop whole oldest roots: old states are the least likely to be read again.
    while (this.entries > this.maxEntries && this.byRoot.size > 1) {
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

/** MerkleStateManager whose trie reads of accounts and storage go through a FlatCache. */
export class FlatStateManager extends MerkleStateManager {
  constructor(
    opts: ConstructorParameters<typeof MerkleStateManager>[0],
    private readonly flat: FlatCache,
  ) {
    super(opts);
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const elem = this._caches?.account?.get(address);
    if (elem !== undefined) return elem.accountRLP !== undefined ? createAccountFromRLP(elem.accountRLP) : undefined;
    const root = hexOf(this._trie.root());
    const key = hexOf(address.bytes);
    let rlp = this.flat.get(root, key);
    if (rlp === undefined) {
      rlp = await this._trie.get(address.bytes);
      this.flat.set(root, key, rlp);
    }
    const account = rlp !== null ? createAccountFromRLP(rlp) : undefined;
    this._caches?.account?.put(address, account);
    return account;
  }

  /** Flushes into the trie, recording the account writes so the flat entries follow the new root. */
  override async flush(): Promise<void> {
    const trie = this._trie;
    const before = hexOf(trie.root());
    const writes = new Map<string, Slot>();
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
    const after = hexOf(trie.root());
    if (after !== before) this.flat.rebase(before, after, writes);
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long');
    const cached = this._caches?.storage?.get(address, key);
    if (cached !== undefined) return RLP.decode(cached ?? EMPTY) as Uint8Array;
    const account = await this.getAccount(address);
    if (!account) return new Uint8Array();
    const root = hexOf(account.storageRoot);
    const k = hexOf(key);
    let value = this.flat.get(root, k);
    if (value === undefined) {
      value = await this._getStorageTrie(address, account).get(key);
      this.flat.set(root, k, value);
    }
    this._caches?.storage?.put(address, key, value ?? RLP_EMPTY);
    return RLP.decode(value ?? EMPTY) as Uint8Array;
  }
}
