// VM registry: VM aliases, built-in factories, and plugins from --plugin-dir loaded at run time
// (reference: avalanchego-node.md §7). A plugin is a JS module exporting a VMFactory
// (src/vms/types.ts, docs/plugins.md).
import { goPathError } from '../goPathError.js';
import { mkdirSync, readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Aliaser } from '../ids/aliaser.js';
import { parseID, parseIDFromJSON, vmIDFromName } from '../ids/ids.js';
import type { Logger } from '../logging/logger.js';
import { isVMFactory, PLUGIN_PROTOCOL_VERSION, type VMFactory } from './types.js';
import { dynamicImport } from '../dynamicImport.js';
import { extraCaCertsNotLoaded } from '../node/extraCaCerts.js';
import { goQuote } from '../rpc/goQuote.js';
import { parseJsonGoErrors } from '../evm/config/json.js';

export const SUBNET_EVM_ID = vmIDFromName('subnetevm');

/**
 * AvalancheGo's built-in VM aliases (genesis/aliases.go VMAliases). Powder does not run these VMs,
 * but keeps their aliases so plugin file names and the aliases file behave as on the real node.
 */
export const GENESIS_VM_ALIASES: readonly [string, string[]][] = [
  [vmIDFromName('platformvm'), ['platform']],
  [vmIDFromName('avm'), ['avm']],
  [vmIDFromName('evm'), ['evm']],
  [vmIDFromName('secp256k1fx'), ['secp256k1fx']],
  [vmIDFromName('nftfx'), ['nftfx']],
  [vmIDFromName('propertyfx'), ['propertyfx']],
];

/** VMs that are always "registered" on AvalancheGo: a plugin file resolving to one is ignored. */
const PRIMARY_NETWORK_VM_IDS = new Set(GENESIS_VM_ALIASES.slice(0, 3).map(([id]) => id));

/** AvalancheGo's handshake timeout for a plugin (vms/rpcchainvm). */
export const PLUGIN_PROBE_TIMEOUT_MS = 5_000;

export interface RegisteredVM {
  id: string;
  factory: VMFactory;
  /** Plugin file path; undefined for built-ins. */
  path?: string;
}

export interface ReloadResult {
  /** VM IDs registered by this call, in plugin-file order. */
  newVMs: string[];
  /** VM ID → error text, for VMs that failed to register in this call. */
  failedVMs: Map<string, string>;
}

/** A VM the registry has recorded: with a working factory, or with the error its probe gave. */
interface VMRecord {
  id: string;
  path?: string;
  factory?: VMFactory;
  error?: string;
}

export type NewVMsListener = (vmIDs: string[]) => void | Promise<void>;

/** Whether a plugin's load has said that NODE_EXTRA_CA_CERTS was set aside (src/node/extraCaCerts.ts): once per process. */
let caNoteLogged = false;

export class VMRegistry {
  readonly aliaser = new Aliaser();
  /** Every recorded VM in registration order, including failed probes (as AvalancheGo does). */
  private readonly records = new Map<string, VMRecord>();
  private readonly listeners: NewVMsListener[] = [];
  private genesisAliasesApplied = false;
  /** Reloads run one at a time, so two concurrent loadVMs calls never register a VM twice. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly probeTimeoutMs: number;

  constructor(
    private readonly pluginDir: string,
    private readonly log: Logger,
    opts: { probeTimeoutMs?: number } = {},
  ) {
    this.probeTimeoutMs = opts.probeTimeoutMs ?? PLUGIN_PROBE_TIMEOUT_MS;
  }

  /** Applies a VM aliases file's object `{vmID: [aliases]}` (before the built-ins, §7.4). */
  applyAliases(obj: unknown): void {
    for (const [id, aliases] of parseAliasesObject(obj, 'vm')) {
      for (const a of aliases) this.aliaser.alias(id, a);
    }
  }

  /**
   * Registers a VM compiled into Powder. Its Powder-specific aliases (e.g. `subnetevm`) yield to
   * the aliases file: an alias the file gave to another VM is not added.
   */
  registerBuiltin(id: string, factory: VMFactory, aliases: string[]): void {
    this.applyGenesisAliases();
    for (const a of aliases) {
      const owner = this.aliaser.tryLookup(a);
      if (owner === undefined) this.aliaser.alias(id, a);
      else if (owner !== id) this.log.info('built-in VM alias taken by the VM aliases file', { vmID: id, alias: a, owner });
    }
    if (this.records.has(id)) throw new Error(`"${id}" was already registered as a vm`);
    this.aliaser.alias(id, id);
    this.records.set(id, { id, factory });
  }

  /** AvalancheGo's built-in aliases, after the file's: a clash aborts startup (§7.4). */
  private applyGenesisAliases(): void {
    if (this.genesisAliasesApplied) return;
    this.genesisAliasesApplied = true;
    for (const [id, aliases] of GENESIS_VM_ALIASES) {
      for (const a of aliases) {
        try {
          this.aliaser.alias(id, a);
        } catch (e) {
          throw new Error(`couldn't initialize API aliases: ${(e as Error).message}`);
        }
      }
    }
  }

  /** A VM alias or CB58 VM ID → VM ID; undefined when it is neither (no registration needed). */
  resolve(nameOrID: string): string | undefined {
    const id = this.aliaser.tryLookup(nameOrID);
    if (id !== undefined) return id;
    try {
      parseID(nameOrID);
      return nameOrID;
    } catch {
      return undefined;
    }
  }

  /** A VM with a working factory, by ID or alias. */
  get(idOrAlias: string): RegisteredVM | undefined {
    const id = this.aliaser.tryLookup(idOrAlias) ?? idOrAlias;
    const r = this.records.get(id);
    return r?.factory ? { id, factory: r.factory, path: r.path } : undefined;
  }

  /** The VM was recorded (loaded or failed): a later loadVMs will not retry it. */
  isRecorded(id: string): boolean {
    return this.records.has(id);
  }

  /** Why a recorded plugin failed to load, if it did. */
  failure(id: string): string | undefined {
    return this.records.get(id)?.error;
  }

  /**
   * VM ID → relevant aliases for every recorded VM, in registration order: the data of
   * info.getVMs `vms`. As on AvalancheGo a plugin whose probe failed is still listed.
   */
  list(): Map<string, string[]> {
    const m = new Map<string, string[]>();
    for (const id of this.records.keys()) m.set(id, this.aliaser.relevantAliases(id));
    return m;
  }

  /** Primary VM alias (or ID) → version, for VMs with a working factory (getNodeVersion vmVersions). */
  versions(): Map<string, string> {
    const m = new Map<string, string>();
    for (const r of this.records.values()) {
      if (r.factory) m.set(this.aliaser.primaryAliasOrDefault(r.id), r.factory.version);
    }
    return m;
  }

  /** The VM's aliases minus its own ID string (admin.loadVMs newVMs values; never null). */
  relevantAliases(id: string): string[] {
    return this.aliaser.relevantAliases(id);
  }

  /** Called after a reload registered VMs (the chain manager creates chains waiting for them). */
  onNewVMs(listener: NewVMsListener): void {
    this.listeners.push(listener);
  }

  /**
   * Scans the plugin dir and registers what is new (admin.loadVMs, and once at start). Throws when
   * the scan itself fails; then nothing is registered.
   */
  reload(): Promise<ReloadResult> {
    const run = this.queue.then(() => this.reloadNow());
    this.queue = run.catch(() => {});
    return run;
  }

  private async reloadNow(): Promise<ReloadResult> {
    const found = this.scan();
    const result: ReloadResult = { newVMs: [], failedVMs: new Map() };
    for (const [id, path] of found) {
      if (this.records.has(id) || PRIMARY_NETWORK_VM_IDS.has(id)) {
        this.log.debug('VM already registered, plugin file ignored', { vmID: id, path });
        continue;
      }
      // vms/manager.go RegisterFactory: alias the ID, record the factory, then probe it. The
      // record comes first, so a VM whose probe fails is never retried (§7.3).
      try {
        this.aliaser.alias(id, id);
      } catch (e) {
        this.fail(result, id, (e as Error).message);
        continue;
      }
      const record: VMRecord = { id, path };
      this.records.set(id, record);
      try {
        record.factory = await this.load(path);
        result.newVMs.push(id);
        this.log.info('registered VM', { vmID: id, path, version: record.factory.version });
      } catch (e) {
        record.error = (e as Error).message;
        this.fail(result, id, record.error);
      }
    }
    if (result.newVMs.length > 0) {
      for (const listener of this.listeners) {
        try {
          await listener([...result.newVMs]);
        } catch (e) {
          this.log.error('new VMs listener failed', { error: (e as Error).message });
        }
      }
    }
    return result;
  }

  private fail(result: ReloadResult, id: string, error: string): void {
    result.failedVMs.set(id, error);
    this.log.warn('failed to register VM', { vmID: id, error });
  }

  /** Imports the plugin module, finds its factory, checks its version and probes it (5 s). */
  private load(path: string): Promise<VMFactory> {
    const caFile = extraCaCertsNotLoaded();
    if (caFile !== undefined && !caNoteLogged) {
      caNoteLogged = true;
      this.log.info('NODE_EXTRA_CA_CERTS was not loaded at start: TLS connections made in this process trust Node.js\'s bundled CA certificates only (start with POWDER_EXTRA_CA_CERTS=load to have them trust the file too)', { file: caFile });
    }
    const work = (async () => {
      // The query makes a changed file a new module; an unchanged one is served from the cache.
      const st = statSync(path, { bigint: true });
      const url = `${pathToFileURL(path).href}?v=${st.mtimeNs}-${st.size}`;
      let mod: Record<string, unknown>;
      try {
        mod = await dynamicImport<Record<string, unknown>>(url);
      } catch (e) {
        throw new Error(`failed to load VM plugin ${path}: ${errorText(e)}`);
      }
      const factory = await pickFactory(mod, path);
      const protocol = factory.protocolVersion ?? PLUGIN_PROTOCOL_VERSION;
      if (protocol !== PLUGIN_PROTOCOL_VERSION) {
        throw new Error(
          `handshake failed: plugin protocol version mismatch between Powder and VM plugin. Powder implements plugin protocol version ${PLUGIN_PROTOCOL_VERSION}. The VM located at ${path} implements plugin protocol version ${protocol}. Please make sure that there is an exact match of the protocol versions.`,
        );
      }
      if (factory.probe) {
        try {
          await factory.probe();
        } catch (e) {
          throw new Error(`handshake failed: ${errorText(e)}`);
        }
      }
      return factory;
    })();
    return withTimeout(
      work,
      this.probeTimeoutMs,
      `handshake failed: the VM plugin at ${path} did not load within ${this.probeTimeoutMs / 1000}s`,
    );
  }

  /** Plugin files → VM IDs; a name that is neither a VM alias nor a VM ID fails the whole scan. */
  private scan(): Map<string, string> {
    let entries: Dirent[];
    try {
      entries = readdirSync(this.pluginDir, { withFileTypes: true });
    } catch (e) {
      // os.ReadDir opens a regular file fine and fails reading it: `readdirent <dir>: not a directory`.
      const op = (e as NodeJS.ErrnoException).code === 'ENOTDIR' && isFile(this.pluginDir) ? 'readdirent' : 'open';
      throw new Error(goPathError(op, this.pluginDir, e));
    }
    entries.sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
    const out = new Map<string, string>();
    for (const entry of entries) {
      if (entry.isDirectory()) continue;
      const name = stripLastExtension(entry.name);
      if (name === '') continue; // dot-files such as .DS_Store
      const id = this.resolve(name);
      if (id === undefined) throw new Error(`invalid vmID: ${goQuote(name)}`);
      out.set(id, join(this.pluginDir, entry.name)); // same VM twice: the name sorting last wins
    }
    return out;
  }

  /** --plugin-dir given explicitly must exist; the default one is created. */
  ensurePluginDir(explicit: boolean): void {
    if (!explicit) {
      mkdirSync(this.pluginDir, { recursive: true });
      return;
    }
    let isDir: boolean;
    try {
      isDir = statSync(this.pluginDir).isDirectory();
    } catch (e) {
      throw new Error(`plugin dir ${goQuote(this.pluginDir)} not found: ${goPathError('stat', this.pluginDir, e)}`);
    }
    if (!isDir) throw new Error(`plugin dir is not a directory: ${goQuote(this.pluginDir)}`);
  }
}

/** The module's factory: its default export, what a default-exported function returns, or the module itself. */
async function pickFactory(mod: Record<string, unknown>, path: string): Promise<VMFactory> {
  const d = mod.default;
  if (isVMFactory(d)) return d;
  if (typeof d === 'function') {
    let made: unknown;
    try {
      made = await (d as () => unknown)();
    } catch (e) {
      throw new Error(`VM plugin ${path}: its default export threw: ${errorText(e)}`);
    }
    if (isVMFactory(made)) return made;
    throw new Error(`VM plugin ${path}: its default export is a function that did not return a VM factory (an object with "version" (string) and "createChain" (function))`);
  }
  if (isVMFactory(mod)) return mod as unknown as VMFactory;
  throw new Error(
    `VM plugin ${path} does not export a VM factory: expected a default export (or a default-exported function returning one) with "version" (string) and "createChain" (function)`,
  );
}

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** filepath.Ext semantics: `foo.exe` → `foo`, `a.b.c` → `a.b`, `.DS_Store` → ``. */
export function stripLastExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(0, dot) : name;
}


/**
 * Validates a `{id: [aliases]}` object (chain or VM aliases file) with Go's encoding/json texts
 * for a `map[ids.ID][]string`; JSON null means no aliases.
 */
export function parseAliasesObject(obj: unknown, what: 'chain' | 'vm'): [string, string[]][] {
  const fail = (msg: string): never => {
    throw new Error(`unmarshalling failed on ${what} aliases: ${msg}`);
  };
  if (obj === null) return [];
  if (typeof obj !== 'object' || Array.isArray(obj)) {
    fail(`json: cannot unmarshal ${jsonTypeName(obj)} into Go value of type map[ids.ID][]string`);
  }
  const out: [string, string[]][] = [];
  for (const [id, aliases] of Object.entries(obj as Record<string, unknown>)) {
    try {
      parseIDFromJSON(id);
    } catch (e) {
      fail((e as Error).message);
    }
    if (aliases === null) continue;
    if (!Array.isArray(aliases)) fail(`json: cannot unmarshal ${jsonTypeName(aliases)} into Go value of type []string`);
    for (const a of aliases as unknown[]) {
      if (typeof a !== 'string') fail(`json: cannot unmarshal ${jsonTypeName(a)} into Go value of type string`);
    }
    out.push([id, aliases as string[]]);
  }
  return out;
}

function jsonTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'bool';
  return typeof v; // object, number, string
}

const BASE64_ALPHABET = /^[A-Za-z0-9+/]$/;

/**
 * Go's base64.StdEncoding.DecodeString: strict padding, \r and \n ignored, and the same
 * `illegal base64 data at input byte N` positions (a port of encoding/base64 decodeQuantum).
 */
export function decodeStdBase64(src: string): Buffer {
  const illegal = (n: number) => new Error(`illegal base64 data at input byte ${n}`);
  const isNewline = (c: string | undefined) => c === '\n' || c === '\r';
  let si = 0;
  quanta: while (si < src.length) {
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) break quanta;
        throw illegal(si - j);
      }
      const c = src[si++];
      if (BASE64_ALPHABET.test(c)) continue;
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== '=' || j < 2) throw illegal(si - 1);
      if (j === 2) {
        // "==" is expected; the first "=" is consumed.
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) throw illegal(src.length);
        if (src[si] !== '=') throw illegal(si - 1);
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) throw illegal(si);
      break quanta;
    }
  }
  return Buffer.from(src.replace(/[\r\n]/g, ''), 'base64');
}

/**
 * Reads a `{id: [aliases]}` file, or its base64 content (which takes precedence). A missing
 * default file is ignored (undefined); a missing explicit one is an error.
 */
export function readAliasesFile(path: string, explicit: boolean, content: string, what: 'chain' | 'vm'): unknown | undefined {
  let text: string;
  if (content) {
    try {
      text = decodeStdBase64(content).toString('utf8');
    } catch (e) {
      throw new Error(`unable to decode base64 content for ${what} aliases: ${(e as Error).message}`);
    }
  } else {
    // AvalancheGo's storage.FileExists: a directory is no file either.
    if (!isFile(path)) {
      if (explicit) throw new Error(`file does not exist: ${path}`);
      return undefined;
    }
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new Error(goPathError('open', path, e)); // os.ReadFile's error, e.g. `open <path>: permission denied`
    }
  }
  try {
    return parseJsonGoErrors(text); // Go's json.Unmarshal texts, not V8's
  } catch (e) {
    throw new Error(`unmarshalling failed on ${what} aliases: ${(e as Error).message}`);
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
