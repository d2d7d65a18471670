// ID arguments of the node's JSON-RPC services, bounded in cost. ids/cb58's base58 decoding is
// quadratic in the input's length (as mr-tron/base58's is in Go), and a node API argument can be
// as long as the body limit: `{"nodeIDs":["NodeID-zzzz…"]}` of a few hundred kilobytes would hold
// the event loop for minutes. An ID's CB58 text is at most 50 characters (a NodeID's 33), so a
// longer one is decided here without the quadratic decode, with the answer the decode would give.
import { createHash } from 'node:crypto';
import { parseID, parseNodeID } from '../ids/ids.js';
import { goQuoteRune } from './goQuote.js';

const NODE_ID_PREFIX = 'NodeID-';

/**
 * Longest text handed to ids/cb58 as is. Any base58 text of L characters decodes to at least
 * 0.73·(L−1) bytes, so past 50 characters none is 32 bytes + checksum (a NodeID: past 33).
 */
const SHORT = 64;
/** Texts longer than this are never an ID's CB58 (whatever their digits): callers may refuse them at once. */
export const LONGEST_ID = SHORT;

/**
 * Longest text decoded exactly when it is long (divide and conquer on BigInt: ~0.4 s at this
 * length; Go's decoder takes about a minute here and hours at the 32 MiB body limit, so no client
 * has ever seen its answer for longer ones).
 */
const EXACT_LIMIT = 1 << 20;

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

/** A NodeID argument (ids.NodeID): throws on anything ids.parseNodeID would refuse. */
export function checkNodeIDArg(s: string): void {
  if (s.length - NODE_ID_PREFIX.length > SHORT && s.startsWith(NODE_ID_PREFIX)) {
    throw new Error('invalid NodeID: too long'); // every such text fails to decode to 20 bytes
  }
  parseNodeID(s);
}

/**
 * ids.FromString with ids.parseID's errors (the texts reach the client: admin.getChainAliases),
 * in the same order: base58 digit errors, the checksum, then the length.
 */
export function parseIDArg(s: string): void {
  if (s.length <= SHORT) {
    parseID(s);
    return;
  }
  // base58: the first bad character, as mr-tron/base58 reports it (in rune order).
  const bad = /[^1-9A-HJ-NP-Za-km-z]/u.exec(s);
  if (bad) {
    const c = bad[0].codePointAt(0)!;
    if (c > 127) throw new Error('base58 decoding error: High-bit set on invalid digit');
    throw new Error(`base58 decoding error: Invalid base58 digit (${goQuoteRune(bad[0])})`);
  }
  // Beyond the exact limit: what the decode gives for every text but a forged one (2^-32).
  if (s.length > EXACT_LIMIT) throw new Error('invalid input checksum');
  const raw = base58DecodeLong(s);
  const body = raw.subarray(0, raw.length - 4);
  const sum = createHash('sha256').update(body).digest().subarray(28);
  if (!sum.equals(raw.subarray(raw.length - 4))) throw new Error('invalid input checksum');
  throw new Error(`invalid hash length: expected 32 bytes but got ${body.length}`);
}

/** base58 → bytes in O(M(n) log n): the value of each half, joined with a power of 58. */
function base58DecodeLong(s: string): Buffer {
  let zeros = 0;
  while (zeros < s.length && s.charCodeAt(zeros) === 0x31) zeros++;
  const powers = new Map<number, bigint>();
  const pow58 = (n: number): bigint => {
    let p = powers.get(n);
    if (p === undefined) powers.set(n, (p = 58n ** BigInt(n)));
    return p;
  };
  const value = (a: number, b: number): bigint => {
    if (b - a <= 48) {
      let n = 0n;
      let small = 0;
      let count = 0;
      for (let i = a; i < b; i++) {
        small = small * 58 + INDEX[s.charCodeAt(i)];
        if (++count === 8) {
          n = n * 128063081718016n + BigInt(small); // 58^8
          small = 0;
          count = 0;
        }
      }
      return count ? n * pow58(count) + BigInt(small) : n;
    }
    const m = (a + b) >> 1;
    return value(a, m) * pow58(b - m) + value(m, b);
  };
  const n = zeros < s.length ? value(zeros, s.length) : 0n;
  let hex = n === 0n ? '' : n.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(hex, 'hex')]);
}
