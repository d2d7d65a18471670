// Parity's trace_* on the dev chain (parityTrace.md), over HTTP on a real node: the Otterscan
// factory (CREATE with value, CREATE2, a payment, STATICCALL, DELEGATECALL, SELFDESTRUCT), a probe
// whose nested calls revert, hit an invalid opcode and run out of gas, a block of several txs, the
// filter, the replays, and bad input.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { encodeErrorResult, encodeFunctionData, getContractAddress, type Hex } from 'viem';
import { compileContract } from '../../../test/solc.js';
import { devNode, devNodeWithConfig, rpcError, DEV_ADDRS, type Rpc } from '../chain/testkit.js';
import type { TestNode } from '../../../test/helpers.js';

let node: TestNode;
let rpc: Rpc;
const F = compileContract('OtsFactory', 'Otterscan.sol');
const CHILD = compileContract('OtsChild', 'Otterscan.sol');
const TARGET = compileContract('TraceTarget', 'ParityTrace.sol');
const PROBE = compileContract('TraceProbe', 'ParityTrace.sol');
const SALT = ('0x' + '22'.repeat(32)) as Hex;
const UNKNOWN_HASH = '0x' + 'ab'.repeat(32);
/** An address only this file's transfers pay. */
const PAYEE = '0x00000000000000000000000000000000000b0b00';

let factory: string;
let target: string;
let probe: string;
let targetTx: string;
let deployTx: string;
let buildTx: string;
let probeTx: string;
let failTx: string;
let createFailTx: string;
let transferTx: string;
let gone: string;
let kept: string;
let multiBlock: number;
let multiTxs: string[];

const hexNum = (n: number | bigint) => '0x' + n.toString(16);
const lower = (a: string) => a.toLowerCase();

async function send(tx: Record<string, unknown>): Promise<{ hash: string; receipt: any }> {
  const hash = await rpc('eth_sendTransaction', [{ gas: '0x200000', ...tx }]);
  return { hash, receipt: await rpc('eth_getTransactionReceipt', [hash]) };
}

async function deploy(bytecode: string): Promise<{ hash: string; address: string }> {
  const { hash, receipt } = await send({ from: DEV_ADDRS[0], data: bytecode });
  assert.equal(receipt.status, '0x1');
  return { hash, address: receipt.contractAddress };
}

const data = (abi: any[], functionName: string, args: unknown[] = []) => encodeFunctionData({ abi, functionName, args } as never);
const blockOf = async (hash: string) => Number((await rpc('eth_getTransactionReceipt', [hash])).blockNumber);
const fails = async (method: string, params: unknown[]) => {
  const e = await rpcError(rpc(method, params));
  return [e.code, e.message];
};
/** A trace's shape without the numbers that depend on gas: [type, traceAddress, subtraces, error, action minus gas]. */
const shape = (t: any) => {
  const { gas: _gas, ...action } = t.action;
  return [t.type, t.traceAddress, t.subtraces, t.error, action];
};

before(async () => {
  ({ node, rpc } = await devNode());
  let d = await deploy(F.bytecode);
  factory = d.address;
  deployTx = d.hash;
  const built = await send({ from: DEV_ADDRS[0], to: factory, value: '0x5', data: data(F.abi, 'build', [DEV_ADDRS[2], SALT]) });
  assert.equal(built.receipt.status, '0x1');
  buildTx = built.hash;
  gone = lower(getContractAddress({ from: factory as Hex, nonce: 1n }));
  kept = lower(getContractAddress({ opcode: 'CREATE2', from: factory as Hex, salt: SALT, bytecode: CHILD.bytecode }));
  d = await deploy(TARGET.bytecode);
  target = d.address;
  targetTx = d.hash;
  d = await deploy(PROBE.bytecode);
  probe = d.address;
  const probed = await send({ from: DEV_ADDRS[1], to: probe, value: '0x9', data: data(PROBE.abi, 'probe', [target]) });
  assert.equal(probed.receipt.status, '0x1');
  probeTx = probed.hash;
  const failed = await send({ from: DEV_ADDRS[1], to: probe, data: data(PROBE.abi, 'probeThenFail', [target]) });
  assert.equal(failed.receipt.status, '0x0');
  failTx = failed.hash;
  createFailTx = (await send({ from: DEV_ADDRS[1], to: probe, data: data(PROBE.abi, 'probeCreate') })).hash;
  transferTx = (await send({ from: DEV_ADDRS[2], to: PAYEE, value: '0x7', gas: '0x5208' })).hash;
  // Three txs in one block: a transfer, the probe, a deployment.
  await rpc('evm_setAutomine', [false]);
  try {
    multiTxs = [
      await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[2], to: PAYEE, value: '0x1', gas: '0x5208' }]),
      await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[1], to: probe, gas: '0x200000', data: data(PROBE.abi, 'probe', [target]) }]),
      await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], gas: '0x200000', data: TARGET.bytecode }]),
    ];
    await rpc('evm_mine', []);
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
  multiBlock = await blockOf(multiTxs[0]);
  assert.equal(await blockOf(multiTxs[2]), multiBlock);
});

after(async () => {
  await node?.stop();
});

test('trace_transaction: a plain transfer is one call trace, placed in the chain, its gas without the intrinsic gas', async () => {
  const rc = await rpc('eth_getTransactionReceipt', [transferTx]);
  const traces = await rpc('trace_transaction', [transferTx]);
  assert.deepEqual(traces, [
    {
      action: { from: DEV_ADDRS[2], callType: 'call', gas: '0x0', input: '0x', to: PAYEE, value: '0x7' },
      blockHash: rc.blockHash,
      blockNumber: Number(rc.blockNumber),
      result: { gasUsed: '0x0', output: '0x' },
      subtraces: 0,
      traceAddress: [],
      transactionHash: transferTx,
      transactionPosition: 0,
      type: 'call',
    },
  ]);
  assert.deepEqual(Object.keys(traces[0]), ['action', 'blockHash', 'blockNumber', 'result', 'subtraces', 'traceAddress', 'transactionHash', 'transactionPosition', 'type']);
  assert.deepEqual(Object.keys(traces[0].action), ['from', 'callType', 'gas', 'input', 'to', 'value']);
});

test('trace_transaction: CREATE, CREATE2, a payment, STATICCALL, DELEGATECALL and a self-destruct, depth-first', async () => {
  const traces = await rpc('trace_transaction', [buildTx]);
  assert.deepEqual(traces.map(shape), [
    ['call', [], 6, undefined, { from: DEV_ADDRS[0], callType: 'call', input: data(F.abi, 'build', [DEV_ADDRS[2], SALT]), to: factory, value: '0x5' }],
    ['create', [0], 0, undefined, { from: factory, init: CHILD.bytecode, value: '0x3', creationMethod: 'create' }],
    ['create', [1], 0, undefined, { from: factory, init: CHILD.bytecode, value: '0x0', creationMethod: 'create2' }],
    ['call', [2], 0, undefined, { from: factory, callType: 'call', input: '0x', to: DEV_ADDRS[2], value: '0x2' }],
    ['call', [3], 0, undefined, { from: factory, callType: 'staticcall', input: data(CHILD.abi, 'ping'), to: gone, value: '0x0' }],
    // A DELEGATECALL runs in the factory's context and shows the value the factory was called with.
    ['call', [4], 0, undefined, { from: factory, callType: 'delegatecall', input: data(CHILD.abi, 'echo'), to: kept, value: '0x5' }],
    ['call', [5], 1, undefined, { from: factory, callType: 'call', input: data(CHILD.abi, 'destroy', [DEV_ADDRS[2]]), to: gone, value: '0x0' }],
    ['suicide', [5, 0], 0, undefined, { address: gone, balance: '0x3', refundAddress: DEV_ADDRS[2] }],
  ]);
  const [top, create, create2, , staticCall, , , suicide] = traces;
  assert.equal(top.result.output, '0x' + kept.slice(2).padStart(64, '0'));
  assert.deepEqual(Object.keys(create.action), ['from', 'gas', 'init', 'value', 'creationMethod']);
  assert.deepEqual(Object.keys(create.result), ['address', 'code', 'gasUsed']);
  assert.deepEqual([create.result.address, create.result.code], [gone, CHILD.deployedBytecode]);
  assert.deepEqual([create2.result.address, create2.result.code], [kept, CHILD.deployedBytecode]);
  assert.equal(staticCall.result.output, '0x' + '1'.padStart(64, '0'), 'ping() answers 1');
  assert.deepEqual(Object.keys(suicide.action), ['address', 'balance', 'refundAddress'], "Anvil's order");
  assert.equal(suicide.result, null);
  assert.ok(!('error' in suicide));
  for (const t of traces) assert.deepEqual([t.transactionHash, t.transactionPosition, t.blockNumber], [buildTx, 0, await blockOf(buildTx)]);
  // The top call's gas and gas used leave out the same intrinsic gas.
  const tx = await rpc('eth_getTransactionByHash', [buildTx]);
  const rc = await rpc('eth_getTransactionReceipt', [buildTx]);
  const intrinsic = BigInt(tx.gas) - BigInt(top.action.gas);
  assert.ok(intrinsic >= 21000n && intrinsic < 30000n, `intrinsic gas ${intrinsic}`);
  assert.equal(BigInt(rc.gasUsed) - BigInt(top.result.gasUsed), intrinsic);
});

test('trace_transaction: a contract creation tx is one create trace', async () => {
  const traces = await rpc('trace_transaction', [deployTx]);
  assert.equal(traces.length, 1);
  const [t] = traces;
  assert.deepEqual(shape(t), ['create', [], 0, undefined, { from: DEV_ADDRS[0], init: F.bytecode, value: '0x0', creationMethod: 'create' }]);
  assert.deepEqual([t.result.address, t.result.code], [factory, F.deployedBytecode]);
  const tx = await rpc('eth_getTransactionByHash', [deployTx]);
  const rc = await rpc('eth_getTransactionReceipt', [deployTx]);
  // Intrinsic gas of a creation: 53,000 + the calldata + the init code words; the code deposit is the frame's.
  const intrinsic = BigInt(tx.gas) - BigInt(t.action.gas);
  assert.ok(intrinsic > 53000n, `intrinsic gas ${intrinsic}`);
  assert.equal(BigInt(rc.gasUsed) - BigInt(t.result.gasUsed), intrinsic);
  assert.ok(BigInt(t.result.gasUsed) >= 200n * BigInt((F.deployedBytecode.length - 2) / 2), 'the code deposit is in the frame');
});

test('trace_transaction: nested failures carry Parity texts; a revert keeps its result, others have none; precompile calls are kept (Anvil 1.7.1)', async () => {
  const traces = await rpc('trace_transaction', [probeTx]);
  const call = (input: string, value: string) => ({ from: probe, callType: 'call', input, to: target, value });
  assert.deepEqual(traces.map(shape), [
    ['call', [], 5, undefined, { from: DEV_ADDRS[1], callType: 'call', input: data(PROBE.abi, 'probe', [target]), to: probe, value: '0x9' }],
    ['call', [0], 0, 'Reverted', call(data(TARGET.abi, 'fail', [7n]), '0x0')],
    ['call', [1], 0, 'Bad instruction', call(data(TARGET.abi, 'bad'), '0x0')],
    ['call', [2], 0, 'Out of gas', call(data(TARGET.abi, 'spin'), '0x0')],
    // sha256("x"): a STATICCALL to the precompile at 0x02.
    ['call', [3], 0, undefined, { from: probe, callType: 'staticcall', input: '0x78', to: '0x0000000000000000000000000000000000000002', value: '0x0' }],
    ['call', [4], 0, undefined, call(data(TARGET.abi, 'poke'), '0x1')],
  ]);
  const [top, reverted, bad, oog, sha, poke] = traces;
  assert.deepEqual(sha.result, { gasUsed: '0x48', output: top.result.output }, 'sha256 costs 60 + 12 a word; it returns the hash');
  assert.deepEqual(Object.keys(reverted), ['action', 'blockHash', 'blockNumber', 'error', 'result', 'subtraces', 'traceAddress', 'transactionHash', 'transactionPosition', 'type']);
  assert.equal(reverted.result.output, encodeErrorResult({ abi: TARGET.abi, errorName: 'Nope', args: [7n] } as never), 'the revert data');
  assert.ok(BigInt(reverted.result.gasUsed) > 0n);
  assert.equal(bad.result, null);
  assert.equal(oog.result, null);
  assert.equal(oog.action.gas, '0x1388', 'the 5,000 gas the probe gave');
  assert.equal(poke.result.output, '0x' + '7'.padStart(64, '0'));
  assert.ok(BigInt(poke.action.gas) > 2300n, 'a call with value gets the stipend');
  assert.equal(top.result.output.length, 66, 'sha256("x") returned');
  assert.ok(!('error' in top));
});

test('trace_transaction: a failed tx has the error on its top trace; an unknown tx has no traces', async () => {
  const traces = await rpc('trace_transaction', [failTx]);
  assert.deepEqual(traces.map((t: any) => [t.traceAddress, t.subtraces, t.error ?? null]), [
    [[], 1, 'Reverted'],
    [[0], 0, null],
  ]);
  assert.equal(traces[0].result.output, encodeErrorResult({ abi: [{ type: 'error', name: 'Error', inputs: [{ type: 'string' }] }], errorName: 'Error', args: ['no'] } as never));
  assert.deepEqual(await rpc('trace_transaction', [UNKNOWN_HASH]), [], 'Anvil answers an empty list');
  // A tx still in the pool is not mined: no traces either.
  await rpc('evm_setAutomine', [false]);
  try {
    const pooled = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[2], to: PAYEE, gas: '0x5208' }]);
    assert.ok(await rpc('eth_getTransactionByHash', [pooled]));
    assert.deepEqual(await rpc('trace_transaction', [pooled]), []);
    await rpc('evm_mine', []);
    assert.equal((await rpc('trace_transaction', [pooled])).length, 1, 'traced once mined');
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
});

test('trace_transaction: a CREATE whose constructor reverts keeps its result: the address tried and the revert data', async () => {
  const traces = await rpc('trace_transaction', [createFailTx]);
  assert.deepEqual(traces.map((t: any) => [t.type, t.traceAddress, t.subtraces, t.error ?? null]), [
    ['call', [], 1, null],
    ['create', [0], 0, 'Reverted'],
  ]);
  const nonce = BigInt(await rpc('eth_getTransactionCount', [probe, 'latest']));
  const unborn = lower(getContractAddress({ from: probe as Hex, nonce: nonce - 1n }));
  const reason = encodeErrorResult({ abi: [{ type: 'error', name: 'Error', inputs: [{ type: 'string' }] }], errorName: 'Error', args: ['unborn'] } as never);
  assert.deepEqual([traces[1].result.address, traces[1].result.code], [unborn, reason]);
  assert.deepEqual(Object.keys(traces[1].result), ['address', 'code', 'gasUsed']);
  assert.equal(traces[1].action.creationMethod, 'create');
});

test('trace_block: every tx of the block in order, each as trace_transaction answers it', async () => {
  const traces = await rpc('trace_block', [hexNum(multiBlock)]);
  const perTx = await Promise.all(multiTxs.map((h) => rpc('trace_transaction', [h])));
  assert.deepEqual(traces, perTx.flat());
  assert.deepEqual(
    traces.map((t: any) => [t.transactionPosition, t.type, t.traceAddress.length]),
    [[0, 'call', 0], [1, 'call', 0], [1, 'call', 1], [1, 'call', 1], [1, 'call', 1], [1, 'call', 1], [1, 'call', 1], [2, 'create', 0]],
  );
  assert.deepEqual(await rpc('trace_block', [multiBlock]), traces, 'a JSON number, as Anvil takes it');
  assert.deepEqual(await rpc('trace_block', ['earliest']), [], 'genesis has no txs');
  const head = Number(await rpc('eth_blockNumber', []));
  assert.deepEqual(await rpc('trace_block', ['latest']), await rpc('trace_block', [head]));
  assert.deepEqual(await rpc('trace_block', [head + 100]), [], 'past the head: no traces (Anvil)');
});

test('trace_filter: fromAddress / toAddress (union or intersection), after and count, within a bounded range', async () => {
  const head = Number(await rpc('eth_blockNumber', []));
  const all = await rpc('trace_filter', [{}]);
  const byBlock = (await Promise.all(Array.from({ length: head + 1 }, (_, n) => rpc('trace_block', [n])))).flat();
  assert.deepEqual(all, byBlock, 'no address: every trace from block 0 to the head');

  const fromProbe = await rpc('trace_filter', [{ fromAddress: [probe] }]);
  assert.equal(fromProbe.length, 5 + 1 + 1 + 5, 'the probe calls: five in each probe tx (sha256 included), one in the failed tx, the failed creation');
  assert.ok(fromProbe.every((t: any) => t.action.from === probe));
  const toTarget = await rpc('trace_filter', [{ toAddress: [target.toUpperCase().replace('0X', '0x')] }]);
  const targetCreation = await rpc('trace_transaction', [targetTx]);
  const probeCalls = fromProbe.filter((t: any) => t.type === 'call' && t.action.to === target);
  assert.deepEqual(toTarget, [...targetCreation, ...probeCalls], "its creation (a creation's to is the contract made), then the probe's calls");
  // Union: sent by DEV 2 or paid to PAYEE; intersection: both.
  const union = await rpc('trace_filter', [{ fromAddress: [DEV_ADDRS[2]], toAddress: [PAYEE] }]);
  const sentByDev2 = all.filter((t: any) => t.action.from === DEV_ADDRS[2]);
  assert.deepEqual(union, sentByDev2);
  const suicides = await rpc('trace_filter', [{ toAddress: [DEV_ADDRS[2]], mode: 'intersection', fromAddress: [gone] }]);
  assert.deepEqual(suicides.map((t: any) => t.type), ['suicide'], 'a self-destruct goes from the contract to its beneficiary');
  const created = await rpc('trace_filter', [{ toAddress: [kept] }]);
  assert.deepEqual(created.map((t: any) => [t.type, t.traceAddress]), [['create', [1]], ['call', [4]]], "a creation's to is the contract made");

  // after skips matching traces, count keeps at most that many.
  assert.deepEqual(await rpc('trace_filter', [{ fromAddress: [probe], after: 2, count: 3 }]), fromProbe.slice(2, 5));
  assert.deepEqual(await rpc('trace_filter', [{ fromAddress: [probe], after: '0x7' }]), fromProbe.slice(7));
  assert.deepEqual(await rpc('trace_filter', [{ fromAddress: [probe], count: 0 }]), []);
  assert.deepEqual(await rpc('trace_filter', [{ after: all.length }]), []);
  // The block range: numbers, hex quantities or tags; toBlock past the head stops at the head.
  const probeBlock = await blockOf(probeTx);
  const one = await rpc('trace_filter', [{ fromBlock: probeBlock, toBlock: hexNum(probeBlock), fromAddress: [probe] }]);
  assert.deepEqual(one, fromProbe.slice(0, 5));
  assert.deepEqual(await rpc('trace_filter', [{ fromBlock: multiBlock, toBlock: head + 50 }]), await rpc('trace_filter', [{ fromBlock: hexNum(multiBlock), toBlock: 'latest' }]));
  assert.deepEqual(await rpc('trace_filter', [{ fromBlock: head + 1, toBlock: head + 3 }]), []);
  assert.deepEqual(await fails('trace_filter', [{ fromBlock: 5, toBlock: 4 }]), [-32602, 'invalid block range, ensure that to block is greater than from block']);
  assert.deepEqual(await fails('trace_filter', [{ fromBlock: 0, toBlock: 301 }]), [-32602, 'block range too large, currently limited to 300']);
  assert.deepEqual(await fails('trace_filter', [{ fromBlock: head + 2000 }]), [-32602, 'invalid block range, ensure that to block is greater than from block']);
  assert.deepEqual(await rpc('trace_filter', [{ fromBlock: 0, toBlock: 300 }]), all, 'a range of 300 is served');
});

test('trace_replayTransaction / trace_replayBlockTransactions: the output and the traces without their place', async () => {
  const unplaced = (t: any) => {
    const { blockHash: _h, blockNumber: _n, transactionHash: _t, transactionPosition: _p, ...rest } = t;
    return rest;
  };
  const placed = await rpc('trace_transaction', [buildTx]);
  const replay = await rpc('trace_replayTransaction', [buildTx, ['trace']]);
  assert.deepEqual(replay, { output: placed[0].result.output, stateDiff: null, trace: placed.map(unplaced), vmTrace: null });
  assert.deepEqual(Object.keys(replay.trace[0]), ['type', 'action', 'result', 'subtraces', 'traceAddress'], "Anvil's order");
  assert.deepEqual(await rpc('trace_replayTransaction', [buildTx, []]), { ...replay, trace: [] }, 'no trace asked for');
  const failed = await rpc('trace_replayTransaction', [failTx, ['trace']]);
  assert.equal(failed.output, (await rpc('trace_transaction', [failTx]))[0].result.output, 'the revert data');
  assert.deepEqual(Object.keys(failed.trace[0]), ['type', 'action', 'error', 'result', 'subtraces', 'traceAddress']);

  const block = await rpc('trace_replayBlockTransactions', [hexNum(multiBlock), ['trace']]);
  assert.deepEqual(block.map((r: any) => r.transactionHash), multiTxs);
  for (const [i, r] of block.entries()) {
    const { transactionHash: _t, ...rest } = r;
    assert.deepEqual(rest, await rpc('trace_replayTransaction', [multiTxs[i], ['trace']]));
  }
  assert.deepEqual(Object.keys(block[0]), ['output', 'stateDiff', 'trace', 'vmTrace', 'transactionHash']);
  assert.equal(block[2].output, TARGET.deployedBytecode, "a creation's output is the code");
  assert.deepEqual(await rpc('trace_replayBlockTransactions', [0, ['trace']]), []);
  assert.deepEqual(await rpc('trace_replayBlockTransactions', [multiBlock + 1000, ['trace']]), [], 'past the head: [] (Anvil)');
});

// ---------------------------------------------------------------------------------------------
// stateDiff (Parity's, as Anvil 1.7.1 writes it: parityTrace.md "State diffs")

const word = (n: number | bigint) => '0x' + n.toString(16).padStart(64, '0');
/** The account diff of an account whose only change is a balance moved by `from` → `to`. */
const paid = (from: bigint, to: bigint) => ({ balance: { '*': { from: hexNum(from), to: hexNum(to) } }, code: '=', nonce: '=', storage: {} });
/** Pays for a tx: the whole fee (base and tip) goes to the coinbase on Subnet-EVM. */
const feeOf = async (hash: string) => {
  const rc = await rpc('eth_getTransactionReceipt', [hash]);
  return BigInt(rc.gasUsed) * BigInt(rc.effectiveGasPrice);
};
const balanceAt = async (who: string, block: number) => BigInt(await rpc('eth_getBalance', [who, hexNum(block)]));
const nonceAt = async (who: string, block: number) => BigInt(await rpc('eth_getTransactionCount', [who, hexNum(block)]));
const coinbaseOf = async (block: number) => lower((await rpc('eth_getBlockByNumber', [hexNum(block), false])).miner);
/** The diffs of the sender (its fee, `value` and nonce) and the coinbase (the fee) of a tx alone in its block. */
async function payerDiffs(hash: string, sender: string, value = 0n): Promise<Record<string, unknown>> {
  const n = await blockOf(hash);
  const fee = await feeOf(hash);
  const coinbase = await coinbaseOf(n);
  const [before, nonce, cbBefore] = [await balanceAt(sender, n - 1), await nonceAt(sender, n - 1), await balanceAt(coinbase, n - 1)];
  return {
    [coinbase]: paid(cbBefore, cbBefore + fee),
    [sender]: { balance: { '*': { from: hexNum(before), to: hexNum(before - fee - value) } }, code: '=', nonce: { '*': { from: hexNum(nonce), to: hexNum(nonce + 1n) } }, storage: {} },
  };
}
/** Sorted by address, as Anvil writes them (a BTreeMap). */
const sorted = (o: Record<string, unknown>) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
const stateDiff = async (hash: string) => (await rpc('trace_replayTransaction', [hash, ['stateDiff']])).stateDiff;

test('stateDiff: a value transfer to a new account: the sender `*` (fee, value, nonce), the payee `*` from 0x0, the coinbase its fee', async () => {
  const replay = await rpc('trace_replayTransaction', [transferTx, ['stateDiff']]);
  const n = await blockOf(transferTx);
  assert.equal(await balanceAt(PAYEE, n - 1), 0n, 'the payee did not exist before');
  assert.deepEqual(replay, {
    output: '0x',
    stateDiff: sorted({ ...(await payerDiffs(transferTx, DEV_ADDRS[2], 7n)), [PAYEE]: paid(0n, 7n) }),
    trace: [],
    vmTrace: null,
  });
  assert.deepEqual(Object.keys(replay.stateDiff), Object.keys(replay.stateDiff).sort(), 'addresses in order');
  for (const d of Object.values(replay.stateDiff)) assert.deepEqual(Object.keys(d as object), ['balance', 'code', 'nonce', 'storage']);
  assert.equal(await coinbaseOf(n), '0x0100000000000000000000000000000000000000', "the dev chain's coinbase: the fee is burnt there");
});

test('stateDiff: a contract creation is `+` in every field; a reverted tx shows only its gas payment', async () => {
  assert.deepEqual(
    await stateDiff(deployTx),
    sorted({ ...(await payerDiffs(deployTx, DEV_ADDRS[0])), [factory]: { balance: { '+': '0x0' }, code: { '+': F.deployedBytecode }, nonce: { '+': '0x1' }, storage: {} } }),
  );
  // probeThenFail called the target (poke) and reverted: nothing of it is left but the fee.
  assert.deepEqual(await stateDiff(failTx), sorted(await payerDiffs(failTx, DEV_ADDRS[1])));
  // A CREATE whose constructor reverted: the address tried is not there; the creator's nonce moved.
  const diff = await stateDiff(createFailTx);
  const probeNonce = await nonceAt(probe, await blockOf(createFailTx));
  assert.deepEqual(diff[probe], { balance: '=', code: '=', nonce: { '*': { from: hexNum(probeNonce - 1n), to: hexNum(probeNonce) } }, storage: {} });
  assert.deepEqual(Object.keys(diff).length, 3, 'the sender, the coinbase and the probe');
});

test('stateDiff: CREATE, CREATE2, payments and a self-destruct in one tx; ["trace","stateDiff"] answers both', async () => {
  const both = await rpc('trace_replayTransaction', [buildTx, ['trace', 'stateDiff']]);
  assert.deepEqual(Object.keys(both), ['output', 'stateDiff', 'trace', 'vmTrace']);
  assert.deepEqual(both.trace, (await rpc('trace_replayTransaction', [buildTx, ['trace']])).trace);
  assert.deepEqual(both.stateDiff, await stateDiff(buildTx));
  assert.deepEqual(await rpc('trace_replayTransaction', [buildTx, ['stateDiff', 'trace', 'stateDiff']]), both, 'order and repeats do not matter');
  const n = await blockOf(buildTx);
  const dev2 = await balanceAt(DEV_ADDRS[2], n - 1);
  assert.deepEqual(
    both.stateDiff,
    sorted({
      ...(await payerDiffs(buildTx, DEV_ADDRS[0], 5n)),
      // The factory was paid 5 and sent 3 (to `gone`) and 2: its balance is back where it was.
      [factory]: { balance: '=', code: '=', nonce: { '*': { from: '0x1', to: '0x3' } }, storage: {} },
      // `gone` was made and self-destructed in the tx: it is not there. Its 3 went to DEV 2, with the 2.
      [DEV_ADDRS[2]]: paid(dev2, dev2 + 5n),
      [kept]: { balance: { '+': '0x0' }, code: { '+': CHILD.deployedBytecode }, nonce: { '+': '0x1' }, storage: { [word(0)]: { '+': word(1) } } },
    }),
  );
});

test('stateDiff: storage writes are `*` per slot changed (from and to 0 too); a write of the same value leaves the account out', async () => {
  // Its constructor stores 5 in slot 0; its code stores calldata words 0 and 1 in slots 0 and 1.
  const runtime = '6000356000556020356001550' + '0';
  const store = await deploy('0x6005600055600d6011600039600d6000f3' + runtime);
  assert.deepEqual((await stateDiff(store.hash))[lower(store.address)], {
    balance: { '+': '0x0' },
    code: { '+': '0x' + runtime },
    nonce: { '+': '0x1' },
    storage: { [word(0)]: { '+': word(5) } },
  });
  const at = lower(store.address);
  const write = async (a: number, b: number) => (await send({ from: DEV_ADDRS[0], to: at, data: '0x' + word(a).slice(2) + word(b).slice(2) })).hash;
  const set = await write(9, 3);
  const change = (from: number, to: number) => ({ '*': { from: word(from), to: word(to) } });
  assert.deepEqual(await stateDiff(set), sorted({ ...(await payerDiffs(set, DEV_ADDRS[0])), [at]: { balance: '=', code: '=', nonce: '=', storage: { [word(0)]: change(5, 9), [word(1)]: change(0, 3) } } }));
  const zero = await write(0, 3);
  assert.deepEqual((await stateDiff(zero))[at], { balance: '=', code: '=', nonce: '=', storage: { [word(0)]: change(9, 0) } }, 'slot 1 kept its 3');
  const same = await write(0, 3);
  assert.deepEqual(await stateDiff(same), sorted(await payerDiffs(same, DEV_ADDRS[0])), 'nothing changed in the contract');
  // A contract made where a balance was paid before: Anvil writes it `*` field by field, not `+`.
  const next = lower(getContractAddress({ from: DEV_ADDRS[0] as Hex, nonce: await nonceAt(DEV_ADDRS[0], await blockOf(same)) }));
  await send({ from: DEV_ADDRS[1], to: next, value: '0x5' });
  const prefunded = await deploy('0x6005600055600d6011600039600d6000f3' + runtime);
  assert.equal(lower(prefunded.address), next);
  assert.deepEqual((await stateDiff(prefunded.hash))[next], {
    balance: '=',
    code: { '*': { from: '0x', to: '0x' + runtime } },
    nonce: { '*': { from: '0x0', to: '0x1' } },
    storage: { [word(0)]: change(0, 5) },
  });
});

test('stateDiff: a self-destruct of an older contract moves its balance; its code stays (EIP-6780)', async () => {
  const { hash, receipt } = await send({ from: DEV_ADDRS[0], data: CHILD.bytecode, value: '0x4' });
  const child = lower(receipt.contractAddress);
  assert.deepEqual((await stateDiff(hash))[child], { balance: { '+': '0x4' }, code: { '+': CHILD.deployedBytecode }, nonce: { '+': '0x1' }, storage: { [word(0)]: { '+': word(1) } } });
  const destroyed = (await send({ from: DEV_ADDRS[1], to: child, data: data(CHILD.abi, 'destroy', [PAYEE]) })).hash;
  const payee = await balanceAt(PAYEE, (await blockOf(destroyed)) - 1);
  assert.deepEqual(await stateDiff(destroyed), sorted({ ...(await payerDiffs(destroyed, DEV_ADDRS[1])), [child]: paid(4n, 0n), [PAYEE]: paid(payee, payee + 4n) }));
  assert.equal(await rpc('eth_getCode', [child, 'latest']), CHILD.deployedBytecode);
});

test('stateDiff: trace_replayBlockTransactions gives each tx its own diff, on the state the txs before it left', async () => {
  const block = await rpc('trace_replayBlockTransactions', [hexNum(multiBlock), ['stateDiff']]);
  assert.deepEqual(block.map((r: any) => r.transactionHash), multiTxs);
  for (const [i, r] of block.entries()) {
    const { transactionHash: _t, ...rest } = r;
    assert.deepEqual(rest, await rpc('trace_replayTransaction', [multiTxs[i], ['stateDiff']]));
    assert.deepEqual(rest.trace, []);
    assert.equal(rest.vmTrace, null);
  }
  assert.deepEqual(Object.keys(block[0]), ['output', 'stateDiff', 'trace', 'vmTrace', 'transactionHash']);
  // The first tx paid PAYEE 1; the coinbase's balance runs on from tx to tx.
  const coinbase = await coinbaseOf(multiBlock);
  const cb = block.map((r: any) => r.stateDiff[coinbase].balance['*']);
  assert.equal(cb[1].from, cb[0].to);
  assert.equal(cb[2].from, cb[1].to);
  const payee = await balanceAt(PAYEE, multiBlock - 1);
  assert.deepEqual(block[0].stateDiff[PAYEE], paid(payee, payee + 1n));
  const deployed = lower((await rpc('eth_getTransactionReceipt', [multiTxs[2]])).contractAddress);
  assert.deepEqual(block[2].stateDiff[deployed].code, { '+': TARGET.deployedBytecode });
  const both = await rpc('trace_replayBlockTransactions', [multiBlock, ['trace', 'stateDiff']]);
  const traced = await rpc('trace_replayBlockTransactions', [multiBlock, ['trace']]);
  assert.deepEqual(both, traced.map((r: any, i: number) => ({ ...r, stateDiff: block[i].stateDiff })));
});

test('bad input: each a clear JSON-RPC error, and the node goes on', async () => {
  const cases: [string, unknown[], number, string][] = [
    ['trace_transaction', ['0x12'], -32602, 'invalid argument 0: hex string has length 2, want 64 for common.Hash'],
    ['trace_transaction', [7], -32602, 'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Hash'],
    ['trace_transaction', [], -32602, 'missing value for required argument 0'],
    ['trace_transaction', [buildTx, 1], -32602, 'too many arguments, want at most 1'],
    ['trace_block', ['0xzz'], -32602, 'invalid argument 0: invalid hex string'],
    ['trace_block', [1.5], -32602, 'invalid argument 0: json: cannot unmarshal number 1.5 into Go value of type uint64'],
    ['trace_block', [{}], -32602, 'invalid argument 0: hex string without 0x prefix'],
    ['trace_block', [1, 2], -32602, 'too many arguments, want at most 1'],
    ['trace_filter', [], -32602, 'missing value for required argument 0'],
    ['trace_filter', ['latest'], -32602, 'invalid argument 0: json: cannot unmarshal string into Go value of type TraceFilter'],
    ['trace_filter', [{ fromBlock: 'nope' }], -32602, 'invalid argument 0: fromBlock: hex string without 0x prefix'],
    ['trace_filter', [{ toBlock: -1 }], -32602, 'invalid argument 0: toBlock: json: cannot unmarshal number -1 into Go value of type uint64'],
    ['trace_filter', [{ fromAddress: probe }], -32602, 'invalid argument 0: fromAddress: json: cannot unmarshal string into Go value of type []common.Address'],
    ['trace_filter', [{ toAddress: [probe, '0x12'] }], -32602, 'invalid argument 0: toAddress[1]: hex string has length 2, want 40 for common.Address'],
    ['trace_filter', [{ mode: 'both' }], -32602, 'invalid argument 0: mode: want "union" or "intersection", not "both"'],
    ['trace_filter', [{ count: 1.5 }], -32602, 'invalid argument 0: count: json: cannot unmarshal number 1.5 into Go value of type uint64'],
    ['trace_filter', [{ after: '0x' }], -32602, 'invalid argument 0: after: json: cannot unmarshal hex string "0x" into Go value of type hexutil.Uint64'],
    ['trace_filter', [{}, {}], -32602, 'too many arguments, want at most 1'],
    ['trace_replayTransaction', [buildTx], -32602, 'missing value for required argument 1'],
    ['trace_replayTransaction', [buildTx, 'trace'], -32602, 'invalid argument 1: json: cannot unmarshal string into Go value of type []string'],
    ['trace_replayTransaction', [buildTx, ['trace', 'nope']], -32602, 'invalid argument 1: unknown trace type "nope" (want "trace", "vmTrace" or "stateDiff")'],
    ['trace_replayTransaction', [buildTx, ['vmTrace']], -32602, 'invalid argument 1: trace type "vmTrace" is not served (only "trace" and "stateDiff")'],
    ['trace_replayTransaction', [buildTx, ['trace', 'stateDiff', 'vmTrace']], -32602, 'invalid argument 1: trace type "vmTrace" is not served (only "trace" and "stateDiff")'],
    ['trace_replayBlockTransactions', [1, ['stateDiff', 'statediff']], -32602, 'invalid argument 1: unknown trace type "statediff" (want "trace", "vmTrace" or "stateDiff")'],
    ['trace_replayTransaction', [UNKNOWN_HASH, ['trace']], -32000, 'transaction not found'],
    ['trace_replayTransaction', [buildTx, ['trace'], 1], -32602, 'too many arguments, want at most 2'],
    ['trace_replayBlockTransactions', ['0xzz', ['trace']], -32602, 'invalid argument 0: invalid hex string'],
    ['trace_replayBlockTransactions', [1, [1]], -32602, 'invalid argument 1: json: cannot unmarshal number into Go value of type string'],
    ['trace_replayBlockTransactions', [1, [[['trace']]]], -32602, 'invalid argument 1: json: cannot unmarshal array into Go value of type string'],
    ['trace_filter', [{ mode: { union: true } }], -32602, 'invalid argument 0: mode: want "union" or "intersection", not object'],
    ['trace_replayBlockTransactions', [1, ['trace'], 0], -32602, 'too many arguments, want at most 2'],
  ];
  for (const [method, params, code, message] of cases) {
    assert.deepEqual(await fails(method, params), [code, message], `${method} ${JSON.stringify(params)}`);
  }
  // A value nested 9,000 deep (Go's decoder takes up to 10,000) is named by its kind, not written
  // back (JSON.stringify would run out of stack: the fuzz found it as a handler crash).
  const deep = '['.repeat(9_000) + ']'.repeat(9_000);
  for (const [method, params, message] of [
    ['trace_replayTransaction', `["${buildTx}",[${deep}]]`, 'invalid argument 1: json: cannot unmarshal array into Go value of type string'],
    ['trace_filter', `[{"mode":${deep}}]`, 'invalid argument 0: mode: want "union" or "intersection", not array'],
  ]) {
    const r = await fetch(rpc.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}` });
    assert.deepEqual(((await r.json()) as { error?: unknown }).error, { code: -32602, message }, method);
  }
  assert.equal(typeof (await rpc('eth_blockNumber', [])), 'string', 'still serving');
});

test('a chain without the test controls does not serve trace_*', async () => {
  const { node, rpc: other } = await devNodeWithConfig({ 'powder-test-controls': false });
  try {
    for (const m of ['trace_transaction', 'trace_block', 'trace_filter', 'trace_replayTransaction', 'trace_replayBlockTransactions']) {
      assert.equal((await rpcError(other(m, []))).code, -32601, m);
    }
  } finally {
    await node.stop();
  }
});
