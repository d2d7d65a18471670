// The "internal-personal" service over real HTTP, on a dev chain whose keystore-directory holds
// key files geth wrote: accounts and wallets listed after the dev accounts, new and imported keys
// written as geth writes them, unlocking (wrong password, timed expiry, lock) and what it enables
// for eth_sendTransaction / eth_sign / eth_signTransaction, the personal_* signing methods, the
// wallet methods keystore wallets refuse, and geth's error for every kind of bad input.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recoverMessageAddress, recoverTransactionAddress, type Hex } from 'viem';
import { DEV_ADDRS, devNodeWithConfig, type Rpc } from '../chain/testkit.js';
import { checksumAddress } from '../chain/devAccounts.js';
import { privateKeyToAddress } from '../keystore/keyfile.js';
import { GETH_AAA, SPEC_ADDRESS, SPEC_PBKDF2 } from '../keystore/testVectors.js';
import { DEFAULT_ETH_APIS } from './vmConfig.js';
import type { TestNode } from '../../../test/helpers.js';

const AAA = '0x' + GETH_AAA.address; // password "foobar" (scrypt n=8: quick)
const AAA_FILE = 'UTC--2016-03-22T12-57-55.920751759Z--' + GETH_AAA.address;
const SPEC = SPEC_ADDRESS; // password "testpassword" (pbkdf2)
const SPEC_FILE = 'UTC--2015-11-04T10-12-33.000000000Z--' + SPEC.slice(2);
const UNKNOWN = '0x000000000000000000000000000000000000dead';
const APIS = [...DEFAULT_ETH_APIS, 'internal-account', 'internal-private-personal'];

let root: string;
let ksDir: string;
let node: TestNode;
let rpc: Rpc;
const nodes: TestNode[] = [];

/** The error of a call that must fail: {code, message}. */
async function fails(method: string, params: unknown[]): Promise<{ code: number; message: string }> {
  const r = await rpc.raw(method, params);
  assert.ok(r.error, `${method} ${JSON.stringify(params)} should fail, got ${JSON.stringify(r.result)}`);
  return { code: r.error.code, message: r.error.message };
}
const gethError = (message: string) => ({ code: -32000, message });
const paramError = (message: string) => ({ code: -32602, message });

async function minedBy(hash: string, from: string): Promise<void> {
  const rc = await rpc('eth_getTransactionReceipt', [hash]);
  assert.equal(rc?.status, '0x1', JSON.stringify(rc));
  assert.equal(rc.from, from);
}

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'powder-personal-'));
  ksDir = join(root, 'keys');
  mkdirSync(ksDir);
  writeFileSync(join(ksDir, AAA_FILE), JSON.stringify(GETH_AAA));
  writeFileSync(join(ksDir, SPEC_FILE), JSON.stringify({ ...SPEC_PBKDF2, address: SPEC.slice(2) }));
  writeFileSync(join(ksDir, '.hidden'), JSON.stringify(GETH_AAA));
  ({ node, rpc } = await devNodeWithConfig({ 'eth-apis': APIS, 'keystore-directory': ksDir }));
  nodes.push(node);
});

after(async () => {
  for (const n of nodes) await n.stop();
  rmSync(root, { recursive: true, force: true });
});

test('key files are listed after the dev accounts, by file name; eth_accounts is the same list', async () => {
  const accounts: string[] = await rpc('personal_listAccounts');
  assert.deepEqual(accounts.slice(0, 3), DEV_ADDRS);
  assert.deepEqual(accounts.slice(-2), [SPEC, AAA]);
  assert.equal(accounts.length, 13, '10 mnemonic accounts, ewoq, two key files');
  assert.deepEqual(await rpc('eth_accounts'), accounts);
  const wallets: any[] = await rpc('personal_listWallets');
  assert.deepEqual(wallets[0], { url: `dev://${DEV_ADDRS[0]}`, status: 'Unlocked', accounts: [{ address: DEV_ADDRS[0], url: `dev://${DEV_ADDRS[0]}` }] });
  const url = `keystore://${join(ksDir, AAA_FILE)}`;
  assert.deepEqual(wallets.at(-1), { url, status: 'Locked', accounts: [{ address: AAA, url }] });
  assert.equal(wallets.at(-2).url, `keystore://${join(ksDir, SPEC_FILE)}`);
});

test('personal_newAccount writes a geth v3 key file with the standard scrypt parameters', async () => {
  const started = Date.now();
  const addr: string = await rpc('personal_newAccount', ['pw1']);
  const ms = Date.now() - started;
  assert.match(addr, /^0x[0-9a-fA-F]{40}$/);
  assert.equal(addr, checksumAddress(addr), 'EIP-55 checksummed, as geth answers');
  const lower = addr.toLowerCase();
  const name = readdirSync(ksDir).find((f) => f.endsWith(lower.slice(2)))!;
  assert.match(name, /^UTC--\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{9}Z--[0-9a-f]{40}$/);
  const file = join(ksDir, name);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const json = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(json.address, lower.slice(2));
  assert.equal(json.version, 3);
  assert.equal(json.crypto.cipher, 'aes-128-ctr');
  assert.equal(json.crypto.kdf, 'scrypt');
  assert.deepEqual({ ...json.crypto.kdfparams, salt: 0 }, { dklen: 32, n: 262144, p: 1, r: 8, salt: 0 });
  assert.equal((await rpc('personal_listAccounts')).at(-1), lower);
  const w = (await rpc('personal_listWallets')).at(-1);
  assert.deepEqual(w, { url: `keystore://${file}`, status: 'Locked', accounts: [{ address: lower, url: `keystore://${file}` }] });
  assert.ok(ms < 10_000, `one standard scrypt run took ${ms} ms`);
  assert.deepEqual(await fails('personal_newAccount', [1]), paramError('invalid argument 0: json: cannot unmarshal number into Go value of type string'));
  assert.deepEqual(await fails('personal_newAccount', ['a', 'b']), paramError('too many arguments, want at most 1'));
  assert.deepEqual(await fails('personal_newAccount', []), paramError('missing value for required argument 0'));
});

test("personal_importRawKey: the key's address and a file; geth's errors", async () => {
  const priv = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
  const expected = privateKeyToAddress(Buffer.from(priv, 'hex'));
  assert.equal(await rpc('personal_importRawKey', [priv, 'pw2']), expected);
  assert.ok(readdirSync(ksDir).some((f) => f.endsWith(expected.slice(2))));
  assert.ok((await rpc('personal_listAccounts')).includes(expected));
  // the duplicate check comes before any key derivation: these answer at once
  assert.deepEqual(await fails('personal_importRawKey', [priv, 'other']), gethError('account already exists'));
  assert.deepEqual(await fails('personal_importRawKey', ['539f9b4106fb452408e1ee43d177077f057a8fdc1e1fad92c61e68982b4e3c4b', '']), gethError('account already exists'));
  assert.deepEqual(await fails('personal_importRawKey', ['0x' + priv, 'x']), gethError("invalid hex character 'x' in private key"));
  assert.deepEqual(await fails('personal_importRawKey', ['abc', 'x']), gethError('invalid hex data for private key'));
  assert.deepEqual(await fails('personal_importRawKey', ['00'.repeat(31), 'x']), gethError('invalid length, need 256 bits'));
  assert.deepEqual(await fails('personal_importRawKey', ['00'.repeat(32), 'x']), gethError('invalid private key, zero or negative'));
  assert.deepEqual(await fails('personal_importRawKey', [7, 'x']), paramError('invalid argument 0: json: cannot unmarshal number into Go value of type string'));
  assert.deepEqual(await fails('personal_importRawKey', [priv, ['x']]), paramError('invalid argument 1: json: cannot unmarshal array into Go value of type string'));
  assert.deepEqual(await fails('personal_importRawKey', [priv]), paramError('missing value for required argument 1'));
  assert.deepEqual(await fails('personal_importRawKey', [priv, 'x', 'y']), paramError('too many arguments, want at most 2'));
});

test("personal_unlockAccount: geth's errors; dev accounts are always unlocked", async () => {
  assert.deepEqual(await fails('personal_unlockAccount', [AAA, 'wrong']), gethError('could not decrypt key with given password'));
  assert.deepEqual(await fails('personal_unlockAccount', [UNKNOWN, 'x']), gethError('no key for given address or file'));
  assert.deepEqual(await fails('personal_unlockAccount', [AAA, 'foobar', 9223372037]), gethError('unlock duration too large'));
  assert.deepEqual(await fails('personal_unlockAccount', ['0x12', 'x']), paramError('invalid argument 0: hex string has length 2, want 40 for common.Address'));
  assert.deepEqual(await fails('personal_unlockAccount', [AAA, 'foobar', '0x1']), paramError('invalid argument 2: json: cannot unmarshal string into Go value of type uint64'));
  assert.deepEqual(await fails('personal_unlockAccount', [AAA, 'foobar', -1]), paramError('invalid argument 2: json: cannot unmarshal number -1 into Go value of type uint64'));
  assert.deepEqual(await fails('personal_unlockAccount', [AAA, 'foobar', 1, 2]), paramError('too many arguments, want at most 3'));
  assert.deepEqual(await fails('personal_unlockAccount', [AAA]), paramError('missing value for required argument 1'));
  assert.equal(await rpc('personal_unlockAccount', [DEV_ADDRS[0], 'anything']), true);
  // still locked after the failures
  assert.equal((await rpc('personal_listWallets')).find((w: any) => w.accounts[0].address === AAA).status, 'Locked');
});

test('a locked key cannot sign; unlocked it sends (mined), signs, and locks again', async () => {
  assert.ok(await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: AAA, value: '0xde0b6b3a7640000' }]));
  const locked = gethError('authentication needed: password or unlock');
  assert.deepEqual(await fails('eth_sendTransaction', [{ from: AAA, to: DEV_ADDRS[1], value: '0x1' }]), locked);
  assert.deepEqual(await fails('eth_sign', [AAA, '0x68656c6c6f']), locked);
  const signArgs = { from: AAA, to: DEV_ADDRS[1], value: '0x1', gas: '0x5208', maxFeePerGas: '0x9184e72a000', maxPriorityFeePerGas: '0x1', nonce: '0x0' };
  assert.deepEqual(await fails('eth_signTransaction', [signArgs]), locked);
  assert.deepEqual(await fails('eth_sendTransaction', [{ from: UNKNOWN, to: DEV_ADDRS[1] }]), gethError('unknown account'));

  assert.equal(await rpc('personal_unlockAccount', [AAA, 'foobar', 0]), true);
  assert.equal((await rpc('personal_listWallets')).find((w: any) => w.accounts[0].address === AAA).status, 'Unlocked');
  const hash = await rpc('eth_sendTransaction', [{ from: AAA, to: DEV_ADDRS[1], value: '0x1234' }]);
  await minedBy(hash, AAA);
  const sig = await rpc('eth_sign', [AAA, '0x68656c6c6f']);
  assert.equal(await recoverMessageAddress({ message: 'hello', signature: sig as Hex }), checksumAddress(AAA));
  const signed = await rpc('eth_signTransaction', [{ ...signArgs, nonce: '0x1' }]);
  assert.equal(await recoverTransactionAddress({ serializedTransaction: signed.raw as never }), checksumAddress(AAA));

  assert.equal(await rpc('personal_lockAccount', [AAA]), true);
  assert.equal(await rpc('personal_lockAccount', [UNKNOWN]), true, 'geth: true whatever the address');
  assert.deepEqual(await fails('eth_sendTransaction', [{ from: AAA, to: DEV_ADDRS[1], value: '0x1' }]), locked);
  assert.deepEqual(await fails('personal_lockAccount', ['0x1']), paramError('invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type common.Address'));
});

test('an unlock with a duration (seconds) expires', async () => {
  assert.equal(await rpc('personal_unlockAccount', [AAA, 'foobar', 1]), true);
  assert.match(await rpc('eth_sign', [AAA, '0x01']), /^0x[0-9a-f]{130}$/);
  await new Promise((r) => setTimeout(r, 1300));
  assert.deepEqual(await fails('eth_sign', [AAA, '0x01']), gethError('authentication needed: password or unlock'));
});

test('personal_sign / personal_ecRecover round trip, and their errors', async () => {
  const sig: string = await rpc('personal_sign', ['0x68656c6c6f', SPEC, 'testpassword']);
  assert.match(sig, /^0x[0-9a-f]{128}(1b|1c)$/);
  assert.equal(await rpc('personal_ecRecover', ['0x68656c6c6f', sig]), SPEC);
  assert.equal(await recoverMessageAddress({ message: 'hello', signature: sig as Hex }), checksumAddress(SPEC));
  // the same signature eth_sign gives once unlocked (RFC 6979: deterministic)
  assert.equal(await rpc('personal_unlockAccount', [SPEC, 'testpassword', 0]), true);
  assert.equal(await rpc('eth_sign', [SPEC, '0x68656c6c6f']), sig);
  await rpc('personal_lockAccount', [SPEC]);
  // dev accounts sign whatever the password
  const devSig = await rpc('personal_sign', ['0x', DEV_ADDRS[2], '']);
  assert.equal(await rpc('personal_ecRecover', ['0x', devSig]), DEV_ADDRS[2]);

  assert.deepEqual(await fails('personal_sign', ['0x68656c6c6f', SPEC, 'nope']), gethError('could not decrypt key with given password'));
  assert.deepEqual(await fails('personal_sign', ['0x68656c6c6f', UNKNOWN, 'x']), gethError('unknown account'));
  assert.deepEqual(await fails('personal_sign', ['0x68656c6c6f', SPEC]), paramError('missing value for required argument 2'));
  assert.deepEqual(await fails('personal_sign', ['hello', SPEC, 'x']), paramError('invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Bytes'));
  assert.deepEqual(await fails('personal_sign', ['0x00', SPEC, 'x', 'y']), paramError('too many arguments, want at most 3'));
  assert.deepEqual(await fails('personal_ecRecover', ['0x00', sig.slice(0, -2)]), gethError('signature must be 65 bytes long'));
  assert.deepEqual(await fails('personal_ecRecover', ['0x00', sig.slice(0, -2) + '01']), gethError('invalid Ethereum signature (V is not 27 or 28)'));
  assert.deepEqual(await fails('personal_ecRecover', ['0x00', '0x' + '00'.repeat(64) + '1b']), gethError('recovery failed'));
  assert.deepEqual(await fails('personal_ecRecover', ['0x00', '0x0']), paramError('invalid argument 1: json: cannot unmarshal hex string of odd length into Go value of type hexutil.Bytes'));
  assert.deepEqual(await fails('personal_ecRecover', ['0x00']), paramError('missing value for required argument 1'));
});

test("personal_signTransaction: geth's checks in order, then a transaction signed with the password's key", async () => {
  const base = { from: SPEC, to: DEV_ADDRS[1], value: '0x1' };
  const order: [Record<string, unknown>, string][] = [
    [{ to: DEV_ADDRS[1] }, 'sender not specified'],
    [base, 'gas not specified'],
    [{ ...base, gas: '0x5208' }, 'missing gasPrice or maxFeePerGas/maxPriorityFeePerGas'],
    [{ ...base, gas: '0x5208', maxFeePerGas: '0x9184e72a000' }, 'missing gasPrice or maxFeePerGas/maxPriorityFeePerGas'],
    [{ ...base, gas: '0x5208', gasPrice: '0x9184e72a000', blobVersionedHashes: [] }, 'signing blob transactions not supported'],
    [{ ...base, gas: '0x5208', gasPrice: '0x9184e72a000' }, 'nonce not specified'],
    [{ ...base, gas: '0x5208', gasPrice: '0x56bc75e2d63100000', nonce: '0x0' }, 'tx fee (2100000.00 ether) exceeds the configured cap (100.00 ether)'],
    [{ ...base, from: UNKNOWN, gas: '0x5208', gasPrice: '0x9184e72a000', nonce: '0x0' }, 'unknown account'],
  ];
  for (const [args, message] of order) assert.deepEqual(await fails('personal_signTransaction', [args, 'testpassword']), gethError(message), message);
  const good = { ...base, gas: '0x5208', maxFeePerGas: '0x9184e72a000', maxPriorityFeePerGas: '0x1', nonce: '0x7' };
  assert.deepEqual(await fails('personal_signTransaction', [good, 'nope']), gethError('could not decrypt key with given password'));
  const r = await rpc('personal_signTransaction', [good, 'testpassword']);
  assert.equal(await recoverTransactionAddress({ serializedTransaction: r.raw as never }), checksumAddress(SPEC));
  // geth's SignTransactionResult: types.Transaction's JSON, which has no `from`.
  assert.equal(r.tx.nonce, '0x7');
  assert.equal(r.tx.from, undefined);
  assert.equal(r.tx.maxFeePerGas, '0x9184e72a000');
  assert.deepEqual(await fails('personal_signTransaction', [good]), paramError('missing value for required argument 1'));
  assert.deepEqual(await fails('personal_signTransaction', [{ ...good, gas: 5 }, 'x']), paramError('invalid argument 0: json: cannot unmarshal non-string into Go struct field TransactionArgs.gas of type hexutil.Uint64'));
});

test('personal_sendTransaction signs with the password and submits (mined); the account stays locked', async () => {
  const hash = await rpc('personal_sendTransaction', [{ from: AAA, to: DEV_ADDRS[1], value: '0x1' }, 'foobar']);
  await minedBy(hash, AAA);
  assert.deepEqual(await fails('eth_sendTransaction', [{ from: AAA, to: DEV_ADDRS[1], value: '0x1' }]), gethError('authentication needed: password or unlock'));
  // two at once: the nonce lock gives them consecutive nonces
  const nonce = Number(await rpc('eth_getTransactionCount', [AAA, 'latest']));
  const hashes = await Promise.all([1, 2].map((v) => rpc('personal_sendTransaction', [{ from: AAA, to: DEV_ADDRS[1], value: '0x' + v.toString(16) }, 'foobar'])));
  const nonces = await Promise.all(hashes.map(async (h) => Number((await rpc('eth_getTransactionByHash', [h])).nonce)));
  assert.deepEqual(nonces.sort(), [nonce, nonce + 1]);
  for (const h of hashes) await minedBy(h, AAA);
  assert.deepEqual(await fails('personal_sendTransaction', [{ from: AAA, to: DEV_ADDRS[1] }, 'nope']), gethError('could not decrypt key with given password'));
  // The fee cap is checked when the signed tx is submitted (after the password), as geth's
  // SubmitTransaction does; a gas × price past 2^256 too (geth's big.Int holds it).
  const over = { from: AAA, to: DEV_ADDRS[1], gas: '0x5208', gasPrice: '0x56bc75e2d63100000' };
  assert.deepEqual(await fails('personal_sendTransaction', [over, 'nope']), gethError('could not decrypt key with given password'));
  assert.deepEqual(await fails('personal_sendTransaction', [over, 'foobar']), gethError('tx fee (2100000.00 ether) exceeds the configured cap (100.00 ether)'));
  const huge = { ...over, gas: '0xffffffffffffffff', gasPrice: '0x' + (2n ** 200n).toString(16) };
  assert.deepEqual(await fails('personal_sendTransaction', [huge, 'nope']), gethError('could not decrypt key with given password'));
  assert.match((await fails('personal_sendTransaction', [huge, 'foobar'])).message, /^tx fee \(\d+\.00 ether\) exceeds the configured cap \(100\.00 ether\)$/);
  assert.deepEqual(await fails('personal_sendTransaction', [{ from: UNKNOWN, to: DEV_ADDRS[1] }, 'x']), gethError('unknown account'));
  assert.deepEqual(await fails('personal_sendTransaction', [{ to: DEV_ADDRS[1] }, 'x']), gethError('unknown account'));
  assert.deepEqual(await fails('personal_sendTransaction', [{ from: AAA, to: DEV_ADDRS[1] }]), paramError('missing value for required argument 1'));
  // a dev account: any password
  await minedBy(await rpc('personal_sendTransaction', [{ from: DEV_ADDRS[2], to: DEV_ADDRS[1], value: '0x1' }, '']), DEV_ADDRS[2]);
});

test('wallet methods: keystore (and dev) wallets open as a no-op and refuse the rest', async () => {
  const url = `keystore://${join(ksDir, AAA_FILE)}`;
  assert.equal(await rpc('personal_openWallet', [url]), null);
  assert.equal(await rpc('personal_openWallet', [url, 'pin']), null);
  assert.equal(await rpc('personal_openWallet', [`dev://${DEV_ADDRS[0]}`, null]), null);
  assert.deepEqual(await fails('personal_openWallet', ['nope']), gethError('protocol scheme missing'));
  assert.deepEqual(await fails('personal_openWallet', ['keystore:///nope']), gethError('unknown wallet'));
  assert.deepEqual(await fails('personal_openWallet', [url, 1]), paramError('invalid argument 1: json: cannot unmarshal number into Go value of type string'));
  assert.deepEqual(await fails('personal_openWallet', [url, 'a', 'b']), paramError('too many arguments, want at most 2'));
  assert.deepEqual(await fails('personal_deriveAccount', [url, "m/44'/60'/0'/0/0"]), gethError('not supported'));
  assert.deepEqual(await fails('personal_deriveAccount', [url, "m/44'/60'/0'/0/0", true]), gethError('not supported'));
  assert.deepEqual(await fails('personal_deriveAccount', [url, '/0']), gethError("ambiguous path: use 'm/' prefix for absolute paths, or no leading '/' for relative ones"));
  assert.deepEqual(await fails('personal_deriveAccount', [url, 'm']), gethError('empty derivation path'));
  assert.deepEqual(await fails('personal_deriveAccount', [url, 'm/x']), gethError('invalid component: x'));
  assert.deepEqual(await fails('personal_deriveAccount', [url, 'm/4294967296']), gethError('component 4294967296 out of allowed range [0, 4294967295]'));
  assert.deepEqual(await fails('personal_deriveAccount', [url, "m/2147483648'"]), gethError('component 2147483648 out of allowed hardened range [0, 2147483647]'));
  assert.deepEqual(await fails('personal_deriveAccount', ['keystore:///nope', 'x']), gethError('unknown wallet'));
  assert.deepEqual(await fails('personal_deriveAccount', [url, 'm/0', 'yes']), paramError('invalid argument 2: json: cannot unmarshal string into Go value of type bool'));
  assert.deepEqual(await fails('personal_initializeWallet', [url]), gethError('specified wallet does not support initialization'));
  assert.deepEqual(await fails('personal_initializeWallet', ['x']), gethError('protocol scheme missing'));
  assert.deepEqual(await fails('personal_initializeWallet', []), paramError('missing value for required argument 0'));
  assert.deepEqual(await fails('personal_unpair', [url, '1234']), gethError('specified wallet does not support pairing'));
  assert.deepEqual(await fails('personal_unpair', ['usb://x', '1234']), gethError('unknown wallet'));
  assert.deepEqual(await fails('personal_unpair', [url]), paramError('missing value for required argument 1'));
});

test('files added to or removed from the directory while the node runs count at once', async () => {
  const copy = join(ksDir, 'UTC--2017-01-01T00-00-00.000000000Z--' + GETH_AAA.address);
  copyFileSync(join(ksDir, AAA_FILE), copy);
  const accounts: string[] = await rpc('personal_listAccounts');
  assert.equal(accounts.filter((a) => a === AAA).length, 2);
  assert.deepEqual(await fails('personal_unlockAccount', [AAA, 'foobar']), gethError(`multiple keys match address (${join(ksDir, AAA_FILE)}, ${copy})`));
  rmSync(copy);
  assert.equal((await rpc('personal_listAccounts')).filter((a: string) => a === AAA).length, 1);
  assert.equal(await rpc('personal_unlockAccount', [AAA, 'foobar', 1]), true);
  await rpc('personal_lockAccount', [AAA]);
});

test('bad input of every kind is answered and the node keeps serving', async () => {
  const cases: [string, unknown[], { code: number; message: string }][] = [
    ['personal_listAccounts', [1], paramError('too many arguments, want at most 0')],
    ['personal_listWallets', [null], paramError('too many arguments, want at most 0')],
    ['personal_lockAccount', [], paramError('missing value for required argument 0')],
    ['personal_lockAccount', [{}], paramError('invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Address')],
    ['personal_unlockAccount', ['0x' + 'zz'.repeat(20), 'x'], paramError('invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type common.Address')],
    ['personal_unlockAccount', [AAA, true], paramError('invalid argument 1: json: cannot unmarshal bool into Go value of type string')],
    ['personal_unlockAccount', [AAA, 'foobar', 1.5], paramError('invalid argument 2: json: cannot unmarshal number 1.5 into Go value of type uint64')],
    ['personal_sendTransaction', ['0x00', 'x'], paramError('invalid argument 0: json: cannot unmarshal string into Go value of type ethapi.TransactionArgs')],
    ['personal_ecRecover', [1, '0x'], paramError('invalid argument 0: json: cannot unmarshal non-string into Go value of type hexutil.Bytes')],
    ['personal_importRawKey', [null, null], gethError('invalid length, need 256 bits')],
    ['personal_deriveAccount', [null, null], gethError('protocol scheme missing')],
  ];
  for (const [method, params, want] of cases) assert.deepEqual(await fails(method, params), want, `${method} ${JSON.stringify(params)}`);
  assert.match(await rpc('eth_blockNumber'), /^0x[0-9a-f]+$/);
  assert.equal((await rpc('personal_listAccounts')).length, 15);
});

test('keystore options: an ephemeral directory by default, no external signer, no file as directory; off without the service', async () => {
  // The default dev chain does not serve personal_*.
  const plain = await devNodeWithConfig({});
  nodes.push(plain.node);
  const r = await plain.rpc.raw('personal_listAccounts', []);
  assert.deepEqual(r.error, { code: -32601, message: 'the method personal_listAccounts does not exist/is not available' });

  const eph = await devNodeWithConfig({ 'eth-apis': [...DEFAULT_ETH_APIS, 'internal-personal'] });
  nodes.push(eph.node);
  assert.equal((await eph.rpc('personal_listWallets')).length, 11, 'the dev accounts only');
  const addr = await eph.rpc('personal_importRawKey', ['539f9b4106fb452408e1ee43d177077f057a8fdc1e1fad92c61e68982b4e3c4b', 'p']);
  assert.equal(addr, AAA);
  const url: string = (await eph.rpc('personal_listWallets')).at(-1).url;
  assert.ok(url.startsWith(`keystore://${join(tmpdir(), 'subnet-evm-keystore')}`), url);
  // The temporary directory goes when the chain stops.
  const ephDir = url.slice('keystore://'.length, url.lastIndexOf('/'));
  assert.ok(statSync(ephDir).isDirectory());
  await eph.node.stop();
  assert.throws(() => statSync(ephDir), /ENOENT/);

  await assert.rejects(devNodeWithConfig({ 'keystore-external-signer': 'http://127.0.0.1:8550' }), /error connecting to external signer/);
  const file = join(root, 'a-file');
  writeFileSync(file, '');
  await assert.rejects(devNodeWithConfig({ 'keystore-directory': file }), (e: Error) => e.message.includes(`mkdir ${file}: not a directory`));
  await assert.rejects(devNodeWithConfig({ 'keystore-directory': 5 }), (e: Error) => e.message.includes('json: cannot unmarshal number into Go struct field Config.keystore-directory of type string'));
  await assert.rejects(devNodeWithConfig({ 'keystore-insecure-unlock-allowed': 'yes' }), (e: Error) => e.message.includes('json: cannot unmarshal string into Go struct field Config.keystore-insecure-unlock-allowed of type bool'));
  // keystore-insecure-unlock-allowed: accepted; unlocking over HTTP works either way (Subnet-EVM).
  const insecure = await devNodeWithConfig({ 'eth-apis': APIS, 'keystore-directory': ksDir, 'keystore-insecure-unlock-allowed': false });
  nodes.push(insecure.node);
  assert.equal(await insecure.rpc('personal_unlockAccount', [AAA, 'foobar', 1]), true);
});
