import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFunctionData, getAddress, parseAbi, toHex as vHex } from 'viem';
import { PRECOMPILE_TEST_SOURCES } from './contracts.js';
import { NATIVE_MINTER_ADDRESS } from './index.js';
import { parsePrecompileConfig } from './testkit.js';
import { NATIVE_COIN_MINTED_TOPIC } from './nativeMinter.js';
import { addr, balanceOf, call, compile, deploy, errorOf, makeChain, ret } from './testkit.js';

const ADMIN = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';
const ENABLED = '0x1000000000000000000000000000000000000002';
const NOBODY = '0x1000000000000000000000000000000000000003';
const RECIPIENT = '0x1000000000000000000000000000000000000009';

const abi = parseAbi(['function mintNativeCoin(address addr, uint256 amount)', 'function setEnabled(address)']);
const mint = (to: string, amount: bigint) => encodeFunctionData({ abi, functionName: 'mintNativeCoin', args: [to as `0x${string}`, amount] });

const minterConfig = (extra: Record<string, unknown> = {}) =>
  parsePrecompileConfig('contractNativeMinterConfig', { blockTimestamp: 0, adminAddresses: [ADMIN], enabledAddresses: [ENABLED], ...extra });

test('activation: code 0x01, nonce 1, initialMint credited', async () => {
  const chain = await makeChain({ configs: [minterConfig({ initialMint: { [RECIPIENT]: '0x64', [NOBODY]: 7 } })] });
  const acc = await chain.state.getAccount(addr(NATIVE_MINTER_ADDRESS));
  assert.equal(acc?.nonce, 1n);
  assert.equal(vHex(await chain.state.getCode(addr(NATIVE_MINTER_ADDRESS))), '0x01');
  assert.equal(await balanceOf(chain, RECIPIENT), 100n);
  assert.equal(await balanceOf(chain, NOBODY), 7n);
});

test('enabled and admin callers mint at once; NativeCoinMinted event; 30,000 + 1,756 gas', async () => {
  const chain = await makeChain({ configs: [minterConfig()] });
  for (const who of [ENABLED, ADMIN]) {
    const before = await balanceOf(chain, RECIPIENT);
    const r = await call(chain, { from: who, to: NATIVE_MINTER_ADDRESS, data: mint(RECIPIENT, 10n ** 18n) });
    assert.equal(errorOf(r), undefined);
    assert.equal(r.execResult.executionGasUsed, 31_756n);
    assert.equal(ret(r), '0x');
    assert.equal(await balanceOf(chain, RECIPIENT), before + 10n ** 18n);
    const [address, topics, data] = r.execResult.logs![0]!;
    assert.equal(vHex(address), NATIVE_MINTER_ADDRESS);
    assert.deepEqual(topics.map((t) => vHex(t)), [
      '0x400cd392f3d56fd10bb1dbd5839fdda8298208ddaa97b368faa053e1850930ee',
      '0x' + who.slice(2).padStart(64, '0'),
      '0x' + RECIPIENT.slice(2).padStart(64, '0'),
    ]);
    assert.equal(BigInt(vHex(data)), 10n ** 18n);
  }
  assert.equal(vHex(NATIVE_COIN_MINTED_TOPIC), '0x400cd392f3d56fd10bb1dbd5839fdda8298208ddaa97b368faa053e1850930ee');
});

test('refusals: non-enabled, static, out of gas, bad input', async () => {
  const chain = await makeChain({ configs: [minterConfig()] });
  let r = await call(chain, { from: NOBODY, to: NATIVE_MINTER_ADDRESS, data: mint(RECIPIENT, 1n), gasLimit: 90_000n });
  assert.equal(errorOf(r), `non-enabled cannot mint: ${getAddress(NOBODY)}`);
  assert.equal(r.execResult.executionGasUsed, 90_000n);
  // write protection is checked before decoding
  r = await call(chain, { from: ADMIN, to: NATIVE_MINTER_ADDRESS, data: '0x4f5aaaba', isStatic: true });
  assert.equal(errorOf(r), 'write protection');
  r = await call(chain, { from: ADMIN, to: NATIVE_MINTER_ADDRESS, data: mint(RECIPIENT, 1n), gasLimit: 31_755n });
  assert.equal(errorOf(r), 'out of gas');
  r = await call(chain, { from: ADMIN, to: NATIVE_MINTER_ADDRESS, data: mint(RECIPIENT, 1n).slice(0, 74) });
  assert.equal(errorOf(r), 'failed to unpack input: abi: cannot marshal in to go type: length insufficient 32 require 64');
  assert.equal(await balanceOf(chain, RECIPIENT), 0n);
});

test('pre-Durango: exact 64-byte input, no event, 30,000 gas', async () => {
  const chain = await makeChain({ configs: [minterConfig()], isDurango: false, isGranite: false });
  let r = await call(chain, { from: ADMIN, to: NATIVE_MINTER_ADDRESS, data: mint(RECIPIENT, 5n) });
  assert.equal(errorOf(r), undefined);
  assert.equal(r.execResult.executionGasUsed, 30_000n);
  assert.equal(r.execResult.logs?.length ?? 0, 0);
  r = await call(chain, { from: ADMIN, to: NATIVE_MINTER_ADDRESS, data: mint(RECIPIENT, 5n) + 'ff' });
  assert.equal(errorOf(r), 'invalid input length for minting: 65');
  assert.equal(await balanceOf(chain, RECIPIENT), 5n);
});

test('a Solidity contract with the enabled role mints through the typed interface', async () => {
  const chain = await makeChain({ configs: [minterConfig()] });
  const minter = compile(PRECOMPILE_TEST_SOURCES, 'Minter');
  const c = await deploy(chain, ADMIN, minter.bytecode);
  const cAbi = parseAbi(['function mint(address to, uint256 amount)']);
  let r = await call(chain, { from: NOBODY, to: c, data: encodeFunctionData({ abi: cAbi, functionName: 'mint', args: [RECIPIENT, 3n] }) });
  assert.ok(errorOf(r), 'the contract has no role yet');
  r = await call(chain, { from: ADMIN, to: NATIVE_MINTER_ADDRESS, data: encodeFunctionData({ abi, functionName: 'setEnabled', args: [c as `0x${string}`] }) });
  assert.equal(errorOf(r), undefined);
  r = await call(chain, { from: NOBODY, to: c, data: encodeFunctionData({ abi: cAbi, functionName: 'mint', args: [RECIPIENT, 3n] }) });
  assert.equal(errorOf(r), undefined);
  assert.equal(await balanceOf(chain, RECIPIENT), 3n);
  const log = r.execResult.logs!.find((l) => vHex(l[0]) === NATIVE_MINTER_ADDRESS)!;
  assert.equal(vHex(log[1][1]!), '0x' + c.slice(2).padStart(64, '0'), 'sender is the contract');
  // minting to the calling contract itself is visible to it right away
  r = await call(chain, { from: NOBODY, to: c, data: encodeFunctionData({ abi: cAbi, functionName: 'mint', args: [c as `0x${string}`, 11n] }) });
  assert.equal(errorOf(r), undefined);
  assert.equal(await balanceOf(chain, c), 11n);
});
