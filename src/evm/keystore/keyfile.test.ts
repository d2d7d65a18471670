// Key files as geth reads and writes them: the Web3 Secret Storage test vectors (pbkdf2 and
// scrypt), a key file from geth's own test data, the legacy version-1 vector, geth's error texts
// for every kind of broken file, and the layout of the files this node writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ERR_DECRYPT,
  KeystoreError,
  LIGHT_SCRYPT_N,
  LIGHT_SCRYPT_P,
  decryptKey,
  encryptKey,
  goHexDecode,
  hexToAddress,
  hexToPrivateKey,
  keyFileName,
  keyFromPrivate,
  parseUUID,
  privateKeyToAddress,
  scryptKey,
} from './keyfile.js';
import { GETH_AAA, GETH_AAA_PRIV, SPEC_ADDRESS, SPEC_PBKDF2, SPEC_PRIV, SPEC_SCRYPT, V1 } from './testVectors.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

async function keystoreError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof KeystoreError, `a KeystoreError, got ${(e as Error).stack}`);
    return e.message;
  }
  throw new Error('expected an error');
}

test('the Web3 Secret Storage pbkdf2 vector decrypts to its key', async () => {
  const k = await decryptKey(JSON.stringify(SPEC_PBKDF2), 'testpassword');
  assert.equal(hex(k.privateKey), SPEC_PRIV);
  assert.equal(k.address, SPEC_ADDRESS);
  assert.equal(k.id, SPEC_PBKDF2.id);
  assert.equal(await keystoreError(decryptKey(JSON.stringify(SPEC_PBKDF2), 'testpasswordx')), ERR_DECRYPT);
});

test('the scrypt vector (N=2^18, r=1: beyond OpenSSL, computed in JS) and the version-1 vector', async () => {
  // Both at once: one runs on the main thread, the other on the thread pool.
  const [spec, v1] = await Promise.all([decryptKey(JSON.stringify(SPEC_SCRYPT), 'testpassword'), decryptKey(JSON.stringify(V1), 'g')]);
  assert.equal(hex(spec.privateKey), SPEC_PRIV);
  assert.equal(hex(v1.privateKey), 'd1b1178d3529626a1a93e073f65028370d14c7eb0936eb42abef05db6f37ad7d');
  assert.equal(v1.address, '0x' + V1.address);
});

test('a key file geth wrote (its test data) decrypts, and the wrong password is refused', async () => {
  const k = await decryptKey(JSON.stringify(GETH_AAA), 'foobar');
  assert.equal(hex(k.privateKey), GETH_AAA_PRIV);
  assert.equal(k.address, '0x' + GETH_AAA.address);
  assert.equal(await keystoreError(decryptKey(JSON.stringify(GETH_AAA), 'foobaz')), 'could not decrypt key with given password');
});

test('scrypt agrees with RFC 7914 (OpenSSL path)', async () => {
  const k = await scryptKey(Buffer.from('pleaseletmein'), Buffer.from('SodiumChloride'), 16384, 8, 1, 64);
  assert.equal(
    k.toString('hex'),
    '7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887',
  );
  assert.equal(await keystoreError(scryptKey(Buffer.from('x'), Buffer.from('y'), 1000, 8, 1, 32)), 'scrypt: N must be > 1 and a power of 2');
});

test("broken files: geth's error texts", async () => {
  const withCrypto = (patch: Record<string, unknown>, top: Record<string, unknown> = {}) => JSON.stringify({ ...GETH_AAA, ...top, crypto: { ...GETH_AAA.crypto, ...patch } });
  const cases: [string, string][] = [
    [JSON.stringify({ ...GETH_AAA, version: 2 }), 'version not supported: 2'],
    [JSON.stringify({ ...GETH_AAA, version: '3' }), 'json: cannot unmarshal string into Go struct field encryptedKeyJSONV3.version of type int'],
    [JSON.stringify({ ...GETH_AAA, version: 3.5 }), 'json: cannot unmarshal number 3.5 into Go struct field encryptedKeyJSONV3.version of type int'],
    [withCrypto({ cipher: 7 }), 'json: cannot unmarshal number into Go struct field CryptoJSON.crypto.cipher of type string'],
    [withCrypto({ cipher: 'aes-256-gcm' }), 'cipher not supported: aes-256-gcm'],
    [withCrypto({ kdf: 'argon2id' }), 'unsupported KDF: argon2id'],
    [withCrypto({ kdf: 'pbkdf2', kdfparams: { c: 2, dklen: 32, prf: 'hmac-sha512', salt: '00' } }), 'unsupported PBKDF2 PRF: hmac-sha512'],
    [withCrypto({ mac: 'zz' }), "encoding/hex: invalid byte: U+007A 'z'"],
    [withCrypto({ mac: 'abc' }), 'encoding/hex: odd length hex string'],
    [withCrypto({ kdfparams: { ...GETH_AAA.crypto.kdfparams, n: 6 } }), 'scrypt: N must be > 1 and a power of 2'],
    [JSON.stringify({ ...GETH_AAA, id: 'abc' }), 'invalid UUID length: 3'],
    [JSON.stringify({ ...GETH_AAA, id: '472e8b3d-afb6-45b5-8111_72c89895099a' }), 'invalid UUID format'],
    ['{"version":3', 'unexpected end of JSON input'],
    ['[]', 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['null', 'version not supported: 0'],
  ];
  for (const [json, want] of cases) assert.equal(await keystoreError(decryptKey(json, 'foobar')), want, json);
  // A file that makes geth panic (no salt): a plain Error, answered as a crashed handler.
  await assert.rejects(decryptKey(withCrypto({ kdfparams: { n: 8, r: 8, p: 1, dklen: 32 } }), 'foobar'), (e: Error) => !(e instanceof KeystoreError));
});

test('written files: geth layout, scrypt parameters as given, decrypt back', async () => {
  const key = keyFromPrivate(Buffer.from(GETH_AAA_PRIV, 'hex'));
  const { json } = await encryptKey(key, 'pw', LIGHT_SCRYPT_N, LIGHT_SCRYPT_P);
  const o = JSON.parse(json);
  assert.deepEqual(Object.keys(o), ['address', 'crypto', 'id', 'version']);
  assert.deepEqual(Object.keys(o.crypto), ['cipher', 'ciphertext', 'cipherparams', 'kdf', 'kdfparams', 'mac']);
  assert.deepEqual(Object.keys(o.crypto.kdfparams), ['dklen', 'n', 'p', 'r', 'salt']);
  assert.equal(o.address, GETH_AAA.address);
  assert.equal(o.version, 3);
  assert.equal(o.crypto.cipher, 'aes-128-ctr');
  assert.equal(o.crypto.kdf, 'scrypt');
  assert.deepEqual({ ...o.crypto.kdfparams, salt: undefined }, { dklen: 32, n: 4096, p: 6, r: 8, salt: undefined });
  assert.match(o.crypto.kdfparams.salt, /^[0-9a-f]{64}$/);
  assert.match(o.crypto.cipherparams.iv, /^[0-9a-f]{32}$/);
  assert.match(o.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.ok(!/\s/.test(json), 'compact JSON as Go encodes it');
  const back = await decryptKey(json, 'pw');
  assert.equal(hex(back.privateKey), GETH_AAA_PRIV);
});

test('raw private keys: crypto.HexToECDSA texts', () => {
  const err = (s: string) => {
    try {
      hexToPrivateKey(s);
    } catch (e) {
      assert.ok(e instanceof KeystoreError);
      return e.message;
    }
    return 'no error';
  };
  assert.equal(hex(hexToPrivateKey(GETH_AAA_PRIV)), GETH_AAA_PRIV);
  assert.equal(err('0x' + GETH_AAA_PRIV), "invalid hex character 'x' in private key");
  assert.equal(err('abc'), 'invalid hex data for private key');
  assert.equal(err('zz'), "invalid hex character 'z' in private key");
  assert.equal(err('ab\ncd'), "invalid hex character '\\n' in private key");
  assert.equal(err(''), 'invalid length, need 256 bits');
  assert.equal(err('00'.repeat(31)), 'invalid length, need 256 bits');
  assert.equal(err('00'.repeat(32)), 'invalid private key, zero or negative');
  assert.equal(err('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141'), 'invalid private key, >=N');
  assert.equal(privateKeyToAddress(Buffer.from('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', 'hex')), '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
});

test('helpers: file names, lenient addresses, UUIDs, Go hex errors', () => {
  const name = keyFileName('0xF466859eAD1932D743d622CB74FC058882E8648A', new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)), 123);
  assert.equal(name, 'UTC--2024-01-02T03-04-05.678000123Z--f466859ead1932d743d622cb74fc058882e8648a');
  assert.equal(hexToAddress('f466859ead1932d743d622cb74fc058882e8648a'), '0xf466859ead1932d743d622cb74fc058882e8648a');
  assert.equal(hexToAddress('0x1'), '0x0000000000000000000000000000000000000001');
  assert.equal(hexToAddress('0x00f466859ead1932d743d622cb74fc058882e8648a'), '0xf466859ead1932d743d622cb74fc058882e8648a');
  assert.equal(hexToAddress('zz'), '0x0000000000000000000000000000000000000000');
  parseUUID('472e8b3d-afb6-45b5-8111-72c89895099a');
  parseUUID('{472e8b3d-afb6-45b5-8111-72c89895099a}');
  parseUUID('urn:uuid:472e8b3d-afb6-45b5-8111-72c89895099a');
  parseUUID('472e8b3dafb645b5811172c89895099a');
  assert.throws(() => goHexDecode('0g'), { message: "encoding/hex: invalid byte: U+0067 'g'" });
});
