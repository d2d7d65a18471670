// keccak256 for the chain: on this machine the native binding must load (the fast path the trie
// relies on), and every path must agree with @noble/hashes, including inputs the sponge is reused for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { keccak256, keccak256WithoutWasm, keccakImplementation, wasmKeccakReady } from './crypto.js';

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

test('keccak256: the native binding loads on Linux x64 and agrees with @noble/hashes', () => {
  agreesWithNoble(keccak256WithoutWasm);
  if (process.platform === 'linux' && process.arch === 'x64') assert.notEqual(keccakImplementation(), 'js');
});

test('keccak256: the WebAssembly keccak takes over once compiled and agrees with @noble/hashes', async () => {
  assert.equal(await wasmKeccakReady, true);
  assert.equal(keccakImplementation(), 'wasm');
  agreesWithNoble(keccak256);
});
