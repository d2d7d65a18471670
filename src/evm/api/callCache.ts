// An exact memo of eth_call outcomes. A plain eth_call (no state or block overrides) is a
// deterministic function of:
//   - the block: its header (number, time — hence the fork and the active precompiles —, gas
//     limit, coinbase, base fee) and, through BLOCKHASH, its ancestors — all fixed by its hash;
//     the block is canonical when resolved, so the canonical hashes below it are its ancestors;
//   - the state the call runs on: `chain.stateRootOf(block)`, which differs from the header's root
//     after test-control edits of the head (anvil_setBalance & co. write a new root); the state
//     under a root never changes (content-addressed trie), so evm_revert/snapshot and every edit
//     simply select another key;
//   - the fork the block's time selects (derived from the hash; kept in the key for clarity);
//   - every call argument, including the access list (warp predicates travel in it; eth_call
//     treats them as valid and unverified, as Subnet-EVM does, so they too are a function of the
//     key) — node-wide settings such as the RPC gas cap are fixed for the cache's owner.
// Results and the call's own errors (reverts, EVM errors, argument checks) are replayed; internal
// failures are never stored. Entries of old blocks age out (two LRU-like generations,
// bounded by entries and by size).
import { hexOf } from '../../hexOf.js';
import type { CallArgs } from './backend.js';

/** What a call produced: the hex result, or the JSON-RPC error it raised. */
export type CallOutcomeMemo = { result: string } | { error: { code: number; message: string; data?: unknown } };

/** Calls whose data or result exceed this are not kept (they would crowd the cache out). */
const MAX_ITEM_CHARS = 16 * 1024;

export class CallResultCache {
  // Two generations instead of a strict LRU: a Map that is emptied from the front degrades (its
  // iteration skips the deleted slots), while swapping generations is O(1). A hit in the old
  // generation moves the entry to the current one; when the current generation is full it
  // becomes the old one and the previous old generation is dropped.
  private current = new Map<string, CallOutcomeMemo>();
  private previous = new Map<string, CallOutcomeMemo>();
  private currentChars = 0;
  /**
   * Admission: the keys offered once and not kept, by hash. An outcome is kept when its call is
   * run a second time. A stream of calls that never repeat (a new holder per balanceOf) would
   * otherwise move every outcome into V8's old generation (~1 KB each: the key's text, the memo,
   * the map's slot) for the collectors to copy and then sweep: ~7–10 % of such a call's rate at
   * one connection (docs/performance.md, session 36). A call asked for again runs once more before
   * it is answered from here.
   *
   * A table of fixed size, one slot per low bits of the hash holding the hash + 1 (0: empty): an
   * offer made and one forgotten cost a store, where a Set of hashes grew, was emptied when full,
   * and rehashed on the way (~0.4 µs of a new-holder eth_call; docs/performance.md, session 41). A
   * later key on the same slot forgets the earlier offer (that call runs once more before it is
   * kept); two equal hashes admit an outcome early. Either way the cache's key stays exact.
   */
  private readonly offered: Uint32Array;
  hits = 0;
  misses = 0;

  constructor(
    /** At most this many entries are kept (two generations of half of it). */
    readonly maxEntries = 4096,
    /** Approximate bound on the characters held in keys and values (~2 bytes each). */
    readonly maxChars = 2 * 1024 * 1024,
    /** Keep an outcome only when it is offered a second time (see `offered`). */
    readonly admitOnSecondRun = true,
  ) {
    let slots = 16;
    while (slots < maxEntries * 2) slots *= 2;
    this.offered = new Uint32Array(admitOnSecondRun ? slots : 0);
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }

  get(key: string): CallOutcomeMemo | undefined {
    let memo = this.current.get(key);
    if (memo === undefined) {
      memo = this.previous.get(key);
      if (memo === undefined) {
        this.misses++;
        return undefined;
      }
      this.previous.delete(key);
      this.add(key, memo);
    }
    this.hits++;
    return memo;
  }

  set(key: string, memo: CallOutcomeMemo): void {
    if (memoChars(memo) > MAX_ITEM_CHARS) return;
    if (this.admitOnSecondRun) {
      const h = keyHash(key);
      const slot = h & (this.offered.length - 1);
      if (this.offered[slot] !== h + 1) {
        this.offered[slot] = h + 1;
        return;
      }
      this.offered[slot] = 0;
    }
    this.previous.delete(key);
    this.add(key, memo);
  }

  private add(key: string, memo: CallOutcomeMemo): void {
    if (this.current.size >= this.maxEntries / 2 || this.currentChars >= this.maxChars / 2) {
      this.previous = this.current;
      this.current = new Map();
      this.currentChars = 0;
    }
    if (!this.current.has(key)) this.currentChars += key.length + memoChars(memo) + 64;
    this.current.set(key, memo);
  }

  clear(): void {
    this.offered.fill(0);
    this.current.clear();
    this.previous.clear();
    this.currentChars = 0;
  }
}

/**
 * A hash of the key's UTF-16 units, cut to 30 bits (a small integer: a Set entry without a heap
 * number). Four FNV-1a lanes over every fourth unit each, mixed at the end: one lane's chain of
 * multiplications took ~1.1 µs for a ~260-character key, four independent ones ~0.4
 * (docs/performance.md, session 39). Only admission reads it: a collision admits an outcome early.
 */
function keyHash(key: string): number {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  let c = 0x85ebca6b;
  let d = 0xc2b2ae35;
  const n = key.length;
  const whole = n & ~3;
  let i = 0;
  for (; i < whole; i += 4) {
    a = Math.imul(a ^ key.charCodeAt(i), 0x01000193);
    b = Math.imul(b ^ key.charCodeAt(i + 1), 0x01000193);
    c = Math.imul(c ^ key.charCodeAt(i + 2), 0x01000193);
    d = Math.imul(d ^ key.charCodeAt(i + 3), 0x01000193);
  }
  for (; i < n; i++) a = Math.imul(a ^ key.charCodeAt(i), 0x01000193);
  let h = Math.imul(a ^ (b >>> 15), 0x85ebca6b) ^ Math.imul(c ^ (d >>> 13), 0xc2b2ae35) ^ n;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  return (h ^ (h >>> 13)) & 0x3fffffff;
}

function memoChars(memo: CallOutcomeMemo): number {
  return 'result' in memo ? memo.result.length : memo.error.message.length + (typeof memo.error.data === 'string' ? memo.error.data.length : 64);
}

/**
 * The cache key of a plain eth_call, or undefined when it must not be cached (call data too
 * large to be worth keeping). `stateKey` identifies the block and the state root it runs on
 * (Backend.stateKeyOf).
 * Every own field of `args` goes in (named), so a field added to CallArgs later can't be
 * forgotten; fields come in the object's own order (the parser's), which can only cost a hit.
 */
export function callCacheKey(stateKey: string, fork: string, args: CallArgs): string | undefined {
  // The parts are joined once at the end: a join makes one flat string, where `+=` made a rope
  // that V8 copied to hash it for the lookup and flattened again for keyHash (~0.2 µs of a call).
  const parts = [stateKey, '|', fork];
  let length = stateKey.length + 1 + fork.length;
  for (const f in args) {
    const v = (args as Record<string, unknown>)[f];
    if (v === undefined) continue;
    // The data as sent (rawData or rawInput) is most often the very array `data` is: '~' says so,
    // where the bytes' hex would say it a second time.
    if (v === args.data && f !== 'data') {
      parts.push('|', f, '=~');
      length += f.length + 3;
      continue;
    }
    const s = encodeValue(v);
    if (s === undefined) return undefined;
    parts.push('|', f, '=', s);
    length += f.length + 2 + s.length;
    if (length > MAX_ITEM_CHARS) return undefined;
  }
  return parts.join('');
}

function encodeValue(v: unknown): string | undefined {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return v.toString(16) + 'n';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Uint8Array) return 'x' + hexOf(v);
  if (Array.isArray(v)) {
    const parts: string[] = [];
    for (const x of v) {
      const s = encodeValue(x);
      if (s === undefined) return undefined;
      parts.push(s);
    }
    return '[' + parts.join(',') + ']';
  }
  if (v && typeof v === 'object') {
    const parts: string[] = [];
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x === undefined) continue;
      const s = encodeValue(x);
      if (s === undefined) return undefined;
      parts.push(JSON.stringify(k) + ':' + s);
    }
    return '{' + parts.join(',') + '}';
  }
  return undefined; // an unknown kind of value: don't cache rather than guess
}
