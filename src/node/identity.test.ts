import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestNode, rpc } from '../../test/helpers.js';
import { selfSignedCertificate } from './certificate.js';
import { loadOrCreateIdentity, proofOfPossession } from './identity.js';
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

test('the proof of possession is deterministic for a key and differs between keys', () => {
  const k1 = Buffer.alloc(32, 1);
  const k2 = Buffer.alloc(32, 2);
  const p1 = proofOfPossession(k1);
  assert.deepEqual(proofOfPossession(k1), p1);
  assert.equal(p1.publicKey.length, 48);
  assert.equal(p1.proofOfPossession.length, 96);
  assert.notDeepEqual(proofOfPossession(k2).proofOfPossession, p1.proofOfPossession);
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
