// Stateful-precompile configs as they appear in genesis `config` and upgrade.json
// (reference subnet-evm.md §2.2 serialization, §4.1, §8 per-precompile Verify).
//   PrecompileConfig, parsePrecompileConfig(key, json, root), verifyPrecompileConfig(cfg, isDurangoAt),
//   precompileConfigJSON(cfg), PRECOMPILE_KEY_LIST (registered keys, ascending address).
import {
  PRECOMPILE_ADDRESSES,
  isPrecompileKey,
  type PrecompileKey,
} from '../precompiles/addresses.js';
import { feeConfigJSON, parseFeeConfigJSON, verifyFeeConfig, type PartialFeeConfig } from '../fees/feeConfig.js';
import { goStruct, isObject, jsonTypeName, type JsonValue } from './json.js';
import { checksumAddress, decodeAddress, decodeBool, decodeHexOrDecimal, decodeUint64, fieldTypeError } from './decode.js';

export type { PrecompileKey };
export { isPrecompileKey };

export const PRECOMPILE_KEY_LIST: readonly PrecompileKey[] = [...PRECOMPILE_ADDRESSES.keys()];

export interface InitialRewardConfig {
  allowFeeRecipients: boolean;
  /** Lower-case 0x address; zero address when not set. */
  rewardAddress: string;
}

export interface PrecompileConfig {
  key: PrecompileKey;
  /** Lower-case 0x address of the precompile. */
  address: string;
  /** undefined = Go nil: never activated. */
  blockTimestamp?: bigint;
  disable: boolean;
  /** Allow-list roles (lower-case addresses); absent for warp. */
  adminAddresses: string[];
  managerAddresses: string[];
  enabledAddresses: string[];
  /** contractNativeMinterConfig: address → amount (null = JSON null, rejected by verify). */
  initialMint?: Map<string, bigint | null>;
  /** feeManagerConfig. */
  initialFeeConfig?: PartialFeeConfig;
  /** rewardManagerConfig. */
  initialRewardConfig?: InitialRewardConfig;
  /** warpConfig. */
  quorumNumerator?: bigint;
  requirePrimaryNetworkSigners?: boolean;
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
/** JSON names of the precompile Config structs' fields (matched as Go does: exact, else case-insensitive). */
const CONFIG_FIELDS = ['adminAddresses', 'managerAddresses', 'enabledAddresses', 'blockTimestamp', 'disable', 'initialMint', 'initialFeeConfig', 'initialRewardConfig', 'quorumNumerator', 'requirePrimaryNetworkSigners'] as const;
const GO_TYPES: Record<PrecompileKey, string> = {
  contractDeployerAllowListConfig: 'deployerallowlist.Config',
  contractNativeMinterConfig: 'nativeminter.Config',
  txAllowListConfig: 'txallowlist.Config',
  feeManagerConfig: 'feemanager.Config',
  rewardManagerConfig: 'rewardmanager.Config',
  warpConfig: 'warp.Config',
};

function addressList(v: JsonValue | undefined, path: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw fieldTypeError(jsonTypeName(v), path, '[]common.Address');
  return v.map((a) => decodeAddress(a, path));
}

/**
 * Decode one precompile config object (Go json.Unmarshal into the module's Config; unknown fields
 * ignored; `null` leaves the zero Config: no blockTimestamp, never active). `root` is where the
 * config sits for Go's error texts: `Genesis.config` (genesis) or `UpgradeConfig.precompileUpgrades`
 * (upgrade.json) — the outer decoder renames a field error `<root>.<field>`, e.g.
 * `json: cannot unmarshal string into Go struct field Genesis.config.blockTimestamp of type uint64`.
 */
export function parsePrecompileConfig(key: PrecompileKey, given: JsonValue, root: string): PrecompileConfig {
  const cfg: PrecompileConfig = {
    key,
    address: PRECOMPILE_ADDRESSES.get(key)!,
    disable: false,
    adminAddresses: [],
    managerAddresses: [],
    enabledAddresses: [],
  };
  if (key === 'warpConfig') {
    cfg.quorumNumerator = 0n;
    cfg.requirePrimaryNetworkSigners = false;
  }
  if (given === null) return cfg;
  if (!isObject(given)) throw fieldTypeError(jsonTypeName(given), root, GO_TYPES[key]);
  const v = goStruct(given, CONFIG_FIELDS);
  const at = (field: string) => `${root}.${field}`;
  if (v.blockTimestamp !== undefined && v.blockTimestamp !== null) cfg.blockTimestamp = decodeUint64(v.blockTimestamp, at('blockTimestamp'));
  if (v.disable !== undefined && v.disable !== null) cfg.disable = decodeBool(v.disable, at('disable'));
  if (key === 'warpConfig') {
    if (v.quorumNumerator !== undefined && v.quorumNumerator !== null) cfg.quorumNumerator = decodeUint64(v.quorumNumerator, at('quorumNumerator'));
    if (v.requirePrimaryNetworkSigners !== undefined && v.requirePrimaryNetworkSigners !== null)
      cfg.requirePrimaryNetworkSigners = decodeBool(v.requirePrimaryNetworkSigners, at('requirePrimaryNetworkSigners'));
    return cfg;
  }
  cfg.adminAddresses = addressList(v.adminAddresses, at('adminAddresses'));
  cfg.managerAddresses = addressList(v.managerAddresses, at('managerAddresses'));
  cfg.enabledAddresses = addressList(v.enabledAddresses, at('enabledAddresses'));
  if (key === 'contractNativeMinterConfig' && v.initialMint !== undefined && v.initialMint !== null) {
    const m = v.initialMint;
    if (!isObject(m)) throw fieldTypeError(jsonTypeName(m), at('initialMint'), 'map[common.Address]*math.HexOrDecimal256');
    cfg.initialMint = new Map();
    for (const [addr, amount] of Object.entries(m)) {
      // The key is read by common.Address's UnmarshalJSON: its type errors name the map field.
      const a = decodeAddress(addr, at('initialMint'));
      cfg.initialMint.set(a, amount === null ? null : decodeHexOrDecimal(amount, 256, true));
    }
  }
  if (key === 'feeManagerConfig' && v.initialFeeConfig !== undefined && v.initialFeeConfig !== null)
    cfg.initialFeeConfig = parseFeeConfigJSON(v.initialFeeConfig, at('initialFeeConfig'));
  if (key === 'rewardManagerConfig' && v.initialRewardConfig !== undefined && v.initialRewardConfig !== null) {
    if (!isObject(v.initialRewardConfig)) throw fieldTypeError(jsonTypeName(v.initialRewardConfig), at('initialRewardConfig'), 'rewardmanager.InitialRewardConfig');
    const r = goStruct(v.initialRewardConfig, ['allowFeeRecipients', 'rewardAddress']);
    cfg.initialRewardConfig = {
      allowFeeRecipients: r.allowFeeRecipients === undefined || r.allowFeeRecipients === null ? false : decodeBool(r.allowFeeRecipients, at('initialRewardConfig.allowFeeRecipients')),
      // common.Address (not a pointer): Go hands even `null` to its UnmarshalJSON, which refuses a non-string.
      rewardAddress: r.rewardAddress === undefined ? ZERO_ADDRESS : decodeAddress(r.rewardAddress, at('initialRewardConfig.rewardAddress')),
    };
  }
  return cfg;
}

function verifyAllowList(c: PrecompileConfig, isDurangoAt: (ts: bigint) => boolean): void {
  const roles = new Map<string, 'enabled' | 'admin' | 'manager'>();
  for (const a of c.enabledAddresses) {
    if (roles.has(a)) throw new Error(`duplicate address in enabled list: ${checksumAddress(a)}`);
    roles.set(a, 'enabled');
  }
  for (const a of c.adminAddresses) {
    const r = roles.get(a);
    if (r === 'admin') throw new Error(`duplicate address in admin list: ${checksumAddress(a)}`);
    if (r) throw new Error(`cannot set address as both admin and enabled: ${checksumAddress(a)}`);
    roles.set(a, 'admin');
  }
  if (c.managerAddresses.length > 0 && c.blockTimestamp !== undefined && !isDurangoAt(c.blockTimestamp))
    throw new Error('cannot add managers before Durango');
  for (const a of c.managerAddresses) {
    const r = roles.get(a);
    if (r === 'manager') throw new Error(`duplicate address in manager list: ${checksumAddress(a)}`);
    if (r === 'admin') throw new Error(`cannot set address as both admin and manager: ${checksumAddress(a)}`);
    if (r === 'enabled') throw new Error(`cannot set address as both enabled and manager: ${checksumAddress(a)}`);
    roles.set(a, 'manager');
  }
}

/** The module's Config.Verify (§8). Throws the real node's text (unprefixed). */
export function verifyPrecompileConfig(c: PrecompileConfig, isDurangoAt: (ts: bigint) => boolean): void {
  switch (c.key) {
    case 'warpConfig': {
      if (c.blockTimestamp !== undefined && !isDurangoAt(c.blockTimestamp)) throw new Error('warp cannot be activated before Durango');
      const q = c.quorumNumerator ?? 0n;
      if (q > 100n) throw new Error(`invalid warp quorum ratio: cannot specify numerator (${q}) > denominator (100)`);
      if (q !== 0n && q < 33n) throw new Error(`invalid warp quorum ratio: cannot specify numerator (${q}) < min numerator (33)`);
      return;
    }
    case 'contractNativeMinterConfig':
      if (c.initialMint) {
        for (const a of [...c.initialMint.keys()].sort()) {
          const amount = c.initialMint.get(a);
          if (amount === null || amount === undefined)
            throw new Error(`initial mint cannot contain nil amount for address ${checksumAddress(a)}`);
          if (amount <= 0n)
            throw new Error(`initial mint cannot contain invalid amount: amount ${amount} for address ${checksumAddress(a)}`);
        }
      }
      verifyAllowList(c, isDurangoAt);
      return;
    case 'feeManagerConfig':
      verifyAllowList(c, isDurangoAt);
      if (c.initialFeeConfig) verifyFeeConfig(c.initialFeeConfig);
      return;
    case 'rewardManagerConfig':
      // rewardmanager.Config.Verify checks its initial config before the allow list.
      if (c.initialRewardConfig && c.initialRewardConfig.allowFeeRecipients && c.initialRewardConfig.rewardAddress !== ZERO_ADDRESS)
        throw new Error('cannot enable both fee recipients and reward address at the same time');
      verifyAllowList(c, isDurangoAt);
      return;
    default:
      verifyAllowList(c, isDurangoAt);
  }
}

function hexAmount(v: bigint): string {
  return v < 0n ? '-0x' + (-v).toString(16) : '0x' + v.toString(16);
}

/**
 * JSON of a precompile config (§2.2): adminAddresses, managerAddresses, enabledAddresses (omitted
 * when empty), blockTimestamp (null when unset), disable (omitted when false), then the specific keys.
 */
export function precompileConfigJSON(c: PrecompileConfig): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (c.key !== 'warpConfig') {
    if (c.adminAddresses.length) o.adminAddresses = [...c.adminAddresses];
    if (c.managerAddresses.length) o.managerAddresses = [...c.managerAddresses];
    if (c.enabledAddresses.length) o.enabledAddresses = [...c.enabledAddresses];
  }
  o.blockTimestamp = c.blockTimestamp ?? null;
  if (c.disable) o.disable = true;
  switch (c.key) {
    case 'warpConfig':
      o.quorumNumerator = c.quorumNumerator ?? 0n;
      o.requirePrimaryNetworkSigners = c.requirePrimaryNetworkSigners ?? false;
      break;
    case 'contractNativeMinterConfig':
      if (c.initialMint && c.initialMint.size > 0) {
        const m: Record<string, string | null> = {};
        for (const a of [...c.initialMint.keys()].sort()) {
          const v = c.initialMint.get(a);
          m[a] = v === null || v === undefined ? null : hexAmount(v);
        }
        o.initialMint = m;
      }
      break;
    case 'feeManagerConfig':
      if (c.initialFeeConfig) o.initialFeeConfig = feeConfigJSON(c.initialFeeConfig);
      break;
    case 'rewardManagerConfig':
      if (c.initialRewardConfig)
        o.initialRewardConfig = {
          allowFeeRecipients: c.initialRewardConfig.allowFeeRecipients,
          rewardAddress: c.initialRewardConfig.rewardAddress,
        };
      break;
  }
  return o;
}
