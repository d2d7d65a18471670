// The chain's Commons get ethereumjs' params in one merged update: the same params, for every
// fork, as the tx, EVM and VM constructors' own updates applied one by one, then ours.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { paramsVM } from '@ethereumjs/vm';
import { paramsEVM } from '@ethereumjs/evm';
import { paramsTx } from '@ethereumjs/tx';
import { Commons, freezeParams, mergeParams } from './common.js';

test('one merged params update gives every fork the params of the four updates in a row', () => {
  for (const hardfork of ['london', 'shanghai', 'cancun', 'prague']) {
    const oneByOne = createCustomCommon({ chainId: '43210' }, Mainnet, { hardfork });
    for (const set of [paramsTx, paramsEVM, paramsVM, { 1: { maxRefundQuotient: 2 ** 60 }, 3529: { maxRefundQuotient: 2 ** 60 } }]) oneByOne.updateParams(set);
    const merged = createCustomCommon({ chainId: '43210' }, Mainnet, { hardfork });
    freezeParams(merged);
    const internals = (c: object) => c as unknown as { _params: Record<string, Record<string, unknown>>; _paramsCache: Record<string, unknown> };
    // The same params per EIP, keys in the same order, and the same resolved cache.
    assert.deepEqual(JSON.stringify(internals(merged)._params), JSON.stringify(internals(oneByOne)._params), hardfork);
    assert.deepEqual(internals(merged)._paramsCache, internals(oneByOne)._paramsCache, hardfork);
    assert.ok(Object.keys(internals(merged)._paramsCache).length > 50, 'the cache holds the params');
    // Refunds stay off, and later updates (each tx and EVM constructor makes one) change nothing.
    assert.equal(merged.param('maxRefundQuotient'), BigInt(2 ** 60));
    merged.updateParams({ 3529: { maxRefundQuotient: 5 } });
    assert.equal(merged.param('maxRefundQuotient'), BigInt(2 ** 60));
  }
  assert.deepEqual(mergeParams([{ 1: { a: 1, b: 2 } }, { 1: { b: 3, c: 4 }, 2: { d: 5 } }]), { 1: { a: 1, b: 3, c: 4 }, 2: { d: 5 } });
  assert.equal(new Commons(43210n).get('cancun').param('maxRefundQuotient'), BigInt(2 ** 60));
});
