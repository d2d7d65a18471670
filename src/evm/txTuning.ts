// A signed transaction's sender address, hashed with the chain's keccak and remembered.
//
// @ethereumjs/tx derives it as `new Address(publicToAddress(tx.getSenderPublicKey()))` on every
// call, and publicToAddress hashes the 64-byte public key with @noble/hashes' JS keccak (~7 µs;
// the key itself is recovered once and cached on frozen transactions). The pool and runTx each ask
// for every transaction: ~13 µs of a transfer's profile. The override gives the same address (the
// last 20 bytes of the key's keccak-256, by src/evm/crypto.ts), remembers the bytes for frozen
// transactions (immutable, as the pool's are), and still returns a new Address on every call.
// `withSender`'s own getSenderAddress (eth_call, impersonation) shadows it as before.
import { AccessList2930Tx, Blob4844Tx, EOACode7702Tx, FeeMarket1559Tx, LegacyTx } from '@ethereumjs/tx';
import { Address, EthereumJSErrorWithoutCode } from '@ethereumjs/util';
import { keccak256 } from './crypto.js';

interface SignedTx {
  getSenderPublicKey(): Uint8Array;
  getSenderAddress(): Address;
}

const senders = new WeakMap<object, Uint8Array>();

function senderAddress(this: SignedTx): Address {
  let bytes = senders.get(this);
  if (bytes === undefined) {
    const pub = this.getSenderPublicKey();
    // publicToAddress(pub, false)'s own check.
    if (pub.length !== 64) throw EthereumJSErrorWithoutCode('Expected pubKey to be of length 64');
    bytes = keccak256(pub).subarray(-20);
    if (Object.isFrozen(this)) senders.set(this, bytes);
  }
  return new Address(bytes.slice());
}

/** The package's own methods, before the override (tests compare the two). */
export const originalGetSenderAddress = new Map<string, () => Address>();

for (const cls of [LegacyTx, AccessList2930Tx, FeeMarket1559Tx, Blob4844Tx, EOACode7702Tx]) {
  const proto = cls.prototype as unknown as SignedTx;
  const original = proto.getSenderAddress;
  // Installed only over the one-line delegation to the shared helper it replaces (names may be
  // changed by the bundler: `Legacy.getSenderAddress(this)` or `getSenderAddress2(this)`).
  if (typeof original !== 'function' || !/^getSenderAddress\(\)\s*\{\s*return [\w$.]*getSenderAddress\d*\(this\);?\s*\}$/.test(original.toString())) continue;
  originalGetSenderAddress.set(cls.name, original);
  proto.getSenderAddress = senderAddress;
}
