import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SecretKey } from '@chainsafe/blst';
import { randomBytes } from 'node:crypto';
import {
  decodePayload, decodeSigned, decodeUnsigned, encodePayload, encodeSigned, encodeUnsigned, messageID, packPredicate, unpackPredicate,
} from './codec.js';
import { aggregate, canonicalSet, publicKeyOf, sign, verifyWarpSignature } from './signer.js';

const key = () => SecretKey.fromKeygen(randomBytes(32)).toBytes();

test('unsigned message and addressed-call payload round-trip in the AvalancheGo layout', () => {
  const chain = Buffer.alloc(32, 0xab);
  const payload = encodePayload({ type: 'addressedCall', sourceAddress: Buffer.alloc(20, 1), payload: Buffer.from('hello') });
  // u16 codec ‖ u32 type 1 ‖ u32 20 ‖ addr ‖ u32 5 ‖ "hello"
  assert.equal(Buffer.from(payload).toString('hex'), '0000' + '00000001' + '00000014' + '01'.repeat(20) + '00000005' + Buffer.from('hello').toString('hex'));
  const unsigned = encodeUnsigned({ networkID: 12345, sourceChainID: chain, payload });
  assert.equal(Buffer.from(unsigned).subarray(0, 6).toString('hex'), '000000003039');
  const back = decodeUnsigned(unsigned);
  assert.equal(back.networkID, 12345);
  assert.deepEqual(Buffer.from(back.sourceChainID), chain);
  const p = decodePayload(back.payload);
  assert.equal(p.type, 'addressedCall');
  assert.equal(messageID(unsigned).length, 32);
  assert.throws(() => decodeUnsigned(Buffer.concat([unsigned, Buffer.from([0])])), /trailing bytes/);
  assert.throws(() => decodePayload(Buffer.from('0000000000ff', 'hex')), /insufficient length|unknown type/);
});

test('signed messages verify against the canonical set and quorum; forgeries and short quorums fail', () => {
  const keys = [key(), key(), key()];
  const vals = keys.map((k, i) => ({ nodeID: `NodeID-${i}`, weight: 10n, blsPublicKey: publicKeyOf(k) }));
  const set = canonicalSet(vals);
  assert.equal(set.totalWeight, 30n);
  const unsigned = encodeUnsigned({ networkID: 1, sourceChainID: Buffer.alloc(32), payload: encodePayload({ type: 'hash', hash: Buffer.alloc(32, 7) }) });
  const indexOf = (k: Uint8Array) => set.validators.findIndex((v) => Buffer.from(v.publicKey).equals(Buffer.from(publicKeyOf(k))));
  const two = [keys[0], keys[1]];
  const signers = two.reduce((acc, k) => acc | (1n << BigInt(indexOf(k))), 0n);
  const sig = aggregate(two.map((k) => sign(k, unsigned)));
  verifyWarpSignature(unsigned, signers, sig, set, 66n); // 20 of 30 meets 66%…
  assert.throws(() => verifyWarpSignature(unsigned, signers, sig, set, 67n), /insufficient weight/); // …but not 67%
  assert.throws(() => verifyWarpSignature(unsigned, signers, sig, set, 80n), /insufficient weight/);
  const other = encodeUnsigned({ networkID: 2, sourceChainID: Buffer.alloc(32), payload: encodePayload({ type: 'hash', hash: Buffer.alloc(32, 7) }) });
  assert.throws(() => verifyWarpSignature(other, signers, sig, set, 66n), /invalid signature/);
  assert.throws(() => verifyWarpSignature(unsigned, 1n << 5n, sig, set, 1n), /bitset is invalid/);
  const wire = encodeSigned({ unsignedBytes: unsigned, signers, signature: sig });
  const parsed = decodeSigned(wire);
  assert.equal(parsed.signers, signers);
  assert.deepEqual(Buffer.from(parsed.unsignedBytes), Buffer.from(unsigned));
});

test('predicates pack with a 0xff delimiter and reject bad padding', () => {
  const msg = Buffer.alloc(31, 9);
  const chunks = packPredicate(msg);
  assert.equal(chunks.length, 1);
  assert.equal(chunks[0][31], 0xff);
  assert.equal(packPredicate(Buffer.alloc(32, 9)).length, 2); // delimiter always appended
  assert.deepEqual(Buffer.from(unpackPredicate(chunks)), msg);
  assert.throws(() => unpackPredicate([Buffer.alloc(32)]), /no delimiter found: length \(32\)/);
  assert.throws(() => unpackPredicate([...chunks, Buffer.alloc(32)]), /excess padding: got length \(64\), expected length \(32\)/);
  const bad = Buffer.from(chunks[0]);
  bad[31] = 0x01;
  assert.throws(() => unpackPredicate([bad]), /wrong delimiter/);
});
