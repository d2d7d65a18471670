// Gas price oracle (eth_gasPrice, eth_maxPriorityFeePerGas, §7.9) and eth_feeHistory rules (§7.10).
//   class GasPriceOracle (one per chain: it caches the last price) with suggestTip(head, blockAt, nowSeconds)
//   validateRewardPercentiles(p), rewardsForBlock(txs, blockGasUsed, percentiles),
//   resolveFeeHistoryRange(blockCount, lastBlock, lastAccepted), FEE_HISTORY_* constants.

export const ORACLE_BLOCKS = 40n;
export const ORACLE_PERCENTILE = 40;
export const ORACLE_MAX_LOOKBACK_SECONDS = 80n;
export const ORACLE_MAX_PRICE = 150_000_000_000n;
export const DEFAULT_MIN_TIP = 1n; // tx-pool-price-limit default

export interface OracleBlock {
  timestamp: bigint;
  /** Effective tips of the block's transactions (tx order). */
  tips: bigint[];
}

export class GasPriceOracle {
  private cachedHead: string | undefined;
  private cachedPrice: bigint;

  constructor(
    private readonly minPrice: bigint = DEFAULT_MIN_TIP,
    private readonly maxPrice: bigint = ORACLE_MAX_PRICE,
  ) {
    this.cachedPrice = minPrice;
  }

  /**
   * Suggested tip at `head` (last accepted). `blockAt(n)` returns block n's time and tips; blocks
   * from head down to max(head−40, 0)+1 are sampled while they are within 80 s of `nowSeconds`.
   */
  suggestTip(head: { hash: string; number: bigint }, blockAt: (n: bigint) => OracleBlock | undefined, nowSeconds: bigint): bigint {
    if (head.hash === this.cachedHead) return this.cachedPrice;
    const tips: bigint[] = [];
    const stop = head.number > ORACLE_BLOCKS ? head.number - ORACLE_BLOCKS : 0n;
    for (let n = head.number; n > stop; n--) {
      const b = blockAt(n);
      if (!b || b.timestamp + ORACLE_MAX_LOOKBACK_SECONDS < nowSeconds) break;
      for (const t of b.tips) tips.push(t);
    }
    let price = this.cachedPrice;
    if (tips.length > 0) {
      tips.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      price = tips[Math.floor(((tips.length - 1) * ORACLE_PERCENTILE) / 100)]!;
    }
    if (price < this.minPrice) price = this.minPrice;
    if (price > this.maxPrice) price = this.maxPrice;
    this.cachedHead = head.hash;
    this.cachedPrice = price;
    return price;
  }
}

export const FEE_HISTORY_MAX_PERCENTILES = 100;
export const FEE_HISTORY_MAX_BLOCKS = 2048n;
export const FEE_HISTORY_MAX_DEPTH = 25_000n;

/**
 * Go's `%f` for a float64 (geth's feehistory.go formats the refused percentile so): the exact
 * binary value rounded half-to-even at 6 decimals, never an exponent (1e300 prints all its digits).
 */
export function goFloat(p: number): string {
  if (!Number.isFinite(p)) return Number.isNaN(p) ? 'NaN' : p > 0 ? '+Inf' : '-Inf';
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, p);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const exp = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  // p = mant × 2^shift exactly.
  const mant = exp === 0 ? frac : frac | (1n << 52n);
  const shift = (exp === 0 ? 1 : exp) - 1075;
  let q: bigint;
  if (shift >= 0) q = (mant << BigInt(shift)) * 1_000_000n;
  else {
    const den = 1n << BigInt(-shift);
    const scaled = mant * 1_000_000n;
    q = scaled / den;
    const r2 = (scaled % den) * 2n;
    if (r2 > den || (r2 === den && (q & 1n) === 1n)) q++;
  }
  const digits = q.toString().padStart(7, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -6)}.${digits.slice(-6)}`;
}

export function validateRewardPercentiles(p: readonly number[]): void {
  if (p.length > FEE_HISTORY_MAX_PERCENTILES)
    throw new Error(`invalid reward percentile: over the query limit ${FEE_HISTORY_MAX_PERCENTILES}`);
  for (let i = 0; i < p.length; i++) {
    const v = p[i]!;
    if (!(v >= 0 && v <= 100)) throw new Error(`invalid reward percentile: ${goFloat(v)}`);
    if (i > 0 && v <= p[i - 1]!)
      throw new Error(`invalid reward percentile: #${i - 1}:${goFloat(p[i - 1]!)} >= #${i}:${goFloat(v)}`);
  }
}

/** geth's gas-weighted reward percentiles for one block (all 0 when the block has no txs). */
export function rewardsForBlock(
  txs: readonly { tip: bigint; gasUsed: bigint }[],
  blockGasUsed: bigint,
  percentiles: readonly number[],
): bigint[] {
  if (txs.length === 0) return percentiles.map(() => 0n);
  const sorted = [...txs].sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0)); // stable
  const out: bigint[] = [];
  let idx = 0;
  let sum = sorted[0]!.gasUsed;
  for (const p of percentiles) {
    const threshold = BigInt(Math.floor((Number(blockGasUsed) * p) / 100));
    while (sum < threshold && idx < sorted.length - 1) {
      idx++;
      sum += sorted[idx]!.gasUsed;
    }
    out.push(sorted[idx]!.tip);
  }
  return out;
}

/**
 * The block range of an eth_feeHistory request: returns { first, count } or null for
 * blockCount < 1 (answer {"oldestBlock":"0x0","gasUsedRatio":null}). `lastBlock` already resolved
 * (pending → latest with blockCount−1 is the caller's job).
 */
export function resolveFeeHistoryRange(
  blockCount: bigint,
  lastBlock: bigint,
  lastAccepted: bigint,
): { first: bigint; count: bigint } | null {
  if (blockCount < 1n) return null;
  let count = blockCount > FEE_HISTORY_MAX_BLOCKS ? FEE_HISTORY_MAX_BLOCKS : blockCount;
  if (lastBlock > lastAccepted) throw new Error(`request beyond head block: requested ${lastBlock}, head ${lastAccepted}`);
  if (lastAccepted - lastBlock > FEE_HISTORY_MAX_DEPTH)
    throw new Error(`request beyond historical limit: requested ${lastBlock}, head ${lastAccepted}`);
  if (count > lastBlock + 1n) count = lastBlock + 1n;
  return { first: lastBlock - count + 1n, count };
}

/** gasUsedRatio entry: gasUsed / gasLimit as a float. */
export function gasUsedRatio(gasUsed: bigint, gasLimit: bigint): number {
  return gasLimit === 0n ? 0 : Number(gasUsed) / Number(gasLimit);
}
