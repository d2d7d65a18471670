// The node's embedded key/value database: LMDB (durable, ACID) or memory (--db-type=memdb).
// Each user (the node itself, each chain) gets its own named store inside one environment.
import type { RootDatabase, Database as LmdbDatabase } from 'lmdb';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';

// lmdb is loaded only when an LMDB database is opened: loading it maps its native module and
// allocates 16 MiB of write buffers, which a --db-type=memdb node never uses.
const requireLmdb = () => createRequire(import.meta.url)('lmdb') as typeof import('lmdb');

export type Key = Uint8Array;
export type Value = Uint8Array;

export interface KVStore {
  get(key: Key): Value | undefined;
  has(key: Key): boolean;
  /** Entries with start <= key < end (byte order), optionally reversed or limited. */
  range(opts: { start?: Key; end?: Key; reverse?: boolean; limit?: number }): Iterable<{ key: Key; value: Value }>;
  /** Writes all ops atomically; the promise resolves once they are durable. null deletes. */
  write(ops: Iterable<[Key, Value | null]>): Promise<void>;
  /** Same as write, committed synchronously (durable on return). */
  writeSync(ops: Iterable<[Key, Value | null]>): void;
}

export interface Database {
  readonly type: 'lmdb' | 'memdb';
  /** A named store; the same name always returns the same store. */
  store(name: string): KVStore;
  readonly closed: boolean;
  close(): Promise<void>;
}

export function openDatabase(type: 'lmdb' | 'memdb', path: string): Database {
  return type === 'memdb' ? new MemDatabase() : new LmdbDatabaseImpl(path);
}

class LmdbStore implements KVStore {
  constructor(private readonly db: LmdbDatabase<Buffer, Buffer>) {}
  get(key: Key): Value | undefined {
    return this.db.getBinary(Buffer.from(key.buffer, key.byteOffset, key.byteLength)) as Value | undefined;
  }
  has(key: Key): boolean {
    return this.db.doesExist(Buffer.from(key.buffer, key.byteOffset, key.byteLength));
  }
  *range(opts: { start?: Key; end?: Key; reverse?: boolean; limit?: number }): Iterable<{ key: Key; value: Value }> {
    // The limit is applied here, not by lmdb: a reverse range may yield (and skip) the end key first.
    const o: Record<string, unknown> = { reverse: opts.reverse ?? false };
    if (opts.limit !== undefined && !opts.reverse) o.limit = opts.limit;
    let n = 0;
    // lmdb-js reverse ranges take start as the upper bound.
    const lo = opts.start ? Buffer.from(opts.start) : undefined;
    const hi = opts.end ? Buffer.from(opts.end) : undefined;
    if (opts.reverse) {
      if (hi) o.start = hi;
      if (lo) o.end = lo;
    } else {
      if (lo) o.start = lo;
      if (hi) o.end = hi;
    }
    for (const { key, value } of this.db.getRange(o)) {
      if (opts.reverse && hi && Buffer.compare(key as Buffer, hi) >= 0) continue;
      if (opts.limit !== undefined && n++ >= opts.limit) return;
      yield { key: key as Buffer, value: value as Buffer };
    }
  }
  write(ops: Iterable<[Key, Value | null]>): Promise<void> {
    const list = [...ops];
    return this.db.transaction(() => {
      for (const [k, v] of list) {
        if (v === null) this.db.remove(Buffer.from(k));
        else this.db.put(Buffer.from(k), Buffer.from(v.buffer, v.byteOffset, v.byteLength));
      }
    }) as Promise<void>;
  }
  writeSync(ops: Iterable<[Key, Value | null]>): void {
    this.db.transactionSync(() => {
      for (const [k, v] of ops) {
        if (v === null) this.db.removeSync(Buffer.from(k));
        else this.db.putSync(Buffer.from(k), Buffer.from(v.buffer, v.byteOffset, v.byteLength));
      }
    });
  }
}

class LmdbDatabaseImpl implements Database {
  readonly type = 'lmdb' as const;
  private readonly root: RootDatabase;
  private readonly stores = new Map<string, LmdbStore>();
  closed = false;
  constructor(path: string) {
    mkdirSync(path, { recursive: true });
    this.root = requireLmdb().open({ path, maxDbs: 256, keyEncoding: 'binary', encoding: 'binary', mapSize: 2 ** 34 });
  }
  store(name: string): KVStore {
    let s = this.stores.get(name);
    if (!s) {
      const db = this.root.openDB<Buffer, Buffer>({ name, keyEncoding: 'binary', encoding: 'binary' });
      this.stores.set(name, (s = new LmdbStore(db)));
    }
    return s;
  }
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.root.close();
  }
}

/** Keys as one-byte strings: half the size of hex, and string order = byte order. */
function binKey(k: Key): string {
  return Buffer.from(k.buffer, k.byteOffset, k.byteLength).toString('latin1');
}

const SLAB_BYTES = 1 << 20;

/**
 * In-memory store, compact: the values live back to back in 1 MiB slabs (a 4-byte length before
 * each), the index maps a key to the value's address (slab × SLAB_BYTES + offset). One Uint8Array +
 * ArrayBuffer per value would cost ~200 bytes of object overhead and a malloc each (the values are
 * mostly trie nodes and small block records, ~100 bytes), and give the GC one more object to trace.
 * Values are copied in on write; get() returns a view of the slab (the stored bytes, like the old
 * store returned the stored copy). Space of overwritten and deleted values is reclaimed by
 * compacting once it outweighs the live data.
 */
class MemStore implements KVStore {
  private readonly index = new Map<string, number>();
  private slabs: Uint8Array[] = [];
  private cur: Uint8Array | undefined;
  private pos = 0;
  private liveBytes = 0;
  private deadBytes = 0;

  private read(addr: number): Value {
    const slab = this.slabs[Math.floor(addr / SLAB_BYTES)]!;
    const o = addr % SLAB_BYTES;
    const len = ((slab[o]! << 24) | (slab[o + 1]! << 16) | (slab[o + 2]! << 8) | slab[o + 3]!) >>> 0;
    return slab.subarray(o + 4, o + 4 + len);
  }

  private append(v: Uint8Array): number {
    const need = v.byteLength + 4;
    let slab: Uint8Array;
    let o: number;
    if (need > SLAB_BYTES) {
      // A value larger than a slab gets a slab of its own.
      slab = new Uint8Array(need);
      this.slabs.push(slab);
      o = 0;
    } else {
      if (!this.cur || this.pos + need > SLAB_BYTES) {
        this.cur = new Uint8Array(SLAB_BYTES);
        this.slabs.push(this.cur);
        this.pos = 0;
      }
      slab = this.cur;
      o = this.pos;
      this.pos += need;
    }
    const n = v.byteLength;
    slab[o] = n >>> 24;
    slab[o + 1] = (n >>> 16) & 0xff;
    slab[o + 2] = (n >>> 8) & 0xff;
    slab[o + 3] = n & 0xff;
    slab.set(v, o + 4);
    this.liveBytes += need;
    return (this.slabs.length - 1) * SLAB_BYTES + o;
  }

  private forget(addr: number): void {
    const slab = this.slabs[Math.floor(addr / SLAB_BYTES)]!;
    const o = addr % SLAB_BYTES;
    const need = (((slab[o]! << 24) | (slab[o + 1]! << 16) | (slab[o + 2]! << 8) | slab[o + 3]!) >>> 0) + 4;
    this.liveBytes -= need;
    this.deadBytes += need;
  }

  /** Rewrites the live values into fresh slabs (views handed out earlier keep the old slabs alive). */
  private compact(): void {
    const old = [...this.index].map(([k, addr]) => [k, this.read(addr)] as const);
    this.slabs = [];
    this.cur = undefined;
    this.pos = 0;
    this.liveBytes = 0;
    this.deadBytes = 0;
    for (const [k, v] of old) this.index.set(k, this.append(v));
  }

  get(key: Key): Value | undefined {
    const addr = this.index.get(binKey(key));
    return addr === undefined ? undefined : this.read(addr);
  }
  has(key: Key): boolean {
    return this.index.has(binKey(key));
  }
  *range(opts: { start?: Key; end?: Key; reverse?: boolean; limit?: number }): Iterable<{ key: Key; value: Value }> {
    const lo = opts.start ? binKey(opts.start) : undefined;
    const hi = opts.end ? binKey(opts.end) : undefined;
    // Plain < on one-byte strings compares char codes, i.e. bytes.
    const keys = [...this.index.keys()].filter((k) => (lo === undefined || k >= lo) && (hi === undefined || k < hi)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (opts.reverse) keys.reverse();
    let n = 0;
    for (const k of keys) {
      if (opts.limit !== undefined && n++ >= opts.limit) return;
      const addr = this.index.get(k);
      if (addr === undefined) continue; // deleted while iterating
      yield { key: Buffer.from(k, 'latin1'), value: this.read(addr) };
    }
  }
  writeSync(ops: Iterable<[Key, Value | null]>): void {
    for (const [k, v] of ops) {
      const key = binKey(k);
      const prev = this.index.get(key);
      if (prev !== undefined) this.forget(prev);
      if (v === null) this.index.delete(key);
      else this.index.set(key, this.append(v));
    }
    if (this.deadBytes > 4 * SLAB_BYTES && this.deadBytes > this.liveBytes) this.compact();
  }
  async write(ops: Iterable<[Key, Value | null]>): Promise<void> {
    this.writeSync(ops);
  }
}

class MemDatabase implements Database {
  readonly type = 'memdb' as const;
  private readonly stores = new Map<string, MemStore>();
  closed = false;
  store(name: string): KVStore {
    let s = this.stores.get(name);
    if (!s) this.stores.set(name, (s = new MemStore()));
    return s;
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}
