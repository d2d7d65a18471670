// Minimal ABI + hashing helpers for the stateful precompiles: 32-byte words, addresses,
// selectors, and go-ethereum's ABI error texts where a precompile surfaces them.
import { toChecksumAddress } from '@ethereumjs/util';
import { keccak256 as keccak } from '../crypto.js';

export const WORD = 32;
export const EMPTY = new Uint8Array(0);

export function keccak256(data: Uint8Array | string): Uint8Array {
  return keccak(typeof data === 'string' ? new Uint8Array(Buffer.from(data)) : data);
}

/** 4-byte selector of a Solidity signature, as `0x` + 8 hex. */
export function selectorOf(signature: string): string {
  return '0x' + Buffer.from(keccak256(signature).subarray(0, 4)).toString('hex');
}

export function topicOf(signature: string): Uint8Array {
  return keccak256(signature);
}

export function toHex(bytes: Uint8Array): string {
  return '0x' + Buffer.from(bytes).toString('hex');
}

export function fromHex(hex: string): Uint8Array {
  const h = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  return new Uint8Array(Buffer.from(h.length % 2 ? '0' + h : h, 'hex'));
}

/** uint256 → 32-byte big-endian word (values are reduced modulo 2^256). */
export function uintWord(v: bigint): Uint8Array {
  const out = new Uint8Array(WORD);
  let x = BigInt.asUintN(256, v);
  for (let i = WORD - 1; i >= 0 && x > 0n; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

export function wordToBigInt(word: Uint8Array): bigint {
  let v = 0n;
  for (const b of word) v = (v << 8n) | BigInt(b);
  return v;
}

/** 20-byte address (lower-case `0x` hex) → left-padded 32-byte word. */
export function addressWord(address: string): Uint8Array {
  const out = new Uint8Array(WORD);
  out.set(fromHex(address), 12);
  return out;
}

/** The low 20 bytes of a word as a lower-case `0x` address (go's common.BytesToAddress). */
export function wordToAddress(word: Uint8Array): string {
  return toHex(word.subarray(word.length - 20));
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** EIP-55 form, as go-ethereum prints a common.Address with %s. */
export function checksum(address: string): string {
  return toChecksumAddress(address.toLowerCase());
}

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/**
 * Reads `count` static words from ABI input the way go-ethereum's non-strict `UnpackInput`
 * does: missing input is an error, extra trailing bytes are ignored.
 */
export function readWords(input: Uint8Array, count: number): Uint8Array[] {
  if (input.length === 0) throw new Error('abi: attempting to unmarshall an empty string while arguments are expected');
  if (input.length < count * WORD) {
    throw new Error(`abi: cannot marshal in to go type: length insufficient ${input.length} require ${count * WORD}`);
  }
  const words: Uint8Array[] = [];
  for (let i = 0; i < count; i++) words.push(input.subarray(i * WORD, (i + 1) * WORD));
  return words;
}

/** Decodes a single dynamic `bytes` argument (go-ethereum ABI checks and error texts). */
export function readBytesArg(input: Uint8Array): Uint8Array {
  const [offWord] = readWords(input, 1);
  const offset = wordToBigInt(offWord!);
  if (offset + 32n > BigInt(input.length)) {
    throw new Error(`abi: cannot marshal in to go slice: offset ${offset + 32n} would go over slice boundary (len=${input.length})`);
  }
  const o = Number(offset);
  const size = wordToBigInt(input.subarray(o, o + 32));
  if (offset + 32n + size > BigInt(input.length)) {
    throw new Error(`abi: cannot marshal in to go type: length insufficient ${BigInt(input.length)} require ${offset + 32n + size}`);
  }
  return input.slice(o + 32, o + 32 + Number(size));
}

/** ABI encoding of a `bytes` value's tail: length word + data right-padded to a word multiple. */
export function bytesTail(data: Uint8Array): Uint8Array {
  const padded = new Uint8Array(Math.ceil(data.length / WORD) * WORD);
  padded.set(data);
  return concat(uintWord(BigInt(data.length)), padded);
}
