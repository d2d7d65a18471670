// Block gas cost and the tips a block must carry before Granite (reference subnet-evm.md §7.6),
// plus the gas limit rule (§7.5).
//   blockGasCost(cfg, fc, parent, childTime) → bigint | null
//   effectiveTip(tx, baseFee), verifyBlockFee(baseFee, requiredBlockGasCost, txs),
//   minTipForBlock(blockGasCost, baseFee, gasUsed), verifyGasLimit(...), verifyGasUsed(...)
//
// Who is paid (§7.8, for the chain): the sender pays gasUsed × effectiveGasPrice
// (min(tipCap + baseFee, feeCap); legacy: gasPrice) and the WHOLE amount — base fee and tip — is
// credited to header.coinbase. Nothing is burnt by the EVM: "burning" means the coinbase is the
// blackhole 0x0100000000000000000000000000000000000000 whose balance grows. From SubnetEVM on there
// are NO gas refunds (receipt gasUsed = full consumed gas). The coinbase is chosen per §8.7/§9.1.
import { isForkActive } from '../config/networkUpgrades.js';
import type { FeeConfig } from './feeConfig.js';
import type { FeeParent, ForkSchedule } from './window.js';

const MAX_UINT64 = (1n << 64n) - 1n;

/** Required block gas cost of a child at `childTime` (`fc` = fee config for the child). */
export function blockGasCost(cfg: ForkSchedule, fc: FeeConfig, parent: FeeParent, childTime: bigint): bigint | null {
  const u = cfg.networkUpgrades;
  if (!isForkActive(u.subnetEVMTimestamp, childTime)) return null;
  if (isForkActive(u.graniteTimestamp, childTime)) return 0n;
  if (parent.blockGasCost === undefined) return fc.minBlockGasCost;
  const parentCost = parent.blockGasCost;
  const elapsed = parent.timestamp <= childTime ? childTime - parent.timestamp : 0n;
  const rate = fc.targetBlockRate;
  const dev = rate > elapsed ? rate - elapsed : elapsed - rate;
  let change = fc.blockGasCostStep * dev;
  if (change > MAX_UINT64) change = MAX_UINT64;
  let cost: bigint;
  if (elapsed > rate) {
    cost = change > parentCost ? fc.minBlockGasCost : parentCost - change;
  } else {
    cost = parentCost + change;
    if (cost > MAX_UINT64) cost = fc.maxBlockGasCost;
  }
  if (cost < fc.minBlockGasCost) cost = fc.minBlockGasCost;
  if (cost > fc.maxBlockGasCost) cost = fc.maxBlockGasCost;
  return cost;
}

export interface TipFields {
  /** Legacy / access-list tx. */
  gasPrice?: bigint;
  /** EIP-1559 tx. */
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
}

/** min(tipCap, feeCap − baseFee); legacy: gasPrice − baseFee. May be negative if feeCap < baseFee. */
export function effectiveTip(tx: TipFields, baseFee: bigint | undefined): bigint {
  const tipCap = tx.maxPriorityFeePerGas ?? tx.gasPrice ?? 0n;
  const feeCap = tx.maxFeePerGas ?? tx.gasPrice ?? 0n;
  if (baseFee === undefined) return tipCap;
  const room = feeCap - baseFee;
  return tipCap < room ? tipCap : room;
}

/**
 * The block-fee check done when a block is assembled and verified (SubnetEVM+). `txs` gives each
 * transaction's effective tip and receipt gasUsed. Throws the real node's texts.
 */
export function verifyBlockFee(
  baseFee: bigint | undefined,
  requiredBlockGasCost: bigint | undefined,
  txs: Iterable<{ effectiveTip: bigint; gasUsed: bigint }>,
): void {
  if (baseFee === undefined || baseFee <= 0n) throw new Error(`invalid base fee: ${baseFee === undefined ? '<nil>' : baseFee}`);
  if (requiredBlockGasCost === undefined || requiredBlockGasCost === 0n) return;
  let total = 0n;
  for (const t of txs) total += t.effectiveTip * t.gasUsed;
  const covered = total / baseFee;
  if (covered < requiredBlockGasCost)
    throw new Error(`insufficient gas to cover the block cost: expected ${requiredBlockGasCost} but got ${covered}`);
}

/** Smallest tip with which a block of `gasUsed` gas covers `blockGasCost` at `baseFee` (§7.11 E). */
export function minTipForBlock(blockGasCost: bigint, baseFee: bigint, gasUsed: bigint): bigint {
  if (blockGasCost === 0n || gasUsed === 0n) return 0n;
  const need = blockGasCost * baseFee;
  return (need + gasUsed - 1n) / gasUsed;
}

/** §7.5 gas limit of a SubnetEVM block: exactly the fee config's. */
export function verifyGasLimit(fc: FeeConfig, gasLimit: bigint): void {
  if (gasLimit !== fc.gasLimit)
    throw new Error(`invalid gas limit: expected to be ${fc.gasLimit} in Subnet-EVM, but found ${gasLimit}`);
}

export function verifyGasUsed(gasUsed: bigint, gasLimit: bigint): void {
  if (gasUsed > gasLimit)
    throw new Error(`invalid gas used relative to capacity: invalid gas used: have ${gasUsed}, capacity ${gasLimit}`);
}

/** Tx-pool check against the head's gas limit. */
export function verifyTxGas(txGas: bigint, headGasLimit: bigint): void {
  if (txGas > headGasLimit) throw new Error(`exceeds block gas limit: tx gas (${txGas}) > current max gas (${headGasLimit})`);
}
