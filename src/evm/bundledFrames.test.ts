// The bundle's frame messages (scripts/bundle.mjs replaces @ethereumjs/evm's `_executeCall` literal
// `{ ...{ codeAddress }, ...message, gasLimit }` by one literal of fixed shape, in the bundles only).
// A node started from dist/powder.lib.mjs runs every kind of call frame — CALL with value,
// DELEGATECALL, CALLCODE, STATICCALL, a CALL with a gas limit — and what the callee saw (its
// sender, value, own address, storage, gas, whether it may write) is checked against what each
// kind of call must give it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decodeFunctionResult, encodeFunctionData, getAddress, numberToHex, type Abi, type Hex } from 'viem';
import { compile } from '../../test/solc.js';
import { DEV_ADDRS, type Rpc } from './chain/testkit.js';
import { bundledDevNode, distFile } from './bundledNode.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Callee {
  uint256 public stored = 5;
  function who() external payable returns (address sender, uint256 value, address self, uint256 gas, uint256 seen) {
    return (msg.sender, msg.value, address(this), gasleft(), stored);
  }
  function write(uint256 x) external { stored = x; }
}
contract Caller {
  uint256 public stored = 42;
  function viaCall(address c) external payable returns (address sender, uint256 value, address self, uint256 seen) {
    (bool ok, bytes memory r) = c.call{value: msg.value}(abi.encodeWithSignature("who()"));
    require(ok, "call failed");
    (sender, value, self, , seen) = abi.decode(r, (address, uint256, address, uint256, uint256));
  }
  function viaDelegate(address c) external payable returns (address sender, uint256 value, address self, uint256 seen) {
    (bool ok, bytes memory r) = c.delegatecall(abi.encodeWithSignature("who()"));
    require(ok, "delegatecall failed");
    (sender, value, self, , seen) = abi.decode(r, (address, uint256, address, uint256, uint256));
  }
  function viaCallcode(address c) external returns (address sender, uint256 value, address self, uint256 seen) {
    bytes4 sel = bytes4(keccak256("who()"));
    bool ok;
    assembly {
      let p := mload(0x40)
      mstore(p, sel)
      ok := callcode(gas(), c, 0, p, 4, p, 160)
      sender := mload(p)
      value := mload(add(p, 32))
      self := mload(add(p, 64))
      seen := mload(add(p, 128))
    }
    require(ok, "callcode failed");
  }
  function gasSeen(address c, uint256 g) external returns (uint256 gas) {
    (bool ok, bytes memory r) = c.call{gas: g}(abi.encodeWithSignature("who()"));
    require(ok, "call failed");
    (, , , gas, ) = abi.decode(r, (address, uint256, address, uint256, uint256));
  }
  function staticWrite(address c) external returns (bool ok) {
    (ok, ) = c.staticcall(abi.encodeWithSignature("write(uint256)", 1));
  }
  function writes(address c, uint256 x, uint256 y) external returns (uint256 calleeStored, uint256 ownStored) {
    (bool ok, ) = c.call(abi.encodeWithSignature("write(uint256)", x));
    require(ok, "call failed");
    (ok, ) = c.delegatecall(abi.encodeWithSignature("write(uint256)", y));
    require(ok, "delegatecall failed");
    return (Callee(c).stored(), stored);
  }
}`;
const callee = compile({ 'Frames.sol': SOURCE }, 'Callee');
const caller = compile({ 'Frames.sol': SOURCE }, 'Caller');

let rpc: Rpc;
let stop: () => Promise<void>;
let calleeAt: Hex;
let callerAt: Hex;

async function deploy(bytecode: Hex): Promise<Hex> {
  const hash = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], data: bytecode, gas: '0x500000' }]);
  return (await rpc('eth_getTransactionReceipt', [hash])).contractAddress;
}

before(async () => {
  ({ rpc, stop } = await bundledDevNode('powder-bundled-frames-'));
  calleeAt = await deploy(callee.bytecode);
  callerAt = await deploy(caller.bytecode);
});
after(() => stop?.());

async function call(functionName: string, args: unknown[], value = 0n): Promise<unknown> {
  const data = encodeFunctionData({ abi: caller.abi as Abi, functionName, args });
  const out = await rpc('eth_call', [{ from: DEV_ADDRS[0], to: callerAt, data, value: numberToHex(value) }, 'latest']);
  return decodeFunctionResult({ abi: caller.abi as Abi, functionName, data: out });
}

test('bundled frames: the bundle carries the frame-message patch', () => {
  assert.match(readFileSync(distFile('powder.lib.cjs'), 'utf8'), /powderFrameMessage\(message,\s*gasLimit\)/);
});

test('bundled frames: CALL gives the callee the caller, the value, its own address and storage', async () => {
  const [sender, value, self, seen] = (await call('viaCall', [calleeAt], 1234n)) as [Hex, bigint, Hex, bigint];
  assert.equal(sender, getAddress(callerAt));
  assert.equal(value, 1234n);
  assert.equal(self, getAddress(calleeAt));
  assert.equal(seen, 5n);
});

test('bundled frames: DELEGATECALL runs the callee\'s code as the caller, with its sender, value and storage', async () => {
  const [sender, value, self, seen] = (await call('viaDelegate', [calleeAt], 77n)) as [Hex, bigint, Hex, bigint];
  assert.equal(sender, getAddress(DEV_ADDRS[0]));
  assert.equal(value, 77n);
  assert.equal(self, getAddress(callerAt));
  assert.equal(seen, 42n);
});

test('bundled frames: CALLCODE runs the callee\'s code in the caller, the caller as sender', async () => {
  const [sender, value, self, seen] = (await call('viaCallcode', [calleeAt])) as [Hex, bigint, Hex, bigint];
  assert.equal(sender, getAddress(callerAt));
  assert.equal(value, 0n);
  assert.equal(self, getAddress(callerAt));
  assert.equal(seen, 42n);
});

test('bundled frames: a CALL\'s gas limit is the callee\'s gas', async () => {
  for (const g of [30_000n, 100_000n, 1_000_000n]) {
    const gas = (await call('gasSeen', [calleeAt, g])) as bigint;
    // The callee spends a little before its GAS opcode (dispatch, the ABI's checks), never more than it got.
    assert.ok(gas < g && gas > g - 500n, `gas ${g}: the callee saw ${gas}`);
  }
});

test('bundled frames: a STATICCALL may not write; CALL writes the callee\'s storage and DELEGATECALL the caller\'s', async () => {
  assert.equal(await call('staticWrite', [calleeAt]), false);
  assert.deepEqual(await call('writes', [calleeAt, 9n, 11n]), [9n, 11n]);
});

test('bundled frames: the bundle skips awaiting only the settled promises of runCall\'s journal steps and events, and a call state\'s held reads', () => {
  const text = readFileSync(distFile('powder.lib.cjs'), 'utf8');
  // (esbuild's output: the import's own name, SETTLED, and `if (x) await y` as `x && await y`.)
  const sites = text.match(/\{let powderStep=this\.(?:journal\.(?:checkpoint|commit|revert)\(\)|journal\.putAccount\(message\.to,toAccount\)|_emit\("(?:before|after)Message",(?:message|result)\));powderStep!==SETTLED\d*&&await powderStep\}/g) ?? [];
  assert.equal(sites.length, 7, sites.join('\n'));
  // And reads a call state's accounts and code without their promises, where it holds them.
  // (esbuild folds the second statement into what follows it, e.g. `if(x===NOT_NOW&&(…),!x)`.)
  const reads = text.match(/(?:let (?:account|toAccount)=accountNowFor\(this\.stateManager,(?:fromAddress|message\.to)\);(?:if\()?(?:account|toAccount)===NOT_NOW&&\((?:account|toAccount)=await this\.stateManager\.getAccount\((?:fromAddress|message\.to)\)\))|(?:message\.code=codeNowFor\(this\.stateManager,message\.codeAddress\),message\.code===NOT_NOW&&\(message\.code=await this\.stateManager\.getCode\(message\.codeAddress\)\))/g) ?? [];
  assert.equal(reads.length, 4, reads.join('\n'));
});

test('bundled frames: with listeners (a call tracer) every frame is heard, and a failed inner frame is reverted', async () => {
  const data = encodeFunctionData({ abi: caller.abi as Abi, functionName: 'writes', args: [calleeAt, 3n, 4n] });
  const trace = await rpc('debug_traceCall', [{ from: DEV_ADDRS[0], to: callerAt, data }, 'latest', { tracer: 'callTracer' }]);
  assert.deepEqual(
    trace.calls.map((c: { type: string; to: string }) => [c.type, c.to]),
    [
      ['CALL', calleeAt.toLowerCase()],
      ['DELEGATECALL', calleeAt.toLowerCase()],
      ['STATICCALL', calleeAt.toLowerCase()],
    ],
  );
  const failing = encodeFunctionData({ abi: caller.abi as Abi, functionName: 'staticWrite', args: [calleeAt] });
  const t2 = await rpc('debug_traceCall', [{ from: DEV_ADDRS[0], to: callerAt, data: failing }, 'latest', { tracer: 'callTracer' }]);
  assert.equal(t2.calls.length, 1);
  assert.equal(t2.calls[0].type, 'STATICCALL');
  assert.equal(t2.calls[0].error, 'write protection');
  // The failed write left nothing behind: the callee's slot is still what its constructor wrote.
  assert.deepEqual(await call('writes', [calleeAt, 9n, 11n]), [9n, 11n]);
  assert.equal(await rpc('eth_call', [{ to: calleeAt, data: encodeFunctionData({ abi: callee.abi as Abi, functionName: 'stored' }) }, 'latest']), numberToHex(5n, { size: 32 }));
});
