// CB58 = base58(bytes ‖ last 4 bytes of sha256(bytes)), Bitcoin alphabet. Error texts are
// AvalancheGo's (utils/cb58 over mr-tron/base58), because they reach API users verbatim.
import { createHash } from 'node:crypto';
import { goQuoteRune } from '../rpc/goQuote.js';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  return '1'.repeat(zeros) + out;
}

export function base58Decode(s: string): Uint8Array {
  if (s.length === 0) throw new Error('base58 decoding error: zero length string');
  let n = 0n;
  let zeros = 0;
  let leading = true;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c > 127) throw new Error('base58 decoding error: High-bit set on invalid digit');
    const v = INDEX[c];
    if (v < 0) throw new Error(`base58 decoding error: Invalid base58 digit (${goQuoteRune(ch)})`);
    if (leading && v === 0) zeros++;
    else leading = false;
    n = n * 58n + BigInt(v);
  }
  const body: number[] = [];
  while (n > 0n) {
    body.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  return Uint8Array.from([...new Array(zeros).fill(0), ...body]);
}

function checksum(bytes: Uint8Array): Uint8Array {
  return createHash('sha256').update(bytes).digest().subarray(28);
}

export function cb58Encode(bytes: Uint8Array): string {
  const out = new Uint8Array(bytes.length + 4);
  out.set(bytes);
  out.set(checksum(bytes), bytes.length);
  return base58Encode(out);
}

export function cb58Decode(s: string): Uint8Array {
  const raw = base58Decode(s);
  if (raw.length < 4) throw new Error('input string is smaller than the checksum size');
  const body = raw.subarray(0, raw.length - 4);
  const sum = checksum(body);
  for (let i = 0; i < 4; i++) {
    if (sum[i] !== raw[raw.length - 4 + i]) throw new Error('invalid input checksum');
  }
  return body;
}
