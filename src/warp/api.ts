// The `warp` namespace on a chain's /rpc (subnet-evm.md §3.2; enabled by `warp-api-enabled`).
// IDs are CB58 strings; results are 0x hex data.
import { EMPTY_ID } from '../ids/ids.js';
import { cb58Decode } from '../ids/cb58.js';
import { LONGEST_ID, parseIDArg } from '../rpc/idArgs.js';
import type { WarpBackend } from './backend.js';
import { RpcError } from '../evm/rpc/server.js';

export type WarpMethod = (params: unknown[]) => unknown;

function hex(b: Uint8Array): string {
  return '0x' + Buffer.from(b).toString('hex');
}

/** Required positional argument (geth: a missing non-pointer argument is an error). */
function present(params: unknown[], i: number): unknown {
  if (!Array.isArray(params) || params.length <= i) throw argumentError(`missing value for required argument ${i}`);
  return params[i];
}

/** ids.ID from JSON: a CB58 string (JSON null = the empty ID, as Go's decoder leaves it). */
function idArg(params: unknown[], i: number): string {
  const v = present(params, i);
  if (v === null) return EMPTY_ID;
  if (typeof v !== 'string') throw argumentError(`invalid argument ${i}: first and last characters should be quotes`);
  // A text longer than any ID (always an error) skips the quadratic base58 decode (rpc/idArgs.ts).
  if (v.length > LONGEST_ID) {
    try {
      parseIDArg(v);
    } catch (e) {
      const msg = (e as Error).message;
      throw argumentError(`invalid argument ${i}: ${msg.startsWith('invalid hash length') ? '' : "couldn't decode ID to bytes: "}${msg}`);
    }
  }
  let bytes: Uint8Array;
  try {
    bytes = cb58Decode(v);
  } catch (e) {
    throw argumentError(`invalid argument ${i}: couldn't decode ID to bytes: ${(e as Error).message}`);
  }
  if (bytes.length !== 32) throw argumentError(`invalid argument ${i}: invalid hash length: expected 32 bytes but got ${bytes.length}`);
  return v;
}

function jsonKind(v: unknown): string {
  if (typeof v === 'number') return `number ${v}`;
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** uint64 from JSON (null = 0). */
function quorumArg(params: unknown[], i: number): bigint {
  const v = present(params, i);
  if (v === null) return 0n;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > Number.MAX_SAFE_INTEGER) {
    throw argumentError(`invalid argument ${i}: json: cannot unmarshal ${jsonKind(v)} into Go value of type uint64`);
  }
  return BigInt(v);
}

/** string from JSON (null = ""). */
function strArg(params: unknown[], i: number): string {
  const v = present(params, i);
  if (v === null) return '';
  if (typeof v !== 'string') throw argumentError(`invalid argument ${i}: json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
  return v;
}

/** A geth-style argument error: -32602 with geth's `invalid argument N: …` text. */
function argumentError(message: string): RpcError {
  return new RpcError(-32602, message);
}

export function warpMethods(backend: WarpBackend): Map<string, WarpMethod> {
  return new Map<string, WarpMethod>([
    ['warp_getMessage', (p) => hex(backend.getMessage(idArg(p, 0)))],
    ['warp_getMessageSignature', (p) => hex(backend.getMessageSignature(idArg(p, 0)))],
    ['warp_getBlockSignature', (p) => hex(backend.getBlockSignature(idArg(p, 0)))],
    [
      'warp_getMessageAggregateSignature',
      (p) => {
        const id = idArg(p, 0);
        const q = quorumArg(p, 1);
        return hex(backend.aggregateSignature(backend.getMessage(id), q, strArg(p, 2)));
      },
    ],
    [
      'warp_getBlockAggregateSignature',
      (p) => {
        const id = idArg(p, 0);
        const q = quorumArg(p, 1);
        return hex(backend.aggregateSignature(backend.blockMessage(id), q, strArg(p, 2)));
      },
    ],
  ]);
}
