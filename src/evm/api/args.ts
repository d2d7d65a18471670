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
  decodeUintBig,
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
  // Each decoder names its own Go type in its errors (`… into Go value of type hexutil.Uint`).
  return arg(i, () => (what === 'hexutil.Big' ? decodeBig(v) : what === 'hexutil.Uint' ? decodeUintBig(v) : decodeUint64(v)));
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

/**
 * Storage slot key for the test controls (anvil_setStorageAt & co.): any hex up to 32 bytes
 * (left-padded); null is Go's "" (slot 0); a bad one is -32602 naming the argument.
 */
export function slotKey(v: unknown, i: number): Uint8Array {
  const text = slotKeyText(v, i);
  try {
    return decodeStorageKey(text).key;
  } catch (e) {
    throw invalidArg(i, `unable to decode storage key: ${(e as Error).message}`);
  }
}

/** A storage key argument as geth takes it, a Go string: null is "" (slot 0), another kind -32602. */
export function slotKeyText(v: unknown, i: number): string {
  if (v === null) return '';
  if (typeof v !== 'string') throw invalidArg(i, `json: cannot unmarshal ${goKind(v)} into Go value of type string`);
  return v;
}

/**
 * geth's decodeHash for storage keys (eth_getStorageAt, eth_getProof): any hex up to 32 bytes,
 * `0x` optional, left-padded; `length` = the bytes given. Its errors are plain errors (-32000),
 * which the methods word as geth does.
 */
export function decodeStorageKey(s: string): { key: Uint8Array; length: number } {
  let h = s.replace(/^0[xX]/, '');
  if (h.length % 2) h = '0' + h;
  if (!/^[0-9a-fA-F]*$/.test(h)) throw new RpcError(-32000, 'hex string invalid');
  if (h.length > 64) throw new RpcError(-32000, 'hex string too long, want at most 32 bytes');
  const key = new Uint8Array(32);
  key.set(Buffer.from(h, 'hex'), 32 - h.length / 2);
  return { key, length: h.length / 2 };
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

/** geth's rpc.BlockNumber int64 for a block spec: numbers as they are, tags negative (earliest is 0; none is latest). */
export function blockNumberCode(s: BlockSpec | undefined): bigint {
  if (!s) return -2n;
  if (s.kind === 'number') return s.number;
  if (s.kind !== 'tag') return -2n;
  const codes: Record<string, bigint> = { earliest: 0n, latest: -2n, pending: -1n, accepted: -3n, finalized: -3n, safe: -4n };
  return codes[s.tag] ?? -2n;
}
