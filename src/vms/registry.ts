// VM registry: VM aliases, built-in factories, and plugins from --plugin-dir loaded at run time
// (reference: avalanchego-node.md §7). A plugin is a JS module whose default export is a VMFactory.
import { existsSync, readFileSync, readdirSync, statSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Aliaser } from '../ids/aliaser.js';
import { parseID, vmIDFromName } from '../ids/ids.js';
import type { Logger } from '../logging/logger.js';
import { isVMFactory, type VMFactory } from './types.js';

export const SUBNET_EVM_ID = vmIDFromName('subnetevm');

export interface RegisteredVM {
  id: string;
  factory: VMFactory;
  /** Plugin file path; undefined for built-ins. */
  path?: string;
}

export interface ReloadResult {
  newVMs: string[];
  failedVMs: Map<string, string>;
}

export class VMRegistry {
  readonly aliaser = new Aliaser();
  private readonly factories = new Map<string, RegisteredVM>();
  /** VM IDs recorded as registered, including failed probes (as AvalancheGo does). */
  private readonly registered = new Set<string>();

  constructor(
    private readonly pluginDir: string,
    private readonly log: Logger,
  ) {}

  /** Applies a VM aliases file's object `{vmID: [aliases]}`. */
  applyAliases(obj: unknown): void {
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
      throw new Error('unmarshalling failed on vm aliases: expected a JSON object of VM ID → aliases');
    }
    for (const [id, aliases] of Object.entries(obj)) {
      try {
        parseID(id);
      } catch (e) {
        throw new Error(`unmarshalling failed on vm aliases: ${(e as Error).message}`);
      }
      if (!Array.isArray(aliases) || aliases.some((a) => typeof a !== 'string')) {
        throw new Error(`unmarshalling failed on vm aliases: aliases of ${id} must be an array of strings`);
      }
      for (const a of aliases) this.aliaser.alias(id, a);
    }
  }

  registerBuiltin(id: string, factory: VMFactory, aliases: string[]): void {
    for (const a of aliases) {
      if (this.aliaser.tryLookup(a) !== id) this.aliaser.alias(id, a);
    }
    this.register(id, { id, factory });
  }

  private register(id: string, vm: RegisteredVM): void {
    if (this.registered.has(id)) throw new Error(`"${id}" was already registered as a vm`);
    this.aliaser.alias(id, id);
    this.registered.add(id);
    this.factories.set(id, vm);
  }

  get(idOrAlias: string): RegisteredVM | undefined {
    const id = this.aliaser.tryLookup(idOrAlias) ?? idOrAlias;
    return this.factories.get(id);
  }

  /** VM ID → relevant aliases, for every VM with a working factory. */
  list(): Map<string, string[]> {
    const m = new Map<string, string[]>();
    for (const id of this.factories.keys()) m.set(id, this.aliaser.relevantAliases(id));
    return m;
  }

  /** Scans the plugin dir and registers what is new (admin.loadVMs, and once at start). */
  async reload(): Promise<ReloadResult> {
    const entries = this.scan();
    const result: ReloadResult = { newVMs: [], failedVMs: new Map() };
    for (const [id, path] of entries) {
      if (this.registered.has(id)) continue;
      try {
        this.aliaser.alias(id, id);
      } catch (e) {
        result.failedVMs.set(id, (e as Error).message);
        continue;
      }
      this.registered.add(id);
      try {
        const mod = await import(pathToFileURL(path).href + `?t=${statSync(path).mtimeMs}`);
        const candidate = typeof mod.default === 'function' && !isVMFactory(mod.default) ? await mod.default() : mod.default;
        if (!isVMFactory(candidate)) {
          throw new Error(`plugin ${path} does not export a VM factory (default export with "version" and "createChain")`);
        }
        this.factories.set(id, { id, factory: candidate, path });
        result.newVMs.push(id);
        this.log.info('registered VM', { vmID: id, path });
      } catch (e) {
        const msg = (e as Error).message;
        result.failedVMs.set(id, msg);
        this.log.warn('failed to register VM', { vmID: id, error: msg });
      }
    }
    return result;
  }

  /** Plugin files → VM IDs; a name that is neither an alias nor an ID fails the whole scan. */
  private scan(): Map<string, string> {
    if (!existsSync(this.pluginDir)) return new Map();
    const st = statSync(this.pluginDir);
    if (!st.isDirectory()) throw new Error(`plugin dir is not a directory: "${this.pluginDir}"`);
    const out = new Map<string, string>();
    for (const name of readdirSync(this.pluginDir).sort()) {
      const path = join(this.pluginDir, name);
      if (statSync(path).isDirectory()) continue;
      const dot = name.lastIndexOf('.');
      const base = dot >= 0 ? name.slice(0, dot) : name;
      if (base === '') continue;
      let id = this.aliaser.tryLookup(base);
      if (id === undefined) {
        try {
          parseID(base);
          id = base;
        } catch {
          throw new Error(`invalid vmID: "${base}"`);
        }
      }
      out.set(id, path);
    }
    return out;
  }

  ensurePluginDir(explicit: boolean): void {
    if (explicit) {
      if (!existsSync(this.pluginDir)) throw new Error(`plugin dir "${this.pluginDir}" not found: no such file or directory`);
      if (!statSync(this.pluginDir).isDirectory()) throw new Error(`plugin dir is not a directory: "${this.pluginDir}"`);
    } else mkdirSync(this.pluginDir, { recursive: true });
  }
}

/** Reads a `{id: [aliases]}` file (or base64 content); a missing default file is ignored. */
export function readAliasesFile(path: string, explicit: boolean, content: string, what: 'chain' | 'vm'): unknown | undefined {
  if (content) {
    try {
      return JSON.parse(Buffer.from(content, 'base64').toString('utf8'));
    } catch (e) {
      throw new Error(`unable to decode base64 content for ${what} aliases: ${(e as Error).message}`);
    }
  }
  if (!existsSync(path)) {
    if (explicit) throw new Error(`file does not exist: ${path}`);
    return undefined;
  }
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`unmarshalling failed on ${what} aliases: ${(e as Error).message}`);
  }
}
