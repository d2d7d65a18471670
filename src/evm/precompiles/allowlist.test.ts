import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeFunctionResult, encodeFunctionData, getAddress, parseAbi, toHex as vHex } from 'viem';
import { PRECOMPILE_TEST_SOURCES } from './contracts.js';
import { TX_ALLOW_LIST_ADDRESS, DEPLOYER_ALLOW_LIST_ADDRESS } from './index.js';
import { parsePrecompileConfig } from './testkit.js';
import { ROLE_SET_TOPIC } from './allowlist.js';
import { balanceOf, call, compile, deploy, errorOf, fund, makeChain, ret, type TestChain } from './testkit.js';

const ADMIN = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';
const MANAGER = '0x1000000000000000000000000000000000000001';
const ENABLED = '0x1000000000000000000000000000000000000002';
const NOBODY = '0x1000000000000000000000000000000000000003';
const OTHER = '0x1000000000000000000000000000000000000004';

const abi = parseAbi([
  'function readAllowList(address) view returns (uint256)',
  'function setAdmin(address)',
  'function setEnabled(address)',
  'function setManager(address)',
  'function setNone(address)',
]);
const proxyAbi = parseAbi([
  'function doCall(address target, bytes data) payable returns (bool ok, bytes ret)',
  'function doStaticCall(address target, bytes data) view returns (bool ok, bytes ret)',
  'function doDelegateCall(address target, bytes data) returns (bool ok, bytes ret)',
  'function gasOf(address target, bytes data, uint256 budget) returns (bool ok, uint256 used)',
]);

const enc = (fn: 'setAdmin' | 'setEnabled' | 'setManager' | 'setNone' | 'readAllowList', who: string) =>
  encodeFunctionData({ abi, functionName: fn, args: [who as `0x${string}`] });

function txAllowList(extra: Record<string, unknown> = {}) {
  return parsePrecompileConfig('txAllowListConfig', {
    blockTimestamp: 0,
    adminAddresses: [ADMIN],
    managerAddresses: [MANAGER],
    enabledAddresses: [ENABLED],
    ...extra,
  });
}

async function roleOf(chain: TestChain, who: string, at = TX_ALLOW_LIST_ADDRESS): Promise<bigint> {
  const r = await call(chain, { from: NOBODY, to: at, data: enc('readAllowList', who) });
  assert.equal(errorOf(r), undefined);
  return BigInt(ret(r));
}

test('readAllowList returns the configured roles for 5,000 gas, also as a static call', async () => {
  const chain = await makeChain({ configs: [txAllowList()] });
  assert.equal(await roleOf(chain, ADMIN), 2n);
  assert.equal(await roleOf(chain, MANAGER), 3n);
  assert.equal(await roleOf(chain, ENABLED), 1n);
  assert.equal(await roleOf(chain, NOBODY), 0n);
  const r = await call(chain, { from: NOBODY, to: TX_ALLOW_LIST_ADDRESS, data: enc('readAllowList', ADMIN), isStatic: true });
  assert.equal(r.execResult.executionGasUsed, 5_000n);
  assert.equal(BigInt(ret(r)), 2n);
  // the role lives in the slot keyed by the left-padded address
  const slot = await chain.state.getStorage(
    (await import('./testkit.js')).addr(TX_ALLOW_LIST_ADDRESS),
    Buffer.from(ADMIN.slice(2).padStart(64, '0'), 'hex'),
  );
  assert.equal(BigInt(vHex(slot)), 2n);
});

test('admin sets every role; each change emits RoleSet and costs 20,000 + 2,131 gas', async () => {
  const chain = await makeChain({ configs: [txAllowList()] });
  const steps: ['setAdmin' | 'setEnabled' | 'setManager' | 'setNone', bigint][] = [
    ['setEnabled', 1n],
    ['setManager', 3n],
    ['setAdmin', 2n],
    ['setNone', 0n],
  ];
  let old = 0n;
  for (const [fn, role] of steps) {
    const r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: enc(fn, OTHER) });
    assert.equal(errorOf(r), undefined, fn);
    assert.equal(r.execResult.executionGasUsed, 22_131n, fn);
    assert.equal(ret(r), '0x');
    assert.equal(await roleOf(chain, OTHER), role, fn);
    const logs = r.execResult.logs ?? [];
    assert.equal(logs.length, 1);
    const [address, topics, data] = logs[0]!;
    assert.equal(vHex(address), TX_ALLOW_LIST_ADDRESS);
    assert.deepEqual(topics.map((t) => vHex(t)), [
      vHex(ROLE_SET_TOPIC),
      vHex(role, { size: 32 }),
      '0x' + OTHER.slice(2).padStart(64, '0'),
      '0x' + ADMIN.slice(2).padStart(64, '0'),
    ]);
    assert.equal(BigInt(vHex(data)), old);
    old = role;
  }
  assert.equal(vHex(ROLE_SET_TOPIC), '0xcdb7ea01f00a414d78757bdb0f6391664ba3fedf987eed280927c1e7d695be3e');
  // an admin may demote itself
  const r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: enc('setNone', ADMIN) });
  assert.equal(errorOf(r), undefined);
  assert.equal(await roleOf(chain, ADMIN), 0n);
});

test('manager may move addresses between None and Enabled only', async () => {
  const chain = await makeChain({ configs: [txAllowList()] });
  let r = await call(chain, { from: MANAGER, to: TX_ALLOW_LIST_ADDRESS, data: enc('setEnabled', OTHER) });
  assert.equal(errorOf(r), undefined);
  assert.equal(await roleOf(chain, OTHER), 1n);
  r = await call(chain, { from: MANAGER, to: TX_ALLOW_LIST_ADDRESS, data: enc('setNone', OTHER) });
  assert.equal(errorOf(r), undefined);
  assert.equal(await roleOf(chain, OTHER), 0n);

  const refusals: [string, string, string, string][] = [
    ['setAdmin', OTHER, 'NoRole', 'AdminRole'],
    ['setManager', OTHER, 'NoRole', 'ManagerRole'],
    ['setNone', ADMIN, 'AdminRole', 'NoRole'],
    ['setEnabled', MANAGER, 'ManagerRole', 'EnabledRole'],
  ];
  for (const [fn, target, from, to] of refusals) {
    r = await call(chain, { from: MANAGER, to: TX_ALLOW_LIST_ADDRESS, data: enc(fn as 'setAdmin', target), gasLimit: 100_000n });
    assert.equal(
      errorOf(r),
      `cannot modify allow list: modify address: ${getAddress(MANAGER)}, from role: ${from}, to role: ${to}`,
      fn,
    );
    assert.equal(r.execResult.executionGasUsed, 100_000n, 'a failure consumes all gas');
    assert.equal(ret(r), '0x');
    assert.equal(r.execResult.logs?.length ?? 0, 0);
  }
  assert.equal(await roleOf(chain, ADMIN), 2n);
});

test('enabled and role-less callers cannot modify the list', async () => {
  const chain = await makeChain({ configs: [txAllowList()] });
  for (const who of [ENABLED, NOBODY]) {
    const r = await call(chain, { from: who, to: TX_ALLOW_LIST_ADDRESS, data: enc('setEnabled', OTHER) });
    assert.equal(errorOf(r), `cannot modify allow list: modify address: ${getAddress(who)}, from role: NoRole, to role: EnabledRole`);
  }
  assert.equal(await roleOf(chain, OTHER), 0n);
});

test('dispatch errors: short input, unknown selector, bad argument length', async () => {
  const chain = await makeChain({ configs: [txAllowList()] });
  let r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: '0x0aaf70', gasLimit: 50_000n });
  assert.equal(errorOf(r), 'missing function selector to precompile - input length (3)');
  assert.equal(r.execResult.executionGasUsed, 50_000n);
  r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: '0xdeadbeef' });
  assert.equal(errorOf(r), 'invalid function selector: 0xdeadbeef');
  // a plain value transfer to a precompile fails (no fallback) and the value is not moved
  await fund(chain, ADMIN, 10n ** 18n);
  r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: '0x', value: 5n });
  assert.equal(errorOf(r), 'missing function selector to precompile - input length (0)');
  assert.equal(await balanceOf(chain, TX_ALLOW_LIST_ADDRESS), 0n);
  assert.equal(await balanceOf(chain, ADMIN), 10n ** 18n);
  // Durango: short argument → ABI error; longer input accepted
  r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: enc('setEnabled', OTHER).slice(0, 40) });
  assert.equal(errorOf(r), 'abi: cannot marshal in to go type: length insufficient 15 require 32');
  r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: enc('setEnabled', OTHER) + '00' });
  assert.equal(errorOf(r), undefined);
  assert.equal(await roleOf(chain, OTHER), 1n);
});

test('out of gas: setter with too little gas fails without changing state', async () => {
  const chain = await makeChain({ configs: [txAllowList()] });
  let r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: enc('setEnabled', OTHER), gasLimit: 19_999n });
  assert.equal(errorOf(r), 'out of gas');
  // enough for the write but not for the event (Durango)
  r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: enc('setEnabled', OTHER), gasLimit: 22_130n });
  assert.equal(errorOf(r), 'out of gas');
  assert.equal(r.execResult.executionGasUsed, 22_130n);
  assert.equal(await roleOf(chain, OTHER), 0n);
  r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: enc('readAllowList', OTHER), gasLimit: 4_999n });
  assert.equal(errorOf(r), 'out of gas');
});

test('static calls: setters fail with write protection (after decoding), readers work', async () => {
  const chain = await makeChain({ configs: [txAllowList()] });
  let r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: enc('setEnabled', OTHER), isStatic: true });
  assert.equal(errorOf(r), 'write protection');
  r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: '0x0aaf7043', isStatic: true });
  assert.equal(errorOf(r), 'abi: attempting to unmarshall an empty string while arguments are expected');
  assert.equal(await roleOf(chain, OTHER), 0n);
});

test('pre-Durango: no events, 20,000 gas, exact input lengths, no setManager', async () => {
  const chain = await makeChain({ configs: [txAllowList({ managerAddresses: [] })], isDurango: false, isGranite: false });
  let r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: enc('setEnabled', OTHER) });
  assert.equal(errorOf(r), undefined);
  assert.equal(r.execResult.executionGasUsed, 20_000n);
  assert.equal(r.execResult.logs?.length ?? 0, 0);
  r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: enc('setEnabled', OTHER) + '00' });
  assert.equal(errorOf(r), 'invalid input length for modifying allow list: 33');
  r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: enc('readAllowList', OTHER) + '00' });
  assert.equal(errorOf(r), 'invalid input length for read allow list: 33');
  r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: enc('setManager', OTHER) });
  assert.equal(errorOf(r), 'invalid non-activated function selector: 0xd0ebdbe7');
});

test('contracts: a contract holding a role modifies the list; STATICCALL and DELEGATECALL are refused', async () => {
  const chain = await makeChain({ configs: [txAllowList()] });
  const { bytecode } = compile(PRECOMPILE_TEST_SOURCES, 'Proxy');
  const proxy = await deploy(chain, ADMIN, bytecode);
  // without a role the call fails inside the proxy
  let r = await call(chain, {
    from: ADMIN,
    to: proxy,
    data: encodeFunctionData({ abi: proxyAbi, functionName: 'doCall', args: [TX_ALLOW_LIST_ADDRESS, enc('setEnabled', OTHER)] }),
  });
  let [ok, out] = decodeFunctionResult({ abi: proxyAbi, functionName: 'doCall', data: ret(r) as `0x${string}` });
  assert.equal(ok, false);
  assert.equal(out, '0x');
  // give the proxy the admin role; then msg.sender (= proxy) is what counts
  r = await call(chain, { from: ADMIN, to: TX_ALLOW_LIST_ADDRESS, data: enc('setAdmin', proxy) });
  assert.equal(errorOf(r), undefined);
  r = await call(chain, {
    from: NOBODY,
    to: proxy,
    data: encodeFunctionData({ abi: proxyAbi, functionName: 'doCall', args: [TX_ALLOW_LIST_ADDRESS, enc('setEnabled', OTHER)] }),
  });
  [ok] = decodeFunctionResult({ abi: proxyAbi, functionName: 'doCall', data: ret(r) as `0x${string}` });
  assert.equal(ok, true);
  assert.equal(await roleOf(chain, OTHER), 1n);
  const log = (r.execResult.logs ?? []).find((l) => vHex(l[0]) === TX_ALLOW_LIST_ADDRESS)!;
  assert.equal(vHex(log[1][3]!), '0x' + proxy.slice(2).padStart(64, '0'), 'sender topic is the contract');

  // STATICCALL: the reader works, the setter fails
  r = await call(chain, {
    from: NOBODY,
    to: proxy,
    data: encodeFunctionData({ abi: proxyAbi, functionName: 'doStaticCall', args: [TX_ALLOW_LIST_ADDRESS, enc('readAllowList', proxy)] }),
  });
  [ok, out] = decodeFunctionResult({ abi: proxyAbi, functionName: 'doStaticCall', data: ret(r) as `0x${string}` });
  assert.equal(ok, true);
  assert.equal(BigInt(out), 2n);
  r = await call(chain, {
    from: NOBODY,
    to: proxy,
    data: encodeFunctionData({ abi: proxyAbi, functionName: 'doStaticCall', args: [TX_ALLOW_LIST_ADDRESS, enc('setNone', OTHER)] }),
  });
  [ok, out] = decodeFunctionResult({ abi: proxyAbi, functionName: 'doStaticCall', data: ret(r) as `0x${string}` });
  assert.equal(ok, false);
  assert.equal(await roleOf(chain, OTHER), 1n);

  // DELEGATECALL (Granite): reverts with empty data
  r = await call(chain, {
    from: NOBODY,
    to: proxy,
    data: encodeFunctionData({ abi: proxyAbi, functionName: 'doDelegateCall', args: [TX_ALLOW_LIST_ADDRESS, enc('readAllowList', proxy)] }),
  });
  [ok, out] = decodeFunctionResult({ abi: proxyAbi, functionName: 'doDelegateCall', data: ret(r) as `0x${string}` });
  assert.equal(ok, false);
  assert.equal(out, '0x');
});

test('a failing precompile call consumes all gas it was given; a successful one only its cost', async () => {
  const chain = await makeChain({ configs: [txAllowList()] });
  const { bytecode } = compile(PRECOMPILE_TEST_SOURCES, 'Proxy');
  const proxy = await deploy(chain, ADMIN, bytecode);
  const gasOf = async (data: string, budget: bigint) => {
    const r = await call(chain, {
      from: NOBODY,
      to: proxy,
      data: encodeFunctionData({ abi: proxyAbi, functionName: 'gasOf', args: [TX_ALLOW_LIST_ADDRESS, data as `0x${string}`, budget] }),
    });
    assert.equal(errorOf(r), undefined);
    return decodeFunctionResult({ abi: proxyAbi, functionName: 'gasOf', data: ret(r) as `0x${string}` });
  };
  await gasOf(enc('readAllowList', ADMIN), 100_000n); // warm the precompile address
  const [okRead, usedRead] = await gasOf(enc('readAllowList', ADMIN), 100_000n);
  const [, usedReadSmall] = await gasOf(enc('readAllowList', ADMIN), 6_000n);
  const [okFail, usedFail] = await gasOf(enc('setEnabled', OTHER), 100_000n);
  const [, usedFailSmall] = await gasOf(enc('setEnabled', OTHER), 50_000n);
  assert.equal(okRead, true);
  assert.equal(okFail, false);
  assert.equal(usedRead, usedReadSmall, 'a success costs the same whatever the budget');
  assert.equal(usedFail - usedFailSmall, 50_000n, 'a failure burns its whole budget');
});

test('the deployer allow list is an independent list at its own address', async () => {
  const chain = await makeChain({
    configs: [
      txAllowList(),
      parsePrecompileConfig('contractDeployerAllowListConfig', { blockTimestamp: 0, adminAddresses: [OTHER] }),
    ],
  });
  assert.equal(await roleOf(chain, OTHER, DEPLOYER_ALLOW_LIST_ADDRESS), 2n);
  assert.equal(await roleOf(chain, ADMIN, DEPLOYER_ALLOW_LIST_ADDRESS), 0n);
  assert.equal(await roleOf(chain, OTHER), 0n);
});

test('DELEGATECALL into a stateful precompile between 1754107200 and Granite invalidates the tx', async () => {
  const { txInvalidation } = await import('./index.js');
  const chain = await makeChain({ configs: [txAllowList()], isGranite: false });
  const { bytecode } = compile(PRECOMPILE_TEST_SOURCES, 'Proxy');
  const proxy = await deploy(chain, ADMIN, bytecode);
  const r = await call(chain, {
    from: NOBODY,
    to: proxy,
    data: encodeFunctionData({ abi: proxyAbi, functionName: 'doDelegateCall', args: [TX_ALLOW_LIST_ADDRESS, enc('readAllowList', ADMIN)] }),
  });
  const [ok] = decodeFunctionResult({ abi: proxyAbi, functionName: 'doDelegateCall', data: ret(r) as `0x${string}` });
  assert.equal(ok, false);
  assert.equal(txInvalidation(chain.evm), 'precompile cannot be called with DELEGATECALL');
  // the next top-level message starts clean; a plain CALL is fine
  const plain = await call(chain, { from: NOBODY, to: TX_ALLOW_LIST_ADDRESS, data: enc('readAllowList', ADMIN) });
  assert.equal(errorOf(plain), undefined);
  assert.equal(txInvalidation(chain.evm), undefined);
});
