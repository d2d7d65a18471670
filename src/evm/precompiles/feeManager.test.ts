import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeFunctionResult, encodeFunctionData, getAddress, parseAbi, toHex as vHex } from 'viem';
import { FEE_MANAGER_ADDRESS, readFeeConfig } from './index.js';
import { parsePrecompileConfig } from './testkit.js';
import { FEE_CONFIG_CHANGED_TOPIC } from './feeManager.js';
import { call, DEFAULT_FEE_CONFIG, errorOf, makeChain, ret } from './testkit.js';

const ADMIN = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';
const NOBODY = '0x1000000000000000000000000000000000000003';

const abi = parseAbi([
  'function setFeeConfig(uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep)',
  'function getFeeConfig() view returns (uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep)',
  'function getFeeConfigLastChangedAt() view returns (uint256 blockNumber)',
]);

const NEW = [20_000_000n, 2n, 1_000_000_000n, 100_000_000n, 48n, 0n, 10_000_000n, 500_000n] as const;
const set = (v: readonly bigint[]) =>
  encodeFunctionData({ abi, functionName: 'setFeeConfig', args: v as unknown as [bigint, bigint, bigint, bigint, bigint, bigint, bigint, bigint] });

const fm = (extra: Record<string, unknown> = {}) => parsePrecompileConfig('feeManagerConfig', { blockTimestamp: 0, adminAddresses: [ADMIN], ...extra });

test('activation stores the genesis fee config; getters cost 40,000 and 5,000', async () => {
  const chain = await makeChain({ configs: [fm()] });
  assert.deepEqual(await readFeeConfig(chain.state), { feeConfig: DEFAULT_FEE_CONFIG, lastChangedAt: 0n });
  let r = await call(chain, { from: NOBODY, to: FEE_MANAGER_ADDRESS, data: encodeFunctionData({ abi, functionName: 'getFeeConfig' }), isStatic: true });
  assert.equal(r.execResult.executionGasUsed, 40_000n);
  const got = decodeFunctionResult({ abi, functionName: 'getFeeConfig', data: ret(r) as `0x${string}` });
  assert.deepEqual(got, Object.values(DEFAULT_FEE_CONFIG));
  r = await call(chain, { from: NOBODY, to: FEE_MANAGER_ADDRESS, data: encodeFunctionData({ abi, functionName: 'getFeeConfigLastChangedAt' }) });
  assert.equal(r.execResult.executionGasUsed, 5_000n);
  assert.equal(BigInt(ret(r)), 0n);
});

test('initialFeeConfig replaces the genesis config at activation', async () => {
  const initial = { gasLimit: 20000000, targetBlockRate: 2, minBaseFee: 1000000000, targetGas: 100000000, baseFeeChangeDenominator: 48, minBlockGasCost: 0, maxBlockGasCost: 10000000, blockGasCostStep: 500000 };
  const chain = await makeChain({ configs: [fm({ initialFeeConfig: initial })] });
  const { feeConfig } = await readFeeConfig(chain.state);
  assert.deepEqual(Object.values(feeConfig), [...NEW]);
});

test('setFeeConfig stores the config, records the block and emits FeeConfigChanged(old, new)', async () => {
  const chain = await makeChain({ configs: [fm()], blockNumber: 42n });
  const r = await call(chain, { from: ADMIN, to: FEE_MANAGER_ADDRESS, data: set(NEW) });
  assert.equal(errorOf(r), undefined);
  assert.equal(r.execResult.executionGasUsed, 180_000n + 45_221n);
  const { feeConfig, lastChangedAt } = await readFeeConfig(chain.state);
  assert.deepEqual(Object.values(feeConfig), [...NEW]);
  assert.equal(lastChangedAt, 42n);
  const [, topics, data] = r.execResult.logs![0]!;
  assert.equal(vHex(topics[0]!), '0x4c98e43adb5962c18f3f0e6dd066e2a2de258d3b4f695b317b77c8f27cd044fc');
  assert.equal(vHex(FEE_CONFIG_CHANGED_TOPIC), vHex(topics[0]!));
  assert.equal(vHex(topics[1]!), '0x' + ADMIN.slice(2).padStart(64, '0'));
  assert.equal(data.length, 16 * 32);
  const words = Array.from({ length: 16 }, (_, i) => BigInt(vHex(data.subarray(i * 32, i * 32 + 32))));
  assert.deepEqual(words, [...Object.values(DEFAULT_FEE_CONFIG), ...NEW]);
  // storage layout: gasLimit at 0x01…, lastChangedAt at "lca"
  const slot = await chain.state.getStorage(
    (await import('./testkit.js')).addr(FEE_MANAGER_ADDRESS),
    Buffer.from('01' + '00'.repeat(31), 'hex'),
  );
  assert.equal(BigInt(vHex(slot)), NEW[0]);
});

test('setFeeConfig refusals: invalid config, non-enabled caller, static call, short input', async () => {
  const chain = await makeChain({ configs: [fm()] });
  let r = await call(chain, { from: ADMIN, to: FEE_MANAGER_ADDRESS, data: set([0n, ...NEW.slice(1)]) });
  assert.equal(errorOf(r), 'cannot verify fee config: gasLimit cannot be less than or equal to 0: gasLimit = 0');
  r = await call(chain, { from: ADMIN, to: FEE_MANAGER_ADDRESS, data: set([...NEW.slice(0, 5), 11n, 10n, 0n]) });
  assert.equal(errorOf(r), 'cannot verify fee config: minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = 11, maxBlockGasCost = 10');
  r = await call(chain, { from: ADMIN, to: FEE_MANAGER_ADDRESS, data: set([...NEW.slice(0, 6), 1n << 64n, 0n]) });
  assert.equal(errorOf(r), 'cannot verify fee config: maxBlockGasCost is not a valid uint64: maxBlockGasCost = 18446744073709551616');
  r = await call(chain, { from: NOBODY, to: FEE_MANAGER_ADDRESS, data: set(NEW) });
  assert.equal(errorOf(r), `non-enabled cannot change fee config: ${getAddress(NOBODY)}`);
  r = await call(chain, { from: ADMIN, to: FEE_MANAGER_ADDRESS, data: set(NEW), isStatic: true });
  assert.equal(errorOf(r), 'write protection');
  r = await call(chain, { from: ADMIN, to: FEE_MANAGER_ADDRESS, data: set(NEW).slice(0, 2 + 8 + 64 * 7) });
  assert.equal(errorOf(r), 'failed to unpack input: abi: cannot marshal in to go type: length insufficient 224 require 256');
  r = await call(chain, { from: ADMIN, to: FEE_MANAGER_ADDRESS, data: set(NEW), gasLimit: 225_220n });
  assert.equal(errorOf(r), 'out of gas');
  assert.deepEqual((await readFeeConfig(chain.state)).feeConfig, DEFAULT_FEE_CONFIG, 'nothing was stored');
});

test('targetBlockRate keeps the low 64 bits of the uint256 (binding quirk)', async () => {
  const chain = await makeChain({ configs: [fm()] });
  const r = await call(chain, { from: ADMIN, to: FEE_MANAGER_ADDRESS, data: set([NEW[0], (1n << 64n) + 3n, ...NEW.slice(2)]) });
  assert.equal(errorOf(r), undefined);
  assert.equal((await readFeeConfig(chain.state)).feeConfig.targetBlockRate, 3n);
});

test('pre-Durango: 180,000 gas, no event, exact 256-byte input', async () => {
  const chain = await makeChain({ configs: [fm()], isDurango: false, isGranite: false });
  let r = await call(chain, { from: ADMIN, to: FEE_MANAGER_ADDRESS, data: set(NEW) });
  assert.equal(errorOf(r), undefined);
  assert.equal(r.execResult.executionGasUsed, 180_000n);
  assert.equal(r.execResult.logs?.length ?? 0, 0);
  r = await call(chain, { from: ADMIN, to: FEE_MANAGER_ADDRESS, data: set(NEW) + '00' });
  assert.equal(errorOf(r), 'invalid input length for fee config Input: 257');
});
