// Account.serialize by the one-pass RLP encoder.
//
// @ethereumjs/util serializes an account as `RLP.encode(this.raw())`, where raw() turns nonce and
// balance into minimal big-endian bytes through hex strings and the generic encoder allocates per
// item: 4.7 µs per account (microbenchmark), and the state caches serialize every account put —
// ~8 per ERC-20 transfer (~35 µs, ~1.7 % of its profile). The override writes the same bytes (the
// same getters, so an account with a field not loaded throws as before) with src/evm/state/
// nodeRlp.ts; accountCodec.test.ts compares it with the package's method. Installed only over
// the method it replaces.
import { Account } from '@ethereumjs/util';
import { bigintToBytes } from './header/header.js';
import { encodeRlp } from './state/nodeRlp.js';

interface AccountFields {
  nonce: bigint;
  balance: bigint;
  storageRoot: Uint8Array;
  codeHash: Uint8Array;
}

function serialize(this: AccountFields): Uint8Array {
  // Nonce and balance are never negative (Account checks), so bigintToBytes never throws here.
  return encodeRlp([bigintToBytes(this.nonce), bigintToBytes(this.balance), this.storageRoot, this.codeHash]);
}

/** The package's own method, before the override (tests compare the two). */
export const originalSerialize = Account.prototype.serialize;

if (/^serialize\(\)\s*\{\s*return [\w$.]*encode\(this\.raw\(\)\);?\s*\}$/.test(originalSerialize.toString())) {
  Account.prototype.serialize = serialize;
}
