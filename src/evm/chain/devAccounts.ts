// The dev chain's prefunded accounts: BIP-39 seed + BIP-32/BIP-44 (m/44'/60'/0'/0/i) derivation
// of the well-known test mnemonic, plus the well-known Avalanche local key "ewoq".
import { createECDH, createHmac, pbkdf2Sync } from 'node:crypto';
import { keccak256 } from '../crypto.js';

export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
/** Avalanche's well-known local-network key (address 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC). */
export const EWOQ_PRIVATE_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const EWOQ_ADDRESS = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
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

/**
 * The first ten accounts of DEV_MNEMONIC (the well-known Hardhat/Anvil test accounts), as the
 * derivation below gives them (a test checks it): deriving them took ~15 ms of every cold start,
 * two OpenSSL EC multiplications per account.
 */
const KNOWN_DEV_ACCOUNTS: readonly (readonly [string, string])[] = [
  ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'],
  ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8', '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'],
  ['0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'],
  ['0x90F79bf6EB2c4f870365E785982E1f101E93b906', '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6'],
  ['0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65', '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a'],
  ['0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc', '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba'],
  ['0x976EA74026E726554dB657fA54763abd0C3a0aa9', '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e'],
  ['0x14dC79964da2C08b23698B3D3cc7Ca32193d9955', '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356'],
  ['0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f', '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97'],
  ['0xa0Ee7A142d267C1f36714E4a8F75612F20a79720', '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6'],
];

function deriveDevAccounts(mnemonic: string, count: number): DevAccount[] {
  if (mnemonic === DEV_MNEMONIC && count <= KNOWN_DEV_ACCOUNTS.length) {
    const known = KNOWN_DEV_ACCOUNTS.slice(0, count).map(([address, privateKey]) => ({ address, privateKey }));
    return [...known, { address: EWOQ_ADDRESS, privateKey: EWOQ_PRIVATE_KEY }];
  }
  return deriveFromMnemonic(mnemonic, count);
}

/** The BIP-44 derivation itself (exported for the test that checks the table above). */
export function deriveFromMnemonic(mnemonic: string, count: number): DevAccount[] {
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
