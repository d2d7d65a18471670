// eth_call's plain path (plainCall.ts: the message run without runTx) against runTx, over HTTP on
// a dev node: the same calls, once plain (no overrides: the plain path runs) and once with a state
// override of an address nothing reads (the call then goes through runTx), must give the very same
// answer — result, or error code, message and data; so must eth_estimateGas and eth_callDetailed
// (whose gas used is the path's own count). The probe contract reads what runTx's set-up
// decides: gas left (intrinsic gas, warm and cold accounts), the origin's and sender's accounts
// (their nonce bump), balances and value, the block context, creations, reverts and EVM errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFunctionData, type Hex } from 'viem';
import { DEV_ADDRS, deployFromDev, devNode, type Rpc } from '../chain/testkit.js';
import type { TestNode } from '../../../test/helpers.js';
import { compile } from '../../../test/solc.js';
import { createTx } from '@ethereumjs/tx';
import { plainCallStats, plainCallTx, isPlainCallTx } from './plainCall.js';
import { Commons } from '../chain/common.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Child { uint public x = 7; }
contract Probe {
  uint public stored = 1;
  error Custom(uint a, string b);
  function gasLeft() external view returns (uint) { return gasleft(); }
  function origin() external view returns (address, uint, bytes32, uint) { return (tx.origin, tx.origin.balance, tx.origin.codehash, tx.origin.code.length); }
  function sender() external view returns (address, uint, bytes32) { return (msg.sender, msg.sender.balance, msg.sender.codehash); }
  function coldWarm(address a) external view returns (uint g1, uint g2, uint g3, uint g4) {
    uint g = gasleft(); uint b = a.balance; g1 = g - gasleft();
    g = gasleft(); b += block.coinbase.balance; g2 = g - gasleft();
    g = gasleft(); b += address(1).balance; g3 = g - gasleft();
    g = gasleft(); b += tx.origin.balance; g4 = g - gasleft();
    if (b == type(uint).max) revert();
  }
  function pay() external payable returns (uint, uint) { return (msg.value, address(this).balance); }
  function ctx() external view returns (uint, uint, uint, uint, address, uint, uint) {
    return (block.number, block.timestamp, block.basefee, tx.gasprice, block.coinbase, block.chainid, block.gaslimit);
  }
  function make() external returns (address, uint) { Child c = new Child(); return (address(c), c.x()); }
  function writeRead() external returns (uint, uint) { stored = 5; uint a = stored; stored = 0; return (a, gasleft()); }
  function fail(uint kind) external pure returns (uint) {
    if (kind == 0) revert("plain reason");
    if (kind == 1) revert Custom(42, "custom");
    if (kind == 2) assert(false);
    if (kind == 3) { uint[] memory a = new uint[](1); return a[kind]; }
    if (kind == 4) { assembly { invalid() } }
    if (kind == 5) { uint i; while (true) { i++; } }
    if (kind == 6) revert();
    return kind;
  }
  function nested() external returns (bool ok, bytes memory data) { (ok, data) = address(this).call(abi.encodeCall(this.fail, (0))); }
  function ecrecoverGas() external view returns (uint used, address who) {
    uint g = gasleft(); who = ecrecover(bytes32(uint(1)), 27, bytes32(uint(2)), bytes32(uint(3))); used = g - gasleft();
  }
}`;

const probe = compile({ 'Probe.sol': SOURCE }, 'Probe');
const NOBODY = '0x00000000000000000000000000000000000000ee'; // the override's target: nothing reads it
const STRANGER = '0x1234567890123456789012345678901234567890'; // an account that does not exist

let node: TestNode;
let rpc: Rpc;
let addr: string;

before(async () => {
  ({ node, rpc } = await devNode());
  addr = await deployFromDev(rpc, probe.bytecode);
});

after(async () => {
  await node?.stop();
});

const data = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: probe.abi, functionName, args } as never) as Hex;

/** The call's answer on the wire: { result } or { error }. */
async function answer(call: Record<string, unknown>, overrides?: Record<string, unknown>) {
  const params: unknown[] = [call, 'latest'];
  if (overrides) params.push(overrides);
  const r = await rpc.raw('eth_call', params);
  return r.error ? { error: r.error } : { result: r.result };
}

const CALLS: [string, Record<string, unknown>][] = [];
for (const from of [undefined, DEV_ADDRS[1], STRANGER]) {
  const f = from ? { from } : {};
  CALLS.push([`gasLeft from ${from}`, { ...f, data: data('gasLeft') }]);
  CALLS.push([`gasLeft from ${from}, gas 100000`, { ...f, data: data('gasLeft'), gas: '0x186a0' }]);
  CALLS.push([`origin from ${from}`, { ...f, data: data('origin') }]);
  CALLS.push([`sender from ${from}`, { ...f, data: data('sender') }]);
  CALLS.push([`coldWarm from ${from}`, { ...f, data: data('coldWarm', [STRANGER]) }]);
  CALLS.push([`ctx from ${from}`, { ...f, data: data('ctx') }]);
  CALLS.push([`make from ${from}`, { ...f, data: data('make') }]);
  CALLS.push([`writeRead from ${from}`, { ...f, data: data('writeRead') }]);
  CALLS.push([`nested from ${from}`, { ...f, data: data('nested') }]);
  CALLS.push([`ecrecoverGas from ${from}`, { ...f, data: data('ecrecoverGas') }]);
  for (let kind = 0; kind <= 7; kind++) CALLS.push([`fail(${kind}) from ${from}`, { ...f, data: data('fail', [kind]), gas: '0x2dc6c0' }]);
}
CALLS.push(['pay 1 wei from a funded account', { from: DEV_ADDRS[2], data: data('pay'), value: '0x1' }]);
CALLS.push(['pay 1 wei from an empty account', { from: STRANGER, data: data('pay'), value: '0x1', refused: true }]);
CALLS.push(['the contract calling itself (a sender with code)', { data: data('sender'), get from() { return addr; } }]);
CALLS.push(['a call to an account without code', { from: DEV_ADDRS[1], to: STRANGER, data: '0x1234' }]);
CALLS.push(['a call to a precompile', { to: '0x0000000000000000000000000000000000000002', data: '0x1234' }]);
CALLS.push(['too little gas for the intrinsic gas', { data: data('gasLeft'), gas: '0x5208', refused: true }]);
CALLS.push(['an empty input', { data: '0x' }]);

test('every probe call gives the same answer on the plain path as through runTx', async () => {
  const kinds = new Set<string>();
  for (const [name, c] of CALLS) {
    const { refused, ...rest } = c;
    const call: Record<string, unknown> = { to: addr, ...rest, from: c.from };
    if (call.from === undefined) delete call.from;
    const runs = plainCallStats.runs;
    const plain = await answer(call);
    // Calls refused before the message runs (funds, intrinsic gas) never reach either path.
    assert.equal(plainCallStats.runs - runs, refused ? 0 : 1, `${name}: plain path taken`);
    const viaRunTx = await answer(call, { [NOBODY]: { balance: '0x1' } });
    assert.equal(plainCallStats.runs - runs, refused ? 0 : 1, `${name}: runTx path taken`);
    assert.deepEqual(plain, viaRunTx, name);
    // A failed pre-check is answered as `err: <error> (supplied gas N)` (geth's doCall).
    kinds.add('error' in plain ? `error ${(plain.error as { message: string }).message.replace(/^err: /, '').split(':')[0]}` : 'result');
  }
  // The probe reaches results and each kind of failure.
  for (const k of ['result', 'error execution reverted', 'error invalid opcode', 'error out of gas', 'error insufficient funds for gas * price + value', 'error intrinsic gas too low']) assert.ok(kinds.has(k), `${k} in ${[...kinds]}`);
});

test('eth_estimateGas gives the same estimates and errors on the plain path as through runTx', async () => {
  const cases: [string, Record<string, unknown>][] = [
    ['writeRead (a refund)', { from: DEV_ADDRS[1], data: data('writeRead') }],
    ['make (a creation)', { data: data('make') }],
    ['nested (a caught revert)', { from: STRANGER, data: data('nested') }],
    ['coldWarm', { from: DEV_ADDRS[1], data: data('coldWarm', [STRANGER]) }],
    ['pay 1 wei', { from: DEV_ADDRS[2], data: data('pay'), value: '0x1' }],
    ['gasLeft with a gas limit', { data: data('gasLeft'), gas: '0x30d40' }],
    ['a revert', { data: data('fail', [0]) }],
    ['an invalid opcode', { data: data('fail', [4]) }],
    ['out of gas at the cap', { data: data('fail', [5]), gas: '0x186a0' }],
  ];
  for (const [name, c] of cases) {
    const call = { to: addr, ...c };
    const runs = plainCallStats.runs;
    const plain = await rpc.raw('eth_estimateGas', [call, 'latest']);
    assert.ok(plainCallStats.runs > runs, `${name}: plain path taken`);
    const after = plainCallStats.runs;
    const viaRunTx = await rpc.raw('eth_estimateGas', [call, 'latest', { [NOBODY]: { balance: '0x1' } }]);
    assert.equal(plainCallStats.runs, after, `${name}: runTx path taken`);
    assert.deepEqual(plain.error ?? plain.result, viaRunTx.error ?? viaRunTx.result, name);
  }
});

test('eth_callDetailed reports the same gas used (after refunds) on the plain path as through runTx', async () => {
  for (const [name, c] of CALLS) {
    const { refused, ...rest } = c;
    if (refused) continue;
    const call: Record<string, unknown> = { to: addr, ...rest, from: c.from };
    if (call.from === undefined) delete call.from;
    const runs = plainCallStats.runs;
    const plain = await rpc.raw('eth_callDetailed', [call, 'latest']);
    assert.equal(plainCallStats.runs - runs, 1, `${name}: plain path taken`);
    const viaRunTx = await rpc.raw('eth_callDetailed', [call, 'latest', { [NOBODY]: { balance: '0x1' } }]);
    assert.equal(plainCallStats.runs - runs, 1, `${name}: runTx path taken`);
    assert.deepEqual(plain.error ?? plain.result, viaRunTx.error ?? viaRunTx.result, name);
  }
});

test('the probe reads what runTx sets up: warm accounts, the bumped sender, the call-time block', async () => {
  // coldWarm: a never-touched account is cold (2600), the coinbase (EIP-3651), precompiles and the origin warm (100).
  const cw = (await answer({ to: addr, from: DEV_ADDRS[1], data: data('coldWarm', [STRANGER]) })) as { result: string };
  const words = cw.result.slice(2).match(/.{64}/g)!.map((w) => BigInt('0x' + w));
  assert.ok(words[0] > 2600n && words[0] < 2700n, `cold: ${words[0]}`);
  for (const w of words.slice(1)) assert.ok(w >= 100n && w < 200n, `warm: ${w}`);
  // origin from an account that does not exist: after the nonce bump it exists (codehash of empty code).
  const o = (await answer({ to: addr, from: STRANGER, data: data('origin') })) as { result: string };
  const ow = o.result.slice(2).match(/.{64}/g)!;
  assert.equal(ow[2], 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  // The same tx run twice gives the same answer (the session's state is reverted after each run).
  assert.deepEqual(await answer({ to: addr, data: data('make') }), await answer({ to: addr, data: data('make') }));
});

test('the call-time block a plain call reads is the block\'s, before and after calls with block overrides', async () => {
  // (Consecutive calls on one block share its execution block: chain/exec.ts execBlockOfCall.)
  const words = (r: { result?: string }) => r.result!.slice(2).match(/.{64}/g)!.map((w) => BigInt('0x' + w));
  const plain = words((await answer({ to: addr, data: data('ctx') })) as { result: string });
  const coinbase = 0x00000000000000000000000000000000000000c0n;
  // (A later time: an earlier one could select a fork before the contract's opcodes.)
  const time = plain[1]! + 1000n;
  const over = await rpc.raw('eth_call', [{ to: addr, data: data('ctx') }, 'latest', null, { number: '0x99', time: '0x' + time.toString(16), gasLimit: '0x1c9c380', coinbase: '0x00000000000000000000000000000000000000c0', baseFee: '0x0' }]);
  assert.equal((over as { error?: unknown }).error, undefined, JSON.stringify(over));
  const o = words(over as { result: string });
  assert.deepEqual([o[0], o[1], o[4], o[6]], [0x99n, time, coinbase, 0x1c9c380n], 'the overrides are what the call saw');
  assert.deepEqual(words((await answer({ to: addr, data: data('ctx') })) as { result: string }), plain, 'and the next plain call sees the block again');
  // A new block: the next plain call sees its number.
  await rpc('evm_mine', []);
  const next = words((await answer({ to: addr, data: data('ctx') })) as { result: string });
  assert.equal(next[0], plain[0]! + 1n);
});

test('a plain call\'s light transaction has the intrinsic gas of ethereumjs\' legacy transaction, on every fork; out-of-range values get the real one', () => {
  const commons = new Commons(43210n);
  const to = '0x00000000000000000000000000000000000000aa';
  const datas = [new Uint8Array(), Uint8Array.from([0]), Uint8Array.from([1]), Buffer.from('70a08231000000000000000000000000d15c000000000000000000000000000000000001', 'hex'), new Uint8Array(5000).fill(7)];
  for (const fork of ['london', 'shanghai', 'cancun'] as const) {
    const common = commons.get(fork);
    for (const data of datas) {
      const light = plainCallTx(common, { nonce: 3n, gasLimit: 50_000_000n, to, value: 5n, data })!;
      assert.ok(isPlainCallTx(light));
      const real = createTx({ type: 0, nonce: 3n, gasLimit: 50_000_000n, gasPrice: 0n, to, value: 5n, data, v: 27n, r: 1n, s: 1n }, { common });
      assert.equal(light.getIntrinsicGas(), real.getIntrinsicGas(), `${fork}, ${data.length} bytes`);
      assert.deepEqual([light.type, light.to!.toString(), light.gasLimit, light.value, light.data, light.gasPrice], [0, to, 50_000_000n, 5n, data, 0n]);
    }
    const data = new Uint8Array();
    assert.equal(plainCallTx(common, { nonce: 2n ** 64n - 1n, gasLimit: 1n, to, value: 0n, data }), undefined);
    assert.equal(plainCallTx(common, { nonce: 0n, gasLimit: 2n ** 64n - 1n, to, value: 0n, data }), undefined);
    assert.equal(plainCallTx(common, { nonce: 0n, gasLimit: 1n, to, value: 2n ** 256n, data }), undefined);
  }
});
