// ACP-226 minimum block delay, Granite+ (reference subnet-evm.md §7.7).
//   fakeExponential(f, x, d), delayMsFromExcess(excess), desiredMinDelayExcess(targetMs),
//   childMinDelayExcess(parentExcess | undefined, desired | null), genesisMinDelayExcess(initialMinDelayMS),
//   verifyHeaderTime(cfg, header, parent, nowMs), headerTimeMs(h).
import { isForkActive } from '../config/networkUpgrades.js';
import type { ForkSchedule } from './window.js';

export const MIN_DELAY_MULTIPLIER = 1n; // M, ms
export const MIN_DELAY_CONVERSION = 1n << 20n; // D
export const MAX_DELAY_EXCESS_DIFF = 200n; // Q
export const INITIAL_MIN_DELAY_EXCESS = 7_970_124n; // → 2000 ms
export const MAX_MIN_DELAY_EXCESS = 46_516_320n;
/** Blocks may be at most this far (ms) ahead of the local clock. */
export const MAX_FUTURE_BLOCK_MS = 10_000n;

const MAX_UINT64 = (1n << 64n) - 1n;

/** EIP-4844-style integer approximation of f·e^(x/d), saturating at 2^64−1. */
export function fakeExponential(f: bigint, x: bigint, d: bigint): bigint {
  let out = 0n;
  let acc = f * d;
  const limit = d * MAX_UINT64;
  for (let i = 1n; acc > 0n; i++) {
    out += acc;
    if (out >= limit) return MAX_UINT64;
    acc = (acc * x) / d / i;
  }
  return out / d;
}

/** Minimum delay (ms) between a block and its child, from the parent's minDelayExcess. */
export function delayMsFromExcess(excess: bigint): bigint {
  return fakeExponential(MIN_DELAY_MULTIPLIER, excess, MIN_DELAY_CONVERSION);
}

/** Smallest excess whose delay is >= targetMs (capped at MAX_MIN_DELAY_EXCESS). */
export function desiredMinDelayExcess(targetMs: bigint): bigint {
  if (delayMsFromExcess(MAX_MIN_DELAY_EXCESS) < targetMs) return MAX_MIN_DELAY_EXCESS;
  let lo = 0n;
  let hi = MAX_MIN_DELAY_EXCESS;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (delayMsFromExcess(mid) >= targetMs) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

/**
 * minDelayExcess of a Granite child. `parentExcess` is the parent's (undefined if the parent is
 * pre-Granite → start at INITIAL_MIN_DELAY_EXCESS); `desired` (from the node's min-delay-target,
 * via desiredMinDelayExcess) moves it by at most 200; null keeps the parent's value.
 */
export function childMinDelayExcess(parentExcess: bigint | undefined, desired: bigint | null): bigint {
  const start = parentExcess ?? INITIAL_MIN_DELAY_EXCESS;
  if (desired === null) return start;
  if (desired > start) return desired - start > MAX_DELAY_EXCESS_DIFF ? start + MAX_DELAY_EXCESS_DIFF : desired;
  return start - desired > MAX_DELAY_EXCESS_DIFF ? start - MAX_DELAY_EXCESS_DIFF : desired;
}

/** Genesis minDelayExcess when Granite is active at genesis (initialMinDelayMS 0 → the 2 s default). */
export function genesisMinDelayExcess(initialMinDelayMS: bigint): bigint {
  return initialMinDelayMS === 0n ? INITIAL_MIN_DELAY_EXCESS : desiredMinDelayExcess(initialMinDelayMS);
}

export interface TimedHeader {
  timestamp: bigint;
  timestampMilliseconds?: bigint;
  minDelayExcess?: bigint;
}

export function headerTimeMs(h: TimedHeader): bigint {
  return h.timestampMilliseconds ?? h.timestamp * 1000n;
}

/** VerifyTime + the minDelayExcess presence/equality rule. Throws the real node's texts. */
export function verifyHeaderTime(
  cfg: ForkSchedule,
  header: TimedHeader,
  parent: TimedHeader,
  nowMs: bigint,
  opts: { hash?: string; desiredExcess?: bigint | null } = {},
): void {
  const tMs = headerTimeMs(header);
  const pMs = headerTimeMs(parent);
  if (tMs < pMs) throw new Error(`block timestamp is too old: ${tMs} < parent ${pMs}`);
  const max = nowMs + MAX_FUTURE_BLOCK_MS;
  if (tMs > max) throw new Error(`block timestamp is too far in the future: ${tMs} > allowed ${max}`);
  const granite = isForkActive(cfg.networkUpgrades.graniteTimestamp, header.timestamp);
  if (!granite) {
    if (header.timestampMilliseconds !== undefined) throw new Error('TimeMilliseconds should be nil before Granite activation');
    return;
  }
  if (header.timestampMilliseconds === undefined) throw new Error('TimeMilliseconds is required after Granite activation');
  if (header.timestamp !== header.timestampMilliseconds / 1000n)
    throw new Error(
      `TimeMilliseconds does not match header.Time: header.Time (${header.timestamp}) != TimeMilliseconds/1000 = (${header.timestampMilliseconds / 1000n})`,
    );
  if (parent.minDelayExcess !== undefined) {
    const required = delayMsFromExcess(parent.minDelayExcess);
    const actual = tMs - pMs;
    if (actual < required) throw new Error(`minimum block delay not met: actual delay ${actual}ms < required ${required}ms`);
  }
  if (header.minDelayExcess === undefined) throw new Error(`remote min delay excess should not be nil: ${opts.hash ?? ''}`);
  const expected = childMinDelayExcess(parent.minDelayExcess, header.minDelayExcess);
  if (expected !== header.minDelayExcess)
    throw new Error(`incorrect min delay excess: expected ${expected}, found ${header.minDelayExcess}`);
}
