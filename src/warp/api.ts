// The `warp` namespace on a chain's /rpc (subnet-evm.md §3.2; enabled by `warp-api-enabled`).
// IDs are CB58 strings; results are 0x hex data.
import { parseID } from '../ids/ids.js';
import type { WarpBackend } from './backend.js';

export type WarpMethod = (params: unknown[]) => unknown;

function hex(b: Uint8Array): string {
  return '0x' + Buffer.from(b).toString('hex');
}

/** ids.ID from JSON: a CB58 string; anything else is an argument error. */
function idArg(params: unknown[], i: number): string {
  const v = params[i];
  if (v === undefined || v === null) throw new ArgumentError(i, `missing value for required argument ${i}`);
  if (typeof v !== 'string') throw new ArgumentError(i, `invalid argument ${i}: first and last characters should be quotes`);
  try {
    parseID(v);
  } catch (e) {
    throw new ArgumentError(i, `invalid argument ${i}: ${(e as Error).message}`);
  }
  return v;
}

function quorumArg(params: unknown[], i: number): bigint {
  const v = params[i];
  if (v === undefined || v === null) throw new ArgumentError(i, `missing value for required argument ${i}`);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffffffffffff) {
    throw new ArgumentError(i, `invalid argument ${i}: json: cannot unmarshal ${typeof v} into Go value of type uint64`);
  }
  return BigInt(v);
}

function strArg(params: unknown[], i: number): string {
  const v = params[i];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new ArgumentError(i, `invalid argument ${i}: json: cannot unmarshal ${typeof v} into Go value of type string`);
  return v;
}

/** A geth-style -32602 argument error (the chain's RPC server maps `code`). */
export class ArgumentError extends Error {
  readonly code = -32602;
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
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
