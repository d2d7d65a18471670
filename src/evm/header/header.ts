// The Subnet-EVM block header (reference subnet-evm.md §5.3, §1.4).
//   Header, encodeHeader(h) (RLP in the Subnet-EVM layout), hashHeader(h), decodeHeader(bytes),
//   headerJSON(h, extra) (eth_getBlockBy* / eth_getHeaderBy* fields, keys sorted like Go's map output),
//   EMPTY_UNCLE_HASH, EMPTY_ROOT, ZERO_HASH, EMPTY_BLOOM, ZERO_NONCE.
// Layout: the optional tail is baseFee, blockGasCost (where geth has withdrawalsRoot), blobGasUsed,
// excessBlobGas, parentBeaconRoot, timestampMilliseconds, minDelayExcess — emitted up to the last
// present field, with 0x80 for a missing field before it. Ethereum header libraries hash it wrongly.
import { encode, decode } from '@ethereumjs/rlp';
import { keccak256 } from '../crypto.js';
import { hex0x } from '../../hexOf.js';

export interface Header {
  parentHash: Uint8Array;
  uncleHash: Uint8Array;
  coinbase: Uint8Array;
  stateRoot: Uint8Array;
  transactionsRoot: Uint8Array;
  receiptsRoot: Uint8Array;
  logsBloom: Uint8Array;
  difficulty: bigint;
  number: bigint;
  gasLimit: bigint;
  gasUsed: bigint;
  /** Unix seconds. */
  timestamp: bigint;
  extraData: Uint8Array;
  mixHash: Uint8Array;
  /** 8 bytes. */
  nonce: Uint8Array;
  baseFee?: bigint;
  blockGasCost?: bigint;
  blobGasUsed?: bigint;
  excessBlobGas?: bigint;
  parentBeaconRoot?: Uint8Array;
  timestampMilliseconds?: bigint;
  minDelayExcess?: bigint;
}

const fromHex = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));
export const EMPTY_UNCLE_HASH = fromHex('1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347');
export const EMPTY_ROOT = fromHex('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
export const ZERO_HASH = new Uint8Array(32);
export const ZERO_ADDRESS = new Uint8Array(20);
export const EMPTY_BLOOM = new Uint8Array(256);
export const ZERO_NONCE = new Uint8Array(8);

const EMPTY = new Uint8Array(0);

/** Minimal big-endian bytes of a non-negative integer (RLP integer form). */
export function bigintToBytes(v: bigint): Uint8Array {
  if (v < 0n) throw new Error('negative integer in header');
  if (v === 0n) return EMPTY;
  if (v < 256n) return Uint8Array.of(Number(v));
  let s = v.toString(16);
  if (s.length & 1) s = '0' + s;
  return new Uint8Array(Buffer.from(s, 'hex'));
}

function bytesToBigint(b: Uint8Array, field: string): bigint {
  if (b.length === 0) return 0n;
  if (b[0] === 0) throw new Error(`rlp: non-canonical integer (leading zero bytes) for header field ${field}`);
  return BigInt(hex0x(b));
}

type Tail = [bigint | undefined, bigint | undefined, bigint | undefined, bigint | undefined, Uint8Array | undefined, bigint | undefined, bigint | undefined];

function headerList(h: Header): Uint8Array[] {
  const list: Uint8Array[] = [
    h.parentHash,
    h.uncleHash,
    h.coinbase,
    h.stateRoot,
    h.transactionsRoot,
    h.receiptsRoot,
    h.logsBloom,
    bigintToBytes(h.difficulty),
    bigintToBytes(h.number),
    bigintToBytes(h.gasLimit),
    bigintToBytes(h.gasUsed),
    bigintToBytes(h.timestamp),
    h.extraData,
    h.mixHash,
    h.nonce,
  ];
  const tail: Tail = [
    h.baseFee,
    h.blockGasCost,
    h.blobGasUsed,
    h.excessBlobGas,
    h.parentBeaconRoot,
    h.timestampMilliseconds,
    h.minDelayExcess,
  ];
  let last = tail.length - 1;
  while (last >= 0 && tail[last] === undefined) last--;
  for (let i = 0; i <= last; i++) {
    const v = tail[i];
    list.push(v === undefined ? EMPTY : typeof v === 'bigint' ? bigintToBytes(v) : v);
  }
  return list;
}

export function encodeHeader(h: Header): Uint8Array {
  return encode(headerList(h));
}

export function hashHeader(h: Header): Uint8Array {
  return keccak256(encodeHeader(h));
}

function fixed(b: unknown, len: number, field: string): Uint8Array {
  if (!(b instanceof Uint8Array)) throw new Error(`rlp: expected bytes for header field ${field}`);
  if (b.length !== len) throw new Error(`rlp: input string of length ${b.length}, want ${len} for header field ${field}`);
  return b;
}

function asBytes(b: unknown, field: string): Uint8Array {
  if (!(b instanceof Uint8Array)) throw new Error(`rlp: expected bytes for header field ${field}`);
  return b;
}

function int(b: unknown, field: string): bigint {
  if (!(b instanceof Uint8Array)) throw new Error(`rlp: expected bytes for header field ${field}`);
  return bytesToBigint(b, field);
}

/** Decode an RLP header (a list, or the first element of a block list is the caller's job). */
export function decodeHeader(bytes: Uint8Array): Header {
  const l = decode(bytes) as unknown;
  if (!Array.isArray(l)) throw new Error('rlp: expected input list for header');
  if (l.length < 15 || l.length > 22) throw new Error(`rlp: header has ${l.length} fields, want 15..22`);
  const h: Header = {
    parentHash: fixed(l[0], 32, 'parentHash'),
    uncleHash: fixed(l[1], 32, 'sha3Uncles'),
    coinbase: fixed(l[2], 20, 'miner'),
    stateRoot: fixed(l[3], 32, 'stateRoot'),
    transactionsRoot: fixed(l[4], 32, 'transactionsRoot'),
    receiptsRoot: fixed(l[5], 32, 'receiptsRoot'),
    logsBloom: fixed(l[6], 256, 'logsBloom'),
    difficulty: int(l[7], 'difficulty'),
    number: int(l[8], 'number'),
    gasLimit: int(l[9], 'gasLimit'),
    gasUsed: int(l[10], 'gasUsed'),
    timestamp: int(l[11], 'timestamp'),
    extraData: asBytes(l[12], 'extraData'),
    mixHash: fixed(l[13], 32, 'mixHash'),
    nonce: fixed(l[14], 8, 'nonce'),
  };
  if (l.length > 15) h.baseFee = int(l[15], 'baseFee');
  if (l.length > 16) h.blockGasCost = int(l[16], 'blockGasCost');
  if (l.length > 17) h.blobGasUsed = int(l[17], 'blobGasUsed');
  if (l.length > 18) h.excessBlobGas = int(l[18], 'excessBlobGas');
  if (l.length > 19) h.parentBeaconRoot = fixed(l[19], 32, 'parentBeaconBlockRoot');
  if (l.length > 20) h.timestampMilliseconds = int(l[20], 'timestampMilliseconds');
  if (l.length > 21) h.minDelayExcess = int(l[21], 'minDelayExcess');
  return h;
}

const qty = (v: bigint): string => '0x' + v.toString(16);
const data: (b: Uint8Array) => string = hex0x;

/**
 * Header JSON as eth_getBlockBy* / eth_getHeaderBy* return it: standard geth fields, the
 * Subnet-EVM extras exactly when the header has them, `totalDifficulty` = block number, and every
 * key of `extra` (e.g. size, transactions, uncles) merged in. Keys are sorted as Go sorts a map.
 */
export function headerJSON(h: Header, extra: { hash: Uint8Array; [key: string]: unknown }): Record<string, unknown> {
  const o: Record<string, unknown> = {
    difficulty: qty(h.difficulty),
    extraData: data(h.extraData),
    gasLimit: qty(h.gasLimit),
    gasUsed: qty(h.gasUsed),
    logsBloom: data(h.logsBloom),
    miner: data(h.coinbase),
    mixHash: data(h.mixHash),
    nonce: data(h.nonce),
    number: qty(h.number),
    parentHash: data(h.parentHash),
    receiptsRoot: data(h.receiptsRoot),
    sha3Uncles: data(h.uncleHash),
    stateRoot: data(h.stateRoot),
    timestamp: qty(h.timestamp),
    totalDifficulty: qty(h.number),
    transactionsRoot: data(h.transactionsRoot),
  };
  if (h.baseFee !== undefined) o.baseFeePerGas = qty(h.baseFee);
  if (h.blockGasCost !== undefined) o.blockGasCost = qty(h.blockGasCost);
  if (h.blobGasUsed !== undefined) o.blobGasUsed = qty(h.blobGasUsed);
  if (h.excessBlobGas !== undefined) o.excessBlobGas = qty(h.excessBlobGas);
  if (h.parentBeaconRoot !== undefined) o.parentBeaconBlockRoot = data(h.parentBeaconRoot);
  if (h.timestampMilliseconds !== undefined) o.timestampMilliseconds = qty(h.timestampMilliseconds);
  if (h.minDelayExcess !== undefined) o.minDelayExcess = qty(h.minDelayExcess);
  for (const k of Object.keys(extra)) o[k] = k === 'hash' ? data(extra.hash) : extra[k];
  const sorted: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) sorted[k] = o[k];
  return sorted;
}

/**
 * Header JSON as an `eth_subscribe("newHeads")` notification carries it: geth sends the header
 * value itself, so the keys follow the fields of Subnet-EVM's `HeaderSerializable`
 * (customtypes/header_ext.go) in their declared order, then `hash` (gencodec's generated
 * `MarshalJSON`); an optional field the header lacks is `null` (its tags have no `omitempty`), and
 * there is no `totalDifficulty`, `size` or body.
 */
export function headerNotificationJSON(h: Header, hash: Uint8Array): Record<string, unknown> {
  const opt = (v: bigint | undefined): string | null => (v === undefined ? null : qty(v));
  return {
    parentHash: data(h.parentHash),
    sha3Uncles: data(h.uncleHash),
    miner: data(h.coinbase),
    stateRoot: data(h.stateRoot),
    transactionsRoot: data(h.transactionsRoot),
    receiptsRoot: data(h.receiptsRoot),
    logsBloom: data(h.logsBloom),
    difficulty: qty(h.difficulty),
    number: qty(h.number),
    gasLimit: qty(h.gasLimit),
    gasUsed: qty(h.gasUsed),
    timestamp: qty(h.timestamp),
    extraData: data(h.extraData),
    mixHash: data(h.mixHash),
    nonce: data(h.nonce),
    baseFeePerGas: opt(h.baseFee),
    blockGasCost: opt(h.blockGasCost),
    blobGasUsed: opt(h.blobGasUsed),
    excessBlobGas: opt(h.excessBlobGas),
    parentBeaconBlockRoot: h.parentBeaconRoot === undefined ? null : data(h.parentBeaconRoot),
    timestampMilliseconds: opt(h.timestampMilliseconds),
    minDelayExcess: opt(h.minDelayExcess),
    hash: data(hash),
  };
}
