// What the test controls' modules share (testControls.ts builds it; devMetadata.ts, erc20Slots.ts,
// rollback.ts, anvilAliases.ts, devLogging.ts and refusedControls.ts register their methods with it),
// and the argument readers they have in common.
import { randomBytes } from 'node:crypto';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { invalidArg, quantity } from './args.js';
import { checkArgs } from '../rpc/params.js';
import type { EvmBackend } from './backend.js';
import type { MethodTable } from './eth.js';
import { MAX_BLOCK_TIME_MS } from '../miner/miner.js';

/** An evm_snapshot / anvil_snapshot: the head it was taken at, its state and the clock's offset. */
export interface Snapshot {
  number: bigint;
  /** The head's hash (anvil_metadata lists it). */
  hash: string;
  stateRoot: Uint8Array;
  offsetMs: bigint;
}

export interface ControlContext {
  be: EvmBackend;
  /** The method table the controls are registered in. */
  m: MethodTable;
  /** Snapshot id ("0x1"…) → snapshot, in the order taken. */
  snapshots: Map<string, Snapshot>;
  /** A state edit of the head (anvil_setBalance & co.), durable, under the miner's lock; the pool re-checked. */
  editState(fn: (sm: MerkleStateManager) => Promise<void>): Promise<void>;
  /** `count` real blocks (`intervalS` apart when given), refused first if they would pass the end of time. */
  mineBlocks(count: bigint, intervalS?: bigint): Promise<void>;
  /** The node instance's id (anvil_metadata / hardhat_metadata): new at each start and each reset. */
  instance: InstanceId;
}

/**
 * Hardhat's and Anvil's instance id: 32 random bytes as 0x hex, drawn when first read (not while
 * the chain starts), drawn again after a reset.
 */
export class InstanceId {
  private id: string | undefined;
  get(): string {
    return (this.id ??= '0x' + randomBytes(32).toString('hex'));
  }
  renew(): void {
    this.id = undefined;
  }
}

/** A non-negative whole number: a JSON number, a decimal string or a hex quantity. */
export function num(v: unknown, i: number): bigint {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return BigInt(v);
  // Numbers are accepted (as on Anvil and Hardhat), so a bad one is named as such.
  if (typeof v === 'number') throw invalidArg(i, `${v} is not a non-negative whole number (a number, a decimal string or a hex quantity)`);
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  return quantity(v, i);
}

/**
 * Block times are uint64 seconds, and Granite headers carry them in milliseconds too: the latest
 * second whose milliseconds fit in a uint64. A larger one would be stored and break every later
 * block and every contract reading TIMESTAMP.
 */
export const MAX_TIMESTAMP_S = MAX_BLOCK_TIME_MS / 1000n;
/** Blocks one anvil_mine / hardhat_mine / evm_mine call builds (each is a real block). */
export const MAX_MINE_BLOCKS = 1_000_000n;

/** A block time in seconds (number, decimal or hex string), within MAX_TIMESTAMP_S. */
export function timestampArg(v: unknown, i: number): bigint {
  const ts = num(v, i);
  if (ts > MAX_TIMESTAMP_S) throw invalidArg(i, `timestamp ${ts} out of range: block times are uint64 milliseconds (at most ${MAX_TIMESTAMP_S} s)`);
  return ts;
}

export function blockCountArg(v: unknown, i: number): bigint {
  const n = num(v, i);
  if (n > MAX_MINE_BLOCKS) throw invalidArg(i, `cannot mine ${n} blocks in one call (at most ${MAX_MINE_BLOCKS})`);
  return n;
}

/** A control taking at most `max` params: more is geth's `-32602 too many arguments, want at most N`. */
export function withArity(max: number, fn: (p: unknown[]) => unknown): (p: unknown[]) => unknown {
  return (p) => {
    checkArgs(p, max);
    return fn(p);
  };
}
