// Chain manager: chains from the node's configuration, their IDs, aliases, config files, and
// their HTTP routes under /ext/bc/<chainID> (reference: avalanchego-node.md §3.4, §4, §10).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Aliaser } from '../ids/aliaser.js';
import { idFromContent, parseID } from '../ids/ids.js';
import type { Database } from '../db/database.js';
import type { LogFactory, Logger } from '../logging/logger.js';
import type { Router } from '../server/router.js';
import type { VMRegistry } from '../vms/registry.js';
import { SUBNET_EVM_ID } from '../vms/registry.js';
import type { ChainVM, NodeServices } from '../vms/types.js';

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
}

export class ChainManager {
  readonly aliaser = new Aliaser();
  readonly chains = new Map<string, Chain>();
  /** Chain ID → subnet ID of every chain planned so far (see plan()). */
  private readonly planned = new Map<string, string>();
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
    },
  ) {}

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
        const matches = files.filter((f) => f === stem || f.startsWith(stem + '.'));
        if (matches.length > 1) throw new Error(`too many files matched "${stem}.*" in ${sub}`);
        return matches.length ? readFileSync(join(sub, matches[0])) : undefined;
      };
      this.configDirs.set(name, { config: pick('config'), upgrade: pick('upgrade') });
    }
  }

  /** Applies the chain aliases file's `{chainID: [aliases]}` (chain-manager aliases only). */
  applyAliases(obj: unknown): void {
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
      throw new Error('unmarshalling failed on chain aliases: expected a JSON object of chain ID → aliases');
    }
    for (const [id, aliases] of Object.entries(obj)) {
      try {
        parseID(id);
      } catch (e) {
        throw new Error(`unmarshalling failed on chain aliases: ${(e as Error).message}`);
      }
      if (!Array.isArray(aliases) || aliases.some((a) => typeof a !== 'string')) {
        throw new Error(`unmarshalling failed on chain aliases: aliases of ${id} must be an array of strings`);
      }
      for (const a of aliases) this.aliaser.alias(id, a);
    }
  }

  /** The chain's ID, derived from its definition, so it is stable across restarts. */
  plan(def: ChainDefinition): { id: string; vmID: string; subnetID: string; genesis: Uint8Array } {
    const vm = this.deps.vms.get(def.vm ?? SUBNET_EVM_ID);
    if (!vm) throw new Error(`chain ${def.name ?? ''}: unknown VM "${def.vm}"`);
    let genesis: Uint8Array;
    if (def.genesis === undefined || def.genesis === null) {
      if (!vm.factory.defaultGenesis) throw new Error(`chain ${def.name ?? ''}: a genesis is required for VM ${vm.id}`);
      genesis = vm.factory.defaultGenesis({ networkID: this.deps.networkID, options: def });
    } else if (typeof def.genesis === 'string') {
      const p = resolve(this.deps.baseDir, def.genesis);
      if (!existsSync(p)) throw new Error(`chain ${def.name ?? ''}: genesis file does not exist: ${p}`);
      genesis = readFileSync(p);
    } else genesis = Buffer.from(JSON.stringify(def.genesis));
    const subnetID = def.subnetID ?? idFromContent('powder-subnet', vm.id, def.name ?? '', genesis);
    if (def.subnetID) parseID(def.subnetID);
    const id = idFromContent('powder-chain', subnetID, vm.id, def.name ?? '', genesis);
    this.planned.set(id, subnetID);
    return { id, vmID: vm.id, subnetID, genesis };
  }

  async create(def: ChainDefinition): Promise<Chain> {
    const { id, vmID, subnetID, genesis } = this.plan(def);
    if (this.chains.has(id)) throw new Error(`chain ${id} is defined twice`);
    // Aliases declared with the chain route like the genesis API aliases (/ext/bc/<alias>).
    for (const a of def.aliases ?? []) this.aliaser.alias(id, a);
    this.aliaser.alias(id, id);
    const aliases = this.aliaser.aliases(id)!;
    const primaryAlias = aliases[0];
    const log = this.deps.logs.make(primaryAlias, `${primaryAlias} Chain`);
    const cfg = this.configFor(id, aliases);
    const vm = this.deps.vms.get(vmID)!;
    const { vm: _v, name: _n, genesis: _g, aliases: _a, subnetID: _s, ...options } = def;
    const chainVM = await vm.factory.createChain({
      chainID: id,
      subnetID,
      primaryAlias,
      aliases,
      networkID: this.deps.networkID,
      nodeID: this.deps.node.nodeID,
      genesis,
      config: cfg?.config,
      upgrade: cfg?.upgrade,
      db: this.deps.db.store('chain/' + id),
      ephemeral: this.deps.db.type === 'memdb',
      log,
      dataDir: join(this.deps.chainDataDir, id),
      options,
      node: this.deps.node,
    });
    const chain: Chain = { id, subnetID, vmID, primaryAlias, vm: chainVM, log, definition: def };
    this.chains.set(id, chain);
    const base = `/ext/bc/${id}`;
    for (const [suffix, handler] of Object.entries(await chainVM.createHandlers())) {
      this.deps.router.addRoute(base, suffix, handler);
    }
    const routeAliases = (def.aliases ?? []).map((a) => `bc/${a}`);
    if (routeAliases.length) this.deps.router.addAliases(`bc/${id}`, ...routeAliases);
    this.deps.log.info('created chain', { chainID: id, vmID, aliases });
    return chain;
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
    this.deps.router.addAliases(`bc/${id}`, `bc/${alias}`);
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
