// The key directory (KeyStore) with geth's light scrypt parameters: files written as geth names and
// protects them, the account cache following the directory (added, changed, removed, skipped
// files), duplicates, timed and indefinite unlocks, and the ephemeral directory.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyStore } from './keystore.js';
import { KeystoreError, LIGHT_SCRYPT_N, LIGHT_SCRYPT_P, decryptKey } from './keyfile.js';
import { GETH_AAA, GETH_AAA_PRIV, SPEC_ADDRESS, SPEC_PBKDF2 } from './testVectors.js';

const root = mkdtempSync(join(tmpdir(), 'powder-keystore-test-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `ks${++n}`);
const light = (dir?: string) => new KeyStore({ dir, scryptN: LIGHT_SCRYPT_N, scryptP: LIGHT_SCRYPT_P });
const AAA = '0x' + GETH_AAA.address;
const AAA_FILE = 'UTC--2016-03-22T12-57-55.920751759Z--' + GETH_AAA.address;

async function message(p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    assert.ok(e instanceof KeystoreError, String(e));
    return e.message;
  }
  throw new Error('expected an error');
}

test('a new account: UTC--<time>--<address>, mode 0600, a v3 file that decrypts with the password', async () => {
  const dir = fresh();
  const ks = light(dir);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  const a = await ks.newAccount('secret');
  const files = readdirSync(dir);
  assert.equal(files.length, 1, 'no temporary file left');
  assert.match(files[0], /^UTC--\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{9}Z--[0-9a-f]{40}$/);
  assert.equal(files[0].slice(-40), a.address.slice(2));
  assert.equal(a.path, join(dir, files[0]));
  assert.equal(statSync(a.path).mode & 0o777, 0o600);
  const key = await decryptKey(readFileSync(a.path, 'utf8'), 'secret');
  assert.equal(key.address, a.address);
  assert.deepEqual(ks.accounts(), [a]);
});

test('the cache follows the directory; hidden, backup, non-JSON and address-less files are skipped', async () => {
  const dir = fresh();
  const ks = light(dir);
  assert.deepEqual(ks.accounts(), []);
  writeFileSync(join(dir, AAA_FILE), JSON.stringify(GETH_AAA));
  writeFileSync(join(dir, 'spec-vector'), JSON.stringify({ ...SPEC_PBKDF2, address: SPEC_ADDRESS.slice(2) }));
  writeFileSync(join(dir, '.hidden'), JSON.stringify(GETH_AAA));
  writeFileSync(join(dir, 'backup~'), JSON.stringify(GETH_AAA));
  writeFileSync(join(dir, 'README'), 'not a key');
  writeFileSync(join(dir, 'no-address'), JSON.stringify({ ...SPEC_PBKDF2 }));
  writeFileSync(join(dir, 'zero-address'), JSON.stringify({ ...SPEC_PBKDF2, address: '0000000000000000000000000000000000000000' }));
  mkdirSync(join(dir, 'subdir'));
  assert.deepEqual(ks.accounts(), [
    { address: AAA, path: join(dir, AAA_FILE) },
    { address: SPEC_ADDRESS, path: join(dir, 'spec-vector') },
  ]);
  // changed in place: the new address counts
  writeFileSync(join(dir, 'spec-vector'), JSON.stringify({ ...SPEC_PBKDF2, address: '0x00000000000000000000000000000000000000ff' }));
  assert.deepEqual(ks.accounts().map((a) => a.address), [AAA, '0x00000000000000000000000000000000000000ff']);
  rmSync(join(dir, 'spec-vector'));
  assert.deepEqual(ks.accounts().map((a) => a.address), [AAA]);
  // the address field disagrees with the key: decrypting says so
  writeFileSync(join(dir, 'liar'), JSON.stringify({ ...SPEC_PBKDF2, address: 'ff'.repeat(20) }));
  assert.equal(await message(ks.timedUnlock('0x' + 'ff'.repeat(20), 'testpassword', 0)), `key content mismatch: have account ${SPEC_ADDRESS.slice(2)}, want ${'ff'.repeat(20)}`);
});

test('imports: the same address twice is refused; two files of one address are ambiguous', async () => {
  const dir = fresh();
  const ks = light(dir);
  const priv = Buffer.from(GETH_AAA_PRIV, 'hex');
  const [first, second] = await Promise.allSettled([ks.importKey(priv, 'a'), ks.importKey(priv, 'b')]);
  assert.equal(first.status, 'fulfilled');
  assert.equal(second.status === 'rejected' && (second.reason as Error).message, 'account already exists');
  assert.equal(readdirSync(dir).length, 1);
  const path = (first as PromiseFulfilledResult<{ path: string }>).value.path;
  writeFileSync(join(dir, AAA_FILE), JSON.stringify(GETH_AAA));
  const both = [join(dir, AAA_FILE), path].sort();
  assert.equal(await message(() => ks.find(AAA)), `multiple keys match address (${both.join(', ')})`);
  assert.equal(await message(ks.timedUnlock(AAA, 'foobar', 0)), `multiple keys match address (${both.join(', ')})`);
  assert.equal(await message(() => ks.find('0x' + '11'.repeat(20))), 'no key for given address or file');
});

test('unlock: wrong password, timed expiry, indefinite unlock outlives a timed one, lock', async () => {
  const dir = fresh();
  const ks = light(dir);
  writeFileSync(join(dir, AAA_FILE), JSON.stringify(GETH_AAA));
  assert.equal(await message(ks.timedUnlock(AAA, 'nope', 0)), 'could not decrypt key with given password');
  assert.equal(ks.isUnlocked(AAA), false);
  // (this file's scrypt n=8 decrypts in well under a millisecond: the timings are the timers')
  await ks.timedUnlock(AAA, 'foobar', 300);
  assert.equal(Buffer.from(ks.unlockedKey(AAA)!).toString('hex'), GETH_AAA_PRIV);
  // a second timed unlock replaces the timer
  await new Promise((r) => setTimeout(r, 200));
  await ks.timedUnlock(AAA, 'foobar', 300);
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(ks.isUnlocked(AAA), true, 'the first timer was cancelled');
  await new Promise((r) => setTimeout(r, 250));
  assert.equal(ks.isUnlocked(AAA), false, 'expired');
  await ks.timedUnlock(AAA, 'foobar', 0);
  await ks.timedUnlock(AAA, 'foobar', 50);
  await new Promise((r) => setTimeout(r, 90));
  assert.equal(ks.isUnlocked(AAA), true, 'unlocked until locked');
  ks.lock(AAA);
  assert.equal(ks.isUnlocked(AAA), false);
  ks.lock(AAA); // nothing to lock: no error
  // a very long duration does not overflow Node's timers
  await ks.timedUnlock(AAA, 'foobar', 2 ** 40);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(ks.isUnlocked(AAA), true);
  ks.close();
  assert.equal(ks.isUnlocked(AAA), false, 'close drops unlocked keys');
});

test('an ephemeral directory is made on the first write and removed by close', async () => {
  const ks = light();
  assert.equal(ks.dir, undefined);
  assert.deepEqual(ks.accounts(), []);
  const a = await ks.importKey(Buffer.from(GETH_AAA_PRIV, 'hex'), 'x');
  const dir = ks.dir!;
  assert.ok(dir.startsWith(join(tmpdir(), 'subnet-evm-keystore')), dir);
  assert.ok(existsSync(a.path));
  ks.close();
  assert.equal(existsSync(dir), false);
});

test('a file renamed into the directory (as geth writes) is picked up at once', () => {
  const dir = fresh();
  const ks = light(dir);
  assert.deepEqual(ks.accounts(), []);
  writeFileSync(join(dir, '.tmp'), JSON.stringify(GETH_AAA));
  assert.deepEqual(ks.accounts(), []);
  renameSync(join(dir, '.tmp'), join(dir, AAA_FILE));
  assert.deepEqual(ks.accounts().map((a) => a.address), [AAA]);
});
