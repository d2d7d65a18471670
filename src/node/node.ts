// The Node: owns the database, loggers, HTTP server and router, VM registry and chains.
// Several nodes may run in one process; nothing here is global.
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { resolveConfig, type NodeConfig, type NodeOptions } from '../config/config.js';
import { openDatabase, type Database } from '../db/database.js';
import { LogFactory, type Logger } from '../logging/logger.js';
import { parseLevel } from '../logging/levels.js';
import { Router, type RouteHandler } from '../server/router.js';
import { HttpServer } from '../server/http.js';
import { busyPoll } from '../server/busyPoll.js';
import { GorillaServer, type GorillaService } from '../rpc/gorilla.js';
import { VMRegistry, readAliasesFile, SUBNET_EVM_ID } from '../vms/registry.js';
import { ChainManager, type ChainDefinition } from '../chains/manager.js';
import { loadOrCreateIdentity, type StakingIdentity } from './identity.js';
import { addrPort } from './addrPort.js';
import { builtinVMs } from '../vms/builtin.js';
import { registerNodeAPIs } from '../api/register.js';
import type { NodeServices } from '../vms/types.js';
import { ValidatorManager, type ValidatorDefinition } from '../validators/manager.js';
import { validatorsService } from '../validators/service.js';
import { CONTINUOUS_SUBDIR, ContinuousProfiler } from '../profiler/continuous.js';
import { dynamicImport } from '../dynamicImport.js';
import { vmConfigValue } from '../evm/admin/vmConfigJson.js';

export class Node implements NodeServices {
  readonly config: NodeConfig;
  /** The VM and chain aliases files as read at start (admin.getConfig reports these, not the files now). */
  readonly startupAliases: { vm?: unknown; chain?: unknown } = {};
  readonly router = new Router();
  readonly logs: LogFactory;
  readonly log: Logger;
  readonly vms: VMRegistry;
  readonly db: Database;
  readonly identity: StakingIdentity;
  readonly chains: ChainManager;
  readonly validators: ValidatorManager;
  readonly startedAt = Date.now();
  private http!: HttpServer;
  private readonly cleanups: (() => void | Promise<void>)[] = [];
  private readonly selfStopListeners: ((exitCode: number) => void)[] = [];
  private selfStopCode: number | undefined;
  url = '';
  stopped = false;

  private constructor(config: NodeConfig) {
    this.config = config;
    mkdirSync(config.dataDir, { recursive: true });
    this.logs = new LogFactory({
      dir: config.logDir,
      logLevel: parseLevel(config.logLevel),
      displayLevel: parseLevel(config.logDisplayLevel),
      format: config.logFormat,
      rotation: {
        maxSizeMB: config.logRotaterMaxSize,
        maxFiles: config.logRotaterMaxFiles,
        maxAgeDays: config.logRotaterMaxAge,
        compress: config.logRotaterCompressEnabled,
      },
      disableWriterDisplaying: config.logDisableDisplayPluginLogs,
    });
    this.log = this.logs.make('main');
    this.identity = loadOrCreateIdentity({
      keyFile: config.stakingTlsKeyFile,
      certFile: config.stakingTlsCertFile,
      signerFile: config.stakingSignerKeyFile,
      ephemeralCert: config.stakingEphemeralCertEnabled,
      ephemeralSigner: config.stakingEphemeralSignerEnabled,
    });
    this.db = openDatabase(config.dbType, join(config.dbDir, config.networkName));
    this.validators = new ValidatorManager(
      this.db.store('validators'),
      { nodeID: this.identity.nodeID, blsSecretKey: this.identity.blsSecretKey },
      () => this.now(),
      (e) => this.log.warn('failed to write validator uptimes', { error: String(e) }),
    );
    this.vms = new VMRegistry(config.pluginDir, this.logs.make('vm-factory'));
    this.chains = new ChainManager({
      router: this.router,
      vms: this.vms,
      db: this.db,
      logs: this.logs,
      log: this.log,
      networkID: config.networkID,
      chainDataDir: config.chainDataDir,
      node: this,
      baseDir: process.cwd(),
      maxBodyBytes: config.httpMaxBodySize,
    });
  }

  get nodeID(): string {
    return this.identity.nodeID;
  }

  now(): number {
    return Date.now();
  }

  subnetOf(chainID: string): string | undefined {
    return this.chains.chains.get(chainID)?.subnetID ?? this.chains.plannedSubnet(chainID);
  }

  /** Adds a node-style (gorilla) JSON-RPC endpoint at /ext/<name>. */
  addGorillaRoute(base: string, suffix: string, serviceName: string, service: GorillaService): GorillaServer {
    const server = this.gorilla(serviceName, service);
    this.router.addRoute(base, suffix, server.route());
    return server;
  }

  gorilla(serviceName: string, service: GorillaService): GorillaServer {
    return new GorillaServer({
      name: serviceName,
      service,
      maxBodyBytes: this.config.httpMaxBodySize,
      onError: (method, err) => this.log.debug('API call failed', { method, error: err.message }),
      requestFree: true,
    });
  }

  addRoute(base: string, suffix: string, handler: RouteHandler): void {
    this.router.addRoute(base, suffix, handler);
  }

  onStop(f: () => void | Promise<void>): void {
    this.cleanups.push(f);
  }

  /** `f` runs after the node stopped itself on a fatal error, with the exit code the real node exits with. */
  onSelfStop(f: (exitCode: number) => void): void {
    if (this.selfStopCode !== undefined) f(this.selfStopCode);
    else this.selfStopListeners.push(f);
  }

  /** A fatal error: logged at FATAL, then the node shuts down (AvalancheGo's Log.Fatal + Shutdown(1)). */
  private async fatal(msg: string, err: Error): Promise<void> {
    if (this.stopped) return;
    this.log.fatal(msg, { error: err.message });
    await this.stop();
    this.selfStopCode = 1;
    for (const f of this.selfStopListeners) f(1);
  }

  static async start(options: NodeOptions = {}, config?: NodeConfig): Promise<Node> {
    const node = new Node(config ?? resolveConfig({ options }));
    try {
      await node.init();
    } catch (e) {
      await node.stop().catch(() => {});
      throw e;
    }
    return node;
  }

  private async init(): Promise<void> {
    const c = this.config;
    // VMs: aliases file first (as AvalancheGo applies them before the built-ins), then plugins.
    const vmAliases = (this.startupAliases.vm = readAliasesFile(c.vmAliasesFile, c.vmAliasesFileExplicit, c.vmAliasesFileContent, 'vm'));
    if (vmAliases !== undefined) this.vms.applyAliases(vmAliases);
    for (const b of await builtinVMs()) this.vms.registerBuiltin(b.id, b.factory, b.aliases);
    this.vms.ensurePluginDir(c.pluginDirExplicit);
    await this.vms.reload();

    this.http = new HttpServer(this.router, {
      host: c.httpHost,
      port: c.httpPort,
      nodeID: this.nodeID,
      allowedHosts: c.httpAllowedHosts,
      allowedOrigins: c.httpAllowedOrigins,
      timeouts: { idleMs: c.httpIdleTimeoutMs, readMs: c.httpReadTimeoutMs, readHeaderMs: c.httpReadHeaderTimeoutMs, writeMs: c.httpWriteTimeoutMs },
      tls: c.httpTls && { ...c.httpTls, https: await dynamicImport<typeof import('node:https')>('node:https') },
      onHandlerError: (err, url) => this.log.error('HTTP handler failed', { path: url, error: String((err as Error)?.stack ?? err) }),
    });
    const addr = await this.http.listen();
    // Polling after answers pays only where the client runs on another CPU than the node's thread.
    this.cleanups.push(busyPoll.use(availableParallelism() >= 2 ? c.httpBusyPollMs * 1000 : 0));
    const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    this.url = `${c.httpTls ? 'https' : 'http'}://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${addr.port}`;

    await registerNodeAPIs(this);
    this.initContinuousProfiler();

    const chainAliases = (this.startupAliases.chain = readAliasesFile(c.chainAliasesFile, c.chainAliasesFileExplicit, c.chainAliasesFileContent, 'chain'));
    const defs = (c.chains ?? [{ vm: SUBNET_EVM_ID, name: 'dev', aliases: ['dev'], dev: true, devAccounts: c.devAccounts }]) as ChainDefinition[];
    // --block-time is the node-wide default for chains whose definition does not set blockTime.
    if (c.blockTimeMs > 0) for (const d of defs) d.blockTime ??= c.blockTimeMs;
    if (c.web3ClientVersion) for (const d of defs) d.clientVersion ??= c.web3ClientVersion;
    // The chains' own aliases first, then the chain-aliases file's (AvalancheGo: the genesis
    // aliases, then the file), so a chain's primary alias is its own.
    for (const def of defs) this.chains.declare(def);
    if (chainAliases !== undefined) this.chains.applyAliases(chainAliases);
    // --chain-config-content replaces the directory, as on AvalancheGo.
    if (c.chainConfigContent) this.chains.setChainConfigs(c.chainConfigContent);
    else this.chains.readChainConfigDir(c.chainConfigDir, c.chainConfigDirExplicit);
    for (const def of defs) {
      const chain = await this.chains.create(def);
      this.mountValidatorsAPI(chain.id, chain.subnetID, chain.vmID, def);
    }

    mkdirSync(join(c.processContextFile, '..'), { recursive: true });
    writeFileSync(c.processContextFile, JSON.stringify({ pid: process.pid, uri: this.url, stakingAddress: addrPort(c.stakingHost || c.publicIp || '127.0.0.1', c.stakingPort) }, null, '\t'));
    this.log.info('node started', { nodeID: this.nodeID, uri: this.url });
  }

  /** node.go initProfiler: --profile-continuous-enabled runs the continuous profiler until stop. */
  private initContinuousProfiler(): void {
    const c = this.config;
    if (!c.profileContinuousEnabled) {
      this.log.info('skipping profiler initialization because it has been disabled');
      return;
    }
    this.log.info('initializing continuous profiler');
    const profiler = new ContinuousProfiler(join(c.profileDir, CONTINUOUS_SUBDIR), c.profileContinuousFreqMs, c.profileContinuousMaxFiles);
    profiler.dispatch((err) => void this.fatal('continuous profiler failed', err));
    this.onStop(() => profiler.shutdown());
  }

  /** Subnet-EVM chains serve validators.getCurrentValidators at /ext/bc/<chain>/validators. */
  private mountValidatorsAPI(chainID: string, subnetID: string, vmID: string, def: ChainDefinition): void {
    this.validators.setSubnet(subnetID, def.validators as ValidatorDefinition[] | undefined);
    if (vmID !== SUBNET_EVM_ID || this.chainConfigFlag(chainID, 'validators-api-enabled') === false) return;
    this.addGorillaRoute(`/ext/bc/${chainID}`, '/validators', 'validators', validatorsService(this.validators, subnetID));
  }

  /** A key of the chain's config.json as the VM decodes it (the VM reports a bad file itself). */
  private chainConfigFlag(chainID: string, key: string): unknown {
    return vmConfigValue(this.chains.rawConfig(chainID), key);
  }

  /** The lines printed once at start: URLs, NodeID, data dir, chains. */
  banner(): string[] {
    const c = this.config;
    const apis = [c.apiInfoEnabled && 'info', c.apiHealthEnabled && 'health', c.apiMetricsEnabled && 'metrics', c.apiAdminEnabled && 'admin'].filter(Boolean);
    const lines = [
      `Powder: a local Avalanche node (${this.url})`,
      `  NodeID:    ${this.nodeID}`,
      `  APIs:      ${apis.map((a) => `${this.url}/ext/${a}`).join('  ')}`,
      `  data dir:  ${c.dataDir}${c.dbType === 'memdb' ? ' (database in memory)' : ''}`,
      `  network:   ${c.networkName} (${c.networkID})`,
    ];
    for (const chain of this.chains.chains.values()) {
      const aliases = this.chains.aliaser.relevantAliases(chain.id);
      const name = aliases[0] ?? chain.id;
      const rpc = `${this.url}/ext/bc/${name}/rpc`;
      lines.push('', `Chain ${name}`, `  ID:        ${chain.id}`);
      if (aliases.length) lines.push(`  aliases:   ${aliases.join(', ')}`);
      lines.push(`  subnet:    ${chain.subnetID}`, `  VM:        ${this.vms.aliaser.primaryAliasOrDefault(chain.vmID)}`);
      if (this.router.lookup(`/ext/bc/${chain.id}/rpc`)) lines.push(`  RPC:       ${rpc}`);
      if (this.router.lookup(`/ext/bc/${chain.id}/ws`)) lines.push(`  WS:        ${rpc.replace(/^http/, 'ws').replace(/\/rpc$/, '/ws')}`);
      for (const l of chain.vm.banner?.({ rpc }) ?? []) lines.push('  ' + l);
    }
    for (const p of this.chains.pending.values()) {
      lines.push('', `Chain ${p.primaryAlias} (waiting for VM ${p.vmID}: add it to the plugin dir, then admin.loadVMs)`, `  ID:        ${p.id}`);
    }
    return lines;
  }

  /** Set by stop() during --http-shutdown-wait: the health API reports `shuttingDown`. */
  shuttingDown = false;

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const wait = this.config.httpShutdownWaitMs;
    if (wait > 0 && this.http) {
      // AvalancheGo's shutdown: a failing health check first, so load balancers move away.
      this.shuttingDown = true;
      this.log.info('sleeping after registering shutdown health check', { duration: `${wait}ms` });
      // Node's timers fire at once past 2^31-1 ms: a longer wait is a chain of shorter ones.
      for (let left = wait; left > 0; left -= 2 ** 31 - 1) await new Promise((r) => setTimeout(r, Math.min(left, 2 ** 31 - 1)));
    }
    await this.http?.close(this.config.httpShutdownTimeoutMs).catch(() => {});
    await this.chains.shutdown();
    await this.validators.stop();
    for (const f of this.cleanups.reverse()) {
      try {
        await f();
      } catch (e) {
        this.log.error('cleanup failed', { error: String(e) });
      }
    }
    await this.db.close();
    try {
      rmSync(this.config.processContextFile, { force: true });
    } catch {
      /* ignore */
    }
    this.logs.close();
  }
}
