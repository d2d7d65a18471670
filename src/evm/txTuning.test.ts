// The sender-address override against @ethereumjs/tx's own method, for every transaction type.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAccessList2930Tx, createFeeMarket1559Tx, createLegacyTx, createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { Address, publicToAddress, privateToAddress } from '@ethereumjs/util';
import { Commons } from './chain/common.js';
import { originalGetSenderAddress } from './txTuning.js';
import { withSender } from './chain/exec.js';

const common = new Commons(43210n).get('cancun');
const key = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const expected = Buffer.from(privateToAddress(key)).toString('hex');
const to = `0x${'11'.repeat(20)}` as const;

// (Blob and EIP-7702 transactions share the override; the chains never accept them: Subnet-EVM rules.)
test('getSenderAddress: the package method is overridden for each transaction type, with the same address', () => {
  assert.deepEqual([...originalGetSenderAddress.keys()].sort(), ['AccessList2930Tx', 'Blob4844Tx', 'EOACode7702Tx', 'FeeMarket1559Tx', 'LegacyTx']);
  const signed: TypedTransaction[] = [
    createLegacyTx({ nonce: 1, gasPrice: 10, gasLimit: 21000, to, value: 5 }, { common }).sign(key),
    createAccessList2930Tx({ nonce: 2, gasPrice: 10, gasLimit: 30000, to, accessList: [] }, { common }).sign(key),
    createFeeMarket1559Tx({ nonce: 3, maxFeePerGas: 10, maxPriorityFeePerGas: 1, gasLimit: 21000, to }, { common }).sign(key),
  ];
  for (const tx of signed) {
    for (const t of [tx, createTxFromRLP(tx.serialize(), { common: tx.common }), createTxFromRLP(tx.serialize(), { common: tx.common, freeze: false })]) {
      const original = originalGetSenderAddress.get(t.constructor.name)!;
      const want = original.call(t);
      const a = t.getSenderAddress();
      const b = t.getSenderAddress();
      assert.equal(a.toString(), want.toString(), `type ${t.type}`);
      assert.equal(Buffer.from(a.bytes).toString('hex'), expected);
      assert.equal(Buffer.from(publicToAddress(t.getSenderPublicKey())).toString('hex'), expected);
      // A new Address each call, as before: changing one never shows in the next.
      assert.notEqual(a, b);
      a.bytes.fill(0);
      assert.equal(Buffer.from(t.getSenderAddress().bytes).toString('hex'), expected);
    }
  }
});

test('getSenderAddress: an unsigned transaction throws as before; withSender still names its own sender', () => {
  const unsigned = createFeeMarket1559Tx({ nonce: 3, maxFeePerGas: 10, maxPriorityFeePerGas: 1, gasLimit: 21000, to }, { common, freeze: false });
  const original = originalGetSenderAddress.get('FeeMarket1559Tx')!;
  let want: unknown;
  try {
    original.call(unsigned);
  } catch (e) {
    want = (e as Error).message;
  }
  assert.ok(typeof want === 'string');
  assert.throws(() => unsigned.getSenderAddress(), (e: Error) => e.message === want);
  const from = new Address(Uint8Array.from({ length: 20 }, () => 7));
  assert.equal(withSender(unsigned, from).getSenderAddress(), from);
});
