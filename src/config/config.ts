// Turns flags, environment, config file and library options into one resolved NodeConfig.
import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  ConfigError,
  FLAGS,
  FLAG_BY_NAME,
  defaultDataDir,
  parseArgv,
  parseConfigObject,
  parseEnv,
} from './flags.js';
import { parseNetworkID, networkName } from './network.js';
import { decodeStdBase64 } from '../vms/registry.js';

export interface NodeConfig {
  dataDir: string;
  networkID: number;
  networkName: string;
  httpHost: string;
  httpPort: number;
  httpAllowedOrigins: string[];
  httpAllowedHosts: string[];
  httpIdleTimeoutMs: number;
  httpReadTimeoutMs: number;
  httpReadHeaderTimeoutMs: number;
  httpWriteTimeoutMs: number;
  httpMaxBodySize: number;
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
  pluginDir: string;
  pluginDirExplicit: boolean;
  profileDir: string;
  profileContinuousEnabled: boolean;
  profileContinuousFreqMs: number;
  profileContinuousMaxFiles: number;
  chainConfigDir: string;
  chainConfigDirExplicit: boolean;
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
  stakingEphemeralCertEnabled: boolean;
  stakingEphemeralSignerEnabled: boolean;
  stakingTlsKeyFile: string;
  stakingTlsCertFile: string;
  stakingSignerKeyFile: string;
  /** Chain definitions (Powder): see docs/configuration.md. */
  chains: unknown[] | null;
  blockTimeMs: number;
  devAccounts: number;
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
    return parseConfigObject(parseJSONOrThrow(text, '--config-file-content'), '--config-file-content');
  }
  const path = explicit.get('config-file') as string | undefined;
  if (!path) return new Map();
  if (!existsSync(path)) throw new ConfigError(`--config-file: file does not exist: ${path}`);
  if (!/\.json$/i.test(path)) throw new ConfigError(`--config-file ${path}: Powder reads JSON config files (.json)`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`--config-file ${path}: ${(e as Error).message}`);
  }
  return parseConfigObject(parseJSONOrThrow(text, `config file ${path}`), path);
}

function parseJSONOrThrow(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${what} is not valid JSON: ${(e as Error).message}`);
  }
}

/**
 * Resolves the configuration. `argv` and `env` are for the CLI; `options` for the library.
 * Library options rank with command-line flags.
 */
export function resolveConfig(input: { argv?: string[]; env?: NodeJS.ProcessEnv; options?: NodeOptions }): NodeConfig {
  const explicit = new Map<string, unknown>();
  const envMap = input.env ? parseEnv(input.env) : new Map<string, unknown>();
  for (const [k, v] of envMap) explicit.set(k, v);
  if (input.options) for (const [k, v] of optionsToMap(input.options)) explicit.set(k, v);
  if (input.argv) for (const [k, v] of parseArgv(input.argv)) explicit.set(k, v);
  const fromFile = readConfigFile(explicit);
  const merged = new Map<string, unknown>();
  for (const def of FLAGS) merged.set(def.name, def.default);
  for (const [k, v] of fromFile) merged.set(k, v);
  for (const [k, v] of explicit) merged.set(k, v);
  const isSet = (k: string) => explicit.has(k) || fromFile.has(k);

  const home = process.env.HOME ?? '';
  const expandHome = (p: string) => (p === '~' ? home : p.startsWith('~/') ? home + p.slice(1) : p);
  let dataDir = String(merged.get('data-dir'));
  dataDir = resolve(dataDir === '~/.powder' ? defaultDataDir() : expandHome(dataDir));
  const path = (k: string) =>
    resolve(expandHome(String(merged.get(k)).replace(/\$AVALANCHEGO_DATA_DIR/g, dataDir).replace(/\$\{?(\w+)\}?/g, (_, v: string) => process.env[v] ?? '')));

  let networkID: number;
  try {
    networkID = parseNetworkID(String(merged.get('network-id')));
  } catch (e) {
    throw new ConfigError(`--network-id: ${(e as Error).message}`);
  }
  const dbType = String(merged.get('db-type'));
  if (dbType !== 'lmdb' && dbType !== 'memdb') {
    if (dbType === 'leveldb' || dbType === 'pebbledb') {
      throw new ConfigError(`--db-type=${dbType} is an AvalancheGo database Powder does not offer: use lmdb (default) or memdb`);
    }
    throw new ConfigError(`--db-type: invalid db type: ${dbType} (Powder offers lmdb and memdb)`);
  }
  const formatIn = String(merged.get('log-format')).toLowerCase();
  if (!['auto', 'plain', 'colors', 'json'].includes(formatIn)) throw new ConfigError(`--log-format: unknown format mode: ${merged.get('log-format')} (auto, plain, colors or json)`);
  const logFormat = (formatIn === 'auto' ? (process.stdout.isTTY ? 'colors' : 'plain') : formatIn) as NodeConfig['logFormat'];
  const logLevel = String(merged.get('log-level')).toUpperCase();
  const display = String(merged.get('log-display-level') ?? '');

  let chains = merged.get('chains') as unknown[] | null;
  const chainsFile = String(merged.get('chains-file') ?? '');
  if (chainsFile) {
    if (!existsSync(chainsFile)) throw new ConfigError(`--chains-file: file does not exist: ${chainsFile}`);
    chains = parseJSONOrThrow(readFileSync(chainsFile, 'utf8'), `--chains-file ${chainsFile}`) as unknown[];
  }
  if (chains !== null && !Array.isArray(chains)) throw new ConfigError('--chains must be a JSON array of chain definitions');

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
    pluginDir: path('plugin-dir'),
    pluginDirExplicit: isSet('plugin-dir'),
    profileDir: path('profile-dir'),
    profileContinuousEnabled: merged.get('profile-continuous-enabled') as boolean,
    profileContinuousFreqMs: merged.get('profile-continuous-freq') as number,
    profileContinuousMaxFiles: merged.get('profile-continuous-max-files') as number,
    chainConfigDir: path('chain-config-dir'),
    chainConfigDirExplicit: isSet('chain-config-dir'),
    chainAliasesFile: path('chain-aliases-file'),
    chainAliasesFileExplicit: isSet('chain-aliases-file'),
    chainAliasesFileContent: String(merged.get('chain-aliases-file-content') ?? ''),
    vmAliasesFile: path('vm-aliases-file'),
    vmAliasesFileExplicit: isSet('vm-aliases-file'),
    vmAliasesFileContent: String(merged.get('vm-aliases-file-content') ?? ''),
    chainDataDir: path('chain-data-dir'),
    processContextFile: path('process-context-file'),
    healthCheckFrequencyMs: merged.get('health-check-frequency') as number,
    publicIp: String(merged.get('public-ip')),
    stakingPort: merged.get('staking-port') as number,
    stakingEphemeralCertEnabled: merged.get('staking-ephemeral-cert-enabled') as boolean,
    stakingEphemeralSignerEnabled: merged.get('staking-ephemeral-signer-enabled') as boolean,
    stakingTlsKeyFile: path('staking-tls-key-file'),
    stakingTlsCertFile: path('staking-tls-cert-file'),
    stakingSignerKeyFile: path('staking-signer-key-file'),
    chains,
    blockTimeMs: merged.get('block-time') as number,
    devAccounts: merged.get('dev-accounts') as number,
    raw,
  };
}

export { ConfigError, camel };
