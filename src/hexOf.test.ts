import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hex0x, hexOf } from './hexOf.js';

test('hexOf writes the hex of exactly the view it is given', () => {
  const backing = new Uint8Array(64).map((_, i) => (i * 37 + 5) & 255);
  for (const [start, end] of [[0, 0], [0, 1], [3, 23], [7, 39], [0, 64], [63, 64]]) {
    const view = backing.subarray(start, end);
    assert.equal(hexOf(view), Buffer.from(backing.slice(start, end)).toString('hex'));
    assert.equal(hex0x(view), '0x' + Buffer.from(backing.slice(start, end)).toString('hex'));
  }
  // A Buffer from Node's pool (non-zero byteOffset) and a DataView-backed array.
  const pooled = Buffer.from('00ff10ab', 'hex');
  assert.equal(hexOf(pooled), '00ff10ab');
  assert.equal(hexOf(new Uint8Array(new ArrayBuffer(8), 2, 3).fill(0xfe)), 'fefefe');
});
