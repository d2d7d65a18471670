import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeFunctionResult, encodeFunctionData, getAddress, getContractAddress, parseAbi } from 'viem';
import { PRECOMPILE_TEST_SOURCES } from './contracts.js';
import { checkDeployAllowed, checkTxAllowed } from './index.js';
import { parsePrecompileConfig } from './testkit.js';
import { addr, call, compile, deploy, errorOf, makeChain, ret } from './testkit.js';

const ADMIN = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';
const DEPLOYER = '0x1000000000000000000000000000000000000002';
const NOBODY = '0x1000000000000000000000000000000000000003';
const proxyAbi = parseAbi(['function tryDeployChild() returns (bool ok, address child)', 'function deployChild() returns (address)']);

const deployerList = () =>
  parsePrecompileConfig('contractDeployerAllowListConfig', { blockTimestamp: 0, adminAddresses: [ADMIN], enabledAddresses: [DEPLOYER] });

test('CREATE from a non-allow-listed tx.origin fails inside execution, consuming all gas, nonce bumped', async () => {
  const chain = await makeChain({ configs: [deployerList()] });
  const { bytecode } = compile(PRECOMPILE_TEST_SOURCES, 'Child');
  const r = await call(chain, { from: NOBODY, data: bytecode, gasLimit: 300_000n });
  assert.equal(errorOf(r), `tx.origin ${getAddress(NOBODY)} is not authorized to deploy a contract`);
  assert.equal(r.execResult.executionGasUsed, 300_000n);
  assert.equal(ret(r), '0x');
  assert.equal((await chain.state.getAccount(addr(NOBODY)))?.nonce, 1n);
  // The result names the address it was to create (geth's tracers show it as the frame's `to`).
  assert.equal(r.createdAddress?.toString(), getContractAddress({ from: NOBODY, nonce: 0n }).toLowerCase());
  // the same deployment from enabled and admin origins works
  await deploy(chain, DEPLOYER, bytecode);
  await deploy(chain, ADMIN, bytecode);
});

test('nested CREATE/CREATE2 is judged by tx.origin, not by the creating contract', async () => {
  const chain = await makeChain({ configs: [deployerList()] });
  const { bytecode } = compile(PRECOMPILE_TEST_SOURCES, 'Proxy');
  const proxy = await deploy(chain, DEPLOYER, bytecode); // the proxy itself has no role
  let r = await call(chain, { from: DEPLOYER, to: proxy, data: encodeFunctionData({ abi: proxyAbi, functionName: 'tryDeployChild' }) });
  let [ok, child] = decodeFunctionResult({ abi: proxyAbi, functionName: 'tryDeployChild', data: ret(r) as `0x${string}` });
  assert.equal(ok, true);
  assert.notEqual(child, '0x0000000000000000000000000000000000000000');
  const nonceBefore = (await chain.state.getAccount(addr(proxy)))!.nonce;
  r = await call(chain, { from: NOBODY, to: proxy, data: encodeFunctionData({ abi: proxyAbi, functionName: 'tryDeployChild' }) });
  [ok, child] = decodeFunctionResult({ abi: proxyAbi, functionName: 'tryDeployChild', data: ret(r) as `0x${string}` });
  assert.equal(ok, false);
  // the direct call (no try/catch) fails as a whole
  r = await call(chain, { from: NOBODY, to: proxy, data: encodeFunctionData({ abi: proxyAbi, functionName: 'deployChild' }) });
  assert.ok(errorOf(r));
  assert.equal((await chain.state.getAccount(addr(proxy)))!.nonce, nonceBefore, 'failed frames roll back the creator nonce of their own frame');
  // an origin that is allowed may create through any contract
  r = await call(chain, { from: ADMIN, to: proxy, data: encodeFunctionData({ abi: proxyAbi, functionName: 'deployChild' }) });
  assert.equal(errorOf(r), undefined);
});

test('without the precompile anyone may deploy; checkDeployAllowed/checkTxAllowed follow the rules', async () => {
  const chain = await makeChain({ configs: [] });
  const { bytecode } = compile(PRECOMPILE_TEST_SOURCES, 'Child');
  await deploy(chain, NOBODY, bytecode);
  assert.equal(await checkDeployAllowed(chain.state, chain.rules, NOBODY), undefined);
  assert.equal(await checkTxAllowed(chain.state, chain.rules, NOBODY), undefined);

  const listed = await makeChain({
    configs: [deployerList(), parsePrecompileConfig('txAllowListConfig', { blockTimestamp: 0, enabledAddresses: [DEPLOYER] })],
  });
  assert.equal(await checkDeployAllowed(listed.state, listed.rules, DEPLOYER), undefined);
  assert.equal(
    await checkDeployAllowed(listed.state, listed.rules, NOBODY),
    `tx.origin ${getAddress(NOBODY)} is not authorized to deploy a contract`,
  );
  assert.equal(await checkTxAllowed(listed.state, listed.rules, DEPLOYER), undefined);
  assert.equal(
    await checkTxAllowed(listed.state, listed.rules, NOBODY),
    `cannot issue transaction from non-allow listed address: ${getAddress(NOBODY)}`,
  );
  assert.equal(
    await checkTxAllowed(listed.state, listed.rules, ADMIN),
    `cannot issue transaction from non-allow listed address: ${getAddress(ADMIN)}`,
    'admin of the deployer list has no tx allow-list role',
  );
});
