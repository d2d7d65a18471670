// Flags with AvalancheGo's names and defaults (reference: avalanchego-node.md §10), plus the
// few Powder adds (marked). Precedence: command line > AVAGO_* environment > config file > default.
import { homedir } from 'node:os';
import { parseJSONKeepingIntegers } from './bigJSON.js';
import { levelName, parseLevel } from '../logging/levels.js';

export type FlagType = 'string' | 'bool' | 'uint' | 'int' | 'duration' | 'list' | 'level' | 'json';

export interface FlagDef {
  name: string;
  type: FlagType;
  /** Default; strings may contain $AVALANCHEGO_DATA_DIR (expanded with --data-dir). */
  default: unknown;
  help: string;
  /** Only Powder has it. */
  powder?: boolean;
}

/** The most dev accounts a chain derives (`--dev-accounts`, a chain's `devAccounts`). */
export const MAX_DEV_ACCOUNTS = 10_000;

export const FLAGS: FlagDef[] = [
  { name: 'config-file', type: 'string', default: '', help: 'JSON file whose keys are flag names' },
  { name: 'config-file-content', type: 'string', default: '', help: 'base64 of a config file' },
  { name: 'config-file-content-type', type: 'string', default: 'json', help: 'format of --config-file-content' },
  { name: 'data-dir', type: 'string', default: '~/.powder', help: 'base directory of the node' },
  { name: 'network-id', type: 'string', default: 'local', help: 'network name or ID' },
  { name: 'http-host', type: 'string', default: '127.0.0.1', help: 'HTTP listen address (empty = all interfaces)' },
  { name: 'http-port', type: 'uint', default: 9650, help: 'HTTP port (0 = pick a free one)' },
  { name: 'http-allowed-origins', type: 'string', default: '*', help: 'CORS origins, whitespace-separated' },
  { name: 'http-allowed-hosts', type: 'list', default: ['localhost'], help: 'accepted Host names, comma-separated; * = any' },
  { name: 'http-idle-timeout', type: 'duration', default: 120_000, help: 'keep-alive idle timeout' },
  { name: 'http-read-timeout', type: 'duration', default: 30_000, help: 'request read timeout' },
  { name: 'http-read-header-timeout', type: 'duration', default: 30_000, help: 'request header read timeout' },
  { name: 'http-write-timeout', type: 'duration', default: 30_000, help: 'response write timeout' },
  { name: 'http-tls-enabled', type: 'bool', default: false, help: 'serve HTTPS instead of HTTP' },
  { name: 'http-tls-cert-file', type: 'string', default: '', help: 'TLS certificate (PEM) for HTTPS' },
  { name: 'http-tls-cert-file-content', type: 'string', default: '', help: 'base64 of the TLS certificate for HTTPS' },
  { name: 'http-tls-key-file', type: 'string', default: '', help: 'TLS private key (PEM) for HTTPS' },
  { name: 'http-tls-key-file-content', type: 'string', default: '', help: 'base64 of the TLS private key for HTTPS' },
  { name: 'http-shutdown-wait', type: 'duration', default: 0, help: 'wait after SIGINT/SIGTERM before shutting down (health reports unhealthy meanwhile)' },
  { name: 'http-shutdown-timeout', type: 'duration', default: 10_000, help: 'longest wait for open requests when the HTTP server closes' },
  { name: 'http-max-body-size', type: 'uint', default: 32 * 1024 * 1024, help: 'largest request body accepted, bytes', powder: true },
  { name: 'http-busy-poll', type: 'duration', default: 0.3, help: 'after an answer, keep polling for the next request this long before the event loop may sleep; adapts to the clients, trades CPU for latency (0 = off; off on a one-CPU machine, and by default in a node the library starts)', powder: true },
  { name: 'api-admin-enabled', type: 'bool', default: false, help: 'serve /ext/admin' },
  { name: 'api-info-enabled', type: 'bool', default: true, help: 'serve /ext/info' },
  { name: 'api-health-enabled', type: 'bool', default: true, help: 'serve /ext/health' },
  { name: 'api-metrics-enabled', type: 'bool', default: true, help: 'serve /ext/metrics' },
  { name: 'index-enabled', type: 'bool', default: false, help: 'the indexer (no effect: Powder has no P-, X- or C-Chain to index)' },
  { name: 'index-allow-incomplete', type: 'bool', default: false, help: 'indexer option (no effect)' },
  { name: 'db-dir', type: 'string', default: '$AVALANCHEGO_DATA_DIR/db', help: 'database directory' },
  { name: 'db-type', type: 'string', default: 'lmdb', help: 'lmdb or memdb' },
  { name: 'db-read-only', type: 'bool', default: false, help: 'open the database read-only (not supported: true is an error)' },
  { name: 'db-config-file', type: 'string', default: '', help: 'LevelDB/PebbleDB tuning file (no effect on LMDB)' },
  { name: 'db-config-file-content', type: 'string', default: '', help: 'base64 LevelDB/PebbleDB tuning (no effect on LMDB)' },
  { name: 'log-dir', type: 'string', default: '$AVALANCHEGO_DATA_DIR/logs', help: 'log directory' },
  { name: 'log-level', type: 'level', default: 'info', help: 'file log level' },
  { name: 'log-display-level', type: 'level', default: '', help: 'terminal log level (default: --log-level)' },
  { name: 'log-format', type: 'string', default: 'auto', help: 'auto, plain, colors or json' },
  { name: 'log-rotater-max-size', type: 'uint', default: 8, help: 'MB per log file before rotation' },
  { name: 'log-rotater-max-files', type: 'uint', default: 7, help: 'rotated files kept (0 = all)' },
  { name: 'log-rotater-max-age', type: 'uint', default: 0, help: 'days rotated files are kept (0 = forever)' },
  { name: 'log-rotater-compress-enabled', type: 'bool', default: false, help: 'gzip rotated files' },
  { name: 'log-disable-display-plugin-logs', type: 'bool', default: false, help: "plugin VMs' logs off the terminal" },
  { name: 'plugin-dir', type: 'string', default: '$AVALANCHEGO_DATA_DIR/plugins', help: 'VM plugin directory' },
  { name: 'profile-dir', type: 'string', default: '$AVALANCHEGO_DATA_DIR/profiles', help: 'profile output directory' },
  { name: 'profile-continuous-enabled', type: 'bool', default: false, help: 'profile continuously into <profile-dir>/continuous' },
  { name: 'profile-continuous-freq', type: 'duration', default: 15 * 60_000, help: 'how long each continuous profile runs before it is written and rotated' },
  { name: 'profile-continuous-max-files', type: 'int', default: 5, help: 'rotated continuous profile files kept per kind (AvalancheGo reads an int: 0 or less keeps one)' },
  { name: 'chain-config-dir', type: 'string', default: '$AVALANCHEGO_DATA_DIR/configs/chains', help: '<dir>/<chain ID or alias>/config.json, upgrade.json' },
  { name: 'chain-config-content', type: 'string', default: '', help: 'base64 of {"<chain ID or alias>": {"Config": "<base64>", "Upgrade": "<base64>"}}; replaces chain-config-dir' },
  { name: 'subnet-config-dir', type: 'string', default: '$AVALANCHEGO_DATA_DIR/configs/subnets', help: '<dir>/<subnet ID>.json of the tracked subnets (read and checked; no effect)' },
  { name: 'subnet-config-content', type: 'string', default: '', help: 'base64 of {"<subnet ID>": {...}} (checked; no effect)' },
  { name: 'track-subnets', type: 'string', default: '', help: 'subnet IDs to track, comma-separated (the chains declared with --chains run whatever it says)' },
  { name: 'chain-aliases-file', type: 'string', default: '$AVALANCHEGO_DATA_DIR/configs/chains/aliases.json', help: 'chain aliases (JSON)' },
  { name: 'chain-aliases-file-content', type: 'string', default: '', help: 'base64 chain aliases' },
  { name: 'vm-aliases-file', type: 'string', default: '$AVALANCHEGO_DATA_DIR/configs/vms/aliases.json', help: 'VM aliases (JSON)' },
  { name: 'vm-aliases-file-content', type: 'string', default: '', help: 'base64 VM aliases' },
  { name: 'chain-data-dir', type: 'string', default: '$AVALANCHEGO_DATA_DIR/chainData', help: 'per-chain data directory' },
  { name: 'process-context-file', type: 'string', default: '$AVALANCHEGO_DATA_DIR/process.json', help: 'written at start: pid, uri' },
  { name: 'public-ip', type: 'string', default: '', help: 'IP reported by info.getNodeIP (Powder has no peer network; default 127.0.0.1)' },
  { name: 'staking-port', type: 'uint', default: 9651, help: 'port reported by info.getNodeIP and the process context file (not listened on)' },
  { name: 'staking-host', type: 'string', default: '', help: 'staking address host, reported in the process context file (not listened on)' },
  { name: 'sybil-protection-enabled', type: 'bool', default: true, help: 'no effect: the node is its chains\' only validator' },
  { name: 'bootstrap-ips', type: 'string', default: '', help: 'no effect: Powder has no peers' },
  { name: 'bootstrap-ids', type: 'string', default: '', help: 'no effect: Powder has no peers' },
  { name: 'partial-sync-primary-network', type: 'bool', default: false, help: 'no effect: Powder has no primary network to sync' },
  { name: 'genesis-file', type: 'string', default: '', help: 'primary network genesis (not supported: set is an error)' },
  { name: 'genesis-file-content', type: 'string', default: '', help: 'primary network genesis, base64 (not supported: set is an error)' },
  { name: 'upgrade-file', type: 'string', default: '', help: 'primary network upgrades (not supported: set is an error)' },
  { name: 'upgrade-file-content', type: 'string', default: '', help: 'primary network upgrades, base64 (not supported: set is an error)' },
  { name: 'health-check-frequency', type: 'duration', default: 30_000, help: 'how often health checks run' },
  { name: 'staking-ephemeral-cert-enabled', type: 'bool', default: false, help: 'a new NodeID at each start' },
  { name: 'staking-ephemeral-signer-enabled', type: 'bool', default: false, help: 'a new BLS key at each start' },
  { name: 'staking-tls-key-file', type: 'string', default: '$AVALANCHEGO_DATA_DIR/staking/staker.key', help: 'staking TLS key' },
  { name: 'staking-tls-cert-file', type: 'string', default: '$AVALANCHEGO_DATA_DIR/staking/staker.crt', help: 'staking TLS certificate' },
  { name: 'staking-signer-key-file', type: 'string', default: '$AVALANCHEGO_DATA_DIR/staking/signer.key', help: 'BLS signer key' },
  { name: 'chains', type: 'json', default: null, help: 'chains to run: JSON array of chain definitions (see docs/configuration.md)', powder: true },
  { name: 'chains-file', type: 'string', default: '', help: 'JSON file holding the chains array', powder: true },
  { name: 'block-time', type: 'duration', default: 0, help: 'mine every chain on this interval instead of automine, unless its definition sets blockTime (0 = automine)', powder: true },
  { name: 'dev-accounts', type: 'uint', default: 10, help: 'prefunded accounts of the default dev chain', powder: true },
  { name: 'web3-client-version', type: 'string', default: '', help: "what web3_clientVersion answers on every chain whose definition does not set clientVersion (empty: the AvalancheGo version, as a real node); anvil/powder lets Hardhat's network helpers in", powder: true },
];

export const FLAG_BY_NAME = new Map(FLAGS.map((f) => [f.name, f]));


export class ConfigError extends Error {}

const DURATION_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, '\u00b5s': 1e-3, '\u03bcs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go's time.quote: `"` and `\` escaped, non-ASCII and control bytes as \xNN. */
function goTimeQuote(s: string): string {
  let out = '"';
  for (const c of s) {
    if (c < ' ' || c > '\x7f') for (const b of Buffer.from(c)) out += '\\x' + b.toString(16).padStart(2, '0');
    else out += c === '"' || c === '\\' ? '\\' + c : c;
  }
  return out + '"';
}

/**
 * Go duration string ("1h2m3.5s", "250ms") or a number of nanoseconds → milliseconds. Strings
 * follow time.ParseDuration, with its error texts.
 */
export function parseDuration(v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v / 1e6;
  if (typeof v !== 'string') throw new Error(`time: invalid duration ${JSON.stringify(v)}`);
  const invalid = () => new Error(`time: invalid duration ${goTimeQuote(v)}`);
  const neg = v.startsWith('-');
  let s = neg || v.startsWith('+') ? v.slice(1) : v;
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let total = 0;
  while (s !== '') {
    // [0-9]*(\.[0-9]*)? then a unit: everything up to the next digit or dot.
    const num = /^([0-9]*)(?:\.([0-9]*))?/.exec(s)!;
    if (!(s[0] === '.' || (s[0] >= '0' && s[0] <= '9')) || (num[1] === '' && !num[2])) throw invalid();
    s = s.slice(num[0].length);
    const unit = /^[^0-9.]*/.exec(s)![0];
    if (unit === '') throw new Error(`time: missing unit in duration ${goTimeQuote(v)}`);
    s = s.slice(unit.length);
    const scale = DURATION_UNITS[unit];
    if (scale === undefined) throw new Error(`time: unknown unit ${goTimeQuote(unit)} in duration ${goTimeQuote(v)}`);
    total += Number(num[0]) * scale;
  }
  // Go's Duration is an int64 of nanoseconds: anything longer (~292 years) is refused.
  if (total * 1e6 > 9223372036854775807) throw invalid();
  return neg ? -total : total;
}

/** Where a value came from, for error messages that name the flag the way the user wrote it. */
export type Source = { kind: 'argv' } | { kind: 'env'; variable: string } | { kind: 'file'; file: string } | { kind: 'options' };

function describe(def: FlagDef, raw: unknown, src: Source): string {
  const shown = typeof raw === 'string' ? JSON.stringify(raw) : JSON.stringify(raw) ?? String(raw);
  switch (src.kind) {
    case 'argv':
      return `invalid argument ${shown} for "--${def.name}" flag`;
    case 'env':
      return `invalid value ${shown} in ${src.variable} (flag "--${def.name}")`;
    case 'file':
      return `invalid value ${shown} for "${def.name}" in config file ${src.file}`;
    case 'options':
      return `invalid value ${shown} for option "${def.name}"`;
  }
}

export function parseValue(def: FlagDef, raw: unknown, src: Source): unknown {
  const fromText = src.kind === 'argv' || src.kind === 'env';
  const bad = (why: string) => new ConfigError(`${describe(def, raw, src)}: ${why}`);
  switch (def.type) {
    case 'string':
      if (typeof raw === 'string') return raw;
      if (!fromText && (typeof raw === 'number' || typeof raw === 'boolean')) return String(raw);
      throw bad('expected a string');
    case 'bool':
      if (typeof raw === 'boolean') return raw;
      if (typeof raw === 'string' && BOOL_TRUE.test(raw)) return true;
      if (typeof raw === 'string' && BOOL_FALSE.test(raw)) return false;
      throw bad(`strconv.ParseBool: parsing ${JSON.stringify(String(raw))}: invalid syntax`);
    case 'uint': {
      const s = typeof raw === 'number' || typeof raw === 'string' ? String(raw) : '';
      if (!/^[0-9]+$/.test(s) || Number(s) > Number.MAX_SAFE_INTEGER) {
        throw bad(`strconv.ParseUint: parsing ${JSON.stringify(s || JSON.stringify(raw) || '')}: invalid syntax`);
      }
      const n = Number(s);
      if ((def.name === 'http-port' || def.name === 'staking-port') && n > 65535) throw bad('port out of range (0-65535)');
      return n;
    }
    case 'int': {
      // Go's int flag (pflag's strconv.ParseInt, base 0 without the prefixes: a plain decimal).
      const s = typeof raw === 'number' || typeof raw === 'string' ? String(raw) : '';
      if (!/^[+-]?[0-9]+$/.test(s) || Math.abs(Number(s)) > Number.MAX_SAFE_INTEGER) {
        throw bad(`strconv.ParseInt: parsing ${JSON.stringify(s || JSON.stringify(raw) || '')}: invalid syntax`);
      }
      return Number(s);
    }
    case 'duration':
      try {
        const ms = parseDuration(raw);
        // AvalancheGo's own text for this one (config.go getProfilerConfig).
        if (ms < 0 && def.name === 'profile-continuous-freq') throw new ConfigError('profile-continuous-freq must be >= 0');
        if (ms < 0) throw new Error('must be >= 0');
        return ms;
      } catch (e) {
        if (e instanceof ConfigError) throw e;
        throw bad((e as Error).message);
      }
    case 'list':
      if (Array.isArray(raw) && raw.every((x) => typeof x === 'string')) return raw;
      if (typeof raw === 'string') return raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
      throw bad('expected a comma-separated list');
    case 'level': {
      if (typeof raw !== 'string') throw bad('expected a log level');
      // Unset, --log-display-level follows --log-level; set (even to ""), it must be a level.
      try {
        return levelName(parseLevel(raw));
      } catch (e) {
        throw bad((e as Error).message);
      }
    }
    case 'json':
      if (typeof raw === 'string' && fromText) {
        try {
          // (--chains: an inline genesis keeps its integers past 2^53.)
          return parseJSONKeepingIntegers(raw);
        } catch (e) {
          throw bad((e as Error).message);
        }
      }
      return raw;
  }
}

const BOOL_TRUE = /^(1|t|T|true|TRUE|True)$/;
const BOOL_FALSE = /^(0|f|F|false|FALSE|False)$/;

/** Raw values from argv: `--flag=value`, `--flag value`, `--bool-flag`, `--bool-flag false`. */
export function parseArgv(argv: string[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('-') || arg === '-' || arg === '--') {
      throw new ConfigError(`unexpected argument ${JSON.stringify(arg)} (flags are --name=value or --name value)`);
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const def = FLAG_BY_NAME.get(name);
    if (!def) throw new ConfigError(`unknown flag: --${name}${suggest(name)}`);
    let raw: string;
    if (eq >= 0) raw = body.slice(eq + 1);
    else if (def.type === 'bool') {
      // `--flag` alone is true; a following bool literal is taken as its value.
      const next = argv[i + 1];
      raw = next !== undefined && (BOOL_TRUE.test(next) || BOOL_FALSE.test(next)) ? argv[++i] : 'true';
    } else if (i + 1 < argv.length) raw = argv[++i];
    else throw new ConfigError(`flag needs an argument: --${name}`);
    out.set(name, parseValue(def, raw, { kind: 'argv' }));
  }
  return out;
}

/** A near flag name, for "unknown flag" errors. */
function suggest(name: string): string {
  const n = name.toLowerCase().replace(/_/g, '-');
  let best: string | undefined;
  let bestDist = 3;
  for (const f of FLAGS) {
    const d = f.name === n ? 0 : editDistance(n, f.name);
    if (d < bestDist) [best, bestDist] = [f.name, d];
  }
  return best ? ` (did you mean --${best}?)` : '';
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** AVAGO_<FLAG_NAME> variables; empty ones count as unset, as viper does. */
export function parseEnv(env: NodeJS.ProcessEnv): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const def of FLAGS) {
    const variable = 'AVAGO_' + def.name.toUpperCase().replace(/-/g, '_');
    const v = env[variable];
    if (v !== undefined && v !== '') out.set(def.name, parseValue(def, v, { kind: 'env', variable }));
  }
  return out;
}

/** A config file's object: keys are flag names, values JSON-typed or strings. */
export function parseConfigObject(obj: unknown, source: string, src: Source = { kind: 'file', file: source }): Map<string, unknown> {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
    throw new ConfigError(`config file ${source} must hold a JSON object of flag names and values`);
  }
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(obj)) {
    const def = FLAG_BY_NAME.get(k);
    if (!def) {
      throw new ConfigError(src.kind === 'options' ? `unknown option "${k}"` : `unknown key "${k}" in config file ${source}${suggest(k)}`);
    }
    if (src.kind !== 'options' && (k === 'config-file' || k === 'config-file-content')) {
      throw new ConfigError(`key "${k}" cannot be set inside config file ${source}`);
    }
    out.set(k, parseValue(def, v, src));
  }
  return out;
}

export function defaultDataDir(): string {
  return homedir() + '/.powder';
}
