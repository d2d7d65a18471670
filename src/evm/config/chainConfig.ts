// Subnet-EVM chain config (reference subnet-evm.md §2.2–§2.4, §4).
//   ChainConfig, Rules,
//   parseChainConfig(json | undefined, networkID) → ChainConfig (defaults applied, not yet verified),
//   verifyChainConfig(cfg) (fee config, precompile upgrades, state upgrades, network upgrades,
//     initialMinDelayMS — the order of Go's ChainConfig.Verify; unprefixed texts),
//   chainConfigJSON(cfg) (eth_getChainConfig), rulesAt(cfg, ts), activeRulesJSON(cfg, ts),
//   activePrecompilesJSON(cfg, ts), activePrecompileAt(cfg, key, ts),
//   precompileActivations(cfg, parentTime | undefined, blockTime), stateUpgradesAt(...),
//   buildTimeline(cfg).
import { DEFAULT_FEE_CONFIG, feeConfigJSON, isEmptyFeeConfig, parseFeeConfigJSON, verifyFeeConfig, type FeeConfig, type PartialFeeConfig } from '../fees/feeConfig.js';
import { goStruct, isObject, jsonText, jsonTypeName, type JsonObject, type JsonValue } from './json.js';
import { decodeBool, decodeUint64, fieldTypeError } from './decode.js';
import {
  UNSCHEDULED_ACTIVATION_TIME,
  UPGRADE_NAMES,
  isForkActive,
  setUpgradeDefaults,
  verifyNetworkUpgrades,
  type NetworkUpgrades,
} from './networkUpgrades.js';
import {
  PRECOMPILE_KEY_LIST,
  isPrecompileKey,
  parsePrecompileConfig,
  precompileConfigJSON,
  type PrecompileConfig,
  type PrecompileKey,
} from './precompileConfigs.js';
import { upgradeConfigJSON, verifyPrecompileUpgrades, verifyStateUpgrades, type StateUpgrade, type UpgradeConfig } from './upgradeTypes.js';

export const DEFAULT_CHAIN_ID = 43214n;
export const MAX_INITIAL_MIN_DELAY_MS = 2000n;

/** geth block-number forks: forced to 0 when absent (SetEthUpgrades). */
export const ETH_BLOCK_KEYS = [
  'homesteadBlock',
  'eip150Block',
  'eip155Block',
  'eip158Block',
  'byzantiumBlock',
  'constantinopleBlock',
  'petersburgBlock',
  'istanbulBlock',
  'muirGlacierBlock',
  'berlinBlock',
  'londonBlock',
] as const;
/** Other geth keys: kept as given (omitempty) — not used by Avalanche. */
const ETH_OTHER_KEYS = [
  'daoForkBlock',
  'daoForkSupport',
  'arrowGlacierBlock',
  'grayGlacierBlock',
  'mergeNetsplitBlock',
  'shanghaiTime',
  'cancunTime',
  'pragueTime',
  'verkleTime',
  'terminalTotalDifficulty',
  'terminalTotalDifficultyPassed',
  'ethash',
  'clique',
] as const;

export interface ChainConfig {
  networkID: number;
  chainId: bigint;
  /** geth keys (block forks, shanghaiTime/cancunTime after alignment, others as given). */
  eth: Map<string, JsonValue>;
  /** Genesis fee config (DEFAULT_FEE_CONFIG when absent/empty). */
  feeConfig: FeeConfig;
  allowFeeRecipients: boolean;
  /** 0 = unset. */
  initialMinDelayMS: bigint;
  /** After defaults, upgrade.json overrides. */
  networkUpgrades: NetworkUpgrades;
  /** Registered precompile keys given in genesis `config`. */
  genesisPrecompiles: Map<PrecompileKey, PrecompileConfig>;
  /** upgrade.json contents (empty when there is none). */
  upgrade: UpgradeConfig;
  /** Per key: genesis config then upgrades, in activation order (buildTimeline). */
  timeline: Map<PrecompileKey, PrecompileConfig[]>;
}

export interface ActivePrecompile {
  key: PrecompileKey;
  /** Activation timestamp of the active config. */
  timestamp: bigint;
  config: PrecompileConfig;
}

export interface Rules {
  chainId: bigint;
  timestamp: bigint;
  isSubnetEVM: boolean;
  isDurango: boolean;
  isEtna: boolean;
  isFortuna: boolean;
  isGranite: boolean;
  isHelicon: boolean;
  /** geth Shanghai (= Durango) and Cancun (= Etna); Prague is never enabled by the VM. */
  isShanghai: boolean;
  isCancun: boolean;
  /** Enabled stateful precompiles by lower-case address, ascending address. */
  precompiles: Map<string, ActivePrecompile>;
}

export const EMPTY_UPGRADE_CONFIG: UpgradeConfig = Object.freeze({ stateUpgrades: [], precompileUpgrades: [] }) as UpgradeConfig;

/** JSON names of the struct fields of genesis `config` (geth's ChainConfig and Subnet-EVM's extras). */
const CHAIN_CONFIG_FIELDS: readonly string[] = [
  'chainId',
  ...ETH_BLOCK_KEYS,
  ...ETH_OTHER_KEYS,
  ...UPGRADE_NAMES.map(([k]) => k),
  'feeConfig',
  'allowFeeRecipients',
  'initialMinDelayMS',
];

/**
 * Where Go's decoder says a genesis `config` field is: every type error inside `config` comes back
 * through the Genesis decoder, which renames it `Genesis.config.<field path>` (docs/upgrades.md, "Odd JSON").
 */
const GENESIS_CONFIG = 'Genesis.config';

/** A geth *big.Int field: a JSON integer (its UnmarshalJSON quotes anything else as written). */
function bigField(v: JsonValue): bigint {
  if (typeof v !== 'bigint') throw new Error(`math/big: cannot unmarshal ${JSON.stringify(jsonText(v))} into a *big.Int`);
  return v;
}

/** geth keys Avalanche does not use, decoded with their Go types (*uint64 times, *big.Int blocks, bools). */
function decodeEthKey(k: (typeof ETH_OTHER_KEYS)[number], v: JsonValue): JsonValue {
  switch (k) {
    case 'shanghaiTime':
    case 'cancunTime':
    case 'pragueTime':
    case 'verkleTime':
      return decodeUint64(v, `${GENESIS_CONFIG}.${k}`);
    case 'daoForkSupport':
    case 'terminalTotalDifficultyPassed':
      return decodeBool(v, `${GENESIS_CONFIG}.${k}`);
    case 'ethash': // params.EthashConfig has no fields: always written back as {}
      if (!isObject(v)) throw fieldTypeError(jsonTypeName(v), `${GENESIS_CONFIG}.ethash`, 'params.EthashConfig');
      return Object.create(null) as JsonObject;
    case 'clique': {
      if (!isObject(v)) throw fieldTypeError(jsonTypeName(v), `${GENESIS_CONFIG}.clique`, 'params.CliqueConfig');
      const field = (f: string) => (v[f] === undefined || v[f] === null ? 0n : decodeUint64(v[f], `${GENESIS_CONFIG}.clique.${f}`));
      return { period: field('period'), epoch: field('epoch') };
    }
    default:
      return bigField(v);
  }
}

/**
 * Parse genesis `config` (undefined/null → the built-in default config), apply network defaults
 * (§4.3), fee-config default, eth-fork alignment. Validation is verifyChainConfig's job.
 */
export function parseChainConfig(v: JsonValue | undefined, networkID: number): ChainConfig {
  const given: JsonObject = v === undefined || v === null ? Object.create(null) : (v as JsonObject);
  // ChainConfig's UnmarshalJSON decodes the Avalanche part first, into extras' local type.
  if (!isObject(given)) throw fieldTypeError(jsonTypeName(v!), GENESIS_CONFIG, 'extras._ChainConfigExtra');
  // Struct fields match case-insensitively; the precompile keys are map keys (exact).
  const obj = goStruct(given, CHAIN_CONFIG_FIELDS);
  const cfg: ChainConfig = {
    networkID,
    chainId: v === undefined || v === null ? DEFAULT_CHAIN_ID : 0n,
    eth: new Map(),
    feeConfig: DEFAULT_FEE_CONFIG,
    allowFeeRecipients: false,
    initialMinDelayMS: 0n,
    networkUpgrades: {},
    genesisPrecompiles: new Map(),
    upgrade: EMPTY_UPGRADE_CONFIG,
    timeline: new Map(),
  };
  if (obj.chainId !== undefined && obj.chainId !== null) cfg.chainId = bigField(obj.chainId);
  for (const k of ETH_BLOCK_KEYS) {
    const x = obj[k];
    cfg.eth.set(k, x === undefined || x === null ? 0n : bigField(x));
  }
  for (const k of ETH_OTHER_KEYS) {
    const x = obj[k];
    if (x === undefined || x === null) continue;
    const value = decodeEthKey(k, x);
    if (value !== false) cfg.eth.set(k, value); // the bools are omitempty: false is not written back
  }
  const fc: PartialFeeConfig = parseFeeConfigJSON(obj.feeConfig, `${GENESIS_CONFIG}.feeConfig`);
  cfg.feeConfig = isEmptyFeeConfig(fc) ? DEFAULT_FEE_CONFIG : (fc as FeeConfig); // verified later
  if (obj.allowFeeRecipients !== undefined && obj.allowFeeRecipients !== null)
    cfg.allowFeeRecipients = decodeBool(obj.allowFeeRecipients, `${GENESIS_CONFIG}.allowFeeRecipients`);
  if (obj.initialMinDelayMS !== undefined && obj.initialMinDelayMS !== null)
    cfg.initialMinDelayMS = decodeUint64(obj.initialMinDelayMS, `${GENESIS_CONFIG}.initialMinDelayMS`);
  const u: NetworkUpgrades = {};
  for (const [k] of UPGRADE_NAMES) {
    const x = obj[k];
    if (x !== undefined && x !== null) u[k] = decodeUint64(x, `${GENESIS_CONFIG}.${k}`);
  }
  cfg.networkUpgrades = setUpgradeDefaults(u, networkID);
  for (const key of PRECOMPILE_KEY_LIST) {
    // A key given as `null` is still a genesis precompile (Go decodes null into a zero Config):
    // it never activates and eth_getChainConfig shows it as {"blockTimestamp":null}.
    const x = obj[key];
    if (x !== undefined) cfg.genesisPrecompiles.set(key, parsePrecompileConfig(key, x, GENESIS_CONFIG));
  }
  alignEthForks(cfg);
  cfg.timeline = buildTimeline(cfg);
  return cfg;
}

/** shanghaiTime := durangoTimestamp, cancunTime := etnaTimestamp (when scheduled). */
export function alignEthForks(cfg: ChainConfig): void {
  const u = cfg.networkUpgrades;
  if (u.durangoTimestamp !== undefined && u.durangoTimestamp < UNSCHEDULED_ACTIVATION_TIME) cfg.eth.set('shanghaiTime', u.durangoTimestamp);
  if (u.etnaTimestamp !== undefined && u.etnaTimestamp < UNSCHEDULED_ACTIVATION_TIME) cfg.eth.set('cancunTime', u.etnaTimestamp);
}

export function buildTimeline(cfg: ChainConfig): Map<PrecompileKey, PrecompileConfig[]> {
  const t = new Map<PrecompileKey, PrecompileConfig[]>();
  for (const key of PRECOMPILE_KEY_LIST) {
    const list: PrecompileConfig[] = [];
    const g = cfg.genesisPrecompiles.get(key);
    if (g) list.push(g);
    for (const up of cfg.upgrade.precompileUpgrades) if (up.key === key) list.push(up);
    if (list.length) t.set(key, list);
  }
  return t;
}

/** ChainConfig.Verify after the genesis gas-limit check; throws unprefixed texts like `invalid fee config: …`. */
export function verifyChainConfig(cfg: ChainConfig): void {
  try {
    verifyFeeConfig(cfg.feeConfig);
  } catch (e) {
    throw new Error(`invalid fee config: ${(e as Error).message}`);
  }
  const isDurangoAt = (ts: bigint) => isForkActive(cfg.networkUpgrades.durangoTimestamp, ts);
  try {
    verifyPrecompileUpgrades(cfg.genesisPrecompiles, cfg.upgrade.precompileUpgrades, isDurangoAt);
  } catch (e) {
    throw new Error(`invalid precompile upgrades: ${(e as Error).message}`);
  }
  try {
    verifyStateUpgrades(cfg.upgrade.stateUpgrades);
  } catch (e) {
    throw new Error(`invalid state upgrades: ${(e as Error).message}`);
  }
  try {
    verifyNetworkUpgrades(cfg.networkUpgrades, cfg.networkID);
  } catch (e) {
    throw new Error(`invalid network upgrades: ${(e as Error).message}`);
  }
  if (cfg.initialMinDelayMS > MAX_INITIAL_MIN_DELAY_MS)
    throw new Error(`initialMinDelayMS too large: ${cfg.initialMinDelayMS} exceeds ${MAX_INITIAL_MIN_DELAY_MS}`);
}

/** The config of `key` in force at `ts` (its latest config activated at or before ts), if enabled. */
export function activePrecompileAt(cfg: ChainConfig, key: PrecompileKey, ts: bigint): PrecompileConfig | undefined {
  const list = cfg.timeline.get(key);
  if (!list) return undefined;
  let cur: PrecompileConfig | undefined;
  for (const c of list) {
    if (c.blockTimestamp !== undefined && c.blockTimestamp <= ts) cur = c;
  }
  return cur && !cur.disable ? cur : undefined;
}

export function rulesAt(cfg: ChainConfig, ts: bigint): Rules {
  const u = cfg.networkUpgrades;
  const precompiles = new Map<string, ActivePrecompile>();
  for (const key of cfg.timeline.keys()) {
    const c = activePrecompileAt(cfg, key, ts);
    if (c) precompiles.set(c.address, { key, timestamp: c.blockTimestamp!, config: c });
  }
  return {
    chainId: cfg.chainId,
    timestamp: ts,
    isSubnetEVM: isForkActive(u.subnetEVMTimestamp, ts),
    isDurango: isForkActive(u.durangoTimestamp, ts),
    isEtna: isForkActive(u.etnaTimestamp, ts),
    isFortuna: isForkActive(u.fortunaTimestamp, ts),
    isGranite: isForkActive(u.graniteTimestamp, ts),
    isHelicon: isForkActive(u.heliconTimestamp, ts),
    isShanghai: timeForked(cfg.eth.get('shanghaiTime'), ts),
    isCancun: timeForked(cfg.eth.get('cancunTime'), ts),
    precompiles,
  };
}

/**
 * rulesAt for one chain config, its answers kept (up to 256 timestamps, then it starts over): the
 * chain asks for the rules of every block it builds or replays and every eth_call for its block's
 * (the fork of its cache key, warp's call set-up), and each answer was a new Rules object with its
 * map of precompiles (~1–2 % of a new-holder eth_call; docs/performance.md session 40). A config
 * does not change once parsed, and rules are read only.
 */
export function cachedRulesAt(cfg: ChainConfig): (ts: bigint) => Rules {
  const kept = new Map<bigint, Rules>();
  return (ts) => {
    let rules = kept.get(ts);
    if (rules === undefined) {
      if (kept.size >= 256) kept.clear();
      rules = rulesAt(cfg, ts);
      kept.set(ts, rules);
    }
    return rules;
  };
}

function timeForked(v: JsonValue | undefined, ts: bigint): boolean {
  return typeof v === 'bigint' && v <= ts;
}

function blockForked(v: JsonValue | undefined, n: bigint): boolean {
  return typeof v === 'bigint' && v <= n;
}

/** eth_getActiveRulesAt result (§2.4): rules at block number 0, isMerge = true. */
export function activeRulesJSON(cfg: ChainConfig, ts: bigint): Record<string, unknown> {
  const e = cfg.eth;
  const b = (k: string) => blockForked(e.get(k), 0n);
  const r = rulesAt(cfg, ts);
  const precompiles: Record<string, { timestamp: bigint }> = {};
  for (const p of [...r.precompiles.values()].sort((x, y) => (x.key < y.key ? -1 : 1))) precompiles[p.key] = { timestamp: p.timestamp };
  const petersburg = e.has('petersburgBlock') ? b('petersburgBlock') : b('constantinopleBlock');
  return {
    ethRules: {
      ChainID: cfg.chainId,
      IsHomestead: b('homesteadBlock'),
      IsEIP150: b('eip150Block'),
      IsEIP155: b('eip155Block'),
      IsEIP158: b('eip158Block'),
      IsByzantium: b('byzantiumBlock'),
      IsConstantinople: b('constantinopleBlock'),
      IsPetersburg: petersburg,
      IsIstanbul: b('istanbulBlock'),
      IsBerlin: b('berlinBlock'),
      IsLondon: b('londonBlock'),
      IsMerge: true,
      IsShanghai: r.isShanghai,
      IsCancun: r.isCancun,
      IsPrague: timeForked(e.get('pragueTime'), ts),
      IsVerkle: timeForked(e.get('verkleTime'), ts),
    },
    avalancheRules: {
      IsSubnetEVM: r.isSubnetEVM,
      IsDurango: r.isDurango,
      IsEtna: r.isEtna,
      IsFortuna: r.isFortuna,
      IsGranite: r.isGranite,
      IsHelicon: r.isHelicon,
    },
    precompiles,
  };
}

/** eth_getActivePrecompilesAt result (§2.3): configKey → full config JSON, keys sorted. */
export function activePrecompilesJSON(cfg: ChainConfig, ts: bigint): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = [...cfg.timeline.keys()].sort();
  for (const key of keys) {
    const c = activePrecompileAt(cfg, key, ts);
    if (c) out[key] = precompileConfigJSON(c);
  }
  return out;
}

/** eth_getChainConfig result (§2.2): top-level keys sorted, `upgrades` last. bigint → bare number. */
export function chainConfigJSON(cfg: ChainConfig): Record<string, unknown> {
  const o: Record<string, unknown> = { chainId: cfg.chainId };
  for (const [k, v] of cfg.eth) o[k] = v;
  for (const [k, name] of UPGRADE_NAMES) {
    void name;
    const ts = cfg.networkUpgrades[k];
    if (ts !== undefined) o[k] = ts;
  }
  o.feeConfig = feeConfigJSON(cfg.feeConfig);
  if (cfg.allowFeeRecipients) o.allowFeeRecipients = true;
  if (cfg.initialMinDelayMS !== 0n) o.initialMinDelayMS = cfg.initialMinDelayMS;
  for (const [key, c] of cfg.genesisPrecompiles) o[key] = precompileConfigJSON(c);
  const sorted: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) sorted[k] = o[k];
  sorted.upgrades = upgradeConfigJSON(cfg.upgrade);
  return sorted;
}

/** A precompile config (re)activating in a block: `parentTime < ts <= blockTime` (§6.4). */
export interface PrecompileActivation {
  key: PrecompileKey;
  address: string;
  config: PrecompileConfig;
}

/**
 * Precompile configs that take effect in a block, in application order (ascending address; within
 * a key, genesis config then upgrades). `parentTime` undefined for genesis. A `disable` config
 * means: self-destruct the account; otherwise nonce := 1, code := 0x01, then Configure.
 */
export function precompileActivations(cfg: ChainConfig, parentTime: bigint | undefined, blockTime: bigint): PrecompileActivation[] {
  const out: PrecompileActivation[] = [];
  for (const [key, list] of cfg.timeline) {
    for (const c of list) {
      const ts = c.blockTimestamp;
      if (ts === undefined) continue;
      if ((parentTime === undefined || ts > parentTime) && ts <= blockTime) out.push({ key, address: c.address, config: c });
    }
  }
  return out;
}

/** State upgrades that apply in a block (after precompile activations, before txs). */
export function stateUpgradesAt(cfg: ChainConfig, parentTime: bigint | undefined, blockTime: bigint): StateUpgrade[] {
  return cfg.upgrade.stateUpgrades.filter(
    (s) => s.blockTimestamp !== undefined && (parentTime === undefined || s.blockTimestamp > parentTime) && s.blockTimestamp <= blockTime,
  );
}

export { isPrecompileKey };
