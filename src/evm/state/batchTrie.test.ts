// BatchTrie against @ethereumjs/mpt: same roots after random batches of puts and deletes (secure
// keys, values of every size so nodes are both embedded and hashed), and every node it stores
// can be read back by @ethereumjs/mpt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { MapDB, ValueEncoding } from '@ethereumjs/util';
import { BatchTrie, EMPTY_TRIE_ROOT, NodeCache, trieGet, type NodeStore } from './batchTrie.js';
import { keccak256 } from '../crypto.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** A node store over a map (node hash hex → encoding). */
function mapStore(): NodeStore & { m: Map<string, Uint8Array> } {
  const m = new Map<string, Uint8Array>();
  return {
    m,
    get(h) {
      return m.get(Buffer.from(h).toString('hex'));
    },
    put(h, enc) {
      m.set(Buffer.from(h).toString('hex'), enc);
    },
  };
}

for (const [name, keySpace, valueMax] of [
  ['small values (embedded nodes)', 40, 3],
  ['account-sized values', 300, 90],
  ['a few keys, many deletes', 6, 40],
] as const) {
  test(`same roots as @ethereumjs/mpt: ${name}`, async () => {
    const rand = rng(keySpace * 7 + valueMax);
    const ref = new MerklePatriciaTrie({ db: new MapDB(), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes });
    const store = mapStore();
    const cache = new NodeCache(50);
    let root = EMPTY_TRIE_ROOT as Uint8Array;
    for (let block = 0; block < 60; block++) {
      const t = new BatchTrie(root, store, cache);
      const ops = 1 + Math.floor(rand() * 12);
      for (let i = 0; i < ops; i++) {
        const key = Uint8Array.of(Math.floor(rand() * keySpace), 1, 2);
        const del = rand() < 0.3;
        const value = del ? null : Uint8Array.from({ length: 1 + Math.floor(rand() * valueMax) }, () => Math.floor(rand() * 256));
        if (del) await ref.del(key);
        else await ref.put(key, value);
        t.update(keccak256(key), value);
      }
      root = t.commit();
      assert.equal(Buffer.from(root).toString('hex'), Buffer.from(ref.root()).toString('hex'), `root after block ${block}`);
    }
    // Everything BatchTrie stored is readable by @ethereumjs/mpt at that root, and trieGet reads
    // the same values (and the same absences) as mpt's get, through a warm and a cold node cache.
    const reader = new MerklePatriciaTrie({ db: new MapDB(store.m as never), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, root });
    const getNode = (h: string) => store.m.get(h);
    for (let k = 0; k < keySpace + 5; k++) {
      const key = Uint8Array.of(k, 1, 2);
      const want = await ref.get(key);
      assert.deepEqual(await reader.get(key), want);
      assert.deepEqual(trieGet(root, keccak256(key), getNode, cache), want, `trieGet key ${k}`);
      assert.deepEqual(trieGet(root, keccak256(key), getNode, new NodeCache()), want, `trieGet key ${k}, cold cache`);
    }
  });
}

test('deleting every key gives the empty root; a missing node is an error', async () => {
  const store = mapStore();
  const t = new BatchTrie(EMPTY_TRIE_ROOT, store, new NodeCache());
  for (let k = 0; k < 20; k++) t.update(keccak256(Uint8Array.of(k)), Uint8Array.of(k, k, k));
  const root = t.commit();
  const t2 = new BatchTrie(root, store, new NodeCache());
  for (let k = 0; k < 20; k++) t2.update(keccak256(Uint8Array.of(k)), null);
  assert.deepEqual(t2.commit(), EMPTY_TRIE_ROOT);
  const t3 = new BatchTrie(keccak256(Uint8Array.of(1)), mapStore(), new NodeCache());
  assert.throws(() => t3.update(keccak256(Uint8Array.of(1)), Uint8Array.of(1)), /missing trie node/);
  assert.throws(() => trieGet(keccak256(Uint8Array.of(1)), keccak256(Uint8Array.of(1)), () => undefined, new NodeCache()), /missing trie node/);
  assert.equal(trieGet(EMPTY_TRIE_ROOT, keccak256(Uint8Array.of(1)), () => undefined, new NodeCache()), null);
});
