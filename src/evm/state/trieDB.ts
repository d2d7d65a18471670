// The state trie's node store: trie nodes and contract code live in the chain's LMDB store under
// the prefix "s". Writes made while a block is built are buffered in memory and handed to the
// block's single LMDB transaction (takeBatch), so a block and its state land on disk together.
import type { BatchDBOp, DB, EncodingOpts } from '@ethereumjs/util';
import type { KVStore } from '../../db/database.js';

const PREFIX = 0x73; // 's'

function dbKey(key: string): Uint8Array {
  const hex = key.length % 2 ? '0' + key : key;
  const out = Buffer.allocUnsafe(1 + hex.length / 2);
  out[0] = PREFIX;
  out.write(hex, 1, 'hex');
  return out;
}

function toBytes(v: string | Uint8Array): Uint8Array {
  return typeof v === 'string' ? Buffer.from(v.startsWith('0x') ? v.slice(2) : v, 'hex') : v;
}

/** Live node store: reads see buffered writes; takeBatch() drains them for the block commit. */
export class TrieNodeDB implements DB<string, string | Uint8Array> {
  /** Written, not yet handed to LMDB. */
  private pending = new Map<string, Uint8Array | null>();
  /** Handed to an LMDB transaction that may not have committed yet. */
  private inFlight = new Map<string, Uint8Array | null>();

  constructor(private readonly store: KVStore) {}

  async get(key: string, _opts?: EncodingOpts): Promise<Uint8Array | undefined> {
    return this.getSync(key);
  }
  getSync(key: string): Uint8Array | undefined {
    let v = this.pending.get(key);
    if (v === undefined) v = this.inFlight.get(key);
    if (v === null) return undefined;
    if (v !== undefined) return v;
    return this.store.get(dbKey(key));
  }
  async put(key: string, val: string | Uint8Array): Promise<void> {
    this.putSync(key, val);
  }
  putSync(key: string, val: string | Uint8Array): void {
    this.pending.set(key, toBytes(val));
  }
  async del(_key: string): Promise<void> {
    // Archive node: trie nodes are content-addressed and shared between states; never deleted.
  }
  async batch(ops: BatchDBOp<string, string | Uint8Array>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.pending.set(op.key, toBytes(op.value));
  }
  shallowCopy(): DB<string, string | Uint8Array> {
    return this;
  }
  async open(): Promise<void> {}

  /** Moves buffered writes into the returned LMDB ops; call settle() once they are durable. */
  takeBatch(): [Uint8Array, Uint8Array | null][] {
    const ops: [Uint8Array, Uint8Array | null][] = [];
    for (const [k, v] of this.pending) {
      ops.push([dbKey(k), v]);
      this.inFlight.set(k, v);
    }
    this.pending = new Map();
    return ops;
  }
  settle(): void {
    this.inFlight = new Map();
  }
  /** Forgets buffered writes of a block that was abandoned. */
  discard(): void {
    this.pending = new Map();
  }
}

/** A read-only view for calls and tracing: writes stay in a private overlay and are dropped. */
export class OverlayDB implements DB<string, string | Uint8Array> {
  private readonly overlay = new Map<string, Uint8Array>();
  constructor(private readonly base: TrieNodeDB) {}
  async get(key: string): Promise<Uint8Array | undefined> {
    return this.getSync(key);
  }
  getSync(key: string): Uint8Array | undefined {
    return this.overlay.get(key) ?? this.base.getSync(key);
  }
  async put(key: string, val: string | Uint8Array): Promise<void> {
    this.putSync(key, val);
  }
  putSync(key: string, val: string | Uint8Array): void {
    this.overlay.set(key, toBytes(val));
  }
  async del(): Promise<void> {}
  async batch(ops: BatchDBOp<string, string | Uint8Array>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.overlay.set(op.key, toBytes(op.value));
  }
  shallowCopy(): DB<string, string | Uint8Array> {
    return this;
  }
  async open(): Promise<void> {}
}
