// Web3 Secret Storage key files as go-ethereum's accounts/keystore writes and reads them
// (key.go, passphrase.go, presale-free): version 3 (scrypt or pbkdf2 KDF, aes-128-ctr, keccak-256
// MAC) and the legacy version 1 (scrypt, aes-128-cbc). Errors carry geth's texts; a malformed file
// that makes geth panic (a missing kdf parameter, a bad IV length) throws a plain Error, which the
// RPC server answers as geth's panic guard does (-32603 `method handler crashed`).
import { createCipheriv, createDecipheriv, createECDH, pbkdf2, randomBytes, randomUUID, scrypt } from 'node:crypto';
import { scryptAsync as nobleScrypt } from '@noble/hashes/scrypt.js';
import { keccak256 } from '../crypto.js';
import { parseJsonGoErrors } from '../config/json.js';

/** An error geth returns (answered as -32000 with this text). */
export class KeystoreError extends Error {}

// accounts/keystore/keystore.go and accounts/errors.go
export const ERR_LOCKED = 'authentication needed: password or unlock';
export const ERR_NO_MATCH = 'no key for given address or file';
export const ERR_DECRYPT = 'could not decrypt key with given password';
export const ERR_ACCOUNT_ALREADY_EXISTS = 'account already exists';
export const ERR_UNKNOWN_ACCOUNT = 'unknown account';
export const ERR_UNKNOWN_WALLET = 'unknown wallet';
export const ERR_NOT_SUPPORTED = 'not supported';

// keystore/passphrase.go
/** geth's StandardScryptN / StandardScryptP: what `personal_newAccount` and imports use. */
export const STANDARD_SCRYPT_N = 1 << 18;
export const STANDARD_SCRYPT_P = 1;
/** geth's LightScryptN / LightScryptP (`--lightkdf`). */
export const LIGHT_SCRYPT_N = 1 << 12;
export const LIGHT_SCRYPT_P = 6;
const SCRYPT_R = 8;
const SCRYPT_DKLEN = 32;

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** A decrypted key: the 32-byte secret, its address (lower-case 0x) and the file's UUID. */
export interface Key {
  id: string;
  address: string;
  privateKey: Uint8Array;
}

// --- KDF work: on the thread pool, at most two at a time (a standard scrypt holds 256 MiB) ---

let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(f: () => Promise<T>): Promise<T> {
  if (running >= 2) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await f();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** golang.org/x/crypto/scrypt.Key, with its parameter checks and texts. */
export function scryptKey(password: Uint8Array, salt: Uint8Array, N: number, r: number, p: number, dkLen: number): Promise<Buffer> {
  if (!(N > 1) || !Number.isInteger(N) || (N & (N - 1)) !== 0 || N > 2 ** 31) return Promise.reject(new KeystoreError('scrypt: N must be > 1 and a power of 2'));
  const maxInt = 2 ** 63 - 1;
  if (r * p >= 2 ** 30 || r > maxInt / 128 / p || r > maxInt / 256 || N > maxInt / 128 / r || r < 1 || p < 1) {
    return Promise.reject(new KeystoreError('scrypt: parameters are too large'));
  }
  // What Go would allocate; beyond 2 GiB a dev node refuses rather than exhausting its memory.
  const mem = 128 * r * (N + p) + 1024 * 1024;
  if (mem > 2 ** 31) return Promise.reject(new KeystoreError('scrypt: parameters are too large'));
  // OpenSSL follows RFC 7914 and refuses N ≥ 2^(16·r) (e.g. the Web3 Secret Storage test vector's
  // N = 2^18, r = 1), which Go's scrypt computes: those go to @noble/hashes (pure JS, ~3× slower).
  if (r === 1 && N >= 2 ** 16) {
    return limited(async () => Buffer.from(await nobleScrypt(password, salt, { N, r, p, dkLen, maxmem: mem })));
  }
  return limited(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password, salt, dkLen, { N, r, p, maxmem: mem }, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

function pbkdf2Key(password: Uint8Array, salt: Uint8Array, iter: number, dkLen: number): Promise<Buffer> {
  // Go's pbkdf2.Key computes one round for any count below 2.
  return limited(() => new Promise<Buffer>((resolve, reject) => pbkdf2(password, salt, Math.max(1, iter), dkLen, 'sha256', (err, key) => (err ? reject(err) : resolve(key)))));
}

// --- Go helpers ---------------------------------------------------------------------------------

/** Go's %q of a rune (a byte value here). */
function goQuoteRune(b: number): string {
  const escapes: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 39: "\\'", 92: '\\\\' };
  if (escapes[b]) return `'${escapes[b]}'`;
  if (b < 0x20 || b === 0x7f) return `'\\x${b.toString(16).padStart(2, '0')}'`;
  if (b >= 0x80 && b < 0xa0) return `'\\u${b.toString(16).padStart(4, '0')}'`;
  if (b === 0xad) return `'\\u00ad'`;
  return `'${String.fromCharCode(b)}'`;
}

/** Go's %#U of a rune: `U+0078 'x'`. */
function goUnicode(b: number): string {
  const u = 'U+' + b.toString(16).toUpperCase().padStart(4, '0');
  const printable = b >= 0x20 && b !== 0x7f && !(b >= 0x80 && b < 0xa0) && b !== 0xad;
  return printable ? `${u} '${String.fromCharCode(b)}'` : u;
}

const HEX_DIGIT = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/**
 * encoding/hex.DecodeString: the first bad byte (`encoding/hex: invalid byte: U+0078 'x'`) is
 * reported before an odd length (`encoding/hex: odd length hex string`). The error carries the
 * offending byte, undefined for a length error.
 */
export function goHexDecode(s: string): Uint8Array {
  const b = Buffer.from(s, 'utf8');
  for (let i = 0; i + 1 < b.length; i += 2) {
    if (!HEX_DIGIT(b[i])) throw Object.assign(new KeystoreError(`encoding/hex: invalid byte: ${goUnicode(b[i])}`), { byte: b[i] });
    if (!HEX_DIGIT(b[i + 1])) throw Object.assign(new KeystoreError(`encoding/hex: invalid byte: ${goUnicode(b[i + 1])}`), { byte: b[i + 1] });
  }
  if (b.length % 2 === 1) {
    if (!HEX_DIGIT(b[b.length - 1])) throw Object.assign(new KeystoreError(`encoding/hex: invalid byte: ${goUnicode(b[b.length - 1])}`), { byte: b[b.length - 1] });
    throw new KeystoreError('encoding/hex: odd length hex string');
  }
  return Buffer.from(b.toString('latin1'), 'hex');
}

/** crypto.ToECDSA's checks (strict): 32 bytes, 0 < d < N. */
function checkPrivateKey(d: Uint8Array): void {
  if (d.length !== 32) throw new KeystoreError('invalid length, need 256 bits');
  const v = BigInt('0x' + (Buffer.from(d).toString('hex') || '0'));
  if (v >= SECP256K1_N) throw new KeystoreError('invalid private key, >=N');
  if (v <= 0n) throw new KeystoreError('invalid private key, zero or negative');
}

/** crypto.HexToECDSA: a private key as hex without 0x (geth's texts for bad input). */
export function hexToPrivateKey(hexkey: string): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = goHexDecode(hexkey);
  } catch (e) {
    const bad = (e as { byte?: number }).byte;
    if (bad !== undefined) throw new KeystoreError(`invalid hex character ${goQuoteRune(bad)} in private key`);
    throw new KeystoreError('invalid hex data for private key');
  }
  checkPrivateKey(bytes);
  return bytes;
}

/** The address (lower-case 0x) of a secp256k1 private key. */
export function privateKeyToAddress(priv: Uint8Array): string {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(priv);
  const pub = ecdh.getPublicKey(null, 'uncompressed');
  return '0x' + Buffer.from(keccak256(pub.subarray(1))).subarray(12).toString('hex');
}

/** common.HexToAddress: lenient (0x optional, odd length padded, the last 20 bytes kept). */
export function hexToAddress(s: string): string {
  let h = s.startsWith('0x') || s.startsWith('0X') ? s.slice(2) : s;
  if (h.length % 2 === 1) h = '0' + h;
  // hex.DecodeString keeps what it decoded before a bad byte.
  let bytes = '';
  for (let i = 0; i + 1 < h.length; i += 2) {
    if (!HEX_DIGIT(h.charCodeAt(i)) || !HEX_DIGIT(h.charCodeAt(i + 1))) break;
    bytes += h.slice(i, i + 2);
  }
  return '0x' + bytes.toLowerCase().slice(-40).padStart(40, '0');
}

/** google/uuid.Parse → the 16 bytes (only their validity matters here). */
export function parseUUID(s: string): void {
  let t = s;
  switch (t.length) {
    case 36:
      break;
    case 36 + 9:
      if (t.slice(0, 9).toLowerCase() !== 'urn:uuid:') throw new KeystoreError(`invalid urn prefix: ${JSON.stringify(t.slice(0, 9))}`);
      t = t.slice(9);
      break;
    case 36 + 2:
      t = t.slice(1, -1);
      break;
    case 32:
      if (!/^[0-9a-fA-F]{32}$/.test(t)) throw new KeystoreError('invalid UUID format');
      return;
    default:
      throw new KeystoreError(`invalid UUID length: ${Buffer.byteLength(s)}`);
  }
  if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(t)) throw new KeystoreError('invalid UUID format');
}

// --- Go's decoding of the key file structs ------------------------------------------------------

type Obj = Record<string, unknown>;

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  return typeof v === 'string' ? 'string' : 'object';
}

/** Go's case-insensitive field lookup (an exact match wins). */
function field(o: Obj, name: string): unknown {
  if (Object.prototype.hasOwnProperty.call(o, name)) return o[name];
  let found: unknown;
  for (const k of Object.keys(o)) if (k.toLowerCase() === name.toLowerCase()) found = o[k];
  return found;
}

class StructDecoder {
  error?: string;
  constructor(private readonly root: string) {}

  private fail(value: string, struct: string, path: string, type: string): void {
    this.error ??= `json: cannot unmarshal ${value} into Go struct field ${struct}.${path} of type ${type}`;
  }

  str(o: Obj, name: string, struct: string, path: string): string {
    const v = field(o, name);
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') {
      this.fail(kind(v), struct, path, 'string');
      return '';
    }
    return v;
  }

  int(o: Obj, name: string, struct: string, path: string): number {
    const v = field(o, name);
    if (v === undefined || v === null) return 0;
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      this.fail(typeof v === 'number' ? `number ${v}` : kind(v), struct, path, 'int');
      return 0;
    }
    return v;
  }

  obj(o: Obj, name: string, struct: string, path: string, type: string): Obj | undefined {
    const v = field(o, name);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'object' || Array.isArray(v)) {
      this.fail(kind(v), struct, path, type);
      return undefined;
    }
    return v as Obj;
  }

  done(): void {
    if (this.error) throw new KeystoreError(this.error);
    void this.root;
  }
}

interface CryptoJSON {
  cipher: string;
  ciphertext: string;
  iv: string;
  kdf: string;
  /** map[string]interface{} (undefined = nil map). */
  kdfparams?: Obj;
  mac: string;
}

function decodeCrypto(d: StructDecoder, o: Obj, struct: string, prefix: string): CryptoJSON {
  const c = d.obj(o, 'crypto', struct, prefix + 'crypto', 'keystore.CryptoJSON') ?? {};
  const p = d.obj(c, 'cipherparams', 'CryptoJSON', prefix + 'crypto.cipherparams', 'keystore.cipherparamsJSON') ?? {};
  return {
    cipher: d.str(c, 'cipher', 'CryptoJSON', prefix + 'crypto.cipher'),
    ciphertext: d.str(c, 'ciphertext', 'CryptoJSON', prefix + 'crypto.ciphertext'),
    iv: d.str(p, 'iv', 'cipherparamsJSON', prefix + 'crypto.cipherparams.iv'),
    kdf: d.str(c, 'kdf', 'CryptoJSON', prefix + 'crypto.kdf'),
    kdfparams: d.obj(c, 'kdfparams', 'CryptoJSON', prefix + 'crypto.kdfparams', 'map[string]interface {}'),
    mac: d.str(c, 'mac', 'CryptoJSON', prefix + 'crypto.mac'),
  };
}

/** geth's ensureInt: an int or a float64, anything else panics. */
function ensureInt(v: unknown, name: string): number {
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v === 'bigint') return Number(v);
  throw new Error(`interface conversion: interface {} is ${v === undefined || v === null ? 'nil' : kind(v) === 'string' ? 'string' : kind(v)}, not float64 (kdfparams.${name})`);
}

/** getKDFKey: the derived key for a CryptoJSON. */
async function kdfKey(c: CryptoJSON, auth: string): Promise<Buffer> {
  const params = c.kdfparams ?? {};
  const saltV = params.salt;
  if (typeof saltV !== 'string') throw new Error(`interface conversion: interface {} is ${saltV === undefined || saltV === null ? 'nil' : kind(saltV)}, not string (kdfparams.salt)`);
  const salt = goHexDecode(saltV);
  const dkLen = ensureInt(params.dklen, 'dklen');
  const pass = Buffer.from(auth, 'utf8');
  let key: Buffer;
  if (c.kdf === 'scrypt') {
    const n = ensureInt(params.n, 'n');
    const r = ensureInt(params.r, 'r');
    const p = ensureInt(params.p, 'p');
    if (dkLen < 0 || dkLen > 1 << 20) throw new Error(`scrypt: invalid dklen ${dkLen}`);
    key = await scryptKey(pass, salt, n, r, p, dkLen);
  } else if (c.kdf === 'pbkdf2') {
    const iter = ensureInt(params.c, 'c');
    const prf = params.prf;
    if (typeof prf !== 'string') throw new Error(`interface conversion: interface {} is ${prf === undefined || prf === null ? 'nil' : kind(prf)}, not string (kdfparams.prf)`);
    if (prf !== 'hmac-sha256') throw new KeystoreError(`unsupported PBKDF2 PRF: ${prf}`);
    if (dkLen < 0 || dkLen > 1 << 20) throw new Error(`pbkdf2: invalid dklen ${dkLen}`);
    key = await pbkdf2Key(pass, salt, iter, dkLen);
  } else {
    throw new KeystoreError(`unsupported KDF: ${c.kdf}`);
  }
  // geth slices derivedKey[16:32] next: a shorter key panics there.
  if (key.length < 32) throw new Error(`runtime error: slice bounds out of range [:32] with capacity ${key.length}`);
  return key;
}

function aes(mode: 'aes-128-ctr' | 'aes-128-cbc', key: Uint8Array, iv: Uint8Array, data: Uint8Array, decrypt: boolean): Buffer {
  if (iv.length !== 16) throw new Error(mode === 'aes-128-ctr' ? 'cipher.NewCTR: IV length must equal block size' : 'cipher.NewCBCDecrypter: IV length must equal block size');
  const c = decrypt ? createDecipheriv(mode, key, iv) : createCipheriv(mode, key, iv);
  c.setAutoPadding(false);
  return Buffer.concat([c.update(data), c.final()]);
}

/** The derived key, once the MAC (keccak(derived[16:32] ‖ ciphertext)) proves the password right. */
async function macCheckedKey(c: CryptoJSON, auth: string): Promise<{ derived: Uint8Array; iv: Uint8Array; cipherText: Uint8Array }> {
  const mac = goHexDecode(c.mac);
  const iv = goHexDecode(c.iv);
  const cipherText = goHexDecode(c.ciphertext);
  const derived = await kdfKey(c, auth);
  const calculated = keccak256(Buffer.concat([derived.subarray(16, 32), cipherText]));
  if (!Buffer.from(calculated).equals(Buffer.from(mac))) throw new KeystoreError(ERR_DECRYPT);
  return { derived, iv, cipherText };
}

/** DecryptDataV3. */
async function decryptDataV3(c: CryptoJSON, auth: string): Promise<Buffer> {
  if (c.cipher !== 'aes-128-ctr') throw new KeystoreError(`cipher not supported: ${c.cipher}`);
  const { derived, iv, cipherText } = await macCheckedKey(c, auth);
  return aes('aes-128-ctr', derived.subarray(0, 16), iv, cipherText, true);
}

/** decryptKeyV1: scrypt, aes-128-cbc with PKCS#7 padding and keccak(derived[:16])[:16] as the key. */
async function decryptDataV1(c: CryptoJSON, auth: string): Promise<Buffer> {
  const { derived, iv, cipherText } = await macCheckedKey(c, auth);
  if (cipherText.length % 16 !== 0) throw new Error('crypto/cipher: input not full blocks');
  const plain = aes('aes-128-cbc', Buffer.from(keccak256(derived.subarray(0, 16))).subarray(0, 16), iv, cipherText, true);
  // pkcs7Unpad: a bad padding is ErrDecrypt.
  const pad = plain.length ? plain[plain.length - 1] : 0;
  if (plain.length === 0 || pad === 0 || pad > 16 || pad > plain.length) throw new KeystoreError(ERR_DECRYPT);
  for (let i = plain.length - pad; i < plain.length; i++) if (plain[i] !== pad) throw new KeystoreError(ERR_DECRYPT);
  return plain.subarray(0, plain.length - pad);
}

/**
 * keystore.DecryptKey: a key file's JSON (version 1 or 3) and its password → the key. Errors are
 * geth's (`could not decrypt key with given password`, `version not supported: 2`, `cipher not
 * supported: …`, `unsupported KDF: …`, `invalid key: …`, JSON decoding errors).
 */
export async function decryptKey(json: string, auth: string): Promise<Key> {
  let m: unknown;
  try {
    m = parseJsonGoErrors(json);
  } catch (e) {
    throw new KeystoreError((e as Error).message);
  }
  if (m !== null && (typeof m !== 'object' || Array.isArray(m))) throw new KeystoreError(`json: cannot unmarshal ${kind(m)} into Go value of type map[string]interface {}`);
  const o = (m ?? {}) as Obj;
  let plain: Buffer;
  let id: string;
  if (o.version === '1') {
    const d = new StructDecoder('encryptedKeyJSONV1');
    d.str(o, 'address', 'encryptedKeyJSONV1', 'address');
    const c = decodeCrypto(d, o, 'encryptedKeyJSONV1', '');
    id = d.str(o, 'id', 'encryptedKeyJSONV1', 'id');
    d.done();
    parseUUID(id);
    plain = await decryptDataV1(c, auth);
  } else {
    const d = new StructDecoder('encryptedKeyJSONV3');
    d.str(o, 'address', 'encryptedKeyJSONV3', 'address');
    const c = decodeCrypto(d, o, 'encryptedKeyJSONV3', '');
    id = d.str(o, 'id', 'encryptedKeyJSONV3', 'id');
    const version = d.int(o, 'version', 'encryptedKeyJSONV3', 'version');
    d.done();
    if (version !== 3) throw new KeystoreError(`version not supported: ${version}`);
    parseUUID(id);
    plain = await decryptDataV3(c, auth);
  }
  try {
    checkPrivateKey(plain);
  } catch (e) {
    throw new KeystoreError(`invalid key: ${(e as Error).message}`);
  }
  return { id, address: privateKeyToAddress(plain), privateKey: new Uint8Array(plain) };
}

/**
 * keystore.EncryptKey: version 3, scrypt with (N, r = 8, p), aes-128-ctr, a fresh salt and IV,
 * JSON exactly as geth's encoder writes it (field order, sorted kdfparams, no spaces). Also
 * returns the derived key, so the file written can be checked without a second scrypt run.
 */
export async function encryptKey(key: Key, auth: string, scryptN: number, scryptP: number): Promise<{ json: string; derived: Buffer }> {
  const salt = randomBytes(32);
  const derived = await scryptKey(Buffer.from(auth, 'utf8'), salt, scryptN, SCRYPT_R, scryptP, SCRYPT_DKLEN);
  const iv = randomBytes(16);
  const cipherText = aes('aes-128-ctr', derived.subarray(0, 16), iv, key.privateKey, false);
  const mac = keccak256(Buffer.concat([derived.subarray(16, 32), cipherText]));
  const file = {
    address: key.address.slice(2),
    crypto: {
      cipher: 'aes-128-ctr',
      ciphertext: cipherText.toString('hex'),
      cipherparams: { iv: iv.toString('hex') },
      kdf: 'scrypt',
      kdfparams: { dklen: SCRYPT_DKLEN, n: scryptN, p: scryptP, r: SCRYPT_R, salt: salt.toString('hex') },
      mac: Buffer.from(mac).toString('hex'),
    },
    id: key.id,
    version: 3,
  };
  return { json: JSON.stringify(file), derived };
}

/**
 * Checks a written key file with the key derived when it was encrypted: the MAC matches and the
 * plaintext is the key (geth decrypts the file again with the password; the same check without a
 * second scrypt run).
 */
export function verifyKeyFile(json: string, derived: Buffer, key: Key): void {
  const o = JSON.parse(json) as { crypto: { ciphertext: string; cipherparams: { iv: string }; mac: string } };
  const cipherText = Buffer.from(o.crypto.ciphertext, 'hex');
  const mac = keccak256(Buffer.concat([derived.subarray(16, 32), cipherText]));
  if (Buffer.from(mac).toString('hex') !== o.crypto.mac) throw new KeystoreError(ERR_DECRYPT);
  const plain = aes('aes-128-ctr', derived.subarray(0, 16), Buffer.from(o.crypto.cipherparams.iv, 'hex'), cipherText, true);
  if (!plain.equals(Buffer.from(key.privateKey))) throw new KeystoreError(`key content mismatch: have account ${privateKeyToAddress(plain).slice(2)}, want ${key.address.slice(2)}`);
}

/** newKeyFromECDSA: a fresh random UUID (v4) for a key. */
export function keyFromPrivate(priv: Uint8Array): Key {
  return { id: randomUUID(), address: privateKeyToAddress(priv), privateKey: priv };
}

/** newKey: a random secp256k1 key. */
export function newRandomKey(): Key {
  for (;;) {
    const d = randomBytes(32);
    try {
      checkPrivateKey(d);
      return keyFromPrivate(new Uint8Array(d));
    } catch {
      // out of range (probability ~2^-128): draw again
    }
  }
}

/**
 * keyFileName: `UTC--<ISO 8601 with dashes, nanoseconds>Z--<address hex>`, e.g.
 * `UTC--2024-05-01T10-20-30.123456789Z--f39fd6e51aad88f6f4ce6ab8827279cfffb92266`.
 */
export function keyFileName(address: string, now = new Date(), subMsNanos = Number(process.hrtime.bigint() % 1_000_000n)): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const nanos = now.getUTCMilliseconds() * 1_000_000 + subMsNanos;
  const ts = `${p(now.getUTCFullYear(), 4)}-${p(now.getUTCMonth() + 1)}-${p(now.getUTCDate())}T${p(now.getUTCHours())}-${p(now.getUTCMinutes())}-${p(now.getUTCSeconds())}.${p(nanos, 9)}Z`;
  return `UTC--${ts}--${address.replace(/^0x/, '').toLowerCase()}`;
}
