// The chain's VM config.json (reference §9.4) — the keys this node acts on — plus Powder's own
// chain options (`blockTime`, `dev`) and the "powder-test-controls" switch.
import { DEFAULT_POOL_LIMITS, type TxPoolLimits } from '../txpool/pool.js';
import type { VmConfig } from './backend.js';
import { goTypeName } from '../../rpc/gorilla.js';
import { parseJsonGoErrors } from '../config/json.js';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { goPathError } from '../../goPathError.js';

export const DEFAULT_ETH_APIS = ['eth', 'eth-filter', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction'];
/** The dev chain also serves txpool_*, debug_* and eth_accounts (documented in docs/dev-chain.md). */
export const DEV_ETH_APIS = [...DEFAULT_ETH_APIS, 'internal-tx-pool', 'debug-tracer', 'internal-debug', 'internal-account', 'debug'];

const LEGACY_API_NAMES: Record<string, string> = {
  'internal-public-eth': 'internal-eth',
  'internal-public-blockchain': 'internal-blockchain',
  'internal-public-transaction-pool': 'internal-transaction',
  'internal-public-tx-pool': 'internal-tx-pool',
  'internal-public-debug': 'internal-debug',
  'internal-private-debug': 'internal-debug',
  'internal-public-account': 'internal-account',
  'internal-private-personal': 'internal-personal',
  'public-eth': 'eth',
  'public-eth-filter': 'eth-filter',
  'private-admin': 'admin',
  'public-debug': 'debug',
  'private-debug': 'debug',
};
export const KNOWN_APIS = new Set([
  ...DEV_ETH_APIS,
  'internal-personal',
  'debug-file-tracer',
  'debug',
  'debug-handler',
  'admin',
]);

export interface ParsedVmConfig extends VmConfig {
  /** config.json as given ({} without one). */
  file: Record<string, unknown>;
  txPoolLimits: TxPoolLimits;
  blockTimeMs: number;
  httpBodyLimit: number;
  minDelayTarget?: bigint;
  skipUpgradeCheck: boolean;
  /** preimages-enabled (default false; true on the dev chain): trie keys' preimages are stored. */
  preimagesEnabled: boolean;
}

/** Go duration string ("2s", "500ms", "1m30s") or a number of nanoseconds → milliseconds. */
export function durationMs(v: unknown, nanos = true): number {
  if (typeof v === 'number') return nanos ? v / 1e6 : v;
  if (typeof v !== 'string') throw new Error(`time: invalid duration ${JSON.stringify(v)}`);
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let matched = '';
  for (const m of v.matchAll(re)) {
    total += Number(m[1]) * units[m[2]];
    matched += m[0];
  }
  if (v === '0') return 0;
  if (matched !== v || v === '') throw new Error(`time: invalid duration ${JSON.stringify(v)}`);
  return total;
}

export function parseVmConfig(raw: Uint8Array | undefined, options: Record<string, unknown>): ParsedVmConfig {
  let c: Record<string, unknown> = {};
  if (raw && raw.length) {
    const text = Buffer.from(raw).toString('utf8');
    try {
      const v = parseJsonGoErrors(text) as Record<string, unknown> | null;
      if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('json: cannot unmarshal into Go value of type config.Config');
      c = v;
    } catch (e) {
      throw new Error(`failed to unmarshal config ${text}: ${(e as Error).message}`);
    }
  }
  const dev = options.dev === true;
  let apis = (c['eth-apis'] as string[] | undefined) ?? (dev ? DEV_ETH_APIS : DEFAULT_ETH_APIS);
  apis = apis.map((a) => LEGACY_API_NAMES[a] ?? a);
  for (const a of apis) if (!KNOWN_APIS.has(a)) throw new Error(`API service ${a} not found`);
  const num = (k: string, d: number) => (typeof c[k] === 'number' ? (c[k] as number) : d);
  const txPoolLimits = parseTxPoolLimits(c, raw);
  const keystore = parseKeystoreOptions(c, raw);
  let blockTimeMs = 0;
  const bt = options.blockTime ?? options['block-time'];
  if (bt !== undefined && bt !== null) blockTimeMs = typeof bt === 'number' ? bt : durationMs(bt);
  const parsed: ParsedVmConfig = {
    file: c,
    ethApis: apis,
    rpcGasCap: BigInt(num('rpc-gas-cap', 50_000_000)),
    rpcTxFeeCap: num('rpc-tx-fee-cap', 100),
    allowUnprotectedTxs: c['allow-unprotected-txs'] === true,
    allowUnprotectedTxHashes: new Set(
      ((c['allow-unprotected-tx-hashes'] as string[] | undefined) ?? ['0xfefb2da535e927b85fe68eb81cb2e4a5827c905f78381a01ef2322aa9b0aee8e']).map((h) => h.toLowerCase()),
    ),
    allowUnfinalizedQueries: c['allow-unfinalized-queries'] === true,
    testControls: c['powder-test-controls'] !== false,
    batchRequestLimit: num('batch-request-limit', 1000),
    batchResponseMaxSize: num('batch-response-max-size', 25_000_000),
    txPoolPriceLimit: BigInt(num('tx-pool-price-limit', 1)),
    txPoolLimits,
    historicalProofQueryWindow: BigInt(uintKey(c, raw, 'historical-proof-query-window') ?? 43_200),
    txIndex: {
      history: BigInt(uintKey(c, raw, 'transaction-history') ?? 0),
      skip: boolKey(c, raw, 'skip-tx-indexing') ?? false,
    },
    apiMaxBlocksPerRequest: num('api-max-blocks-per-request', 0),
    apiMaxDurationMs: durationKey(c, raw, 'api-max-duration') ?? 0,
    feeRecipient: typeof c.feeRecipient === 'string' && c.feeRecipient !== '' ? hexToAddress(c.feeRecipient) : undefined,
    blockTimeMs,
    httpBodyLimit: num('http-body-limit', 0) || 5 * 1024 * 1024,
    minDelayTarget: typeof c['min-delay-target'] === 'number' ? BigInt(c['min-delay-target'] as number) : undefined,
    skipUpgradeCheck: c['skip-upgrade-check'] === true,
    // The dev chain records preimages unless told not to (debug_storageRangeAt's keys, debug_preimage).
    preimagesEnabled: boolKey(c, raw, 'preimages-enabled') ?? dev,
    ...keystore,
  };
  // Go decodes the whole file (its type errors first), then validates.
  validateVmConfig(c, raw);
  return parsed;
}

/**
 * Subnet-EVM's Config.Validate, its rules in its order and words (reference §9.4). Powder keeps no
 * pruned state, so these keys change nothing else; a combination the real node refuses still stops
 * the chain. (The production-network commit-interval rules do not apply to a local network.)
 */
function validateVmConfig(c: Record<string, unknown>, raw: Uint8Array | undefined): void {
  const pruning = boolKey(c, raw, 'pruning-enabled') ?? true;
  const offlinePruning = boolKey(c, raw, 'offline-pruning-enabled') ?? false;
  const populate = uintKey(c, raw, 'populate-missing-tries'); // *uint64: any value, 0 too, is "set"
  const parallelism = uintKey(c, raw, 'populate-missing-tries-parallelism') ?? 1024;
  const commitInterval = uintKey(c, raw, 'commit-interval') ?? 4096;
  const stateHistory = uintKey(c, raw, 'state-history') ?? 32;
  const stake = floatKey(c, raw, 'push-gossip-percent-stake') ?? 0.9;
  const fail = (msg: string): never => {
    throw new Error(msg);
  };
  if (populate !== undefined && (offlinePruning || pruning)) {
    fail(`cannot enable populate missing tries while offline pruning (enabled: ${offlinePruning})/pruning (enabled: ${pruning}) are enabled`);
  }
  if (populate !== undefined && parallelism < 1) fail(`cannot enable populate missing tries without at least one reader (parallelism: ${parallelism})`);
  if (!pruning && offlinePruning) fail('cannot run offline pruning while pruning is disabled');
  if (pruning && commitInterval === 0) fail('cannot use commit interval of 0 with pruning enabled');
  if (pruning && stateHistory === 0) fail('cannot use state history of 0 with pruning enabled');
  // Go's %f: six decimals.
  if (stake < 0 || stake > 1) fail(`push-gossip-percent-stake is ${stake.toFixed(6)} but must be in the range [0, 1]`);
  // Checked when the chain's database is set up, after Validate.
  if (stringKey(c, raw, 'state-scheme') === 'path') fail('path state scheme is not supported');
}

/** A float64 key of config.json: undefined when absent or null; Go's decoder error for anything else. */
function floatKey(c: Record<string, unknown>, raw: Uint8Array | undefined, key: string): number | undefined {
  const v = c[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number') unmarshalError(raw, `json: cannot unmarshal ${goTypeName(v)} into Go struct field Config.${key} of type float64`);
  return v;
}

/**
 * keystore-directory / keystore-external-signer / keystore-insecure-unlock-allowed, as Subnet-EVM's
 * node.New takes them (its makeAccountManager): a directory is made absolute and created (mode
 * 0700) at chain start — failing like os.MkdirAll — and "" means an ephemeral directory. An
 * external signer (clef) is not supported: the chain fails to start, as Subnet-EVM's does when it
 * cannot reach the signer. Insecure unlock has no effect (Subnet-EVM's ExtRPCEnabled() is false,
 * so personal_unlockAccount is always allowed). src/evm/api/personal.md.
 */
function parseKeystoreOptions(c: Record<string, unknown>, raw: Uint8Array | undefined): Pick<ParsedVmConfig, 'keystoreDirectory' | 'keystoreInsecureUnlockAllowed'> {
  const dir = stringKey(c, raw, 'keystore-directory') ?? '';
  const signer = stringKey(c, raw, 'keystore-external-signer') ?? '';
  const insecure = boolKey(c, raw, 'keystore-insecure-unlock-allowed') ?? false;
  let keystoreDirectory: string | undefined;
  if (dir !== '') {
    keystoreDirectory = resolve(dir);
    try {
      mkdirSync(keystoreDirectory, { recursive: true, mode: 0o700 });
    } catch (e) {
      // os.MkdirAll on an existing file: ENOTDIR.
      const err = (e as NodeJS.ErrnoException).code === 'EEXIST' ? Object.assign(new Error('not a directory'), { code: 'ENOTDIR' }) : e;
      throw new Error(goPathError('mkdir', (e as { path?: string }).path ?? keystoreDirectory, err));
    }
  }
  if (signer !== '') {
    throw new Error(`error connecting to external signer: Powder does not support external signers (clef at ${signer}); leave keystore-external-signer empty to use the key directory`);
  }
  return { keystoreDirectory, keystoreInsecureUnlockAllowed: insecure };
}

/** A string key of config.json: undefined when absent or null; Go's decoder error for anything else. */
function stringKey(c: Record<string, unknown>, raw: Uint8Array | undefined, key: string): string | undefined {
  const v = c[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') unmarshalError(raw, `json: cannot unmarshal ${typeof v === 'number' ? 'number' : goTypeName(v)} into Go struct field Config.${key} of type string`);
  return v;
}

/**
 * The tx-pool-* keys as geth's pool takes them: unsigned integers (a negative number or a string
 * fails like Go's decoder), and 0 — or a lifetime of 0 — means the default (geth's sanitize).
 */
function parseTxPoolLimits(c: Record<string, unknown>, raw: Uint8Array | undefined): TxPoolLimits {
  const uint = (key: string, dflt: number): number => uintKey(c, raw, key) || dflt;
  const d = DEFAULT_POOL_LIMITS;
  const lifetimeMs = durationKey(c, raw, 'tx-pool-lifetime') || d.lifetimeMs;
  return {
    priceBump: BigInt(uint('tx-pool-price-bump', Number(d.priceBump))),
    accountSlots: uint('tx-pool-account-slots', d.accountSlots),
    globalSlots: uint('tx-pool-global-slots', d.globalSlots),
    accountQueue: uint('tx-pool-account-queue', d.accountQueue),
    globalQueue: uint('tx-pool-global-queue', d.globalQueue),
    lifetimeMs,
    allLocal: c['local-txs-enabled'] === true,
    locals: new Set(((c['priority-regossip-addresses'] as unknown[] | undefined) ?? []).filter((a): a is string => typeof a === 'string').map((a) => a.toLowerCase())),
  };
}

function unmarshalError(raw: Uint8Array | undefined, msg: string): never {
  throw new Error(`failed to unmarshal config ${Buffer.from(raw ?? []).toString('utf8')}: ${msg}`);
}

/** A uint64 key of config.json: undefined when absent or null; Go's decoder error for anything else. */
function uintKey(c: Record<string, unknown>, raw: Uint8Array | undefined, key: string): number | undefined {
  const v = c[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    unmarshalError(raw, `json: cannot unmarshal ${typeof v === 'number' ? `number ${v}` : goTypeName(v)} into Go struct field Config.${key} of type uint64`);
  }
  return v as number;
}

/** A bool key of config.json: undefined when absent or null; Go's decoder error for anything else. */
function boolKey(c: Record<string, unknown>, raw: Uint8Array | undefined, key: string): boolean | undefined {
  const v = c[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') unmarshalError(raw, `json: cannot unmarshal ${goTypeName(v)} into Go struct field Config.${key} of type bool`);
  return v;
}

/** A duration key of config.json in ms (a Go duration string, or nanoseconds): undefined when absent. */
function durationKey(c: Record<string, unknown>, raw: Uint8Array | undefined, key: string): number | undefined {
  const v = c[key];
  if (v === undefined || v === null) return undefined;
  try {
    return durationMs(v);
  } catch (e) {
    return unmarshalError(raw, (e as Error).message);
  }
}

/**
 * Go's common.HexToAddress for `feeRecipient`: optional 0x, an odd digit count gets a leading 0,
 * and the bytes are fitted to 20 (left-padded, or the last 20 kept). Text that is no hex is kept
 * as given (lower-case).
 */
export function hexToAddress(s: string): string {
  let h = /^0[xX]/.test(s) ? s.slice(2) : s;
  if (!/^[0-9a-fA-F]*$/.test(h)) return s.toLowerCase();
  if (h.length % 2 === 1) h = '0' + h;
  return '0x' + (h.length > 40 ? h.slice(-40) : h.padStart(40, '0')).toLowerCase();
}
