// The "internal-personal" service (legacy alias "internal-private-personal"): geth 1.13's
// internal/ethapi PersonalAccountAPI as Subnet-EVM registers it, over the chain's account manager
// (src/evm/keystore: the key directory, plus the dev chain's accounts). Wire reference: personal.md.
import { RpcError, type RpcMethod } from '../rpc/server.js';
import { invalidArgument, jsonKind, optBoolArg, optUint64NumberArg } from '../rpc/params.js';
import { keccak256 } from '../crypto.js';
import { nativeSecp } from '../chain/secp.js';
import { checksumAddress } from '../chain/devAccounts.js';
import { address, bytes, required } from './args.js';
import { ZERO_ADDRESS_HEX, parseCallArgs, type EvmBackend } from './backend.js';
import { checkSignTransactionArgs, isBlobTransaction, personalSign, signTransactionResult, textHash, type MethodTable } from './eth.js';
import { hexD } from './format.js';
import { KeystoreError, hexToPrivateKey } from '../keystore/keyfile.js';

/** Subnet-EVM's node.Config.ExtRPCEnabled(): always false, so insecure unlock is never refused. */
const EXT_RPC_ENABLED = false;
/** geth's default unlock duration (seconds). */
const DEFAULT_UNLOCK_SECONDS = 300n;
/** time.Duration(math.MaxInt64) / time.Second. */
const MAX_UNLOCK_SECONDS = 9_223_372_036n;

/** A Go `string` argument: required; null decodes to "". */
function str(p: unknown[], i: number): string {
  const v = required(p, i);
  if (v === null) return '';
  if (typeof v !== 'string') throw invalidArgument(i, `json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
  return v;
}

/** A Go `*string` argument: absent or null → undefined. */
function optStr(p: unknown[], i: number): string | undefined {
  const v = p[i];
  if (v === undefined || v === null) return undefined;
  return str(p, i);
}

/** geth's errors (the account manager's and the keystore's) → -32000; anything else as thrown. */
function gethErrors(m: RpcMethod): RpcMethod {
  const map = (e: unknown): never => {
    if (e instanceof KeystoreError) throw new RpcError(-32000, e.message);
    throw e;
  };
  return (params, ctx) => {
    try {
      const r = m(params, ctx);
      return r instanceof Promise ? r.catch(map) : r;
    } catch (e) {
      return map(e);
    }
  };
}

/** Go's big.Int.SetString(s, 0): sign, 0x/0b/0o/0 prefixes, `_` between digits. */
function goParseInt(s: string): bigint | undefined {
  let t = s;
  let neg = false;
  if (t[0] === '+' || t[0] === '-') {
    neg = t[0] === '-';
    t = t.slice(1);
  }
  let base = 10;
  let prefixed = false;
  if (/^0[xX]/.test(t)) [base, t, prefixed] = [16, t.slice(2), true];
  else if (/^0[bB]/.test(t)) [base, t, prefixed] = [2, t.slice(2), true];
  else if (/^0[oO]/.test(t)) [base, t, prefixed] = [8, t.slice(2), true];
  else if (t.length > 1 && t[0] === '0') [base, t, prefixed] = [8, t.slice(1), true];
  if (t.includes('_')) {
    if (t.endsWith('_') || t.includes('__') || (t.startsWith('_') && !prefixed)) return undefined;
    t = t.replace(/_/g, '');
  }
  if (t === '') return undefined;
  const digits = '0123456789abcdef'.slice(0, base);
  let n = 0n;
  for (const c of t.toLowerCase()) {
    const d = digits.indexOf(c);
    if (d < 0) return undefined;
    n = n * BigInt(base) + BigInt(d);
  }
  return neg ? -n : n;
}

/** accounts.ParseDerivationPath's checks and texts (the path itself is not needed afterwards). */
export function checkDerivationPath(path: string): void {
  let components = path.split('/');
  const first = components[0].trim();
  if (first === '') throw new KeystoreError("ambiguous path: use 'm/' prefix for absolute paths, or no leading '/' for relative ones");
  if (first === 'm') components = components.slice(1);
  if (components.length === 0) throw new KeystoreError('empty derivation path');
  for (let component of components) {
    component = component.trim();
    let hardened = 0n;
    if (component.endsWith("'")) {
      hardened = 0x80000000n;
      component = component.slice(0, -1).trim();
    }
    const v = goParseInt(component);
    if (v === undefined) throw new KeystoreError(`invalid component: ${component}`);
    const max = 0xffffffffn - hardened;
    if (v < 0n || v > max) {
      throw new KeystoreError(hardened === 0n ? `component ${v} out of allowed range [0, ${max}]` : `component ${v} out of allowed hardened range [0, ${max}]`);
    }
  }
}

export function personalMethods(be: EvmBackend): MethodTable {
  const am = be.accountManager;
  const ks = am.keystore;
  const m: MethodTable = new Map();

  m.set('personal_listAccounts', () => am.accounts());
  m.set('personal_listWallets', () => am.walletInfos());

  m.set('personal_openWallet', (p) => {
    const url = str(p, 0);
    optStr(p, 1);
    am.wallet(url); // keystore and dev wallets open without doing anything
    return null;
  });

  m.set('personal_deriveAccount', (p) => {
    const url = str(p, 0);
    const path = str(p, 1);
    optBoolArg(p[2], 2);
    const w = am.wallet(url);
    checkDerivationPath(path);
    return am.derive(w);
  });

  m.set('personal_newAccount', async (p) => {
    const password = str(p, 0);
    const a = await ks.newAccount(password);
    be.log.info('Your new key was generated', { address: checksumAddress(a.address) });
    be.log.warn('Please backup your key file!', { path: a.path });
    be.log.warn('Please remember your password!');
    return checksumAddress(a.address);
  });

  m.set('personal_importRawKey', async (p) => {
    const hexkey = str(p, 0);
    const password = str(p, 1);
    const key = hexToPrivateKey(hexkey);
    return (await ks.importKey(key, password)).address;
  });

  m.set('personal_unlockAccount', async (p) => {
    const addr = address(required(p, 0), 0);
    const password = str(p, 1);
    const duration = optUint64NumberArg(p, 2);
    if (EXT_RPC_ENABLED && !be.config.keystoreInsecureUnlockAllowed) throw new KeystoreError('account unlock with HTTP access is forbidden');
    let seconds: bigint;
    if (duration === undefined) seconds = DEFAULT_UNLOCK_SECONDS;
    else if (duration > MAX_UNLOCK_SECONDS) throw new KeystoreError('unlock duration too large');
    else seconds = duration;
    // Dev accounts are unlocked for good: any password unlocks them (Powder's choice).
    if (am.isDev(addr) && !ks.hasAddress(addr)) return true;
    try {
      await ks.timedUnlock(addr, password, Number(seconds) * 1000);
    } catch (e) {
      be.log.warn('Failed account unlock attempt', { address: checksumAddress(addr), err: (e as Error).message });
      throw e;
    }
    return true;
  });

  m.set('personal_lockAccount', (p) => {
    ks.lock(address(required(p, 0), 0));
    return true;
  });

  /** personal signTransaction: find the wallet, fill the defaults, sign with the password's key. */
  const signWithPassphrase = async (args: ReturnType<typeof parseCallArgs>, password: string) => {
    const from = args.from ?? ZERO_ADDRESS_HEX;
    const wallet = am.find(from);
    const tx = await be.fillTransaction({ ...args, from });
    return tx.sign(await am.keyWithPassphrase(wallet, password));
  };

  m.set('personal_sendTransaction', async (p) => {
    const raw = required(p, 0);
    const args = parseCallArgs(raw, 0);
    const password = str(p, 1);
    const from = args.from ?? ZERO_ADDRESS_HEX;
    return be.withNonceLock(from, args.nonce === undefined, async () => {
      if (isBlobTransaction(raw)) throw new KeystoreError('signing blob transactions not supported');
      const signed = await signWithPassphrase(args, password);
      return be.submit(signed, signed.serialize());
    });
  });

  m.set('personal_signTransaction', async (p) => {
    const raw = required(p, 0);
    const args = parseCallArgs(raw, 0);
    const password = str(p, 1);
    if (args.from === undefined) throw new KeystoreError('sender not specified');
    checkSignTransactionArgs(raw, args);
    // Before signing: the fee the arguments name (maxFeePerGas if given, else gasPrice) × gas.
    be.checkTxFee(args.maxFeePerGas ?? args.gasPrice ?? 0n, args.gas);
    const signed = await signWithPassphrase(args, password);
    return signTransactionResult(signed);
  });

  m.set('personal_sign', async (p) => {
    const data = bytes(required(p, 0), 0);
    const addr = address(required(p, 1), 1);
    const password = str(p, 2);
    const wallet = am.find(addr);
    const key = await am.keyWithPassphrase(wallet, password);
    return hexD(personalSign(key, data));
  });

  m.set('personal_ecRecover', (p) => {
    const data = bytes(required(p, 0), 0);
    const sig = bytes(required(p, 1), 1);
    if (sig.length !== 65) throw new KeystoreError('signature must be 65 bytes long');
    if (sig[64] !== 27 && sig[64] !== 28) throw new KeystoreError('invalid Ethereum signature (V is not 27 or 28)');
    let pub: Uint8Array;
    try {
      pub = nativeSecp().ecdsaRecover(sig.subarray(0, 64), sig[64] - 27, textHash(data), false);
    } catch {
      throw new KeystoreError('recovery failed');
    }
    return '0x' + Buffer.from(keccak256(pub.subarray(1))).subarray(12).toString('hex');
  });

  m.set('personal_initializeWallet', (p) => {
    am.wallet(str(p, 0));
    throw new KeystoreError('specified wallet does not support initialization');
  });

  m.set('personal_unpair', (p) => {
    const url = str(p, 0);
    str(p, 1);
    am.wallet(url);
    throw new KeystoreError('specified wallet does not support pairing');
  });

  for (const [k, v] of m) m.set(k, gethErrors(v));
  return m;
}
