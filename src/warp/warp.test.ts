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

import { decodePredicateResults, encodePredicateResults, predicateGas, setTxPredicates, warpIntrinsicGas, checkTxPredicates } from './predicates.js';
import { getVerifiedWarpBlockHash, getVerifiedWarpMessage } from './getters.js';

function signedMessage(keys: Uint8Array[], opts: { signerBytes?: Uint8Array; payload?: Uint8Array; networkID?: number } = {}) {
  const payload = opts.payload ?? encodePayload({ type: 'addressedCall', sourceAddress: Buffer.alloc(20, 0x11), payload: Buffer.from('hi') });
  const unsigned = encodeUnsigned({ networkID: opts.networkID ?? 12345, sourceChainID: Buffer.alloc(32, 0xcc), payload });
  const set = canonicalSet(keys.map((k, i) => ({ nodeID: `N${i}`, weight: 10n, blsPublicKey: publicKeyOf(k) })));
  const signers = (1n << BigInt(keys.length)) - 1n;
  const wire = Buffer.from(encodeSigned({ unsignedBytes: unsigned, signers, signature: aggregate(keys.map((k) => sign(k, unsigned))) }));
  if (opts.signerBytes) {
    // re-encode with a non-minimal bitset
    const sig = wire.subarray(wire.length - 96);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(opts.signerBytes.length);
    return { wire: Buffer.concat([unsigned, Buffer.alloc(4), len, opts.signerBytes, sig]), set };
  }
  return { wire, set };
}

test('predicate gas: base + chunks × chunk gas + signers × signer gas, by era; malformed predicates throw the real texts', () => {
  const k = [key(), key()];
  const { wire } = signedMessage(k);
  const chunks = packPredicate(wire);
  assert.equal(predicateGas(chunks, true), 125_000n + 512n * BigInt(chunks.length) + 250n * 2n);
  assert.equal(predicateGas(chunks, false), 200_000n + 3_200n * BigInt(chunks.length) + 500n * 2n);
  assert.throws(() => predicateGas([Buffer.alloc(32)], true), { message: 'cannot unpack predicate bytes: no delimiter found: length (32)' });
  assert.throws(() => predicateGas(packPredicate(Buffer.from('junk')), true), /^Error: cannot unpack warp message: /);
  const badPayload = signedMessage(k, { payload: Buffer.from('0000000000ff', 'hex') }).wire;
  assert.throws(() => predicateGas(packPredicate(badPayload), true), /^Error: cannot unpack warp message payload: /);
  const zeroLed = signedMessage(k, { signerBytes: Buffer.from([0, 3]) }).wire;
  assert.throws(() => predicateGas(packPredicate(zeroLed), true), { message: 'cannot fetch num signers from warp message: bitset is invalid' });
});

test('intrinsic gas: warp tuples cost predicate gas instead of the access-list key cost', () => {
  const { wire } = signedMessage([key()]);
  const chunks = packPredicate(wire);
  const warp = Buffer.from('0200000000000000000000000000000000000005', 'hex');
  const tx = {
    accessList: [[warp, chunks], [Buffer.alloc(20, 1), [Buffer.alloc(32)]]] as [Uint8Array, Uint8Array[]][],
    getIntrinsicGas: () => 21_000n + 2n * 2_400n + 1_900n * BigInt(chunks.length + 1),
    common: { param: (n: string) => (n === 'accessListAddressGas' ? 2_400n : 1_900n) },
  };
  const rules = { isDurango: true, isGranite: true, precompiles: new Map([['0x0200000000000000000000000000000000000005', { config: {} }]]) };
  assert.equal(warpIntrinsicGas(tx, rules), 21_000n + 2_400n + 1_900n + 125_000n + 512n * BigInt(chunks.length) + 250n);
  assert.equal(warpIntrinsicGas(tx, { ...rules, precompiles: new Map() }), undefined); // warp off: plain access list
});

test('verification: wrong network, unknown source chain, quorum and forgery set the failed bits', () => {
  const k = [key(), key(), key()];
  // Signers: the first two keys, at their positions in the canonical order of all three.
  const all = canonicalSet(k.map((x, i) => ({ nodeID: `N${i}`, weight: 10n, blsPublicKey: publicKeyOf(x) })));
  const pos = (x: Uint8Array) => all.validators.findIndex((v) => Buffer.from(v.publicKey).equals(Buffer.from(publicKeyOf(x))));
  const unsigned = encodeUnsigned({ networkID: 12345, sourceChainID: Buffer.alloc(32, 0xcc), payload: encodePayload({ type: 'hash', hash: Buffer.alloc(32, 1) }) });
  const wire = encodeSigned({ unsignedBytes: unsigned, signers: (1n << BigInt(pos(k[0]))) | (1n << BigInt(pos(k[1]))), signature: aggregate([sign(k[0], unsigned), sign(k[1], unsigned)]) });
  const rules = { isDurango: true, isGranite: true, precompiles: new Map([['0x0200000000000000000000000000000000000005', { config: { quorumNumerator: 0n } }]]) };
  const validators = k.map((x, i) => ({ nodeID: `N${i}`, weight: 10n, blsPublicKey: publicKeyOf(x) }));
  const verifier = { networkID: 12345, subnetID: 'own', subnetOf: () => 'src', validators: () => validators };
  // 2 of 3 equal weights = 66.7 % < 67 (quorum 0 ⇒ 67)
  assert.equal(checkTxPredicates([packPredicate(wire)], rules, verifier), 1n);
  const rules50 = { ...rules, precompiles: new Map([['0x0200000000000000000000000000000000000005', { config: { quorumNumerator: 50n } }]]) };
  assert.equal(checkTxPredicates([packPredicate(wire)], rules50, verifier), 0n);
  assert.equal(checkTxPredicates([packPredicate(wire)], rules50, { ...verifier, networkID: 1 }), 1n);
  assert.equal(checkTxPredicates([packPredicate(wire), packPredicate(wire)], rules50, { ...verifier, subnetOf: () => undefined }), 3n);
});

test('predicate results: linear-codec map sorted by tx hash, empty bitset for all-valid txs', () => {
  const h1 = '0x' + 'bb'.repeat(32);
  const h2 = '0x' + 'aa'.repeat(32);
  const enc = Buffer.from(encodePredicateResults(new Map([[h1, 0n], [h2, 5n]]))).toString('hex');
  const warp = '0200000000000000000000000000000000000005';
  assert.equal(enc, '0000' + '00000002' + 'aa'.repeat(32) + '00000001' + warp + '00000001' + '05' + 'bb'.repeat(32) + '00000001' + warp + '00000000');
  assert.equal(Buffer.from(encodePredicateResults(new Map())).toString('hex'), '000000000000');
  assert.deepEqual(decodePredicateResults(Buffer.from(enc, 'hex')), new Map([[h2, 5n], [h1, 0n]]));
});

test('getters: ABI output of a valid predicate, zero value when absent or failed, chunk gas charged only when valid', () => {
  const { wire } = signedMessage([key()]);
  const chunks = packPredicate(wire);
  const evm = {};
  let charged = 0n;
  const charge = (g: bigint) => void (charged += g);
  const none = Buffer.from(getVerifiedWarpMessage(evm, 0, true, charge)).toString('hex');
  assert.equal(none, [64n, 0n, 0n, 0n, 96n, 0n].map((n) => n.toString(16).padStart(64, '0')).join(''));
  assert.equal(charged, 0n);
  setTxPredicates(evm, { tuples: [chunks], failed: 0n });
  const out = Buffer.from(getVerifiedWarpMessage(evm, 0, true, charge));
  assert.equal(charged, 512n * BigInt(chunks.length));
  assert.equal(out.subarray(32, 64).readUInt8(31), 1); // valid
  assert.equal(out.subarray(64, 96).toString('hex'), 'cc'.repeat(32)); // sourceChainID
  assert.equal(out.subarray(96, 128).toString('hex'), '00'.repeat(12) + '11'.repeat(20)); // origin sender
  assert.equal(out.subarray(160, 192).readUInt32BE(28), 2); // payload length
  assert.equal(out.subarray(192, 194).toString(), 'hi');
  assert.throws(() => getVerifiedWarpBlockHash(evm, 0, true, charge), { message: 'cannot unpack block hash payload: *payload.AddressedCall' });
  setTxPredicates(evm, { tuples: [chunks], failed: 1n });
  charged = 0n;
  assert.equal(Buffer.from(getVerifiedWarpMessage(evm, 0, false, charge)).toString('hex'), none);
  assert.equal(charged, 0n);
  assert.equal(Buffer.from(getVerifiedWarpMessage(evm, 1, false, charge)).toString('hex'), none);
});
