// The precompiles inside full transactions (@ethereumjs/vm runTx): receipts' status and logs,
// tx.origin from the signed tx, EIP-2929 cold access to stateful precompiles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createVM, runTx } from '@ethereumjs/vm';
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { createBlock } from '@ethereumjs/block';
import { Account, privateToAddress } from '@ethereumjs/util';
import { decodeFunctionResult, encodeFunctionData, parseAbi, toHex as vHex } from 'viem';
import { PRECOMPILE_TEST_SOURCES } from './contracts.js';
import { configureEVM, NATIVE_MINTER_ADDRESS, TX_ALLOW_LIST_ADDRESS } from './index.js';
import { parsePrecompileConfig } from './testkit.js';
import { addr, BLOCKCHAIN_ID, compile, makeChain, NETWORK_ID } from './testkit.js';

const KEY = new Uint8Array(32).fill(7);
const KEY2 = new Uint8Array(32).fill(9);
const FROM = vHex(privateToAddress(KEY));
const FROM2 = vHex(privateToAddress(KEY2));

async function setup() {
  const chain = await makeChain({
    configs: [
      parsePrecompileConfig('contractNativeMinterConfig', { blockTimestamp: 0, adminAddresses: [FROM] }),
      parsePrecompileConfig('contractDeployerAllowListConfig', { blockTimestamp: 0, adminAddresses: [FROM] }),
      parsePrecompileConfig('txAllowListConfig', { blockTimestamp: 0, adminAddresses: [FROM] }),
    ],
  });
  const vm = await createVM({ common: chain.evm.common, stateManager: chain.state, evm: chain.evm });
  configureEVM(vm.evm as typeof chain.evm, chain.rules, { networkID: NETWORK_ID, blockchainID: BLOCKCHAIN_ID });
  for (const who of [FROM, FROM2]) await chain.state.putAccount(addr(who), new Account(0n, 10n ** 20n));
  const block = createBlock({ header: { number: 5n, timestamp: 1_800_000_000n, gasLimit: 8_000_000n, baseFeePerGas: 1n } }, { common: vm.common });
  const nonces = new Map<string, bigint>();
  const send = async (key: Uint8Array, to: string | undefined, data: string, gasLimit = 500_000n) => {
    const from = vHex(privateToAddress(key));
    const nonce = nonces.get(from) ?? 0n;
    nonces.set(from, nonce + 1n);
    const tx = createFeeMarket1559Tx(
      { nonce, to: to as `0x${string}` | undefined, data: data as `0x${string}`, gasLimit, maxFeePerGas: 10n, maxPriorityFeePerGas: 0n, chainId: 99999n },
      { common: vm.common },
    ).sign(key);
    return runTx(vm, { tx, block, skipBlockGasLimitValidation: true });
  };
  return { chain, vm, send };
}

test('mint tx: receipt has status 1 and the NativeCoinMinted log; a refused mint has status 0, all gas used', async () => {
  const { chain, send } = await setup();
  const abi = parseAbi(['function mintNativeCoin(address,uint256)']);
  const data = encodeFunctionData({ abi, functionName: 'mintNativeCoin', args: [FROM2 as `0x${string}`, 5n] });
  const ok = await send(KEY, NATIVE_MINTER_ADDRESS, data, 100_000n);
  assert.equal(ok.execResult.exceptionError, undefined);
  assert.equal(ok.receipt.logs.length, 1);
  assert.equal(vHex(ok.receipt.logs[0]![0]), NATIVE_MINTER_ADDRESS);
  // 21,000 + calldata + 31,756 (the precompile address is `to`, hence warm)
  const calldataGas = [...Buffer.from(data.slice(2), 'hex')].reduce((s, b) => s + (b === 0 ? 4n : 16n), 0n);
  assert.equal(ok.totalGasSpent, 21_000n + calldataGas + 31_756n);
  assert.equal((await chain.state.getAccount(addr(FROM2)))!.balance, 10n ** 20n + 5n);
  const refused = await send(KEY2, NATIVE_MINTER_ADDRESS, data, 100_000n);
  assert.equal(refused.execResult.exceptionError?.error, `non-enabled cannot mint: ${(await import('viem')).getAddress(FROM2)}`);
  assert.equal(refused.totalGasSpent, 100_000n);
  assert.equal(refused.receipt.logs.length, 0);
  assert.equal((await chain.state.getAccount(addr(FROM2)))!.balance, 10n ** 20n + 5n - 100_000n * 1n /* effective price = base fee 1 */);
});

test('deployment by a non-allow-listed tx sender is mined with status 0 and consumes all gas', async () => {
  const { chain, send } = await setup();
  const { bytecode } = compile(PRECOMPILE_TEST_SOURCES, 'Child');
  const r = await send(KEY2, undefined, bytecode, 300_000n);
  assert.match(r.execResult.exceptionError?.error ?? '', /is not authorized to deploy a contract/);
  assert.equal(r.totalGasSpent, 300_000n);
  assert.equal((await chain.state.getAccount(addr(FROM2)))!.nonce, 1n);
  const ok = await send(KEY, undefined, bytecode, 300_000n);
  assert.equal(ok.execResult.exceptionError, undefined);
  assert.ok(ok.createdAddress);
});

test('a contract calling a stateful precompile pays the cold account access (not pre-warmed)', async () => {
  const { send } = await setup();
  const proxy = compile(PRECOMPILE_TEST_SOURCES, 'Proxy');
  const created = await send(KEY, undefined, proxy.bytecode, 2_000_000n);
  const proxyAddr = created.createdAddress!.toString();
  const pAbi = parseAbi(['function gasOf(address target, bytes data, uint256 budget) returns (bool ok, uint256 used)']);
  const read = encodeFunctionData({ abi: parseAbi(['function readAllowList(address) view returns (uint256)']), functionName: 'readAllowList', args: [FROM as `0x${string}`] });
  const used = async (target: string) => {
    const r = await send(KEY, proxyAddr, encodeFunctionData({ abi: pAbi, functionName: 'gasOf', args: [target as `0x${string}`, read, 50_000n] }));
    assert.equal(r.execResult.exceptionError, undefined);
    return decodeFunctionResult({ abi: pAbi, functionName: 'gasOf', data: vHex(r.execResult.returnValue) })[1];
  };
  // identical calls to two stateful precompiles: both cold in a fresh tx (2,600), so the same cost
  const a = await used(TX_ALLOW_LIST_ADDRESS);
  const b = await used(NATIVE_MINTER_ADDRESS);
  assert.equal(a, b);
  // versus the identity precompile 0x04 (pre-warmed: 100), costing 15 + 3×2 words = 21 and echoing
  // 36 bytes, whose copy into memory costs one word (3 gas) more than readAllowList's 32-byte answer
  const c = await used('0x0000000000000000000000000000000000000004');
  assert.equal(a - c, 2_600n - 100n + 5_000n - 21n - 3n);
});
