// The "debug-file-tracer" service over real HTTP on a dev node: debug_traceBlockFromFile reads a
// block written by debug_getRawBlock and traces it like debug_traceBlockByHash;
// debug_standardTraceBlockToFile writes EIP-3155 lines that match debug_traceTransaction's
// struct logs; every bad input gets geth's error and the node keeps serving.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { devNodeWithConfig, rpcError, signTx, type Rpc } from '../chain/testkit.js';
import type { TestNode } from '../../../test/helpers.js';

let node: TestNode;
let rpc: Rpc;
let dir: string;
const written: string[] = [];

// Runtime: SSTORE(0, 42); MSTORE(0, 0xaa); RETURN(0, 32). Init code copies it out.
const STORE_RUNTIME = '602a60005560aa60005260206000f3';
const STORE_INIT = '0x600f600c600039600f6000f3' + STORE_RUNTIME;
// Runtime: MSTORE(0, 0xaa); REVERT(0, 32).
const REVERT_RUNTIME = '60aa60005260206000fd';
const REVERT_INIT = '0x600a600c600039600a6000f3' + REVERT_RUNTIME;

let store: string;
let reverter: string;
/** A block with three txs: a call that stores, a call that reverts, a plain transfer. */
let block: { hash: string; number: string; parentHash: string; transactions: string[] };

async function send(raw: string): Promise<any> {
  const h = await rpc('eth_sendRawTransaction', [raw]);
  return rpc('eth_getTransactionReceipt', [h]);
}

before(async () => {
  ({ node, rpc } = await devNodeWithConfig({ 'eth-apis': ['eth', 'internal-eth', 'internal-blockchain', 'internal-transaction', 'internal-debug', 'debug-tracer', 'debug-file-tracer', 'admin'] }));
  dir = mkdtempSync(join(tmpdir(), 'powder-filetracer-'));
  store = (await send(signTx(0, { nonce: 0n, data: STORE_INIT, gasLimit: 200_000n }))).contractAddress;
  reverter = (await send(signTx(0, { nonce: 1n, data: REVERT_INIT, gasLimit: 200_000n }))).contractAddress;
  await rpc('evm_setAutomine', [false]);
  try {
    await rpc('eth_sendRawTransaction', [signTx(0, { nonce: 2n, to: store, gasLimit: 100_000n })]);
    await rpc('eth_sendRawTransaction', [signTx(0, { nonce: 3n, to: reverter, gasLimit: 100_000n })]);
    await rpc('eth_sendRawTransaction', [signTx(1, { nonce: 0n, to: '0x00000000000000000000000000000000000000a1', value: 5n })]);
    await rpc('evm_mine', []);
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
  block = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.equal(block.transactions.length, 3);
});

after(async () => {
  await node.stop();
  rmSync(dir, { recursive: true, force: true });
  for (const f of written) rmSync(f, { force: true });
});

test('debug_traceBlockFromFile: a block written from debug_getRawBlock traces like debug_traceBlockByHash', async () => {
  const file = join(dir, 'block.rlp');
  writeFileSync(file, Buffer.from((await rpc('debug_getRawBlock', [block.hash])).slice(2), 'hex'));
  assert.deepEqual(await rpc('debug_traceBlockFromFile', [file]), await rpc('debug_traceBlockByHash', [block.hash]));
  const cfg = { tracer: 'callTracer' };
  const calls = await rpc('debug_traceBlockFromFile', [file, cfg]);
  assert.deepEqual(calls, await rpc('debug_traceBlockByHash', [block.hash, cfg]));
  assert.equal(calls.length, 3);
  assert.equal(calls[1].result.error, 'execution reverted');
  // a file holding more than the block: geth's rlp.Decode reads the first value only
  const twice = join(dir, 'twice.rlp');
  writeFileSync(twice, Buffer.concat([readFileSync(file), readFileSync(file)]));
  assert.equal((await rpc('debug_traceBlockFromFile', [twice, cfg])).length, 3);
});

test('debug_traceBlockFromFile: geth errors for a missing file, bad RLP, unknown parent, genesis, bad params', async () => {
  const missing = join(dir, 'nope.rlp');
  assert.deepEqual(await rpcError(rpc('debug_traceBlockFromFile', [missing])), { code: -32000, message: `could not read file: open ${missing}: no such file or directory`, data: undefined });
  assert.equal((await rpcError(rpc('debug_traceBlockFromFile', [dir]))).message, `could not read file: read ${dir}: is a directory`);
  const empty = join(dir, 'empty.rlp');
  writeFileSync(empty, '');
  assert.equal((await rpcError(rpc('debug_traceBlockFromFile', [empty]))).message, 'could not decode block: EOF');
  const notList = join(dir, 'bytes.rlp');
  writeFileSync(notList, Buffer.from('83010203', 'hex'));
  assert.equal((await rpcError(rpc('debug_traceBlockFromFile', [notList]))).message, 'could not decode block: rlp: expected input list for types.extblock');
  const truncated = join(dir, 'truncated.rlp');
  const raw = Buffer.from((await rpc('debug_getRawBlock', [block.hash])).slice(2), 'hex');
  writeFileSync(truncated, raw.subarray(0, raw.length - 10));
  assert.match((await rpcError(rpc('debug_traceBlockFromFile', [truncated]))).message, /^could not decode block: rlp: /);

  // a block whose parent is unknown: block #1 with a different parent hash
  const one = Buffer.from((await rpc('debug_getRawBlock', ['0x1'])).slice(2), 'hex');
  const i = one.indexOf(Buffer.from((await rpc('eth_getBlockByNumber', ['0x0', false])).hash.slice(2), 'hex'));
  assert.ok(i > 0);
  one[i] ^= 0xff;
  const orphan = join(dir, 'orphan.rlp');
  writeFileSync(orphan, one);
  const badParent = '0x' + one.subarray(i, i + 32).toString('hex');
  assert.equal((await rpcError(rpc('debug_traceBlockFromFile', [orphan]))).message, `block ${badParent} not found`);
  const head = await rpc('eth_getBlockByNumber', ['latest', false]);
  // genesis
  const genesis = join(dir, 'genesis.rlp');
  writeFileSync(genesis, Buffer.from((await rpc('debug_getRawBlock', ['0x0'])).slice(2), 'hex'));
  assert.equal((await rpcError(rpc('debug_traceBlockFromFile', [genesis]))).message, 'genesis is not traceable');

  assert.deepEqual(await rpcError(rpc('debug_traceBlockFromFile', [])), { code: -32602, message: 'missing value for required argument 0', data: undefined });
  assert.equal((await rpcError(rpc('debug_traceBlockFromFile', [7]))).message, 'invalid argument 0: json: cannot unmarshal number into Go value of type string');
  assert.equal((await rpcError(rpc('debug_traceBlockFromFile', [genesis, 'x']))).message, 'invalid argument 1: json: cannot unmarshal string into Go value of type tracers.TraceConfig');
  assert.equal((await rpcError(rpc('debug_traceBlockFromFile', [genesis, {}, 1]))).message, 'too many arguments, want at most 2');
  // the node still answers
  assert.equal((await rpc('eth_getBlockByNumber', ['latest', false])).hash, head.hash);
});

/** The struct-log fields the EIP-3155 line shares, in the line's encoding. */
function asStd(l: any): Record<string, unknown> {
  return { pc: l.pc, opName: l.op, gas: '0x' + l.gas.toString(16), gasCost: '0x' + l.gasCost.toString(16), depth: l.depth, stack: l.stack, refund: l.refund ?? 0 };
}

test('debug_standardTraceBlockToFile: one EIP-3155 file per tx, lines matching debug_traceTransaction', async () => {
  const files: string[] = await rpc('debug_standardTraceBlockToFile', [block.hash]);
  written.push(...files);
  assert.equal(files.length, 3);
  for (let i = 0; i < 3; i++) {
    const f = files[i];
    assert.equal(dirname(f), tmpdir());
    assert.match(basename(f), new RegExp(`^block_${block.hash.slice(0, 10)}-${i}-${block.transactions[i].slice(0, 10)}-\\d+$`));
    assert.equal(statSync(f).mode & 0o777, 0o600);
    const lines = readFileSync(f, 'utf8').split('\n');
    assert.equal(lines.pop(), '', 'every line ends in a newline');
    const parsed = lines.map((l) => JSON.parse(l));
    const summary = parsed.pop();
    const trace = await rpc('debug_traceTransaction', [block.transactions[i]]);
    // CaptureFault repeats the failing step with its error (the REVERT of tx 1)
    const steps = parsed.filter((l, k) => !(l.error && k > 0 && parsed[k - 1].pc === l.pc && parsed[k - 1].depth === l.depth));
    assert.deepEqual(
      steps.map((l) => ({ pc: l.pc, opName: l.opName, gas: l.gas, gasCost: l.gasCost, depth: l.depth, stack: l.stack, refund: l.refund })),
      trace.structLogs.map(asStd),
    );
    for (const l of parsed) {
      assert.deepEqual(Object.keys(l).filter((k) => k !== 'error'), ['pc', 'op', 'gas', 'gasCost', 'memSize', 'stack', 'depth', 'refund', 'opName']);
      assert.equal(typeof l.op, 'number');
    }
    if (i === 0) {
      assert.equal(parsed[0].op, 0x60);
      assert.equal(parsed[0].opName, 'PUSH1');
      assert.deepEqual(parsed[0].stack, []);
      assert.equal(parsed.at(-1).opName, 'RETURN');
      assert.equal(parsed.at(-1).memSize, 32);
      assert.deepEqual(summary, { output: '00000000000000000000000000000000000000000000000000000000000000aa', gasUsed: summary.gasUsed });
      assert.match(summary.gasUsed, /^0x[0-9a-f]+$/);
    }
    if (i === 1) {
      const fault = parsed.at(-1);
      assert.equal(fault.opName, 'REVERT');
      assert.equal(fault.error, 'execution reverted');
      assert.deepEqual(fault.stack, [], 'REVERT popped its two words');
      assert.equal(summary.error, 'execution reverted');
      assert.equal(summary.output, '00000000000000000000000000000000000000000000000000000000000000aa');
    }
    if (i === 2) {
      assert.equal(parsed.length, 0, 'a plain transfer runs no code');
      assert.deepEqual(summary, { output: '', gasUsed: '0x0' });
    }
  }
});

test('debug_standardTraceBlockToFile: txHash, enableMemory, disableStack, enableReturnData', async () => {
  const files: string[] = await rpc('debug_standardTraceBlockToFile', [block.hash, { txHash: block.transactions[0], enableMemory: true, disableStack: true }]);
  written.push(...files);
  assert.equal(files.length, 1);
  assert.match(basename(files[0]), new RegExp(`^block_${block.hash.slice(0, 10)}-0-${block.transactions[0].slice(0, 10)}-`));
  const lines = readFileSync(files[0], 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const ret = lines.at(-2);
  assert.equal(ret.opName, 'RETURN');
  assert.equal(ret.memory, '0x' + '00'.repeat(31) + 'aa');
  assert.equal(ret.stack, null);
  assert.deepEqual(Object.keys(ret), ['pc', 'op', 'gas', 'gasCost', 'memory', 'memSize', 'stack', 'depth', 'refund', 'opName']);
  assert.equal(lines[0].memory, undefined, 'empty memory is omitted');
  // only tx 1 of the block: the txs before it run untraced
  const one: string[] = await rpc('debug_standardTraceBlockToFile', [block.hash, { txHash: block.transactions[1], enableReturnData: true }]);
  written.push(...one);
  assert.equal(one.length, 1);
  assert.match(basename(one[0]), /-1-/);
});

/** Init code that returns `runtime` (hex, under 256 bytes) as the deployed code. */
function initFor(runtime: string): string {
  const n = (runtime.length / 2).toString(16).padStart(2, '0');
  return `0x60${n}600c60003960${n}6000f3${runtime}`;
}

/** A step of debug_traceTransaction with enableMemory and enableReturnData, as its EIP-3155 line. */
function asStdWithMemory(l: any): Record<string, unknown> {
  const line: Record<string, unknown> = { ...asStd(l), memSize: l.memory.length * 32 };
  if (l.memory.length > 0) line.memory = '0x' + l.memory.join('');
  if (l.returnData !== undefined) line.returnData = l.returnData;
  return line;
}

test('debug_standardTraceBlockToFile: nested frames, a fault in a child, memory, return data, and a file of several MiB', async () => {
  // A contract that calls the reverter (its REVERT's fault line, at depth 2), copies the revert
  // data and returns it; a jump loop that runs 200,000 gas out (~45,000 lines, ~5 MB).
  const callsReverter = '6020600060006000600073' + reverter.slice(2) + '61fffff1503d600060003e3d6000f3';
  const parent = (await send(signTx(2, { nonce: 0n, data: initFor(callsReverter), gasLimit: 200_000n }))).contractAddress;
  const loop = (await send(signTx(2, { nonce: 1n, data: initFor('5b600056'), gasLimit: 200_000n }))).contractAddress;
  for (const [nonce, to, gasLimit] of [[2n, parent, 100_000n], [3n, loop, 200_000n]] as const) {
    const receipt = await send(signTx(2, { nonce, to, gasLimit }));
    const opts = { enableMemory: true, enableReturnData: true };
    const files: string[] = await rpc('debug_standardTraceBlockToFile', [receipt.blockHash, opts]);
    written.push(...files);
    assert.equal(files.length, 1);
    const text = readFileSync(files[0], 'utf8');
    const parsed = text.trim().split('\n').map((l) => JSON.parse(l));
    const summary = parsed.pop();
    const fault = (l: any, k: number) => l.error !== undefined && k > 0 && parsed[k - 1].pc === l.pc && parsed[k - 1].depth === l.depth;
    const trace = await rpc('debug_traceTransaction', [receipt.transactionHash, opts]);
    assert.deepEqual(parsed.filter((l, k) => !fault(l, k)).map((l) => {
      const { op: _op, error: _error, ...rest } = l;
      return rest;
    }), trace.structLogs.map(asStdWithMemory));
    if (to === parent) {
      const k = parsed.findIndex(fault);
      assert.deepEqual([parsed[k].opName, parsed[k].depth, parsed[k].error, parsed[k].memSize], ['REVERT', 2, 'execution reverted', 32]);
      assert.equal(parsed[k + 1].depth, 1, 'the parent goes on');
      assert.ok(parsed.some((l) => l.depth === 1 && l.returnData === '0x' + 'aa'.padStart(64, '0')), 'the child\'s revert data as the parent\'s return data');
      assert.deepEqual(summary, { output: 'aa'.padStart(64, '0'), gasUsed: summary.gasUsed });
    } else {
      assert.ok(text.length > 2 << 20, `${text.length} bytes: the sink took several chunks`);
      assert.equal(parsed.at(-1).error, 'out of gas');
      assert.deepEqual(summary, { output: '', gasUsed: '0x' + (200_000 - 21_000).toString(16), error: 'out of gas' });
    }
  }
});

test('debug_standardTraceBlockToFile / BadBlockToFile: geth errors, no files left behind', async () => {
  const before = new Set(readdirTmp());
  const unknown = '0x' + '12'.repeat(32);
  assert.deepEqual(await rpcError(rpc('debug_standardTraceBlockToFile', [unknown])), { code: -32000, message: `block ${unknown} not found`, data: undefined });
  assert.equal((await rpcError(rpc('debug_standardTraceBlockToFile', [block.hash, { txHash: unknown }]))).message, `transaction ${unknown} not found in block`);
  const genesis = (await rpc('eth_getBlockByNumber', ['0x0', false])).hash;
  assert.equal((await rpcError(rpc('debug_standardTraceBlockToFile', [genesis]))).message, 'genesis is not traceable');
  assert.equal((await rpcError(rpc('debug_standardTraceBlockToFile', ['0x12']))).message, 'invalid argument 0: hex string has length 2, want 64 for common.Hash');
  assert.equal((await rpcError(rpc('debug_standardTraceBlockToFile', [block.hash, { enableMemory: 'yes' }]))).message, 'invalid argument 1: json: cannot unmarshal string into Go struct field StdTraceConfig.EnableMemory of type bool');
  assert.equal((await rpcError(rpc('debug_standardTraceBlockToFile', [block.hash, { limit: 1.5 }]))).message, 'invalid argument 1: json: cannot unmarshal number 1.5 into Go struct field StdTraceConfig.Limit of type int');
  assert.equal((await rpcError(rpc('debug_standardTraceBlockToFile', [block.hash, { txHash: 5 }]))).message, 'invalid argument 1: json: cannot unmarshal non-string into Go value of type common.Hash');
  assert.equal((await rpcError(rpc('debug_standardTraceBlockToFile', [block.hash, [], 3]))).message, 'too many arguments, want at most 2');
  assert.deepEqual(await rpcError(rpc('debug_standardTraceBadBlockToFile', [block.hash])), { code: -32000, message: `bad block ${block.hash} not found`, data: undefined });
  assert.equal((await rpcError(rpc('debug_standardTraceBadBlockToFile', []))).message, 'missing value for required argument 0');
  assert.equal((await rpcError(rpc('debug_standardTraceBadBlockToFile', [block.hash, {}, 1]))).message, 'too many arguments, want at most 2');
  assert.deepEqual(readdirTmp().filter((f) => !before.has(f)), []);
  assert.ok(existsSync(dir));
});

import { readdirSync } from 'node:fs';
function readdirTmp(): string[] {
  return readdirSync(tmpdir()).filter((f) => f.startsWith('block_'));
}

test('regression: the JSON logger hands its trace to the sink in chunks as the tx runs (a long trace was built whole in memory: a 30M-gas loop left an empty file and a failed request)', async () => {
  const { EventEmitter } = await import('node:events');
  const { JsonLogger } = await import('./jsonLogger.js');
  const cfg = { enableMemory: false, disableStack: false, enableReturnData: false };
  const run = (logger: InstanceType<typeof JsonLogger>) => {
    const events = new EventEmitter();
    logger.attach({ events } as never);
    events.emit('beforeMessage', { depth: 0 });
    // JUMPDEST PUSH1 0 JUMP, over and over: 60,000 steps
    const ops = [{ name: 'JUMPDEST', code: 0x5b, fee: 1 }, { name: 'PUSH1', code: 0x60, fee: 3 }, { name: 'JUMP', code: 0x56, fee: 8 }];
    for (let i = 0; i < 60_000; i++) {
      const op = ops[i % 3];
      events.emit('step', { pc: i % 3 === 2 ? 3 : i % 3, opcode: op, gasLeft: 10_000_000n - BigInt(i), depth: 0, stack: i % 3 === 2 ? [0n] : [], memory: new Uint8Array(), memoryWordCount: 0n, gasRefund: 0n });
    }
    events.emit('afterMessage', { execResult: { exceptionError: { error: 'out of gas' }, returnValue: new Uint8Array(), executionGasUsed: 10_000_000n } });
    logger.detach();
  };
  const whole = new JsonLogger(cfg);
  run(whole);
  const expected = whole.text();
  const chunks: string[] = [];
  const streamed = new JsonLogger(cfg, (t) => chunks.push(t));
  run(streamed);
  assert.ok(chunks.length >= 3, `handed on while running (${chunks.length} chunks)`);
  assert.ok(chunks.every((c) => c.length < 128 << 10), 'in chunks of about 64 KiB');
  streamed.finish();
  assert.equal(streamed.text(), '', 'nothing kept once finished');
  assert.equal(chunks.join(''), expected, 'the same text');
  assert.match(expected.split('\n').at(-3)!, /"error":"out of gas"/, 'the last step carries the error');
});
