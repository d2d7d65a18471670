import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toHex as vHex } from 'viem';
import { applyPrecompileActivations, NATIVE_MINTER_ADDRESS, TX_ALLOW_LIST_ADDRESS } from './index.js';
import { addr, DEFAULT_FEE_CONFIG, makeChain, parsePrecompileConfig } from './testkit.js';

const A = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const B = '0x1000000000000000000000000000000000000002';

test('activations apply in (parentTime, blockTime]; disable wipes the account; re-enable starts fresh', async () => {
  const chain = await makeChain({ configs: [] });
  const ctx = { blockNumber: 1n, feeConfig: { ...DEFAULT_FEE_CONFIG }, allowFeeRecipients: false };
  const configs = [
    parsePrecompileConfig('txAllowListConfig', { blockTimestamp: 100, adminAddresses: [A] }),
    parsePrecompileConfig('contractNativeMinterConfig', { blockTimestamp: 100, adminAddresses: [B] }),
    parsePrecompileConfig('txAllowListConfig', { blockTimestamp: 200, disable: true }),
    parsePrecompileConfig('txAllowListConfig', { blockTimestamp: 300, enabledAddresses: [B] }),
  ];
  const roleSlot = (a: string) => Buffer.from(a.slice(2).toLowerCase().padStart(64, '0'), 'hex');
  let applied = await applyPrecompileActivations(chain.state, configs, 50n, 99n, ctx);
  assert.equal(applied.length, 0);
  applied = await applyPrecompileActivations(chain.state, configs, 99n, 150n, ctx);
  assert.deepEqual(applied.map((c) => c.key), ['contractNativeMinterConfig', 'txAllowListConfig'], 'by ascending address');
  assert.equal(vHex(await chain.state.getCode(addr(TX_ALLOW_LIST_ADDRESS))), '0x01');
  assert.equal(vHex(await chain.state.getStorage(addr(TX_ALLOW_LIST_ADDRESS), roleSlot(A))), '0x02');
  assert.equal((await chain.state.getAccount(addr(NATIVE_MINTER_ADDRESS)))?.nonce, 1n);
  await applyPrecompileActivations(chain.state, configs, 150n, 200n, ctx);
  assert.equal(await chain.state.getAccount(addr(TX_ALLOW_LIST_ADDRESS)), undefined);
  assert.equal(vHex(await chain.state.getStorage(addr(TX_ALLOW_LIST_ADDRESS), roleSlot(A))), '0x');
  await applyPrecompileActivations(chain.state, configs, 200n, 300n, ctx);
  assert.equal(vHex(await chain.state.getStorage(addr(TX_ALLOW_LIST_ADDRESS), roleSlot(A))), '0x', 'old roles are gone');
  assert.equal(vHex(await chain.state.getStorage(addr(TX_ALLOW_LIST_ADDRESS), roleSlot(B))), '0x01');
});

test('FeeManager activation stores initialFeeConfig or the genesis config and the activation block', async () => {
  const { readFeeConfig } = await import('./index.js');
  const chain = await makeChain({ configs: [] });
  const genesisFee = { ...DEFAULT_FEE_CONFIG, gasLimit: 15_000_000n };
  const ctx = { blockNumber: 9n, feeConfig: genesisFee, allowFeeRecipients: false };
  await applyPrecompileActivations(chain.state, [parsePrecompileConfig('feeManagerConfig', { blockTimestamp: 10, adminAddresses: [A] })], 5n, 10n, ctx);
  assert.deepEqual(await readFeeConfig(chain.state), { feeConfig: genesisFee, lastChangedAt: 9n });
});
