// Native secp256k1 (the `secp256k1` package, prebuilt) for the ethereumjs `customCrypto` hooks:
// sender recovery and signing are the hottest crypto of a dev chain. Falls back to the pure-JS
// implementation if the native module cannot be found. The addon is loaded on first use, not at
// start: building its context costs ~10 % of a cold start, and a node may never see a signature.
import { createRequire } from 'node:module';

interface NativeSecp {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed?: boolean): Uint8Array;
  ecdsaSign(msg32: Uint8Array, priv: Uint8Array): { signature: Uint8Array; recid: number };
  publicKeyCreate(priv: Uint8Array, compressed?: boolean): Uint8Array;
  privateKeyTweakAdd(priv: Uint8Array, tweak: Uint8Array): Uint8Array;
}

const require = createRequire(import.meta.url);

/** Whether the native module is installed (resolving it loads nothing). */
export const nativeSecpAvailable = (() => {
  try {
    require.resolve('secp256k1');
    return true;
  } catch {
    return false;
  }
})();

let loaded: NativeSecp | undefined;

/** The native module, loaded on first call; only call when `nativeSecpAvailable`. */
export function nativeSecp(): NativeSecp {
  return (loaded ??= require('secp256k1') as NativeSecp);
}

function pad32(b: Uint8Array): Uint8Array {
  if (b.length === 32) return b;
  if (b.length > 32) throw new Error('Invalid signature value');
  const out = new Uint8Array(32);
  out.set(b, 32 - b.length);
  return out;
}

/** ethereumjs `ecrecover` signature: returns the 64-byte uncompressed public key (no 0x04). */
export function nativeEcrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  let recovery: bigint;
  if (v === 0n || v === 1n) recovery = v;
  else if (chainId === undefined) recovery = v - 27n;
  else recovery = v - (chainId * 2n + 35n);
  if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid signature v value');
  const sig = new Uint8Array(64);
  sig.set(pad32(r), 0);
  sig.set(pad32(s), 32);
  return nativeSecp().ecdsaRecover(sig, Number(recovery), msgHash, false).subarray(1);
}

/** ethereumjs `ecsign` (noble `sign` with format 'recovered'): [recovery, r(32), s(32)]. */
export function nativeEcsign(msgHash: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const { signature, recid } = nativeSecp().ecdsaSign(msgHash, privateKey);
  const out = new Uint8Array(65);
  out[0] = recid;
  out.set(signature, 1);
  return out;
}
