// Root of the trie {rlp(i) → item} (transactions and receipts roots), computed directly from the
// sorted keys: a block's roots are built once and never updated, so a full Merkle Patricia trie
// (node store, async walks, per-instance set-up) costs far more than the hashing itself.
import { RLP } from '@ethereumjs/rlp';
import { encodeRlp, type RlpItem } from '../state/nodeRlp.js';
import { keccak256 } from '../crypto.js';

type Raw = Uint8Array | Raw[];

/** Nibbles of a key. */
function nibbles(key: Uint8Array): number[] {
  const out = new Array<number>(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i] >> 4;
    out[2 * i + 1] = key[i] & 15;
  }
  return out;
}

/** Hex-prefix encoding of a nibble path (yellow paper appendix C). */
function hexPrefix(path: number[], leaf: boolean): Uint8Array {
  const odd = path.length % 2;
  const out = new Uint8Array(1 + (path.length >> 1));
  out[0] = ((leaf ? 2 : 0) + odd) << 4;
  let j = 0;
  if (odd) out[0] |= path[j++];
  for (let i = 1; j < path.length; i++, j += 2) out[i] = (path[j] << 4) | path[j + 1];
  return out;
}

interface Entry {
  key: number[];
  value: Uint8Array;
}

/** A child reference: the node itself when its encoding is under 32 bytes, else its hash. */
function ref(node: Raw): Raw {
  const enc = encodeRlp(node as RlpItem);
  return enc.length < 32 ? node : keccak256(enc);
}

/** The node for `items` (sorted, distinct keys) below nibble `depth`. */
function build(items: Entry[], depth: number): Raw {
  if (items.length === 1) return [hexPrefix(items[0].key.slice(depth), true), items[0].value];
  // Longest common prefix of all keys from `depth`.
  const first = items[0].key;
  const last = items[items.length - 1].key;
  let p = depth;
  while (p < first.length && p < last.length && first[p] === last[p]) p++;
  if (p > depth) return [hexPrefix(first.slice(depth, p), false), ref(build(items, p))];
  const branch: Raw[] = new Array(17).fill(new Uint8Array());
  let i = 0;
  if (items[0].key.length === depth) branch[16] = items[i++].value;
  while (i < items.length) {
    const nib = items[i].key[depth];
    let j = i;
    while (j < items.length && items[j].key[depth] === nib) j++;
    branch[nib] = ref(build(items.slice(i, j), depth + 1));
    i = j;
  }
  return branch;
}

const EMPTY_ROOT = keccak256(RLP.encode(new Uint8Array()));

export function orderedTrieRootSync(items: Uint8Array[]): Uint8Array {
  if (items.length === 0) return EMPTY_ROOT;
  const entries: Entry[] = items.map((value, i) => ({ key: nibbles(RLP.encode(i)), value }));
  entries.sort((a, b) => {
    const n = Math.min(a.key.length, b.key.length);
    for (let k = 0; k < n; k++) if (a.key[k] !== b.key[k]) return a.key[k] - b.key[k];
    return a.key.length - b.key.length;
  });
  return keccak256(encodeRlp(build(entries, 0) as RlpItem));
}
