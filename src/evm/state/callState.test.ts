// eth_call and estimateGas run on CallState (a journaled overlay over a per-root StateReader).
// The same calls with an (empty) block override run on a MerkleStateManager view instead; both
// must give the same bytes, errors and gas for calls that write, revert, create, self-destruct,
// move value and read what they wrote, and the reader's caches must never outlive their state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFunctionData } from 'viem';
import { compile } from '../../../test/solc.js';
import { useDevNode, deployFromDev, DEV_ADDRS } from '../chain/testkit.js';

const { rpc } = useDevNode({ 'db-type': 'memdb' });

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Kid {
  uint256 public v = 7;
  constructor() payable {}
  function bye(address payable to) external { selfdestruct(to); }
}
contract Lab {
  uint256 public a;
  mapping(uint256 => uint256) public m;
  event E(uint256 x);
  constructor() { a = 1; m[1] = 11; }
  function writeRead(uint256 k, uint256 v) external returns (uint256, uint256, uint256) {
    uint256 before = m[k];
    m[k] = v;
    a += 1;
    return (before, m[k], a);
  }
  function inner(uint256 v) external { m[99] = v; a = v; revert("inner"); }
  function tryInner(uint256 v) external returns (uint256, uint256, bool) {
    m[99] = 5;
    bool ok;
    try this.inner(v) { ok = true; } catch { ok = false; }
    return (m[99], a, ok);
  }
  function createAndUse() external payable returns (uint256, uint256, bytes32, uint256) {
    Kid k = new Kid{value: msg.value}();
    return (k.v(), address(k).code.length, address(k).codehash, address(k).balance);
  }
  function create2Twice(bytes32 salt) external returns (address, bool) {
    Kid k = new Kid{salt: salt}();
    bool second;
    try new Kid{salt: salt}() { second = true; } catch { second = false; }
    return (address(k), second);
  }
  function createAndDestroy(address payable to) external payable returns (uint256, uint256, uint256) {
    Kid k = new Kid{value: msg.value}();
    k.bye(to);
    return (address(k).code.length, address(k).balance, to.balance);
  }
  function pay(address payable to) external payable returns (uint256, uint256) {
    to.transfer(msg.value);
    return (to.balance, address(this).balance);
  }
  function burn(uint256 n) external returns (uint256 x) {
    for (uint256 i = 0; i < n; i++) { m[1000 + i] = i + 1; x += m[1000 + i]; }
    emit E(x);
  }
  function boom() external pure { assert(false); }
}`;
const lab = compile({ 'CallStateLab.sol': SOURCE }, 'Lab');

let labAddr = '';
async function deploy(): Promise<string> {
  return (labAddr ||= await deployFromDev(rpc, lab.bytecode));
}

const data = (fn: string, args: unknown[] = []) => encodeFunctionData({ abi: lab.abi, functionName: fn, args } as never);

/** eth_call on CallState, and the same on a MerkleStateManager view (an empty block override). */
async function both(tx: Record<string, unknown>): Promise<[unknown, unknown]> {
  const overlay = await rpc.raw('eth_call', [tx, 'latest']);
  const merkle = await rpc.raw('eth_call', [tx, 'latest', null, {}]);
  return [overlay.result ?? overlay.error, merkle.result ?? merkle.error];
}

const FRESH = '0x00000000000000000000000000000000000fee11';

test('calls that write, revert, create, self-destruct and move value: CallState = MerkleStateManager', async () => {
  const to = await deploy();
  const cases: Record<string, unknown>[] = [
    { to, data: data('writeRead', [1n, 42n]) },
    { to, data: data('writeRead', [5n, 0n]) },
    { to, data: data('tryInner', [3n]) },
    { to, data: data('createAndUse'), value: '0x3e8', from: DEV_ADDRS[1] },
    { to, data: data('create2Twice', ['0x' + '11'.repeat(32)]) },
    { to, data: data('createAndDestroy', [FRESH]), value: '0x64', from: DEV_ADDRS[1] },
    { to, data: data('pay', [FRESH]), value: '0x5', from: DEV_ADDRS[1] },
    { to, data: data('burn', [40n]) },
    { to, data: data('burn', [40n]), gas: '0x7530' }, // out of gas
    { to, data: data('boom') },
    { to, data: data('a') },
    { to: FRESH, value: '0x1', from: DEV_ADDRS[1] },
    { data: lab.bytecode, from: DEV_ADDRS[1] }, // a creation
  ];
  for (const tx of cases) {
    const [o, m] = await both(tx);
    assert.deepEqual(o, m, `eth_call ${JSON.stringify(tx).slice(0, 80)}`);
  }
  // Nothing a call wrote is seen by the next one: the state is still the deployed one.
  assert.equal(BigInt(await rpc('eth_call', [{ to, data: data('a') }, 'latest'])), 1n);
  assert.equal(await rpc('eth_getCode', [FRESH, 'latest']), '0x');
  assert.equal(await rpc('eth_getBalance', [FRESH, 'latest']), '0x0');
});

test('estimateGas on CallState: a transaction with the estimate succeeds', async () => {
  const to = await deploy();
  for (const tx of [
    { to, data: data('writeRead', [2n, 9n]), from: DEV_ADDRS[1] },
    { to, data: data('createAndUse'), value: '0x3e8', from: DEV_ADDRS[1] },
    { to, data: data('burn', [30n]), from: DEV_ADDRS[1] },
    { to, data: data('createAndDestroy', [FRESH]), value: '0x64', from: DEV_ADDRS[1] },
  ]) {
    const gas = BigInt(await rpc('eth_estimateGas', [tx, 'latest']));
    assert.ok(gas > 21000n);
    const hash = await rpc('eth_sendTransaction', [{ ...tx, gas: '0x' + gas.toString(16) }]);
    assert.equal((await rpc('eth_getTransactionReceipt', [hash])).status, '0x1');
  }
});

test('a state edit, a block and a revert are seen by the next uncached call', async () => {
  const to = await deploy();
  const read = async (k: bigint) => BigInt(await rpc('eth_call', [{ to, data: data('m', [k]), from: '0x' + k.toString(16).padStart(40, '0') }, 'latest']));
  assert.equal(await read(1n), 11n);
  // m[1] is slot keccak(1 . 1); set it directly.
  const { keccak256, encodeAbiParameters } = await import('viem');
  const slot = keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [1n, 1n]));
  const snap = await rpc('evm_snapshot');
  await rpc('hardhat_setStorageAt', [to, slot, '0x' + '00'.repeat(31) + '2a']);
  assert.equal(await read(1n), 42n);
  await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to, data: data('writeRead', [1n, 77n]), gas: '0x100000' }]);
  assert.equal(await read(1n), 77n);
  await rpc('evm_revert', [snap]);
  assert.equal(await read(1n), 11n);
});
