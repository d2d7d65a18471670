// eth_simulateV1 on the dev chain (simulate.md), over HTTP on a real node: blocks that build on
// each other, state and block overrides, gaps, reverts and halts, traceTransfers' logs, full
// transactions, validation, bad input, the limits (rpc-gas-cap, api-max-duration), viem's
// simulateBlocks / simulateCalls, and a chain left exactly as it was.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicClient, decodeFunctionResult, encodeErrorResult, encodeFunctionData, http, keccak256, toHex, type Hex } from 'viem';
import { simulateBlocks, simulateCalls } from 'viem/actions';
import { compileContract } from '../../../test/solc.js';
import { devNode, devNodeWithConfig, rpcError, deployFromDev, DEV_ADDRS, type Rpc } from '../chain/testkit.js';
import type { TestNode } from '../../../test/helpers.js';

const C = compileContract('SimTarget', 'Simulate.sol');
const TRANSFER_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const TRANSFER_TOPIC = keccak256(toHex('Transfer(address,address,uint256)'));
const NOTE_TOPIC = keccak256(toHex('Note(uint256)'));
/** Addresses only this file's simulations touch. */
const FRESH = '0x00000000000000000000000000000000000f2e51';
const SINK = '0x000000000000000000000000000000000005171c';
/** Where a state override puts the contract's code on nodes it is not deployed to. */
const CODE_AT = '0x00000000000000000000000000000000005117aa';

let node: TestNode;
let rpc: Rpc;
let target: string;

const hexNum = (n: number | bigint) => '0x' + n.toString(16);
const word = (a: string) => '0x' + a.slice(2).toLowerCase().padStart(64, '0');
const data = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: C.abi, functionName, args } as never);
const decode = (functionName: string, out: string) => decodeFunctionResult({ abi: C.abi, functionName, data: out as Hex } as never);
const simulate = (opts: unknown, block: unknown = 'latest') => rpc('eth_simulateV1', [opts, block]);
const fails = async (params: unknown[], on: Rpc = rpc) => {
  const e = await rpcError(on('eth_simulateV1', params));
  return [e.code, e.message];
};
const head = async () => rpc('eth_getBlockByNumber', ['latest', false]);

before(async () => {
  ({ node, rpc } = await devNode());
  target = await deployFromDev(rpc, C.bytecode);
});

after(async () => {
  await node?.stop();
});

test('two blocks: the second sees the state the first left; numbers +1, times +12 s, parent hashes chained, BLOCKHASH of a simulated block', async () => {
  const base = await head();
  const [b1, b2] = await simulate({
    blockStateCalls: [
      { calls: [{ from: DEV_ADDRS[0], to: target, data: data('bump', [5n]) }] },
      { calls: [{ to: target, data: data('count') }, { to: target, data: data('parentHash') }] },
    ],
  });
  assert.equal(b1.number, hexNum(BigInt(base.number) + 1n));
  assert.equal(b2.number, hexNum(BigInt(base.number) + 2n));
  assert.equal(b1.timestamp, hexNum(BigInt(base.timestamp) + 12n));
  assert.equal(b2.timestamp, hexNum(BigInt(base.timestamp) + 24n));
  assert.equal(b1.parentHash, base.hash);
  assert.equal(b2.parentHash, b1.hash);
  assert.equal(b1.miner, base.miner, 'the fee recipient is inherited');
  assert.equal(b1.gasLimit, base.gasLimit, 'the gas limit is inherited');
  assert.equal(b1.baseFeePerGas, '0x0', 'no validation: base fee 0');
  assert.equal(b1.timestampMilliseconds, hexNum(BigInt(b1.timestamp) * 1000n), 'the header milliseconds agree with its seconds');
  assert.equal(decode('bump', b1.calls[0].returnData), 5n);
  assert.equal(decode('count', b2.calls[0].returnData), 5n, 'block 2 runs on what block 1 left');
  assert.equal(b2.calls[1].returnData, b1.hash, "BLOCKHASH(n - 1) is the simulated parent's hash");
  assert.equal(b1.transactions.length, 1);
  assert.equal(b2.transactions.length, 2);
  assert.equal(b1.gasUsed, b1.calls[0].gasUsed, "the block's gas used is its calls'");
  assert.notEqual(b1.stateRoot, base.stateRoot, 'the state root is that of the simulated state');
  const [log] = b1.calls[0].logs;
  assert.deepEqual(log, {
    address: target,
    topics: [NOTE_TOPIC],
    data: word('0x5'),
    blockNumber: b1.number,
    transactionHash: b1.transactions[0],
    transactionIndex: '0x0',
    blockHash: b1.hash,
    logIndex: '0x0',
    removed: false,
  });
  assert.notEqual(b1.logsBloom, '0x' + '00'.repeat(256), "the bloom holds the block's logs");
  assert.equal(b1.calls[0].status, '0x1');
  assert.equal('error' in b1.calls[0], false);
});

test('a state override applies from its block on; later blocks keep it', async () => {
  const [b1, b2] = await simulate({
    blockStateCalls: [
      {
        stateOverrides: { [target]: { stateDiff: { [word('0x0')]: word('0x29') } }, [FRESH]: { balance: '0x100' } },
        calls: [{ to: target, data: data('count') }, { from: FRESH, to: SINK, value: '0x40' }],
      },
      { calls: [{ to: target, data: data('bump', [1n]) }] },
    ],
  });
  assert.equal(decode('count', b1.calls[0].returnData), 41n);
  assert.equal(b1.calls[1].status, '0x1', 'the overridden balance pays the value');
  assert.equal(decode('bump', b2.calls[0].returnData), 42n);
  // The same call without the override sees the chain's state.
  const [plain] = await simulate({ blockStateCalls: [{ calls: [{ to: target, data: data('count') }] }] });
  assert.equal(decode('count', plain.calls[0].returnData), 0n);
});

test('a block override of number and time: the gap is filled with empty blocks; fee recipient, gas limit and base fee overrides', async () => {
  const base = await head();
  const n = BigInt(base.number);
  const t = BigInt(base.timestamp) + 1000n;
  const out = await simulate({
    blockStateCalls: [
      {
        blockOverrides: { number: hexNum(n + 3n), time: hexNum(t), feeRecipient: SINK, gasLimit: '0x1000000', baseFeePerGas: '0x7' },
        calls: [{ to: target, data: data('stamp') }],
      },
      { calls: [{ to: target, data: data('stamp') }] },
    ],
  });
  assert.deepEqual(
    out.map((b: any) => [b.number, b.timestamp, b.transactions.length]),
    [
      [hexNum(n + 1n), hexNum(BigInt(base.timestamp) + 12n), 0],
      [hexNum(n + 2n), hexNum(BigInt(base.timestamp) + 24n), 0],
      [hexNum(n + 3n), hexNum(t), 1],
      [hexNum(n + 4n), hexNum(t + 12n), 1],
    ],
  );
  assert.deepEqual(out[0].calls, []);
  assert.equal(out[1].parentHash, out[0].hash);
  assert.equal(out[2].parentHash, out[1].hash);
  const [number, time, baseFee, coinbase] = decode('stamp', out[2].calls[0].returnData) as [bigint, bigint, bigint, string];
  assert.equal(number, n + 3n);
  assert.equal(time, t);
  assert.equal(baseFee, 0n, 'a call without fees runs with BASEFEE 0 (no validation)');
  assert.equal(coinbase.toLowerCase(), SINK);
  assert.equal(out[2].miner, SINK);
  assert.equal(out[2].gasLimit, '0x1000000');
  assert.equal(out[2].baseFeePerGas, '0x7');
  assert.equal(out[3].miner, SINK, 'the fee recipient carries to the next block, as in geth');
  assert.equal(out[3].gasLimit, '0x1000000');
  assert.equal(out[3].baseFeePerGas, '0x0');
});

test('a revert is the call result (code 3, reason, data); so is an out-of-gas (-32015); the block goes on', async () => {
  const [b] = await simulate({
    blockStateCalls: [
      {
        calls: [
          { to: target, data: data('fail', ['no way']) },
          { to: target, data: data('failCustom', [7n]) },
          { to: target, data: data('burn'), gas: hexNum(100_000) },
          { to: target, data: data('bump', [1n]) },
        ],
      },
    ],
  });
  const reason = encodeErrorResult({ abi: [{ type: 'error', name: 'Error', inputs: [{ type: 'string', name: 'message' }] }], errorName: 'Error', args: ['no way'] });
  const custom = encodeErrorResult({ abi: C.abi, errorName: 'Nope', args: [7n] } as never);
  assert.deepEqual(b.calls[0], { returnData: '0x', logs: [], gasUsed: b.calls[0].gasUsed, status: '0x0', error: { code: 3, message: 'execution reverted: no way', data: reason } });
  assert.deepEqual(b.calls[1].error, { code: 3, message: 'execution reverted', data: custom });
  assert.deepEqual(b.calls[2], { returnData: '0x', logs: [], gasUsed: hexNum(100_000), status: '0x0', error: { code: -32015, message: 'out of gas' } });
  assert.equal(b.calls[3].status, '0x1');
  assert.equal(decode('bump', b.calls[3].returnData), 1n);
  assert.equal(b.calls[3].logs[0].logIndex, '0x0', 'failed calls leave no logs behind');
  assert.equal(BigInt(b.gasUsed), b.calls.reduce((s: bigint, c: any) => s + BigInt(c.gasUsed), 0n));
});

test('traceTransfers: Transfer logs from 0xeeee…, top-level and internal, in execution order; a failed frame takes its transfer with it', async () => {
  const [b] = await simulate({
    traceTransfers: true,
    blockStateCalls: [
      {
        calls: [
          { from: DEV_ADDRS[0], to: SINK, value: '0x3' },
          { from: DEV_ADDRS[0], to: target, value: '0x7', data: data('forward', [SINK]) },
          { from: DEV_ADDRS[0], to: target, value: '0x2', data: data('forwardThenRevert', [SINK]) },
          { from: DEV_ADDRS[0], to: target, value: '0x9', data: data('die', [SINK]) },
        ],
      },
    ],
  });
  const shape = (logs: any[]) => logs.map((l) => [l.address, ...l.topics, l.data]);
  const transfer = (from: string, to: string, v: bigint) => [TRANSFER_ADDRESS, TRANSFER_TOPIC, word(from), word(to), word(hexNum(v))];
  const note = (k: bigint) => [target, NOTE_TOPIC, word(hexNum(k))];
  assert.deepEqual(shape(b.calls[0].logs), [transfer(DEV_ADDRS[0], SINK, 3n)]);
  assert.deepEqual(shape(b.calls[1].logs), [transfer(DEV_ADDRS[0], target, 7n), note(1n), transfer(target, SINK, 7n), note(2n)]);
  assert.deepEqual(shape(b.calls[2].logs), [transfer(DEV_ADDRS[0], target, 2n), note(1n), note(3n)]);
  // The contract kept 2 wei of forwardThenRevert (its failed child's 1 wei went back): it sends 11.
  assert.deepEqual(shape(b.calls[3].logs), [transfer(DEV_ADDRS[0], target, 9n), transfer(target, SINK, 11n)], 'a SELFDESTRUCT sends the balance');
  const indexes = b.calls.flatMap((c: any) => c.logs.map((l: any) => Number(l.logIndex)));
  assert.deepEqual(indexes, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 'log indexes run through the block');
  // Without traceTransfers only the contracts' logs; the block's bloom never holds the Transfer logs.
  const forward = { blockStateCalls: [{ calls: [{ from: DEV_ADDRS[0], to: target, value: '0x7', data: data('forward', [SINK]) }] }] };
  const [plain] = await simulate(forward);
  const [traced] = await simulate({ ...forward, traceTransfers: true });
  assert.deepEqual(shape(plain.calls[0].logs), [note(1n), note(2n)]);
  assert.equal(shape(traced.calls[0].logs).length, 4);
  assert.equal(traced.logsBloom, plain.logsBloom, 'the Transfer logs are not in the receipts (nor the bloom)');
  assert.equal(traced.hash, plain.hash);
});

test('returnFullTransactions: the txs as eth_getBlockByNumber(…, true) shows them, with the sender', async () => {
  const opts = (full: boolean) => ({
    returnFullTransactions: full,
    blockStateCalls: [{ calls: [{ from: DEV_ADDRS[1], to: target, data: data('bump', [2n]) }, { from: DEV_ADDRS[1], to: SINK, value: '0x1', gasPrice: '0x0' }] }],
  });
  const [full] = await simulate(opts(true));
  const [hashes] = await simulate(opts(false));
  assert.equal(full.hash, hashes.hash, 'the same block either way');
  const nonce = BigInt(await rpc('eth_getTransactionCount', [DEV_ADDRS[1], 'latest']));
  const [t0, t1] = full.transactions;
  assert.deepEqual(full.transactions.map((t: any) => t.hash), hashes.transactions);
  assert.equal(t0.from, DEV_ADDRS[1]);
  assert.equal(t0.to, target);
  assert.equal(t0.blockHash, full.hash);
  assert.equal(t0.blockNumber, full.number);
  assert.equal(t0.transactionIndex, '0x0');
  assert.equal(t0.type, '0x2', 'no gas price: a dynamic-fee tx');
  assert.equal(t0.nonce, hexNum(nonce), "the sender's nonce");
  assert.equal(t0.input, data('bump', [2n]));
  assert.equal(t1.type, '0x0', 'a gas price: a legacy tx');
  assert.equal(t1.nonce, hexNum(nonce + 1n), 'the nonce moves on with each call');
  assert.equal(t1.value, '0x1');
  assert.equal(full.calls[0].logs[0].transactionHash, t0.hash);
});

test('validation: the fee rules base fee, geth codes for a fee cap below it, a wrong nonce, no funds; without validation none of these', async () => {
  const nonce = BigInt(await rpc('eth_getTransactionCount', [DEV_ADDRS[0], 'latest']));
  const bump = { from: DEV_ADDRS[0], to: target, data: data('bump', [1n]) };
  const [noFee] = await fails([{ validation: true, blockStateCalls: [{ calls: [bump] }] }]);
  assert.equal(noFee, -38012);
  const feeCap = { maxFeePerGas: hexNum(10n ** 12n), maxPriorityFeePerGas: '0x0' };
  const [ok] = await simulate({ validation: true, blockStateCalls: [{ calls: [{ ...bump, ...feeCap }] }] });
  assert.equal(ok.calls[0].status, '0x1');
  assert.ok(BigInt(ok.baseFeePerGas) > 0n, 'the base fee of the chain fee rules');
  const [, , stamped] = decode('stamp', (await simulate({ validation: true, blockStateCalls: [{ calls: [{ from: DEV_ADDRS[0], to: target, data: data('stamp'), gas: hexNum(100_000), ...feeCap }] }] }))[0].calls[0].returnData) as bigint[];
  assert.ok(stamped > 0n, 'with validation BASEFEE is the block base fee');
  assert.deepEqual(await fails([{ validation: true, blockStateCalls: [{ calls: [{ ...bump, ...feeCap, nonce: hexNum(nonce + 5n) }] }] }]), [
    -38011,
    `nonce too high: address 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266, tx: ${nonce + 5n} state: ${nonce}`,
  ]);
  assert.ok(nonce > 0n, 'the deployment used nonce 0');
  assert.equal((await fails([{ validation: true, blockStateCalls: [{ calls: [{ ...bump, ...feeCap, nonce: '0x0' }] }] }]))[0], -38010);
  assert.equal((await fails([{ validation: true, blockStateCalls: [{ calls: [{ from: FRESH, to: SINK, value: '0x1', ...feeCap }] }] }]))[0], -38014);
  // Without validation: any nonce, no fees.
  const [free] = await simulate({ blockStateCalls: [{ calls: [{ ...bump, nonce: hexNum(nonce + 5n) }] }] });
  assert.equal(free.calls[0].status, '0x1');
  assert.equal(free.baseFeePerGas, '0x0');
});

test('checks that fail the request with or without validation: block gas limit, intrinsic gas, value without funds, both fee kinds, a tip above the fee cap', async () => {
  const base = await head();
  assert.deepEqual(await fails([{ blockStateCalls: [{ calls: [{ to: SINK, gas: hexNum(BigInt(base.gasLimit) + 1n) }] }] }]), [
    -38015,
    `block gas limit reached: 0 >= ${BigInt(base.gasLimit)}`,
  ]);
  assert.deepEqual(await fails([{ blockStateCalls: [{ calls: [{ to: SINK, gas: '0x1' }] }] }]), [-38013, 'intrinsic gas too low: have 1, want 21000']);
  assert.equal((await fails([{ blockStateCalls: [{ calls: [{ from: FRESH, to: SINK, value: '0x1' }] }] }]))[0], -38014);
  assert.deepEqual(await fails([{ blockStateCalls: [{ calls: [{ to: SINK, gasPrice: '0x1', maxFeePerGas: '0x1' }] }] }]), [
    -32000,
    'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified',
  ]);
  assert.deepEqual(await fails([{ blockStateCalls: [{ calls: [{ to: SINK, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }] }] }]), [
    -32602,
    'max priority fee per gas higher than max fee per gas: address 0x0000000000000000000000000000000000000000, maxPriorityFeePerGas: 2, maxFeePerGas: 1',
  ]);
});

test('bad input: each a JSON-RPC error, and the node answers after them', async () => {
  const base = await head();
  const n = BigInt(base.number);
  assert.deepEqual(await fails(['nope']), [-32602, 'invalid argument 0: json: cannot unmarshal string into Go value of type ethapi.simOpts']);
  assert.deepEqual(await fails([{ blockStateCalls: {} }]), [
    -32602,
    'invalid argument 0: json: cannot unmarshal object into Go struct field simOpts.blockStateCalls of type []ethapi.simBlock',
  ]);
  assert.deepEqual(await fails([{ blockStateCalls: [7] }]), [-32602, 'invalid argument 0: json: cannot unmarshal number into Go struct field simOpts.blockStateCalls of type ethapi.simBlock']);
  assert.deepEqual(await fails([{ blockStateCalls: [] }]), [-32602, 'empty input']);
  assert.deepEqual(await fails([{}]), [-32602, 'empty input']);
  assert.deepEqual(await fails([]), [-32602, 'missing value for required argument 0']);
  assert.deepEqual(await fails([{ blockStateCalls: [{}], traceTransfers: 'yes' }]), [
    -32602,
    'invalid argument 0: json: cannot unmarshal string into Go struct field simOpts.traceTransfers of type bool',
  ]);
  assert.deepEqual(await fails([{ blockStateCalls: [{ blockOverrides: { number: hexNum(n + 2n) } }, { blockOverrides: { number: hexNum(n + 1n) } }] }]), [
    -38020,
    `block numbers must be in order: ${n + 1n} <= ${n + 2n}`,
  ]);
  assert.deepEqual(await fails([{ blockStateCalls: [{ blockOverrides: { number: hexNum(n) } }] }]), [-38020, `block numbers must be in order: ${n} <= ${n}`]);
  const t = BigInt(base.timestamp);
  assert.deepEqual(await fails([{ blockStateCalls: [{ blockOverrides: { time: hexNum(t) } }] }]), [-38021, `block timestamps must be in order: ${t} <= ${t}`]);
  assert.deepEqual(await fails([{ blockStateCalls: Array.from({ length: 257 }, () => ({})) }]), [-38026, 'too many blocks']);
  assert.deepEqual(await fails([{ blockStateCalls: [{ blockOverrides: { number: hexNum(n + 257n) } }] }]), [-38026, 'too many blocks']);
  assert.deepEqual(await fails([{ blockStateCalls: [{ calls: [{ gas: 'zz' }] }] }]), [
    -32602,
    'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go struct field TransactionArgs.gas of type hexutil.Uint64',
  ]);
  assert.deepEqual(await fails([{ blockStateCalls: [{ calls: {} }] }]), [
    -32602,
    'invalid argument 0: json: cannot unmarshal object into Go struct field simBlock.calls of type []ethapi.TransactionArgs',
  ]);
  assert.deepEqual(await fails([{ blockStateCalls: [{ blockOverrides: { number: 5 } }] }]), [
    -32602,
    'invalid argument 0: json: cannot unmarshal non-string into Go struct field BlockOverrides.number of type *hexutil.Big',
  ]);
  assert.deepEqual(await fails([{ blockStateCalls: [{}] }, 'latest', {}]), [-32602, 'too many arguments, want at most 2']);
  assert.deepEqual(await fails([{ blockStateCalls: [{}] }, '0xffffff']), [-32000, 'cannot query unfinalized data']);
  // 256 blocks is the limit, not past it; the simulation answers them all.
  assert.equal((await simulate({ blockStateCalls: [{ blockOverrides: { number: hexNum(n + 256n) } }] })).length, 256);
  assert.equal(await rpc('eth_chainId'), hexNum(43210));
});

test('a simulation on an older block: its state and number; null block is latest', async () => {
  const base = await rpc('eth_getBlockByNumber', ['0x1', false]);
  const [b] = await simulate({ blockStateCalls: [{ calls: [{ to: target, data: data('count') }] }] }, '0x1');
  assert.equal(b.parentHash, base.hash);
  assert.equal(b.number, '0x2');
  assert.equal(decode('count', b.calls[0].returnData), 0n);
  const [latest] = await rpc('eth_simulateV1', [{ blockStateCalls: [{}] }, null]);
  assert.equal(latest.parentHash, (await head()).hash);
});

test('nothing is written: chain, state and pool are as they were', async () => {
  const snapshot = async () => ({
    head: await head(),
    balance: await rpc('eth_getBalance', [DEV_ADDRS[0], 'latest']),
    nonce: await rpc('eth_getTransactionCount', [DEV_ADDRS[0], 'latest']),
    count: await rpc('eth_call', [{ to: target, data: data('count') }, 'latest']),
    sink: await rpc('eth_getBalance', [SINK, 'latest']),
    code: await rpc('eth_getCode', [FRESH, 'latest']),
    pool: await rpc('txpool_status', []),
  });
  const before = await snapshot();
  await simulate({
    traceTransfers: true,
    blockStateCalls: [
      { stateOverrides: { [FRESH]: { code: C.deployedBytecode, balance: '0x1000' } }, calls: [{ from: DEV_ADDRS[0], to: target, data: data('bump', [9n]) }, { from: DEV_ADDRS[0], to: SINK, value: '0x10' }] },
      { calls: [{ from: DEV_ADDRS[0], data: C.bytecode }] },
    ],
  });
  assert.deepEqual(await snapshot(), before);
  assert.equal(BigInt(before.count), 0n);
});

test('viem simulateBlocks and simulateCalls read the answer', async () => {
  const client = createPublicClient({ transport: http(rpc.url) });
  const [b1, b2] = await simulateBlocks(client, {
    blocks: [
      { calls: [{ account: DEV_ADDRS[0] as Hex, to: target as Hex, abi: C.abi, functionName: 'bump', args: [3n] }] },
      { calls: [{ to: target as Hex, abi: C.abi, functionName: 'count' }, { to: target as Hex, abi: C.abi, functionName: 'fail', args: ['viem'] }] },
    ],
  } as never);
  assert.equal(b1.calls[0].status, 'success');
  assert.equal(b1.calls[0].result, 3n);
  assert.equal(b1.calls[0].logs?.[0].blockHash, b1.hash);
  assert.equal(b2.number, b1.number! + 1n);
  assert.equal(b2.calls[0].result, 3n);
  assert.equal(b2.calls[1].status, 'failure');
  assert.match(String(b2.calls[1].error), /viem/);
  const { results } = await simulateCalls(client, {
    account: DEV_ADDRS[0] as Hex,
    traceTransfers: true,
    calls: [{ to: SINK as Hex, value: 5n }, { to: target as Hex, abi: C.abi, functionName: 'count' }],
  } as never);
  assert.equal(results[0].status, 'success');
  assert.equal(results[0].logs?.[0].address, TRANSFER_ADDRESS);
  assert.equal(results[1].result, 0n);
});

test('rpc-gas-cap bounds the calls together; api-max-duration bounds the run', async () => {
  const code = { [CODE_AT]: { code: C.deployedBytecode } };
  const burn = { to: CODE_AT, data: data('burn') };
  const capped = await devNodeWithConfig({ 'rpc-gas-cap': 100_000 });
  try {
    const [b] = await capped.rpc('eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: code, calls: [{ ...burn, gas: hexNum(60_000) }, burn] }] }]);
    assert.deepEqual(
      b.calls.map((c: any) => [c.gasUsed, c.error?.message]),
      [
        [hexNum(60_000), 'out of gas'],
        [hexNum(40_000), 'out of gas'],
      ],
      'the second call gets what the cap has left',
    );
    assert.deepEqual(await fails([{ blockStateCalls: [{ stateOverrides: code, calls: [burn, burn] }] }], capped.rpc), [-38013, 'intrinsic gas too low: have 0, want 21064']);
  } finally {
    await capped.node.stop();
  }
  const timed = await devNodeWithConfig({ 'rpc-gas-cap': 0, 'api-max-duration': '200ms' });
  try {
    const huge = { blockOverrides: { gasLimit: hexNum(10n ** 15n) }, stateOverrides: code, calls: [burn] };
    assert.deepEqual(await fails([{ blockStateCalls: [huge] }], timed.rpc), [-32000, 'execution aborted (timeout = 200ms)']);
    assert.equal(await timed.rpc('eth_chainId'), hexNum(43210));
  } finally {
    await timed.node.stop();
  }
});
