// The chain's VM config.json as Subnet-EVM holds it: json.Unmarshal into its config.Config (reference
// subnet-evm.md §9.4), with Go's type checks and error texts (decodeVmConfig), and
// admin.getVMConfig's `config` — every key of the struct with the defaults filled in and the file's
// values over them, durations printed as Go prints them ("15m0s"); keys Subnet-EVM doesn't know are
// left out, as Go's decoder drops them (vmConfigJSON).
import { parseDuration } from '../../config/flags.js';
import { parseJson, parseJsonGoErrors } from '../config/json.js';
import { goTypeName } from '../../rpc/gorilla.js';
import { decodeAddress, decodeBytes, decodeHash, inStructField } from '../rpc/params.js';

/** A config.Config field's Go type, as json.Unmarshal names it in its errors. */
type GoType =
  | 'bool'
  | 'string'
  | 'int'
  | 'int64'
  | 'uint16'
  | 'uint64'
  | 'float64'
  | 'Duration'
  | '*uint64'
  | '*config.PBool'
  | '[]string'
  | '[]common.Hash'
  | '[]common.Address'
  | '[]hexutil.Bytes';

/** The config struct's keys, in the reference's order, with their defaults (durations in ms) and Go types. */
export const VM_CONFIG_DEFAULTS: [key: string, dflt: unknown, type: GoType][] = [
  ['eth-apis', ['eth', 'eth-filter', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction'], '[]string'],
  ['validators-api-enabled', true, 'bool'],
  ['admin-api-enabled', false, 'bool'],
  ['admin-api-dir', '', 'string'],
  ['warp-api-enabled', false, 'bool'],
  ['rpc-gas-cap', 50_000_000, 'uint64'],
  ['rpc-tx-fee-cap', 100, 'float64'],
  ['api-max-duration', 0, 'Duration'],
  ['api-max-blocks-per-request', 0, 'int64'],
  ['ws-cpu-refill-rate', 0, 'Duration'],
  ['ws-cpu-max-stored', 0, 'Duration'],
  ['http-body-limit', 0, 'uint64'],
  ['batch-request-limit', 1000, 'uint64'],
  ['batch-response-max-size', 25_000_000, 'uint64'],
  ['allow-unfinalized-queries', false, 'bool'],
  ['allow-unprotected-txs', false, 'bool'],
  ['allow-unprotected-tx-hashes', ['0xfefb2da535e927b85fe68eb81cb2e4a5827c905f78381a01ef2322aa9b0aee8e'], '[]common.Hash'],
  ['local-txs-enabled', false, 'bool'],
  ['priority-regossip-addresses', [], '[]common.Address'],
  ['tx-pool-price-limit', 1, 'uint64'],
  ['tx-pool-price-bump', 10, 'uint64'],
  ['tx-pool-account-slots', 16, 'uint64'],
  ['tx-pool-global-slots', 5120, 'uint64'],
  ['tx-pool-account-queue', 64, 'uint64'],
  ['tx-pool-global-queue', 1024, 'uint64'],
  ['tx-pool-lifetime', 10 * 60_000, 'Duration'],
  ['feeRecipient', '', 'string'],
  ['min-delay-target', null, '*uint64'],
  ['pruning-enabled', true, 'bool'],
  ['commit-interval', 4096, 'uint64'],
  ['state-history', 32, 'uint64'],
  ['historical-proof-query-window', 43200, 'uint64'],
  ['accepted-queue-limit', 64, 'int'],
  ['allow-missing-tries', false, 'bool'],
  ['populate-missing-tries', null, '*uint64'],
  ['populate-missing-tries-parallelism', 1024, 'int'],
  ['offline-pruning-enabled', false, 'bool'],
  ['offline-pruning-bloom-filter-size', 512, 'uint64'],
  ['offline-pruning-data-directory', '', 'string'],
  ['trie-clean-cache', 512, 'int'],
  ['trie-dirty-cache', 512, 'int'],
  ['trie-dirty-commit-target', 20, 'int'],
  ['trie-prefetcher-parallelism', 16, 'int'],
  ['snapshot-cache', 256, 'int'],
  ['accepted-cache-size', 32, 'int'],
  ['preimages-enabled', false, 'bool'],
  ['snapshot-wait', false, 'bool'],
  ['snapshot-verification-enabled', false, 'bool'],
  ['metrics-expensive-enabled', true, 'bool'],
  ['log-level', 'info', 'string'],
  ['log-json-format', false, 'bool'],
  ['continuous-profiler-dir', '', 'string'],
  ['continuous-profiler-frequency', 15 * 60_000, 'Duration'],
  ['continuous-profiler-max-files', 5, 'int'],
  ['keystore-directory', '', 'string'],
  ['keystore-external-signer', '', 'string'],
  ['keystore-insecure-unlock-allowed', false, 'bool'],
  ['push-gossip-percent-stake', 0.9, 'float64'],
  ['push-gossip-num-validators', 100, 'int'],
  ['push-gossip-num-peers', 0, 'int'],
  ['push-regossip-num-validators', 10, 'int'],
  ['push-regossip-num-peers', 0, 'int'],
  ['push-gossip-frequency', 100, 'Duration'],
  ['pull-gossip-frequency', 1000, 'Duration'],
  ['regossip-frequency', 30_000, 'Duration'],
  ['max-outbound-active-requests', 16, 'int64'],
  ['state-sync-enabled', false, 'bool'],
  ['state-sync-skip-resume', false, 'bool'],
  ['state-sync-ids', '', 'string'],
  ['state-sync-server-trie-cache', 64, 'int'],
  ['state-sync-commit-interval', 16384, 'uint64'],
  ['state-sync-min-blocks', 300_000, 'uint64'],
  ['state-sync-request-size', 1024, 'uint16'],
  ['skip-upgrade-check', false, 'bool'],
  ['transaction-history', 0, 'uint64'],
  ['skip-tx-indexing', false, 'bool'],
  ['warp-off-chain-messages', [], '[]hexutil.Bytes'],
  ['prune-warp-db-enabled', false, 'bool'],
  ['airdrop', '', 'string'],
  ['inspect-database', false, 'bool'],
  ['use-standalone-database', null, '*config.PBool'],
  ['database-type', 'pebbledb', 'string'],
  ['database-path', '', 'string'],
  ['database-read-only', false, 'bool'],
  ['database-config', '', 'string'],
  ['database-config-file', '', 'string'],
  ['state-scheme', '', 'string'],
];

const FIELDS = new Map(VM_CONFIG_DEFAULTS.map(([key, dflt, type]) => [fold(key), { key, dflt, type }]));

/** encoding/json matches an object key to a field name case-insensitively. */
function fold(key: string): string {
  return key.toLowerCase().toUpperCase();
}

/** The integer types' ranges; their JSON literal must be a plain integer (ParseInt/ParseUint). */
const INT_RANGES: Partial<Record<string, [bigint, bigint]>> = {
  int: [-(2n ** 63n), 2n ** 63n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint16: [0n, 65_535n],
  uint64: [0n, 2n ** 64n - 1n],
};

/** hexutil's decoders of the list elements (rpc/params.ts: hexutil's checks in its order). */
const HEX_DECODERS: Record<string, (v: unknown) => unknown> = { 'common.Hash': decodeHash, 'common.Address': decodeAddress, 'hexutil.Bytes': decodeBytes };

const typeError = (what: string, key: string, type: string) => new Error(`json: cannot unmarshal ${what} into Go struct field Config.${key} of type ${type}`);

/** A decoded field whose JSON null Go ignores: the default stays. */
const KEEP = Symbol('keep');

/**
 * json.Unmarshal of config.json into subnet-evm's config.Config: Go's texts for a value of the wrong
 * JSON type (`json: cannot unmarshal string into Go struct field Config.rpc-gas-cap of type uint64`),
 * a number an integer field cannot hold (`… number 1.5 …`, `… number -1 …`), and the texts of the
 * fields' own decoders (Duration: spf13/cast and time.ParseDuration; common.Hash / common.Address /
 * hexutil.Bytes: hexutil). Like Go, it goes on after a type error and reports the first one, but a
 * field decoder's error ends decoding at once. Returns the file with known keys (matched
 * case-insensitively) under their own names; a null Go ignores is left out (the default stays), a
 * null slice or pointer stays null (Go's nil). Unknown keys are kept as they are.
 */
export function decodeVmConfig(text: string): Record<string, unknown> {
  const v = parseJsonGoErrors(text);
  if (v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new Error(`json: cannot unmarshal ${goTypeName(v)} into Go value of type config.Config`);
  const literals = new Map<string, string>();
  parseJson(text, literals);
  const out: Record<string, unknown> = { ...v };
  let saved: Error | undefined;
  const save = (e: Error): typeof KEEP => ((saved ??= e), KEEP);
  for (const [name, value] of Object.entries(v)) {
    const f = FIELDS.get(fold(name));
    if (!f) continue;
    delete out[name];
    const decoded = decodeField(f.key, f.type, f.dflt, value, literals.get(name) ?? String(value), save);
    if (decoded !== KEEP) out[f.key] = decoded;
  }
  if (saved) throw saved;
  return out;
}

/** One key of a chain's config.json as decodeVmConfig gives it; undefined without one, or when it does not decode (the VM reports that). */
export function vmConfigValue(raw: Uint8Array | undefined, key: string): unknown {
  if (!raw?.length) return undefined;
  try {
    return decodeVmConfig(Buffer.from(raw).toString('utf8'))[key];
  } catch {
    return undefined;
  }
}

function decodeField(key: string, type: GoType, dflt: unknown, v: unknown, literal: string, save: (e: Error) => typeof KEEP): unknown {
  const kind = goTypeName(v);
  if (type === 'Duration') {
    // Its UnmarshalJSON decodes into an interface{} first: a number beyond float64 fails there.
    if (typeof v === 'number' && !Number.isFinite(v)) throw typeError(`number ${literal}`, key, 'float64');
    durationMs(v);
    return v;
  }
  if (type.startsWith('[]')) {
    if (v === null) return null;
    if (!Array.isArray(v)) return save(typeError(kind, key, type));
    const elem = type.slice(2);
    if (elem !== 'string') return v.map((x) => hexElement(x, key, elem));
    // Go decodes into the default slice: a null element keeps the default's element there.
    return v.map((x, i) => (x === null ? ((dflt as string[])[i] ?? '') : typeof x === 'string' ? x : save(typeError(goTypeName(x), key, 'string'))));
  }
  const pointer = type.startsWith('*');
  const t = pointer ? type.slice(1) : type;
  if (v === null) return pointer ? null : KEEP;
  const want = t === 'bool' || t === 'config.PBool' ? 'bool' : t === 'string' ? 'string' : 'number';
  if (kind !== want) return save(typeError(kind, key, t));
  const range = INT_RANGES[t];
  const fits = range ? (range[0] < 0n ? /^-?\d+$/ : /^\d+$/).test(literal) && BigInt(literal) >= range[0] && BigInt(literal) <= range[1] : want !== 'number' || Number.isFinite(v);
  return fits ? v : save(typeError(`number ${literal}`, key, t));
}

/** An element of a []common.Hash / []common.Address / []hexutil.Bytes, checked by hexutil's UnmarshalJSON and kept as written. */
function hexElement(x: unknown, key: string, type: string): unknown {
  inStructField('Config', key, () => HEX_DECODERS[type](x));
  return x;
}

/**
 * A config.json duration in ms, decoded as subnet-evm's Duration does (spf13/cast's ToDurationE): a
 * number is nanoseconds; a string is a Go duration, "ns" added when it has no unit letter ("5" is
 * 5ns); anything else fails with cast's text.
 */
export function durationMs(v: unknown): number {
  if (typeof v === 'number') return Math.trunc(v) / 1e6;
  if (typeof v === 'string') return parseDuration(/[nsuµmh]/.test(v) ? v : v + 'ns');
  const type = v === null ? '<nil>' : Array.isArray(v) ? '[]interface {}' : typeof v === 'object' ? 'map[string]interface {}' : 'bool';
  throw new Error(`unable to cast ${goSharpV(v, '<nil>')} of type ${type} to Duration`);
}

/** fmt's %#v of a value json.Unmarshal put in an interface{}. */
function goSharpV(v: unknown, nil = 'interface {}(nil)'): string {
  if (v === null) return nil;
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => goSharpV(x)).join(', ')}}`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `map[string]interface {}{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${goSharpV(o[k])}`)
      .join(', ')}}`;
  }
  if (typeof v !== 'number') return JSON.stringify(v);
  // %v of a float64: the shortest digits, with an exponent (two digits at least) below 1e-4 or from 1e6.
  const [mantissa, exp] = v.toExponential().split('e');
  return Number(exp) < -4 || Number(exp) >= 6 ? `${mantissa}e${exp[0]}${exp.slice(1).padStart(2, '0')}` : String(v);
}

/**
 * The VM config as getVMConfig shows it. `file` is decodeVmConfig's result (or {}); `effective`
 * overrides keys whose value the node decided itself (e.g. the dev chain's eth-apis).
 */
export function vmConfigJSON(file: Record<string, unknown>, effective: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, dflt, type] of VM_CONFIG_DEFAULTS) {
    const v = key in effective ? effective[key] : key in file ? file[key] : dflt;
    out[key] = type === 'Duration' ? goDuration(key in file ? durationMs(v) : (v as number)) : v;
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
