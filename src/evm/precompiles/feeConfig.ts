// The fee config as the FeeManager stores and validates it (reference §7.1, §7.2).
// Kept here so the precompiles do not wait on src/evm/fees; the shape is the same
// (`FeeConfig` with bigint fields), so the two are interchangeable.
import { jsonKind } from './allowlist.js';

export interface FeeConfig {
  gasLimit: bigint;
  targetBlockRate: bigint;
  minBaseFee: bigint;
  targetGas: bigint;
  baseFeeChangeDenominator: bigint;
  minBlockGasCost: bigint;
  maxBlockGasCost: bigint;
  blockGasCostStep: bigint;
}

/** Field order of the ABI tuple, the storage slots (1..8) and the JSON object. */
export const FEE_CONFIG_FIELDS = [
  'gasLimit',
  'targetBlockRate',
  'minBaseFee',
  'targetGas',
  'baseFeeChangeDenominator',
  'minBlockGasCost',
  'maxBlockGasCost',
  'blockGasCostStep',
] as const satisfies readonly (keyof FeeConfig)[];

const U64_MAX = (1n << 64n) - 1n;
const HASH_MAX = (1n << 256n) - 1n;

/** FeeConfig.Verify: the exact errors, in the reference's check order. */
export function verifyFeeConfigFields(fc: Partial<FeeConfig>): void {
  for (const f of FEE_CONFIG_FIELDS) {
    if (f !== 'targetBlockRate' && fc[f] === undefined) throw new Error(`${f} cannot be nil`);
  }
  const c = { ...fc, targetBlockRate: fc.targetBlockRate ?? 0n } as FeeConfig;
  if (c.gasLimit <= 0n) throw new Error(`gasLimit cannot be less than or equal to 0: gasLimit = ${c.gasLimit}`);
  if (c.targetBlockRate <= 0n) throw new Error(`targetBlockRate cannot be less than or equal to 0: targetBlockRate = ${c.targetBlockRate}`);
  if (c.minBaseFee < 0n) throw new Error(`minBaseFee cannot be less than 0: minBaseFee = ${c.minBaseFee}`);
  if (c.targetGas <= 0n) throw new Error(`targetGas cannot be less than or equal to 0: targetGas = ${c.targetGas}`);
  if (c.baseFeeChangeDenominator <= 0n) {
    throw new Error(`baseFeeChangeDenominator cannot be less than or equal to 0: baseFeeChangeDenominator = ${c.baseFeeChangeDenominator}`);
  }
  if (c.minBlockGasCost < 0n) throw new Error(`minBlockGasCost cannot be less than 0: minBlockGasCost = ${c.minBlockGasCost}`);
  if (c.minBlockGasCost > c.maxBlockGasCost) {
    throw new Error(
      `minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = ${c.minBlockGasCost}, maxBlockGasCost = ${c.maxBlockGasCost}`,
    );
  }
  if (c.blockGasCostStep < 0n) throw new Error(`blockGasCostStep cannot be less than 0: blockGasCostStep = ${c.blockGasCostStep}`);
  if (c.maxBlockGasCost > U64_MAX) throw new Error(`maxBlockGasCost is not a valid uint64: maxBlockGasCost = ${c.maxBlockGasCost}`);
  for (const f of FEE_CONFIG_FIELDS) {
    if (c[f] > HASH_MAX) throw new Error(`${f} exceeds hash length: 32 bytes`);
  }
}

function parseBig(v: unknown, field: string): bigint | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'number') throw new Error(`math/big: cannot unmarshal ${JSON.stringify(String(v))} into a *big.Int`);
  if (typeof v === 'string') throw new Error(`math/big: cannot unmarshal ${JSON.stringify(JSON.stringify(v))} into a *big.Int`);
  throw new Error(`json: cannot unmarshal ${jsonKind(v)} into Go struct field FeeConfig.${field} of type *big.Int`);
}

/** Parses a fee config JSON object (big fields as JSON numbers; bigint accepted from a bigint-safe parser). */
export function parseFeeConfigJSON(v: unknown): Partial<FeeConfig> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new Error(`json: cannot unmarshal ${jsonKind(v)} into Go value of type commontype.FeeConfig`);
  }
  const o = v as Record<string, unknown>;
  const out: Partial<FeeConfig> = {};
  for (const f of FEE_CONFIG_FIELDS) {
    if (f === 'targetBlockRate') {
      const t = o[f];
      if (t === undefined || t === null) continue;
      if ((typeof t !== 'number' || !Number.isInteger(t) || t < 0) && typeof t !== 'bigint') {
        throw new Error(`json: cannot unmarshal ${jsonKind(t)} into Go struct field FeeConfig.targetBlockRate of type uint64`);
      }
      out.targetBlockRate = BigInt(t);
      continue;
    }
    const b = parseBig(o[f], f);
    if (b !== undefined) out[f] = b;
  }
  return out;
}

/** JSON object in struct order; big fields as bigint (the RPC layer writes them as bare numbers). */
export function feeConfigToJSON(fc: FeeConfig): Record<string, bigint | number> {
  return {
    gasLimit: fc.gasLimit,
    targetBlockRate: Number(fc.targetBlockRate),
    minBaseFee: fc.minBaseFee,
    targetGas: fc.targetGas,
    baseFeeChangeDenominator: fc.baseFeeChangeDenominator,
    minBlockGasCost: fc.minBlockGasCost,
    maxBlockGasCost: fc.maxBlockGasCost,
    blockGasCostStep: fc.blockGasCostStep,
  };
}
