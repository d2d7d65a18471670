// eth_sign and eth_signTransaction with the dev chain's unlocked accounts: the signatures must
// verify with an independent implementation (viem), and unknown accounts are refused.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { recoverMessageAddress, recoverTransactionAddress, type Hex } from 'viem';
import { rpc, startTestNode, type TestNode } from '../../../test/helpers.js';

const ACCOUNT0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
let t: TestNode;
let url: string;

before(async () => {
  t = await startTestNode({ 'db-type': 'memdb' });
  url = `${t.url}/ext/bc/dev/rpc`;
});
after(() => t.stop());

test('eth_sign signs the EIP-191 message hash with the unlocked key', async () => {
  const r = await rpc(url, 'eth_sign', [ACCOUNT0, '0x68656c6c6f']);
  assert.equal(r.error, undefined, JSON.stringify(r.error));
  assert.match(r.result, /^0x[0-9a-f]{130}$/);
  assert.ok(['1b', '1c'].includes(r.result.slice(-2)), 'v is 27 or 28');
  const signer = await recoverMessageAddress({ message: 'hello', signature: r.result as Hex });
  assert.equal(signer, ACCOUNT0);
});

test('eth_sign refuses an account the node does not hold', async () => {
  const r = await rpc(url, 'eth_sign', ['0x000000000000000000000000000000000000dEaD', '0x00']);
  assert.ok(r.error, 'an error');
  assert.equal(r.result, undefined);
});

test('eth_signTransaction returns a raw transaction signed by the sender', async () => {
  const r = await rpc(url, 'eth_signTransaction', [
    { from: ACCOUNT0, to: ACCOUNT0, value: '0x1', gas: '0x5208', maxFeePerGas: '0x9184e72a000', maxPriorityFeePerGas: '0x1', nonce: '0x0' },
  ]);
  assert.equal(r.error, undefined, JSON.stringify(r.error));
  const raw = (typeof r.result === 'string' ? r.result : r.result.raw) as Hex;
  assert.equal(await recoverTransactionAddress({ serializedTransaction: raw as never }), ACCOUNT0);
});

test("eth_signTransaction / eth_sendTransaction: geth's checks in geth's order; no `from` is the zero address", async () => {
  const err = async (method: string, args: Record<string, string>) => (await rpc(url, method, [args])).error;
  const full = { from: ACCOUNT0, to: ACCOUNT0, value: '0x1', gas: '0x5208', maxFeePerGas: '0x9184e72a000', maxPriorityFeePerGas: '0x1', nonce: '0x0' };
  const without = (k: string) => Object.fromEntries(Object.entries(full).filter(([key]) => key !== k));
  // Checked before the wallet: an unknown sender without gas is told about the gas.
  assert.deepEqual(await err('eth_signTransaction', { ...without('gas'), from: '0x000000000000000000000000000000000000dead' }), { code: -32000, message: 'gas not specified' });
  assert.deepEqual(await err('eth_signTransaction', without('maxFeePerGas')), { code: -32000, message: 'missing gasPrice or maxFeePerGas/maxPriorityFeePerGas' });
  assert.deepEqual(await err('eth_signTransaction', without('nonce')), { code: -32000, message: 'nonce not specified' });
  assert.deepEqual(await err('eth_signTransaction', without('from')), { code: -32000, message: 'unknown account' });
  assert.deepEqual(await err('eth_signTransaction', { ...full, from: '0x000000000000000000000000000000000000dead' }), { code: -32000, message: 'unknown account' });
  // A legacy gas price alone is enough.
  const legacy = Object.fromEntries(Object.entries({ ...full, gasPrice: '0x9184e72a000' }).filter(([k]) => !k.startsWith('max')));
  assert.equal((await rpc(url, 'eth_signTransaction', [legacy])).error, undefined);
  assert.deepEqual(await err('eth_sendTransaction', without('from')), { code: -32000, message: 'unknown account' });
});
