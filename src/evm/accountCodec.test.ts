// Account.serialize's override against @ethereumjs/util's own method.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Account, createAccountFromRLP, createPartialAccount } from '@ethereumjs/util';
import { originalSerialize } from './accountCodec.js';
import { bigintToBytes } from './header/header.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

test('Account.serialize: overridden, and the same bytes as the package for edge and random values', () => {
  assert.notEqual(Account.prototype.serialize, originalSerialize);
  const rand = rng(7);
  const big = (bits: number) => {
    let n = 0n;
    for (let i = 0; i < bits; i += 16) n = (n << 16n) | BigInt(Math.floor(rand() * 65536));
    return n & ((1n << BigInt(bits)) - 1n);
  };
  const values = [0n, 1n, 127n, 128n, 255n, 256n, 2n ** 53n, 2n ** 64n - 1n, 2n ** 256n - 1n];
  for (let i = 0; i < 300; i++) values.push(big(1 + Math.floor(rand() * 256)));
  const bytes32 = () => Uint8Array.from({ length: 32 }, () => Math.floor(rand() * 256));
  for (const nonce of values.slice(0, 60)) {
    for (const balance of [values[Math.floor(rand() * values.length)], values[Math.floor(rand() * values.length)]]) {
      const a = new Account(nonce, balance, bytes32(), bytes32());
      const got = a.serialize();
      assert.deepEqual(Buffer.from(got), Buffer.from(originalSerialize.call(a)), `nonce ${nonce} balance ${balance}`);
      const back = createAccountFromRLP(got);
      assert.equal(back.nonce, nonce);
      assert.equal(back.balance, balance);
    }
  }
  assert.deepEqual(Buffer.from(new Account().serialize()), Buffer.from(originalSerialize.call(new Account())));
  for (const n of values) assert.deepEqual(Buffer.from(bigintToBytes(n)).toString('hex'), n === 0n ? '' : n.toString(16).padStart(Math.ceil(n.toString(16).length / 2) * 2, '0'));
});

test('Account.serialize: a field that is not loaded throws as before', () => {
  const partial = createPartialAccount({ nonce: 1n, balance: null, storageRoot: null, codeHash: null, codeSize: null, version: null });
  let want: string | undefined;
  try {
    originalSerialize.call(partial);
  } catch (e) {
    want = (e as Error).message;
  }
  assert.ok(want);
  assert.throws(() => partial.serialize(), (e: Error) => e.message === want);
});
