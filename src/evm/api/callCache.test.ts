// The eth_call result cache (callCache.ts) must be exact: every state edit, block and argument
// change is seen by the next call, and errors replay identically. Through a real node over HTTP,
// plus the cache's own bounds and key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFunctionData, decodeFunctionResult } from 'viem';
import { compile } from '../../../test/solc.js';
import { useDevNode, rpcError, deployFromDev, DEV_ADDRS } from '../chain/testkit.js';
import { CallResultCache, callCacheKey } from './callCache.js';
import type { CallArgs } from './backend.js';

const { rpc } = useDevNode();

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Child {}
contract Probe {
  uint256 public x;
  function set(uint256 v) external { x = v; }
  function bal(address a) external view returns (uint256) { return a.balance; }
  function codeSize(address a) external view returns (uint256) { return a.code.length; }
  function num() external view returns (uint256) { return block.number; }
  function time() external view returns (uint256) { return block.timestamp; }
  function hashOf(uint256 n) external view returns (bytes32) { return blockhash(n); }
  function fail(uint256 v) external pure returns (uint256) { require(v == 0, "probe: nonzero"); return v; }
  function spawn() external returns (address) { return address(new Child()); }
}`;
const probe = compile({ 'CallCacheProbe.sol': SOURCE }, 'Probe');
const abi = probe.abi;
const OTHER = '0x00000000000000000000000000000000000c0ffe';
/** An account without code (eth_call's sender). */
const SENDER = '0x00000000000000000000000000000000000be11e';

let addr = '';
async function deploy(): Promise<string> {
  return (addr ||= await deployFromDev(rpc, probe.bytecode, '0x300000'));
}

/** eth_call of Probe.fn(args) at `block`, decoded. */
async function call(fn: string, args: unknown[] = [], block: unknown = 'latest', extra: unknown[] = []): Promise<any> {
  const to = await deploy();
  const data = encodeFunctionData({ abi, functionName: fn, args } as never);
  const out = await rpc('eth_call', [{ to, data }, block, ...extra]);
  return decodeFunctionResult({ abi, functionName: fn, data: out } as never);
}

const word = (n: bigint) => '0x' + n.toString(16).padStart(64, '0');

test('storage edits (anvil_setStorageAt, hardhat_setStorageAt) are seen by the next eth_call', async () => {
  const to = await deploy();
  const before = await call('x');
  assert.equal(await call('x'), before); // now cached
  await rpc('anvil_setStorageAt', [to, '0x0', word(77n)]);
  assert.equal(await call('x'), 77n);
  assert.equal(await call('x'), 77n);
  await rpc('hardhat_setStorageAt', [to, '0x0', word(78n)]);
  assert.equal(await call('x'), 78n);
});

test('balance, code and nonce edits are seen by the next eth_call', async () => {
  const to = await deploy();
  await rpc('anvil_setBalance', [OTHER, '0x5']);
  assert.equal(await call('bal', [OTHER]), 5n);
  assert.equal(await call('bal', [OTHER]), 5n);
  await rpc('hardhat_setBalance', [OTHER, '0x6']);
  assert.equal(await call('bal', [OTHER]), 6n);

  assert.equal(await call('codeSize', [OTHER]), 0n);
  await rpc('anvil_setCode', [OTHER, '0x602a60005260206000f3']);
  assert.equal(await call('codeSize', [OTHER]), 10n);
  await rpc('hardhat_setCode', [OTHER, '0x60206000f3']);
  assert.equal(await call('codeSize', [OTHER]), 5n);

  // CREATE's address follows the creator's nonce.
  const first = await call('spawn');
  assert.equal(await call('spawn'), first);
  await rpc('hardhat_setNonce', [to, '0x50']);
  const second = await call('spawn');
  assert.notEqual(second, first);
  await rpc('anvil_setNonce', [to, '0x60']);
  assert.notEqual(await call('spawn'), second);

  // The contract's own code replaced: the same call now runs the new code.
  const data = encodeFunctionData({ abi, functionName: 'x' } as never);
  const old = await rpc('eth_call', [{ to, data }, 'latest']);
  await rpc('hardhat_setCode', [to, '0x602a60005260206000f3']); // returns 42 for any input
  assert.equal(BigInt(await rpc('eth_call', [{ to, data }, 'latest'])), 42n);
  await rpc('hardhat_setCode', [to, probe.deployedBytecode]);
  assert.equal(await rpc('eth_call', [{ to, data }, 'latest']), old);
});

test('mined blocks, historical blocks and evm_revert each give their own state', async () => {
  const to = await deploy();
  await rpc('hardhat_setStorageAt', [to, '0x0', word(1n)]);
  await rpc('evm_mine');
  const n1 = BigInt(await rpc('eth_blockNumber'));
  assert.equal(await call('x'), 1n);
  assert.equal(await call('num'), n1);
  const snap = await rpc('evm_snapshot');
  await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to, data: encodeFunctionData({ abi, functionName: 'set', args: [2n] } as never), gas: '0x100000' }]);
  const n2 = BigInt(await rpc('eth_blockNumber'));
  assert.equal(n2, n1 + 1n);
  assert.equal(await call('x'), 2n);
  assert.equal(await call('num'), n2);
  // The same call at two blocks: each block's value, repeatedly.
  for (let i = 0; i < 2; i++) {
    assert.equal(await call('x', [], '0x' + n1.toString(16)), 1n);
    assert.equal(await call('x', [], '0x' + n2.toString(16)), 2n);
    assert.equal(await call('num', [], '0x' + n1.toString(16)), n1);
  }
  const h1 = (await rpc('eth_getBlockByNumber', ['0x' + n1.toString(16), false])).hash;
  assert.equal(await call('hashOf', [n1], 'latest'), h1);
  assert.equal(await call('x', [], { blockHash: h1 }), 1n);
  // Back to the snapshot: block n2 is gone, the state is block n1's again.
  assert.equal(await rpc('evm_revert', [snap]), true);
  assert.equal(BigInt(await rpc('eth_blockNumber')), n1);
  assert.equal(await call('x'), 1n);
  assert.equal(await call('num'), n1);
  // A new block at the old height: its own hash, time and state.
  await rpc('evm_increaseTime', [100]);
  await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to, data: encodeFunctionData({ abi, functionName: 'set', args: [3n] } as never), gas: '0x100000' }]);
  assert.equal(BigInt(await rpc('eth_blockNumber')), n2);
  assert.equal(await call('x'), 3n);
  assert.equal(await call('x', [], '0x' + n2.toString(16)), 3n);
  const head = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.equal(await call('time'), BigInt(head.timestamp));
});

test('a reverting call gives the same error twice; an error does not hide a later success', async () => {
  await deploy();
  const a = await rpcError(call('fail', [5n]));
  const b = await rpcError(call('fail', [5n]));
  assert.equal(a.code, 3);
  assert.equal(a.message, 'execution reverted: probe: nonzero');
  assert.deepEqual(b, a);
  assert.equal(await call('fail', [0n]), 0n);
  // A pre-execution error (insufficient funds for the value) replays identically as well.
  const to = await deploy();
  const data = encodeFunctionData({ abi, functionName: 'x' } as never);
  const req = [{ from: SENDER, to, data, value: '0xffffffffffff' }, 'latest'];
  const e1 = await rpcError(rpc('eth_call', req));
  const e2 = await rpcError(rpc('eth_call', req));
  assert.match(e1.message, /^err: insufficient funds for gas \* price \+ value: .* \(supplied gas \d+\)$/);
  assert.deepEqual(e2, e1);
  // ...until the account can pay.
  await rpc('anvil_setBalance', [SENDER, '0xffffffffffffff']);
  await assert.rejects(rpc('eth_call', req), /non-payable|revert/);
});

test('state and block overrides are never answered from the cache', async () => {
  const to = await deploy();
  await rpc('hardhat_setStorageAt', [to, '0x0', word(9n)]);
  assert.equal(await call('x'), 9n);
  assert.equal(await call('x', [], 'latest', [{ [to]: { stateDiff: { [word(0n)]: word(10n) } } }]), 10n);
  assert.equal(await call('x', [], 'latest', [{ [to]: { stateDiff: { [word(0n)]: word(11n) } } }]), 11n);
  assert.equal(await call('x'), 9n);
  const n = BigInt(await rpc('eth_blockNumber'));
  assert.equal(await call('num'), n);
  assert.equal(await call('num', [], 'latest', [{}, { number: '0x' + (n + 1000n).toString(16) }]), n + 1000n);
  assert.equal(await call('num'), n);
});

test('calls differing in any argument are different calls', async () => {
  const to = await deploy();
  await rpc('anvil_setBalance', [SENDER, '0x1000000000000000000']);
  const data = encodeFunctionData({ abi, functionName: 'bal', args: [SENDER] } as never);
  const base = BigInt(await rpc('eth_call', [{ to, data }, 'latest']));
  assert.equal(base, 0x1000000000000000000n);
  // `from` pays the value: the balance seen by bal(SENDER) drops only when SENDER is the sender.
  const r1 = await rpcError(rpc('eth_call', [{ from: SENDER, to, data, value: '0x1' }, 'latest']));
  assert.equal(r1.code, -32000); // bal is not payable: reverted without data
  assert.equal(BigInt(await rpc('eth_call', [{ from: SENDER, to, data }, 'latest'])), base);
  // Gas too low for the call, then enough.
  const low = await rpcError(rpc('eth_call', [{ to, data, gas: '0x5300' }, 'latest']));
  assert.match(low.message, /out of gas|intrinsic gas too low/);
  assert.equal(BigInt(await rpc('eth_call', [{ to, data, gas: '0x100000' }, 'latest'])), base);
});

test('CallResultCache: an outcome is kept from its second run on', () => {
  const c = new CallResultCache();
  c.set('a', { result: '0x01' });
  assert.equal(c.get('a'), undefined, 'offered once: not kept');
  c.set('a', { result: '0x01' });
  assert.deepEqual(c.get('a'), { result: '0x01' }, 'offered twice: kept');
  c.set('e', { error: { code: 3, message: 'execution reverted' } });
  assert.equal(c.get('e'), undefined);
  c.set('e', { error: { code: 3, message: 'execution reverted' } });
  assert.deepEqual(c.get('e'), { error: { code: 3, message: 'execution reverted' } });
  // The offers are bounded: a stream of calls that never repeat keeps nothing and stays small.
  const stream = new CallResultCache(8, 1_000_000);
  for (let i = 0; i < 1000; i++) stream.set('n' + i, { result: '0x' });
  assert.equal(stream.size, 0);
  // Forgotten offers only cost one more run: after the bound was passed, 'n999' is still offered, 'n0' is not.
  stream.set('n999', { result: '0x' });
  assert.deepEqual(stream.get('n999'), { result: '0x' });
  stream.set('n0', { result: '0x' });
  assert.equal(stream.get('n0'), undefined);
  // clear() forgets the offers too.
  c.set('f', { result: '0x02' });
  c.clear();
  c.set('f', { result: '0x02' });
  assert.equal(c.get('f'), undefined);
});

test('CallResultCache: recently used entries stay, entry and size bounds', () => {
  const c = new CallResultCache(4, 1_000_000, false); // two generations of 2; every outcome offered is kept
  c.set('a', { result: '0x01' });
  c.set('b', { result: '0x02' });
  assert.deepEqual(c.get('a'), { result: '0x01' });
  c.set('c', { result: '0x03' }); // a, b become the old generation
  assert.deepEqual(c.get('a'), { result: '0x01' }); // used again: back in the current one
  c.set('d', { result: '0x04' }); // c, a become the old generation; b is dropped
  assert.equal(c.get('b'), undefined);
  assert.deepEqual(c.get('c'), { result: '0x03' });
  assert.deepEqual(c.get('a'), { result: '0x01' });
  assert.deepEqual(c.get('d'), { result: '0x04' });
  assert.ok(c.size <= 4);
  for (let i = 0; i < 100; i++) c.set('n' + i, { result: '0x' });
  assert.ok(c.size <= 4);
  const small = new CallResultCache(100, 400, false);
  for (let i = 0; i < 10; i++) small.set('k' + i, { result: '0x' + 'ab'.repeat(40) });
  assert.ok(small.size < 10 && small.size > 0);
  assert.deepEqual(small.get('k9'), { result: '0x' + 'ab'.repeat(40) });
  // A huge result is not kept.
  const big = new CallResultCache(4096, 2 * 1024 * 1024, false);
  big.set('x', { result: '0x' + '00'.repeat(20_000) });
  assert.equal(big.get('x'), undefined);
  big.set('e', { error: { code: 3, message: 'execution reverted', data: '0x08c379a0' } });
  assert.deepEqual(big.get('e'), { error: { code: 3, message: 'execution reverted', data: '0x08c379a0' } });
});

test('callCacheKey: every argument and the state key are part of the key', () => {
  const base: CallArgs = { from: '0xaa', to: '0xbb', data: Uint8Array.from([1, 2]) };
  const k = callCacheKey('h1r1', 'cancun', base)!;
  const variants: CallArgs[] = [
    { ...base, from: '0xab' },
    { ...base, to: '0xbc' },
    { ...base, data: Uint8Array.from([1, 3]) },
    { ...base, gas: 100000n },
    { ...base, gasPrice: 1n },
    { ...base, maxFeePerGas: 1n },
    { ...base, maxPriorityFeePerGas: 1n },
    { ...base, value: 1n },
    { ...base, nonce: 1n },
    { ...base, chainId: 1n },
    { ...base, type: 2n },
    { ...base, accessList: [] },
    { ...base, accessList: [{ address: '0x0200000000000000000000000000000000000005', storageKeys: ['0x01'] }] },
    { ...base, accessList: [{ address: '0x0200000000000000000000000000000000000005', storageKeys: ['0x02'] }] },
    // The data as sent: the very array `data` is ('~'), or other bytes, as rawData or as rawInput.
    { ...base, rawData: base.data },
    { ...base, rawData: Uint8Array.from([9]) },
    { ...base, rawInput: base.data },
    { ...base, rawInput: Uint8Array.from([9]) },
    { ...base, rawData: base.data, rawInput: base.data },
  ];
  const keys = new Set([k, ...variants.map((v) => callCacheKey('h1r1', 'cancun', v))]);
  assert.equal(keys.size, variants.length + 1);
  assert.notEqual(callCacheKey('h1r2', 'cancun', base), k);
  assert.notEqual(callCacheKey('h2r1', 'cancun', base), k);
  assert.notEqual(callCacheKey('h1r1', 'durango', base), k);
  assert.equal(callCacheKey('h1r1', 'cancun', { ...base }), k);
  // Huge call data is not cached.
  assert.equal(callCacheKey('h1r1', 'cancun', { ...base, data: new Uint8Array(20_000) }), undefined);
});
