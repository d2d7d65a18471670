// admin.getVMConfig's `config`: the chain's VM config.json as Subnet-EVM holds it — every key of
// its config struct (reference subnet-evm.md §9.4) with the defaults filled in and the file's values
// over them; durations printed as Go prints them ("15m0s"). Keys Subnet-EVM doesn't know are left
// out, as Go's decoder drops them.
import { durationMs } from '../api/vmConfig.js';

const DURATION_KEYS = new Set([
  'api-max-duration',
  'ws-cpu-refill-rate',
  'ws-cpu-max-stored',
  'tx-pool-lifetime',
  'continuous-profiler-frequency',
  'push-gossip-frequency',
  'pull-gossip-frequency',
  'regossip-frequency',
]);

/** The config struct's keys, in the reference's order, with their defaults (durations in ms). */
export const VM_CONFIG_DEFAULTS: [string, unknown][] = [
  ['eth-apis', ['eth', 'eth-filter', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction']],
  ['validators-api-enabled', true],
  ['admin-api-enabled', false],
  ['admin-api-dir', ''],
  ['warp-api-enabled', false],
  ['rpc-gas-cap', 50_000_000],
  ['rpc-tx-fee-cap', 100],
  ['api-max-duration', 0],
  ['api-max-blocks-per-request', 0],
  ['ws-cpu-refill-rate', 0],
  ['ws-cpu-max-stored', 0],
  ['http-body-limit', 0],
  ['batch-request-limit', 1000],
  ['batch-response-max-size', 25_000_000],
  ['allow-unfinalized-queries', false],
  ['allow-unprotected-txs', false],
  ['allow-unprotected-tx-hashes', ['0xfefb2da535e927b85fe68eb81cb2e4a5827c905f78381a01ef2322aa9b0aee8e']],
  ['local-txs-enabled', false],
  ['priority-regossip-addresses', []],
  ['tx-pool-price-limit', 1],
  ['tx-pool-price-bump', 10],
  ['tx-pool-account-slots', 16],
  ['tx-pool-global-slots', 5120],
  ['tx-pool-account-queue', 64],
  ['tx-pool-global-queue', 1024],
  ['tx-pool-lifetime', 10 * 60_000],
  ['feeRecipient', ''],
  ['min-delay-target', null],
  ['pruning-enabled', true],
  ['commit-interval', 4096],
  ['state-history', 32],
  ['historical-proof-query-window', 43200],
  ['accepted-queue-limit', 64],
  ['allow-missing-tries', false],
  ['populate-missing-tries', null],
  ['populate-missing-tries-parallelism', 1024],
  ['offline-pruning-enabled', false],
  ['offline-pruning-bloom-filter-size', 512],
  ['offline-pruning-data-directory', ''],
  ['trie-clean-cache', 512],
  ['trie-dirty-cache', 512],
  ['trie-dirty-commit-target', 20],
  ['trie-prefetcher-parallelism', 16],
  ['snapshot-cache', 256],
  ['accepted-cache-size', 32],
  ['preimages-enabled', false],
  ['snapshot-wait', false],
  ['snapshot-verification-enabled', false],
  ['metrics-expensive-enabled', true],
  ['log-level', 'info'],
  ['log-json-format', false],
  ['continuous-profiler-dir', ''],
  ['continuous-profiler-frequency', 15 * 60_000],
  ['continuous-profiler-max-files', 5],
  ['keystore-directory', ''],
  ['keystore-external-signer', ''],
  ['keystore-insecure-unlock-allowed', false],
  ['push-gossip-percent-stake', 0.9],
  ['push-gossip-num-validators', 100],
  ['push-gossip-num-peers', 0],
  ['push-regossip-num-validators', 10],
  ['push-regossip-num-peers', 0],
  ['push-gossip-frequency', 100],
  ['pull-gossip-frequency', 1000],
  ['regossip-frequency', 30_000],
  ['max-outbound-active-requests', 16],
  ['state-sync-enabled', false],
  ['state-sync-skip-resume', false],
  ['state-sync-ids', ''],
  ['state-sync-server-trie-cache', 64],
  ['state-sync-commit-interval', 16384],
  ['state-sync-min-blocks', 300_000],
  ['state-sync-request-size', 1024],
  ['skip-upgrade-check', false],
  ['transaction-history', 0],
  ['skip-tx-indexing', false],
  ['warp-off-chain-messages', []],
  ['prune-warp-db-enabled', false],
  ['airdrop', ''],
  ['inspect-database', false],
  ['use-standalone-database', null],
  ['database-type', 'pebbledb'],
  ['database-path', ''],
  ['database-read-only', false],
  ['database-config', ''],
  ['database-config-file', ''],
  ['state-scheme', ''],
];

/**
 * The VM config as getVMConfig shows it. `file` is the parsed config.json (or {}); `effective`
 * overrides keys whose value the node decided itself (e.g. the dev chain's eth-apis).
 */
export function vmConfigJSON(file: Record<string, unknown>, effective: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, dflt] of VM_CONFIG_DEFAULTS) {
    const v = key in effective ? effective[key] : key in file ? file[key] : dflt;
    out[key] = DURATION_KEYS.has(key) ? goDuration(typeof v === 'number' && !(key in file) ? v : durationMs(v)) : v;
  }
  return out;
}

/** Go's time.Duration.String() of a duration in milliseconds: "0s", "100ms", "1.5s", "15m0s", "1h0m0s". */
export function goDuration(ms: number): string {
  let ns = BigInt(Math.round(ms * 1e6));
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  if (neg) ns = -ns;
  const sign = neg ? '-' : '';
  const frac = (v: bigint, unit: bigint) => {
    const whole = v / unit;
    const rest = v % unit;
    if (rest === 0n) return whole.toString();
    const digits = unit.toString().length - 1;
    return `${whole}.${rest.toString().padStart(digits, '0').replace(/0+$/, '')}`;
  };
  if (ns < 1000n) return `${sign}${ns}ns`;
  if (ns < 1_000_000n) return `${sign}${frac(ns, 1000n)}µs`;
  if (ns < 1_000_000_000n) return `${sign}${frac(ns, 1_000_000n)}ms`;
  const h = ns / 3_600_000_000_000n;
  const m = (ns / 60_000_000_000n) % 60n;
  const s = frac(ns % 60_000_000_000n, 1_000_000_000n);
  if (h > 0n) return `${sign}${h}h${m}m${s}s`;
  if (m > 0n) return `${sign}${m}m${s}s`;
  return `${sign}${s}s`;
}
