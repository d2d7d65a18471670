// keccak256 for the chain: on this machine the WebAssembly keccak must hash from the module's load
// on (the fast path the trie relies on), the native binding must load where it is the fallback, and
// every path must agree with @noble/hashes, including inputs the sponge is reused for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { fallbackImplementation, keccak256, keccak256WithoutWasm, keccakImplementation } from './crypto.js';

function agreesWithNoble(hash: (b: Uint8Array) => Uint8Array): void {
  for (let n = 0; n < 300; n += 7) {
    const input = Uint8Array.from({ length: n * 3 }, (_, i) => (i * 131 + n) & 0xff);
    assert.equal(Buffer.from(hash(input)).toString('hex'), Buffer.from(keccak_256(input)).toString('hex'), `length ${input.length}`);
  }
  // A Buffer that is a view into a larger pool.
  const big = Buffer.from('xxhelloxx');
  assert.equal(Buffer.from(hash(big.subarray(2, 7))).toString('hex'), Buffer.from(keccak_256(Buffer.from('hello'))).toString('hex'));
  // Inputs over one WebAssembly memory chunk and digests that must not share a buffer.
  const long = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 7) & 0xff);
  assert.equal(Buffer.from(hash(long)).toString('hex'), Buffer.from(keccak_256(long)).toString('hex'));
  const a = hash(Uint8Array.of(1));
  const b = hash(Uint8Array.of(2));
  assert.notDeepEqual(a, b);
  assert.equal(Buffer.from(a).toString('hex'), Buffer.from(keccak_256(Uint8Array.of(1))).toString('hex'));
}

test('keccak256: the WebAssembly keccak hashes from the start and agrees with @noble/hashes', () => {
  // Synchronously, before anything awaited: the genesis a start hashes gets it too.
  assert.equal(keccakImplementation(), 'wasm');
  agreesWithNoble(keccak256);
  // Inputs around the module's 16 KiB input buffer (one call below it, chunks from it on).
  for (const n of [16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1, 32 * 1024]) {
    const input = Uint8Array.from({ length: n }, (_, i) => (i * 13) & 0xff);
    assert.equal(Buffer.from(keccak256(input)).toString('hex'), Buffer.from(keccak_256(input)).toString('hex'), `length ${n}`);
  }
});

test('keccak256: the fallback, the native binding, loads on Linux x64 and agrees with @noble/hashes', () => {
  agreesWithNoble(keccak256WithoutWasm);
  if (process.platform === 'linux' && process.arch === 'x64') assert.equal(fallbackImplementation(), 'native');
  assert.equal(keccakImplementation(), 'wasm'); // still the one in use
});
