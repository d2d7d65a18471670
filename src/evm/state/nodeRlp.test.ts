// encodeRlp gives exactly @ethereumjs/rlp's bytes: random nested lists of byte strings of every
// length class (single bytes below and above 0x80, ≤ 55 bytes, longer), long lists, trie nodes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RLP } from '@ethereumjs/rlp';
import { encodeRlp, type RlpItem } from './nodeRlp.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function randomItem(r: () => number, depth: number): RlpItem {
  if (depth > 0 && r() < 0.3) return Array.from({ length: Math.floor(r() * 20) }, () => randomItem(r, depth - 1));
  const kind = r();
  const len = kind < 0.2 ? 0 : kind < 0.4 ? 1 : kind < 0.8 ? Math.floor(r() * 56) : 56 + Math.floor(r() * 600);
  return Uint8Array.from({ length: len }, () => Math.floor(r() * 256));
}

test('encodeRlp = @ethereumjs/rlp encode on random items', () => {
  const r = rng(42);
  for (let i = 0; i < 3000; i++) {
    const item = randomItem(r, 4);
    assert.deepEqual(encodeRlp(item), RLP.encode(item as never));
  }
});

test('encodeRlp edge cases: empty list, 0x7f/0x80 bytes, 55/56-byte strings and payloads, 64 KiB', () => {
  const cases: RlpItem[] = [
    [],
    new Uint8Array(0),
    Uint8Array.of(0x7f),
    Uint8Array.of(0x80),
    Uint8Array.of(0),
    new Uint8Array(55).fill(1),
    new Uint8Array(56).fill(2),
    [new Uint8Array(54).fill(3)],
    [new Uint8Array(55).fill(3)],
    new Uint8Array(65536).fill(9),
    Array.from({ length: 17 }, (_, i) => (i < 16 ? new Uint8Array(32).fill(i) : new Uint8Array(0))),
    [Uint8Array.of(0x20, 1), [Uint8Array.of(0x31), Uint8Array.of(5)]],
  ];
  for (const c of cases) assert.deepEqual(encodeRlp(c), RLP.encode(c as never));
});
