// Contracts on the dev chain: deploy, eth_call (+ overrides), reverts with data, estimateGas,
// logs and filters, storage, traces.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFunctionData, encodeDeployData, decodeFunctionResult, keccak256, toHex } from 'viem';
import { RLP } from '@ethereumjs/rlp';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { compileContract } from '../../../test/solc.js';
import { wsClient } from '../../../test/wsClient.js';
import { devNode, rpcError, DEV_ADDRS, type Rpc } from '../chain/testkit.js';
import type { TestNode } from '../../../test/helpers.js';

let node: TestNode;
let rpc: Rpc;
const S = compileContract('Storage', 'Fixtures.sol');
const E = compileContract('Emitter', 'Fixtures.sol');
const R = compileContract('Reverter', 'Fixtures.sol');
let storage: string;
let emitter: string;
let reverter: string;

async function deploy(data: string): Promise<string> {
  const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], data }]);
  const r = await rpc('eth_getTransactionReceipt', [h]);
  assert.equal(r.status, '0x1');
  return r.contractAddress;
}

before(async () => {
  ({ node, rpc } = await devNode());
  storage = await deploy(encodeDeployData({ abi: S.abi, bytecode: S.bytecode, args: [7n] }));
  emitter = await deploy(E.bytecode);
  reverter = await deploy(R.bytecode);
});
after(async () => {
  await node.stop();
});

test('eth_call, eth_getStorageAt, eth_getCode and state overrides', async () => {
  const data = encodeFunctionData({ abi: S.abi, functionName: 'get' });
  assert.equal(BigInt(await rpc('eth_call', [{ to: storage, data }, 'latest'])), 7n);
  assert.equal(BigInt(await rpc('eth_getStorageAt', [storage, '0x0', 'latest'])), 7n);
  assert.equal(await rpc('eth_getCode', [storage, 'latest']), S.deployedBytecode);
  const slot0 = '0x' + '0'.repeat(64);
  const over = { [storage]: { stateDiff: { [slot0]: '0x' + '0'.repeat(62) + '2a' } } };
  assert.equal(BigInt(await rpc('eth_call', [{ to: storage, data }, 'latest', over])), 42n);
  assert.equal(BigInt(await rpc('eth_call', [{ to: storage, data }, 'latest'])), 7n, 'override did not leak');
  // Earlier blocks keep their state.
  const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: storage, data: encodeFunctionData({ abi: S.abi, functionName: 'set', args: [9n] }) }]);
  const r = await rpc('eth_getTransactionReceipt', [h]);
  const prev = '0x' + (BigInt(r.blockNumber) - 1n).toString(16);
  assert.equal(BigInt(await rpc('eth_call', [{ to: storage, data }, prev])), 7n);
  assert.equal(BigInt(await rpc('eth_call', [{ to: storage, data }, 'latest'])), 9n);
  assert.equal(r.logs.length, 1);
  assert.equal(r.logs[0].address, storage);
  // A block override changes what NUMBER / TIMESTAMP see; unknown blocks are errors.
  const e = await rpcError(rpc('eth_call', [{ to: storage, data }, '0x' + 'ab'.repeat(32)]));
  assert.deepEqual([e.code, e.message], [-32000, 'header for hash not found']);
});

test('reverts: code 3 with the revert data and the decoded reason', async () => {
  let e = await rpcError(rpc('eth_call', [{ to: reverter, data: encodeFunctionData({ abi: R.abi, functionName: 'revertWithReason' }) }, 'latest']));
  assert.equal(e.code, 3);
  assert.equal(e.message, 'execution reverted: Reverter: nope');
  assert.match(e.data as string, /^0x08c379a0/);
  e = await rpcError(rpc('eth_call', [{ to: reverter, data: encodeFunctionData({ abi: R.abi, functionName: 'revertWithCustom' }) }, 'latest']));
  assert.equal(e.code, 3);
  assert.equal(e.message, 'execution reverted');
  assert.equal((e.data as string).slice(0, 10), keccak256(toHex('Custom(uint256,string)')).slice(0, 10));
  e = await rpcError(rpc('eth_call', [{ to: reverter, data: encodeFunctionData({ abi: R.abi, functionName: 'panicDivide', args: [0n] }) }, 'latest']));
  assert.equal(e.message, 'execution reverted: division or modulo by zero');
  e = await rpcError(rpc('eth_estimateGas', [{ from: DEV_ADDRS[0], to: reverter, data: encodeFunctionData({ abi: R.abi, functionName: 'requireBig', args: [1n] }) }]));
  assert.deepEqual([e.code, e.message], [3, 'execution reverted: Reverter: too small']);
  // A cap of 1M gas: searching the whole 30M block gas limit in an endless loop takes seconds on a
  // loaded machine (past the 30 s write timeout once).
  e = await rpcError(rpc('eth_estimateGas', [{ from: DEV_ADDRS[0], to: reverter, gas: '0xf4240', data: encodeFunctionData({ abi: R.abi, functionName: 'outOfGas' }) }]));
  assert.deepEqual([e.code, e.message], [-32000, 'gas required exceeds allowance (1000000)']);
  // A mined revert has status 0 (no refund of the used gas).
  const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: reverter, gas: '0x30000', data: encodeFunctionData({ abi: R.abi, functionName: 'requireBig', args: [1n] }) }]);
  const r = await rpc('eth_getTransactionReceipt', [h]);
  assert.equal(r.status, '0x0');
});

test('EVM failures of eth_call have geth\'s texts', async () => {
  // Init code run by a contract-creation call: a bad jump, an undefined opcode, INVALID.
  const fail = async (data: string) => {
    const e = await rpcError(rpc('eth_call', [{ from: DEV_ADDRS[0], data }, 'latest']));
    return [e.code, e.message];
  };
  assert.deepEqual(await fail('0x6001600057'), [-32000, 'invalid jump destination']);
  assert.deepEqual(await fail('0x0c'), [-32000, 'invalid opcode: opcode 0xc not defined']);
  assert.deepEqual(await fail('0xfe'), [-32000, 'invalid opcode: INVALID']);
  assert.deepEqual(await fail('0x600056'), [-32000, 'invalid jump destination']);
  // A stack underflow names the stack's length and what the opcode needs.
  assert.deepEqual(await fail('0x01'), [-32000, 'stack underflow (0 <=> 2)']);
  assert.deepEqual(await fail('0x600052'), [-32000, 'stack underflow (1 <=> 2)']);
  assert.deepEqual(await fail('0x600081'), [-32000, 'stack underflow (1 <=> 2)']);
  assert.deepEqual(await fail('0x6000600060009f'), [-32000, 'stack underflow (3 <=> 17)']);
  assert.deepEqual(await fail('0x60006000f1'), [-32000, 'stack underflow (2 <=> 7)']);
});

test("geth's own halts where ethereumjs runs out of gas: return data out of bounds, gas uint64 overflow", async () => {
  const call = async (data: string) => {
    try {
      return await rpc('eth_call', [{ from: DEV_ADDRS[0], data }, 'latest']);
    } catch {
      const e = await rpcError(rpc('eth_call', [{ from: DEV_ADDRS[0], data }, 'latest']));
      return [e.code, e.message];
    }
  };
  const P9_2_64 = '68010000000000000000'; // PUSH9 2^64
  // RETURNDATACOPY(mem 0, from 0, 1 byte) with no return data; an empty copy at offset 0 is fine,
  // at offset 1 not; a length whose memory no gas can pay runs out of gas first (geth's order).
  assert.deepEqual(await call('0x6001600060003e'), [-32000, 'return data out of bounds']);
  assert.equal(await call('0x6000600060003e00'), '0x');
  assert.deepEqual(await call('0x6000600160003e00'), [-32000, 'return data out of bounds']);
  assert.deepEqual(await call('0x640100000000600060003e'), [-32000, 'out of gas']);
  // Memory past 64 bits: MLOAD at 2^64 and at an end past 2^64 - 32; at exactly 2^64 - 32 the
  // memory is priced (out of gas).
  assert.deepEqual(await call('0x' + P9_2_64 + '51'), [-32000, 'gas uint64 overflow']);
  assert.deepEqual(await call('0x67ffffffffffffffc151'), [-32000, 'gas uint64 overflow']);
  assert.deepEqual(await call('0x67ffffffffffffffc051'), [-32000, 'out of gas']);
  // LOG0(offset 2^64, 1 byte), MCOPY(to 0, from 2^64, 1 byte), RETURN(2^64, 1), a length of 2^64.
  assert.deepEqual(await call('0x6001' + P9_2_64 + 'a0'), [-32000, 'gas uint64 overflow']);
  assert.deepEqual(await call('0x6001' + P9_2_64 + '60005e'), [-32000, 'gas uint64 overflow']);
  assert.deepEqual(await call('0x6001' + P9_2_64 + 'f3'), [-32000, 'gas uint64 overflow']);
  assert.deepEqual(await call('0x' + P9_2_64 + '60006000' + '37'), [-32000, 'gas uint64 overflow']);
  // An empty region needs no memory, whatever its offset: CALLDATACOPY of 0 bytes to 2^255.
  assert.equal(await call('0x60006000' + '7f80' + '00'.repeat(31) + '3700'), '0x');
  // STATICCALL whose out region starts at 2^64 (in: 0, 0).
  assert.deepEqual(await call('0x6001' + P9_2_64 + '600060006004' + '5a' + 'fa'), [-32000, 'gas uint64 overflow']);

  for (const [data, text] of [['0x6001600060003e', 'return data out of bounds'], ['0x' + P9_2_64 + '51', 'gas uint64 overflow']]) {
    const e = await rpcError(rpc('eth_estimateGas', [{ from: DEV_ADDRS[0], data }]));
    assert.deepEqual([e.code, e.message], [-32000, text], `estimateGas ${data}`);
    const d = await rpc('eth_callDetailed', [{ from: DEV_ADDRS[0], data }, 'latest']);
    assert.equal(d.err, text);
    // Mined: a failed transaction that spent all its gas, as any halt but a revert.
    const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], data, gas: '0x20000' }]);
    const r = await rpc('eth_getTransactionReceipt', [h]);
    assert.deepEqual([r.status, r.gasUsed], ['0x0', '0x20000']);
    const ct = await rpc('debug_traceTransaction', [h, { tracer: 'callTracer' }]);
    assert.equal(ct.error, text);
  }
  // The struct logger: RETURNDATACOPY is logged with its whole cost (3 + memory 3 + copy 3) and
  // then fails; MLOAD's overflow fails before the dynamic gas, so its cost is the constant 3.
  let t = await rpc('debug_traceCall', [{ from: DEV_ADDRS[0], data: '0x6001600060003e' }, 'latest']);
  assert.equal(t.failed, true);
  assert.deepEqual([t.structLogs.at(-1).op, t.structLogs.at(-1).gasCost], ['RETURNDATACOPY', 9]);
  t = await rpc('debug_traceCall', [{ from: DEV_ADDRS[0], data: '0x' + P9_2_64 + '51' }, 'latest']);
  assert.equal(t.failed, true);
  assert.deepEqual([t.structLogs.at(-1).op, t.structLogs.at(-1).gasCost], ['MLOAD', 3]);
});

test('eth_estimateGas finds a gas limit that works, and not much more', async () => {
  const data = encodeFunctionData({ abi: R.abi, functionName: 'requireBig', args: [1000n] });
  const est = BigInt(await rpc('eth_estimateGas', [{ from: DEV_ADDRS[0], to: reverter, data }]));
  const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: reverter, data, gas: '0x' + est.toString(16) }]);
  const r = await rpc('eth_getTransactionReceipt', [h]);
  assert.equal(r.status, '0x1');
  assert.ok(BigInt(r.gasUsed) <= est && est - BigInt(r.gasUsed) < est / 50n, `estimate ${est} vs used ${r.gasUsed}`);
  assert.equal(await rpc('eth_estimateGas', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], value: '0x1' }]), '0x5208');
});

test('logs: eth_getLogs with address/topic filters, filters with getFilterChanges, block filters', async () => {
  const logFilter = await rpc('eth_newFilter', [{ address: emitter }]);
  const blockFilter = await rpc('eth_newBlockFilter');
  const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: emitter, data: encodeFunctionData({ abi: E.abi, functionName: 'many', args: [3n] }) }]);
  const r = await rpc('eth_getTransactionReceipt', [h]);
  assert.equal(r.logs.length, 5);
  assert.deepEqual(r.logs.map((l: any) => l.logIndex), ['0x0', '0x1', '0x2', '0x3', '0x4']);
  const all = await rpc('eth_getLogs', [{ fromBlock: r.blockNumber, toBlock: r.blockNumber }]);
  assert.equal(all.length, 5);
  const ping = keccak256(toHex('Ping(address,uint256,string)'));
  const pad = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');
  const one = await rpc('eth_getLogs', [{ fromBlock: '0x0', address: emitter, topics: [ping, null, pad(1n)] }]);
  assert.equal(one.length, 1);
  assert.equal(one[0].transactionHash, h);
  const either = await rpc('eth_getLogs', [{ blockHash: r.blockHash, topics: [ping, null, [pad(0n), pad(2n)]] }]);
  assert.equal(either.length, 2);
  const changes = await rpc('eth_getFilterChanges', [logFilter]);
  assert.equal(changes.length, 5);
  assert.deepEqual(await rpc('eth_getFilterChanges', [logFilter]), []);
  assert.equal((await rpc('eth_getFilterLogs', [logFilter])).length, 5);
  assert.deepEqual(await rpc('eth_getFilterChanges', [blockFilter]), [r.blockHash]);
  assert.equal(await rpc('eth_uninstallFilter', [logFilter]), true);
  const e = await rpcError(rpc('eth_getFilterChanges', [logFilter]));
  assert.deepEqual([e.code, e.message], [-32000, 'filter not found']);
  const e2 = await rpcError(rpc('eth_getLogs', [{ fromBlock: '0x2', toBlock: '0x1' }]));
  assert.deepEqual([e2.code, e2.message], [-32000, 'invalid block range']);
  // Tags are no numbers: latest..0x1 is an empty range, not an invalid one.
  assert.deepEqual(await rpc('eth_getLogs', [{ toBlock: '0x1' }]), []);
  // Past the last accepted block (Subnet-EVM's filters, without allow-unfinalized-queries).
  const head = BigInt(await rpc('eth_blockNumber'));
  const far = '0x' + (head + 100n).toString(16);
  const e3 = await rpcError(rpc('eth_getLogs', [{ fromBlock: far }]));
  assert.deepEqual([e3.code, e3.message], [-32000, `requested from block ${head + 100n} after last accepted block ${head}`]);
  const e4 = await rpcError(rpc('eth_getLogs', [{ fromBlock: '0x0', toBlock: far }]));
  assert.deepEqual([e4.code, e4.message], [-32000, `requested to block ${head + 100n} after last accepted block ${head}`]);
});

test('log filters and logs subscriptions keep to their block range; impossible ranges are refused', async () => {
  const hex = (n: bigint) => '0x' + n.toString(16);
  const head = BigInt(await rpc('eth_blockNumber'));
  const past = await rpc('eth_newFilter', [{ address: emitter, fromBlock: '0x0', toBlock: '0x1' }]);
  const open = await rpc('eth_newFilter', [{ address: emitter, fromBlock: hex(head + 1n) }]);
  const one = await rpc('eth_newFilter', [{ address: emitter, fromBlock: hex(head + 1n), toBlock: hex(head + 1n) }]);
  const ws = await wsClient(node.url.replace('http', 'ws') + '/ext/bc/dev/ws');
  try {
    const pastSub = (await ws.request('eth_subscribe', ['logs', { address: emitter, fromBlock: '0x0', toBlock: '0x1' }])).result;
    const nextSub = (await ws.request('eth_subscribe', ['logs', { address: emitter, fromBlock: hex(head + 2n), toBlock: hex(head + 2n) }])).result;
    const ping = (n: bigint) => rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: emitter, data: encodeFunctionData({ abi: E.abi, functionName: 'ping', args: [n, 'range'] }) }]);
    const r1 = await rpc('eth_getTransactionReceipt', [await ping(1n)]);
    const r2 = await rpc('eth_getTransactionReceipt', [await ping(2n)]);
    assert.deepEqual([BigInt(r1.blockNumber), BigInt(r2.blockNumber)], [head + 1n, head + 2n]);
    assert.deepEqual(await rpc('eth_getFilterChanges', [past]), []);
    assert.deepEqual((await rpc('eth_getFilterChanges', [open])).map((l: any) => l.blockNumber), [r1.blockNumber, r2.blockNumber]);
    assert.deepEqual((await rpc('eth_getFilterChanges', [one])).map((l: any) => l.blockNumber), [r1.blockNumber]);
    const note = await ws.notification(nextSub);
    assert.equal(note.params.result.blockNumber, r2.blockNumber);
    // The past-range subscription got nothing (its notification would have come before the later one).
    assert.equal((await ws.request('eth_unsubscribe', [pastSub])).result, true);
    const stray = await Promise.race([ws.next((m) => m.params?.subscription === pastSub), new Promise((r) => setTimeout(() => r('none'), 100))]);
    assert.equal(stray, 'none');
    // Ranges geth's SubscribeLogs refuses.
    for (const range of [{ fromBlock: '0x5', toBlock: '0x1' }, { fromBlock: 'latest', toBlock: '0x5' }]) {
      const e = await rpcError(rpc('eth_newFilter', [range]));
      assert.deepEqual([e.code, e.message], [-32000, 'invalid from and to block combination'], JSON.stringify(range));
      const w = await ws.request('eth_subscribe', ['logs', range]);
      assert.deepEqual([w.error.code, w.error.message], [-32000, 'invalid from and to block combination']);
    }
  } finally {
    ws.close();
  }
});

test('debug_traceTransaction (callTracer and struct logger) and eth_getProof', async () => {
  const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: storage, data: encodeFunctionData({ abi: S.abi, functionName: 'set', args: [11n] }) }]);
  const t = await rpc('debug_traceTransaction', [h, { tracer: 'callTracer' }]);
  assert.equal(t.type, 'CALL');
  assert.equal(t.to, storage);
  const s = await rpc('debug_traceTransaction', [h, {}]);
  assert.ok(Array.isArray(s.structLogs) && s.structLogs.some((l: any) => l.op === 'SSTORE'));
  const r = await rpc('eth_getTransactionReceipt', [h]);
  assert.equal(BigInt(s.gas), BigInt(r.gasUsed));
  const p = await rpc('eth_getProof', [storage, ['0x0'], 'latest']);
  assert.ok(p.accountProof.length > 0);
  assert.equal(BigInt(p.storageProof[0].value), 11n);
  const blockTrace = await rpc('debug_traceBlockByNumber', [r.blockNumber, { tracer: 'callTracer' }]);
  assert.equal(blockTrace.length, 1);
  assert.equal(blockTrace[0].txHash, h);
  const get = encodeFunctionData({ abi: S.abi, functionName: 'get' });
  const tc = await rpc('debug_traceCall', [{ to: storage, data: get }, 'latest', { tracer: 'callTracer' }]);
  assert.equal(BigInt(tc.output), 11n);
  void decodeFunctionResult;
});

test('debug_intermediateRoots: the state root after each tx of a block, the last one the block\'s', async () => {
  const set = (v: bigint) => encodeFunctionData({ abi: S.abi, functionName: 'set', args: [v] });
  await rpc('evm_setAutomine', [false]);
  let hashes: string[];
  try {
    hashes = [
      await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[1], to: storage, data: set(101n) }]),
      await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[2], to: '0x000000000000000000000000000000000000dEaD', value: '0x1' }]),
      // A reverted tx still changes the state (its gas is paid).
      await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[1], to: reverter, data: '0xdeadbeef', gas: '0x20000' }]),
    ];
    await rpc('evm_mine', []);
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
  const receipts = await Promise.all(hashes.map((h) => rpc('eth_getTransactionReceipt', [h])));
  assert.deepEqual(receipts.map((r) => r.blockHash), receipts.map(() => receipts[0].blockHash), 'one block');
  assert.deepEqual(receipts.map((r) => r.status), ['0x1', '0x1', '0x0']);
  const block = await rpc('eth_getBlockByHash', [receipts[0].blockHash, false]);
  assert.deepEqual(block.transactions, hashes);
  const roots = await rpc('debug_intermediateRoots', [block.hash]);
  assert.equal(roots.length, 3);
  assert.equal(roots[2], block.stateRoot);
  assert.equal(new Set(roots).size, 3, 'each tx changed the state');
  const parent = await rpc('eth_getBlockByHash', [block.parentHash, false]);
  assert.ok(!roots.includes(parent.stateRoot));
  // A one-tx block: its only root is its state root; the tracing config is accepted.
  const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: storage, data: set(102n) }]);
  const one = await rpc('eth_getBlockByHash', [(await rpc('eth_getTransactionReceipt', [h])).blockHash, false]);
  assert.deepEqual(await rpc('debug_intermediateRoots', [one.hash, { reexec: 10 }]), [one.stateRoot]);
  // A block without txs: geth's nil slice.
  await rpc('evm_mine', []);
  const empty = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.equal(empty.transactions.length, 0);
  assert.equal(await rpc('debug_intermediateRoots', [empty.hash]), null);
  // Errors, with geth's texts.
  const genesis = await rpc('eth_getBlockByNumber', ['0x0', false]);
  const g = await rpcError(rpc('debug_intermediateRoots', [genesis.hash]));
  assert.deepEqual([g.code, g.message], [-32000, 'genesis is not traceable']);
  const unknown = '0x' + 'ab'.repeat(32);
  const u = await rpcError(rpc('debug_intermediateRoots', [unknown]));
  assert.deepEqual([u.code, u.message], [-32000, `block ${unknown} not found`]);
  const bad = await rpcError(rpc('debug_intermediateRoots', ['0x1234']));
  assert.equal(bad.code, -32602);
  assert.equal((await rpcError(rpc('debug_intermediateRoots', []))).code, -32602);
  assert.equal((await rpcError(rpc('debug_intermediateRoots', [block.hash, 'x']))).code, -32602);
  // No block is ever bad here (geth keeps those whose import failed).
  const bb = await rpcError(rpc('debug_traceBadBlock', [block.hash, { tracer: 'callTracer' }]));
  assert.deepEqual([bb.code, bb.message], [-32000, `bad block ${block.hash} not found`]);
  assert.equal((await rpcError(rpc('debug_traceBadBlock', [block.hash, { tracer: 'nope' }]))).message, `bad block ${block.hash} not found`);
  assert.equal((await rpcError(rpc('debug_traceBadBlock', [block.hash, 7]))).code, -32602);
  // The replay left the chain as it was.
  assert.equal(BigInt(await rpc('eth_call', [{ to: storage, data: encodeFunctionData({ abi: S.abi, functionName: 'get' }) }, 'latest'])), 102n);
});

test('internal-debug: raw header, block, receipts and tx hash and root to what the block names; printBlock', async () => {
  await rpc('evm_setAutomine', [false]);
  let hashes: string[];
  try {
    hashes = [
      await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[1], to: emitter, data: encodeFunctionData({ abi: E.abi, functionName: 'many', args: [3n] }) }]),
      await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[2], to: reverter, data: '0xdeadbeef', gas: '0x20000' }]),
    ];
    await rpc('evm_mine', []);
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
  const r0 = await rpc('eth_getTransactionReceipt', [hashes[0]]);
  const block = await rpc('eth_getBlockByHash', [r0.blockHash, false]);
  const header = await rpc('debug_getRawHeader', [block.number]);
  assert.equal(keccak256(header), block.hash);
  assert.equal(await rpc('debug_getRawHeader', [{ blockHash: block.hash }]), header);
  const raw = await rpc('debug_getRawBlock', [block.hash]);
  const [h, txs, uncles] = RLP.decode(raw) as unknown as [Uint8Array[], Uint8Array[], unknown[]];
  assert.equal(keccak256(RLP.encode(h)), block.hash);
  assert.equal(txs.length, 2);
  assert.deepEqual(uncles, []);
  for (const [i, hash] of hashes.entries()) {
    const rawTx = await rpc('debug_getRawTransaction', [hash]);
    assert.equal(keccak256(rawTx), hash);
    // A typed tx sits in the block body as an RLP string of its bytes.
    assert.equal(toHex(txs[i] as Uint8Array), rawTx);
  }
  assert.equal(await rpc('debug_getRawTransaction', ['0x' + '12'.repeat(32)]), '0x');
  const receipts: string[] = await rpc('debug_getRawReceipts', [block.number]);
  assert.equal(receipts.length, 2);
  const trie = new MerklePatriciaTrie();
  for (const [i, rc] of receipts.entries()) await trie.put(RLP.encode(i), Buffer.from(rc.slice(2), 'hex'));
  assert.equal(toHex(trie.root()), block.receiptsRoot, 'the raw receipts make the block\'s receipts root');
  // Unknown blocks and bad params.
  const nf = await rpcError(rpc('debug_getRawHeader', [{ blockHash: '0x' + 'ab'.repeat(32) }]));
  assert.deepEqual([nf.code, nf.message], [-32000, `header #[${Array(32).fill(171).join(' ')}] not found`]);
  const ahead = await rpcError(rpc('debug_getRawBlock', ['0xffffff']));
  assert.deepEqual([ahead.code, ahead.message], [-32000, 'cannot query unfinalized data']);
  assert.equal((await rpcError(rpc('debug_getRawBlock', ['nope']))).code, -32602);
  assert.equal((await rpcError(rpc('debug_getRawTransaction', ['0x12']))).code, -32602);
  // printBlock takes a bare JSON number (Go's uint64).
  assert.match(await rpc('debug_printBlock', [Number(block.number)]), new RegExp(block.hash));
  const frac = await rpcError(rpc('debug_printBlock', [1.5]));
  assert.deepEqual([frac.code, frac.message], [-32602, 'invalid argument 0: json: cannot unmarshal number 1.5 into Go value of type uint64']);
  const str = await rpcError(rpc('debug_printBlock', ['0x1']));
  assert.deepEqual([str.code, str.message], [-32602, 'invalid argument 0: json: cannot unmarshal string into Go value of type uint64']);
  assert.equal((await rpcError(rpc('debug_printBlock', [-1]))).code, -32602);
  const far = await rpcError(rpc('debug_printBlock', [99999999]));
  assert.deepEqual([far.code, far.message], [-32000, 'block #99999999 not found']);
});

test('trace configs decode as geth\'s TraceConfig: a field of the wrong type is -32602 naming it', async () => {
  const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: storage, data: encodeFunctionData({ abi: S.abi, functionName: 'set', args: [3n] }) }]);
  const r = await rpc('eth_getTransactionReceipt', [h]);
  const cases: [unknown, string][] = [
    [{ disableStorage: 'x' }, 'json: cannot unmarshal string into Go struct field TraceConfig.DisableStorage of type bool'],
    [{ enableMemory: 1 }, 'json: cannot unmarshal number into Go struct field TraceConfig.EnableMemory of type bool'],
    [{ reexec: -1 }, 'json: cannot unmarshal number -1 into Go struct field TraceConfig.Reexec of type uint64'],
    [{ reexec: 'x' }, 'json: cannot unmarshal string into Go struct field TraceConfig.Reexec of type uint64'],
    [{ timeout: 5 }, 'json: cannot unmarshal number into Go struct field TraceConfig.Timeout of type string'],
    [{ tracer: 7 }, 'json: cannot unmarshal number into Go struct field TraceConfig.Tracer of type string'],
    [{ limit: 1.5 }, 'json: cannot unmarshal number 1.5 into Go struct field TraceConfig.Limit of type int'],
  ];
  for (const [cfg, text] of cases) {
    for (const [method, params] of [
      ['debug_traceTransaction', [h, cfg]],
      ['debug_traceBlockByNumber', [r.blockNumber, cfg]],
      ['debug_intermediateRoots', [r.blockHash, cfg]],
      ['debug_traceBadBlock', [r.blockHash, cfg]],
    ] as const) {
      const e = await rpcError(rpc(method, params as unknown as unknown[]));
      assert.deepEqual([e.code, e.message], [-32602, `invalid argument 1: ${text}`], `${method} ${JSON.stringify(cfg)}`);
    }
  }
  const call = await rpcError(rpc('debug_traceCall', [{ to: storage }, 'latest', { disableStack: 'no' }]));
  assert.deepEqual([call.code, call.message], [-32602, 'invalid argument 2: json: cannot unmarshal string into Go struct field TraceCallConfig.DisableStack of type bool']);
  // Keys match without case; null is no value.
  assert.ok((await rpc('debug_traceTransaction', [h, { DISABLESTORAGE: true, reexec: null, Timeout: '5s' }])).structLogs.length > 0);
});

test('no gas refunds: clearing a storage slot costs intrinsic + execution gas in full', async () => {
  const s2 = await deploy(encodeDeployData({ abi: S.abi, bytecode: S.bytecode, args: [5n] }));
  const data = encodeFunctionData({ abi: S.abi, functionName: 'set', args: [0n] });
  const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: s2, data, gas: '0x30000' }]);
  const r = await rpc('eth_getTransactionReceipt', [h]);
  const { structLogs } = await rpc('debug_traceTransaction', [h, { disableStack: true }]);
  const first = structLogs[0];
  const last = structLogs[structLogs.length - 1];
  const execution = BigInt(first.gas) - BigInt(last.gas) + BigInt(last.gasCost);
  const bytes = Buffer.from(data.slice(2), 'hex');
  const calldata = [...bytes].reduce((a, b) => a + (b === 0 ? 4n : 16n), 0n);
  assert.ok(structLogs.some((l: any) => l.op === 'SSTORE'));
  assert.equal(BigInt(r.gasUsed), 21000n + calldata + execution, 'a refund would make gasUsed smaller');
});
