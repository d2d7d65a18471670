// Chain manager: chains from the node's configuration, their IDs, aliases, config files, and
// their HTTP routes under /ext/bc/<chainID> (reference: avalanchego-node.md §3.4, §4, §10).
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Aliaser } from '../ids/aliaser.js';
import { goMkdirAllError, goPathError } from '../goPathError.js';
import { idFromContent, parseID } from '../ids/ids.js';
import type { Database } from '../db/database.js';
import type { LogFactory, Logger, NamedLogger } from '../logging/logger.js';
import { withRequestLog } from '../logging/requests.js';
import { joinPath, type RouteHandler, type Router } from '../server/router.js';
import { stringifyWithBigInts } from '../config/bigJSON.js';
import { proposerVMService } from './proposervm.js';
import { GorillaServer, bool, optStr, str, strArray, uint64 } from '../rpc/gorilla.js';
import type { VMRegistry } from '../vms/registry.js';
import { SUBNET_EVM_ID, parseAliasesObject } from '../vms/registry.js';
import type { ChainRPC, ChainVM, NodeServices } from '../vms/types.js';

/** The node's default --http-max-body-size, used when the node does not pass its own. */
const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** A chain as declared in the node's configuration (`chains` / `--chains-file`). */
export interface ChainDefinition {
  /** VM ID or alias; default `subnetevm`. */
  vm?: string;
  /** A name that makes the chain's ID unique among chains with the same genesis. */
  name?: string;
  /** Genesis: a JSON object, or a path to a genesis file. Absent: the VM's default dev genesis. */
  genesis?: unknown;
  aliases?: string[];
  subnetID?: string;
  /** Everything else is passed to the VM as ChainContext.options. */
  [k: string]: unknown;
}

export interface Chain {
  id: string;
  subnetID: string;
  vmID: string;
  primaryAlias: string;
  vm: ChainVM;
  log: Logger;
  definition: ChainDefinition;
  pending?: false;
}

/**
 * A declared chain whose VM is not loaded yet (a plugin not yet in --plugin-dir). Its ID and
 * aliases are known; it is created as soon as admin.loadVMs registers its VM. Until then its
 * routes answer 404, as for a chain that was never created.
 */
export interface PendingChain {
  id: string;
  subnetID: string;
  vmID: string;
  primaryAlias: string;
  definition: ChainDefinition;
  genesis: Uint8Array;
  pending: true;
}

export class ChainManager {
  readonly aliaser = new Aliaser();
  readonly chains = new Map<string, Chain>();
  /** Declared chains waiting for their VM, in declaration order. */
  readonly pending = new Map<string, PendingChain>();
  /** Chain ID → error, for chains whose VM failed to create them after a loadVMs. */
  readonly failed = new Map<string, string>();
  /** Chain ID → subnet ID of every chain planned so far (see plan()). */
  private readonly planned = new Map<string, string>();
  /** Chains declared (their aliases registered) and not yet created, with their plans. */
  private readonly declared = new Map<ChainDefinition, ReturnType<ChainManager['plan']>>();
  /** Chain ID → raw config/upgrade bytes keyed by directory name (ID or alias). */
  private readonly configDirs = new Map<string, { config?: Uint8Array; upgrade?: Uint8Array }>();

  constructor(
    private readonly deps: {
      router: Router;
      vms: VMRegistry;
      db: Database;
      logs: LogFactory;
      log: Logger;
      networkID: number;
      chainDataDir: string;
      node: NodeServices;
      baseDir: string;
      /** --http-max-body-size, for the JSON-RPC endpoints chains create with ctx.rpc. */
      maxBodyBytes?: number;
    },
  ) {
    // Chains waiting for a plugin VM are created when a reload (admin.loadVMs) registers it.
    deps.vms.onNewVMs((vmIDs) => this.createWaitingFor(vmIDs));
  }

  /** Reads `<dir>/<chain ID or alias>/config.*` and `upgrade.*` (files directly in dir ignored). */
  readChainConfigDir(dir: string, explicit: boolean): void {
    if (!existsSync(dir)) {
      if (explicit) throw new Error(`cannot read directory: ${dir}`);
      return;
    }
    for (const name of readdirSync(dir)) {
      const sub = join(dir, name);
      if (!statSync(sub).isDirectory()) continue;
      const files = readdirSync(sub);
      const pick = (stem: string) => {
        // Go's filepath.Glob("<stem>.*"): the dot is required, a bare `config` is not a match.
        const matches = files.filter((f) => f.startsWith(stem + '.'));
        if (matches.length > 1) throw new Error(`too many files matched "${stem}.*" in ${sub}`);
        return matches.length ? readFileSync(join(sub, matches[0])) : undefined;
      };
      this.configDirs.set(name, { config: pick('config'), upgrade: pick('upgrade') });
    }
  }

  /** --chain-config-content: the chains' config and upgrade bytes by chain ID or alias (replaces the directory). */
  setChainConfigs(configs: Map<string, { config?: Uint8Array; upgrade?: Uint8Array }>): void {
    for (const [name, c] of configs) this.configDirs.set(name, c);
  }

  /** Applies the chain aliases file's `{chainID: [aliases]}` (chain-manager aliases only). */
  applyAliases(obj: unknown): void {
    for (const [id, aliases] of parseAliasesObject(obj, 'chain')) {
      for (const a of aliases) this.aliaser.alias(id, a);
    }
  }

  /**
   * The chain's ID, derived from its definition (never from the VM's code), so it is stable across
   * restarts and known before a plugin VM is loaded.
   */
  plan(def: ChainDefinition): { id: string; vmID: string; subnetID: string; genesis: Uint8Array } {
    const label = def.name ?? '';
    const vmName = def.vm ?? SUBNET_EVM_ID;
    if (typeof vmName !== 'string') throw new Error(`chain ${label}: "vm" must be a VM ID or VM alias string`);
    const vmID = this.deps.vms.resolve(vmName);
    if (vmID === undefined) throw new Error(`chain ${label}: unknown VM "${vmName}": neither a VM alias nor a valid VM ID`);
    const vm = this.deps.vms.get(vmID);
    let genesis: Uint8Array;
    if (def.genesis === undefined || def.genesis === null) {
      if (!vm) throw new Error(`chain ${label}: a genesis is required for a chain of VM "${vmName}", which is not loaded`);
      if (!vm.factory.defaultGenesis) throw new Error(`chain ${label}: a genesis is required for VM ${vmID}`);
      genesis = vm.factory.defaultGenesis({ networkID: this.deps.networkID, options: def });
    } else if (typeof def.genesis === 'string') {
      const p = resolve(this.deps.baseDir, def.genesis);
      if (!existsSync(p)) throw new Error(`chain ${label}: genesis file does not exist: ${p}`);
      try {
        genesis = readFileSync(p);
      } catch (e) {
        throw new Error(`chain ${label}: cannot read genesis file: ${goPathError('open', p, e)}`);
      }
    } else genesis = Buffer.from(stringifyWithBigInts(def.genesis)); // bigints as bare digits (config/bigJSON.ts)
    if (def.subnetID) parseID(def.subnetID);
    const subnetID = def.subnetID ?? idFromContent('powder-subnet', vmID, label, genesis);
    const id = idFromContent('powder-chain', subnetID, vmID, label, genesis);
    this.planned.set(id, subnetID);
    return { id, vmID, subnetID, genesis };
  }

  /**
   * Registers a chain of the node's configuration and its own aliases, before anything is built:
   * like AvalancheGo's genesis aliases (P, X, C), they come before the chain-aliases file's, so they
   * stay the chain's primary alias (§4.2). `create` then builds what was declared.
   */
  declare(def: ChainDefinition): void {
    const plan = this.plan(def);
    const { id } = plan;
    if (this.chains.has(id) || this.pending.has(id) || [...this.declared.values()].some((p) => p.id === id)) throw new Error(`chain ${id} is defined twice`);
    // Aliases declared with the chain route like the genesis API aliases (/ext/bc/<alias>); the
    // router keeps them dormant until the chain's routes exist.
    for (const a of def.aliases ?? []) this.aliaser.alias(id, a);
    const routeAliases = (def.aliases ?? []).map((a) => joinPath('bc', a));
    if (routeAliases.length) this.deps.router.addAliases(`bc/${id}`, ...routeAliases);
    this.declared.set(def, plan);
  }

  /**
   * Creates a chain of the node's configuration (declaring it first if `declare` has not): now if
   * its VM is loaded, otherwise it stays pending until admin.loadVMs registers the VM.
   */
  async create(def: ChainDefinition): Promise<Chain | PendingChain> {
    if (!this.declared.has(def)) this.declare(def);
    const { id, vmID, subnetID, genesis } = this.declared.get(def)!;
    this.declared.delete(def);
    const waiting: PendingChain = {
      id,
      subnetID,
      vmID,
      primaryAlias: this.aliaser.primaryAliasOrDefault(id),
      definition: def,
      genesis,
      pending: true,
    };
    if (!this.deps.vms.get(vmID)) {
      this.pending.set(id, waiting);
      const failure = this.deps.vms.failure(vmID);
      this.deps.log.warn('chain waits for its VM to be loaded (admin.loadVMs)', {
        chainID: id,
        vmID,
        ...(failure ? { vmError: failure } : {}),
      });
      return waiting;
    }
    return this.instantiate(waiting);
  }

  /** Whether the chain runs; a declared chain whose VM is not loaded yet answers false. */
  isBootstrapped(aliasOrID: string): boolean {
    const id = this.aliaser.tryLookup(aliasOrID);
    if (id === undefined) throw new Error(`there is no chain with alias/ID '${aliasOrID}'`);
    return this.chains.has(id);
  }

  /** Builds the chain with its VM's factory and mounts its handlers under /ext/bc/<chainID>. */
  private async instantiate(p: PendingChain): Promise<Chain> {
    const { id, vmID, subnetID, genesis, definition: def } = p;
    const vm = this.deps.vms.get(vmID);
    if (!vm) throw new Error(`chain ${id}: VM ${vmID} is not loaded`);
    // The chain's own ID string becomes an alias when it is created (§4.2).
    if (this.aliaser.tryLookup(id) === undefined) this.aliaser.alias(id, id);
    const aliases = this.aliaser.aliases(id)!;
    const primaryAlias = aliases[0];
    // chains/manager.go buildChain: the chain's data directory (perms.ReadWriteExecute), then its
    // logger, with the real node's texts.
    const dataDir = join(this.deps.chainDataDir, id);
    try {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    } catch (e) {
      throw new Error(`error while creating chain data directory ${goMkdirAllError(dataDir, e)}`);
    }
    const log = this.chainLogger(primaryAlias);
    const cfg = this.configFor(id, aliases);
    const { vm: _v, name: _n, genesis: _g, aliases: _a, subnetID: _s, ...options } = def;
    const chainVM = await vm.factory.createChain({
      chainID: id,
      subnetID,
      primaryAlias,
      aliases,
      networkID: this.deps.networkID,
      nodeID: this.deps.node.nodeID,
      genesis,
      defaultGenesis: def.genesis === undefined || def.genesis === null,
      config: cfg?.config,
      upgrade: cfg?.upgrade,
      db: this.deps.db.store('chain/' + id),
      ephemeral: this.deps.db.type === 'memdb',
      log,
      dataDir,
      options,
      node: this.deps.node,
      rpc: this.chainRPC(log),
    });
    const handlers = await chainVM.createHandlers();
    const chain: Chain = { id, subnetID, vmID, primaryAlias, vm: chainVM, log, definition: def };
    this.chains.set(id, chain);
    this.pending.delete(id);
    const base = `/ext/bc/${id}`;
    for (const [suffix, handler] of Object.entries(handlers)) {
      // AvalancheGo skips (with an error log) suffixes that are not valid request URIs.
      if (suffix !== '' && !/^\/[^\s?#]*$/.test(suffix)) {
        this.deps.log.error('skipping chain handler with an invalid endpoint', { chainID: id, endpoint: suffix });
        continue;
      }
      this.deps.router.addRoute(base, suffix, withRequestLog(handler, log));
    }
    // AvalancheGo's ProposerVM wrapper adds /proposervm to every Snowman chain (reference §3.4).
    if (!Object.hasOwn(handlers, '/proposervm')) {
      this.deps.router.addRoute(base, '/proposervm', withRequestLog(this.chainRPC(log).gorilla('proposervm', proposerVMService()), log));
    }
    this.deps.log.info('created chain', { chainID: id, vmID, aliases });
    return chain;
  }

  /** Creates the pending chains of VMs that a reload just registered (a failure is logged and kept). */
  private async createWaitingFor(vmIDs: string[]): Promise<void> {
    for (const p of [...this.pending.values()]) {
      if (!vmIDs.includes(p.vmID)) continue;
      this.deps.log.info('creating chain of a newly loaded VM', { chainID: p.id, vmID: p.vmID });
      try {
        await this.instantiate(p);
      } catch (e) {
        const msg = (e as Error).message;
        this.pending.delete(p.id);
        this.failed.set(p.id, msg);
        this.deps.log.error('failed to create chain', { chainID: p.id, vmID: p.vmID, error: msg });
      }
    }
  }

  /** ctx.rpc: the node's JSON-RPC engine for a chain's own APIs, logging to the chain's logger. */
  private chainRPC(log: Logger): ChainRPC {
    const maxBodyBytes = this.deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    return {
      gorilla: (serviceName, service): RouteHandler => {
        if (typeof serviceName !== 'string' || serviceName === '' || serviceName.includes('.')) {
          throw new TypeError(`ctx.rpc.gorilla: the service name must be a non-empty string without dots, got ${JSON.stringify(serviceName)}`);
        }
        if (!service || typeof service !== 'object') throw new TypeError('ctx.rpc.gorilla: the service must be an object of methods');
        for (const [name, m] of Object.entries(service)) {
          if (!m || typeof m.handler !== 'function') throw new TypeError(`ctx.rpc.gorilla: method "${name}" needs a handler function`);
        }
        const server = new GorillaServer({
          name: serviceName,
          service,
          maxBodyBytes,
          onError: (method, err) => log.debug('API call failed', { method, error: err.message }),
        });
        return { http: (req, res) => server.serve(req, res) };
      },
      decoders: Object.freeze({ str, optStr, bool, strArray, uint64 }),
    };
  }

  /**
   * The chain's logger, named by its primary alias. A name some logger has already (`main`,
   * `vm-factory`) fails the chain, as the real node's log factory refuses a second logger of a name.
   */
  private chainLogger(primaryAlias: string): NamedLogger {
    try {
      return this.deps.logs.make(primaryAlias, `${primaryAlias} Chain`);
    } catch (e) {
      throw new Error(`error while creating chain's log ${(e as Error).message}`); // sic: no colon, as in Go
    }
  }

  /** Subnet of a chain that is declared but not created yet (warp between chains created in order). */
  plannedSubnet(chainID: string): string | undefined {
    return this.planned.get(chainID);
  }

  /** The chain's raw config.* bytes from --chain-config-dir, if any. */
  rawConfig(chainID: string): Uint8Array | undefined {
    return this.configFor(chainID, this.aliaser.aliases(chainID) ?? [])?.config;
  }

  private configFor(id: string, aliases: string[]) {
    for (const key of [id, ...aliases]) {
      const c = this.configDirs.get(key);
      if (c) return c;
    }
    return undefined;
  }

  /** admin.aliasChain. */
  aliasChain(chain: string, alias: string): void {
    const id = this.aliaser.lookup(chain);
    this.aliaser.alias(id, alias);
    // AvalancheGo: AddAliases(path.Join("bc", chainID), path.Join("bc", alias)).
    this.deps.router.addAliases(`bc/${id}`, joinPath('bc', alias));
  }

  async shutdown(): Promise<void> {
    for (const c of [...this.chains.values()].reverse()) {
      try {
        await c.vm.shutdown();
      } catch (e) {
        this.deps.log.error('chain shutdown failed', { chainID: c.id, error: String(e) });
      }
    }
  }
}
