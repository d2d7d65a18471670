// A size-bounded cache map that forgets its oldest entries a generation at a time.
//
// Why not one Map that deletes its first key when full: V8's Map leaves a hole for each deleted
// entry until it rehashes, and `keys().next()` walks those holes from the start every time. At
// 10,000 entries each insert then costs ~8 µs (scratch microbenchmark, 200,000 inserts) instead
// of ~0.2 µs; the trie node cache paid that for every node a block hashed.

/**
 * Holds at most `max` entries in two generations of up to max/2: inserts go to the young one;
 * when it is full it becomes the old one and the previous old one is dropped whole. A hit in the
 * old generation moves the entry to the young one, so what is used keeps being kept.
 */
export class BoundedMap<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;

  constructor(max: number) {
    this.half = Math.max(1, Math.ceil(max / 2));
  }

  get(key: K): V | undefined {
    const v = this.young.get(key);
    if (v !== undefined || this.old.size === 0) return v;
    const o = this.old.get(key);
    if (o !== undefined) this.set(key, o);
    return o;
  }

  has(key: K): boolean {
    return this.young.has(key) || this.old.has(key);
  }

  set(key: K, value: V): void {
    if (this.young.size >= this.half && !this.young.has(key)) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
    if (this.old.size) this.old.delete(key);
  }

  delete(key: K): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}
