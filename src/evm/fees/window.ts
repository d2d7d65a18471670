// Base fee: the SubnetEVM "window" algorithm (reference subnet-evm.md §7.4).
//   WINDOW_LEN, WINDOW_BYTES, parseWindow(extra), encodeWindow(w),
//   nextBaseFee(cfg, fc, parent, childTime) → { baseFee, window } | null,
//   estimateNextBaseFee(cfg, fc, head, nowMs), childExtraData(cfg, window, childTime, predicateResults?),
//   verifyExtraData(cfg, extra, childTime, expectedWindow?).
// The window stored in a header's extraData is the one used to compute THAT header's base fee.
import { isForkActive, type NetworkUpgrades } from '../config/networkUpgrades.js';
import type { FeeConfig } from './feeConfig.js';

export const WINDOW_LEN = 10;
export const WINDOW_BYTES = 80;
/** Durango+ extraData suffix when a block has no warp predicates: codec version 0 + empty map. */
export const EMPTY_PREDICATE_RESULTS: Uint8Array = new Uint8Array(6);

const MAX_UINT64 = (1n << 64n) - 1n;
const MAX_UINT256 = (1n << 256n) - 1n;

export interface ForkSchedule {
  networkUpgrades: NetworkUpgrades;
}

/** The fields of a parent header the fee rules read. */
export interface FeeParent {
  number: bigint;
  /** Unix seconds. */
  timestamp: bigint;
  extraData: Uint8Array;
  gasUsed: bigint;
  baseFee?: bigint;
  blockGasCost?: bigint;
}

export type FeeWindow = bigint[];

export function parseWindow(extra: Uint8Array): FeeWindow {
  if (extra.length < WINDOW_BYTES)
    throw new Error(`insufficient length for window: expected at least ${WINDOW_BYTES} bytes but got ${extra.length} bytes`);
  const dv = new DataView(extra.buffer, extra.byteOffset, WINDOW_BYTES);
  const w: FeeWindow = new Array(WINDOW_LEN);
  for (let i = 0; i < WINDOW_LEN; i++) w[i] = dv.getBigUint64(i * 8, false);
  return w;
}

export function encodeWindow(w: FeeWindow): Uint8Array {
  const out = new Uint8Array(WINDOW_BYTES);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < WINDOW_LEN; i++) dv.setBigUint64(i * 8, w[i]!, false);
  return out;
}

function satAdd64(a: bigint, b: bigint): bigint {
  const s = a + b;
  return s > MAX_UINT64 ? MAX_UINT64 : s;
}

export interface NextBaseFee {
  baseFee: bigint;
  /** Window for the child's extraData[0:80] (the parent's window rolled forward to the child's time). */
  window: FeeWindow;
}

/**
 * Base fee of a child of `parent` at `childTime` (seconds = floor(ms/1000)), with `fc` = the fee
 * config for the child (feeConfigForChild). null before SubnetEVM (no base fee).
 */
export function nextBaseFee(cfg: ForkSchedule, fc: FeeConfig, parent: FeeParent, childTime: bigint): NextBaseFee | null {
  const u = cfg.networkUpgrades;
  if (!isForkActive(u.subnetEVMTimestamp, childTime)) return null;
  if (!isForkActive(u.subnetEVMTimestamp, parent.timestamp) || parent.number === 0n) {
    return { baseFee: fc.minBaseFee, window: new Array<bigint>(WINDOW_LEN).fill(0n) };
  }
  if (childTime < parent.timestamp)
    throw new Error(`invalid timestamp: timestamp ${childTime} prior to parent timestamp ${parent.timestamp}`);
  const parentBaseFee = parent.baseFee;
  if (parentBaseFee === undefined) throw new Error('invalid base fee: parent base fee is nil');

  const w = parseWindow(parent.extraData);
  w[WINDOW_LEN - 1] = satAdd64(w[WINDOW_LEN - 1]!, parent.gasUsed);
  const n = childTime - parent.timestamp;
  let rolled: FeeWindow;
  if (n >= BigInt(WINDOW_LEN)) rolled = new Array<bigint>(WINDOW_LEN).fill(0n);
  else {
    const k = Number(n);
    rolled = w.slice(k);
    for (let i = 0; i < k; i++) rolled.push(0n);
  }
  let total = 0n;
  for (const x of rolled) total = satAdd64(total, x);

  const T = fc.targetGas;
  const D = fc.baseFeeChangeDenominator;
  const B = parentBaseFee;
  if (total === T) return { baseFee: B, window: rolled };
  let bf: bigint;
  if (total > T) {
    let delta = ((total - T) * B) / T / D;
    if (delta < 1n) delta = 1n;
    bf = B + delta;
  } else {
    let delta = ((T - total) * B) / T / D;
    if (delta < 1n) delta = 1n;
    const k = n / BigInt(WINDOW_LEN);
    if (k > 1n) delta *= k;
    bf = B - delta;
  }
  if (bf < fc.minBaseFee) bf = fc.minBaseFee;
  if (bf > MAX_UINT256) bf = MAX_UINT256;
  return { baseFee: bf, window: rolled };
}

/**
 * EstimateNextBaseFee (eth_baseFee, eth_gasPrice, tx-pool pricing): base fee of a block built now on
 * top of `head`. `headMs` is the head's millisecond time (timestampMilliseconds ?? timestamp*1000).
 */
export function estimateNextBaseFee(
  cfg: ForkSchedule,
  fc: FeeConfig,
  head: FeeParent,
  headMs: bigint,
  nowMs: bigint,
): bigint | null {
  const ms = nowMs > headMs ? nowMs : headMs;
  return nextBaseFee(cfg, fc, head, ms / 1000n)?.baseFee ?? null;
}

/**
 * extraData of a new block: pre-SubnetEVM empty; SubnetEVM the 80-byte window; Durango+ window ‖
 * predicate results (EMPTY_PREDICATE_RESULTS when the block has no warp predicates).
 */
export function childExtraData(
  cfg: ForkSchedule,
  window: FeeWindow | null,
  childTime: bigint,
  predicateResults: Uint8Array = EMPTY_PREDICATE_RESULTS,
): Uint8Array {
  const u = cfg.networkUpgrades;
  if (!isForkActive(u.subnetEVMTimestamp, childTime) || window === null) return new Uint8Array(0);
  const w = encodeWindow(window);
  if (!isForkActive(u.durangoTimestamp, childTime)) return w;
  const out = new Uint8Array(WINDOW_BYTES + predicateResults.length);
  out.set(w, 0);
  out.set(predicateResults, WINDOW_BYTES);
  return out;
}

const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** VerifyExtra (§7.4): length by era and the window prefix. Throws the real node's texts. */
export function verifyExtraData(cfg: ForkSchedule, extra: Uint8Array, time: bigint, expectedWindow?: FeeWindow): void {
  const u = cfg.networkUpgrades;
  if (!isForkActive(u.subnetEVMTimestamp, time)) {
    if (extra.length > 64) throw new Error(`invalid header.Extra length: expected <= 64 but got ${extra.length}`);
    return;
  }
  if (isForkActive(u.durangoTimestamp, time)) {
    if (extra.length < WINDOW_BYTES)
      throw new Error(`invalid header.Extra length: expected >= ${WINDOW_BYTES} but got ${extra.length}`);
  } else if (extra.length !== WINDOW_BYTES) {
    throw new Error(`invalid header.Extra length: expected ${WINDOW_BYTES} but got ${extra.length}`);
  }
  if (expectedWindow) {
    const want = encodeWindow(expectedWindow);
    const have = extra.subarray(0, WINDOW_BYTES);
    if (!Buffer.from(want).equals(Buffer.from(have.buffer, have.byteOffset, have.byteLength)))
      throw new Error(`invalid header.Extra prefix: expected ${hex(want)} as prefix, found ${hex(extra)}`);
  }
}
