// geth's prestateTracer, flatCallTracer and muxTracer on the dev chain: transactions mined by the
// node, solc-compiled contracts, traced over JSON-RPC and checked against the chain's own state
// (eth_getBalance / eth_getTransactionCount / eth_getCode / eth_getStorageAt at the blocks around).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { encodeDeployData, encodeFunctionData, pad, toHex, getContractAddress, type Abi } from 'viem';
import { compile, compileContract, type Compiled } from '../../../test/solc.js';
import { devNode, rpcError, BLACKHOLE, DEV_ADDRS, type Rpc } from '../chain/testkit.js';
import type { TestNode } from '../../../test/helpers.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Child {
    uint256 public v;
    constructor(uint256 x) payable { v = x; }
    function kill(address payable to) external { selfdestruct(to); }
}

contract Probe {
    uint256 public a; // slot 0
    uint256 public b; // slot 1
    constructor() payable { a = 1; }
    function write(uint256 x, uint256 y) external { a = x; b = y; }
    function read() external view returns (uint256) { return a + b; }
    function touch(address who) external view returns (uint256 bal, uint256 size, bytes32 h) {
        bal = who.balance;
        size = who.code.length;
        h = who.codehash;
    }
    function spawn(uint256 x) external payable returns (address c, address c2) {
        c = address(new Child{value: msg.value}(x));
        c2 = address(new Child{salt: bytes32(x)}(x));
    }
    function hash(bytes calldata d) external view returns (bytes32) { return sha256(d); }
    function fail() external { a = 7; revert("Probe: no"); }
    function burn() external { while (true) b++; }
}
`;
const P = compile({ 'Probe.sol': SOURCE }, 'Probe');
const CH = compile({ 'Probe.sol': SOURCE }, 'Child');
const C = { caller: compileContract('Caller', 'Fixtures.sol'), storage: compileContract('Storage', 'Fixtures.sol') };

let node: TestNode;
let rpc: Rpc;
let probe: string;
let storage: string;
let caller: string;
const [ALICE, BOB, CAROL] = DEV_ADDRS;
const SLOT0 = pad(toHex(0));
const SLOT1 = pad(toHex(1));

const data = (c: Compiled, functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: c.abi as Abi, functionName, args });

/** Sends a tx (automine) and returns its receipt. */
async function send(tx: Record<string, unknown>): Promise<any> {
  const h = await rpc('eth_sendTransaction', [tx]);
  return rpc('eth_getTransactionReceipt', [h]);
}

async function deploy(c: Compiled, args: unknown[] = [], value = '0x0'): Promise<string> {
  const r = await send({ from: ALICE, data: encodeDeployData({ abi: c.abi as Abi, bytecode: c.bytecode, args }), value, gas: '0x500000' });
  assert.equal(r.status, '0x1');
  return r.contractAddress;
}

/** An account as geth's prestate tracer writes it, read from the chain at `block` (slots given). */
async function account(addr: string, block: string, slots: string[] = []): Promise<Record<string, unknown>> {
  const o: Record<string, unknown> = { balance: toHex(BigInt(await rpc('eth_getBalance', [addr, block]))) };
  const code = await rpc('eth_getCode', [addr, block]);
  if (code !== '0x') o.code = code;
  const nonce = Number(await rpc('eth_getTransactionCount', [addr, block]));
  if (nonce !== 0) o.nonce = nonce;
  if (slots.length) o.storage = Object.fromEntries(await Promise.all([...slots].sort().map(async (s) => [s, await rpc('eth_getStorageAt', [addr, s, block])])));
  return o;
}

const blockBefore = (r: { blockNumber: string }) => toHex(BigInt(r.blockNumber) - 1n);
/** The JSON text, key order included. */
const same = (actual: unknown, expected: unknown, msg?: string) => assert.equal(JSON.stringify(actual), JSON.stringify(expected), msg);

before(async () => {
  ({ node, rpc } = await devNode());
  probe = await deploy(P);
  storage = await deploy(C.storage, [7n]);
  caller = await deploy(C.caller);
});
after(async () => {
  await node.stop();
});

test('prestateTracer: the touched accounts as they were before the tx (sender, recipient, coinbase, the slots read or written)', async () => {
  await send({ from: BOB, to: probe, data: data(P, 'write', [5n, 6n]) });
  const r = await send({ from: BOB, to: probe, data: data(P, 'write', [8n, 0n]) });
  const pre = await rpc('debug_traceTransaction', [r.transactionHash, { tracer: 'prestateTracer' }]);
  const at = blockBefore(r);
  same(pre, {
    [BLACKHOLE]: await account(BLACKHOLE, at),
    [probe]: await account(probe, at, [SLOT0, SLOT1]),
    [BOB]: await account(BOB, at),
  });
  assert.equal(pre[probe].storage[SLOT0], pad(toHex(5)));
  assert.ok(pre[BOB].nonce >= 1 && /^0x[1-9a-f]/.test(pre[BOB].balance));
  assert.deepEqual(Object.keys(pre[probe]), ['balance', 'code', 'nonce', 'storage'], 'geth\'s field order');
  assert.deepEqual(Object.keys(pre[BLACKHOLE]), ['balance'], 'nonce 0, empty code and storage are left out');
  // tracerConfig null or {} or {diffMode: false} is the default mode.
  for (const tracerConfig of [null, {}, { diffMode: false }, { DIFFMODE: null }]) {
    assert.deepEqual(await rpc('debug_traceTransaction', [r.transactionHash, { tracer: 'prestateTracer', tracerConfig }]), pre);
  }
});
