// upgrade.json model (reference subnet-evm.md §6): types, decoding, validation, JSON.
//   UpgradeConfig, StateUpgrade, StateUpgradeAccount, decodeUpgradeConfig(json),
//   verifyPrecompileUpgrades(genesis, upgrades, isDurangoAt), verifyStateUpgrades(list),
//   upgradeConfigJSON(u) (the `upgrades` object of eth_getChainConfig).
// upgrade.ts turns bytes into a ChainConfig (parseUpgradeConfig).
import { goStruct, isObject, jsonTypeName, type JsonValue } from './json.js';
import { decodeAddress, decodeHash, decodeHexBytes, decodeHexOrDecimal, decodeUint64, fieldTypeError } from './decode.js';
import { UPGRADE_NAMES, type NetworkUpgrades } from './networkUpgrades.js';
import {
  isPrecompileKey,
  parsePrecompileConfig,
  precompileConfigJSON,
  verifyPrecompileConfig,
  type PrecompileConfig,
  type PrecompileKey,
} from './precompileConfigs.js';

export interface StateUpgradeAccount {
  code?: Uint8Array;
  /** 0x 32-byte slot → 0x 32-byte value (lower-case). */
  storage?: Map<string, string>;
  /** Added to the balance modulo 2^256 (a negative value subtracts). */
  balanceChange?: bigint;
}

export interface StateUpgrade {
  /** undefined = null (rejected by validation). */
  blockTimestamp?: bigint;
  /** Lower-case 0x address → change. */
  accounts: Map<string, StateUpgradeAccount>;
  /** `accounts` was absent or null (Go's nil map: eth_getChainConfig writes `"accounts":null`). */
  accountsNull?: boolean;
}

export interface UpgradeConfig {
  networkUpgradeOverrides?: NetworkUpgrades;
  stateUpgrades: StateUpgrade[];
  precompileUpgrades: PrecompileConfig[];
}

// Go decodes upgrade.json with one json.Unmarshal into extras.UpgradeConfig: a type error names the
// innermost struct and the whole field path from the root (`StateUpgrade.stateUpgrades.blockTimestamp`);
// a precompile config is decoded by PrecompileUpgrade's own UnmarshalJSON, so its field errors come
// back as `UpgradeConfig.precompileUpgrades.<field>`.
const PRECOMPILE_UPGRADES = 'UpgradeConfig.precompileUpgrades';

function decodeOverrides(given: JsonValue): NetworkUpgrades {
  if (!isObject(given)) throw fieldTypeError(jsonTypeName(given), 'UpgradeConfig.networkUpgradeOverrides', 'extras.NetworkUpgrades');
  const v = goStruct(given, UPGRADE_NAMES.map(([k]) => k));
  const out: NetworkUpgrades = {};
  for (const [k] of UPGRADE_NAMES) {
    const x = v[k];
    if (x !== undefined && x !== null) out[k] = decodeUint64(x, `NetworkUpgrades.networkUpgradeOverrides.${k}`);
  }
  return out;
}

/** One account of a state upgrade; `null` is the zero StateUpgradeAccount (no change). */
function decodeStateUpgradeAccount(given: JsonValue): StateUpgradeAccount {
  const at = (field: string) => `StateUpgradeAccount.stateUpgrades.accounts.${field}`;
  const acc: StateUpgradeAccount = {};
  if (given === null) return acc;
  if (!isObject(given)) throw fieldTypeError(jsonTypeName(given), 'StateUpgrade.stateUpgrades.accounts', 'extras.StateUpgradeAccount');
  const a = goStruct(given, ['code', 'storage', 'balanceChange']);
  if (a.code !== undefined && a.code !== null) acc.code = decodeHexBytes(a.code, at('code'));
  if (a.storage !== undefined && a.storage !== null) {
    if (!isObject(a.storage)) throw fieldTypeError(jsonTypeName(a.storage), at('storage'), 'map[common.Hash]common.Hash');
    acc.storage = new Map();
    for (const [slot, val] of Object.entries(a.storage)) acc.storage.set(decodeHash(slot, at('storage')), decodeHash(val, at('storage')));
  }
  if (a.balanceChange !== undefined && a.balanceChange !== null) acc.balanceChange = decodeHexOrDecimal(a.balanceChange, 256, true);
  return acc;
}

/** `null` is the zero StateUpgrade: no blockTimestamp (refused by validation), accounts null. */
function decodeStateUpgrade(given: JsonValue): StateUpgrade {
  const su: StateUpgrade = { accounts: new Map(), accountsNull: true };
  if (given === null) return su;
  if (!isObject(given)) throw fieldTypeError(jsonTypeName(given), 'UpgradeConfig.stateUpgrades', 'extras.StateUpgrade');
  const v = goStruct(given, ['blockTimestamp', 'accounts']);
  if (v.blockTimestamp !== undefined && v.blockTimestamp !== null) su.blockTimestamp = decodeUint64(v.blockTimestamp, 'StateUpgrade.stateUpgrades.blockTimestamp');
  const accts = v.accounts;
  if (accts !== undefined && accts !== null) {
    if (!isObject(accts)) throw fieldTypeError(jsonTypeName(accts), 'StateUpgrade.stateUpgrades.accounts', 'map[common.Address]extras.StateUpgradeAccount');
    su.accountsNull = false;
    for (const [addr, a] of Object.entries(accts)) su.accounts.set(decodeAddress(addr, 'StateUpgrade.stateUpgrades.accounts'), decodeStateUpgradeAccount(a));
  }
  return su;
}

/** PrecompileUpgrade.UnmarshalJSON: `null` and `{}` are both `PrecompileUpgrade cannot be empty`. */
function decodePrecompileUpgrade(v: JsonValue): PrecompileConfig {
  if (v !== null && !isObject(v)) throw fieldTypeError(jsonTypeName(v), PRECOMPILE_UPGRADES, 'map[string]json.RawMessage');
  const keys = v === null ? [] : Object.keys(v);
  if (keys.length === 0) throw new Error('PrecompileUpgrade cannot be empty');
  if (keys.length !== 1) throw new Error(`PrecompileUpgrade must have exactly one key, got ${keys.length}`);
  const key = keys[0]!;
  if (!isPrecompileKey(key)) throw new Error(`unknown precompile config: ${key}`);
  return parsePrecompileConfig(key, (v as Record<string, JsonValue>)[key]!, PRECOMPILE_UPGRADES);
}

/** Decode parsed upgrade.json (errors unprefixed; the caller wraps `failed to parse upgrade bytes: `). */
export function decodeUpgradeConfig(given: JsonValue): UpgradeConfig {
  if (given === null) return { stateUpgrades: [], precompileUpgrades: [] };
  if (!isObject(given)) throw new Error(`json: cannot unmarshal ${jsonTypeName(given)} into Go value of type extras.UpgradeConfig`);
  const v = goStruct(given, ['networkUpgradeOverrides', 'stateUpgrades', 'precompileUpgrades']);
  const out: UpgradeConfig = { stateUpgrades: [], precompileUpgrades: [] };
  if (v.networkUpgradeOverrides !== undefined && v.networkUpgradeOverrides !== null) out.networkUpgradeOverrides = decodeOverrides(v.networkUpgradeOverrides);
  for (const name of ['stateUpgrades', 'precompileUpgrades'] as const) {
    const list = v[name];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) throw fieldTypeError(jsonTypeName(list), `UpgradeConfig.${name}`, `[]extras.${name === 'stateUpgrades' ? 'StateUpgrade' : 'PrecompileUpgrade'}`);
    if (name === 'stateUpgrades') out.stateUpgrades = list.map(decodeStateUpgrade);
    else out.precompileUpgrades = list.map(decodePrecompileUpgrade);
  }
  return out;
}

/** §6.2: genesis configs, then precompileUpgrades in order. Throws unprefixed texts. */
export function verifyPrecompileUpgrades(
  genesis: ReadonlyMap<PrecompileKey, PrecompileConfig>,
  upgrades: readonly PrecompileConfig[],
  isDurangoAt: (ts: bigint) => boolean,
): void {
  const last = new Map<PrecompileKey, { disabled: boolean; ts: bigint | undefined }>();
  for (const [key, c] of genesis) {
    verifyPrecompileConfig(c, isDurangoAt);
    // A genesis config with a timestamp counts as enabled (Go ignores its `disable` flag here).
    last.set(key, c.blockTimestamp === undefined ? { disabled: true, ts: undefined } : { disabled: false, ts: c.blockTimestamp });
  }
  let prev: bigint | undefined;
  upgrades.forEach((u, i) => {
    const key = u.key;
    const ts = u.blockTimestamp;
    if (ts === undefined) throw new Error(`precompile upgrade block timestamp cannot be nil: PrecompileUpgrade (${key}) at [${i}]`);
    if (prev !== undefined && ts < prev)
      throw new Error(
        `precompile upgrade config block timestamp must be greater than or equal to previous timestamp: PrecompileUpgrade (${key}) at [${i}] has timestamp ${ts}, previous timestamp ${prev}`,
      );
    const l = last.get(key) ?? { disabled: true, ts: undefined };
    if (u.disable === l.disabled)
      throw new Error(`precompile upgrade disable value is invalid: PrecompileUpgrade (${key}) at [${i}], disable should be ${!l.disabled}`);
    if (l.ts !== undefined && ts <= l.ts)
      throw new Error(
        `precompile upgrade config block timestamp for same key must be strictly greater than previous timestamp: PrecompileUpgrade (${key}) at [${i}] has timestamp ${ts}, previous timestamp of same key ${l.ts}`,
      );
    verifyPrecompileConfig(u, isDurangoAt);
    last.set(key, { disabled: u.disable, ts });
    prev = ts;
  });
}

/** §6.3. Throws unprefixed texts. */
export function verifyStateUpgrades(list: readonly StateUpgrade[]): void {
  let prev: bigint | undefined;
  list.forEach((s, i) => {
    const ts = s.blockTimestamp;
    if (ts === undefined) throw new Error(`state upgrade config block timestamp cannot be nil: StateUpgrade[${i}]`);
    if (ts === 0n) throw new Error(`state upgrade config block timestamp must be greater than 0: StateUpgrade[${i}] has timestamp 0`);
    if (prev !== undefined && ts <= prev)
      throw new Error(`state upgrade config block timestamp must be greater than previous timestamp: StateUpgrade[${i}] has timestamp ${ts}, previous timestamp ${prev}`);
    prev = ts;
  });
}

const hex = (b: Uint8Array) => '0x' + Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** The `upgrades` object of eth_getChainConfig: `{}` or the sub-keys that are non-empty. */
export function upgradeConfigJSON(u: UpgradeConfig): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (u.networkUpgradeOverrides) {
    const n: Record<string, bigint> = {};
    for (const [k] of UPGRADE_NAMES) {
      const v = u.networkUpgradeOverrides[k];
      if (v !== undefined) n[k] = v;
    }
    o.networkUpgradeOverrides = n;
  }
  if (u.stateUpgrades.length)
    o.stateUpgrades = u.stateUpgrades.map((s) => {
      const so: Record<string, unknown> = {};
      if (s.blockTimestamp !== undefined) so.blockTimestamp = s.blockTimestamp;
      const accounts: Record<string, unknown> = {};
      for (const addr of [...s.accounts.keys()].sort()) {
        const a = s.accounts.get(addr)!;
        const ao: Record<string, unknown> = {};
        if (a.code && a.code.length) ao.code = hex(a.code);
        if (a.storage && a.storage.size) {
          const st: Record<string, string> = {};
          for (const k of [...a.storage.keys()].sort()) st[k] = a.storage.get(k)!;
          ao.storage = st;
        }
        if (a.balanceChange !== undefined)
          ao.balanceChange = a.balanceChange < 0n ? '-0x' + (-a.balanceChange).toString(16) : '0x' + a.balanceChange.toString(16);
        accounts[addr] = ao;
      }
      so.accounts = s.accountsNull ? null : accounts;
      return so;
    });
  if (u.precompileUpgrades.length) o.precompileUpgrades = u.precompileUpgrades.map((c) => ({ [c.key]: precompileConfigJSON(c) }));
  return o;
}
