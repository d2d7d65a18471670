// Argument decoding for the chain's methods with geth's -32602 texts (hexutil / json errors).
import { RpcError } from '../rpc/server.js';

export function invalidArg(i: number, msg: string): RpcError {
  return new RpcError(-32602, `invalid argument ${i}: ${msg}`);
}

export function required(params: unknown[], i: number): unknown {
  if (params.length <= i || params[i] === undefined) throw new RpcError(-32602, `missing value for required argument ${i}`);
  return params[i];
}

function goType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

/** hexutil.Big / Uint64: "0x" quantity without leading zeros. */
export function quantity(v: unknown, i: number, what = 'hexutil.Big'): bigint {
  if (typeof v !== 'string') throw invalidArg(i, `json: cannot unmarshal ${goType(v)} into Go value of type ${what}`);
  if (!/^0[xX]/.test(v)) throw invalidArg(i, 'hex string without 0x prefix');
  const body = v.slice(2);
  if (body.length === 0) throw invalidArg(i, 'hex string "0x"');
  if (body.length > 1 && body[0] === '0') throw invalidArg(i, 'hex number with leading zero digits');
  if (!/^[0-9a-fA-F]+$/.test(body)) throw invalidArg(i, 'invalid hex string');
  if (body.length > 64) throw invalidArg(i, 'hex number > 256 bits');
  return BigInt(v);
}

export function address(v: unknown, i: number): string {
  if (typeof v !== 'string') throw invalidArg(i, `json: cannot unmarshal ${goType(v)} into Go value of type common.Address`);
  if (!/^0[xX]/.test(v)) throw invalidArg(i, 'json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address');
  if (!/^0[xX][0-9a-fA-F]*$/.test(v)) throw invalidArg(i, 'json: cannot unmarshal invalid hex string into Go value of type common.Address');
  if (v.length !== 42) throw invalidArg(i, `hex string has length ${v.length - 2}, want 40 for common.Address`);
  return v.toLowerCase();
}

export function hash32(v: unknown, i: number): string {
  if (typeof v !== 'string') throw invalidArg(i, `json: cannot unmarshal ${goType(v)} into Go value of type common.Hash`);
  if (!/^0[xX]/.test(v)) throw invalidArg(i, 'json: cannot unmarshal hex string without 0x prefix into Go value of type common.Hash');
  if (!/^0[xX][0-9a-fA-F]*$/.test(v)) throw invalidArg(i, 'json: cannot unmarshal invalid hex string into Go value of type common.Hash');
  if (v.length !== 66) throw invalidArg(i, `hex string has length ${v.length - 2}, want 64 for common.Hash`);
  return v.toLowerCase();
}

export function bytes(v: unknown, i: number): Uint8Array {
  if (typeof v !== 'string') throw invalidArg(i, `json: cannot unmarshal ${goType(v)} into Go value of type hexutil.Bytes`);
  if (!/^0[xX]/.test(v)) throw invalidArg(i, 'json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Bytes');
  if (v.length % 2) throw invalidArg(i, 'json: cannot unmarshal hex string of odd length into Go value of type hexutil.Bytes');
  if (!/^0[xX][0-9a-fA-F]*$/.test(v)) throw invalidArg(i, 'json: cannot unmarshal invalid hex string into Go value of type hexutil.Bytes');
  return Buffer.from(v.slice(2), 'hex');
}

/** Storage slot key: geth accepts any hex up to 32 bytes (left-padded). */
export function slotKey(v: unknown, i: number): Uint8Array {
  if (typeof v !== 'string') throw invalidArg(i, `json: cannot unmarshal ${goType(v)} into Go value of type string`);
  let h = v.replace(/^0[xX]/, '');
  if (!/^[0-9a-fA-F]*$/.test(h)) throw invalidArg(i, 'unable to decode storage key: hex string invalid');
  if (h.length > 64) throw invalidArg(i, 'unable to decode storage key: hex string too long, want at most 32 bytes');
  if (h.length % 2) h = '0' + h;
  const out = new Uint8Array(32);
  out.set(Buffer.from(h, 'hex'), 32 - h.length / 2);
  return out;
}

export function bool(v: unknown, i: number): boolean {
  if (typeof v !== 'boolean') throw invalidArg(i, `json: cannot unmarshal ${goType(v)} into Go value of type bool`);
  return v;
}

export type BlockSpec =
  | { kind: 'tag'; tag: 'latest' | 'earliest' | 'pending' | 'accepted' | 'safe' | 'finalized' }
  | { kind: 'number'; number: bigint }
  | { kind: 'hash'; hash: string; requireCanonical: boolean };

/** geth rpc.BlockNumber. */
export function blockNumber(v: unknown, i: number): BlockSpec {
  if (typeof v !== 'string') throw invalidArg(i, `json: cannot unmarshal ${goType(v)} into Go value of type string`);
  switch (v) {
    case 'latest':
    case 'earliest':
    case 'pending':
    case 'accepted':
    case 'safe':
    case 'finalized':
      return { kind: 'tag', tag: v };
  }
  const n = quantity(v, i);
  if (n > 0x7fffffffffffffffn) throw invalidArg(i, 'block number larger than int64');
  return { kind: 'number', number: n };
}

/** geth rpc.BlockNumberOrHash. */
export function blockNumberOrHash(v: unknown, i: number): BlockSpec {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (o.blockHash !== undefined && o.blockNumber !== undefined) throw invalidArg(i, 'cannot specify both BlockHash and BlockNumber, choose one or the other');
    if (o.blockHash !== undefined) return { kind: 'hash', hash: hash32(o.blockHash, i), requireCanonical: o.requireCanonical === true };
    if (o.blockNumber !== undefined) return blockNumber(o.blockNumber, i);
    throw invalidArg(i, 'either BlockHash or BlockNumber must be specified');
  }
  if (typeof v === 'string' && v.length === 66 && /^0[xX]/.test(v)) return { kind: 'hash', hash: hash32(v, i), requireCanonical: false };
  return blockNumber(v, i);
}

/** Optional argument helper: absent or null → undefined. */
export function opt<T>(params: unknown[], i: number, f: (v: unknown, i: number) => T): T | undefined {
  const v = params[i];
  return v === undefined || v === null ? undefined : f(v, i);
}
