// Go-like decoders for config JSON values (genesis, chain config, upgrade.json).
//   decodeAddress, decodeHash, decodeHexBytes (hexutil), decodeHexOrDecimal (math.HexOrDecimal64/256),
//   decodeUint64 (plain JSON number), decodeBool, fieldTypeError, checksumAddress (EIP-55, how Go
//   prints an Address).
// Error texts follow Go's encoding/json + hexutil exactly; `path` is the struct-field path Go's
// decoder prints: the innermost struct's name, then the field names from where decoding started
// (a nested decoder's error renamed by the outer one: `Genesis.config.blockTimestamp`).
import { keccak256 } from '../crypto.js';
import { JsonFloat, jsonText, jsonTypeName, type JsonValue } from './json.js';
import { GoTypeError, decodeAddress as hexutilAddress, decodeBytes as hexutilBytes, decodeHash as hexutilHash } from '../rpc/params.js';

const MAX_UINT64 = (1n << 64n) - 1n;
const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * Runs a hexutil decoder for a struct field: its json.UnmarshalTypeError names the field as Go's
 * decoder does, `json: cannot unmarshal <what> into Go struct field <path> of type <T>`, where
 * `path` = `<Struct>.<field path>` (header comment). Other errors (e.g. `hex string has length 2,
 * want 40 for common.Address`) pass unchanged, as hexutil returns them unwrapped.
 */
function inField<T>(path: string, decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    if (e instanceof GoTypeError) throw new Error(e.inField(path.slice(0, path.indexOf('.')), path.slice(path.indexOf('.') + 1)));
    throw e;
  }
}

/** A Go type error naming a struct field (for the kinds encoding/json itself refuses). */
export function fieldTypeError(what: string, path: string, type: string): Error {
  return new Error(`json: cannot unmarshal ${what} into Go struct field ${path} of type ${type}`);
}

/** common.Address field (hexutil.UnmarshalFixedJSON): `0x` + 40 hex digits → lower-case `0x…`. */
export function decodeAddress(v: JsonValue | undefined, path: string): string {
  return inField(path, () => hexutilAddress(v ?? null));
}

/**
 * A genesis alloc key (common.UnprefixedAddress, a map key read with UnmarshalText): `0x` optional;
 * hexutil's plain texts (`hex string of odd length`, `hex string has length 2, want 40 for
 * UnprefixedAddress`, `invalid hex string`).
 */
export function decodeUnprefixedAddress(key: string): string {
  const raw = /^0[xX]/.test(key) ? key.slice(2) : key;
  if (raw.length % 2 !== 0) throw new Error('hex string of odd length');
  if (raw.length !== 40) throw new Error(`hex string has length ${raw.length}, want 40 for UnprefixedAddress`);
  if (!/^[0-9a-fA-F]*$/.test(raw)) throw new Error('invalid hex string');
  return '0x' + raw.toLowerCase();
}

/** common.Hash field → lower-case `0x…` (64 hex digits). */
export function decodeHash(v: JsonValue | undefined, path: string): string {
  return inField(path, () => hexutilHash(v ?? null));
}

/** hexutil.Bytes field: a `0x` string of even length (`""` is empty). */
export function decodeHexBytes(v: JsonValue | undefined, path: string): Uint8Array {
  return new Uint8Array(inField(path, () => hexutilBytes(v ?? null)));
}

/** Go's text of a parsed JSON value (what a decoder quotes). */
function goText(v: JsonValue | undefined): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return String(v);
  if (v instanceof JsonFloat) return v.text;
  return jsonText(v ?? null);
}

/**
 * math.HexOrDecimal64 / HexOrDecimal256: the JSON text (a string without its quotes, or the bare
 * literal) is `0x` hex or decimal; `""` is 0 (math.ParseUint64 / ParseBig256). 256-bit values take
 * a sign as big.Int.SetString does (`-5`, `+5`, `0x-5`); Powder refuses a negative value where
 * `allowNegative` is false (a genesis balance: the real node would panic on it).
 * Error: `invalid hex or decimal integer "<text>"`.
 */
export function decodeHexOrDecimal(v: JsonValue | undefined, bits: 64 | 256, allowNegative = false): bigint {
  const text = goText(v);
  const hex = /^0[xX]/.test(text);
  let body = hex ? text.slice(2) : text;
  let out: bigint | undefined;
  if (text === '') out = 0n;
  else {
    let neg = false;
    if (bits === 256 && (body.startsWith('-') || body.startsWith('+'))) {
      neg = body.startsWith('-');
      body = body.slice(1);
    }
    if (hex ? /^[0-9a-fA-F]+$/.test(body) : /^[0-9]+$/.test(body)) out = BigInt(hex ? '0x' + body : body);
    if (out !== undefined && out > (bits === 64 ? MAX_UINT64 : MAX_UINT256)) out = undefined;
    if (out !== undefined && neg) out = allowNegative ? -out : undefined;
  }
  if (out === undefined) throw new Error(`invalid hex or decimal integer ${JSON.stringify(text)}`);
  return out;
}

/**
 * A Go uint64 struct field: a JSON integer. Another kind → `json: cannot unmarshal string into Go
 * struct field <path> of type uint64`; a fraction, an exponent, a sign or a value past 2^64-1 quotes
 * the number as written (`number -1`, `number 1e3`).
 */
export function decodeUint64(v: JsonValue | undefined, path: string): bigint {
  if (typeof v === 'bigint' && v >= 0n && v <= MAX_UINT64) return v;
  const what = typeof v === 'bigint' || v instanceof JsonFloat ? `number ${goText(v)}` : jsonTypeName(v ?? null);
  throw fieldTypeError(what, path, 'uint64');
}

export function decodeBool(v: JsonValue | undefined, path: string): boolean {
  if (typeof v !== 'boolean') throw fieldTypeError(jsonTypeName(v ?? null), path, 'bool');
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
