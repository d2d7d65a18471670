// geth-style decoders for positional JSON-RPC params (go-ethereum's rpc.parsePositionalArguments,
// common/hexutil, common.Address/Hash, rpc.BlockNumber[OrHash], ethapi.TransactionArgs,
// filters.FilterCriteria, ethapi.StateOverride), producing geth's exact error texts:
// -32602 `invalid argument N: <Go json error>`, `missing value for required argument N`,
// `too many arguments, want at most N`.
//
// Usage in a method:  (params) => { checkArgs(params, 2); const a = address(params[0], 0); ... }
import { RpcError, goKind } from './server.js';
import { numberLiteral } from './rawNumbers.js';
import { stringifyParsed } from '../../rpc/rawJSON.js';

// ---------------------------------------------------------------------------------------------
// Errors

/** Go's *json.UnmarshalTypeError: `value` is what was seen, `type` the Go type. */
export class GoTypeError extends Error {
  constructor(
    readonly value: string,
    readonly type: string,
  ) {
    super(`json: cannot unmarshal ${value} into Go value of type ${type}`);
  }
  inField(struct: string, field: string): string {
    return `json: cannot unmarshal ${this.value} into Go struct field ${struct}.${field} of type ${this.type}`;
  }
}

export function invalidArgument(i: number, message: string): RpcError {
  return new RpcError(-32602, `invalid argument ${i}: ${message}`);
}

export function missingArgument(i: number): RpcError {
  return new RpcError(-32602, `missing value for required argument ${i}`);
}

/** Throws geth's error when more than `max` params were sent. */
export function checkArgs(params: unknown[], max: number): void {
  if (params.length > max) throw new RpcError(-32602, `too many arguments, want at most ${max}`);
}

/** A JavaScript bug (not a decoding error): the server answers it as geth does a panic. */
const isBug = (e: unknown) => e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError || e instanceof SyntaxError;

/**
 * Runs a decoder for argument i, turning its failure into `invalid argument i: …`. A JavaScript
 * bug in a decoder is not dressed up as a decoding error: its text would reach the client.
 */
export function arg<T>(i: number, decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    if (e instanceof RpcError || isBug(e)) throw e;
    throw invalidArgument(i, (e as Error).message);
  }
}

/**
 * A struct field's entry in a table keyed by the lower-case JSON name, for a key the client chose:
 * own entries only (a key such as `constructor` or `__proto__` is not an inherited member).
 */
export function fieldOf<T>(table: Record<string, T>, key: string): T | undefined {
  const k = key.toLowerCase();
  return Object.prototype.hasOwnProperty.call(table, k) ? table[k] : undefined;
}

/** Go's name for the kind of a JSON value in unmarshal errors (the server's goKind). */
export const jsonKind = goKind;

const absent = (v: unknown) => v === undefined || v === null;

// ---------------------------------------------------------------------------------------------
// hexutil (texts: common/hexutil/hexutil.go)

const ERR_EMPTY_STRING = 'empty hex string';
const ERR_SYNTAX = 'invalid hex string';
const ERR_MISSING_PREFIX = 'hex string without 0x prefix';
const ERR_ODD_LENGTH = 'hex string of odd length';
const ERR_EMPTY_NUMBER = 'hex string "0x"';
const ERR_LEADING_ZERO = 'hex number with leading zero digits';
const ERR_UINT64_RANGE = 'hex number > 64 bits';
const ERR_BIG256_RANGE = 'hex number > 256 bits';

/** A hexutil decError: wrapped into json.UnmarshalTypeError by the JSON decoders. */
class DecError extends Error {}

const HEX = /^[0-9a-fA-F]*$/;
const has0x = (s: string) => s.length >= 2 && s[0] === '0' && (s[1] === 'x' || s[1] === 'X');

/** checkNumberText: '' is allowed (zero). Returns the digits. */
function numberText(s: string): string {
  if (s === '') return '';
  if (!has0x(s)) throw new DecError(ERR_MISSING_PREFIX);
  const raw = s.slice(2);
  if (raw === '') throw new DecError(ERR_EMPTY_NUMBER);
  if (raw.length > 1 && raw[0] === '0') throw new DecError(ERR_LEADING_ZERO);
  return raw;
}

function wrap<T>(type: string, v: unknown, f: (s: string) => T): T {
  if (typeof v !== 'string') throw new GoTypeError('non-string', type);
  try {
    return f(v);
  } catch (e) {
    if (e instanceof DecError) throw new GoTypeError(e.message, type);
    throw e;
  }
}

/** hexutil.Big (a *hexutil.Big argument or field); '' decodes to 0. */
export function decodeBig(v: unknown): bigint {
  return wrap('*hexutil.Big', v, (s) => {
    const raw = numberText(s);
    if (raw.length > 64) throw new DecError(ERR_BIG256_RANGE);
    if (!HEX.test(raw)) throw new DecError(ERR_SYNTAX);
    return raw === '' ? 0n : BigInt('0x' + raw);
  });
}

function uint64Text(s: string): bigint {
  const raw = numberText(s);
  if (raw.length > 16) throw new DecError(ERR_UINT64_RANGE);
  if (!HEX.test(raw)) throw new DecError(ERR_SYNTAX);
  return raw === '' ? 0n : BigInt('0x' + raw);
}

/** hexutil.Uint64. */
export function decodeUint64(v: unknown): bigint {
  return wrap('hexutil.Uint64', v, uint64Text);
}

/** hexutil.Uint (e.g. a transaction index). */
export function decodeUint(v: unknown): number {
  return Number(decodeUintBig(v));
}

/** hexutil.Uint as an exact bigint (Go's uint is 64 bits: the same range as hexutil.Uint64). */
export function decodeUintBig(v: unknown): bigint {
  return wrap('hexutil.Uint', v, uint64Text);
}

/** hexutil.Bytes; '' decodes to empty bytes. */
export function decodeBytes(v: unknown): Uint8Array {
  return wrap('hexutil.Bytes', v, (s) => {
    const raw = checkText(s);
    if (!HEX.test(raw)) throw new DecError(ERR_SYNTAX);
    return Buffer.from(raw, 'hex');
  });
}

function checkText(s: string): string {
  if (s === '') return '';
  if (!has0x(s)) throw new DecError(ERR_MISSING_PREFIX);
  const raw = s.slice(2);
  if (raw.length % 2 !== 0) throw new DecError(ERR_ODD_LENGTH);
  return raw;
}

/** hexutil.UnmarshalFixedText: lower-case 0x hex of exactly `size` bytes. */
function fixedText(typeName: string, s: string, size: number): string {
  const raw = checkText(s);
  if (raw.length / 2 !== size) throw new Error(`hex string has length ${raw.length}, want ${size * 2} for ${typeName}`);
  if (!HEX.test(raw)) throw new DecError(ERR_SYNTAX);
  return '0x' + raw.toLowerCase();
}

/** common.Address as JSON: lower-case 0x string of 20 bytes. */
export function decodeAddress(v: unknown): string {
  return wrap('common.Address', v, (s) => fixedText('common.Address', s, 20));
}

/** common.Hash as JSON: lower-case 0x string of 32 bytes. */
export function decodeHash(v: unknown): string {
  return wrap('common.Hash', v, (s) => fixedText('common.Hash', s, 32));
}

/** hexutil.DecodeUint64 (unwrapped errors, as rpc.BlockNumber reports them). */
function hexDecodeUint64(s: string): bigint {
  if (s === '') throw new Error(ERR_EMPTY_STRING);
  if (!has0x(s)) throw new Error(ERR_MISSING_PREFIX);
  const raw = s.slice(2);
  if (raw === '') throw new Error(ERR_EMPTY_NUMBER);
  if (raw.length > 1 && raw[0] === '0') throw new Error(ERR_LEADING_ZERO);
  if (!HEX.test(raw)) throw new Error(ERR_SYNTAX);
  const n = BigInt('0x' + raw);
  if (n >= 1n << 64n) throw new Error(ERR_UINT64_RANGE);
  return n;
}

/** hexutil.Decode (used for filter addresses and topics): '' is an error here. */
function hexDecode(s: string): Uint8Array {
  if (s === '') throw new Error(ERR_EMPTY_STRING);
  if (!has0x(s)) throw new Error(ERR_MISSING_PREFIX);
  const raw = s.slice(2);
  if (raw.length % 2 !== 0) throw new Error(ERR_ODD_LENGTH);
  if (!HEX.test(raw)) throw new Error(ERR_SYNTAX);
  return Buffer.from(raw, 'hex');
}

/** Go bool: null leaves false. */
export function decodeBool(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v !== 'boolean') throw new GoTypeError(jsonKind(v), 'bool');
  return v;
}

/**
 * Go's encoding/json storing the number literal `text` into an integer type of range [min, max]
 * (strconv.ParseInt / ParseUint in base 10): a fraction, an exponent, a sign on an unsigned type
 * or a value out of range is refused, the literal quoted as sent.
 */
function goInteger(text: string, type: string, min: bigint, max: bigint): bigint {
  const digits = text.charCodeAt(0) === 0x2d ? text.slice(1) : text;
  // 20 digits hold any 64-bit value (JSON has no leading zeros): no BigInt of a huge literal.
  const ok = /^[0-9]+$/.test(digits) && digits.length <= 20 && (min < 0n || digits === text);
  const n = ok ? BigInt(text) : undefined;
  if (n === undefined || n < min || n > max) throw new GoTypeError(`number ${text}`, type);
  return n;
}

const MAX_UINT64 = (1n << 64n) - 1n;
const MIN_INT = -(1n << 63n);
const MAX_INT = (1n << 63n) - 1n; // Go's int is int64 on amd64

/**
 * math.HexOrDecimal64 (eth_feeHistory's blockCount): the JSON text, without the quotes of a
 * string, is decimal or 0x hex (math.ParseUint64; "" is 0). A bare number is read as its literal,
 * so `1e2` is refused and `18446744073709551615` accepted.
 */
export function decodeHexOrDecimal64(v: unknown, text?: string): bigint {
  // (Go quotes the raw input; a parsed value's text at any depth stands for it.)
  const t = typeof v === 'string' ? v : typeof v === 'number' ? (text ?? String(v)) : stringifyParsed(v);
  let n: bigint | undefined;
  // strconv.ParseUint takes leading zeros: dropped first, so the length checks bound the value.
  const hex = t.length >= 2 && t[0] === '0' && (t[1] === 'x' || t[1] === 'X');
  const digits = (hex ? t.slice(2) : t).replace(/^0+(?=.)/, '');
  if (t === '') n = 0n;
  else if (hex) n = /^[0-9a-fA-F]{1,16}$/.test(digits) ? BigInt('0x' + digits) : undefined;
  else n = /^[0-9]{1,20}$/.test(digits) ? BigInt(digits) : undefined;
  if (n === undefined || n > MAX_UINT64) throw new Error(`invalid hex or decimal integer ${JSON.stringify(t)}`);
  return n;
}

// ---------------------------------------------------------------------------------------------
// Argument-level helpers (index i for the error text)

/** A required *hexutil.Big / hexutil.Big argument. */
export const bigArg = (v: unknown, i: number): bigint => (v === undefined ? fail(missingArgument(i)) : arg(i, () => decodeBig(v)));
/** An optional *hexutil.Big argument (absent or null → undefined). */
export const optBigArg = (v: unknown, i: number): bigint | undefined => (absent(v) ? undefined : arg(i, () => decodeBig(v)));
export const uint64Arg = (v: unknown, i: number): bigint => (v === undefined ? fail(missingArgument(i)) : arg(i, () => decodeUint64(v)));
export const optUint64Arg = (v: unknown, i: number): bigint | undefined => (absent(v) ? undefined : arg(i, () => decodeUint64(v)));
export const uintArg = (v: unknown, i: number): number => (v === undefined ? fail(missingArgument(i)) : arg(i, () => decodeUint(v)));
export const addressArg = (v: unknown, i: number): string => (v === undefined ? fail(missingArgument(i)) : arg(i, () => decodeAddress(v)));
export const optAddressArg = (v: unknown, i: number): string | undefined => (absent(v) ? undefined : arg(i, () => decodeAddress(v)));
export const hashArg = (v: unknown, i: number): string => (v === undefined ? fail(missingArgument(i)) : arg(i, () => decodeHash(v)));
export const bytesArg = (v: unknown, i: number): Uint8Array => (v === undefined ? fail(missingArgument(i)) : arg(i, () => decodeBytes(v)));
/** A Go bool argument: absent → missing value; null → false. */
export const boolArg = (v: unknown, i: number): boolean => (v === undefined ? fail(missingArgument(i)) : arg(i, () => decodeBool(v)));
/** An optional *bool argument. */
export const optBoolArg = (v: unknown, i: number): boolean | undefined => (absent(v) ? undefined : arg(i, () => decodeBool(v)));

// Bare-number arguments take the params array `p`, so that they decode the literal the server
// kept (rawNumbers.ts) rather than JSON.parse's double.
/** A Go `int` argument given as a bare JSON number (null decodes to 0). */
export const intNumberArg = (p: readonly unknown[], i: number): number => Number(integerArg(p, i, 'int', MIN_INT, MAX_INT));
/** A Go `uint` argument given as a bare JSON number (null decodes to 0), exact: above 2^53 too. */
export const goUintArg = (p: readonly unknown[], i: number): bigint => integerArg(p, i, 'uint', 0n, MAX_UINT64);
/** A uint64 argument given as a bare JSON number (null decodes to 0, as into a Go uint64). */
export const uint64NumberArg = (p: readonly unknown[], i: number): bigint => integerArg(p, i, 'uint64', 0n, MAX_UINT64);
/** An optional *uint64 argument given as a bare JSON number. */
export const optUint64NumberArg = (p: readonly unknown[], i: number): bigint | undefined => (absent(p[i]) ? undefined : uint64NumberArg(p, i));
/** A math.HexOrDecimal64 argument. */
export const hexOrDecimal64Arg = (p: readonly unknown[], i: number): bigint => {
  const v = p[i];
  if (v === undefined) throw missingArgument(i);
  return arg(i, () => decodeHexOrDecimal64(v, typeof v === 'number' ? numberLiteral(p, i) : undefined));
};

function integerArg(p: readonly unknown[], i: number, type: string, min: bigint, max: bigint): bigint {
  const v = p[i];
  if (v === undefined) throw missingArgument(i);
  if (v === null) return 0n;
  return arg(i, () => {
    if (typeof v !== 'number') throw new GoTypeError(jsonKind(v), type);
    return goInteger(numberLiteral(p, i), type, min, max);
  });
}

function fail(e: Error): never {
  throw e;
}

// ---------------------------------------------------------------------------------------------
// Block numbers and tags (rpc/types.go; Subnet-EVM adds "accepted" = "finalized")

/** A named block: `finalized` also stands for `accepted`. `earliest` decodes to 0n as in geth. */
export type BlockTag = 'latest' | 'pending' | 'safe' | 'finalized';
export type BlockNumber = bigint | BlockTag;

const MAX_INT64 = (1n << 63n) - 1n;

function tagOf(s: string): BlockNumber | undefined {
  switch (s) {
    case 'earliest':
      return 0n;
    case 'latest':
      return 'latest';
    case 'pending':
      return 'pending';
    case 'finalized':
    case 'accepted':
      return 'finalized';
    case 'safe':
      return 'safe';
  }
  return undefined;
}

/** rpc.BlockNumber.UnmarshalJSON: a tag or a hex number (plain errors, no JSON wrapping). */
export function decodeBlockNumber(v: unknown): BlockNumber {
  // geth reads the raw JSON text: that of a number, bool, null, object or array is no tag and has
  // no 0x prefix (found out without writing a deeply nested value back to text).
  if (typeof v !== 'string') throw new Error(v === undefined ? ERR_EMPTY_STRING : ERR_MISSING_PREFIX);
  const input = v;
  const tag = tagOf(input);
  if (tag !== undefined) return tag;
  const n = hexDecodeUint64(input);
  if (n > MAX_INT64) throw new Error('block number larger than int64');
  return n;
}

export const blockNumberArg = (v: unknown, i: number): BlockNumber => (v === undefined ? fail(missingArgument(i)) : arg(i, () => decodeBlockNumber(v)));

export interface BlockNumberOrHash {
  number?: BlockNumber;
  hash?: string;
  requireCanonical: boolean;
}

/** The error geth gives when a BlockNumberOrHash names neither (e.g. `null` or `{}`). */
export const NEITHER_BLOCK_NOR_HASH = 'invalid arguments; neither block nor hash specified';

/** rpc.BlockNumberOrHash.UnmarshalJSON. `null` and `{}` decode to neither (see NEITHER_BLOCK_NOR_HASH). */
export function decodeBlockNumberOrHash(v: unknown): BlockNumberOrHash {
  if (v === null) return { requireCanonical: false };
  if (typeof v === 'object' && !Array.isArray(v)) {
    const obj = objectForm(v as Record<string, unknown>);
    if (obj) {
      if (obj.number !== undefined && obj.hash !== undefined) throw new Error('cannot specify both BlockHash and BlockNumber, choose one or the other');
      return obj;
    }
  }
  if (typeof v !== 'string') throw new GoTypeError(jsonKind(v), 'string');
  const tag = tagOf(v);
  if (tag !== undefined) return { number: tag, requireCanonical: false };
  if (v.length === 66) {
    // common.Hash.UnmarshalText: unwrapped hexutil errors.
    let hash: string;
    try {
      hash = fixedText('Hash', v, 32);
    } catch (e) {
      throw new Error((e as Error).message);
    }
    return { hash, requireCanonical: false };
  }
  const n = hexDecodeUint64(v);
  if (n > MAX_INT64) throw new Error('blocknumber too high');
  return { number: n, requireCanonical: false };
}

/** The object form {blockNumber, blockHash, requireCanonical}; undefined when Go's decode fails. */
function objectForm(o: Record<string, unknown>): BlockNumberOrHash | undefined {
  const out: BlockNumberOrHash = { requireCanonical: false };
  try {
    for (const k in o) {
      const v = o[k];
      switch (k.toLowerCase()) {
        case 'blocknumber':
          out.number = v === null ? undefined : decodeBlockNumber(v);
          break;
        case 'blockhash':
          out.hash = v === null ? undefined : decodeHash(v);
          break;
        case 'requirecanonical':
          out.requireCanonical = decodeBool(v);
          break;
      }
    }
  } catch {
    return undefined;
  }
  return out;
}

/** A required rpc.BlockNumberOrHash argument; null or {} → -32000 NEITHER_BLOCK_NOR_HASH. */
export function blockNumberOrHashArg(v: unknown, i: number): BlockNumberOrHash {
  if (v === undefined) throw missingArgument(i);
  const r = arg(i, () => decodeBlockNumberOrHash(v));
  if (r.number === undefined && r.hash === undefined) throw new RpcError(-32000, NEITHER_BLOCK_NOR_HASH);
  return r;
}

/** An optional *rpc.BlockNumberOrHash argument (absent or null → `dflt`, usually latest). */
export function optBlockNumberOrHashArg(v: unknown, i: number, dflt: BlockNumberOrHash = { number: 'latest', requireCanonical: false }): BlockNumberOrHash {
  if (absent(v)) return dflt;
  const r = arg(i, () => decodeBlockNumberOrHash(v));
  if (r.number === undefined && r.hash === undefined) throw new RpcError(-32000, NEITHER_BLOCK_NOR_HASH);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Structs

type FieldDecoder = (v: unknown) => unknown;

/**
 * Decodes a JSON object into a Go struct's fields (keys matched case-insensitively; unknown keys
 * ignored; null leaves a pointer field unset). Type errors name the struct field as Go does.
 */
function decodeStruct(struct: string, goType: string, v: unknown, fields: Record<string, [string, FieldDecoder]>): Record<string, unknown> {
  if (v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new GoTypeError(jsonKind(v), goType);
  const out: Record<string, unknown> = {};
  const o = v as Record<string, unknown>;
  for (const k in o) {
    const f = fieldOf(fields, k);
    if (!f) continue;
    const [name, decode] = f;
    const val = o[k];
    if (val === null) {
      delete out[name];
      continue;
    }
    out[name] = inStructField(struct, name, () => decode(val));
  }
  return out;
}

/** `decode()` for the field `struct.field` of a Go struct: its type errors name the field. */
export function inStructField<T>(struct: string, field: string, decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    if (e instanceof GoTypeError) throw new Error(e.inField(struct, field));
    throw e;
  }
}

function arrayOf<T>(goType: string, item: (v: unknown) => T): (v: unknown) => T[] {
  return (v) => {
    if (!Array.isArray(v)) throw new GoTypeError(jsonKind(v), goType);
    return v.map((x) => item(x));
  };
}

export interface AccessTuple {
  address: string;
  storageKeys: string[];
}

function decodeAccessTuple(v: unknown): AccessTuple {
  // AccessTuple's generated UnmarshalJSON is called with null too, and finds no address.
  if (v === null) throw new Error("missing required field 'address' for AccessTuple");
  if (typeof v !== 'object' || Array.isArray(v)) throw new GoTypeError(jsonKind(v), 'types.AccessTuple');
  let address: string | undefined;
  let storageKeys: string[] | undefined;
  for (const k in v as Record<string, unknown>) {
    const val = (v as Record<string, unknown>)[k];
    const key = k.toLowerCase();
    if (key === 'address' && val !== null) address = decodeAddress(val);
    else if (key === 'storagekeys' && val !== null) storageKeys = arrayOf('[]common.Hash', decodeHash)(val);
  }
  if (address === undefined) throw new Error("missing required field 'address' for AccessTuple");
  if (storageKeys === undefined) throw new Error("missing required field 'storageKeys' for AccessTuple");
  return { address, storageKeys };
}

/** ethapi.TransactionArgs; `data` and `input` are kept apart (see callData, checkDataInput). */
export interface TransactionArgs {
  from?: string;
  to?: string;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  value?: bigint;
  nonce?: bigint;
  data?: Uint8Array;
  input?: Uint8Array;
  accessList?: AccessTuple[];
  chainId?: bigint;
  maxFeePerBlobGas?: bigint;
  blobVersionedHashes?: string[];
}

const TX_FIELDS: Record<string, [string, FieldDecoder]> = {
  from: ['from', decodeAddress],
  to: ['to', decodeAddress],
  gas: ['gas', decodeUint64],
  gasprice: ['gasPrice', decodeBig],
  maxfeepergas: ['maxFeePerGas', decodeBig],
  maxpriorityfeepergas: ['maxPriorityFeePerGas', decodeBig],
  value: ['value', decodeBig],
  nonce: ['nonce', decodeUint64],
  data: ['data', decodeBytes],
  input: ['input', decodeBytes],
  accesslist: ['accessList', arrayOf('types.AccessList', decodeAccessTuple)],
  chainid: ['chainId', decodeBig],
  maxfeeperblobgas: ['maxFeePerBlobGas', decodeBig],
  blobversionedhashes: ['blobVersionedHashes', arrayOf('[]common.Hash', decodeHash)],
};

export function decodeTransactionArgs(v: unknown): TransactionArgs {
  return decodeStruct('TransactionArgs', 'ethapi.TransactionArgs', v, TX_FIELDS) as TransactionArgs;
}

export const transactionArgsArg = (v: unknown, i: number): TransactionArgs =>
  v === undefined ? fail(missingArgument(i)) : arg(i, () => decodeTransactionArgs(v));

/** The call data geth uses: `input` if set, else `data`. */
export function callData(args: TransactionArgs): Uint8Array {
  return args.input ?? args.data ?? new Uint8Array(0);
}

/** geth's setDefaults check (eth_sendTransaction, eth_fillTransaction, eth_signTransaction): -32000. */
export function checkDataInput(args: TransactionArgs): void {
  if (args.data && args.input && !Buffer.from(args.data).equals(Buffer.from(args.input))) {
    throw new RpcError(-32000, 'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data');
  }
}

// ---------------------------------------------------------------------------------------------
// Filter criteria (eth/filters/api.go FilterCriteria.UnmarshalJSON)

export interface FilterCriteria {
  blockHash?: string;
  fromBlock?: BlockNumber;
  toBlock?: BlockNumber;
  /** Empty: any address. */
  addresses: string[];
  /** Position i: undefined/null = any topic, else one of the listed topics. */
  topics: (string[] | null)[];
}

const ERR_INVALID_TOPIC = 'invalid topic(s)';

function filterAddress(s: string): string {
  const b = hexDecode(s);
  if (b.length !== 20) throw new Error(`hex has invalid length ${b.length} after decoding; expected 20 for address`);
  return '0x' + Buffer.from(b).toString('hex');
}

function filterTopic(s: string): string {
  const b = hexDecode(s);
  if (b.length !== 32) throw new Error(`hex has invalid length ${b.length} after decoding; expected 32 for topic`);
  return '0x' + Buffer.from(b).toString('hex');
}

export function decodeFilterCriteria(v: unknown): FilterCriteria {
  const raw = decodeStruct('input', 'filters.input', v, {
    blockhash: ['blockHash', decodeHash],
    fromblock: ['fromBlock', decodeBlockNumber],
    toblock: ['toBlock', decodeBlockNumber],
    address: ['address', (x) => x],
    topics: ['topics', arrayOf('[]interface {}', (x) => x)],
  });
  const out: FilterCriteria = { addresses: [], topics: [] };
  if (raw.blockHash !== undefined) {
    if (raw.fromBlock !== undefined || raw.toBlock !== undefined) {
      throw new Error('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
    }
    out.blockHash = raw.blockHash as string;
  } else {
    if (raw.fromBlock !== undefined) out.fromBlock = raw.fromBlock as BlockNumber;
    if (raw.toBlock !== undefined) out.toBlock = raw.toBlock as BlockNumber;
  }
  const addr = raw.address;
  if (addr !== undefined) {
    if (Array.isArray(addr)) {
      addr.forEach((a, i) => {
        if (typeof a !== 'string') throw new Error(`non-string address at index ${i}`);
        try {
          out.addresses.push(filterAddress(a));
        } catch (e) {
          throw new Error(`invalid address at index ${i}: ${(e as Error).message}`);
        }
      });
    } else if (typeof addr === 'string') {
      try {
        out.addresses = [filterAddress(addr)];
      } catch (e) {
        throw new Error(`invalid address: ${(e as Error).message}`);
      }
    } else throw new Error('invalid addresses in query');
  }
  for (const t of (raw.topics as unknown[] | undefined) ?? []) {
    if (t === null) out.topics.push(null);
    else if (typeof t === 'string') out.topics.push([filterTopic(t)]);
    else if (Array.isArray(t)) {
      let alts: string[] | null = [];
      for (const x of t) {
        if (x === null) {
          alts = null; // a null alternative matches any topic
          break;
        }
        if (typeof x !== 'string') throw new Error(ERR_INVALID_TOPIC);
        alts.push(filterTopic(x));
      }
      out.topics.push(alts);
    } else throw new Error(ERR_INVALID_TOPIC);
  }
  return out;
}

export const filterCriteriaArg = (v: unknown, i: number): FilterCriteria =>
  v === undefined ? fail(missingArgument(i)) : arg(i, () => decodeFilterCriteria(v));

// ---------------------------------------------------------------------------------------------
// State overrides (ethapi.StateOverride = map[common.Address]OverrideAccount)

export interface OverrideAccount {
  nonce?: bigint;
  code?: Uint8Array;
  balance?: bigint;
  /** Replaces the whole storage. */
  state?: Map<string, string>;
  /** Patches single slots. */
  stateDiff?: Map<string, string>;
}

function storageMap(v: unknown): Map<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new GoTypeError(jsonKind(v), 'map[common.Hash]common.Hash');
  const m = new Map<string, string>();
  for (const k in v as Record<string, unknown>) {
    const key = fixedTextPlain('Hash', k, 32);
    m.set(key, decodeHash((v as Record<string, unknown>)[k]));
  }
  return m;
}

/** Map keys use UnmarshalText: hexutil errors come through unwrapped. */
function fixedTextPlain(typeName: string, s: string, size: number): string {
  try {
    return fixedText(typeName, s, size);
  } catch (e) {
    throw new Error((e as Error).message);
  }
}

const OVERRIDE_FIELDS: Record<string, [string, FieldDecoder]> = {
  nonce: ['nonce', decodeUint64],
  code: ['code', decodeBytes],
  balance: ['balance', decodeBig],
  state: ['state', storageMap],
  statediff: ['stateDiff', storageMap],
};

export function decodeStateOverride(v: unknown): Map<string, OverrideAccount> {
  const out = new Map<string, OverrideAccount>();
  if (v === null) return out;
  if (typeof v !== 'object' || Array.isArray(v)) throw new GoTypeError(jsonKind(v), 'ethapi.StateOverride');
  for (const k in v as Record<string, unknown>) {
    const addr = fixedTextPlain('Address', k, 20);
    out.set(addr, decodeStruct('OverrideAccount', 'ethapi.OverrideAccount', (v as Record<string, unknown>)[k], OVERRIDE_FIELDS) as OverrideAccount);
  }
  return out;
}

/** An optional *StateOverride argument (absent or null → undefined). */
export const optStateOverrideArg = (v: unknown, i: number): Map<string, OverrideAccount> | undefined =>
  absent(v) ? undefined : arg(i, () => decodeStateOverride(v));

/** geth's apply-time check, -32000. */
export function checkOverride(addr: string, acct: OverrideAccount): void {
  if (acct.state && acct.stateDiff) throw new RpcError(-32000, `account ${addr} has both 'state' and 'stateDiff'`);
}
