// The key directory as go-ethereum's accounts/keystore.KeyStore keeps it: the account cache (one
// account per key file, by the file's `address` field; files re-read when they change), new and
// imported keys written as geth writes them, and unlocked keys with their expiry timers.
import { goPathError } from '../../goPathError.js';
import { closeSync, existsSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import { parseFirstValue } from '../rpc/server.js';
import {
  ERR_ACCOUNT_ALREADY_EXISTS,
  ERR_NO_MATCH,
  KeystoreError,
  STANDARD_SCRYPT_N,
  STANDARD_SCRYPT_P,
  decryptKey,
  encryptKey,
  hexToAddress,
  keyFileName,
  keyFromPrivate,
  newRandomKey,
  verifyKeyFile,
  type Key,
} from './keyfile.js';

/** An account of the key directory: lower-case 0x address and the key file's absolute path. */
export interface KeyAccount {
  address: string;
  path: string;
}

/** The URL geth gives a key file's account and wallet: `keystore://` + the absolute path. */
export const keystoreURL = (path: string): string => `keystore://${path}`;

export interface KeyStoreOptions {
  /** The key directory (absolute); undefined = an ephemeral directory, created when first written. */
  dir?: string;
  /** Prefix of the ephemeral directory's name in the OS temp folder. */
  ephemeralPrefix?: string;
  scryptN?: number;
  scryptP?: number;
}

interface Unlocked {
  key: Uint8Array;
  /** Cancels the expiry (undefined: unlocked until locked or shut down). */
  cancel?: () => void;
}

interface CachedFile {
  mtimeMs: number;
  size: number;
  ino: number;
  /** The account the file names, undefined if it names none (unparsable, no or zero address). */
  address?: string;
}

/** setTimeout for any delay (Node's timers overflow past 2^31-1 ms); unref'd. */
function longTimer(ms: number, fire: () => void): () => void {
  const MAX = 2 ** 31 - 1;
  let handle: NodeJS.Timeout;
  const due = Date.now() + ms;
  const arm = (left: number) => {
    handle = setTimeout(() => {
      const rest = due - Date.now();
      if (rest > 0) arm(rest);
      else fire();
    }, Math.min(MAX, Math.max(0, left)));
    handle.unref();
  };
  arm(ms);
  return () => clearTimeout(handle);
}

/** Ephemeral key directories of this process, removed at exit if not closed before. */
const ephemeralDirs = new Set<string>();
let exitHook = false;

function registerEphemeral(dir: string): void {
  ephemeralDirs.add(dir);
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const d of ephemeralDirs) rmSync(d, { recursive: true, force: true });
  });
}

/** geth's nonKeyFile: editor backups, hidden files, directories and special files are skipped. */
function skipFile(name: string): boolean {
  return name.endsWith('~') || name.startsWith('.');
}

export class KeyStore {
  private dirPath?: string;
  private readonly ephemeral: boolean;
  private readonly ephemeralPrefix: string;
  readonly scryptN: number;
  readonly scryptP: number;
  private readonly files = new Map<string, CachedFile>();
  private all: KeyAccount[] = [];
  private readonly unlocked = new Map<string, Unlocked>();
  /** geth's importMu: one import at a time (the duplicate check and the write). */
  private importing: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(opts: KeyStoreOptions = {}) {
    this.dirPath = opts.dir;
    this.ephemeral = opts.dir === undefined;
    this.ephemeralPrefix = opts.ephemeralPrefix ?? 'subnet-evm-keystore';
    this.scryptN = opts.scryptN ?? STANDARD_SCRYPT_N;
    this.scryptP = opts.scryptP ?? STANDARD_SCRYPT_P;
    if (opts.dir !== undefined) mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  }

  /** The key directory; an ephemeral one is only made when a key is first written. */
  get dir(): string | undefined {
    return this.dirPath;
  }

  get isEphemeral(): boolean {
    return this.ephemeral;
  }

  private ensureDir(): string {
    if (this.dirPath === undefined) {
      this.dirPath = mkdtempSync(join(tmpdir(), this.ephemeralPrefix));
      registerEphemeral(this.dirPath);
    }
    mkdirSync(this.dirPath, { recursive: true, mode: 0o700 });
    return this.dirPath;
  }

  // --- the account cache ------------------------------------------------------------------------

  /**
   * Re-reads the directory (geth watches it; a read per request sees changes at once): files
   * added, changed (mtime, size or inode) or removed since the last look.
   */
  private scan(): void {
    const dir = this.dirPath;
    if (dir === undefined) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      entries = [];
    }
    const seen = new Set<string>();
    let changed = false;
    for (const e of entries) {
      if (skipFile(e.name) || !e.isFile()) continue;
      const path = join(dir, e.name);
      let st;
      try {
        st = statSync(path);
      } catch {
        continue;
      }
      seen.add(path);
      const old = this.files.get(path);
      if (old && old.mtimeMs === st.mtimeMs && old.size === st.size && old.ino === st.ino) continue;
      this.files.set(path, { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino, address: readAddress(path) });
      changed = true;
    }
    for (const path of [...this.files.keys()]) {
      if (!seen.has(path)) {
        this.files.delete(path);
        changed = true;
      }
    }
    if (changed) {
      const all: KeyAccount[] = [];
      for (const [path, f] of this.files) if (f.address) all.push({ address: f.address, path });
      // geth sorts by URL: the path, compared bytewise.
      all.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
      this.all = all;
    }
  }

  /** Every account, sorted by file path (geth's order). */
  accounts(): KeyAccount[] {
    this.scan();
    return this.all.slice();
  }

  hasAddress(address: string): boolean {
    this.scan();
    return this.all.some((a) => a.address === address);
  }

  /**
   * accountCache.find: by address (and file, when `path` is given: a bare file name is taken in
   * the key directory). No file → `no key for given address or file`; several →
   * `multiple keys match address (<files>)`.
   */
  find(address: string | undefined, path?: string): KeyAccount {
    this.scan();
    let matches = address !== undefined ? this.all.filter((a) => a.address === address) : this.all;
    if (path !== undefined && path !== '') {
      const full = path.includes(sep) || this.dirPath === undefined ? path : join(this.dirPath, path);
      const hit = matches.find((a) => a.path === full);
      if (hit) return hit;
      if (address === undefined) throw new KeystoreError(ERR_NO_MATCH);
    }
    if (matches.length === 1) return matches[0];
    if (matches.length === 0) throw new KeystoreError(ERR_NO_MATCH);
    matches = matches.slice();
    throw new KeystoreError(`multiple keys match address (${matches.map((a) => a.path).join(', ')})`);
  }

  // --- keys ---------------------------------------------------------------------------------------

  /** getDecryptedKey: the account's file decrypted with `auth` (and checked against the address). */
  async decryptedKey(address: string, auth: string): Promise<Key> {
    const a = this.find(address);
    let json: string;
    try {
      json = readFileSync(a.path, 'utf8');
    } catch (e) {
      throw new KeystoreError(goPathError('open', a.path, e));
    }
    const key = await decryptKey(json, auth);
    if (key.address !== a.address) throw new KeystoreError(`key content mismatch: have account ${key.address.slice(2)}, want ${a.address.slice(2)}`);
    return key;
  }

  /** The unlocked key of `address`, if any. */
  unlockedKey(address: string): Uint8Array | undefined {
    return this.unlocked.get(address)?.key;
  }

  isUnlocked(address: string): boolean {
    return this.unlocked.has(address);
  }

  /**
   * TimedUnlock: decrypt, then keep the key for `ms` (0 = until locked). An account unlocked
   * without a timeout stays so (a timed unlock of it changes nothing); a timed one gets the new
   * timeout.
   */
  async timedUnlock(address: string, auth: string, ms: number): Promise<void> {
    const key = await this.decryptedKey(address, auth);
    if (this.closed) return;
    const u = this.unlocked.get(key.address);
    if (u) {
      if (!u.cancel) return;
      u.cancel();
    }
    const entry: Unlocked = { key: key.privateKey };
    if (ms > 0) {
      entry.cancel = longTimer(ms, () => {
        if (this.unlocked.get(key.address) === entry) this.drop(key.address);
      });
    }
    this.unlocked.set(key.address, entry);
  }

  /** Lock: forgets the unlocked key (nothing to do if it is not unlocked). */
  lock(address: string): void {
    if (this.unlocked.has(address)) this.drop(address);
  }

  private drop(address: string): void {
    const u = this.unlocked.get(address);
    if (!u) return;
    u.cancel?.();
    u.key.fill(0);
    this.unlocked.delete(address);
  }

  /** NewAccount: a random key, written encrypted with `auth`. */
  async newAccount(auth: string): Promise<KeyAccount> {
    return this.store(newRandomKey(), auth);
  }

  /** ImportECDSA: `account already exists` if a key file names the address already. */
  importKey(priv: Uint8Array, auth: string): Promise<KeyAccount> {
    const run = this.importing.then(() => {
      const key = keyFromPrivate(priv);
      if (this.hasAddress(key.address)) throw new KeystoreError(ERR_ACCOUNT_ALREADY_EXISTS);
      return this.store(key, auth);
    });
    this.importing = run.catch(() => undefined);
    return run;
  }

  /**
   * StoreKey: encrypt, write a hidden temporary file (mode 0600) in the directory, check it, and
   * rename it to `UTC--<time>--<address>`.
   */
  private async store(key: Key, auth: string): Promise<KeyAccount> {
    const { json, derived } = await encryptKey(key, auth, this.scryptN, this.scryptP);
    const dir = this.ensureDir();
    const path = join(dir, keyFileName(key.address));
    const tmp = join(dirname(path), `.${basename(path)}.tmp${randomBytes(5).readUInt32BE(0)}`);
    try {
      const fd = openSync(tmp, 'wx', 0o600);
      try {
        writeSync(fd, json);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      verifyKeyFile(readFileSync(tmp, 'utf8'), derived, key);
      renameSync(tmp, path);
    } catch (e) {
      if (existsSync(tmp)) unlinkSync(tmp);
      if (e instanceof KeystoreError) throw e;
      throw new KeystoreError(goPathError('open', tmp, e));
    }
    this.scan();
    return { address: key.address, path };
  }

  /** Drops every unlocked key and their timers; removes an ephemeral directory. */
  close(): void {
    this.closed = true;
    for (const a of [...this.unlocked.keys()]) this.drop(a);
    if (this.ephemeral && this.dirPath !== undefined) {
      rmSync(this.dirPath, { recursive: true, force: true });
      ephemeralDirs.delete(this.dirPath);
    }
  }
}

/** The account a key file names: its `address` field (common.HexToAddress), if non-zero. */
function readAddress(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  let v: unknown;
  try {
    v = parseFirstValue(text);
  } catch {
    return undefined;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  let addr: unknown;
  for (const k of Object.keys(v)) if (k.toLowerCase() === 'address') addr = (v as Record<string, unknown>)[k];
  if ('address' in v) addr = (v as Record<string, unknown>).address;
  if (typeof addr !== 'string') return undefined;
  const a = hexToAddress(addr);
  return /^0x0{40}$/.test(a) ? undefined : a;
}

