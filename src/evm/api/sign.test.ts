// eth_sign and eth_signTransaction with the dev chain's unlocked accounts: the signatures must
// verify with an independent implementation (viem), and unknown accounts are refused.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { keccak256, recoverMessageAddress, recoverTransactionAddress, type Hex } from 'viem';
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

test("eth_signTransaction and eth_fillTransaction answer {raw, tx} with tx as geth's types.Transaction JSON", async () => {
  const ok = async (method: string, args: Record<string, unknown>) => {
    const r = await rpc(url, method, [args]);
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    assert.deepEqual(Object.keys(r.result), ['raw', 'tx']);
    assert.equal(r.result.tx.hash, keccak256(r.result.raw), `${method}: the hash of the raw tx`);
    return r.result.tx as Record<string, unknown>;
  };
  const base = { from: ACCOUNT0, to: ACCOUNT0, value: '0x1', gas: '0x5208', nonce: '0x3' };
  // Go writes txJSON's fields in order; the fee fields a type lacks are null, not left out.
  const typed = ['type', 'chainId', 'nonce', 'to', 'gas', 'gasPrice', 'maxPriorityFeePerGas', 'maxFeePerGas', 'value', 'input', 'accessList', 'v', 'r', 's', 'yParity', 'hash'];
  const dyn = await ok('eth_signTransaction', { ...base, maxFeePerGas: '0x9184e72a000', maxPriorityFeePerGas: '0x1' });
  assert.deepEqual(Object.keys(dyn), typed);
  assert.deepEqual([dyn.type, dyn.chainId, dyn.nonce, dyn.gasPrice, dyn.maxPriorityFeePerGas, dyn.maxFeePerGas, dyn.accessList, dyn.yParity], ['0x2', '0xa8ca', '0x3', null, '0x1', '0x9184e72a000', [], dyn.v]);
  assert.equal(dyn.from, undefined);

  // A signed legacy tx is replay-protected (EIP-155): chainId from V.
  const legacy = await ok('eth_signTransaction', { ...base, gasPrice: '0x9184e72a000' });
  assert.deepEqual(Object.keys(legacy), ['type', 'chainId', 'nonce', 'to', 'gas', 'gasPrice', 'maxPriorityFeePerGas', 'maxFeePerGas', 'value', 'input', 'v', 'r', 's', 'hash']);
  assert.deepEqual([legacy.type, legacy.chainId, legacy.gasPrice, legacy.maxPriorityFeePerGas, legacy.maxFeePerGas], ['0x0', '0xa8ca', '0x9184e72a000', null, null]);
  assert.ok(legacy.v === '0x151b7' || legacy.v === '0x151b8', String(legacy.v));

  // Unsigned (eth_fillTransaction): V = 0, so a legacy tx has no chainId; a creation has to: null.
  const filled = await ok('eth_fillTransaction', { from: ACCOUNT0, data: '0x600060005560016000f3', gasPrice: '0x9184e72a000' });
  assert.deepEqual(Object.keys(filled), ['type', 'nonce', 'to', 'gas', 'gasPrice', 'maxPriorityFeePerGas', 'maxFeePerGas', 'value', 'input', 'v', 'r', 's', 'hash']);
  assert.deepEqual([filled.to, filled.input, filled.v, filled.r, filled.s], [null, '0x600060005560016000f3', '0x0', '0x0', '0x0']);
  const al = await ok('eth_fillTransaction', { ...base, gasPrice: '0x9184e72a000', accessList: [{ address: ACCOUNT0, storageKeys: ['0x' + '00'.repeat(31) + '01'] }] });
  assert.deepEqual(Object.keys(al), typed);
  assert.deepEqual([al.type, al.gasPrice, al.maxFeePerGas, al.accessList, al.yParity], ['0x1', '0x9184e72a000', null, [{ address: ACCOUNT0.toLowerCase(), storageKeys: ['0x' + '00'.repeat(31) + '01'] }], '0x0']);
  const dynFilled = await ok('eth_fillTransaction', { ...base, maxFeePerGas: '0x9184e72a000', maxPriorityFeePerGas: '0x1' });
  assert.deepEqual([dynFilled.gasPrice, dynFilled.maxFeePerGas, dynFilled.v, dynFilled.yParity], [null, '0x9184e72a000', '0x0', '0x0']);
});
