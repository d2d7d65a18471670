// Precompile configs as they appear in genesis `config.<key>` and upgrade.json
// `precompileUpgrades[i].<key>`: parsing, `Verify` (reference §6.2, §8), and JSON output
// in the key order of eth_getChainConfig (§2.2).
import { checksum, ZERO_ADDRESS } from './abi.js';
import { isPrecompileKey, type PrecompileKey } from './addresses.js';
import {
  allowListConfigJSON,
  jsonKind,
  parseAddress,
  parseAllowListConfig,
  verifyAllowListConfig,
  type AllowListConfig,
} from './allowlist.js';
import { feeConfigToJSON, parseFeeConfigJSON, verifyFeeConfigFields, type FeeConfig } from './feeConfig.js';

export interface UpgradeFields {
  /** null = not set (a genesis config without it never activates) */
  blockTimestamp: bigint | null;
  disable: boolean;
}

export type AllowListPrecompileConfig = UpgradeFields & AllowListConfig;

export type PrecompileConfig =
  | ({ key: 'contractDeployerAllowListConfig' } & AllowListPrecompileConfig)
  | ({ key: 'txAllowListConfig' } & AllowListPrecompileConfig)
  | ({ key: 'contractNativeMinterConfig'; initialMint: Map<string, bigint | null> } & AllowListPrecompileConfig)
  | ({ key: 'feeManagerConfig'; initialFeeConfig?: Partial<FeeConfig> } & AllowListPrecompileConfig)
  | ({
      key: 'rewardManagerConfig';
      initialRewardConfig?: { allowFeeRecipients: boolean; rewardAddress: string };
    } & AllowListPrecompileConfig)
  | ({ key: 'warpConfig'; quorumNumerator: number; requirePrimaryNetworkSigners: boolean } & UpgradeFields);

function objectOf(v: unknown, goType: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new Error(`json: cannot unmarshal ${jsonKind(v)} into Go value of type ${goType}`);
  }
  return v as Record<string, unknown>;
}

function parseUint64(v: unknown, field: string): bigint {
  if (typeof v === 'bigint' && v >= 0n && v < 1n << 64n) return v;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return BigInt(v);
  throw new Error(`json: cannot unmarshal ${jsonKind(v)} into Go struct field ${field} of type uint64`);
}

function parseUpgradeFields(o: Record<string, unknown>, goType: string): UpgradeFields {
  const ts = o.blockTimestamp;
  const disable = o.disable;
  if (disable !== undefined && disable !== null && typeof disable !== 'boolean') {
    throw new Error(`json: cannot unmarshal ${jsonKind(disable)} into Go struct field ${goType}.disable of type bool`);
  }
  return {
    blockTimestamp: ts === undefined || ts === null ? null : parseUint64(ts, `${goType}.blockTimestamp`),
    disable: disable === true,
  };
}

/** HexOrDecimal256: JSON number, decimal string or 0x hex string. */
function parseHexOrDecimal(v: unknown): bigint | null {
  if (v === null) return null;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string') {
    const s = v.trim();
    if (/^0x[0-9a-fA-F]+$/i.test(s)) return BigInt(s);
    if (/^-?[0-9]+$/.test(s)) return BigInt(s);
    throw new Error(`invalid hex or decimal integer ${JSON.stringify(v)}`);
  }
  throw new Error(`invalid hex or decimal integer ${JSON.stringify(String(v))}`);
}

/** Parses one precompile config object. Unknown key → `unknown precompile config: <key>`. */
export function parsePrecompileConfig(key: string, value: unknown): PrecompileConfig {
  if (!isPrecompileKey(key)) throw new Error(`unknown precompile config: ${key}`);
  const goType = `${key.replace(/Config$/, '')}.Config`;
  const o = objectOf(value, goType);
  const up = parseUpgradeFields(o, 'Config');
  switch (key) {
    case 'warpConfig': {
      const q = o.quorumNumerator;
      const r = o.requirePrimaryNetworkSigners;
      if (r !== undefined && r !== null && typeof r !== 'boolean') {
        throw new Error(`json: cannot unmarshal ${jsonKind(r)} into Go struct field Config.requirePrimaryNetworkSigners of type bool`);
      }
      return {
        key,
        ...up,
        quorumNumerator: q === undefined || q === null ? 0 : Number(parseUint64(q, 'Config.quorumNumerator')),
        requirePrimaryNetworkSigners: r === true,
      };
    }
    case 'contractDeployerAllowListConfig':
    case 'txAllowListConfig':
      return { key, ...up, ...parseAllowListConfig(o) };
    case 'contractNativeMinterConfig': {
      const initialMint = new Map<string, bigint | null>();
      if (o.initialMint !== undefined && o.initialMint !== null) {
        const m = objectOf(o.initialMint, 'map[common.Address]*math.HexOrDecimal256');
        for (const [addr, amount] of Object.entries(m)) initialMint.set(parseAddress(addr), parseHexOrDecimal(amount));
      }
      return { key, ...up, ...parseAllowListConfig(o), initialMint };
    }
    case 'feeManagerConfig': {
      const f = o.initialFeeConfig;
      return {
        key,
        ...up,
        ...parseAllowListConfig(o),
        ...(f === undefined || f === null ? {} : { initialFeeConfig: parseFeeConfigJSON(f) }),
      };
    }
    case 'rewardManagerConfig': {
      const r = o.initialRewardConfig;
      let initialRewardConfig: { allowFeeRecipients: boolean; rewardAddress: string } | undefined;
      if (r !== undefined && r !== null) {
        const ro = objectOf(r, 'rewardmanager.InitialRewardConfig');
        const allow = ro.allowFeeRecipients;
        if (allow !== undefined && allow !== null && typeof allow !== 'boolean') {
          throw new Error(`json: cannot unmarshal ${jsonKind(allow)} into Go struct field InitialRewardConfig.allowFeeRecipients of type bool`);
        }
        initialRewardConfig = {
          allowFeeRecipients: allow === true,
          rewardAddress: ro.rewardAddress === undefined || ro.rewardAddress === null ? ZERO_ADDRESS : parseAddress(ro.rewardAddress),
        };
      }
      return { key, ...up, ...parseAllowListConfig(o), ...(initialRewardConfig ? { initialRewardConfig } : {}) };
    }
  }
}

/** Something that knows when Durango is active (the chain config). */
export interface DurangoSchedule {
  isDurango(timestamp: bigint): boolean;
}

/** The config's own `Verify` (§8); `blockTimestamp` null is treated as 0 for the Durango checks. */
export function verifyPrecompileConfig(cfg: PrecompileConfig, schedule: DurangoSchedule): void {
  if (cfg.key === 'warpConfig') {
    if (cfg.blockTimestamp !== null && !schedule.isDurango(cfg.blockTimestamp)) throw new Error('warp cannot be activated before Durango');
    if (cfg.quorumNumerator > 100) {
      throw new Error(`invalid warp quorum ratio: cannot specify numerator (${cfg.quorumNumerator}) > denominator (100)`);
    }
    if (cfg.quorumNumerator !== 0 && cfg.quorumNumerator < 33) {
      throw new Error(`invalid warp quorum ratio: cannot specify numerator (${cfg.quorumNumerator}) < min numerator (33)`);
    }
    return;
  }
  verifyAllowListConfig(cfg, schedule.isDurango(cfg.blockTimestamp ?? 0n));
  switch (cfg.key) {
    case 'contractNativeMinterConfig':
      for (const [addr, amount] of cfg.initialMint) {
        if (amount === null) throw new Error(`initial mint cannot contain nil amount for address ${checksum(addr)}`);
        if (amount <= 0n) throw new Error(`initial mint cannot contain invalid amount: amount ${amount} for address ${checksum(addr)}`);
      }
      return;
    case 'feeManagerConfig':
      if (cfg.initialFeeConfig) verifyFeeConfigFields(cfg.initialFeeConfig);
      return;
    case 'rewardManagerConfig':
      if (cfg.initialRewardConfig?.allowFeeRecipients && cfg.initialRewardConfig.rewardAddress !== ZERO_ADDRESS) {
        throw new Error('cannot enable both fee recipients and reward address at the same time');
      }
      return;
    default:
      return;
  }
}

/** The config as JSON (eth_getChainConfig / eth_getActivePrecompilesAt key order, §2.2). */
export function precompileConfigJSON(cfg: PrecompileConfig): Record<string, unknown> {
  const head = (): Record<string, unknown> => {
    const o: Record<string, unknown> = cfg.key === 'warpConfig' ? {} : allowListConfigJSON(cfg);
    o.blockTimestamp = cfg.blockTimestamp === null ? null : Number(cfg.blockTimestamp);
    if (cfg.disable) o.disable = true;
    return o;
  };
  const o = head();
  switch (cfg.key) {
    case 'warpConfig':
      o.quorumNumerator = cfg.quorumNumerator;
      o.requirePrimaryNetworkSigners = cfg.requirePrimaryNetworkSigners;
      break;
    case 'contractNativeMinterConfig':
      if (cfg.initialMint.size) {
        const m: Record<string, string | null> = {};
        for (const a of [...cfg.initialMint.keys()].sort()) {
          const v = cfg.initialMint.get(a)!;
          m[a] = v === null ? null : '0x' + v.toString(16);
        }
        o.initialMint = m;
      }
      break;
    case 'feeManagerConfig':
      if (cfg.initialFeeConfig) o.initialFeeConfig = partialFeeConfigJSON(cfg.initialFeeConfig);
      break;
    case 'rewardManagerConfig':
      if (cfg.initialRewardConfig) o.initialRewardConfig = { ...cfg.initialRewardConfig };
      break;
    default:
      break;
  }
  return o;
}

function partialFeeConfigJSON(fc: Partial<FeeConfig>): Record<string, unknown> {
  const full = feeConfigToJSON({ ...fc } as FeeConfig);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(full)) {
    if (v === undefined || (k === 'targetBlockRate' && (v === 0 || Number.isNaN(v)))) continue;
    out[k] = v;
  }
  return out;
}

export type { PrecompileKey };
