// Leaves of a Merkle Patricia trie in key order from a start key — geth's trie.NewIterator over
// NodeIterator(start), which debug_storageRangeAt pages storage with. Keys are the trie's own
// (hashed) keys; the walk skips every subtree whose keys all sort before the start.
import { BranchMPTNode, ExtensionMPTNode, LeafMPTNode, type MerklePatriciaTrie } from '@ethereumjs/mpt';

type Ref = Uint8Array | Uint8Array[];

/** Nibbles of `bytes`, high nibble first. */
function nibbles(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (const b of bytes) out.push(b >> 4, b & 15);
  return out;
}

function bytesOf(n: number[]): Uint8Array {
  const out = new Uint8Array(n.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (n[2 * i] << 4) | n[2 * i + 1];
  return out;
}

/** Lexicographic order of nibble paths; a path sorts before the longer paths it starts. */
function compare(a: number[], b: number[]): number {
  const m = Math.min(a.length, b.length);
  for (let i = 0; i < m; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** Every key under `prefix` sorts before `start`: their common part already does. */
function allBefore(prefix: number[], start: number[]): boolean {
  const m = Math.min(prefix.length, start.length);
  for (let i = 0; i < m; i++) if (prefix[i] !== start[i]) return prefix[i] < start[i];
  return false;
}

async function* walk(trie: MerklePatriciaTrie, ref: Ref, path: number[], start: number[]): AsyncGenerator<[Uint8Array, Uint8Array]> {
  const node = await trie.lookupNode(ref);
  if (node instanceof LeafMPTNode) {
    const key = [...path, ...node.key()];
    if (compare(key, start) >= 0) yield [bytesOf(key), node.value()!];
  } else if (node instanceof ExtensionMPTNode) {
    const p = [...path, ...node.key()];
    if (!allBefore(p, start)) yield* walk(trie, node.value() as Ref, p, start);
  } else if (node instanceof BranchMPTNode) {
    const v = node.value();
    if (v && v.length && compare(path, start) >= 0) yield [bytesOf(path), v];
    for (let i = 0; i < 16; i++) {
      const child = node.getBranch(i);
      if (child === null) continue;
      const p = [...path, i];
      if (!allBefore(p, start)) yield* walk(trie, child as Ref, p, start);
    }
  }
}

/** The trie's leaves (key, stored value) from the first key ≥ `start`, in key order. */
export function leavesFrom(trie: MerklePatriciaTrie, start: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
  const root = trie.root();
  if (Buffer.compare(root, trie.EMPTY_TRIE_ROOT) === 0) return (async function* () {})();
  return walk(trie, root, [], nibbles(start));
}

const sameRef = (a: Ref | null | undefined, b: Ref | null | undefined): boolean => {
  if (!a || !b) return false;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  return false; // embedded (short) nodes: compared leaf by leaf below
};

/**
 * Leaves of trie `b` (key, value) that trie `a` lacks or holds with another value — geth's
 * NewDifferenceIterator(a, b) as debug_getModifiedAccountsBy* uses it. Subtrees whose hashes match
 * are skipped; where the shapes differ both sides are read leaf by leaf.
 */
export async function* changedLeaves(a: MerklePatriciaTrie, b: MerklePatriciaTrie): AsyncGenerator<[Uint8Array, Uint8Array]> {
  if (Buffer.compare(b.root(), b.EMPTY_TRIE_ROOT) === 0) return;
  const aRoot = Buffer.compare(a.root(), a.EMPTY_TRIE_ROOT) === 0 ? null : a.root();
  yield* diff(a, aRoot, b, b.root(), []);
}

async function* diff(a: MerklePatriciaTrie, ra: Ref | null, b: MerklePatriciaTrie, rb: Ref, path: number[]): AsyncGenerator<[Uint8Array, Uint8Array]> {
  if (sameRef(ra, rb)) return;
  const na = ra ? await a.lookupNode(ra) : undefined;
  const nb = await b.lookupNode(rb);
  if (na instanceof BranchMPTNode && nb instanceof BranchMPTNode) {
    const va = na.value();
    const vb = nb.value();
    if (vb && vb.length && !(va && Buffer.compare(va, vb) === 0)) yield [bytesOf(path), vb];
    for (let i = 0; i < 16; i++) {
      const cb = nb.getBranch(i);
      if (cb !== null) yield* diff(a, na.getBranch(i) as Ref | null, b, cb as Ref, [...path, i]);
    }
    return;
  }
  const old = new Map<string, Uint8Array>();
  if (ra) for await (const [k, v] of walk(a, ra, path, [])) old.set(Buffer.from(k).toString('hex'), v);
  for await (const [k, v] of walk(b, rb, path, [])) {
    const before = old.get(Buffer.from(k).toString('hex'));
    if (!before || Buffer.compare(before, v) !== 0) yield [k, v];
  }
}
