// The dev chain's prefunded accounts: BIP-39 seed + BIP-32/BIP-44 (m/44'/60'/0'/0/i) derivation
// of the well-known test mnemonic, plus the well-known Avalanche local key "ewoq".
import { createECDH, createHmac, pbkdf2Sync } from 'node:crypto';
import { keccak256 } from '../crypto.js';

export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
/** Avalanche's well-known local-network key (address 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC). */
export const EWOQ_PRIVATE_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
export const DEV_ACCOUNT_COUNT = 10;

export interface DevAccount {
  address: string; // EIP-55 checksummed
  privateKey: string; // 0x hex
}

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function toBig(b: Uint8Array): bigint {
  return BigInt('0x' + (Buffer.from(b).toString('hex') || '0'));
}
function to32(x: bigint): Uint8Array {
  return Buffer.from(x.toString(16).padStart(64, '0'), 'hex');
}

/** secp256k1 public key (SEC1) through node:crypto — OpenSSL is loaded anyway, the addon is not. */
function publicKey(priv: Uint8Array, compressed: boolean): Uint8Array {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(priv);
  return ecdh.getPublicKey(null, compressed ? 'compressed' : 'uncompressed');
}

/** BIP-39 seed (no passphrase). */
export function mnemonicToSeed(mnemonic: string, passphrase = ''): Uint8Array {
  return pbkdf2Sync(Buffer.from(mnemonic.normalize('NFKD')), Buffer.from(('mnemonic' + passphrase).normalize('NFKD')), 2048, 64, 'sha512');
}

/** A BIP-32 extended private key: the key and its chain code. */
interface ExtendedKey {
  key: Uint8Array;
  chain: Uint8Array;
}

function masterKey(seed: Uint8Array): ExtendedKey {
  const I = createHmac('sha512', 'Bitcoin seed').update(seed).digest();
  return { key: I.subarray(0, 32), chain: I.subarray(32) };
}

/** BIP-32 CKDpriv: the child `part` ("44'", "0", ...) of `parent`. */
function childKey(parent: ExtendedKey, part: string): ExtendedKey {
  const hardened = part.endsWith("'");
  const index = Number.parseInt(hardened ? part.slice(0, -1) : part, 10) + (hardened ? 0x80000000 : 0);
  const data = Buffer.alloc(37);
  if (hardened) Buffer.from(parent.key).copy(data, 1);
  else Buffer.from(publicKey(parent.key, true)).copy(data, 0);
  data.writeUInt32BE(index >>> 0, 33);
  const I = createHmac('sha512', parent.chain).update(data).digest();
  return { key: Buffer.from(to32((toBig(I.subarray(0, 32)) + toBig(parent.key)) % N)), chain: I.subarray(32) };
}

function derive(from: ExtendedKey, parts: string[]): ExtendedKey {
  let k = from;
  for (const part of parts) k = childKey(k, part);
  return k;
}

/** BIP-32 private key at `path` (e.g. m/44'/60'/0'/0/0). */
export function derivePrivateKey(seed: Uint8Array, path: string): Uint8Array {
  const parts = path.split('/');
  if (parts[0] !== 'm') throw new Error(`invalid derivation path ${path}`);
  return derive(masterKey(seed), parts.slice(1)).key;
}

export function checksumAddress(addrHex: string): string {
  const a = addrHex.toLowerCase().replace(/^0x/, '');
  const h = Buffer.from(keccak256(Buffer.from(a, 'ascii'))).toString('hex');
  let out = '0x';
  for (let i = 0; i < 40; i++) out += parseInt(h[i], 16) >= 8 ? a[i].toUpperCase() : a[i];
  return out;
}

export function privateKeyToAddress(priv: Uint8Array): string {
  const pub = publicKey(priv, false).subarray(1);
  return checksumAddress(Buffer.from(keccak256(pub).subarray(12)).toString('hex'));
}

/**
 * Derived account lists by mnemonic and count. The derivation is pure and runs at every start (the
 * default genesis and the chain both need it), so it is done once; callers get fresh copies.
 */
const derived = new Map<string, readonly DevAccount[]>();
const MAX_CACHED = 16;

/** The 10 mnemonic accounts followed by the ewoq key. */
export function devAccounts(mnemonic = DEV_MNEMONIC, count = DEV_ACCOUNT_COUNT): DevAccount[] {
  const key = `${count}\u0000${mnemonic}`;
  let list = derived.get(key);
  if (!list) {
    list = deriveDevAccounts(mnemonic, count);
    if (derived.size >= MAX_CACHED) derived.delete(derived.keys().next().value!);
    derived.set(key, list);
  }
  return list.map((a) => ({ ...a }));
}

function deriveDevAccounts(mnemonic: string, count: number): DevAccount[] {
  const out: DevAccount[] = [];
  if (count > 0) {
    // m/44'/60'/0'/0 once, then only the last level per account.
    const parent = derive(masterKey(mnemonicToSeed(mnemonic)), ["44'", "60'", "0'", '0']);
    for (let i = 0; i < count; i++) {
      const k = childKey(parent, String(i)).key;
      out.push({ address: privateKeyToAddress(k), privateKey: '0x' + Buffer.from(k).toString('hex') });
    }
  }
  const ewoq = Buffer.from(EWOQ_PRIVATE_KEY.slice(2), 'hex');
  out.push({ address: privateKeyToAddress(ewoq), privateKey: EWOQ_PRIVATE_KEY });
  return out;
}
