// admin.getConfig: the node's configuration shaped like AvalancheGo's config/node.Config
// (reference: avalanchego-node.md §2.7) for the parts Powder has. Keys in the real node's order;
// durations are integer nanoseconds; secrets and raw bytes are left out as on the real node.
import { join } from 'node:path';
import type { Node } from '../../node/node.js';
import { sortedObject } from '../../rpc/gorilla.js';

const msToNs = (ms: number) => Math.round(ms * 1e6);

/** An aliases file as the node read it at start (AvalancheGo reports the config it parsed then). */
function aliasesOrEmpty(v: unknown): Record<string, unknown> {
  if (v && typeof v === 'object' && !Array.isArray(v)) return sortedObject(Object.entries(v));
  return {};
}

export function nodeConfigView(node: Node): Record<string, unknown> {
  const c = node.config;
  // The subnets --track-subnets names, and those of the chains running (Powder runs every chain declared).
  const subnets = [...new Set([...c.trackSubnets, ...[...node.chains.chains.values()].map((ch) => ch.subnetID)])].sort();
  return {
    httpConfig: {
      readTimeout: msToNs(c.httpReadTimeoutMs),
      readHeaderTimeout: msToNs(c.httpReadHeaderTimeoutMs),
      // sic: AvalancheGo's key for the write timeout.
      writeHeaderTimeout: msToNs(c.httpWriteTimeoutMs),
      idleTimeout: msToNs(c.httpIdleTimeoutMs),
      apiConfig: {
        indexerConfig: { indexAPIEnabled: c.indexEnabled, indexAllowIncomplete: c.indexAllowIncomplete },
        adminAPIEnabled: c.apiAdminEnabled,
        infoAPIEnabled: c.apiInfoEnabled,
        metricsAPIEnabled: c.apiMetricsEnabled,
        healthAPIEnabled: c.apiHealthEnabled,
      },
      httpHost: c.httpHost,
      httpPort: c.httpPort,
      httpsEnabled: c.httpTls !== undefined,
      httpAllowedOrigins: c.httpAllowedOrigins,
      httpAllowedHosts: c.httpAllowedHosts,
      shutdownTimeout: msToNs(c.httpShutdownTimeoutMs),
      shutdownWait: msToNs(c.httpShutdownWaitMs),
    },
    stakingConfig: {
      stakingKeyPath: c.stakingTlsKeyFile,
      stakingCertPath: c.stakingTlsCertFile,
      stakingSignerPath: c.stakingSignerKeyFile,
    },
    databaseConfig: { readOnly: false, path: join(c.dbDir, c.networkName), name: c.dbType },
    networkID: c.networkID,
    healthCheckFreq: msToNs(c.healthCheckFrequencyMs),
    profilerConfig: {
      dir: c.profileDir,
      enabled: c.profileContinuousEnabled,
      freq: msToNs(c.profileContinuousFreqMs),
      maxNumFiles: c.profileContinuousMaxFiles,
    },
    loggingConfig: {
      maxSize: c.logRotaterMaxSize,
      maxFiles: c.logRotaterMaxFiles,
      maxAge: c.logRotaterMaxAge,
      directory: c.logDir,
      compress: c.logRotaterCompressEnabled,
      disableWriterDisplaying: c.logDisableDisplayPluginLogs,
      logLevel: c.logLevel,
      displayLevel: c.logDisplayLevel,
      logFormat: c.logFormat,
    },
    pluginDir: c.pluginDir,
    trackedSubnets: subnets,
    chainAliases: aliasesOrEmpty(node.startupAliases.chain),
    vmAliases: aliasesOrEmpty(node.startupAliases.vm),
    chainDataDir: c.chainDataDir,
    processContextFilePath: c.processContextFile,
  };
}
