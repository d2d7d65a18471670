import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEV_MNEMONIC, EWOQ_PRIVATE_KEY, deriveFromMnemonic, derivePrivateKey, devAccounts, mnemonicToSeed, privateKeyToAddress } from './devAccounts.js';

const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

test('dev accounts: the well-known keys of the test mnemonic, then ewoq', () => {
  const a = devAccounts();
  assert.equal(a.length, 11);
  assert.deepEqual(a[0], { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' });
  assert.deepEqual(a[1], { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' });
  assert.deepEqual(a[10], { address: '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC', privateKey: EWOQ_PRIVATE_KEY });
});

test('dev accounts: each key is the full m/44\'/60\'/0\'/0/i derivation, for any count', () => {
  const seed = mnemonicToSeed(DEV_MNEMONIC);
  const a = devAccounts(undefined, 25);
  assert.equal(a.length, 26);
  for (let i = 0; i < 25; i++) {
    const k = derivePrivateKey(seed, `m/44'/60'/0'/0/${i}`);
    assert.equal(a[i].privateKey, hex(k), `account ${i}`);
    assert.equal(a[i].address, privateKeyToAddress(k));
  }
  assert.deepEqual(devAccounts(undefined, 0), [a[25]]);
  // Another mnemonic gives other keys (the cache is per mnemonic).
  const other = devAccounts('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about', 1);
  assert.equal(other[0].privateKey, hex(derivePrivateKey(mnemonicToSeed('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'), "m/44'/60'/0'/0/0")));
  assert.notEqual(other[0].privateKey, a[0].privateKey);
});

test('dev accounts: the precomputed first ten are exactly the derivation, with ewoq last', () => {
  for (const count of [0, 1, 7, 10]) {
    assert.deepEqual(devAccounts(DEV_MNEMONIC, count), deriveFromMnemonic(DEV_MNEMONIC, count), `count ${count}`);
  }
  assert.equal(privateKeyToAddress(Buffer.from(EWOQ_PRIVATE_KEY.slice(2), 'hex')), '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
});

test('dev accounts: callers get their own copies', () => {
  const a = devAccounts();
  a[0].address = 'changed';
  a.pop();
  const b = devAccounts();
  assert.equal(b.length, 11);
  assert.equal(b[0].address, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
});

test('derivePrivateKey: a path must start at m', () => {
  assert.throws(() => derivePrivateKey(mnemonicToSeed(DEV_MNEMONIC), "44'/60'/0'/0/0"), /invalid derivation path/);
});
