// RLP encoding of trie nodes (lists of byte strings and embedded node lists), byte-for-byte what
// @ethereumjs/rlp's encode gives, written in one pass into one buffer: a block's commit encodes
// every changed node, and the generic encoder's per-item allocations and concatenations were
// a measurable part of building a block. Checked against @ethereumjs/rlp in nodeRlp.test.ts.

export type RlpItem = Uint8Array | RlpItem[];

/** Bytes the length prefix of a payload of `n` bytes takes beyond its first byte. */
function lenOfLen(n: number): number {
  let k = 0;
  while (n > 0) {
    k++;
    n = Math.floor(n / 256);
  }
  return k;
}

/** Encoded size of an item; `sizes` collects each list's payload size, in encoding order. */
function sizeOf(item: RlpItem, sizes: number[]): number {
  if (item instanceof Uint8Array) {
    const n = item.length;
    if (n === 1 && item[0] < 0x80) return 1;
    return n <= 55 ? 1 + n : 1 + lenOfLen(n) + n;
  }
  const at = sizes.length;
  sizes.push(0);
  let payload = 0;
  for (const x of item) payload += sizeOf(x, sizes);
  sizes[at] = payload;
  return payload <= 55 ? 1 + payload : 1 + lenOfLen(payload) + payload;
}

function writeLen(out: Uint8Array, pos: number, n: number, short: number, long: number): number {
  if (n <= 55) {
    out[pos] = short + n;
    return pos + 1;
  }
  const k = lenOfLen(n);
  out[pos] = long + k;
  for (let i = k; i >= 1; i--) {
    out[pos + i] = n & 0xff;
    n = Math.floor(n / 256);
  }
  return pos + 1 + k;
}

function write(item: RlpItem, out: Uint8Array, pos: number, sizes: number[], next: { i: number }): number {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0] < 0x80) {
      out[pos] = item[0];
      return pos + 1;
    }
    pos = writeLen(out, pos, item.length, 0x80, 0xb7);
    out.set(item, pos);
    return pos + item.length;
  }
  pos = writeLen(out, pos, sizes[next.i++], 0xc0, 0xf7);
  for (const x of item) pos = write(x, out, pos, sizes, next);
  return pos;
}

/** RLP encoding of `item`. */
export function encodeRlp(item: RlpItem): Uint8Array {
  const sizes: number[] = [];
  const out = new Uint8Array(sizeOf(item, sizes));
  write(item, out, 0, sizes, { i: 0 });
  return out;
}
