// Go-like decoders for config JSON values (genesis, chain config, upgrade.json).
//   decodeAddress, decodeHash, decodeHexBytes (hexutil), decodeHexOrDecimal (math.HexOrDecimal64/256),
//   decodeUint64 (plain JSON number), decodeBool, checksumAddress (EIP-55, how Go prints an Address).
// Error texts follow Go's encoding/json + hexutil where a user can see them.
import { keccak256 } from '../crypto.js';
import { jsonTypeName, type JsonValue } from './json.js';

const HEX_RE = /^[0-9a-fA-F]*$/;
const MAX_UINT64 = (1n << 64n) - 1n;
const MAX_UINT256 = (1n << 256n) - 1n;

/** `0x`-prefixed 20-byte address → lower-case `0x…`. `field` = Go struct path for messages. */
export function decodeAddress(v: JsonValue | undefined, field: string, allowUnprefixed = false): string {
  if (typeof v !== 'string') throw new Error(`json: cannot unmarshal ${jsonTypeName(v ?? null)} into Go struct field ${field} of type common.Address`);
  let s = v;
  if (s.startsWith('0x') || s.startsWith('0X')) s = s.slice(2);
  else if (!allowUnprefixed) throw new Error(`json: cannot unmarshal hex string without 0x prefix into Go struct field ${field} of type common.Address`);
  if (!HEX_RE.test(s)) throw new Error(`json: cannot unmarshal invalid hex string into Go struct field ${field} of type common.Address`);
  if (s.length !== 40) throw new Error(`hex string has length ${s.length}, want 40 for common.Address`);
  return '0x' + s.toLowerCase();
}

/** 32-byte hash → lower-case `0x…` (64 hex digits). */
export function decodeHash(v: JsonValue | undefined, field: string): string {
  if (typeof v !== 'string') throw new Error(`json: cannot unmarshal ${jsonTypeName(v ?? null)} into Go struct field ${field} of type common.Hash`);
  if (!v.startsWith('0x') && !v.startsWith('0X'))
    throw new Error(`json: cannot unmarshal hex string without 0x prefix into Go struct field ${field} of type common.Hash`);
  const s = v.slice(2);
  if (!HEX_RE.test(s)) throw new Error(`json: cannot unmarshal invalid hex string into Go struct field ${field} of type common.Hash`);
  if (s.length !== 64) throw new Error(`hex string has length ${s.length}, want 64 for common.Hash`);
  return '0x' + s.toLowerCase();
}

/** hexutil.Bytes: a `0x` string of even length. */
export function decodeHexBytes(v: JsonValue | undefined, field: string): Uint8Array {
  if (typeof v !== 'string') throw new Error(`json: cannot unmarshal ${jsonTypeName(v ?? null)} into Go struct field ${field} of type hexutil.Bytes`);
  if (!v.startsWith('0x') && !v.startsWith('0X'))
    throw new Error(`json: cannot unmarshal hex string without 0x prefix into Go struct field ${field} of type hexutil.Bytes`);
  const s = v.slice(2);
  if (s.length & 1) throw new Error(`json: cannot unmarshal hex string of odd length into Go struct field ${field} of type hexutil.Bytes`);
  if (!HEX_RE.test(s)) throw new Error(`json: cannot unmarshal invalid hex string into Go struct field ${field} of type hexutil.Bytes`);
  return new Uint8Array(Buffer.from(s, 'hex'));
}

/**
 * math.HexOrDecimal64 / HexOrDecimal256: a JSON number, a decimal string or a `0x` hex string.
 * `bits` = 64 or 256. A negative value is only accepted for 256-bit (Go's big.Int parses it).
 */
export function decodeHexOrDecimal(v: JsonValue | undefined, bits: 64 | 256, allowNegative = false): bigint {
  let text: string;
  if (typeof v === 'bigint') text = v.toString();
  else if (typeof v === 'string') text = v;
  else if (typeof v === 'number') text = String(v);
  else throw new Error(`invalid hex or decimal integer ${JSON.stringify(v === undefined ? null : v)}`);
  let neg = false;
  let body = text;
  if (allowNegative && bits === 256 && body.startsWith('-')) {
    neg = true;
    body = body.slice(1);
  }
  let out: bigint | undefined;
  if (/^0[xX][0-9a-fA-F]+$/.test(body)) out = BigInt('0x' + body.slice(2));
  else if (/^[0-9]+$/.test(body)) out = BigInt(body);
  const max = bits === 64 ? MAX_UINT64 : MAX_UINT256;
  if (out === undefined || out > max) throw new Error(`invalid hex or decimal integer ${JSON.stringify(text)}`);
  return neg ? -out : out;
}

/** A Go uint64 struct field: a JSON integer. */
export function decodeUint64(v: JsonValue | undefined, field: string): bigint {
  if (typeof v !== 'bigint' || v < 0n || v > MAX_UINT64)
    throw new Error(`json: cannot unmarshal ${jsonTypeName(v ?? null)} into Go struct field ${field} of type uint64`);
  return v;
}

export function decodeBool(v: JsonValue | undefined, field: string): boolean {
  if (typeof v !== 'boolean') throw new Error(`json: cannot unmarshal ${jsonTypeName(v ?? null)} into Go struct field ${field} of type bool`);
  return v;
}

/** EIP-55 mixed-case form, as Go's common.Address prints with %s. */
export function checksumAddress(addr: string): string {
  const lower = addr.toLowerCase().replace(/^0x/, '');
  const h = Buffer.from(keccak256(Buffer.from(lower, 'ascii'))).toString('hex');
  let out = '0x';
  for (let i = 0; i < lower.length; i++) out += parseInt(h[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i];
  return out;
}
