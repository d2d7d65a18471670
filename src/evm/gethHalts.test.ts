// geth's memory-size overflow and stack underflow texts, at their edges (the node-level cases are
// in src/evm/api/contracts.test.ts: eth_call, eth_estimateGas, receipts and traces).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memorySizeOverflows, stackUnderflowText, invalidOpcodeText } from './gethHalts.js';

const MAX = 2n ** 64n - 32n; // the largest memory end geth's word rounding keeps in 64 bits
const HALF = MAX / 2n;
/** A stack with `top` as its top words (top first), over a zero. */
const st = (...top: bigint[]): bigint[] => [0n, ...top.reverse()];

test('memory past 64 bits: an end past 2^64 - 32, an offset or length from 2^64, never an empty region', () => {
  // MLOAD: 32 bytes from the offset on top.
  assert.equal(memorySizeOverflows(0x51, st(MAX - 32n)), false);
  assert.equal(memorySizeOverflows(0x51, st(MAX - 31n)), true);
  assert.equal(memorySizeOverflows(0x51, st(2n ** 64n)), true);
  assert.equal(memorySizeOverflows(0x53, st(MAX - 1n)), false, 'MSTORE8: one byte');
  // KECCAK256(offset, length): the sum decides, also when both are past half of it.
  assert.equal(memorySizeOverflows(0x20, st(HALF, HALF)), false);
  assert.equal(memorySizeOverflows(0x20, st(HALF + 1n, HALF)), true);
  assert.equal(memorySizeOverflows(0x20, st(0n, 2n ** 255n)), true);
  assert.equal(memorySizeOverflows(0x20, st(2n ** 255n, 0n)), false, 'an empty region, whatever its offset');
  // CALL(gas, to, value, in offset, in length, out offset, out length): either region.
  assert.equal(memorySizeOverflows(0xf1, st(0n, 0n, 0n, 0n, 32n, 2n ** 64n, 1n)), true);
  assert.equal(memorySizeOverflows(0xf1, st(0n, 0n, 0n, 2n ** 64n, 1n, 0n, 32n)), true);
  assert.equal(memorySizeOverflows(0xf1, st(0n, 0n, 0n, 2n ** 64n, 0n, 2n ** 70n, 0n)), false);
  // STATICCALL has no value: its regions are one word higher.
  assert.equal(memorySizeOverflows(0xfa, st(0n, 0n, 0n, 0n, 2n ** 64n, 1n)), true);
  // MCOPY(to, from, length): the larger offset.
  assert.equal(memorySizeOverflows(0x5e, st(0n, 2n ** 64n, 1n)), true);
  assert.equal(memorySizeOverflows(0x5e, st(2n ** 64n, 0n, 1n)), true);
  assert.equal(memorySizeOverflows(0x5e, st(2n ** 64n, 2n ** 64n, 0n)), false);
  // EXTCODECOPY(address, to, from, length) reads memory at the second word.
  assert.equal(memorySizeOverflows(0x3c, st(2n ** 64n, 0n, 0n, 1n)), false);
  assert.equal(memorySizeOverflows(0x3c, st(0n, 2n ** 64n, 0n, 1n)), true);
  assert.equal(memorySizeOverflows(0x01, st(2n ** 64n, 2n ** 64n)), false, 'ADD touches no memory');
});

test("geth's texts for a stack underflow and an undefined opcode", () => {
  assert.equal(stackUnderflowText(0, 0x01), 'stack underflow (0 <=> 2)');
  assert.equal(stackUnderflowText(3, 0x9f), 'stack underflow (3 <=> 17)', 'SWAP16');
  assert.equal(stackUnderflowText(15, 0x8f), 'stack underflow (15 <=> 16)', 'DUP16');
  assert.equal(stackUnderflowText(5, 0xa4), 'stack underflow (5 <=> 6)', 'LOG4');
  assert.equal(stackUnderflowText(6, 0xf1), 'stack underflow (6 <=> 7)', 'CALL');
  assert.equal(stackUnderflowText(2, 0x08), 'stack underflow (2 <=> 3)', 'ADDMOD');
  assert.equal(invalidOpcodeText(0xfe), 'invalid opcode: INVALID');
  assert.equal(invalidOpcodeText(0x0c), 'invalid opcode: opcode 0xc not defined');
  assert.equal(invalidOpcodeText(0xef), 'invalid opcode: opcode 0xef not defined');
});
