// geth's prestateTracer, flatCallTracer and muxTracer on the dev chain: transactions mined by the
// node, solc-compiled contracts, traced over JSON-RPC and checked against the chain's own state
// (eth_getBalance / eth_getTransactionCount / eth_getCode / eth_getStorageAt at the blocks around).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pad, toHex, getContractAddress } from 'viem';
import { probeChain, PROBE, CHILD, CALLER, STORAGE } from '../../../test/probeChain.js';
import { rpcError, txKit, BLACKHOLE, DEV_ADDRS, LOOP_CREATION, type Rpc } from '../chain/testkit.js';
import type { TestNode } from '../../../test/helpers.js';

const [P, CH, C] = [PROBE, CHILD, { caller: CALLER, storage: STORAGE }];

let node: TestNode;
let rpc: Rpc;
let probe: string;
let storage: string;
let caller: string;
const [ALICE, BOB, CAROL] = DEV_ADDRS;
const SLOT0 = pad(toHex(0));
const SLOT1 = pad(toHex(1));

const { data, send, deploy } = txKit(() => rpc, ALICE);

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
  ({ node, rpc, probe, storage, caller } = await probeChain());
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

const bal = async (a: string, block: string) => toHex(BigInt(await rpc('eth_getBalance', [a, block])));
const nonceOf = async (a: string, block: string) => Number(await rpc('eth_getTransactionCount', [a, block]));
/** An object with its keys in Go's map order. */
const sorted = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
const trace = (r: { transactionHash: string }, config: unknown) => rpc('debug_traceTransaction', [r.transactionHash, config]);
const PRESTATE = { tracer: 'prestateTracer' };
const DIFF = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } };

test('prestateTracer diffMode: {post, pre}; post has the fields that changed, pre the changed accounts and their changed non-zero slots', async () => {
  await send({ from: BOB, to: probe, data: data(P, 'write', [5n, 6n]) });
  const r = await send({ from: BOB, to: probe, data: data(P, 'write', [8n, 0n]) });
  const [at, now] = [blockBefore(r), r.blockNumber];
  same(await trace(r, DIFF), {
    post: sorted({
      [BLACKHOLE]: { balance: await bal(BLACKHOLE, now) },
      [probe]: { storage: { [SLOT0]: pad(toHex(8)) } }, // slot 1 became zero: left out
      [BOB]: { balance: await bal(BOB, now), nonce: await nonceOf(BOB, now) },
    }),
    pre: sorted({
      [BLACKHOLE]: await account(BLACKHOLE, at),
      [probe]: await account(probe, at, [SLOT0, SLOT1]),
      [BOB]: await account(BOB, at),
    }),
  });
  // Writing the same values again changes no slot: the contract is in neither.
  const again = await send({ from: BOB, to: probe, data: data(P, 'write', [8n, 0n]) });
  const d = await trace(again, DIFF);
  assert.deepEqual(Object.keys(d), ['post', 'pre']);
  assert.deepEqual(Object.keys(d.pre), [BLACKHOLE, BOB]);
  assert.deepEqual(Object.keys(d.post), [BLACKHOLE, BOB]);
  // A slot that was zero and is set: in post only (pre drops zero slots).
  const set = await send({ from: BOB, to: probe, data: data(P, 'write', [8n, 9n]) });
  const s = await trace(set, DIFF);
  assert.deepEqual(s.post[probe], { storage: { [SLOT1]: pad(toHex(9)) } });
  same(s.pre[probe], await account(probe, blockBefore(set)), 'the account is in pre without its zero slot');
});

test('prestateTracer: a block\'s tx sees the state the earlier txs of the block left', async () => {
  await rpc('evm_setAutomine', [false]);
  let h0: string, h1: string;
  try {
    h0 = await rpc('eth_sendTransaction', [{ from: BOB, to: probe, data: data(P, 'write', [11n, 12n]) }]);
    h1 = await rpc('eth_sendTransaction', [{ from: CAROL, to: probe, data: data(P, 'write', [13n, 0n]) }]);
    await rpc('evm_mine', []);
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
  const [r0, r1] = await Promise.all([h0, h1].map((h) => rpc('eth_getTransactionReceipt', [h])));
  assert.equal(r0.blockNumber, r1.blockNumber);
  assert.equal(r1.transactionIndex, '0x1');
  const at = blockBefore(r1);
  const fee0 = BigInt(r0.gasUsed) * BigInt(r0.effectiveGasPrice);
  const pre = await trace(r1, PRESTATE);
  same(pre, sorted({
    [BLACKHOLE]: { balance: toHex(BigInt(await bal(BLACKHOLE, at)) + fee0) },
    [probe]: { ...(await account(probe, at)), storage: { [SLOT0]: pad(toHex(11)), [SLOT1]: pad(toHex(12)) } },
    [CAROL]: await account(CAROL, at),
  }));
  const block = await rpc('debug_traceBlockByNumber', [r1.blockNumber, PRESTATE]);
  assert.deepEqual(block, [{ txHash: r0.transactionHash, result: await trace(r0, PRESTATE) }, { txHash: r1.transactionHash, result: pre }]);
  const diffs = await rpc('debug_traceBlockByHash', [r1.blockHash, DIFF]);
  assert.deepEqual(diffs[1].result, await trace(r1, DIFF));
  assert.deepEqual(diffs[1].result.post[probe], { storage: { [SLOT0]: pad(toHex(13)) } });
});

test('prestateTracer: contract creation, CREATE and CREATE2 (created accounts: empty in pre, whole in post)', async () => {
  const r = await send({ from: BOB, data: P.bytecode, value: '0x5', gas: '0x200000' });
  const created = r.contractAddress;
  const [at, now] = [blockBefore(r), r.blockNumber];
  // geth leaves the created contract out only when nothing of it was looked up (its exists()
  // counts the slots read): here the constructor's SSTORE read slot 0, so it stays, empty.
  same(await trace(r, PRESTATE), sorted({ [BLACKHOLE]: await account(BLACKHOLE, at), [created]: { balance: '0x0', storage: { [SLOT0]: pad(toHex(0)) } }, [BOB]: await account(BOB, at) }));
  // Creation code that reads no storage: the new contract is left out.
  const plain = await send({ from: BOB, data: LOOP_CREATION, value: '0x2', gas: '0x200000' });
  assert.deepEqual(Object.keys(await trace(plain, PRESTATE)), [BLACKHOLE, BOB]);
  const d = await trace(r, DIFF);
  same(d.post[created], await account(created, now, [SLOT0]));
  assert.equal(d.post[created].balance, '0x5');
  assert.deepEqual(Object.keys(d.pre), [BLACKHOLE, BOB]);

  const s = await send({ from: BOB, to: probe, data: data(P, 'spawn', [3n]), value: '0x7' });
  const calls = (await trace(s, { tracer: 'callTracer' })).calls;
  assert.deepEqual(calls.map((c: any) => c.type), ['CREATE', 'CREATE2']);
  const [c1, c2] = calls.map((c: any) => c.to);
  assert.equal(c1, getContractAddress({ from: probe as `0x${string}`, nonce: BigInt(await nonceOf(probe, blockBefore(s))) }).toLowerCase());
  const pre = await trace(s, PRESTATE);
  // geth looks a created account up at its CREATE (empty then) and the constructor's slot at its SSTORE.
  for (const c of [c1, c2]) same(pre[c], { balance: '0x0', storage: { [SLOT0]: pad(toHex(0)) } });
  const sd = await trace(s, DIFF);
  same(sd.post[c1], await account(c1, s.blockNumber, [SLOT0]));
  const { balance, ...c2Post } = await account(c2, s.blockNumber, [SLOT0]);
  assert.equal(balance, '0x0');
  same(sd.post[c2], c2Post, 'a balance that stayed zero is not in post');
  same(sd.post[probe], { nonce: await nonceOf(probe, s.blockNumber) });
  assert.deepEqual(Object.keys(sd.pre), [BLACKHOLE, probe, BOB]);
});

test('prestateTracer: a CREATE2 onto an existing account (address collision) looks it up whole; the diff leaves it out, unchanged', async () => {
  // A factory whose code is CREATE2(value 0, init = the one byte 0x00 (STOP), salt 0), then STOP:
  // the first call makes an empty contract (nonce 1), the second collides with it.
  const runtime = '6000600160006000f55000';
  const f = (await send({ from: ALICE, data: '0x600b600c600039600b6000f3' + runtime, gas: '0x100000' })).contractAddress;
  const first = await send({ from: ALICE, to: f, gas: '0x100000' });
  const child = (await trace(first, { tracer: 'callTracer' })).calls[0].to;
  same(await trace(first, PRESTATE), sorted({ [BLACKHOLE]: await account(BLACKHOLE, blockBefore(first)), [f]: await account(f, blockBefore(first)), [child]: { balance: '0x0' }, [ALICE]: await account(ALICE, blockBefore(first)) }));
  const second = await send({ from: ALICE, to: f, gas: '0x100000' });
  assert.equal(second.status, '0x1');
  const call = (await trace(second, { tracer: 'callTracer' })).calls[0];
  assert.equal(call.error, 'contract address collision');
  const at = blockBefore(second);
  same(await trace(second, PRESTATE), sorted({ [BLACKHOLE]: await account(BLACKHOLE, at), [f]: await account(f, at), [child]: { balance: '0x0', nonce: 1 }, [ALICE]: await account(ALICE, at) }));
  const d = await trace(second, DIFF);
  assert.deepEqual(Object.keys(d.pre), [BLACKHOLE, f, ALICE].sort());
  same(d.post[f], { nonce: await nonceOf(f, second.blockNumber) }, 'the failed CREATE2 still took a nonce');
  assert.equal(child in d.post, false);
});

test('prestateTracer: SELFDESTRUCT, BALANCE, EXTCODESIZE, EXTCODEHASH and CALL targets are looked up; a self-destructed account stays in pre only', async () => {
  const child = await deploy(CH, [4n], '0x9');
  const r = await send({ from: BOB, to: child, data: data(CH, 'kill', [CAROL]) });
  const [at, now] = [blockBefore(r), r.blockNumber];
  same(await trace(r, PRESTATE), sorted({
    [BLACKHOLE]: await account(BLACKHOLE, at),
    [child]: await account(child, at),
    [BOB]: await account(BOB, at),
    [CAROL]: await account(CAROL, at),
  }));
  same(await trace(r, DIFF), {
    post: sorted({ [BLACKHOLE]: { balance: await bal(BLACKHOLE, now) }, [BOB]: { balance: await bal(BOB, now), nonce: await nonceOf(BOB, now) }, [CAROL]: { balance: await bal(CAROL, now) } }),
    pre: sorted({ [BLACKHOLE]: await account(BLACKHOLE, at), [child]: await account(child, at), [BOB]: await account(BOB, at), [CAROL]: await account(CAROL, at) }),
  });
  assert.equal(BigInt(await bal(CAROL, now)) - BigInt(await bal(CAROL, at)), 9n);

  // debug_traceCall: the state of the block, state overrides applied; the call's sender and touched accounts.
  const touched = await rpc('debug_traceCall', [{ from: CAROL, to: probe, data: data(P, 'touch', [caller]) }, 'latest', PRESTATE]);
  same(touched, sorted({
    [BLACKHOLE]: await account(BLACKHOLE, 'latest'),
    [caller]: await account(caller, 'latest'),
    [probe]: await account(probe, 'latest'),
    [CAROL]: await account(CAROL, 'latest'),
  }));
  // A call from a contract (geth's SkipAccountChecks): the sender's code is in its pre-state.
  const fromContract = await rpc('debug_traceCall', [{ from: caller, to: probe, data: data(P, 'read') }, 'latest', PRESTATE]);
  same(fromContract[caller], await account(caller, 'latest'));
  assert.ok(fromContract[caller].code.length > 100);
  const overridden = await rpc('debug_traceCall', [{ from: CAROL, to: probe, data: data(P, 'touch', [caller]) }, 'latest', { ...PRESTATE, stateOverrides: { [caller]: { balance: '0x123' } } }]);
  assert.equal(overridden[caller].balance, '0x123');
  const callDiff = await rpc('debug_traceCall', [{ from: CAROL, to: storage, data: data(C.storage, 'set', [77n]) }, 'latest', DIFF]);
  same(callDiff.post, sorted({ [storage]: { storage: { [SLOT0]: pad(toHex(77)) } }, [CAROL]: { nonce: (await nonceOf(CAROL, 'latest')) + 1 } }), 'a call without fees changes only the nonce and the slot');
  // A CALL target; a STATICCALL to a precompile is looked up too (geth 1.13.15 does not skip them).
  const viaCaller = await rpc('debug_traceCall', [{ from: CAROL, to: caller, data: data(C.caller, 'callSet', [storage, 5n]) }, 'latest', PRESTATE]);
  same(viaCaller[storage], await account(storage, 'latest', [SLOT0]));
  const sha = await rpc('debug_traceCall', [{ from: CAROL, to: probe, data: data(P, 'hash', ['0x1234']) }, 'latest', PRESTATE]);
  same(sha['0x0000000000000000000000000000000000000002'], { balance: '0x0' });
});

test('flatCallTracer: the call tree as parity traces, with the block and tx; values on every call; create and suicide actions', async () => {
  const r = await send({ from: BOB, to: caller, data: data(C.caller, 'callSet', [storage, 42n]) });
  const tree = await trace(r, { tracer: 'callTracer' });
  const flat = await trace(r, { tracer: 'flatCallTracer' });
  const where = { blockHash: r.blockHash, blockNumber: Number(r.blockNumber) };
  const tx = { transactionHash: r.transactionHash, transactionPosition: Number(r.transactionIndex) };
  const [set, get] = tree.calls;
  same(flat, [
    { action: { callType: 'call', from: BOB, gas: tree.gas, input: tree.input, to: caller, value: '0x0' }, ...where, result: { gasUsed: tree.gasUsed, output: tree.output }, subtraces: 2, traceAddress: [], ...tx, type: 'call' },
    { action: { callType: 'call', from: caller, gas: set.gas, input: set.input, to: storage, value: '0x0' }, ...where, result: { gasUsed: set.gasUsed, output: '0x' }, subtraces: 0, traceAddress: [0], ...tx, type: 'call' },
    { action: { callType: 'staticcall', from: caller, gas: get.gas, input: get.input, to: storage, value: '0x0' }, ...where, result: { gasUsed: get.gasUsed, output: get.output }, subtraces: 0, traceAddress: [1], ...tx, type: 'call' },
  ]);
  assert.equal(get.value, undefined, 'the callTracer has no value on a STATICCALL; the flat trace has 0 (geth\'s flat tracer sets it)');

  // A DELEGATECALL has its caller's value (geth 1.13's evm.DelegateCall), in both tracers.
  const d = await send({ from: BOB, to: probe, data: data(P, 'relay', [storage, data(C.storage, 'get')]), value: '0x5' });
  assert.equal((await trace(d, { tracer: 'callTracer' })).calls[0].value, '0x5');
  const [, dc] = await trace(d, { tracer: 'flatCallTracer' });
  assert.deepEqual([dc.action.callType, dc.action.from, dc.action.to, dc.action.value], ['delegatecall', probe, storage, '0x5']);

  const s = await send({ from: BOB, to: probe, data: data(P, 'spawn', [5n]), value: '0x3' });
  const [, c1, c2] = await trace(s, { tracer: 'flatCallTracer' });
  const created = (await trace(s, { tracer: 'callTracer' })).calls;
  assert.deepEqual(c1.action, { creationMethod: 'create', from: probe, gas: created[0].gas, init: created[0].input, value: '0x3' });
  same(c1.result, { address: created[0].to, code: await rpc('eth_getCode', [created[0].to, s.blockNumber]), gasUsed: created[0].gasUsed });
  assert.deepEqual([c1.type, c1.traceAddress, c2.type, c2.action.creationMethod, c2.action.value, c2.traceAddress], ['create', [0], 'create', 'create2', '0x0', [1]]);

  const child = await deploy(CH, [1n], '0x4');
  const k = await send({ from: BOB, to: child, data: data(CH, 'kill', [CAROL]) });
  const killTree = await trace(k, { tracer: 'callTracer' });
  assert.deepEqual(killTree.calls, [{ from: child, gas: '0x0', gasUsed: '0x0', to: CAROL, input: '0x', value: '0x4', type: 'SELFDESTRUCT' }], 'geth\'s callTracer frame for SELFDESTRUCT');
  const [top, suicide] = await trace(k, { tracer: 'flatCallTracer' });
  assert.equal(top.subtraces, 1);
  same(suicide, { action: { address: child, balance: '0x4', refundAddress: CAROL }, blockHash: k.blockHash, blockNumber: Number(k.blockNumber), subtraces: 0, traceAddress: [0], transactionHash: k.transactionHash, transactionPosition: 0, type: 'suicide' });
});

test('flatCallTracer: errors (a revert keeps its result, other failures none; convertParityErrors), precompiles, debug_traceCall\'s zero context', async () => {
  const rev = await send({ from: BOB, to: probe, data: data(P, 'fail'), gas: '0x20000' });
  assert.equal(rev.status, '0x0');
  const [r] = await trace(rev, { tracer: 'flatCallTracer' });
  assert.equal(r.error, 'execution reverted');
  const revertData = (await trace(rev, { tracer: 'callTracer' })).output;
  same(r.result, { gasUsed: rev.gasUsed, output: revertData });
  assert.deepEqual(Object.keys(r), ['action', 'blockHash', 'blockNumber', 'error', 'result', 'subtraces', 'traceAddress', 'transactionHash', 'transactionPosition', 'type']);
  const [p] = await trace(rev, { tracer: 'flatCallTracer', tracerConfig: { convertParityErrors: true } });
  assert.equal(p.error, 'Reverted');
  const oog = await send({ from: BOB, to: probe, data: data(P, 'burn'), gas: '0x10000' });
  const [o] = await trace(oog, { tracer: 'flatCallTracer' });
  assert.equal(o.error, 'out of gas');
  assert.equal('result' in o, false);
  assert.equal((await trace(oog, { tracer: 'flatCallTracer', tracerConfig: { CONVERTPARITYERRORS: true } }))[0].error, 'Out of gas');

  const call = { from: CAROL, to: probe, data: data(P, 'hash', ['0x1234']) };
  const flat = await rpc('debug_traceCall', [call, 'latest', { tracer: 'flatCallTracer' }]);
  assert.equal(flat.length, 1, 'the STATICCALL to sha256 is left out');
  assert.equal(flat[0].subtraces, 0);
  assert.deepEqual([flat[0].blockHash, flat[0].blockNumber, flat[0].transactionHash, flat[0].transactionPosition], [null, 0, null, 0]);
  const all = await rpc('debug_traceCall', [call, 'latest', { tracer: 'flatCallTracer', tracerConfig: { includePrecompiles: true } }]);
  assert.equal(all.length, 2);
  assert.deepEqual([all[0].subtraces, all[1].action.callType, all[1].action.to, all[1].action.value, all[1].traceAddress], [1, 'staticcall', '0x0000000000000000000000000000000000000002', '0x0', [0]]);
});

test('muxTracer: each tracer\'s result under its name, names in order', async () => {
  const r = await send({ from: BOB, to: caller, data: data(C.caller, 'callSet', [storage, 43n]) });
  const mux = await trace(r, { tracer: 'muxTracer', tracerConfig: { prestateTracer: { diffMode: true }, callTracer: null, flatCallTracer: {}, '4byteTracer': {}, noopTracer: {} } });
  assert.deepEqual(Object.keys(mux), ['4byteTracer', 'callTracer', 'flatCallTracer', 'noopTracer', 'prestateTracer']);
  assert.deepEqual(mux.prestateTracer, await trace(r, DIFF));
  assert.deepEqual(mux.callTracer, await trace(r, { tracer: 'callTracer' }));
  assert.deepEqual(mux.flatCallTracer, await trace(r, { tracer: 'flatCallTracer' }));
  assert.deepEqual(mux['4byteTracer'], await trace(r, { tracer: '4byteTracer' }));
  assert.deepEqual(mux.noopTracer, {});
  assert.deepEqual(await trace(r, { tracer: 'muxTracer' }), {});
  assert.deepEqual(await trace(r, { tracer: 'muxTracer', tracerConfig: null }), {});
  const nested = await rpc('debug_traceCall', [{ from: CAROL, to: storage, data: data(C.storage, 'get') }, 'latest', { tracer: 'muxTracer', tracerConfig: { muxTracer: { prestateTracer: {} } } }]);
  assert.deepEqual(nested, { muxTracer: { prestateTracer: await rpc('debug_traceCall', [{ from: CAROL, to: storage, data: data(C.storage, 'get') }, 'latest', PRESTATE]) } });
});

test('bad tracerConfigs of the new tracers: geth\'s json errors, -32000', async () => {
  const r = await send({ from: BOB, to: storage, data: data(C.storage, 'get') });
  const cases: [string, unknown, string][] = [
    ['prestateTracer', 5, 'json: cannot unmarshal number into Go value of type native.prestateTracerConfig'],
    ['prestateTracer', 'x', 'json: cannot unmarshal string into Go value of type native.prestateTracerConfig'],
    ['prestateTracer', [], 'json: cannot unmarshal array into Go value of type native.prestateTracerConfig'],
    ['prestateTracer', { diffMode: 'x' }, 'json: cannot unmarshal string into Go struct field prestateTracerConfig.diffMode of type bool'],
    ['prestateTracer', { DiffMode: 1 }, 'json: cannot unmarshal number into Go struct field prestateTracerConfig.diffMode of type bool'],
    ['flatCallTracer', true, 'json: cannot unmarshal bool into Go value of type native.flatCallTracerConfig'],
    ['flatCallTracer', { convertParityErrors: {} }, 'json: cannot unmarshal object into Go struct field flatCallTracerConfig.convertParityErrors of type bool'],
    ['flatCallTracer', { includePrecompiles: [] }, 'json: cannot unmarshal array into Go struct field flatCallTracerConfig.includePrecompiles of type bool'],
    ['muxTracer', 5, 'json: cannot unmarshal number into Go value of type map[string]json.RawMessage'],
    ['muxTracer', ['callTracer'], 'json: cannot unmarshal array into Go value of type map[string]json.RawMessage'],
    ['muxTracer', { fooTracer: {} }, 'ReferenceError: fooTracer is not defined at <eval>:1:1(0)'],
    ['muxTracer', { calltracer: {} }, 'ReferenceError: calltracer is not defined at <eval>:1:1(0)'],
    ['muxTracer', { prestateTracer: { diffMode: 2 } }, 'json: cannot unmarshal number into Go struct field prestateTracerConfig.diffMode of type bool'],
    ['muxTracer', { callTracer: 'x' }, 'json: cannot unmarshal string into Go value of type native.callTracerConfig'],
  ];
  for (const [tracer, tracerConfig, message] of cases) {
    for (const [method, params] of [
      ['debug_traceTransaction', [r.transactionHash, { tracer, tracerConfig }]],
      ['debug_traceCall', [{ to: storage }, 'latest', { tracer, tracerConfig }]],
      ['debug_traceBlockByNumber', [r.blockNumber, { tracer, tracerConfig }]],
    ] as const) {
      const e = await rpcError(rpc(method, params as unknown as unknown[]));
      assert.deepEqual([e.code, e.message], [-32000, message], `${method} ${tracer} ${JSON.stringify(tracerConfig)}`);
    }
  }
});

test('TraceConfig numbers decode as Go integers: limit is an int, reexec a uint64 (range, fraction, -0)', async () => {
  const r = await send({ from: BOB, to: storage, data: data(C.storage, 'get') });
  /** The error of debug_traceTransaction with the TraceConfig written as `cfg` (raw JSON text). */
  const error = async (cfg: string) => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"debug_traceTransaction","params":["${r.transactionHash}",${cfg}]}`;
    const res = (await (await fetch(rpc.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json()) as { error?: { code: number; message: string } };
    return res.error ? [res.error.code, res.error.message] : undefined;
  };
  const bad = (text: string) => [-32602, `invalid argument 1: json: cannot unmarshal ${text}`];
  assert.deepEqual(await error('{"limit":1.5}'), bad('number 1.5 into Go struct field TraceConfig.Limit of type int'));
  assert.deepEqual(await error('{"limit":10000000000000000000}'), bad('number 10000000000000000000 into Go struct field TraceConfig.Limit of type int'));
  assert.deepEqual(await error('{"limit":-10000000000000000000}'), bad('number -10000000000000000000 into Go struct field TraceConfig.Limit of type int'));
  assert.deepEqual(await error('{"limit":"x"}'), bad('string into Go struct field TraceConfig.Limit of type int'));
  assert.deepEqual(await error('{"reexec":-0}'), bad('number -0 into Go struct field TraceConfig.Reexec of type uint64'));
  assert.deepEqual(await error('{"reexec":-1}'), bad('number -1 into Go struct field TraceConfig.Reexec of type uint64'));
  assert.deepEqual(await error('{"REEXEC":0.5}'), bad('number 0.5 into Go struct field TraceConfig.Reexec of type uint64'));
  assert.deepEqual(await error('{"reexec":100000000000000000000}'), bad('number 100000000000000000000 into Go struct field TraceConfig.Reexec of type uint64'));
  // Go reads the literal as sent: an exponent or a fraction part is refused even when it spells an
  // integer, one past a type's maximum is refused though its double equals the maximum's, and a
  // duplicated key is judged by its last value (JSON.parse's and Go's).
  assert.deepEqual(await error('{"limit":1e2}'), bad('number 1e2 into Go struct field TraceConfig.Limit of type int'));
  assert.deepEqual(await error('{"limit":1.0}'), bad('number 1.0 into Go struct field TraceConfig.Limit of type int'));
  assert.deepEqual(await error('{"limit":9223372036854775808}'), bad('number 9223372036854775808 into Go struct field TraceConfig.Limit of type int'));
  assert.deepEqual(await error('{"reexec":18446744073709551616}'), bad('number 18446744073709551616 into Go struct field TraceConfig.Reexec of type uint64'));
  assert.deepEqual(await error('{"limit":5,"limit":2E1}'), bad('number 2E1 into Go struct field TraceConfig.Limit of type int'));
  assert.equal(await error('{"limit":1e2,"limit":7,"disableStack":true}'), undefined);
  // The extremes of the types are accepted.
  for (const cfg of ['{"limit":-0,"disableStack":true}', '{"limit":9223372036854775807,"disableStack":true}', '{"limit":-9223372036854775808,"disableStack":true}', '{"reexec":18446744073709551615,"disableStack":true}', '{"reexec":0}']) {
    assert.equal(await error(cfg), undefined, cfg);
  }
});
