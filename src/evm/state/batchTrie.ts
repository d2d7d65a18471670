// A batch update of a secure Merkle Patricia trie (keys already hashed): the same nodes, encoding
// and root as @ethereumjs/mpt, but each touched node is encoded and hashed once per batch instead
// of once per put, and decoded nodes are kept (immutable, by hash) across blocks. Updates build
// new nodes copy-on-write, so a cached node is never changed.
import { RLP } from '@ethereumjs/rlp';
import { BoundedMap } from '../../boundedMap.js';
import { hexOf } from '../../hexOf.js';
import { keccak256 } from '../crypto.js';
import { encodeRlp, type RlpItem } from './nodeRlp.js';

type Nibbles = number[];
/** A child: a node hash (not loaded yet), a node, or nothing. */
type Ref = Uint8Array | Node;
interface Leaf {
  k: 0;
  path: Nibbles;
  v: Uint8Array;
  /** Encoded reference once known: its hash (≥ 32 bytes encoded) or its raw list (embedded). */
  ref?: Uint8Array | unknown[];
}
interface Ext {
  k: 1;
  path: Nibbles;
  c: Ref;
  ref?: Uint8Array | unknown[];
}
interface Branch {
  k: 2;
  c: (Ref | null)[];
  v: Uint8Array | null;
  ref?: Uint8Array | unknown[];
}
type Node = Leaf | Ext | Branch;

/** Where nodes are read from and written to (the trie's database: key = node hash). */
/**
 * Where a BatchTrie reads and writes nodes. Synchronous: the state's node databases answer from
 * memory or from LMDB's synchronous reads, and a promise per node read made a block's trie update
 * a few hundred promises (docs/performance.md, session 19).
 */
export interface NodeStore {
  get(hash: Uint8Array): Uint8Array | undefined;
  put(hash: Uint8Array, enc: Uint8Array): void;
}

/** The empty string (shared: encoders only read it). */
const NO_BYTES = new Uint8Array(0);
export const EMPTY_TRIE_ROOT = Buffer.from('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421', 'hex');

/** Decoded nodes by hash (content-addressed, so shared by every trie of a chain). Bounded. */
export class NodeCache {
  private readonly map: BoundedMap<string, Node>;
  constructor(max = 10_000) {
    this.map = new BoundedMap(max);
  }
  get(h: string): Node | undefined {
    return this.map.get(h);
  }
  set(h: string, n: Node): void {
    this.map.set(h, n);
  }
}

export function nibblesOf(key: Uint8Array): Nibbles {
  const out: Nibbles = new Array(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i] >> 4;
    out[2 * i + 1] = key[i] & 15;
  }
  return out;
}

function hexPrefix(path: Nibbles, leaf: boolean): Uint8Array {
  const odd = path.length & 1;
  const out = new Uint8Array((path.length >> 1) + 1);
  let i = 0;
  if (odd) {
    out[0] = ((leaf ? 2 : 0) + 1) * 16 + path[0];
    i = 1;
  } else out[0] = (leaf ? 2 : 0) * 16;
  for (let o = 1; i < path.length; i += 2, o++) out[o] = path[i] * 16 + path[i + 1];
  return out;
}

function decodeRaw(raw: unknown): Node {
  const list = raw as (Uint8Array | unknown[])[];
  if (list.length === 17) {
    const c: (Ref | null)[] = new Array(16);
    for (let i = 0; i < 16; i++) c[i] = childOf(list[i]);
    const v = list[16] as Uint8Array;
    return { k: 2, c, v: v.length ? v : null };
  }
  if (list.length !== 2) throw new Error('invalid trie node');
  const hp = list[0] as Uint8Array;
  const flag = hp[0] >> 4;
  const path: Nibbles = [];
  if (flag & 1) path.push(hp[0] & 15);
  for (let i = 1; i < hp.length; i++) path.push(hp[i] >> 4, hp[i] & 15);
  if (flag >= 2) return { k: 0, path, v: list[1] as Uint8Array };
  const c = childOf(list[1]);
  if (!c) throw new Error('invalid trie node: empty extension');
  return { k: 1, path, c };
}

function childOf(item: unknown): Ref | null {
  if (item instanceof Uint8Array) return item.length === 0 ? null : item;
  const n = decodeRaw(item);
  n.ref = item as unknown[];
  return n;
}

/** The node stored under hash `ref` (hex `h`), decoded and put in the shared cache. */
function storedNode(ref: Uint8Array, h: string, enc: Uint8Array | undefined, cache: NodeCache): Node {
  if (!enc) throw new Error(`missing trie node ${h}`);
  const n = decodeRaw(RLP.decode(enc));
  n.ref = ref;
  cache.set(h, n);
  return n;
}

/**
 * The value at `key` (already hashed) in the trie rooted at `root`, or null when absent: the same
 * answer as @ethereumjs/mpt's get, walking the shared decoded nodes instead of decoding each node's
 * RLP again on every read (the nodes of a trie's top are read by every lookup). `getNode` reads an
 * encoded node by its hash (hex) synchronously.
 */
export function trieGet(root: Uint8Array, key: Uint8Array, getNode: (hashHex: string) => Uint8Array | undefined, cache: NodeCache): Uint8Array | null {
  if (Buffer.compare(root, EMPTY_TRIE_ROOT) === 0) return null;
  let ref: Ref | null = root;
  let i = 0;
  const keyNibbles = key.length * 2;
  const nibble = (at: number) => (at & 1 ? key[at >> 1] & 15 : key[at >> 1] >> 4);
  for (;;) {
    let n: Node;
    if (ref instanceof Uint8Array) {
      const h = hexOf(ref);
      n = cache.get(h) ?? storedNode(ref, h, getNode(h), cache);
    } else n = ref;
    if (n.k === 2) {
      if (i === keyNibbles) return n.v;
      ref = n.c[nibble(i++)];
      if (ref === null) return null;
      continue;
    }
    const path = n.path;
    if (i + path.length > keyNibbles) return null;
    for (let j = 0; j < path.length; j++) if (path[j] !== nibble(i + j)) return null;
    i += path.length;
    if (n.k === 0) return i === keyNibbles ? n.v : null;
    ref = n.c;
  }
}

function common(a: Nibbles, ai: number, b: Nibbles, bi: number): number {
  let n = 0;
  while (ai + n < a.length && bi + n < b.length && a[ai + n] === b[bi + n]) n++;
  return n;
}

/** One trie being updated in a batch. */
export class BatchTrie {
  private root: Ref | null;

  constructor(
    root: Uint8Array,
    private readonly store: NodeStore,
    private readonly cache: NodeCache,
  ) {
    this.root = Buffer.compare(root, EMPTY_TRIE_ROOT) === 0 ? null : root;
  }

  private load(ref: Ref): Node {
    if (!(ref instanceof Uint8Array)) return ref;
    const h = hexOf(ref);
    return this.cache.get(h) ?? storedNode(ref, h, this.store.get(ref), this.cache);
  }

  /** Sets `key` (hashed, 32 bytes) to `value`; an empty value or null deletes it. */
  update(key: Uint8Array, value: Uint8Array | null): void {
    const path = nibblesOf(key);
    if (value && value.length) this.root = this.insert(this.root, path, 0, value);
    else if (this.root) this.root = this.remove(this.root, path, 0);
  }

  private insert(ref: Ref | null, path: Nibbles, i: number, v: Uint8Array): Node {
    if (ref === null) return { k: 0, path: path.slice(i), v };
    const n = this.load(ref);
    if (n.k === 2) {
      const c = n.c.slice();
      if (i === path.length) return { k: 2, c, v };
      c[path[i]] = this.insert(n.c[path[i]], path, i + 1, v);
      return { k: 2, c, v: n.v };
    }
    const cl = common(n.path, 0, path, i);
    if (n.k === 0 && cl === n.path.length && i + cl === path.length) return { k: 0, path: n.path, v };
    if (n.k === 1 && cl === n.path.length) return { k: 1, path: n.path, c: this.insert(n.c, path, i + cl, v) };
    // Split at the first differing nibble: a branch holding the old node's rest and the new leaf.
    const b: Branch = { k: 2, c: new Array(16).fill(null), v: null };
    if (cl === n.path.length) {
      b.v = (n as Leaf).v; // only a leaf can end here (an extension would have matched fully)
    } else if (n.k === 0) {
      b.c[n.path[cl]] = { k: 0, path: n.path.slice(cl + 1), v: n.v };
    } else {
      b.c[n.path[cl]] = n.path.length - cl - 1 > 0 ? { k: 1, path: n.path.slice(cl + 1), c: n.c } : n.c;
    }
    if (i + cl === path.length) b.v = v;
    else b.c[path[i + cl]] = { k: 0, path: path.slice(i + cl + 1), v };
    return cl > 0 ? { k: 1, path: path.slice(i, i + cl), c: b } : b;
  }

  /** Deletes; returns the same ref when the key is absent (nothing to re-hash). */
  private remove(ref: Ref, path: Nibbles, i: number): Ref | null {
    const n = this.load(ref);
    if (n.k === 0) return n.path.length === path.length - i && common(n.path, 0, path, i) === n.path.length ? null : ref;
    if (n.k === 1) {
      if (common(n.path, 0, path, i) !== n.path.length) return ref;
      const c = this.remove(n.c, path, i + n.path.length);
      if (c === n.c) return ref;
      if (c === null) return null;
      return this.prefixed(n.path, c);
    }
    let c: (Ref | null)[];
    let v = n.v;
    if (i === path.length) {
      if (!v) return ref;
      v = null;
      c = n.c;
    } else {
      const old = n.c[path[i]];
      if (!old) return ref;
      const nc = this.remove(old, path, i + 1);
      if (nc === old) return ref;
      c = n.c.slice();
      c[path[i]] = nc;
    }
    let count = v ? 1 : 0;
    let only = -1;
    for (let j = 0; j < 16; j++) if (c[j]) (count++, (only = j));
    if (count >= 2) return { k: 2, c, v };
    if (count === 0) return null;
    if (v) return { k: 0, path: [], v };
    return this.prefixed([only], c[only]!);
  }

  /** `path` followed by the node at `ref`, normalised (merged into a leaf or an extension). */
  private prefixed(path: Nibbles, ref: Ref): Node {
    const n = this.load(ref);
    if (n.k === 0) return { k: 0, path: path.concat(n.path), v: n.v };
    if (n.k === 1) return { k: 1, path: path.concat(n.path), c: n.c };
    return { k: 1, path, c: ref };
  }

  /** Encodes and hashes the changed nodes, stores them, returns the root. */
  commit(): Uint8Array {
    if (this.root === null) return EMPTY_TRIE_ROOT;
    if (this.root instanceof Uint8Array) return this.root;
    const puts: [Uint8Array, Uint8Array][] = [];
    const r = this.refOf(this.root, puts, true) as Uint8Array;
    for (const [h, enc] of puts) this.store.put(h, enc);
    this.root = r;
    return r;
  }

  private refOf(ref: Ref, puts: [Uint8Array, Uint8Array][], top = false): Uint8Array | unknown[] {
    if (ref instanceof Uint8Array) return ref;
    if (ref.ref && !(top && !(ref.ref instanceof Uint8Array))) return ref.ref;
    let raw: unknown[];
    if (ref.k === 0) raw = [hexPrefix(ref.path, true), ref.v];
    else if (ref.k === 1) raw = [hexPrefix(ref.path, false), this.refOf(ref.c, puts)];
    else {
      raw = new Array(17);
      for (let j = 0; j < 16; j++) {
        const c = ref.c[j];
        raw[j] = c ? this.refOf(c, puts) : NO_BYTES;
      }
      raw[16] = ref.v ?? NO_BYTES;
    }
    const enc = encodeRlp(raw as RlpItem);
    if (enc.length < 32 && !top) {
      ref.ref = raw;
      return raw;
    }
    const h = keccak256(enc);
    puts.push([h, enc]);
    if (enc.length >= 32) {
      ref.ref = h;
      this.cache.set(hexOf(h), ref);
    }
    return h;
  }
}
