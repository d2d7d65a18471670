// Turns flags, environment, config file and library options into one resolved NodeConfig.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  ConfigError,
  FLAGS,
  FLAG_BY_NAME,
  MAX_DEV_ACCOUNTS,
  defaultDataDir,
  parseArgv,
  parseConfigObject,
  parseEnv,
} from './flags.js';
import { parseNetworkID, networkName } from './network.js';
import { decodeStdBase64 } from '../vms/registry.js';
import { EMPTY_ID, parseID, parseNodeID } from '../ids/ids.js';
import { isIP } from 'node:net';
import { parseJsonGoErrors } from '../evm/config/json.js';
import { parseJSONKeepingIntegers } from './bigJSON.js';
import { objectMembers, skipWs } from '../rpc/rawJSON.js';
import { goPathError } from '../goPathError.js';

export interface NodeConfig {
  dataDir: string;
  networkID: number;
  networkName: string;
  httpHost: string;
  httpPort: number;
  httpAllowedOrigins: string[];
  httpAllowedHosts: string[];
  httpIdleTimeoutMs: number;
  /** --http-busy-poll: the longest poll after an answer (server/busyPoll.ts), ms; 0 = off. */
  httpBusyPollMs: number;
  httpReadTimeoutMs: number;
  httpReadHeaderTimeoutMs: number;
  httpWriteTimeoutMs: number;
  httpMaxBodySize: number;
  /** PEM key and certificate when --http-tls-enabled: the node serves HTTPS. */
  httpTls?: { key: Buffer; cert: Buffer };
  httpShutdownWaitMs: number;
  httpShutdownTimeoutMs: number;
  indexEnabled: boolean;
  indexAllowIncomplete: boolean;
  apiAdminEnabled: boolean;
  apiInfoEnabled: boolean;
  apiHealthEnabled: boolean;
  apiMetricsEnabled: boolean;
  dbDir: string;
  dbType: 'lmdb' | 'memdb';
  logDir: string;
  logLevel: string;
  logDisplayLevel: string;
  logFormat: 'plain' | 'colors' | 'json';
  logRotaterMaxSize: number;
  logRotaterMaxFiles: number;
  logRotaterMaxAge: number;
  logRotaterCompressEnabled: boolean;
  /** --log-disable-display-plugin-logs: what chains' VMs log stays off the terminal (files only). */
  logDisableDisplayPluginLogs: boolean;
  pluginDir: string;
  pluginDirExplicit: boolean;
  profileDir: string;
  profileContinuousEnabled: boolean;
  profileContinuousFreqMs: number;
  profileContinuousMaxFiles: number;
  chainConfigDir: string;
  chainConfigDirExplicit: boolean;
  /** --chain-config-content, decoded: replaces chain-config-dir when set. */
  chainConfigContent?: Map<string, { config?: Buffer; upgrade?: Buffer }>;
  /** --track-subnets, checked IDs. */
  trackSubnets: string[];
  chainAliasesFile: string;
  chainAliasesFileExplicit: boolean;
  chainAliasesFileContent: string;
  vmAliasesFile: string;
  vmAliasesFileExplicit: boolean;
  vmAliasesFileContent: string;
  chainDataDir: string;
  processContextFile: string;
  healthCheckFrequencyMs: number;
  publicIp: string;
  stakingPort: number;
  stakingHost: string;
  stakingEphemeralCertEnabled: boolean;
  stakingEphemeralSignerEnabled: boolean;
  stakingTlsKeyFile: string;
  stakingTlsCertFile: string;
  stakingSignerKeyFile: string;
  /** Chain definitions (Powder): see docs/configuration.md. */
  chains: unknown[] | null;
  blockTimeMs: number;
  devAccounts: number;
  /** --web3-client-version: the chains' web3_clientVersion unless a definition sets clientVersion ('' = the node's). */
  web3ClientVersion: string;
  /** The raw, merged flag values by flag name (for admin.getConfig). */
  raw: Record<string, unknown>;
}

/** Library options: flag names (`'http-port'`) or their camelCase (`httpPort`). */
export type NodeOptions = Record<string, unknown>;

function kebab(k: string): string {
  return k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

function camel(k: string): string {
  return k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

export function optionsToMap(opts: NodeOptions): Map<string, unknown> {
  const obj: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(opts)) {
    if (v === undefined) continue;
    const name = FLAG_BY_NAME.has(k) ? k : kebab(k);
    if (!FLAG_BY_NAME.has(name)) throw new ConfigError(`unknown option "${k}"`);
    obj[name] = v;
  }
  return parseConfigObject(obj, 'options', { kind: 'options' });
}

function readConfigFile(explicit: Map<string, unknown>): Map<string, unknown> {
  const content = explicit.get('config-file-content') as string | undefined;
  if (content) {
    const type = String(explicit.get('config-file-content-type') ?? 'json').toLowerCase();
    if (type !== 'json') throw new ConfigError(`unsupported --config-file-content-type "${type}": Powder reads json`);
    let text: string;
    try {
      text = decodeStdBase64(content.trim()).toString('utf8');
    } catch (e) {
      throw new ConfigError(`--config-file-content is not valid base64: ${(e as Error).message}`);
    }
    return parseConfigObject(keepChainIntegers(text, parseJSONOrThrow(text, '--config-file-content')), '--config-file-content');
  }
  const path = explicit.get('config-file') as string | undefined;
  if (!path) return new Map();
  if (!existsSync(path)) throw new ConfigError(`--config-file: file does not exist: ${path}`);
  if (!/\.json$/i.test(path)) throw new ConfigError(`--config-file ${path}: Powder reads JSON config files (.json)`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`--config-file ${path}: ${goPathError('open', path, e)}`);
  }
  return parseConfigObject(keepChainIntegers(text, parseJSONOrThrow(text, `config file ${path}`)), path);
}

/** `parse` gives Go's json.Unmarshal texts for a syntax error (`invalid character …`), not V8's. */
function parseJSONOrThrow(text: string, what: string, parse: (text: string) => unknown = parseJsonGoErrors): unknown {
  try {
    return parse(text);
  } catch (e) {
    throw new ConfigError(`${what} is not valid JSON: ${(e as Error).message}`);
  }
}

/**
 * A config file's `chains` read again from its text, so an inline genesis keeps its integers past
 * 2^53 (bigJSON.ts); the other keys stay as JSON.parse made them.
 */
function keepChainIntegers(text: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('chains' in value)) return value;
  let span: { start: number; end: number } | undefined;
  for (const m of objectMembers(text, skipWs(text, 0))) if (m.key === 'chains') span = m;
  if (span) (value as Record<string, unknown>).chains = parseJSONKeepingIntegers(text.slice(span.start, span.end));
  return value;
}

/**
 * Resolves the configuration. `argv` and `env` are for the CLI; `options` for the library.
 * Library options rank with command-line flags.
 */
/**
 * Defaults of a node started by the library (`startNode`, no command line) where they differ from
 * the CLI's: its client usually runs on the node's own thread, where polling after an answer
 * (--http-busy-poll) has no sleeping thread to spare and only takes CPU from the rest of the suite.
 */
const LIBRARY_DEFAULTS = new Map<string, unknown>([['http-busy-poll', 0]]);

export function resolveConfig(input: { argv?: string[]; env?: NodeJS.ProcessEnv; options?: NodeOptions }): NodeConfig {
  const explicit = new Map<string, unknown>();
  const envMap = input.env ? parseEnv(input.env) : new Map<string, unknown>();
  for (const [k, v] of envMap) explicit.set(k, v);
  if (input.options) for (const [k, v] of optionsToMap(input.options)) explicit.set(k, v);
  if (input.argv) for (const [k, v] of parseArgv(input.argv)) explicit.set(k, v);
  const fromFile = readConfigFile(explicit);
  const merged = new Map<string, unknown>();
  for (const def of FLAGS) merged.set(def.name, def.default);
  if (input.argv === undefined) for (const [k, v] of LIBRARY_DEFAULTS) merged.set(k, v);
  for (const [k, v] of fromFile) merged.set(k, v);
  for (const [k, v] of explicit) merged.set(k, v);
  const isSet = (k: string) => explicit.has(k) || fromFile.has(k);

  const home = process.env.HOME ?? '';
  const expandHome = (p: string) => (p === '~' ? home : p.startsWith('~/') ? home + p.slice(1) : p);
  // One pass, as Go's os.Expand: $AVALANCHEGO_DATA_DIR is the data dir, other $VARS the environment.
  const expand = (s: string, dataDir?: string) =>
    s.replace(/\$\{?(\w+)\}?/g, (_, v: string) => (v === 'AVALANCHEGO_DATA_DIR' && dataDir !== undefined ? dataDir : process.env[v] ?? ''));
  let dataDir = String(merged.get('data-dir'));
  // AvalancheGo expands the data dir's own $VARS too (os.ExpandEnv), e.g. its default $HOME/.avalanchego.
  dataDir = resolve(dataDir === '~/.powder' ? defaultDataDir() : expandHome(expand(dataDir)));
  const path = (k: string) => resolve(expandHome(expand(String(merged.get(k)), dataDir)));

  let networkID: number;
  try {
    networkID = parseNetworkID(String(merged.get('network-id')));
  } catch (e) {
    throw new ConfigError(`--network-id: ${(e as Error).message}`);
  }
  // config.go getStakingConfig: the public networks cannot run without sybil protection.
  if (merged.get('sybil-protection-enabled') === false && (networkID === 1 || networkID === 5)) {
    throw new ConfigError('sybil protection disabled on public network');
  }
  const dbType = String(merged.get('db-type'));
  if (dbType !== 'lmdb' && dbType !== 'memdb') {
    if (dbType === 'leveldb' || dbType === 'pebbledb') {
      throw new ConfigError(`--db-type=${dbType} is an AvalancheGo database Powder does not offer: use lmdb (default) or memdb`);
    }
    throw new ConfigError(`--db-type: invalid db type: ${dbType} (Powder offers lmdb and memdb)`);
  }
  // The address the node advertises: an IP (Go's netip.ParseAddr; Powder takes no IPv6 zone).
  const publicIp = String(merged.get('public-ip'));
  if (publicIp !== '' && isIP(publicIp) === 0) throw new ConfigError(`--public-ip: ParseAddr(${JSON.stringify(publicIp)}): unable to parse IP`);
  const formatIn = String(merged.get('log-format')).toLowerCase();
  if (!['auto', 'plain', 'colors', 'json'].includes(formatIn)) throw new ConfigError(`--log-format: unknown format mode: ${merged.get('log-format')} (auto, plain, colors or json)`);
  const logFormat = (formatIn === 'auto' ? (process.stdout.isTTY ? 'colors' : 'plain') : formatIn) as NodeConfig['logFormat'];
  const logLevel = String(merged.get('log-level')).toUpperCase();
  const display = String(merged.get('log-display-level') ?? '');

  let chains = merged.get('chains') as unknown[] | null;
  const chainsFile = String(merged.get('chains-file') ?? '');
  if (chainsFile) {
    if (!existsSync(chainsFile)) throw new ConfigError(`--chains-file: file does not exist: ${chainsFile}`);
    let text: string;
    try {
      text = readFileSync(chainsFile, 'utf8');
    } catch (e) {
      throw new ConfigError(`--chains-file: ${goPathError('open', chainsFile, e)}`);
    }
    chains = parseJSONOrThrow(text, `--chains-file ${chainsFile}`, parseJSONKeepingIntegers) as unknown[];
  }
  if (chains !== null && !Array.isArray(chains)) throw new ConfigError('--chains must be a JSON array of chain definitions');
  if (chains !== null) checkChainDefinitions(chains, chainsFile ? `--chains-file ${chainsFile}` : '--chains');

  // Each dev account is derived from the mnemonic at start (~1–2 ms each here): a count past this
  // is a typo that would hold the start for hours, not a test set-up.
  const devAccounts = merged.get('dev-accounts') as number;
  if (devAccounts > MAX_DEV_ACCOUNTS) throw new ConfigError(`--dev-accounts: ${devAccounts} is more than ${MAX_DEV_ACCOUNTS} accounts (each is derived from the mnemonic at start)`);

  // Flags of the real node for a primary network or a database Powder does not have.
  if (merged.get('db-read-only') === true) throw new ConfigError('--db-read-only is not supported: Powder\'s chains write each block they build');
  for (const k of ['genesis-file', 'genesis-file-content', 'upgrade-file', 'upgrade-file-content']) {
    if (merged.get(k) !== '') throw new ConfigError(`--${k} is not supported: Powder has no primary network (P-, X-, C-Chain) to take a genesis or upgrades; declare Subnet-EVM chains with --chains`);
  }
  const b64 = (k: string) => {
    try {
      return decodeStdBase64(String(merged.get(k)));
    } catch (e) {
      throw new ConfigError(`--${k}: unable to decode base64 content: ${(e as Error).message}`);
    }
  };
  const readFile = (k: string) => {
    const p = path(k);
    try {
      return readFileSync(p);
    } catch (e) {
      throw new ConfigError(`--${k}: ${goPathError('open', p, e)}`);
    }
  };
  let httpTls: NodeConfig['httpTls'];
  if (merged.get('http-tls-enabled') === true) {
    const pem = (what: 'key' | 'cert') => {
      const content = `http-tls-${what}-file-content`;
      const file = `http-tls-${what}-file`;
      if (isSet(content)) return b64(content);
      if (isSet(file)) return readFile(file);
      throw new ConfigError(`--http-tls-enabled needs --${file} or --${content}`);
    };
    httpTls = { key: pem('key'), cert: pem('cert') };
    let matches: boolean;
    try {
      matches = new X509Certificate(httpTls.cert).checkPrivateKey(createPrivateKey(httpTls.key));
    } catch (e) {
      throw new ConfigError(`--http-tls-enabled: the key or certificate is not usable PEM: ${(e as Error).message}`);
    }
    // Go's tls.X509KeyPair text.
    if (!matches) throw new ConfigError('--http-tls-enabled: tls: private key does not match public key');
  }
  const trackSubnets: string[] = [];
  for (const id of String(merged.get('track-subnets')).split(',')) {
    if (id === '') continue;
    try {
      parseID(id);
    } catch (e) {
      throw new ConfigError(`--track-subnets: couldn't parse subnetID "${id}": ${(e as Error).message}`);
    }
    if (id === EMPTY_ID) throw new ConfigError('--track-subnets: cannot track primary network');
    if (!trackSubnets.includes(id)) trackSubnets.push(id);
  }
  checkBootstrappers(String(merged.get('bootstrap-ips')), String(merged.get('bootstrap-ids')));
  const chainConfigContent = isSet('chain-config-content') ? parseChainConfigContent(b64('chain-config-content')) : undefined;
  checkSubnetConfigs(isSet('subnet-config-content') ? b64('subnet-config-content') : undefined, path('subnet-config-dir'), isSet('subnet-config-dir'), trackSubnets);

  const raw: Record<string, unknown> = {};
  for (const [k, v] of merged) raw[k] = v;
  return {
    dataDir,
    networkID,
    networkName: networkName(networkID),
    httpHost: String(merged.get('http-host')),
    httpPort: merged.get('http-port') as number,
    httpAllowedOrigins: String(merged.get('http-allowed-origins')).split(/\s+/).filter((s) => s !== ''),
    httpAllowedHosts: (merged.get('http-allowed-hosts') as string[]).map((h) => h.toLowerCase()),
    httpIdleTimeoutMs: merged.get('http-idle-timeout') as number,
    httpReadTimeoutMs: merged.get('http-read-timeout') as number,
    httpReadHeaderTimeoutMs: merged.get('http-read-header-timeout') as number,
    httpWriteTimeoutMs: merged.get('http-write-timeout') as number,
    httpMaxBodySize: merged.get('http-max-body-size') as number,
    httpBusyPollMs: busyPollMs(merged.get('http-busy-poll') as number),
    httpTls,
    httpShutdownWaitMs: merged.get('http-shutdown-wait') as number,
    httpShutdownTimeoutMs: merged.get('http-shutdown-timeout') as number,
    indexEnabled: merged.get('index-enabled') as boolean,
    indexAllowIncomplete: merged.get('index-allow-incomplete') as boolean,
    apiAdminEnabled: merged.get('api-admin-enabled') as boolean,
    apiInfoEnabled: merged.get('api-info-enabled') as boolean,
    apiHealthEnabled: merged.get('api-health-enabled') as boolean,
    apiMetricsEnabled: merged.get('api-metrics-enabled') as boolean,
    dbDir: path('db-dir'),
    dbType,
    logDir: path('log-dir'),
    logLevel,
    logDisplayLevel: display === '' ? logLevel : display.toUpperCase(),
    logFormat,
    logRotaterMaxSize: merged.get('log-rotater-max-size') as number,
    logRotaterMaxFiles: merged.get('log-rotater-max-files') as number,
    logRotaterMaxAge: merged.get('log-rotater-max-age') as number,
    logRotaterCompressEnabled: merged.get('log-rotater-compress-enabled') as boolean,
    logDisableDisplayPluginLogs: merged.get('log-disable-display-plugin-logs') as boolean,
    pluginDir: path('plugin-dir'),
    pluginDirExplicit: isSet('plugin-dir'),
    profileDir: path('profile-dir'),
    profileContinuousEnabled: merged.get('profile-continuous-enabled') as boolean,
    profileContinuousFreqMs: merged.get('profile-continuous-freq') as number,
    profileContinuousMaxFiles: merged.get('profile-continuous-max-files') as number,
    chainConfigDir: path('chain-config-dir'),
    chainConfigDirExplicit: isSet('chain-config-dir'),
    chainConfigContent,
    trackSubnets,
    chainAliasesFile: path('chain-aliases-file'),
    chainAliasesFileExplicit: isSet('chain-aliases-file'),
    chainAliasesFileContent: String(merged.get('chain-aliases-file-content') ?? ''),
    vmAliasesFile: path('vm-aliases-file'),
    vmAliasesFileExplicit: isSet('vm-aliases-file'),
    vmAliasesFileContent: String(merged.get('vm-aliases-file-content') ?? ''),
    chainDataDir: path('chain-data-dir'),
    processContextFile: path('process-context-file'),
    healthCheckFrequencyMs: merged.get('health-check-frequency') as number,
    publicIp,
    stakingPort: merged.get('staking-port') as number,
    stakingHost: String(merged.get('staking-host')),
    stakingEphemeralCertEnabled: merged.get('staking-ephemeral-cert-enabled') as boolean,
    stakingEphemeralSignerEnabled: merged.get('staking-ephemeral-signer-enabled') as boolean,
    stakingTlsKeyFile: path('staking-tls-key-file'),
    stakingTlsCertFile: path('staking-tls-cert-file'),
    stakingSignerKeyFile: path('staking-signer-key-file'),
    chains,
    blockTimeMs: merged.get('block-time') as number,
    devAccounts,
    web3ClientVersion: String(merged.get('web3-client-version') ?? ''),
    raw,
  };
}

/**
 * The shape of each chain definition (docs/configuration.md, "Chains"), checked before anything
 * uses it: a definition that is no object, or a node key of the wrong JSON type, used to reach the code
 * as is and fail with a JavaScript text (`(def.aliases ?? []).map is not a function`, `Cannot read
 * properties of null`), or start a chain silently ignoring it (`[1]`, `"aliases": [1]`). `null`
 * counts as absent, as for the other keys.
 */
function checkChainDefinitions(chains: unknown[], where: string): void {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'bigint' ? 'number' : typeof v);
  chains.forEach((def, i) => {
    const bad = (what: string) => new ConfigError(`${where}: chain definition ${i}: ${what}`);
    if (typeof def !== 'object' || def === null || Array.isArray(def)) throw bad(`must be a JSON object, not ${kind(def)}`);
    const d = def as Record<string, unknown>;
    // (`vm` is checked by the chain manager, which names the chain: src/chains/manager.ts.)
    for (const k of ['name', 'subnetID'] as const) {
      if (d[k] != null && typeof d[k] !== 'string') throw bad(`"${k}" must be a string, not ${kind(d[k])}`);
    }
    if (d.aliases != null && (!Array.isArray(d.aliases) || d.aliases.some((a) => typeof a !== 'string'))) {
      throw bad(`"aliases" must be an array of strings`);
    }
    if (d.validators != null && !Array.isArray(d.validators)) throw bad(`"validators" must be an array, not ${kind(d.validators)}`);
    // The VM's own options (Subnet-EVM's dev, devAccounts, blockTime) are checked by the VM.
  });
}

/**
 * AvalancheGo's --chain-config-content: JSON `{"<chain ID or alias>": {"Config": "<base64>",
 * "Upgrade": "<base64>"}}` (Go's []byte fields; field names match case-insensitively).
 */
function parseChainConfigContent(json: Buffer): Map<string, { config?: Buffer; upgrade?: Buffer }> {
  let obj: unknown;
  try {
    obj = parseJsonGoErrors(json.toString('utf8'));
  } catch (e) {
    throw new ConfigError(`--chain-config-content: could not unmarshal JSON: ${(e as Error).message}`);
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
    throw new ConfigError(`--chain-config-content: could not unmarshal JSON: json: cannot unmarshal ${Array.isArray(obj) ? 'array' : obj === null ? 'null' : typeof obj} into Go value of type map[string]chains.ChainConfig`);
  }
  const out = new Map<string, { config?: Buffer; upgrade?: Buffer }>();
  for (const [chain, v] of Object.entries(obj)) {
    if (v === null) continue;
    if (typeof v !== 'object' || Array.isArray(v)) throw new ConfigError(`--chain-config-content: could not unmarshal JSON: json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into Go value of type chains.ChainConfig`);
    const entry: { config?: Buffer; upgrade?: Buffer } = {};
    for (const [field, value] of Object.entries(v)) {
      const f = field.toLowerCase();
      if (f !== 'config' && f !== 'upgrade') continue; // Go ignores unknown fields
      if (value === null) continue;
      if (typeof value !== 'string') throw new ConfigError(`--chain-config-content: could not unmarshal JSON: json: cannot unmarshal ${typeof value} into Go struct field ChainConfig.${f === 'config' ? 'Config' : 'Upgrade'} of type []uint8`);
      try {
        entry[f] = decodeStdBase64(value);
      } catch (e) {
        throw new ConfigError(`--chain-config-content: could not unmarshal JSON: ${(e as Error).message}`);
      }
    }
    out.set(chain, entry);
  }
  return out;
}

/**
 * --bootstrap-ips / --bootstrap-ids are checked as AvalancheGo reads them (ip:port and NodeID lists
 * of the same length) though Powder has no peers to dial.
 */
/** --http-busy-poll: at most a second (a negative duration is refused with every duration flag). */
function busyPollMs(ms: number): number {
  if (ms > 1000) throw new ConfigError(`--http-busy-poll: ${ms}ms is longer than the largest poll, 1s`);
  return ms;
}

function checkBootstrappers(ipsText: string, idsText: string): void {
  const ips = ipsText.split(',').filter((x) => x !== '');
  const nodeIDs = idsText.split(',').filter((x) => x !== '');
  for (const ip of ips) {
    const colon = ip.lastIndexOf(':');
    const host = colon < 0 ? '' : ip.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
    const port = colon < 0 ? '' : ip.slice(colon + 1);
    let why: string | undefined;
    if (colon < 0) why = 'not an ip:port';
    else if (!isIP(host)) why = `ParseAddr(${JSON.stringify(host)}): unable to parse IP`;
    else if (!/^\d+$/.test(port) || Number(port) > 65535) why = `invalid port ${JSON.stringify(port)} parsing ${JSON.stringify(ip)}`;
    if (why) throw new ConfigError(`couldn't parse bootstrap ip ${ip}: ${why}`);
  }
  for (const id of nodeIDs) {
    try {
      parseNodeID(id);
    } catch (e) {
      throw new ConfigError(`couldn't parse bootstrap peer id ${id}: ${(e as Error).message}`);
    }
  }
  if (ips.length !== nodeIDs.length) {
    throw new ConfigError(`expected the number of bootstrapIPs (${ips.length}) to match the number of bootstrapIDs (${nodeIDs.length})`);
  }
}

/**
 * Subnet configs (--subnet-config-content, else <subnet-config-dir>/<subnet ID>.json) are checked
 * as the real node reads them; Powder has no subnet settings they could change. From the
 * directory, only the tracked subnets' files are read (config.go getSubnetConfigsFromDir).
 */
function checkSubnetConfigs(content: Buffer | undefined, dir: string, explicit: boolean, tracked: string[]): void {
  const parse = (text: string, what: string) => {
    try {
      return parseJsonGoErrors(text);
    } catch (e) {
      throw new ConfigError(`${what}: could not unmarshal JSON: ${(e as Error).message}`);
    }
  };
  if (content !== undefined) {
    const obj = parse(content.toString('utf8'), '--subnet-config-content');
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new ConfigError('--subnet-config-content: could not unmarshal JSON: expected an object of subnet IDs');
    for (const id of Object.keys(obj)) {
      try {
        parseID(id);
      } catch (e) {
        throw new ConfigError(`--subnet-config-content: couldn't parse subnetID "${id}": ${(e as Error).message}`);
      }
    }
    return;
  }
  if (!existsSync(dir)) {
    if (explicit) throw new ConfigError(`cannot read directory: ${dir}`);
    return;
  }
  for (const id of tracked) {
    const file = join(dir, `${id}.json`);
    if (!existsSync(file)) continue;
    if (statSync(file).isDirectory()) throw new ConfigError(`"${id}.json" is a directory, expected a file`);
    parse(readFileSync(file, 'utf8'), `subnet config ${file}`);
  }
}

export { ConfigError, camel };
