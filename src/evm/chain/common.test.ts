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

test('a chain\'s Common is a copy of the fork\'s one template with its own chain id, params as a Common built for it', () => {
  const a = new Commons(43210n);
  const b = new Commons(99999n);
  const internals = (c: object) => c as unknown as { _paramsCache: Record<string, unknown>; _activatedEIPsCache: number[]; customCrypto: object };
  for (const fork of ['london', 'shanghai', 'cancun'] as const) {
    const built = createCustomCommon({ chainId: '99999', name: 'subnet-evm' }, Mainnet, { hardfork: fork });
    freezeParams(built);
    const copy = b.get(fork);
    assert.equal(copy, b.get(fork), 'one per chain and fork');
    assert.equal(copy.chainId(), 99999n, fork);
    assert.equal(a.get(fork).chainId(), 43210n, fork);
    assert.equal(copy.hardfork(), fork);
    assert.deepEqual(internals(copy)._paramsCache, internals(built)._paramsCache, fork);
    assert.deepEqual(internals(copy)._activatedEIPsCache, internals(built)._activatedEIPsCache, fork);
    assert.equal(copy.param('maxRefundQuotient'), BigInt(2 ** 60));
    assert.equal(internals(copy).customCrypto, internals(b.get('cancun')).customCrypto, 'the chain\'s crypto');
  }
  // A change to one chain's Common (none of Powder's make one) leaves the other chains' as they were.
  const london = createCustomCommon({ chainId: '43210', name: 'subnet-evm' }, Mainnet, { hardfork: 'london' });
  freezeParams(london);
  const moved = new Commons(1n).get('london');
  moved.setHardfork('cancun');
  assert.equal(moved.hardfork(), 'cancun');
  assert.notDeepEqual(internals(moved)._activatedEIPsCache, internals(london)._activatedEIPsCache);
  assert.equal(a.get('london').hardfork(), 'london');
  assert.equal(new Commons(2n).get('london').hardfork(), 'london', 'the template too');
  assert.deepEqual(internals(a.get('london'))._paramsCache, internals(london)._paramsCache);
  assert.deepEqual(internals(a.get('london'))._activatedEIPsCache, internals(london)._activatedEIPsCache);
});
