// eth_resend (internal-transaction, geth's TransactionAPI.Resend) through a dev node: a pending tx of
// a dev account signed again with a new gas price or limit, as a pool replacement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getAddress, keccak256, toRlp, type Hex } from 'viem';
import { useDevNode, rpcError, DEV_ADDRS } from '../chain/testkit.js';

const { rpc } = useDevNode();
const TO = '0x00000000000000000000000000000000000000aa';
const GWEI = 1_000_000_000n;
const hex = (n: bigint) => '0x' + n.toString(16);
/** RLP's integer: no leading zeros, zero as the empty string. */
const rlpInt = (n: bigint): Hex => (n === 0n ? '0x' : (`0x${n.toString(16).length % 2 ? '0' : ''}${n.toString(16)}` as Hex));

test('eth_resend signs a pending tx again with a new gas price and limit; the pool takes it as a replacement', async () => {
  await rpc('evm_setAutomine', [false]);
  try {
    const from = DEV_ADDRS[1];
    const nonce = BigInt(await rpc('eth_getTransactionCount', [from, 'pending']));
    const spec = { from, to: TO, value: '0x1', gas: '0x5208', gasPrice: hex(30n * GWEI), nonce: hex(nonce) };
    const first = await rpc('eth_sendTransaction', [spec]);
    const second = await rpc('eth_resend', [spec, hex(40n * GWEI), '0x6000']);
    assert.notEqual(second, first);
    const content = await rpc('txpool_content', []);
    const mine = content.pending[getAddress(from)];
    const entry = mine[nonce.toString()];
    assert.equal(entry.hash, second);
    assert.equal(BigInt(entry.gasPrice), 40n * GWEI);
    assert.equal(BigInt(entry.gas), 0x6000n);
    assert.equal(await rpc('eth_getTransactionByHash', [first]), null, 'the replaced tx left the pool');
    await rpc('evm_mine');
    assert.equal((await rpc('eth_getTransactionReceipt', [second])).status, '0x1');

    // The same tx again is the same signed tx; a bump under the pool's 10 % is no replacement.
    const next = { ...spec, nonce: hex(nonce + 1n) };
    await rpc('eth_sendTransaction', [next]);
    assert.equal((await rpcError(rpc('eth_resend', [next]))).message, 'already known');
    assert.equal((await rpcError(rpc('eth_resend', [next, hex(31n * GWEI)]))).message, 'replacement transaction underpriced');
    await rpc('evm_mine');
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
});

test('eth_resend refusals in geth\'s order: no nonce, fee cap, no match (the unsigned tx\'s hash)', async () => {
  const from = DEV_ADDRS[2];
  const spec = { from, to: TO, value: '0x2', gas: '0x5208', gasPrice: hex(30n * GWEI), nonce: '0x7' };
  assert.deepEqual(await rpcError(rpc('eth_resend', [{ ...spec, nonce: undefined }])), { code: -32000, message: 'missing transaction nonce in transaction spec', data: undefined });
  assert.equal((await rpcError(rpc('eth_resend', []))).message, 'missing value for required argument 0');
  // 10,000 gwei × 21,000 gas is 0.21 ether; the new price × gas must stay under rpc-tx-fee-cap (100 ether).
  const tooMuch = await rpcError(rpc('eth_resend', [spec, hex(10n ** 16n), null]));
  assert.equal(tooMuch.message, 'tx fee (210.00 ether) exceeds the configured cap (100.00 ether)');
  // Nothing pending matches: geth names the hash of the unsigned legacy tx (V, R, S empty).
  const unsigned = keccak256(toRlp([rlpInt(7n), rlpInt(30n * GWEI), rlpInt(21000n), TO, rlpInt(2n), '0x', '0x', '0x', '0x']));
  assert.deepEqual(await rpcError(rpc('eth_resend', [spec])), { code: -32000, message: `transaction ${unsigned} not found`, data: undefined });
});
