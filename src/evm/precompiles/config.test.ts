import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toHex as vHex } from 'viem';
import {
  applyPrecompileActivations,
  NATIVE_MINTER_ADDRESS,
  parsePrecompileConfig,
  precompileConfigJSON,
  TX_ALLOW_LIST_ADDRESS,
  verifyPrecompileConfig,
} from './index.js';
import { addr, DEFAULT_FEE_CONFIG, makeChain } from './testkit.js';

const A = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const B = '0x1000000000000000000000000000000000000002';
const durangoAt = (t: bigint) => ({ isDurango: (ts: bigint) => ts >= t });

function verifyError(key: string, json: unknown, durango = 0n): string | undefined {
  try {
    verifyPrecompileConfig(parsePrecompileConfig(key, json), durangoAt(durango));
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

test('parse errors: unknown key, bad shapes', () => {
  assert.throws(() => parsePrecompileConfig('gasPriceManagerConfig', {}), { message: 'unknown precompile config: gasPriceManagerConfig' });
  assert.throws(() => parsePrecompileConfig('txAllowListConfig', { adminAddresses: ['0x12'] }), { message: 'hex string has length 2, want 40 for common.Address' });
  assert.throws(() => parsePrecompileConfig('txAllowListConfig', { adminAddresses: 'x' }), /cannot unmarshal string into Go value of type \[\]common.Address/);
  assert.throws(() => parsePrecompileConfig('txAllowListConfig', { blockTimestamp: '5' }), /cannot unmarshal string/);
  assert.throws(() => parsePrecompileConfig('feeManagerConfig', { initialFeeConfig: { gasLimit: '8000000' } }), /math\/big: cannot unmarshal/);
});

test('allow-list verification errors (exact texts)', () => {
  assert.equal(verifyError('txAllowListConfig', { enabledAddresses: [B, B] }), `duplicate address in enabled list: ${B}`);
  assert.equal(verifyError('txAllowListConfig', { adminAddresses: [A, A] }), `duplicate address in admin list: ${A}`);
  assert.equal(verifyError('txAllowListConfig', { adminAddresses: [A], enabledAddresses: [A] }), `cannot set address as both admin and enabled: ${A}`);
  assert.equal(verifyError('txAllowListConfig', { blockTimestamp: 5, managerAddresses: [B] }, 10n), 'cannot add managers before Durango');
  assert.equal(verifyError('txAllowListConfig', { managerAddresses: [B, B] }), `duplicate address in manager list: ${B}`);
  assert.equal(verifyError('txAllowListConfig', { adminAddresses: [B], managerAddresses: [B] }), `cannot set address as both admin and manager: ${B}`);
  assert.equal(verifyError('txAllowListConfig', { enabledAddresses: [B], managerAddresses: [B] }), `cannot set address as both enabled and manager: ${B}`);
  assert.equal(verifyError('txAllowListConfig', { blockTimestamp: 10, managerAddresses: [B] }, 10n), undefined);
});

test('per-precompile verification errors', () => {
  assert.equal(verifyError('contractNativeMinterConfig', { initialMint: { [A]: null } }), `initial mint cannot contain nil amount for address ${A}`);
  assert.equal(verifyError('contractNativeMinterConfig', { initialMint: { [A]: '0' } }), `initial mint cannot contain invalid amount: amount 0 for address ${A}`);
  assert.equal(verifyError('contractNativeMinterConfig', { initialMint: { [A]: '0x10', [B]: 5 } }), undefined);
  assert.equal(
    verifyError('rewardManagerConfig', { initialRewardConfig: { allowFeeRecipients: true, rewardAddress: B } }),
    'cannot enable both fee recipients and reward address at the same time',
  );
  assert.equal(verifyError('feeManagerConfig', { initialFeeConfig: { gasLimit: 1 } }), 'minBaseFee cannot be nil');
  assert.equal(
    verifyError('feeManagerConfig', { initialFeeConfig: { ...Object.fromEntries(Object.entries(DEFAULT_FEE_CONFIG).map(([k, v]) => [k, Number(v)])), targetBlockRate: 0 } }),
    'targetBlockRate cannot be less than or equal to 0: targetBlockRate = 0',
  );
  assert.equal(verifyError('warpConfig', { blockTimestamp: 5 }, 10n), 'warp cannot be activated before Durango');
  assert.equal(verifyError('warpConfig', { blockTimestamp: 10, quorumNumerator: 101 }), 'invalid warp quorum ratio: cannot specify numerator (101) > denominator (100)');
  assert.equal(verifyError('warpConfig', { blockTimestamp: 10, quorumNumerator: 32 }), 'invalid warp quorum ratio: cannot specify numerator (32) < min numerator (33)');
  assert.equal(verifyError('warpConfig', { blockTimestamp: 10, quorumNumerator: 67 }), undefined);
});

test('JSON output keeps the eth_getChainConfig key order', () => {
  const j = precompileConfigJSON(
    parsePrecompileConfig('contractNativeMinterConfig', { enabledAddresses: [B], initialMint: { [A]: 100 }, adminAddresses: [A], blockTimestamp: 0 }),
  );
  assert.equal(
    JSON.stringify(j),
    `{"adminAddresses":["${A.toLowerCase()}"],"enabledAddresses":["${B}"],"blockTimestamp":0,"initialMint":{"${A.toLowerCase()}":"0x64"}}`,
  );
  assert.equal(JSON.stringify(precompileConfigJSON(parsePrecompileConfig('feeManagerConfig', { disable: true }))), '{"blockTimestamp":null,"disable":true}');
  assert.equal(
    JSON.stringify(precompileConfigJSON(parsePrecompileConfig('warpConfig', { blockTimestamp: 1607144400 }))),
    '{"blockTimestamp":1607144400,"quorumNumerator":0,"requirePrimaryNetworkSigners":false}',
  );
});

test('activations apply in (parentTime, blockTime]; disable wipes the account; re-enable starts fresh', async () => {
  const chain = await makeChain({ configs: [] });
  const ctx = { blockNumber: 1n, feeConfig: DEFAULT_FEE_CONFIG, allowFeeRecipients: false };
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
