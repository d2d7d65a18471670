// The node's embedded key/value database: LMDB (durable, ACID) or memory (--db-type=memdb).
// Each user (the node itself, each chain) gets its own named store inside one environment.
import type { RootDatabase, Database as LmdbDatabase } from 'lmdb';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { MemStore } from './memStore.js';

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
