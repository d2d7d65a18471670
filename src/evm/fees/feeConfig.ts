// Subnet-EVM fee config (reference subnet-evm.md §7.1–§7.3).
//   FeeConfig, DEFAULT_FEE_CONFIG, verifyFeeConfig(fc) (exact §7.2 errors, in order),
//   feeConfigJSON(fc) (eth_feeConfig / eth_getChainConfig shape, bigint values → bare JSON numbers),
//   parseFeeConfigJSON(value, where) (Go big.Int decoding: JSON numbers only), isEmptyFeeConfig.
import { goStruct, jsonText, jsonTypeName, type JsonValue, isObject } from '../config/json.js';
import { decodeUint64 } from '../config/decode.js';

export interface FeeConfig {
  /** Exact gas limit of every block. */
  gasLimit: bigint;
  /** Target seconds between blocks (block gas cost only). uint64. */
  targetBlockRate: bigint;
  minBaseFee: bigint;
  /** Target gas per 10-second window. */
  targetGas: bigint;
  baseFeeChangeDenominator: bigint;
  minBlockGasCost: bigint;
  maxBlockGasCost: bigint;
  blockGasCostStep: bigint;
}

/** A fee config as read from JSON: Go's *big.Int fields may be nil (absent). */
export type PartialFeeConfig = { [K in keyof FeeConfig]?: bigint };

export const FEE_CONFIG_KEYS = [
  'gasLimit',
  'targetBlockRate',
  'minBaseFee',
  'targetGas',
  'baseFeeChangeDenominator',
  'minBlockGasCost',
  'maxBlockGasCost',
  'blockGasCostStep',
] as const satisfies readonly (keyof FeeConfig)[];

export const DEFAULT_FEE_CONFIG: Readonly<FeeConfig> = Object.freeze({
  gasLimit: 8_000_000n,
  targetBlockRate: 2n,
  minBaseFee: 25_000_000_000n,
  targetGas: 15_000_000n,
  baseFeeChangeDenominator: 36n,
  minBlockGasCost: 0n,
  maxBlockGasCost: 1_000_000n,
  blockGasCostStep: 200_000n,
});

const MAX_UINT64 = (1n << 64n) - 1n;
const MAX_BITS_32_BYTES = 256;

function bitLen(v: bigint): number {
  return (v < 0n ? -v : v).toString(2).length - (v === 0n ? 1 : 0);
}

/** Go's FeeConfig.Verify. Throws an Error with the real node's text (unprefixed). */
export function verifyFeeConfig(fc: PartialFeeConfig): asserts fc is FeeConfig {
  // Every *big.Int field, in field order; targetBlockRate is a uint64 in Go (never nil).
  const nils = FEE_CONFIG_KEYS.filter((k) => k !== 'targetBlockRate');
  for (const k of nils) if (fc[k] === undefined) throw new Error(`${k} cannot be nil`);
  const c = fc as FeeConfig;
  const rate = c.targetBlockRate ?? 0n;
  if (c.gasLimit <= 0n) throw new Error(`gasLimit cannot be less than or equal to 0: gasLimit = ${c.gasLimit}`);
  if (rate <= 0n) throw new Error(`targetBlockRate cannot be less than or equal to 0: targetBlockRate = ${rate}`);
  if (c.minBaseFee < 0n) throw new Error(`minBaseFee cannot be less than 0: minBaseFee = ${c.minBaseFee}`);
  if (c.targetGas <= 0n) throw new Error(`targetGas cannot be less than or equal to 0: targetGas = ${c.targetGas}`);
  if (c.baseFeeChangeDenominator <= 0n)
    throw new Error(
      `baseFeeChangeDenominator cannot be less than or equal to 0: baseFeeChangeDenominator = ${c.baseFeeChangeDenominator}`,
    );
  if (c.minBlockGasCost < 0n)
    throw new Error(`minBlockGasCost cannot be less than 0: minBlockGasCost = ${c.minBlockGasCost}`);
  if (c.minBlockGasCost > c.maxBlockGasCost)
    throw new Error(
      `minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = ${c.minBlockGasCost}, maxBlockGasCost = ${c.maxBlockGasCost}`,
    );
  if (c.blockGasCostStep < 0n)
    throw new Error(`blockGasCostStep cannot be less than 0: blockGasCostStep = ${c.blockGasCostStep}`);
  if (c.maxBlockGasCost > MAX_UINT64)
    throw new Error(`maxBlockGasCost is not a valid uint64: maxBlockGasCost = ${c.maxBlockGasCost}`);
  for (const k of FEE_CONFIG_KEYS) {
    if (bitLen(k === 'targetBlockRate' ? rate : c[k]) > MAX_BITS_32_BYTES) throw new Error(`${k} exceeds hash length: 32 bytes`);
  }
}

/** True when every field is absent (targetBlockRate absent or 0): the genesis then gets DEFAULT_FEE_CONFIG. */
export function isEmptyFeeConfig(fc: PartialFeeConfig): boolean {
  for (const k of FEE_CONFIG_KEYS) {
    const v = fc[k];
    if (k === 'targetBlockRate' ? v !== undefined && v !== 0n : v !== undefined) return false;
  }
  return true;
}

/**
 * JSON object for eth_feeConfig / eth_getChainConfig: struct order, omitempty (absent fields and a
 * zero targetBlockRate disappear), every value a bigint (the RPC writer emits bare numbers).
 */
export function feeConfigJSON(fc: PartialFeeConfig): Record<string, bigint> {
  const out: Record<string, bigint> = {};
  for (const k of FEE_CONFIG_KEYS) {
    const v = fc[k];
    if (v === undefined || (k === 'targetBlockRate' && v === 0n)) continue;
    out[k] = v;
  }
  return out;
}

/**
 * Decode a fee config object like Go does: big fields accept only JSON integers (or null = nil),
 * targetBlockRate is a uint64. `where` is the field's Go path for error texts (`Genesis.config.feeConfig`).
 */
export function parseFeeConfigJSON(v: JsonValue | undefined, where: string): PartialFeeConfig {
  const out: PartialFeeConfig = {};
  if (v === undefined || v === null) return out;
  if (!isObject(v)) throw new Error(`json: cannot unmarshal ${jsonTypeName(v)} into Go struct field ${where} of type commontype.FeeConfig`);
  const o = goStruct(v, FEE_CONFIG_KEYS);
  for (const k of FEE_CONFIG_KEYS) {
    const x = o[k];
    if (x === undefined || x === null) continue;
    if (k === 'targetBlockRate') out[k] = decodeUint64(x, `${where}.${k}`);
    else {
      // *big.Int reads the literal (a string keeps its quotes): `math/big: cannot unmarshal "\"1\"" into a *big.Int`.
      if (typeof x !== 'bigint') throw new Error(`math/big: cannot unmarshal ${JSON.stringify(jsonText(x))} into a *big.Int`);
      out[k] = x;
    }
  }
  return out;
}

/** Fee config for block N given its parent (§7.3), for callers that know FeeManager's state. */
export function feeConfigForChild(opts: {
  subnetEVMAtParent: boolean;
  feeManagerEnabledAtParent: boolean;
  genesisFeeConfig: FeeConfig;
  /** Read FeeManager storage in the parent's post-state (only called when enabled). */
  readStored: () => FeeConfig;
}): FeeConfig {
  if (!opts.subnetEVMAtParent) return DEFAULT_FEE_CONFIG;
  if (!opts.feeManagerEnabledAtParent) return opts.genesisFeeConfig;
  return opts.readStored();
}
