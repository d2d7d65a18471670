// eth_call / eth_estimateGas from an address that has code (geth's SkipAccountChecks): the message
// runs with that address as msg.sender, and the sender's code stays visible to the code it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeFunctionResult, encodeFunctionData, keccak256 } from 'viem';
import { compile } from '../../../test/solc.js';
import { useDevNode, DEV_ADDRS } from '../chain/testkit.js';

const { rpc } = useDevNode({ 'db-type': 'memdb' });

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Who {
  function who() external view returns (address, uint256, bytes32) {
    return (msg.sender, msg.sender.code.length, msg.sender.codehash);
  }
  function ping() external pure returns (uint256) { return 7; }
  function callBack() external returns (uint256) { return Who(msg.sender).ping(); }
}`;
const who = compile({ 'Who.sol': SOURCE }, 'Who');
const call = (fn: string) => encodeFunctionData({ abi: who.abi, functionName: fn } as never);
const decode = (fn: string, out: `0x${string}`) => decodeFunctionResult({ abi: who.abi, functionName: fn, data: out } as never) as any;

async function deploy(): Promise<string> {
  const hash = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], data: who.bytecode, gas: '0x200000' }]);
  return (await rpc('eth_getTransactionReceipt', [hash])).contractAddress;
}

test('eth_call from a contract: msg.sender is the contract, its code stays visible', async () => {
  const a = await deploy();
  const b = await deploy();
  const codeHash = keccak256(await rpc('eth_getCode', [a, 'latest']));
  for (const extra of [[], [null, {}]]) {
    // extra [null, {}]: an empty block override (the other state manager path)
    const [sender, size, hash] = decode('who', await rpc('eth_call', [{ from: a, to: b, data: call('who') }, 'latest', ...extra]));
    assert.equal(sender.toLowerCase(), a.toLowerCase());
    assert.ok(size > 0n);
    assert.equal(hash, codeHash);
    // A call back into the sending contract runs its code.
    assert.equal(decode('callBack', await rpc('eth_call', [{ from: a, to: b, data: call('callBack') }, 'latest', ...extra])), 7n);
  }
  const gas = BigInt(await rpc('eth_estimateGas', [{ from: a, to: b, data: call('callBack') }, 'latest']));
  assert.ok(gas > 21000n);
  // A value transfer from the contract's balance (zero) still fails as for any account.
  const poor = await rpc.raw('eth_call', [{ from: a, to: b, value: '0x1' }, 'latest']);
  assert.match(poor.error.message, /^err: insufficient funds for gas \* price \+ value: /);
});

test('eth_call from an account given code (test control or state override) works the same', async () => {
  const b = await deploy();
  const code = '0x6001600055'; // any code
  await rpc('hardhat_setCode', [DEV_ADDRS[2], code]);
  const [sender, size] = decode('who', await rpc('eth_call', [{ from: DEV_ADDRS[2], to: b, data: call('who') }, 'latest']));
  assert.equal(sender.toLowerCase(), DEV_ADDRS[2]);
  assert.equal(size, 5n);
  const over = { [DEV_ADDRS[1]]: { code } };
  const [s2, size2] = decode('who', await rpc('eth_call', [{ from: DEV_ADDRS[1], to: b, data: call('who') }, 'latest', over]));
  assert.equal(s2.toLowerCase(), DEV_ADDRS[1]);
  assert.equal(size2, 5n);
  assert.ok(BigInt(await rpc('eth_estimateGas', [{ from: DEV_ADDRS[1], to: b, data: call('who') }, 'latest', over])) > 21000n);
});

test('a transaction from an impersonated contract is mined, as on Anvil and Hardhat; its code runs when called back, and its trace replays', async () => {
  const a = await deploy();
  const b = await deploy();
  const code = await rpc('eth_getCode', [a, 'latest']);
  assert.equal(await rpc('anvil_impersonateAccount', [a]), null);
  await rpc('anvil_setBalance', [a, '0xde0b6b3a7640000']);
  const nonce = BigInt(await rpc('eth_getTransactionCount', [a, 'latest']));
  // b calls back into its msg.sender, a: a's code runs inside a's own transaction.
  const hash = await rpc('eth_sendTransaction', [{ from: a, to: b, data: call('callBack') }]);
  const receipt = await rpc('eth_getTransactionReceipt', [hash]);
  assert.equal(receipt?.status, '0x1', JSON.stringify(receipt));
  assert.equal(receipt.from, a.toLowerCase());
  assert.equal(BigInt(await rpc('eth_getTransactionCount', [a, 'latest'])), nonce + 1n);
  assert.equal(await rpc('eth_getCode', [a, 'latest']), code);
  const trace = await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
  assert.equal(trace.from, a.toLowerCase());
  assert.equal(trace.calls?.[0]?.to, a.toLowerCase(), JSON.stringify(trace));
  // A plain value transfer from it too.
  const sent = await rpc('eth_sendTransaction', [{ from: a, to: DEV_ADDRS[1], value: '0x1' }]);
  assert.equal((await rpc('eth_getTransactionReceipt', [sent]))?.status, '0x1');
  await rpc('anvil_stopImpersonatingAccount', [a]);
});
