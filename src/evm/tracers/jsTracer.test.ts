// geth's JavaScript tracers on the dev chain: transactions mined by the node, solc-compiled
// contracts, traced over JSON-RPC with tracers written as geth's documentation writes them, and
// checked against what the node's other tracers (the struct logger, callTracer) and the chain's
// state say about the same transaction.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { encodeDeployData, getContractAddress, pad, toHex, type Abi } from 'viem';
import { probeChain, PROBE, CHILD, CALLER, STORAGE } from '../../../test/probeChain.js';
import { rpcError, txKit, DEV_ADDRS, type Rpc } from '../chain/testkit.js';
import type { TestNode } from '../../../test/helpers.js';

const [P, CH, C] = [PROBE, CHILD, { caller: CALLER, storage: STORAGE }];

const [ALICE, BOB] = DEV_ADDRS;
// The chain, its client and the three contracts (test/probeChain.ts), set before the tests.
let node: TestNode, rpc: Rpc, probe: string, storage: string, caller: string;

const { data, send } = txKit(() => rpc, ALICE);

const trace = (hash: string, tracer: string, extra: Record<string, unknown> = {}) => rpc('debug_traceTransaction', [hash, { tracer, ...extra }]);

before(async () => {
  ({ node, rpc, probe, storage, caller } = await probeChain());
});
after(async () => {
  await node.stop();
});

/** A tracer that writes down, for every step, what the struct logger shows of it. */
const STEPS = `{
  steps: [],
  step: function (log, db) {
    var stack = [];
    for (var i = log.stack.length() - 1; i >= 0; i--) stack.push('0x' + log.stack.peek(i).toString(16));
    var e = { pc: log.getPC(), op: log.op.toString(), gas: log.getGas(), gasCost: log.getCost(), depth: log.getDepth(), stack: stack };
    if (log.getRefund() > 0) e.refund = log.getRefund();
    if (log.getError() !== undefined) e.error = log.getError();
    this.steps.push(e);
  },
  fault: function (log, db) {},
  result: function (ctx, db) { return this.steps; }
}`;

test('step sees each opcode as the struct logger does: pc, name, gas, cost, depth, stack, refund', async () => {
  await send({ from: BOB, to: probe, data: data(P, 'write', [5n, 6n]) });
  // Clearing slot 1 earns a refund; spawning creates two child frames.
  for (const r of [
    await send({ from: BOB, to: probe, data: data(P, 'write', [8n, 0n]) }),
    await send({ from: BOB, to: probe, data: data(P, 'spawn', [3n]), value: '0x5' }),
    await send({ from: BOB, to: caller, data: data(C.caller, 'callSet', [storage, 9n]) }),
  ]) {
    const logged = await rpc('debug_traceTransaction', [r.transactionHash, {}]);
    const steps = await trace(r.transactionHash, STEPS);
    assert.ok(steps.length > 50);
    assert.deepEqual(
      steps,
      logged.structLogs.map(({ storage: _s, ...e }: Record<string, unknown>) => e),
    );
  }
});

test('log.memory and log.contract: the frame\'s memory, address, caller, value and input', async () => {
  const r = await send({ from: BOB, to: probe, data: data(P, 'spawn', [4n]), value: '0x7' });
  const logged = await rpc('debug_traceTransaction', [r.transactionHash, { enableMemory: true }]);
  const tracer = `{
    mem: [], who: [],
    step: function (log) {
      var words = [];
      for (var i = 0; i + 32 <= log.memory.length(); i += 32) words.push(toHex(log.memory.slice(i, i + 32)).slice(2));
      var w = log.memory.length() >= 32 ? '0x' + log.memory.getUint(0).toString(16) : null;
      this.mem.push({ n: log.memory.length(), words: words, w: w });
      if (log.getPC() === 0) this.who.push({ depth: log.getDepth(), address: toHex(log.contract.getAddress()), caller: toHex(log.contract.getCaller()), value: log.contract.getValue().toString(), input: toHex(log.contract.getInput()) });
    },
    fault: function () {},
    result: function () { return { mem: this.mem, who: this.who }; }
  }`;
  const out = await trace(r.transactionHash, tracer);
  assert.equal(out.mem.length, logged.structLogs.length);
  out.mem.forEach((m: { n: number; words: string[]; w: string | null }, i: number) => {
    const words: string[] = logged.structLogs[i].memory;
    assert.deepEqual(m.words, words, `step ${i}`);
    assert.equal(m.n, words.length * 32);
    if (m.w !== null) assert.equal(BigInt(m.w), BigInt('0x' + words[0]));
  });
  const child1 = getContractAddress({ from: probe as `0x${string}`, nonce: BigInt(await rpc('eth_getTransactionCount', [probe, toHex(BigInt(r.blockNumber) - 1n)])) });
  assert.deepEqual(out.who[0], { depth: 1, address: probe, caller: BOB.toLowerCase(), value: '7', input: data(P, 'spawn', [4n]) });
  // The child's constructor, run by CREATE with the value passed on: input is empty (the init code is the code).
  assert.deepEqual(out.who[1], { depth: 2, address: child1.toLowerCase(), caller: probe, value: '7', input: '0x' });
  assert.equal(out.who.length, 3, 'the CREATE2 child as well');
});

test('db reads the state as the transaction has made it so far', async () => {
  await send({ from: BOB, to: probe, data: data(P, 'write', [11n, 12n]) });
  const r = await send({ from: BOB, to: probe, data: data(P, 'write', [13n, 14n]), gas: '0x30000' });
  const tracer = `{
    seen: [],
    step: function (log, db) {
      if (log.op.toString() !== 'SSTORE') return;
      var slot = toWord('0x' + log.stack.peek(0).toString(16));
      this.seen.push({ slot: toHex(slot), before: toHex(db.getState(log.contract.getAddress(), slot)), value: '0x' + log.stack.peek(1).toString(16) });
    },
    fault: function () {},
    result: function (ctx, db) {
      return { seen: this.seen, balance: db.getBalance(ctx.from).toString(), nonce: db.getNonce(ctx.from), code: toHex(db.getCode(ctx.to)),
        exists: db.exists(ctx.to), nobody: db.exists(toAddress('0x00000000000000000000000000000000000f00d5')), slot0: toHex(db.getState(ctx.to, toWord('0x0'))) };
    }
  }`;
  const out = await trace(r.transactionHash, tracer);
  assert.deepEqual(out.seen, [
    { slot: pad('0x0'), before: pad(toHex(11)), value: '0xd' },
    { slot: pad('0x1'), before: pad(toHex(12)), value: '0xe' },
  ]);
  // result() reads the state as the run left it.
  assert.equal(out.nonce, Number(await rpc('eth_getTransactionCount', [BOB, r.blockNumber])));
  assert.equal(out.code, await rpc('eth_getCode', [probe, r.blockNumber]));
  assert.equal(out.exists, true);
  assert.equal(out.nobody, false);
  assert.equal(out.slot0, pad(toHex(13)));
  const before = BigInt(await rpc('eth_getBalance', [BOB, toHex(BigInt(r.blockNumber) - 1n)]));
  const after = BigInt(await rpc('eth_getBalance', [BOB, r.blockNumber]));
  assert.ok(BigInt(out.balance) <= before && BigInt(out.balance) >= after - 0x30000n * BigInt(r.effectiveGasPrice), `${out.balance} between ${after} and ${before}`);
});

test('enter and exit: every frame callTracer shows, with geth\'s frame fields; SELFDESTRUCT is a frame', async () => {
  const frames = `{
    stack: [{ calls: [] }],
    enter: function (f) {
      var v = f.getValue();
      this.stack.push({ type: f.getType(), from: toHex(f.getFrom()), to: toHex(f.getTo()), input: toHex(f.getInput()), gas: f.getGas(), value: v === undefined ? null : '0x' + v.toString(16), calls: [] });
    },
    exit: function (r) {
      var f = this.stack.pop();
      f.gasUsed = r.getGasUsed(); f.output = toHex(r.getOutput());
      if (r.getError() !== undefined) f.error = r.getError();
      this.stack[this.stack.length - 1].calls.push(f);
    },
    fault: function () {},
    result: function () { return this.stack[0].calls; }
  }`;
  const rs = [
    await send({ from: BOB, to: probe, data: data(P, 'spawn', [22n]), value: '0x3' }),
    await send({ from: BOB, to: probe, data: data(P, 'relay', [storage, data(C.storage, 'set', [5n])]) }),
    await send({ from: BOB, to: probe, data: data(P, 'touch', [storage]) }),
    await send({ from: BOB, to: caller, data: data(C.caller, 'callSet', [storage, 4n]) }),
  ];
  for (const r of rs) {
    const ours = await trace(r.transactionHash, frames);
    const theirs = (await trace(r.transactionHash, 'callTracer')).calls ?? [];
    const shape = (fs: any[]): unknown[] =>
      fs.map((f) => ({ type: f.type, from: f.from, to: f.to, input: f.input, gas: Number(f.gas), value: f.value ?? null, gasUsed: Number(f.gasUsed), output: f.output ?? '0x', ...(f.error ? { error: f.error } : {}), calls: shape(f.calls ?? []) }));
    assert.deepEqual(shape(ours), shape(theirs), r.transactionHash);
  }
  // SELFDESTRUCT: the contract, the beneficiary, the balance it had; no gas, no output.
  const spawned = await trace(rs[0].transactionHash, 'callTracer');
  const kid = spawned.calls[0].to;
  const k = await send({ from: BOB, to: kid, data: data(CH, 'kill', [ALICE]) });
  const out = await trace(k.transactionHash, frames);
  assert.deepEqual(out, [{ type: 'SELFDESTRUCT', from: kid, to: ALICE.toLowerCase(), input: '0x', gas: 0, value: '0x3', calls: [], gasUsed: 0, output: '0x' }]);
});

test('fault: an opcode that fails as it runs (REVERT); a failure before the step (out of gas) reaches step instead', async () => {
  const tracer = `{
    faults: [], errs: [], last: null,
    step: function (log) { this.last = log.op.toString(); if (log.getError() !== undefined) this.errs.push([log.op.toString(), log.getError(), log.getDepth()]); },
    fault: function (log, db) { this.faults.push([log.op.toString(), log.getError(), log.getDepth(), log.getPC() > 0, log.stack.length() >= 0]); },
    result: function (ctx) { return { faults: this.faults, errs: this.errs, error: ctx.error === undefined ? null : ctx.error, output: toHex(ctx.output) }; }
  }`;
  const reverted = await send({ from: BOB, to: probe, data: data(P, 'fail'), gas: '0x20000' });
  assert.equal(reverted.status, '0x0');
  const r1 = await trace(reverted.transactionHash, tracer);
  assert.deepEqual(r1.faults, [['REVERT', 'execution reverted', 1, true, true]]);
  assert.deepEqual(r1.errs, []);
  assert.equal(r1.error, 'execution reverted');
  assert.match(r1.output, /^0x08c379a0/, 'the revert data');

  // fault is called for a tracer without step too.
  const faultOnly = `{ f: [], fault: function (log) { this.f.push([log.op.toString(), log.getError(), log.getDepth()]); }, result: function () { return this.f; } }`;
  assert.deepEqual(await trace(reverted.transactionHash, faultOnly), [['REVERT', 'execution reverted', 1]]);

  const burnt = await send({ from: BOB, to: probe, data: data(P, 'burn'), gas: '0x10000' });
  assert.equal(burnt.status, '0x0');
  const r2 = await trace(burnt.transactionHash, tracer);
  assert.deepEqual(r2.faults, []);
  assert.equal(r2.errs.length, 1);
  assert.equal(r2.errs[0][1], 'out of gas');
  assert.equal(r2.error, 'out of gas');
  // The struct logger puts the same error on the same (last) step.
  const logged = await rpc('debug_traceTransaction', [burnt.transactionHash, { disableStack: true }]);
  const last = logged.structLogs[logged.structLogs.length - 1];
  assert.deepEqual([last.op, last.error, last.depth], r2.errs[0]);
});

test('result(ctx, db): geth\'s ctx for a call and for a creation', async () => {
  const tracer = `{
    fault: function () {},
    result: function (ctx) {
      var o = {};
      for (var k in ctx) {
        var v = ctx[k];
        o[k] = v instanceof Uint8Array ? toHex(v) : bigInt.isInstance(v) ? 'big:' + v.toString() : v;
      }
      return o;
    }
  }`;
  const r = await send({ from: BOB, to: probe, data: data(P, 'write', [1n, 2n]), value: '0x0' });
  const tx = await rpc('eth_getTransactionByHash', [r.transactionHash]);
  const ctx = await trace(r.transactionHash, tracer);
  const input = data(P, 'write', [1n, 2n]);
  const bytes = Buffer.from(input.slice(2), 'hex');
  const intrinsic = 21000 + [...bytes].reduce((g, b) => g + (b === 0 ? 4 : 16), 0);
  assert.deepEqual(ctx, {
    gas: Number(tx.gas),
    blockHash: r.blockHash,
    txIndex: Number(r.transactionIndex),
    txHash: r.transactionHash,
    type: 'CALL',
    from: BOB.toLowerCase(),
    to: probe,
    input,
    value: 'big:0',
    block: Number(r.blockNumber),
    gasPrice: 'big:' + BigInt(r.effectiveGasPrice).toString(),
    intrinsicGas: intrinsic,
    output: '0x',
    gasUsed: Number(r.gasUsed),
  });
  const created = await send({ from: BOB, data: encodeDeployData({ abi: CH.abi as Abi, bytecode: CH.bytecode, args: [1n] }), gas: '0x100000' });
  const c = await trace(created.transactionHash, tracer);
  assert.equal(c.type, 'CREATE');
  assert.equal(c.to, created.contractAddress);
  assert.equal(c.output, await rpc('eth_getCode', [created.contractAddress, created.blockNumber]), 'the deployed code');
  assert.equal(c.gasUsed, Number(created.gasUsed));
});

test('geth\'s helpers: bigInt, toHex, toWord, toAddress, toContract, toContract2, isPrecompiled, slice; setup gets the tracerConfig text', async () => {
  const r = await send({ from: BOB, to: probe, data: data(P, 'read') });
  const tracer = `{
    cfg: null,
    setup: function (c) { this.cfg = c; },
    fault: function () {},
    result: function (ctx) {
      var a = bigInt('123456789012345678901234567890');
      return {
        cfg: this.cfg,
        big: [a.add(1).toString(), a.multiply(a).toString(16), bigInt('ff', 16).toString(), bigInt(7).subtract(10).toString(), a.mod(97).toJSNumber(), bigInt(1).shiftLeft(100).toString(), a.compare(5), bigInt.isInstance(a), a],
        hex: [toHex([1, 2, 255]), toHex(toWord('0x1234')), toHex(toAddress('0xabcdef')), toHex(toAddress(toWord('0xdeadbeef')))],
        contract: toHex(toContract(ctx.from, 5)),
        contract2: toHex(toContract2(ctx.from, '0x01', '0x6001')),
        pre: [isPrecompiled(toAddress('0x01')), isPrecompiled(toAddress('0x0a')), isPrecompiled(ctx.to), isPrecompiled('0x0000000000000000000000000000000000000002')],
        slice: toHex(slice(ctx.input, 0, 4)),
      };
    }
  }`;
  const out = await trace(r.transactionHash, tracer, { tracerConfig: { depth: 2, names: ['a'] } });
  const a = 123456789012345678901234567890n;
  assert.deepEqual(out.cfg, '{"depth":2,"names":["a"]}');
  assert.deepEqual(out.big, [(a + 1n).toString(), (a * a).toString(16), '255', '-3', Number(a % 97n), (1n << 100n).toString(), 1, true, a.toString()]);
  assert.deepEqual(out.hex, ['0x0102ff', pad('0x1234'), '0x0000000000000000000000000000000000abcdef', '0x00000000000000000000000000000000deadbeef']);
  assert.equal(out.contract, getContractAddress({ from: BOB as `0x${string}`, nonce: 5n }).toLowerCase());
  assert.equal(out.contract2, getContractAddress({ from: BOB as `0x${string}`, opcode: 'CREATE2', salt: pad('0x01'), bytecode: '0x6001' }).toLowerCase());
  assert.deepEqual(out.pre, [true, true, false, true]);
  assert.equal(out.slice, data(P, 'read').slice(0, 10));
  // Without a tracerConfig, setup gets "{}".
  assert.equal((await trace(r.transactionHash, tracer)).cfg, '{}');
});

test('geth\'s bundled JavaScript tracers: opcountTracer, unigramTracer, noopTracerLegacy', async () => {
  const r = await send({ from: BOB, to: probe, data: data(P, 'spawn', [31n]), value: '0x1' });
  const logged = (await rpc('debug_traceTransaction', [r.transactionHash, { disableStack: true }])).structLogs as { op: string }[];
  assert.equal(await trace(r.transactionHash, 'opcountTracer'), logged.length);
  const hist: Record<string, number> = {};
  for (const s of logged) hist[s.op] = (hist[s.op] ?? 0) + 1;
  assert.deepEqual(await trace(r.transactionHash, 'unigramTracer'), hist);
  assert.deepEqual(await trace(r.transactionHash, 'noopTracerLegacy'), {});
});

test('debug_traceCall, debug_traceBlockByNumber and muxTracer take a JavaScript tracer', async () => {
  const count = `{ n: 0, step: function () { this.n++; }, fault: function () {}, result: function (ctx) { return { n: this.n, type: ctx.type, gasUsed: ctx.gasUsed }; } }`;
  const call = await rpc('debug_traceCall', [{ from: BOB, to: probe, data: data(P, 'read') }, 'latest', { tracer: count }]);
  const logged = await rpc('debug_traceCall', [{ from: BOB, to: probe, data: data(P, 'read') }, 'latest', {}]);
  assert.deepEqual(call, { n: logged.structLogs.length, type: 'CALL', gasUsed: logged.gas });

  const r = await send({ from: BOB, to: probe, data: data(P, 'write', [2n, 3n]) });
  const block = await rpc('debug_traceBlockByNumber', [r.blockNumber, { tracer: count }]);
  assert.equal(block.length, 1);
  assert.equal(block[0].txHash, r.transactionHash);
  assert.equal(block[0].result.n, (await rpc('debug_traceTransaction', [r.transactionHash, {}])).structLogs.length);

  const mux = await rpc('debug_traceTransaction', [r.transactionHash, { tracer: 'muxTracer', tracerConfig: { opcountTracer: null, callTracer: {} } }]);
  assert.equal(mux.opcountTracer, block[0].result.n);
  assert.equal(mux.callTracer.to, probe);
  // One JavaScript tracer per run: a second one in the same mux is refused.
  assert.deepEqual(await rpcError(rpc('debug_traceTransaction', [r.transactionHash, { tracer: 'muxTracer', tracerConfig: { opcountTracer: null, unigramTracer: null } }])), {
    code: -32000,
    message: 'a JavaScript tracer cannot run here: another tracer of this run already reads every step',
    data: undefined,
  });
});

test('two traces at once: each tracer keeps its own state', async () => {
  const r1 = await send({ from: BOB, to: probe, data: data(P, 'spawn', [41n]), value: '0x1' });
  const r2 = await send({ from: BOB, to: caller, data: data(C.caller, 'callSet', [storage, 41n]) });
  // db reads in every step: each trace waits for the state now and then.
  const tracer = `{ n: 0, b: null, step: function (log, db) { this.n++; this.b = db.getBalance(log.contract.getAddress()).toString(); }, fault: function () {}, result: function () { return [this.n, this.b]; } }`;
  const alone = [await trace(r1.transactionHash, tracer), await trace(r2.transactionHash, tracer)];
  const together = await Promise.all([trace(r1.transactionHash, tracer), trace(r2.transactionHash, tracer), trace(r1.transactionHash, tracer)]);
  assert.deepEqual(together, [alone[0], alone[1], alone[0]]);
});

test('bad tracers are answered with geth\'s errors and leave the node serving', async () => {
  const r = await send({ from: BOB, to: probe, data: data(P, 'write', [3n, 4n]) });
  const h = r.transactionHash;
  const err = async (tracer: string, extra: Record<string, unknown> = {}) => rpcError(trace(h, tracer, extra));
  // Deep recursion is QuickJS's own error, and the engine stays usable.
  const RECURSE = '{fault: function(){}, result: function(){ function f(n) { return f(n + 1) + 1 } return f(0) }}';
  const RECURSION_ERROR = "InternalError: stack overflow    in server-side tracer function 'result'";
  const DEEP = '{fault: function(){}, result: function(){ function f(n) { return n > 500 ? n : f(n + 1) } return f(0) }}';
  assert.equal((await err(RECURSE)).message, RECURSION_ERROR);
  assert.equal(await trace(h, DEEP), 501, 'recursion within bounds, after');
  assert.deepEqual(await err('{step: function(){}, fault: function(){}}'), { code: -32000, message: 'trace object must expose a function result()', data: undefined });
  assert.equal((await err('{result: function(){}}')).message, 'trace object must expose a function fault()');
  assert.equal((await err('{result: function(){}, fault: function(){}, enter: function(){}}')).message, 'trace object must expose either both or none of enter() and exit()');
  assert.equal((await err('5')).message, 'trace object must expose a function result()');
  assert.deepEqual(await err('null'), { code: -32603, message: 'method handler crashed', data: undefined });
  assert.match((await err('{result: function(){')).message, /^SyntaxError: /);
  assert.equal((await err('{result: function(){}, fault: function(){}, setup: function(c){ throw new Error("no " + c) }}')).message, 'Error: no {}');
  // A failing step, result, enter or exit ends the trace with geth's wrapped text.
  assert.equal((await err('{step: function(log){ nope(); }, fault: function(){}, result: function(){ return 1 }}')).message, "ReferenceError: nope is not defined    in server-side tracer function 'step'");
  assert.equal((await err('{fault: function(){}, result: function(){ throw new TypeError("bad") }}')).message, "TypeError: bad    in server-side tracer function 'result'");
  // A host function's failure cannot be caught by the tracer (geth interrupts its VM).
  assert.equal(
    (await err('{step: function(log){ try { log.stack.peek(99) } catch (e) {} }, fault: function(){}, result: function(){ return 1 }}')).message,
    "tracer accessed out of bound stack: size 0, index 99    in server-side tracer function 'step'",
  );
  assert.match((await err('{step: function(log){ log.memory.getUint(1000) }, fault: function(){}, result: function(){ return 1 }}')).message, /^tracer accessed out of bound memory: available \d+, offset 1000, size 32    in server-side tracer function 'step'$/);
  assert.equal((await err('{step: function(log, db){ db.getBalance("0x00") }, fault: function(){}, result: function(){ return 1 }}')).message, "invalid buffer type    in server-side tracer function 'step'");
  // An endless loop is stopped at the trace's timeout.
  assert.deepEqual(await err('{step: function(){ for(;;){} }, fault: function(){}, result: function(){ return 1 }}', { timeout: '200ms' }), { code: -32000, message: 'execution timeout', data: undefined });
  assert.equal((await err('{fault: function(){}, result: function(){ for(;;){} }}', { timeout: '200ms' })).message, 'execution timeout');
  // What JSON cannot write fails result.
  assert.equal((await err('{fault: function(){}, result: function(){ var o = {}; o.o = o; return o }}')).message, "TypeError: circular reference    in server-side tracer function 'result'");
  assert.equal((await err('{fault: function(){}, result: function(){ throw "plain" }}')).message, "plain    in server-side tracer function 'result'");
  // The sandbox: none of Node's globals.
  assert.equal(await trace(h, '{fault: function(){}, result: function(){ return [typeof require, typeof process, typeof globalThis.fetch, typeof setTimeout].join() }}'), 'undefined,undefined,undefined,undefined');
  // In a block, a tracer's failure is its tx's answer.
  const block = await rpc('debug_traceBlockByNumber', [r.blockNumber, { tracer: '{step: function(){ throw new Error("x") }, fault: function(){}, result: function(){ return 1 }}' }]);
  assert.deepEqual(block, [{ txHash: h, error: "Error: x    in server-side tracer function 'step'" }]);
  // Still serving and tracing, with the same bounds.
  assert.equal(await trace(h, 'opcountTracer'), (await rpc('debug_traceTransaction', [h, {}])).structLogs.length);
  assert.equal((await err(RECURSE)).message, RECURSION_ERROR);
  assert.equal(await trace(h, DEEP), 501);
  // A tracer's heap is bounded (last: QuickJS cannot free that runtime, see jsTracer.ts).
  assert.equal(
    (await err('{fault: function(){}, result: function(){ var a = []; for(;;) a.push(new Uint8Array(1 << 24)); }}', { timeout: '60s' })).message,
    "InternalError: out of memory    in server-side tracer function 'result'",
  );
  assert.equal(await trace(h, 'opcountTracer'), (await rpc('debug_traceTransaction', [h, {}])).structLogs.length, 'tracing after it');
  assert.equal(await trace(h, DEEP), 501);
});
