// Argument decoding for the chain's methods: thin adapters over src/evm/rpc/params.ts (geth's
// exact -32602 texts) into the shapes the chain uses.
import { RpcError, goKind } from '../rpc/server.js';
import {
  arg,
  decodeAddress,
  decodeBig,
  decodeBlockNumber,
  decodeBlockNumberOrHash,
  decodeBool,
  decodeBytes,
  decodeHash,
  decodeUint64,
  missingArgument,
  NEITHER_BLOCK_NOR_HASH,
  type BlockNumber,
  type BlockNumberOrHash,
} from '../rpc/params.js';

export function invalidArg(i: number, msg: string): RpcError {
  return new RpcError(-32602, `invalid argument ${i}: ${msg}`);
}

export function required(params: unknown[], i: number): unknown {
  if (params.length <= i || params[i] === undefined) throw missingArgument(i);
  return params[i];
}

/** hexutil.Big (what = 'hexutil.Uint64' / 'hexutil.Uint' for 64-bit quantities). */
export function quantity(v: unknown, i: number, what = 'hexutil.Big'): bigint {
  return arg(i, () => (what === 'hexutil.Big' ? decodeBig(v) : decodeUint64(v)));
}

export function address(v: unknown, i: number): string {
  return arg(i, () => decodeAddress(v)).toLowerCase();
}

export function hash32(v: unknown, i: number): string {
  return arg(i, () => decodeHash(v)).toLowerCase();
}

export function bytes(v: unknown, i: number): Uint8Array {
  return arg(i, () => decodeBytes(v));
}

/** Storage slot key: geth accepts any hex up to 32 bytes (left-padded); null is Go's "" (slot 0). */
export function slotKey(v: unknown, i: number): Uint8Array {
  if (v === null) v = '';
  if (typeof v !== 'string') throw invalidArg(i, `json: cannot unmarshal ${goKind(v)} into Go value of type string`);
  let h = v.replace(/^0[xX]/, '');
  if (!/^[0-9a-fA-F]*$/.test(h)) throw invalidArg(i, 'unable to decode storage key: hex string invalid');
  if (h.length > 64) throw invalidArg(i, 'unable to decode storage key: hex string too long, want at most 32 bytes');
  if (h.length % 2) h = '0' + h;
  const out = new Uint8Array(32);
  out.set(Buffer.from(h, 'hex'), 32 - h.length / 2);
  return out;
}

export function bool(v: unknown, i: number): boolean {
  return arg(i, () => decodeBool(v));
}

export type BlockSpec =
  | { kind: 'tag'; tag: 'latest' | 'earliest' | 'pending' | 'accepted' | 'safe' | 'finalized' }
  | { kind: 'number'; number: bigint }
  | { kind: 'hash'; hash: string; requireCanonical: boolean };

function fromNumber(n: BlockNumber): BlockSpec {
  return typeof n === 'bigint' ? { kind: 'number', number: n } : { kind: 'tag', tag: n };
}

export function fromBlockNumberOrHash(r: BlockNumberOrHash): BlockSpec {
  if (r.hash !== undefined) return { kind: 'hash', hash: r.hash.toLowerCase(), requireCanonical: r.requireCanonical };
  if (r.number !== undefined) return fromNumber(r.number);
  throw new RpcError(-32000, NEITHER_BLOCK_NOR_HASH);
}

/** geth rpc.BlockNumber. */
export function blockNumber(v: unknown, i: number): BlockSpec {
  return fromNumber(arg(i, () => decodeBlockNumber(v)));
}

/** geth rpc.BlockNumberOrHash (null / {} → -32000 neither block nor hash). */
export function blockNumberOrHash(v: unknown, i: number): BlockSpec {
  return fromBlockNumberOrHash(arg(i, () => decodeBlockNumberOrHash(v)));
}

/** Optional argument helper: absent or null → undefined. */
export function opt<T>(params: unknown[], i: number, f: (v: unknown, i: number) => T): T | undefined {
  const v = params[i];
  return v === undefined || v === null ? undefined : f(v, i);
}
