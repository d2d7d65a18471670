import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFunctionData, getAddress, parseAbi, toHex as vHex } from 'viem';
import { BLACKHOLE_ADDRESS, builderCoinbase, coinbaseRule, REWARD_MANAGER_ADDRESS, verifyCoinbase } from './index.js';
import { parsePrecompileConfig } from './testkit.js';
import { call, errorOf, makeChain, ret, type TestChain } from './testkit.js';

const ADMIN = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';
const NOBODY = '0x1000000000000000000000000000000000000003';
const REWARD = '0x1000000000000000000000000000000000000007';
const FEE_RECIPIENT = '0x1000000000000000000000000000000000000008';

const abi = parseAbi([
  'function setRewardAddress(address addr)',
  'function allowFeeRecipients()',
  'function disableRewards()',
  'function currentRewardAddress() view returns (address)',
  'function areFeeRecipientsAllowed() view returns (bool)',
]);
const enc = (functionName: 'allowFeeRecipients' | 'disableRewards' | 'currentRewardAddress' | 'areFeeRecipientsAllowed') =>
  encodeFunctionData({ abi, functionName });
const setAddr = (a: string) => encodeFunctionData({ abi, functionName: 'setRewardAddress', args: [a as `0x${string}`] });

const rm = (extra: Record<string, unknown> = {}) =>
  parsePrecompileConfig('rewardManagerConfig', { blockTimestamp: 0, adminAddresses: [ADMIN], ...extra });

async function view(chain: TestChain) {
  const a = await call(chain, { from: NOBODY, to: REWARD_MANAGER_ADDRESS, data: enc('currentRewardAddress'), isStatic: true });
  const b = await call(chain, { from: NOBODY, to: REWARD_MANAGER_ADDRESS, data: enc('areFeeRecipientsAllowed'), isStatic: true });
  assert.equal(a.execResult.executionGasUsed, 5_000n);
  assert.equal(b.execResult.executionGasUsed, 5_000n);
  return { address: '0x' + ret(a).slice(-40), allowed: BigInt(ret(b)) === 1n };
}

test('activation modes: default disabled, chain allowFeeRecipients, initialRewardConfig', async () => {
  let chain = await makeChain({ configs: [rm()] });
  assert.deepEqual(await view(chain), { address: BLACKHOLE_ADDRESS, allowed: false });
  chain = await makeChain({ configs: [rm()], allowFeeRecipients: true });
  assert.deepEqual(await view(chain), { address: '0x' + '0'.repeat(40), allowed: true });
  chain = await makeChain({ configs: [rm({ initialRewardConfig: { rewardAddress: REWARD } })], allowFeeRecipients: true });
  assert.deepEqual(await view(chain), { address: REWARD, allowed: false });
  chain = await makeChain({ configs: [rm({ initialRewardConfig: { allowFeeRecipients: true } })] });
  assert.deepEqual(await view(chain), { address: '0x' + '0'.repeat(40), allowed: true });
  chain = await makeChain({ configs: [rm({ initialRewardConfig: { allowFeeRecipients: false } })], allowFeeRecipients: true });
  assert.deepEqual(await view(chain), { address: BLACKHOLE_ADDRESS, allowed: false });
});

test('setRewardAddress / allowFeeRecipients / disableRewards: gas, events, coinbase rule', async () => {
  const chain = await makeChain({ configs: [rm()] });
  let r = await call(chain, { from: ADMIN, to: REWARD_MANAGER_ADDRESS, data: setAddr(REWARD) });
  assert.equal(errorOf(r), undefined);
  assert.equal(r.execResult.executionGasUsed, 25_000n + 6_875n);
  let [, topics, data] = r.execResult.logs![0]!;
  assert.deepEqual(topics.map((t) => vHex(t)), [
    '0xc2a9e07cba6f4920acaa5933bd0406949d5dbef7ee698e786ea23e8708f32a6c',
    '0x' + ADMIN.slice(2).padStart(64, '0'),
    '0x' + BLACKHOLE_ADDRESS.slice(2).padStart(64, '0'),
    '0x' + REWARD.slice(2).padStart(64, '0'),
  ]);
  assert.equal(data.length, 0);
  assert.deepEqual(await view(chain), { address: REWARD, allowed: false });
  let rule = await coinbaseRule(chain.state, chain.rules, true);
  assert.deepEqual(rule, { anyAllowed: false, required: REWARD });
  assert.equal(builderCoinbase(rule, FEE_RECIPIENT), REWARD);
  assert.equal(verifyCoinbase(rule, REWARD), undefined);
  assert.equal(
    verifyCoinbase(rule, FEE_RECIPIENT),
    `invalid coinbase: ${getAddress(FEE_RECIPIENT)} does not match required coinbase address ${getAddress(REWARD)}`,
  );

  r = await call(chain, { from: ADMIN, to: REWARD_MANAGER_ADDRESS, data: enc('allowFeeRecipients') });
  assert.equal(errorOf(r), undefined);
  assert.equal(r.execResult.executionGasUsed, 25_000n + 1_125n);
  [, topics] = r.execResult.logs![0]!;
  assert.equal(vHex(topics[0]!), '0xabb1949bd129fef9b84601a48aee89d600d90074ca10216a02ce43996be55991');
  assert.deepEqual(await view(chain), { address: '0x' + '0'.repeat(40), allowed: true });
  rule = await coinbaseRule(chain.state, chain.rules, false);
  assert.equal(rule.anyAllowed, true);
  assert.equal(builderCoinbase(rule, FEE_RECIPIENT), FEE_RECIPIENT);
  assert.equal(builderCoinbase(rule, undefined), BLACKHOLE_ADDRESS);
  assert.equal(verifyCoinbase(rule, NOBODY), undefined);

  r = await call(chain, { from: ADMIN, to: REWARD_MANAGER_ADDRESS, data: enc('disableRewards') });
  assert.equal(errorOf(r), undefined);
  assert.equal(r.execResult.executionGasUsed, 25_000n + 1_125n);
  [, topics, data] = r.execResult.logs![0]!;
  assert.equal(vHex(topics[0]!), '0xeb121f0335efe8f4b8ebef7793c18c171834696989656a8c345acc558359fabf');
  assert.deepEqual(await view(chain), { address: BLACKHOLE_ADDRESS, allowed: false });
  assert.deepEqual(await coinbaseRule(chain.state, chain.rules, true), { anyAllowed: false, required: BLACKHOLE_ADDRESS });
});

test('refusals: non-enabled callers, zero address, static calls', async () => {
  const chain = await makeChain({ configs: [rm()] });
  for (const [data, fn] of [
    [setAddr(REWARD), 'setRewardAddress'],
    [enc('allowFeeRecipients'), 'allowFeeRecipients'],
    [enc('disableRewards'), 'disableRewards'],
  ] as const) {
    let r = await call(chain, { from: NOBODY, to: REWARD_MANAGER_ADDRESS, data });
    assert.equal(errorOf(r), `non-enabled cannot call ${fn}: ${getAddress(NOBODY)}`);
    r = await call(chain, { from: ADMIN, to: REWARD_MANAGER_ADDRESS, data, isStatic: true });
    assert.equal(errorOf(r), 'write protection');
  }
  const r = await call(chain, { from: ADMIN, to: REWARD_MANAGER_ADDRESS, data: setAddr('0x' + '0'.repeat(40)) });
  assert.equal(errorOf(r), 'reward address cannot be empty');
  assert.deepEqual(await view(chain), { address: BLACKHOLE_ADDRESS, allowed: false });
});

test('pre-Durango: setRewardAddress input must be a multiple of 32 bytes; no events', async () => {
  const chain = await makeChain({ configs: [rm()], isDurango: false, isGranite: false });
  let r = await call(chain, { from: ADMIN, to: REWARD_MANAGER_ADDRESS, data: setAddr(REWARD) + '00' });
  assert.equal(errorOf(r), 'invalid input length for setting reward address: 33');
  r = await call(chain, { from: ADMIN, to: REWARD_MANAGER_ADDRESS, data: setAddr(REWARD) });
  assert.equal(errorOf(r), undefined);
  assert.equal(r.execResult.executionGasUsed, 25_000n);
  assert.equal(r.execResult.logs?.length ?? 0, 0);
});

test('coinbase rule without the RewardManager follows the chain allowFeeRecipients flag', async () => {
  const chain = await makeChain({ configs: [] });
  assert.deepEqual(await coinbaseRule(chain.state, chain.rules, false), { anyAllowed: false, required: BLACKHOLE_ADDRESS });
  const open = await coinbaseRule(chain.state, chain.rules, true);
  assert.equal(open.anyAllowed, true);
  assert.equal(builderCoinbase(open, FEE_RECIPIENT), FEE_RECIPIENT);
  assert.equal(
    verifyCoinbase({ anyAllowed: false, required: BLACKHOLE_ADDRESS }, FEE_RECIPIENT),
    `invalid coinbase: ${getAddress(FEE_RECIPIENT)} does not match required coinbase address ${getAddress(BLACKHOLE_ADDRESS)}`,
  );
});
