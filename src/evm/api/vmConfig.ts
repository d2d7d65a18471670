// The chain's VM config.json (reference §9.4) — the keys this node acts on — plus Powder's own
// chain options (`blockTime`, `dev`) and the "powder-test-controls" switch.
import { DEFAULT_POOL_LIMITS, type TxPoolLimits } from '../txpool/pool.js';
import type { VmConfig } from './backend.js';
import { VM_CONFIG_DEFAULTS, decodeVmConfig, durationMs } from '../admin/vmConfigJson.js';
import { MAX_DEV_ACCOUNTS, parseDuration } from '../../config/flags.js';
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
const DEFAULTS = new Map(VM_CONFIG_DEFAULTS.map(([key, dflt]) => [key, dflt]));

export const KNOWN_APIS = new Set([
  ...DEV_ETH_APIS,
  'internal-personal',
  'debug-file-tracer',
  'debug',
  'debug-handler',
  'admin',
]);

export interface ParsedVmConfig extends VmConfig {
  /** config.json as decodeVmConfig gives it: keys under the struct's names, type-checked ({} without one). */
  file: Record<string, unknown>;
  txPoolLimits: TxPoolLimits;
  blockTimeMs: number;
  /** The chain option clientVersion: what web3_clientVersion answers instead of the node's version. */
  clientVersion?: string;
  httpBodyLimit: number;
  minDelayTarget?: bigint;
  skipUpgradeCheck: boolean;
  /** preimages-enabled (default false; true on the dev chain): trie keys' preimages are stored. */
  preimagesEnabled: boolean;
}

/**
 * The dev accounts a chain's `devAccounts` option asks for (10 when absent). Checked wherever it is
 * read: the default genesis derives the accounts before the chain's config is parsed, and a count
 * of 10^9 held that start for days.
 */
export function devAccountCount(options: Record<string, unknown>): number {
  const n = options.devAccounts;
  if (n == null) return 10;
  if (!(typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 && n <= MAX_DEV_ACCOUNTS)) {
    throw new Error(`chain option "devAccounts" must be a whole number of accounts from 0 to ${MAX_DEV_ACCOUNTS}, not ${typeof n === 'bigint' ? n : JSON.stringify(n)}`);
  }
  return n;
}

/**
 * Subnet-EVM's chain-definition options (docs/configuration.md, "Chains"). A value of the wrong
 * type was ignored (`"dev": "yes"` made no dev chain, `"devAccounts": "5"` gave 10 accounts) or
 * failed without naming the option (`time: invalid duration true`); `null` counts as absent.
 */
function checkChainOptions(options: Record<string, unknown>): void {
  if (options.dev != null && typeof options.dev !== 'boolean') throw new Error(`chain option "dev" must be true or false, not ${JSON.stringify(options.dev)}`);
  devAccountCount(options);
  if (options.clientVersion != null && typeof options.clientVersion !== 'string') throw new Error(`chain option "clientVersion" must be a string, not ${JSON.stringify(options.clientVersion)}`);
  for (const k of ['blockTime', 'block-time']) {
    const bt = options[k];
    if (bt == null) continue;
    if (typeof bt === 'number' ? !(Number.isFinite(bt) && bt >= 0) : typeof bt !== 'string') {
      throw new Error(`chain option "${k}" must be a duration ("2s", "500ms") or a number of milliseconds, 0 or more, not ${JSON.stringify(bt)}`);
    }
    if (typeof bt === 'string') {
      try {
        parseDuration(bt);
      } catch (e) {
        throw new Error(`chain option "${k}": ${(e as Error).message}`);
      }
    }
  }
}

export function parseVmConfig(raw: Uint8Array | undefined, options: Record<string, unknown>): ParsedVmConfig {
  let c: Record<string, unknown> = {};
  if (raw && raw.length) {
    const text = Buffer.from(raw).toString('utf8');
    try {
      c = decodeVmConfig(text);
    } catch (e) {
      throw new Error(`failed to unmarshal config ${text}: ${(e as Error).message}`);
    }
  }
  // The struct's value of a key: the file's (its type checked above), else the default.
  const get = <T>(key: string, dflt = DEFAULTS.get(key)): T => (key in c ? c[key] : dflt) as T;
  const ms = (key: string): number => (key in c ? durationMs(c[key]) : (DEFAULTS.get(key) as number));
  checkChainOptions(options);
  const dev = options.dev === true;
  // A null list is Go's nil: no APIs, no hashes.
  let apis = get<string[] | null>('eth-apis', dev ? DEV_ETH_APIS : DEFAULT_ETH_APIS) ?? [];
  apis = apis.map((a) => LEGACY_API_NAMES[a] ?? a);
  for (const a of apis) if (!KNOWN_APIS.has(a)) throw new Error(`API service ${a} not found`);
  const feeRecipient = get<string>('feeRecipient');
  const minDelayTarget = get<number | null>('min-delay-target');
  const keystore = parseKeystoreOptions(get);
  let blockTimeMs = 0;
  const bt = options.blockTime ?? options['block-time'];
  if (bt !== undefined && bt !== null) blockTimeMs = typeof bt === 'number' ? bt : parseDuration(bt);
  const parsed: ParsedVmConfig = {
    file: c,
    ethApis: apis,
    rpcGasCap: BigInt(get<number>('rpc-gas-cap')),
    rpcTxFeeCap: get<number>('rpc-tx-fee-cap'),
    allowUnprotectedTxs: get<boolean>('allow-unprotected-txs'),
    allowUnprotectedTxHashes: new Set((get<string[] | null>('allow-unprotected-tx-hashes') ?? []).map((h) => h.toLowerCase())),
    allowUnfinalizedQueries: get<boolean>('allow-unfinalized-queries'),
    testControls: c['powder-test-controls'] !== false,
    batchRequestLimit: get<number>('batch-request-limit'),
    batchResponseMaxSize: get<number>('batch-response-max-size'),
    txPoolPriceLimit: BigInt(get<number>('tx-pool-price-limit')),
    txPoolLimits: parseTxPoolLimits(get, ms),
    historicalProofQueryWindow: BigInt(get<number>('historical-proof-query-window')),
    txIndex: {
      history: BigInt(get<number>('transaction-history')),
      skip: get<boolean>('skip-tx-indexing'),
    },
    apiMaxBlocksPerRequest: get<number>('api-max-blocks-per-request'),
    apiMaxDurationMs: ms('api-max-duration'),
    // Subnet-EVM takes it only if common.IsHexAddress; anything else leaves the blackhole.
    feeRecipient: /^(0[xX])?[0-9a-fA-F]{40}$/.test(feeRecipient) ? '0x' + feeRecipient.slice(-40).toLowerCase() : undefined,
    blockTimeMs,
    clientVersion: typeof options.clientVersion === 'string' && options.clientVersion !== '' ? options.clientVersion : undefined,
    httpBodyLimit: get<number>('http-body-limit') || 5 * 1024 * 1024,
    minDelayTarget: minDelayTarget === null ? undefined : BigInt(minDelayTarget),
    skipUpgradeCheck: get<boolean>('skip-upgrade-check'),
    // The dev chain records preimages unless told not to (debug_storageRangeAt's keys, debug_preimage).
    preimagesEnabled: get<boolean>('preimages-enabled', dev),
    ...keystore,
  };
  // Go decodes the whole file (its type errors first), then validates.
  validateVmConfig(get);
  return parsed;
}

/** config.json's value of a key, or the default (see parseVmConfig). */
type Get = <T>(key: string, dflt?: unknown) => T;

/**
 * Subnet-EVM's Config.Validate, its rules in its order and words (reference §9.4). Powder keeps no
 * pruned state, so these keys change nothing else; a combination the real node refuses still stops
 * the chain. (The production-network commit-interval rules do not apply to a local network.)
 */
function validateVmConfig(get: Get): void {
  const pruning = get<boolean>('pruning-enabled');
  const offlinePruning = get<boolean>('offline-pruning-enabled');
  const populate = get<number | null>('populate-missing-tries'); // *uint64: any value, 0 too, is "set"
  const parallelism = get<number>('populate-missing-tries-parallelism');
  const commitInterval = get<number>('commit-interval');
  const stateHistory = get<number>('state-history');
  const stake = get<number>('push-gossip-percent-stake');
  const fail = (msg: string): never => {
    throw new Error(msg);
  };
  if (populate !== null && (offlinePruning || pruning)) {
    fail(`cannot enable populate missing tries while offline pruning (enabled: ${offlinePruning})/pruning (enabled: ${pruning}) are enabled`);
  }
  if (populate !== null && parallelism < 1) fail(`cannot enable populate missing tries without at least one reader (parallelism: ${parallelism})`);
  if (!pruning && offlinePruning) fail('cannot run offline pruning while pruning is disabled');
  if (pruning && commitInterval === 0) fail('cannot use commit interval of 0 with pruning enabled');
  if (pruning && stateHistory === 0) fail('cannot use state history of 0 with pruning enabled');
  // Go's %f: six decimals.
  if (stake < 0 || stake > 1) fail(`push-gossip-percent-stake is ${stake.toFixed(6)} but must be in the range [0, 1]`);
  // Checked when the chain's database is set up, after Validate.
  if (get<string>('state-scheme') === 'path') fail('path state scheme is not supported');
}

/**
 * keystore-directory / keystore-external-signer / keystore-insecure-unlock-allowed, as Subnet-EVM's
 * node.New takes them (its makeAccountManager): a directory is made absolute and created (mode
 * 0700) at chain start — failing like os.MkdirAll — and "" means an ephemeral directory. An
 * external signer (clef) is not supported: the chain fails to start, as Subnet-EVM's does when it
 * cannot reach the signer. Insecure unlock has no effect (Subnet-EVM's ExtRPCEnabled() is false,
 * so personal_unlockAccount is always allowed). src/evm/api/personal.md.
 */
function parseKeystoreOptions(get: Get): Pick<ParsedVmConfig, 'keystoreDirectory' | 'keystoreInsecureUnlockAllowed'> {
  const dir = get<string>('keystore-directory');
  const signer = get<string>('keystore-external-signer');
  const insecure = get<boolean>('keystore-insecure-unlock-allowed');
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

/** The tx-pool-* keys as geth's pool takes them: 0 — or a lifetime of 0 — means the default (geth's sanitize). */
function parseTxPoolLimits(get: Get, ms: (key: string) => number): TxPoolLimits {
  const uint = (key: string, dflt: number): number => get<number>(key) || dflt;
  const d = DEFAULT_POOL_LIMITS;
  return {
    priceBump: BigInt(uint('tx-pool-price-bump', Number(d.priceBump))),
    accountSlots: uint('tx-pool-account-slots', d.accountSlots),
    globalSlots: uint('tx-pool-global-slots', d.globalSlots),
    accountQueue: uint('tx-pool-account-queue', d.accountQueue),
    globalQueue: uint('tx-pool-global-queue', d.globalQueue),
    lifetimeMs: ms('tx-pool-lifetime') || d.lifetimeMs,
    allLocal: get<boolean>('local-txs-enabled'),
    locals: new Set((get<string[] | null>('priority-regossip-addresses') ?? []).map((a) => a.toLowerCase())),
  };
}
