// keccak256 for the chain: on this machine the native binding must load (the fast path the trie
// relies on), and every path must agree with @noble/hashes, including inputs the sponge is reused for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { keccak256, keccakImplementation } from './crypto.js';

test('keccak256: the native binding loads on Linux x64 and agrees with @noble/hashes', () => {
  if (process.platform === 'linux' && process.arch === 'x64') assert.equal(keccakImplementation, 'native');
  for (let n = 0; n < 300; n += 7) {
    const input = Uint8Array.from({ length: n * 3 }, (_, i) => (i * 131 + n) & 0xff);
    assert.equal(Buffer.from(keccak256(input)).toString('hex'), Buffer.from(keccak_256(input)).toString('hex'), `length ${input.length}`);
  }
  // A Buffer that is a view into a larger pool.
  const big = Buffer.from('xxhelloxx');
  assert.equal(Buffer.from(keccak256(big.subarray(2, 7))).toString('hex'), Buffer.from(keccak_256(Buffer.from('hello'))).toString('hex'));
});
