// The chain's account manager (go-ethereum accounts.Manager): the wallets eth_accounts,
// eth_sendTransaction, eth_sign and the personal_* methods see.
//
// Two backends: the dev chain's prefunded accounts (one always-unlocked wallet each, URL
// `dev://<address>`, listed first, in their order), then the key directory's accounts (one
// wallet per key file, URL `keystore://<path>`, sorted by path, as geth lists them).
import { KeyStore, keystoreURL } from './keystore.js';
import { ERR_LOCKED, ERR_NOT_SUPPORTED, ERR_UNKNOWN_ACCOUNT, ERR_UNKNOWN_WALLET, KeystoreError } from './keyfile.js';

export interface WalletAccount {
  address: string;
  url: string;
}

/** personal_listWallets' entry (geth's rawWallet; `failure` is never set by these wallets). */
export interface WalletInfo {
  url: string;
  status: 'Locked' | 'Unlocked';
  accounts: WalletAccount[];
}

export type Wallet =
  | { kind: 'dev'; url: string; address: string; key: Uint8Array }
  | { kind: 'keystore'; url: string; address: string; path: string };

export const DEV_SCHEME = 'dev';

export class AccountManager {
  /** Dev accounts: lower-case address → private key, in the chain's order. */
  private readonly dev: Map<string, Uint8Array>;

  constructor(
    dev: Map<string, Uint8Array>,
    readonly keystore: KeyStore,
  ) {
    this.dev = dev;
  }

  /** Every wallet, dev ones first. */
  wallets(): Wallet[] {
    const out: Wallet[] = [];
    for (const [address, key] of this.dev) out.push({ kind: 'dev', url: `${DEV_SCHEME}://${address}`, address, key });
    for (const a of this.keystore.accounts()) out.push({ kind: 'keystore', url: keystoreURL(a.path), address: a.address, path: a.path });
    return out;
  }

  /** am.Accounts(): every wallet's address (lower-case), duplicates included. */
  accounts(): string[] {
    const out = [...this.dev.keys()];
    for (const a of this.keystore.accounts()) out.push(a.address);
    return out;
  }

  /** personal_listWallets. */
  walletInfos(): WalletInfo[] {
    return this.wallets().map((w) => ({
      url: w.url,
      status: w.kind === 'dev' || this.keystore.isUnlocked(w.address) ? 'Unlocked' : 'Locked',
      accounts: [{ address: w.address, url: w.url }],
    }));
  }

  /** am.Find: the first wallet holding `address`, or undefined. */
  lookup(address: string): Wallet | undefined {
    const key = this.dev.get(address);
    if (key) return { kind: 'dev', url: `${DEV_SCHEME}://${address}`, address, key };
    const a = this.keystore.accounts().find((x) => x.address === address);
    return a && { kind: 'keystore', url: keystoreURL(a.path), address, path: a.path };
  }

  /** am.Find: `unknown account` when no wallet holds the address. */
  find(address: string): Wallet {
    const w = this.lookup(address);
    if (!w) throw new KeystoreError(ERR_UNKNOWN_ACCOUNT);
    return w;
  }

  /** am.Wallet(url): `protocol scheme missing` for a URL without `://`, `unknown wallet`. */
  wallet(url: string): Wallet {
    const parts = url.split('://');
    if (parts.length !== 2 || parts[0] === '') throw new KeystoreError('protocol scheme missing');
    const w = this.wallets().find((x) => x.url === `${parts[0]}://${parts[1]}`);
    if (!w) throw new KeystoreError(ERR_UNKNOWN_WALLET);
    return w;
  }

  /**
   * The key a wallet signs with without a password (wallet.SignTx / SignText): a dev key, or
   * the keystore key while unlocked (`authentication needed: password or unlock` otherwise).
   */
  unlockedKey(w: Wallet): Uint8Array {
    if (w.kind === 'dev') return w.key;
    const key = this.keystore.unlockedKey(w.address);
    if (!key) throw new KeystoreError(ERR_LOCKED);
    return key;
  }

  /**
   * The key for the *WithPassphrase signing calls: a keystore key decrypted with `auth` (not
   * kept); a dev key whatever the password (they are unlocked for good).
   */
  async keyWithPassphrase(w: Wallet, auth: string): Promise<Uint8Array> {
    if (w.kind === 'dev') return w.key;
    return (await this.keystore.decryptedKey(w.address, auth)).privateKey;
  }

  /** wallet.Derive: neither kind of wallet derives accounts. */
  derive(_w: Wallet): never {
    throw new KeystoreError(ERR_NOT_SUPPORTED);
  }

  isDev(address: string): boolean {
    return this.dev.has(address);
  }
}
