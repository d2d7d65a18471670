// Anvil's and Hardhat's own names for controls Powder serves under others, anvil_addBalance,
// anvil_autoImpersonateAccount, and the controls a Subnet-EVM chain refuses: each against a real
// node over HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeAbiParameters, encodeFunctionData, encodeFunctionResult, keccak256, toHex } from 'viem';
import { rpcError, signTx, DEV_ADDRS, type Rpc, withDevNode } from '../chain/testkit.js';
import { compile } from '../../../test/solc.js';

const OTHER = '0x1234567890123456789012345678901234567890';

/** What each tx of evm_mine_detailed's tests does; each function's revert data is known. */
const OUTPUTS = compile(
  {
    'Outputs.sol': `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Outputs {
  uint public counter;
  error Custom(uint256 code);
  function bump() external returns (uint256) { counter += 1; return counter + 41; }
  function fail(string calldata why) external pure { revert(why); }
  function underflow(uint256 a) external view returns (uint256) { return counter - a; }
  function custom() external pure { revert Custom(7); }
  function bare() external pure { revert(); }
  function unknownPanic() external pure { assembly { mstore(0, shl(224, 0x4e487b71)) mstore(4, 0x99) revert(0, 36) } }
  function halt() external pure { assembly { invalid() } }
}`,
  },
  'Outputs',
);

const head = (rpc: Rpc) => rpc('eth_getBlockByNumber', ['latest', false]);

/** Each [params] is refused with -32602, and the message starts as geth's do. */
async function refusesArgs(rpc: Rpc, method: string, bad: unknown[][]): Promise<void> {
  for (const params of bad) {
    const e = await rpcError(rpc(method, params));
    assert.equal(e.code, -32602, `${method} ${JSON.stringify(params)}: ${e.message}`);
    assert.match(e.message, /^(invalid argument \d: |missing value for required argument \d|too many arguments, want at most \d)/, `${method} ${JSON.stringify(params)}`);
  }
}

test('anvil_snapshot / anvil_revert share evm_snapshot / evm_revert\'s snapshots', () =>
  withDevNode(async (rpc) => {
    const a = await rpc('anvil_snapshot');
    await rpc('anvil_setBalance', [OTHER, '0x5']);
    await rpc('evm_mine');
    const b = await rpc('evm_snapshot');
    assert.equal(BigInt(b), BigInt(a) + 1n, 'one sequence of ids');
    await rpc('evm_mine');
    assert.equal(await rpc('anvil_revert', [b]), true);
    assert.equal(await rpc('eth_blockNumber'), '0x1');
    assert.equal(await rpc('evm_revert', [a]), true);
    assert.equal(await rpc('eth_blockNumber'), '0x0');
    assert.equal(await rpc('eth_getBalance', [OTHER, 'latest']), '0x0');
    assert.equal(await rpc('anvil_revert', [a]), false, 'used once');
    await refusesArgs(rpc, 'anvil_revert', [[], ['0xzz'], [{}], ['0x1', 2]]);
    await refusesArgs(rpc, 'anvil_snapshot', [[1]]);
    assert.equal(await rpc('eth_blockNumber'), '0x0');
  }));

test("anvil_setTime: Anvil's seconds (Ganache's evm_setTime takes ms), forwards and back; answers the seconds moved ahead", () =>
  withDevNode(async (rpc) => {
    const now = Math.floor(Date.now() / 1000);
    const ahead = await rpc('anvil_setTime', [now + 86_400]);
    assert.ok(Math.abs(ahead - 86_400) <= 2, `${ahead}`);
    await rpc('evm_mine');
    const t1 = Number((await head(rpc)).timestamp);
    assert.ok(Math.abs(t1 - (now + 86_400)) <= 5, `${t1}`);
    // Backwards: answers 0; the next block is still after its parent.
    assert.equal(await rpc('anvil_setTime', ['0x' + (now - 3600).toString(16)]), 0);
    await rpc('evm_mine');
    assert.ok(Number((await head(rpc)).timestamp) >= t1);
    // A one-shot next timestamp is dropped.
    await rpc('evm_setNextBlockTimestamp', [t1 + 100_000]);
    await rpc('anvil_setTime', [String(now)]);
    await rpc('evm_mine');
    assert.ok(Number((await head(rpc)).timestamp) < t1 + 100_000);
    const n = await rpc('eth_blockNumber');
    await refusesArgs(rpc, 'anvil_setTime', [[], [-1], ['soon'], [1.5], ['0x' + (2n ** 64n).toString(16)], [null], [1, 2]]);
    assert.equal(await rpc('eth_blockNumber'), n);
  }));

/** A block of evm_mine_detailed without Anvil's extra tx fields: eth_getBlockByNumber's answer. */
function withoutOutputs(b: any): any {
  return { ...b, transactions: b.transactions.map(({ output: _o, revertReason: _r, ...tx }: any) => tx) };
}

test('evm_mine_detailed / anvil_mine_detailed: the blocks mined, with full transactions', () =>
  withDevNode(async (rpc) => {
    // A block the automine made before the call is not in its answer.
    await rpc('eth_sendRawTransaction', [signTx(0, { nonce: 0n, to: OTHER, value: 1n })]);
    const [b0] = await rpc('evm_mine_detailed');
    assert.deepEqual([b0.number, b0.transactions], ['0x2', []]);
    await rpc('evm_setAutomine', [false]);
    const raw = signTx(1, { nonce: 0n, to: OTHER, value: 7n });
    const h = await rpc('eth_sendRawTransaction', [raw]);
    const [b1] = await rpc('evm_mine_detailed');
    assert.equal(b1.number, '0x3');
    assert.deepEqual(withoutOutputs(b1), await rpc('eth_getBlockByNumber', ['0x3', true]));
    assert.equal(b1.transactions[0].hash, h);
    assert.equal(b1.transactions[0].value, '0x7');
    assert.equal(b1.transactions[0].output, '0x', 'a transfer returns no data');
    assert.ok(!('revertReason' in b1.transactions[0]));
    const blocks = await rpc('anvil_mine_detailed', [{ blocks: 3 }]);
    assert.deepEqual(blocks.map((b: any) => b.number), ['0x4', '0x5', '0x6']);
    assert.deepEqual(blocks[2], await rpc('eth_getBlockByNumber', ['0x6', true]));
    const t = Number(blocks[2].timestamp) + 1000;
    const [b7] = await rpc('evm_mine_detailed', [t]);
    assert.equal(Number(b7.timestamp), t);
    await refusesArgs(rpc, 'evm_mine_detailed', [[{ blocks: -1 }], [{ blocks: 1e9 }], ['later'], [1, 2]]);
    await refusesArgs(rpc, 'anvil_mine_detailed', [[{ timestamp: 'x' }]]);
    assert.equal(await rpc('eth_blockNumber'), '0x7');
  }));

/** Sends a call of the Outputs contract at `to` from dev key `key` (explicit gas: no estimate, so failing calls go too). */
function callOutputs(rpc: Rpc, key: number, nonce: bigint, to: string, functionName: string, args: unknown[] = [], gasLimit = 200_000n): Promise<string> {
  const data = encodeFunctionData({ abi: OUTPUTS.abi, functionName, args });
  return rpc('eth_sendRawTransaction', [signTx(key, { nonce, to, data, gasLimit })]);
}

/** The revert data Solidity encodes for `Error(string)` / `Panic(uint256)`, and a custom error's. */
const errorData = (why: string) => '0x08c379a0' + encodeAbiParameters([{ type: 'string' }], [why]).slice(2);
const panicData = (code: bigint) => '0x4e487b71' + encodeAbiParameters([{ type: 'uint256' }], [code]).slice(2);
const customData = keccak256(toHex('Custom(uint256)')).slice(0, 10) + encodeAbiParameters([{ type: 'uint256' }], [7n]).slice(2);

test("evm_mine_detailed: each tx's return data (`output`) and, for a failed tx whose data is Error(string) or Panic(uint256), Anvil's `revertReason`", () =>
  withDevNode(async (rpc) => {
    await rpc('evm_setAutomine', [false]);
    // A creation's output is the code it deployed.
    const create = await rpc('eth_sendRawTransaction', [signTx(0, { nonce: 0n, data: OUTPUTS.bytecode, gasLimit: 1_000_000n })]);
    const [b1] = await rpc('evm_mine_detailed');
    const contract = (await rpc('eth_getTransactionReceipt', [create])).contractAddress;
    const code = await rpc('eth_getCode', [contract, 'latest']);
    assert.equal(code, OUTPUTS.deployedBytecode);
    assert.deepEqual(b1.transactions.map((tx: any) => [tx.hash, tx.output, tx.revertReason]), [[create, code, undefined]]);

    // One block: a call with return data, a transfer, each kind of failure, and a tx of an
    // impersonated sender (its hash is that of a stand-in signature).
    await rpc('anvil_impersonateAccount', [OTHER]);
    await rpc('anvil_setBalance', [OTHER, '0xde0b6b3a7640000']);
    const sent = {
      bump: await callOutputs(rpc, 0, 1n, contract, 'bump'),
      fail: await callOutputs(rpc, 0, 2n, contract, 'fail', ['not today']),
      underflow: await callOutputs(rpc, 0, 3n, contract, 'underflow', [1000n]),
      custom: await callOutputs(rpc, 0, 4n, contract, 'custom'),
      bare: await callOutputs(rpc, 0, 5n, contract, 'bare'),
      unknownPanic: await callOutputs(rpc, 0, 6n, contract, 'unknownPanic'),
      halt: await callOutputs(rpc, 0, 7n, contract, 'halt', [], 60_000n),
      transfer: await rpc('eth_sendRawTransaction', [signTx(1, { nonce: 0n, to: OTHER, value: 5n })]),
      impersonated: await rpc('eth_sendTransaction', [{ from: OTHER, to: contract, gas: '0x30d40', data: encodeFunctionData({ abi: OUTPUTS.abi, functionName: 'fail', args: ['as other'] }) }]),
    };
    const blocks = await rpc('anvil_mine_detailed', []);
    assert.equal(blocks.length, 1);
    const [b2] = blocks;
    assert.deepEqual(withoutOutputs(b2), await rpc('eth_getBlockByNumber', ['0x2', true]));
    const byHash = new Map(b2.transactions.map((tx: any) => [tx.hash, tx]));
    const detail = (h: string) => {
      const { output, revertReason } = byHash.get(h) as { output?: string; revertReason?: string };
      return { output, revertReason };
    };
    const ok = encodeFunctionResult({ abi: OUTPUTS.abi, functionName: 'bump', result: 42n });
    assert.deepEqual(detail(sent.bump), { output: ok, revertReason: undefined });
    assert.deepEqual(detail(sent.transfer), { output: '0x', revertReason: undefined });
    assert.deepEqual(detail(sent.fail), { output: errorData('not today'), revertReason: 'not today' });
    assert.deepEqual(detail(sent.underflow), { output: panicData(0x11n), revertReason: 'panic: arithmetic underflow or overflow (0x11)' });
    assert.deepEqual(detail(sent.unknownPanic), { output: panicData(0x99n), revertReason: 'panic: unknown code (0x99)' });
    // foundry's generic custom error: the selector, then the rest as UTF-8 text (31 zero bytes and 7 are valid UTF-8).
    assert.deepEqual(detail(sent.custom), { output: customData, revertReason: 'custom error 0xcb362b34: ' + '\u0000'.repeat(31) + '\u0007' });
    assert.deepEqual(detail(sent.bare), { output: '0x', revertReason: undefined });
    assert.deepEqual(detail(sent.impersonated), { output: errorData('as other'), revertReason: 'as other' });
    // A halt (here the INVALID opcode) has no output at all, as on Anvil.
    assert.ok(byHash.has(sent.halt));
    assert.deepEqual(detail(sent.halt), { output: undefined, revertReason: undefined });
    const statuses = await Promise.all(Object.values(sent).map(async (h) => (await rpc('eth_getTransactionReceipt', [h])).status));
    assert.deepEqual(statuses, ['0x1', '0x0', '0x0', '0x0', '0x0', '0x0', '0x0', '0x1', '0x0']);
    // Fields in Anvil's order: the tx's own, then output, then revertReason.
    assert.deepEqual(Object.keys(byHash.get(sent.fail) as object).slice(-2), ['output', 'revertReason']);
  }));

test('evm_mine_detailed with `blocks`: the return data of the txs in each block it mined', () =>
  withDevNode(async (rpc) => {
    await rpc('evm_setAutomine', [false]);
    await rpc('eth_sendRawTransaction', [signTx(0, { nonce: 0n, data: OUTPUTS.bytecode, gasLimit: 1_000_000n })]);
    const [deployed] = await rpc('evm_mine_detailed', [{}]);
    const contract = (await rpc('eth_getTransactionReceipt', [deployed.transactions[0].hash])).contractAddress;
    // The second tx's gas limit leaves room for no other tx: it goes into the next block.
    const first = await callOutputs(rpc, 0, 1n, contract, 'bump');
    const second = await callOutputs(rpc, 0, 2n, contract, 'fail', ['second'], BigInt(deployed.gasLimit) - 30_000n);
    const blocks = await rpc('evm_mine_detailed', [{ blocks: 3 }]);
    assert.deepEqual(
      blocks.map((b: any) => [b.number, b.transactions.map((tx: any) => [tx.hash, tx.output, tx.revertReason])]),
      [
        ['0x2', [[first, encodeFunctionResult({ abi: OUTPUTS.abi, functionName: 'bump', result: 42n }), undefined]]],
        ['0x3', [[second, errorData('second'), 'second']]],
        ['0x4', []],
      ],
    );
  }));

test('anvil_getIntervalMining (seconds or null) and hardhat_intervalMine (one block, true)', () =>
  withDevNode(async (rpc) => {
    assert.equal(await rpc('anvil_getIntervalMining'), null);
    await rpc('anvil_setIntervalMining', [3600]);
    assert.equal(await rpc('anvil_getIntervalMining'), 3600);
    await rpc('evm_setIntervalMining', [0]);
    assert.equal(await rpc('anvil_getIntervalMining'), null);
    assert.equal(await rpc('hardhat_intervalMine'), true);
    assert.equal(await rpc('eth_blockNumber'), '0x1');
    // Anvil's 0 is no mining at all (automine off too); the Hardhat node's evm_ name leaves automine.
    await rpc('evm_setAutomine', [true]);
    await rpc('evm_setIntervalMining', [0]);
    assert.equal(await rpc('anvil_getAutomine'), true);
    assert.equal(await rpc('anvil_setIntervalMining', [0]), null);
    assert.equal(await rpc('anvil_getAutomine'), false);
    const waiting = await rpc('eth_sendRawTransaction', [signTx(1, { nonce: 0n, to: OTHER, value: 2n })]);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(await rpc('eth_getTransactionReceipt', [waiting]), null, 'nothing mines it');
    assert.equal(await rpc('eth_blockNumber'), '0x1');
    await rpc('evm_mine');
    assert.equal((await rpc('eth_getTransactionReceipt', [waiting])).blockNumber, '0x2');
    const h = await rpc('eth_sendRawTransaction', [signTx(1, { nonce: 1n, to: OTHER, value: 1n })]);
    assert.equal(await rpc('hardhat_intervalMine', []), true);
    assert.equal((await rpc('eth_getTransactionReceipt', [h])).blockNumber, '0x3');
    await refusesArgs(rpc, 'anvil_getIntervalMining', [[1]]);
    await refusesArgs(rpc, 'hardhat_intervalMine', [[true]]);
    assert.equal(await rpc('eth_blockNumber'), '0x3');
  }));

test('anvil_addBalance adds to the latest balance; past 2^256-1 is refused and changes nothing', () =>
  withDevNode(async (rpc) => {
    assert.equal(await rpc('anvil_addBalance', [OTHER, '0x10']), null);
    assert.equal(await rpc('anvil_addBalance', [OTHER, '0x5']), null);
    assert.equal(await rpc('eth_getBalance', [OTHER, 'latest']), '0x15');
    const before = BigInt(await rpc('eth_getBalance', [DEV_ADDRS[0], 'latest']));
    await rpc('anvil_addBalance', [DEV_ADDRS[0], '0xde0b6b3a7640000']);
    assert.equal(BigInt(await rpc('eth_getBalance', [DEV_ADDRS[0], 'latest'])), before + 10n ** 18n);
    const e = await rpcError(rpc('anvil_addBalance', [OTHER, '0x' + 'f'.repeat(64)]));
    assert.deepEqual([e.code, e.message], [-32602, `invalid argument 1: the balance 21 plus ${2n ** 256n - 1n} would pass 2^256-1`]);
    await refusesArgs(rpc, 'anvil_addBalance', [[], [OTHER], ['0x12', '0x1'], [OTHER, '12'], [OTHER, '0x' + '1'.repeat(65)], [OTHER, -1], [OTHER, '0x1', 3]]);
    assert.equal(await rpc('eth_getBalance', [OTHER, 'latest']), '0x15');
  }));

test('anvil_autoImpersonateAccount: eth_sendTransaction from any sender until turned off (or reset)', () =>
  withDevNode(async (rpc) => {
    const who = '0x00000000000000000000000000000000000000aa';
    await rpc('anvil_setBalance', [who, '0xde0b6b3a7640000']);
    const send = () => rpc('eth_sendTransaction', [{ from: who, to: OTHER, value: '0x1' }]);
    assert.equal((await rpcError(send())).message, 'unknown account');
    assert.equal(await rpc('anvil_autoImpersonateAccount', [true]), null);
    const h = await send();
    const r = await rpc('eth_getTransactionReceipt', [h]);
    assert.deepEqual([r.status, r.from], ['0x1', who]);
    // Dev accounts still sign with their keys.
    const h2 = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[1], to: OTHER, value: '0x1' }]);
    assert.equal((await rpc('eth_getTransactionReceipt', [h2])).status, '0x1');
    assert.equal(await rpc('anvil_autoImpersonateAccount', [false]), null);
    assert.equal((await rpcError(send())).message, 'unknown account');
    await rpc('anvil_autoImpersonateAccount', [true]);
    await rpc('anvil_reset');
    assert.equal((await rpcError(send())).message, 'unknown account', 'a reset turns it off');
    await refusesArgs(rpc, 'anvil_autoImpersonateAccount', [[], ['true'], [1], [true, true]]);
    assert.equal((await rpcError(send())).message, 'unknown account');
  }));

test('controls a Subnet-EVM chain cannot honour: a clear refusal, nothing changed', () =>
  withDevNode(async (rpc) => {
    const before = await head(rpc);
    const chainId = await rpc('eth_chainId');
    const refusals: [string, unknown[], string][] = [
      ['hardhat_setPrevRandao', ['0x' + '11'.repeat(32)], "PREVRANDAO is fixed by Subnet-EVM's consensus: its blocks carry a zero mixHash and difficulty 1 (PREVRANDAO answers 1), and a block with another mix digest is invalid"],
      ['anvil_setChainId', [1337], "the chain id is the genesis's (config.chainId): a Subnet-EVM chain cannot change it"],
      ['anvil_setRpcUrl', ['http://127.0.0.1:8545'], 'forking is not supported: a Powder chain runs on its own genesis, not on a remote node'],
    ];
    for (const [m, params, text] of refusals) {
      for (const p of [params, [], ['0xzz', 1]]) {
        const e = await rpcError(rpc(m, p));
        assert.deepEqual([e.code, e.message], [-32000, text], m);
      }
    }
    await rpc('evm_mine');
    const after = await head(rpc);
    assert.equal(after.mixHash, before.mixHash);
    assert.equal(after.mixHash, '0x' + '00'.repeat(32));
    assert.equal(after.difficulty, '0x1');
    assert.equal(await rpc('eth_chainId'), chainId);
  }));
