// The direct ordered-trie root must equal a real Merkle Patricia trie's root for every size,
// including the key-length boundaries of rlp(i) (0, 1..127, 128..255, 256+).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { keccak256 } from '../crypto.js';
import { orderedTrieRootSync } from './orderedTrie.js';

async function mptRoot(items: Uint8Array[]): Promise<string> {
  const t = new MerklePatriciaTrie({ useKeyHashingFunction: keccak256 });
  for (let i = 0; i < items.length; i++) await t.put(RLP.encode(i), items[i]);
  return Buffer.from(t.root()).toString('hex');
}

test('ordered trie root equals the Merkle Patricia trie root', async () => {
  for (const n of [0, 1, 2, 3, 16, 17, 127, 128, 129, 256, 300]) {
    // Short values make embedded (< 32 byte) nodes, long ones hashed nodes.
    const items = Array.from({ length: n }, (_, i) => Uint8Array.from({ length: 1 + ((i * 37) % 90) }, (_, k) => (i * 31 + k) & 255));
    assert.equal(Buffer.from(orderedTrieRootSync(items)).toString('hex'), await mptRoot(items), `n=${n}`);
  }
});

test('keccak256 matches the known digests', () => {
  assert.equal(Buffer.from(keccak256(new Uint8Array())).toString('hex'), 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  assert.equal(Buffer.from(keccak256(Buffer.from('abc'))).toString('hex'), '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
  // Repeated use of the shared sponge gives the same answer.
  const big = new Uint8Array(1000).fill(7);
  assert.deepEqual(keccak256(big), keccak256(big));
});
