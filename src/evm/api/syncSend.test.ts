// EIP-7966's eth_sendRawTransactionSync / eth_sendTransactionSync against a real node over HTTP,
// with raw requests and through viem's wallet actions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWalletClient, defineChain, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { useDevNode, rpcError, signTx, devNodeWithConfig, CHAIN_ID, DEV_ADDRS, DEV_KEYS } from '../chain/testkit.js';

const { rpc } = useDevNode();
const OTHER = '0x1234567890123456789012345678901234567890';

test('with the automine the answer is the receipt, as eth_getTransactionReceipt gives it', async () => {
  const raw = signTx(1, { nonce: BigInt(await rpc('eth_getTransactionCount', [DEV_ADDRS[1], 'latest'])), to: OTHER, value: 5n });
  const r1 = await rpc('eth_sendRawTransactionSync', [raw]);
  assert.equal(r1.status, '0x1');
  assert.deepEqual(r1, await rpc('eth_getTransactionReceipt', [r1.transactionHash]));
  const r2 = await rpc('eth_sendTransactionSync', [{ from: DEV_ADDRS[0], to: OTHER, value: '0x6' }, 5000]);
  assert.deepEqual(r2, await rpc('eth_getTransactionReceipt', [r2.transactionHash]));
  assert.equal(r2.blockNumber, await rpc('eth_blockNumber'));
  // A reverted tx is a receipt with status 0, not an error (creation code INVALID).
  const r3 = await rpc('eth_sendTransactionSync', [{ from: DEV_ADDRS[0], data: '0xfe', gas: '0x10000' }]);
  assert.equal(r3.status, '0x0');
});

test('viem: sendRawTransactionSync and sendTransactionSync read the answer', async () => {
  const chain = defineChain({ id: Number(CHAIN_ID), name: 'dev', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [rpc.url] } } });
  const account = privateKeyToAccount(`0x${DEV_KEYS[2]}`);
  const wallet = createWalletClient({ chain, transport: http(rpc.url), account });
  const receipt = await wallet.sendTransactionSync({ to: OTHER, value: 7n });
  assert.equal(receipt.status, 'success');
  assert.equal(receipt.to, OTHER);
  const signed = await wallet.signTransaction(await wallet.prepareTransactionRequest({ to: OTHER, value: 8n }));
  const again = await wallet.sendRawTransactionSync({ serializedTransaction: signed });
  assert.equal(again.status, 'success');
  assert.equal(again.blockNumber, receipt.blockNumber + 1n);
});

test('without a block in time: error 4 with the hash as data, the tx left in the pool; a block mined while waiting ends the wait', async () => {
  await rpc('evm_setAutomine', [false]);
  try {
    const nonce = BigInt(await rpc('eth_getTransactionCount', [DEV_ADDRS[1], 'latest']));
    const raw = signTx(1, { nonce, to: OTHER, value: 1n });
    const e = await rpcError(rpc('eth_sendRawTransactionSync', [raw, 50]));
    assert.equal(e.code, 4);
    assert.equal(e.message, "The transaction was added to the transaction pool but wasn't processed in 50ms.");
    assert.equal(typeof e.data, 'string');
    assert.equal((await rpc('eth_getTransactionByHash', [e.data])).blockHash, null, 'still pending');
    // Waiting (hex timeout) while another request mines the block.
    const waiting = rpc('eth_sendRawTransactionSync', [signTx(1, { nonce: nonce + 1n, to: OTHER, value: 1n }), '0x2710']);
    await new Promise((r) => setTimeout(r, 100));
    await rpc('evm_mine');
    const r = await waiting;
    assert.equal(r.status, '0x1');
    assert.equal((await rpc('eth_getTransactionReceipt', [e.data])).blockNumber, r.blockNumber, 'both went into the block mined');
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
});

test('bad input: the send methods\' errors, a bad timeout is -32602; without the test controls no method', async () => {
  let e = await rpcError(rpc('eth_sendRawTransactionSync', ['0x02c0']));
  assert.deepEqual([e.code, e.message], [-32000, 'rlp: too few elements for types.DynamicFeeTx']);
  e = await rpcError(rpc('eth_sendTransactionSync', [{ from: OTHER, to: OTHER }]));
  assert.deepEqual([e.code, e.message], [-32000, 'unknown account']);
  const raw = signTx(0, { nonce: 0n, to: OTHER });
  for (const [params, want] of [
    [[], /^missing value for required argument 0$/],
    [[raw, -1], /^invalid argument 1: timeout -1 is not a whole number/],
    [[raw, 1.5], /^invalid argument 1: timeout 1.5 is not/],
    [[raw, 'x'], /^invalid argument 1: /],
    [[raw, 1, 2], /^too many arguments, want at most 2$/],
  ] as [unknown[], RegExp][]) {
    e = await rpcError(rpc('eth_sendRawTransactionSync', params));
    assert.equal(e.code, -32602, JSON.stringify(params));
    assert.match(e.message, want, JSON.stringify(params));
  }
  const { node, rpc: other } = await devNodeWithConfig({ 'powder-test-controls': false });
  try {
    for (const m of ['eth_sendRawTransactionSync', 'eth_sendTransactionSync']) assert.equal((await rpcError(other(m, [raw]))).code, -32601, m);
  } finally {
    await node.stop();
  }
});
