// The in-memory key/value store behind --db-type=memdb.
//
// It holds the whole chain (a dev chain after 24,000 transfers: ~240,000 entries, mostly ~170-byte
// trie nodes under 33-byte keys), so its shape decides the node's memory. Nothing per entry lives on
// the JS heap: keys and values are copied back to back into 1 MiB slabs, and the index is an
// open-addressing hash table in two typed arrays. A Map<string, …> index cost ~85 heap bytes per
// entry (the key string plus the map entry, ~20 MiB for the chain above), a rehash of its backing
// store several MiB more, and the GC traced every entry on each full collection.
import type { KVStore, Key, Value } from './database.js';

const SLAB_BYTES = 1 << 20;

/**
 * A slab's bytes, not zeroed: only bytes a record wrote are ever read. `new Uint8Array(n)` zeroes
 * all n at once, touching every page of a slab the moment it is made (256 page faults for 1 MiB,
 * ~4 ms of a cold start on a host where a fault costs ~16 µs); memory from malloc is faulted in
 * as records fill it. A plain Uint8Array view, so values read back are not Buffers.
 */
function newSlab(n: number): Uint8Array {
  const b = Buffer.allocUnsafeSlow(n);
  return new Uint8Array(b.buffer, b.byteOffset, n);
}
/** Record header: u32 value length, u32 key length; then the key bytes, then the value bytes. */
const HEADER = 8;
/** Records start on 4-byte boundaries, so a slot can hold address / 4 in 32 bits (16 GiB). */
const ALIGN = 4;
const MIN_SLOTS = 1 << 10;
/** Slot contents besides a record's address / ALIGN + 1. */
const EMPTY = 0;
const DELETED = 0xffffffff;

function hashKey(k: Uint8Array): number {
  // FNV-1a: keys are short (≤ 40 bytes), and some (block numbers) differ only in their last bytes.
  let h = 0x811c9dc5;
  for (let i = 0; i < k.length; i++) h = Math.imul(h ^ k[i]!, 0x01000193);
  return h >>> 0;
}

function slotOf(addr: number): number {
  const slot = addr / ALIGN + 1;
  // Never reached in practice (16 GiB in one process's memory database), but never silently wrong.
  if (slot >= DELETED) throw new Error('memdb: more than 16 GiB stored in one store; use --db-type=lmdb');
  return slot;
}
const addrOf = (slot: number) => (slot - 1) * ALIGN;

const readU32 = (b: Uint8Array, o: number) => ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
function writeU32(b: Uint8Array, o: number, n: number): void {
  b[o] = n >>> 24;
  b[o + 1] = (n >>> 16) & 0xff;
  b[o + 2] = (n >>> 8) & 0xff;
  b[o + 3] = n & 0xff;
}

/**
 * Values are copied in on write; get() returns a view of the slab (the stored bytes). Space of
 * overwritten and deleted records is reclaimed by compacting once it outweighs the live data; views
 * handed out earlier keep their old slab alive and unchanged.
 */
export class MemStore implements KVStore {
  /** Record address / ALIGN + 1 per slot, or EMPTY / DELETED. Linear probing; at most half full. */
  private slots = new Uint32Array(MIN_SLOTS);
  /** The key hash per occupied slot: most probes that miss never touch the record. */
  private hashes = new Uint32Array(MIN_SLOTS);
  /** Slots not EMPTY (live + DELETED): what bounds the probe length. */
  private occupied = 0;
  private live = 0;
  private slabs: Uint8Array[] = [];
  private cur: Uint8Array | undefined;
  /** The current slab's index in `slabs` (a record larger than a slab may have been pushed after it). */
  private curIndex = 0;
  private pos = 0;
  private liveBytes = 0;
  private deadBytes = 0;

  /** The slot holding `key`, or -1. */
  private find(key: Key, h: number): number {
    const mask = this.slots.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = this.slots[i]!;
      if (s === EMPTY) return -1;
      if (s !== DELETED && this.hashes[i] === h && this.keyAt(addrOf(s), key)) return i;
    }
  }

  private keyAt(addr: number, key: Key): boolean {
    const slab = this.slabs[Math.floor(addr / SLAB_BYTES)]!;
    const o = addr % SLAB_BYTES;
    if (readU32(slab, o + 4) !== key.length) return false;
    const k = o + HEADER;
    for (let i = 0; i < key.length; i++) if (slab[k + i] !== key[i]) return false;
    return true;
  }

  private valueAt(addr: number): Value {
    const slab = this.slabs[Math.floor(addr / SLAB_BYTES)]!;
    const o = addr % SLAB_BYTES;
    const start = o + HEADER + readU32(slab, o + 4);
    return slab.subarray(start, start + readU32(slab, o));
  }

  private keyCopyAt(addr: number): Buffer {
    const slab = this.slabs[Math.floor(addr / SLAB_BYTES)]!;
    const o = addr % SLAB_BYTES;
    return Buffer.from(slab.subarray(o + HEADER, o + HEADER + readU32(slab, o + 4)));
  }

  private recordBytes(addr: number): number {
    const slab = this.slabs[Math.floor(addr / SLAB_BYTES)]!;
    const o = addr % SLAB_BYTES;
    return HEADER + readU32(slab, o + 4) + readU32(slab, o);
  }

  /** Copies a record in; returns the slot value that points to it. */
  private append(key: Key, value: Uint8Array): number {
    const size = HEADER + key.length + value.length;
    const need = size + ((ALIGN - (size % ALIGN)) % ALIGN);
    let slab: Uint8Array;
    let index: number;
    let o: number;
    if (need > SLAB_BYTES) {
      // A record larger than a slab gets a slab of its own.
      slab = newSlab(need);
      index = this.slabs.push(slab) - 1;
      o = 0;
    } else {
      if (!this.cur || this.pos + need > SLAB_BYTES) {
        this.cur = newSlab(SLAB_BYTES);
        this.curIndex = this.slabs.push(this.cur) - 1;
        this.pos = 0;
      }
      slab = this.cur;
      index = this.curIndex;
      o = this.pos;
      this.pos += need;
    }
    writeU32(slab, o, value.length);
    writeU32(slab, o + 4, key.length);
    slab.set(key, o + HEADER);
    slab.set(value, o + HEADER + key.length);
    this.liveBytes += need;
    return slotOf(index * SLAB_BYTES + o);
  }

  private forget(addr: number): void {
    const size = this.recordBytes(addr);
    const n = size + ((ALIGN - (size % ALIGN)) % ALIGN);
    this.liveBytes -= n;
    this.deadBytes += n;
  }

  /** Rebuilds the table with room for twice the live keys (dropping DELETED slots). */
  private rehash(): void {
    let size = MIN_SLOTS;
    while (size < this.live * 4) size *= 2;
    const oldSlots = this.slots;
    const oldHashes = this.hashes;
    this.slots = new Uint32Array(size);
    this.hashes = new Uint32Array(size);
    const mask = size - 1;
    for (let j = 0; j < oldSlots.length; j++) {
      const s = oldSlots[j]!;
      if (s === EMPTY || s === DELETED) continue;
      let i = oldHashes[j]! & mask;
      while (this.slots[i] !== EMPTY) i = (i + 1) & mask;
      this.slots[i] = s;
      this.hashes[i] = oldHashes[j]!;
    }
    this.occupied = this.live;
  }

  /** Rewrites the live records into fresh slabs; the slots keep their places, only addresses change. */
  private compact(): void {
    const old = this.slabs;
    this.slabs = [];
    this.cur = undefined;
    this.pos = 0;
    this.liveBytes = 0;
    this.deadBytes = 0;
    for (let i = 0; i < this.slots.length; i++) {
      const s = this.slots[i]!;
      if (s === EMPTY || s === DELETED) continue;
      const addr = addrOf(s);
      const slab = old[Math.floor(addr / SLAB_BYTES)]!;
      const o = addr % SLAB_BYTES;
      const kl = readU32(slab, o + 4);
      const k = slab.subarray(o + HEADER, o + HEADER + kl);
      this.slots[i] = this.append(k, slab.subarray(o + HEADER + kl, o + HEADER + kl + readU32(slab, o)));
    }
  }

  private put(key: Key, value: Value): void {
    const h = hashKey(key);
    const mask = this.slots.length - 1;
    let free = -1;
    let i = h & mask;
    for (; ; i = (i + 1) & mask) {
      const s = this.slots[i]!;
      if (s === EMPTY) break;
      if (s === DELETED) {
        if (free < 0) free = i;
      } else if (this.hashes[i] === h && this.keyAt(addrOf(s), key)) {
        this.forget(addrOf(s));
        this.slots[i] = this.append(key, value);
        return;
      }
    }
    if (free < 0) {
      free = i;
      this.occupied++;
    }
    this.slots[free] = this.append(key, value);
    this.hashes[free] = h;
    this.live++;
    if (this.occupied * 2 > this.slots.length) this.rehash();
  }

  private delete(key: Key): void {
    const i = this.find(key, hashKey(key));
    if (i < 0) return;
    this.forget(addrOf(this.slots[i]!));
    this.slots[i] = DELETED;
    this.live--;
  }

  get(key: Key): Value | undefined {
    const i = this.find(key, hashKey(key));
    return i < 0 ? undefined : this.valueAt(addrOf(this.slots[i]!));
  }
  has(key: Key): boolean {
    return this.find(key, hashKey(key)) >= 0;
  }
  /** A scan of every key (sorted here): ranges are rare (tests, tools), lookups are not. */
  *range(opts: { start?: Key; end?: Key; reverse?: boolean; limit?: number }): Iterable<{ key: Key; value: Value }> {
    const { start, end } = opts;
    const keys: Buffer[] = [];
    for (let i = 0; i < this.slots.length; i++) {
      const s = this.slots[i]!;
      if (s === EMPTY || s === DELETED) continue;
      const k = this.keyCopyAt(addrOf(s));
      if ((start && Buffer.compare(k, start) < 0) || (end && Buffer.compare(k, end) >= 0)) continue;
      keys.push(k);
    }
    keys.sort(Buffer.compare);
    if (opts.reverse) keys.reverse();
    let n = 0;
    for (const key of keys) {
      if (opts.limit !== undefined && n >= opts.limit) return;
      const value = this.get(key);
      if (value === undefined) continue; // deleted while iterating
      n++;
      yield { key, value };
    }
  }
  writeSync(ops: Iterable<[Key, Value | null]>): void {
    for (const [k, v] of ops) {
      if (v === null) this.delete(k);
      else this.put(k, v);
    }
    if (this.deadBytes > 4 * SLAB_BYTES && this.deadBytes > this.liveBytes) this.compact();
  }
  async write(ops: Iterable<[Key, Value | null]>): Promise<void> {
    this.writeSync(ops);
  }
}
