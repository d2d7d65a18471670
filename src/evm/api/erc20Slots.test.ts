// anvil_dealERC20 and anvil_setERC20Allowance on real ERC-20s compiled with solc: the
// OpenZeppelin-shaped test token (balances in slot 0, allowances a nested mapping in slot 1), a
// token whose balances live in a nested mapping at a non-zero slot behind other reads, and a
// token where no slot holds the answer. Each against a real node over HTTP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeFunctionResult, encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem';
import { compile, compileContract } from '../../../test/solc.js';
import { devNode, deployFromDev, rpcError, DEV_ADDRS, type Rpc } from '../chain/testkit.js';

const OZ = compileContract('ERC20');
const SOURCES = {
    'Tokens.sol': `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
/// Balances per epoch (a nested mapping at slot 3), read after a pause flag and the epoch.
contract NestedToken {
    uint256 public paused;
    address public admin;
    uint256 public epoch;
    mapping(uint256 => mapping(address => uint256)) private _balances;
    mapping(address => mapping(address => uint256)) private _allowances;
    constructor() { admin = msg.sender; epoch = 3; _balances[3][msg.sender] = 5; }
    function balanceOf(address a) external view returns (uint256) { require(paused == 0, "paused"); return _balances[epoch][a]; }
    function allowance(address o, address s) external view returns (uint256) { return _allowances[o][s]; }
}
/// Balances are shares times two: no slot holds what balanceOf answers.
contract ShareToken {
    mapping(address => uint256) private _shares;
    function balanceOf(address a) external view returns (uint256) { return _shares[a] * 2; }
    function allowance(address, address) external pure returns (uint256) { return 7; }
}`,
};
const NESTED = compile(SOURCES, 'NestedToken');
const SHARES = compile(SOURCES, 'ShareToken');

const HOLDER = '0x00000000000000000000000000000000000000a1';
const SPENDER = '0x00000000000000000000000000000000000000b2';

let node: Awaited<ReturnType<typeof devNode>>['node'];
let rpc: Rpc;
before(async () => {
  ({ node, rpc } = await devNode());
});
after(() => node?.stop());

async function read(token: string, abi: Abi, functionName: string, args: unknown[]): Promise<bigint> {
  const out = await rpc('eth_call', [{ to: token, data: encodeFunctionData({ abi, functionName, args }) }, 'latest']);
  return decodeFunctionResult({ abi, functionName, data: out as Hex }) as bigint;
}

async function deploy(c: { abi: Abi; bytecode: Hex }, args: unknown[] = []): Promise<string> {
  return deployFromDev(rpc, encodeDeployData({ abi: c.abi, bytecode: c.bytecode, args }));
}

test('the OpenZeppelin-shaped token: a balance and an allowance set, then spent with real transactions', async () => {
  const token = await deploy(OZ as never, ['Token', 'TKN', 1000n]);
  const supply = await read(token, OZ.abi, 'totalSupply', []);
  assert.equal(await rpc('anvil_dealERC20', [HOLDER, token, '0x' + (10n ** 21n).toString(16)]), null);
  assert.equal(await read(token, OZ.abi, 'balanceOf', [HOLDER]), 10n ** 21n);
  assert.equal(await read(token, OZ.abi, 'totalSupply', []), supply, 'only the balance, as on Anvil');
  assert.equal(await read(token, OZ.abi, 'balanceOf', [DEV_ADDRS[0]]), 1000n, 'other holders unchanged');

  assert.equal(await rpc('anvil_setERC20Allowance', [HOLDER, DEV_ADDRS[1], token, '0x64']), null);
  assert.equal(await read(token, OZ.abi, 'allowance', [HOLDER, DEV_ADDRS[1]]), 100n);
  // The spender spends it: transferFrom passes the allowance and balance checks.
  const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[1], to: token, data: encodeFunctionData({ abi: OZ.abi, functionName: 'transferFrom', args: [HOLDER, SPENDER, 60n] }) }]);
  assert.equal((await rpc('eth_getTransactionReceipt', [h])).status, '0x1');
  assert.equal(await read(token, OZ.abi, 'balanceOf', [SPENDER]), 60n);
  assert.equal(await read(token, OZ.abi, 'allowance', [HOLDER, DEV_ADDRS[1]]), 40n);
  // The edit is a state edit of the head: the storage slot as eth_getStorageAt reads it.
  assert.equal(BigInt(await rpc('eth_getStorageAt', [token, '0x0', 'latest'])), 0n, 'slot 0 itself is the mapping base, never written');
  // Dealing the balance an account already has still finds the slot (and writes it).
  assert.equal(await rpc('anvil_dealERC20', [DEV_ADDRS[0], token, '0x3e8']), null);
  assert.equal(await read(token, OZ.abi, 'balanceOf', [DEV_ADDRS[0]]), 1000n);
  assert.equal(await rpc('anvil_dealERC20', [DEV_ADDRS[0], token, '0x' + 'f'.repeat(64)]), null);
  assert.equal(await read(token, OZ.abi, 'balanceOf', [DEV_ADDRS[0]]), 2n ** 256n - 1n);
});

test('a token with balances in a nested mapping at slot 3, read after other slots: the right slot, nothing else written', async () => {
  const token = await deploy(NESTED as never);
  assert.equal(await rpc('anvil_dealERC20', [HOLDER, token, '0x2a']), null);
  assert.equal(await read(token, NESTED.abi, 'balanceOf', [HOLDER]), 42n);
  assert.equal(await read(token, NESTED.abi, 'paused', []), 0n);
  assert.equal(await read(token, NESTED.abi, 'epoch', []), 3n);
  // A zero amount: the probe is not the amount (any slot would answer 0 for a zero balance).
  assert.equal(await rpc('anvil_dealERC20', [DEV_ADDRS[0], token, '0x0']), null);
  assert.equal(await read(token, NESTED.abi, 'balanceOf', [DEV_ADDRS[0]]), 0n);
  assert.equal(await read(token, NESTED.abi, 'paused', []), 0n);
  assert.equal(await read(token, NESTED.abi, 'epoch', []), 3n);
  assert.equal(await rpc('anvil_setERC20Allowance', [HOLDER, SPENDER, token, '0x9']), null);
  assert.equal(await read(token, NESTED.abi, 'allowance', [HOLDER, SPENDER]), 9n);
});

test("no slot that works (a computed balance, a constant allowance, no contract): Anvil's error, nothing changed", async () => {
  const token = await deploy(SHARES as never);
  const root = (await rpc('eth_getBlockByNumber', ['latest', false])).stateRoot;
  const proof = async () => JSON.stringify(await rpc('eth_getProof', [token, [], 'latest']));
  const before = await proof();
  let e = await rpcError(rpc('anvil_dealERC20', [HOLDER, token, '0x3']));
  assert.deepEqual([e.code, e.message], [-32000, 'Unable to set ERC20 balance, no slot found']);
  e = await rpcError(rpc('anvil_setERC20Allowance', [HOLDER, SPENDER, token, '0x3']));
  assert.deepEqual([e.code, e.message], [-32000, 'Unable to set ERC20 allowance, no slot found']);
  const nothing = '0x00000000000000000000000000000000000000c3';
  e = await rpcError(rpc('anvil_dealERC20', [HOLDER, nothing, '0x3']));
  assert.deepEqual([e.code, e.message], [-32000, 'Unable to set ERC20 balance, no slot found']);
  assert.equal(await proof(), before);
  assert.equal((await rpc('eth_getBlockByNumber', ['latest', false])).stateRoot, root);
  assert.equal(await rpc('eth_getCode', [nothing, 'latest']), '0x');
});

test('bad arguments: -32602 naming the argument, nothing changed', async () => {
  const token = await deploy(OZ as never, ['Token', 'TKN', 1000n]);
  const bad: [string, unknown[]][] = [
    ['anvil_dealERC20', []],
    ['anvil_dealERC20', [HOLDER, token]],
    ['anvil_dealERC20', ['0x12', token, '0x1']],
    ['anvil_dealERC20', [HOLDER, 'token', '0x1']],
    ['anvil_dealERC20', [HOLDER, token, '1']],
    ['anvil_dealERC20', [HOLDER, token, '0x1' + '0'.repeat(64)]],
    ['anvil_dealERC20', [HOLDER, token, -1]],
    ['anvil_dealERC20', [HOLDER, token, '0x1', 4]],
    ['anvil_setERC20Allowance', [HOLDER, SPENDER, token]],
    ['anvil_setERC20Allowance', [HOLDER, 7, token, '0x1']],
    ['anvil_setERC20Allowance', [HOLDER, SPENDER, '0x' + 'g'.repeat(40), '0x1']],
    ['anvil_setERC20Allowance', [HOLDER, SPENDER, token, null]],
    ['anvil_setERC20Allowance', [HOLDER, SPENDER, token, '0x1', true]],
  ];
  for (const [m, params] of bad) {
    const e = await rpcError(rpc(m, params));
    assert.equal(e.code, -32602, `${m} ${JSON.stringify(params)}: ${e.message}`);
    assert.match(e.message, /^(invalid argument \d: |missing value for required argument \d|too many arguments, want at most \d)/);
  }
  assert.equal(await read(token, OZ.abi, 'balanceOf', [HOLDER]), 0n);
  assert.equal(await read(token, OZ.abi, 'allowance', [HOLDER, SPENDER]), 0n);
});
