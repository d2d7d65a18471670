import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestNode, rpc } from '../../test/helpers.js';
import { selfSignedCertificate } from './certificate.js';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { blst } from '../warp/blst.js';
import { loadOrCreateIdentity, POP_DST, proofOfPossession, randomBlsSecretKey } from './identity.js';
import { nodeIDToString } from '../ids/ids.js';

test('the hand-built certificate is valid X.509: parses, self-verifies, empty subject', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  for (let i = 0; i < 20; i++) {
    // Several serials, so a DER integer encoding slip (leading zero / high bit) shows.
    const x = new X509Certificate(selfSignedCertificate(privateKey));
    assert.equal(x.verify(publicKey), true);
    assert.equal(x.checkIssued(x), true);
    assert.equal(x.subject ?? '', '');
    assert.ok(new Date(x.validTo).getUTCFullYear() >= 2099);
    assert.ok(x.publicKey.equals(publicKey));
  }
  // Validity: from now (UTCTime, to the second) to the end of 2099 (GeneralizedTime).
  const before = Math.floor(Date.now() / 1000) * 1000;
  const x = new X509Certificate(selfSignedCertificate(privateKey));
  const after = Date.now();
  const from = new Date(x.validFrom).getTime();
  assert.ok(from >= before && from <= after, `${x.validFrom} within [${new Date(before).toISOString()}, ${new Date(after).toISOString()}]`);
  assert.equal(new Date(x.validTo).toISOString(), '2099-12-31T00:00:00.000Z');
});

test('identity files: NodeID = RIPEMD-160(SHA-256(certificate DER)), files private, stable on reload', () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-id-'));
  try {
    const files = { keyFile: join(dir, 's/staker.key'), certFile: join(dir, 's/staker.crt'), signerFile: join(dir, 's/signer.key') };
    const a = loadOrCreateIdentity({ ...files, ephemeralCert: false, ephemeralSigner: false });
    const x = new X509Certificate(readFileSync(files.certFile));
    assert.ok(Buffer.from(a.certificate).equals(x.raw));
    const sha = createHash('sha256').update(x.raw).digest();
    assert.equal(a.nodeID, nodeIDToString(createHash('ripemd160').update(sha).digest()));
    // The key file holds the certificate's private key.
    assert.equal(x.checkPrivateKey(createPrivateKey(readFileSync(files.keyFile))), true);
    for (const f of Object.values(files)) assert.equal(statSync(f).mode & 0o777, 0o600);
    assert.equal(readFileSync(files.signerFile).length, 32);
    const b = loadOrCreateIdentity({ ...files, ephemeralCert: false, ephemeralSigner: false });
    assert.equal(b.nodeID, a.nodeID);
    const hex = (u: Uint8Array) => Buffer.from(u).toString('hex');
    assert.equal(hex(b.blsSecretKey), hex(a.blsSecretKey));
    const c = loadOrCreateIdentity({ ...files, ephemeralCert: true, ephemeralSigner: true });
    assert.notEqual(c.nodeID, a.nodeID);
    assert.notEqual(hex(c.blsSecretKey), hex(a.blsSecretKey));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a corrupt certificate or signer key stops the start with a clear error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-id-'));
  try {
    const files = { keyFile: join(dir, 'staker.key'), certFile: join(dir, 'staker.crt'), signerFile: join(dir, 'signer.key') };
    loadOrCreateIdentity({ ...files, ephemeralCert: false, ephemeralSigner: false });
    writeFileSync(files.certFile, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    assert.throws(() => loadOrCreateIdentity({ ...files, ephemeralCert: false, ephemeralSigner: false }), /staking TLS certificate .*staker\.crt cannot be parsed/);
    writeFileSync(files.signerFile, Buffer.alloc(5));
    assert.throws(() => loadOrCreateIdentity({ ...files, ephemeralCert: true, ephemeralSigner: false }), /signer\.key must hold 32 bytes, found 5/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the proof of possession is deterministic for a key, differs between keys, and verifies', async () => {
  const k1 = Buffer.alloc(32, 1);
  const k2 = Buffer.alloc(32, 2);
  const p1 = await proofOfPossession(k1);
  assert.deepEqual(await proofOfPossession(k1), p1);
  assert.equal(p1.publicKey.length, 48);
  assert.equal(p1.proofOfPossession.length, 96);
  assert.notDeepEqual((await proofOfPossession(k2)).proofOfPossession, p1.proofOfPossession);
  // The public key is the native library's (what warp signs and checks with), and the proof verifies
  // under the PoP ciphersuite, not under the message one.
  assert.deepEqual(Buffer.from(p1.publicKey), Buffer.from(blst().SecretKey.fromBytes(k1).toPublicKey().toBytes(true)));
  const bls = bls12_381.longSignatures;
  const sig = bls.Signature.fromBytes(p1.proofOfPossession);
  const pk = bls12_381.G1.Point.fromBytes(p1.publicKey);
  assert.equal(bls.verify(sig, bls.hash(p1.publicKey, POP_DST), pk), true);
  assert.equal(bls.verify(sig, bls.hash(p1.publicKey, 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_'), pk), false);
});

test('a new BLS secret key is a scalar the native library takes, below the group order, never repeated', () => {
  const order = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
  const seen = new Set<string>();
  let topByteHigh = 0;
  for (let i = 0; i < 200; i++) {
    const k = randomBlsSecretKey();
    assert.equal(k.length, 32);
    const n = BigInt('0x' + Buffer.from(k).toString('hex'));
    assert.ok(n > 0n && n < order);
    assert.deepEqual(Buffer.from(blst().SecretKey.fromBytes(k).toBytes()), Buffer.from(k));
    seen.add(Buffer.from(k).toString('hex'));
    if (k[0] >= 0x3a) topByteHigh++; // r's top byte is 0x73: about half the keys lie above r / 2
  }
  assert.equal(seen.size, 200);
  assert.ok(topByteHigh > 50 && topByteHigh < 150, `keys spread over [1, r): ${topByteHigh} of 200 in the upper half`);
});

test('NodeID and BLS key persist across restarts (LMDB data dir); ephemeral flags give new ones', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-id-node-'));
  const ask = async (url: string) => (await rpc(`${url}/ext/info`, 'info.getNodeID')).result;
  try {
    const t1 = await startTestNode({ 'data-dir': dataDir, chains: [] });
    const first = await ask(t1.url);
    await t1.stop();
    const t2 = await startTestNode({ 'data-dir': dataDir, chains: [] });
    const second = await ask(t2.url);
    await t2.stop();
    assert.deepEqual(second, first);
    assert.equal((await fetch(`${t2.url}/ext/info`).catch(() => null)), null, 'stopped node refuses connections');
    const t3 = await startTestNode({
      'data-dir': dataDir,
      chains: [],
      'staking-ephemeral-cert-enabled': true,
      'staking-ephemeral-signer-enabled': true,
    });
    const third = await ask(t3.url);
    await t3.stop();
    assert.notEqual(third.nodeID, first.nodeID);
    assert.notEqual(third.nodePOP.publicKey, first.nodePOP.publicKey);
    // Ephemeral identities are not written over the persisted ones.
    const t4 = await startTestNode({ 'data-dir': dataDir, chains: [] });
    assert.deepEqual(await ask(t4.url), first);
    await t4.stop();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
