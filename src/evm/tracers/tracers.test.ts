// The tracers against a real @ethereumjs/evm running solc-compiled contracts.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createEVM, type EVM } from '@ethereumjs/evm';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { Account, Address, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { Interface } from 'ethers';
import { compileContract, type Compiled } from '../../../test/solc.js';
import { RpcError, toJSON } from '../rpc/server.js';
import { type Tracer, createTracer, revertMessage, unpackRevert } from './index.js';
import { anvilRevertReason } from './errors.js';

const sender = createAddressFromString('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
let evm: EVM;
let storage: Address;
let reverter: Address;
let caller: Address;
let C: { storage: Compiled; reverter: Compiled; caller: Compiled };
const iface = (c: Compiled) => new Interface(c.abi);

async function deploy(c: Compiled, args: unknown[] = []): Promise<Address> {
  const data = hexToBytes((c.bytecode + iface(c).encodeDeploy(args).slice(2)) as `0x${string}`);
  const r = await evm.runCall({ caller: sender, data, gasLimit: 5_000_000n });
  assert.equal(r.execResult.exceptionError, undefined);
  return r.createdAddress!;
}

/** Runs a call with a tracer attached and returns the tracer's result. */
async function trace(name: string | undefined, config: unknown, to: Address, c: Compiled, fn: string, args: unknown[] = [], value = 0n) {
  const tracer = createTracer(name, config) as Tracer;
  tracer.attach(evm);
  try {
    await evm.runCall({ caller: sender, to, data: hexToBytes(iface(c).encodeFunctionData(fn, args) as `0x${string}`), gasLimit: 1_000_000n, value });
  } finally {
    tracer.detach();
  }
  return tracer.result() as any;
}

before(async () => {
  C = {
    storage: compileContract('Storage', 'Fixtures.sol'),
    reverter: compileContract('Reverter', 'Fixtures.sol'),
    caller: compileContract('Caller', 'Fixtures.sol'),
  };
  evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Cancun }) });
  await evm.stateManager.putAccount(sender, new Account(0n, 10n ** 21n));
  storage = await deploy(C.storage, [7]);
  reverter = await deploy(C.reverter);
  caller = await deploy(C.caller);
});

test('callTracer: nested CALL and STATICCALL, geth field order', async () => {
  const r = await trace('callTracer', { tracerConfig: {} }, caller, C.caller, 'callSet', [storage.toString(), 42]);
  assert.deepEqual(Object.keys(r), ['from', 'gas', 'gasUsed', 'to', 'input', 'output', 'calls', 'value', 'type']);
  assert.equal(r.type, 'CALL');
  assert.equal(r.from, sender.toString());
  assert.equal(r.to, caller.toString());
  assert.equal(r.value, '0x0');
  assert.equal(r.gas, '0xf4240');
  assert.equal(r.output, '0x' + (42).toString(16).padStart(64, '0'));
  assert.equal(r.calls.length, 2);
  const [set, get] = r.calls;
  assert.equal(set.type, 'CALL');
  assert.equal(set.from, caller.toString());
  assert.equal(set.to, storage.toString());
  assert.equal(set.input, iface(C.storage).encodeFunctionData('set', [42]));
  assert.equal(set.output, undefined, 'empty output is omitted');
  assert.equal(get.type, 'STATICCALL');
  assert.equal(get.value, undefined, 'STATICCALL frames carry no value');
  assert.ok(BigInt(get.gasUsed) > 0n && BigInt(get.gasUsed) < BigInt(get.gas));
});

test('callTracer: a caught revert has error, output and revertReason; logs with withLog', async () => {
  const r = await trace('callTracer', { tracerConfig: { withLog: true } }, caller, C.caller, 'callRevert', [reverter.toString()]);
  assert.equal(r.error, undefined);
  const inner = r.calls[0];
  assert.equal(inner.error, 'execution reverted');
  assert.equal(inner.revertReason, 'Reverter: nope');
  assert.equal(inner.output.slice(0, 10), '0x08c379a0');
  assert.equal(r.logs.length, 1);
  assert.equal(r.logs[0].address, caller.toString());
  assert.equal(r.logs[0].position, '0x1', 'the log came after the first call');
  assert.equal(r.logs[0].topics[0], iface(C.caller).getEvent('Called')!.topicHash);
  const decoded = iface(C.caller).decodeEventLog('Called', r.logs[0].data, r.logs[0].topics);
  assert.equal(decoded.ok, false);
});

test('callTracer: a revert that propagates; onlyTopCall', async () => {
  const r = await trace('callTracer', { tracerConfig: { onlyTopCall: true } }, caller, C.caller, 'callRevertHard', [reverter.toString()]);
  assert.equal(r.error, 'execution reverted');
  assert.equal(r.revertReason, 'Reverter: nope');
  assert.equal(r.calls, undefined);
  const full = await trace('callTracer', {}, caller, C.caller, 'callRevertHard', [reverter.toString()]);
  assert.equal(full.calls.length, 1);
  assert.equal(full.calls[0].revertReason, 'Reverter: nope');
});

test('callTracer: DELEGATECALL, CREATE, value transfer, panic, out of gas', async () => {
  const d = await trace('callTracer', {}, caller, C.caller, 'delegate', [storage.toString(), 5]);
  assert.equal(d.calls[0].type, 'DELEGATECALL');
  assert.equal(d.calls[0].from, caller.toString());
  assert.equal(d.calls[0].to, storage.toString());
  assert.equal(d.calls[0].value, '0x0', 'geth 1.13: a DELEGATECALL carries its caller\'s value');
  const c = await trace('callTracer', {}, caller, C.caller, 'create', [9]);
  assert.equal(c.calls[0].type, 'CREATE');
  assert.match(c.calls[0].to, /^0x[0-9a-f]{40}$/);
  assert.equal(c.calls[0].input.slice(0, 20), C.storage.bytecode.slice(0, 20));
  const p = await trace('callTracer', {}, caller, C.caller, 'pay', [reverter.toString()], 5n);
  assert.equal(p.value, '0x5');
  assert.equal(p.calls[0].value, '0x5');
  assert.equal(p.calls[0].error, 'execution reverted', 'Reverter has no receive function');
  const z = await trace('callTracer', {}, reverter, C.reverter, 'panicDivide', [0]);
  assert.equal(z.revertReason, 'division or modulo by zero');
  const o = await trace('callTracer', {}, reverter, C.reverter, 'outOfGas');
  assert.equal(o.error, 'out of gas');
  assert.equal(o.gasUsed, o.gas);
  assert.equal(o.output, undefined);
});

test('callTracer: every frame kind and its error as geth names them, with and without logs (the opcodes from the running frames, not from steps)', async () => {
  // Raw code for what the fixtures lack: CALLCODE, STATICCALL, a precompile, CREATE2, a failing
  // CREATE, an undefined opcode (0x0c) and INVALID (0xfe) in the frames called.
  const a = createAddressFromString('0x00000000000000000000000000000000000000aa');
  const b = createAddressFromString('0x00000000000000000000000000000000000000bb');
  const p = createAddressFromString('0x00000000000000000000000000000000000000cc');
  const push20 = (x: Address) => '73' + x.toString().slice(2);
  const code =
    '60006000600060006000' + push20(a) + '61fffff250' + // CALLCODE a
    '60006000600060' + '00' + push20(b) + '61fffffa50' + // STATICCALL b
    '6000600060006000600060' + '02' + '61fffff150' + // CALL sha256
    '6000600060006000' + push20(a) + '61fffff450' + // DELEGATECALL a
    '6000600060006000f550' + // CREATE2 of empty code
    '60fe600053' + '600160006000f050' + // CREATE of INVALID
    '00';
  // Each run on a fresh EVM set up alike (the fixtures deploy to the same addresses).
  const fresh = async () => {
    const e = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Cancun }) });
    await e.stateManager.putAccount(sender, new Account(0n, 10n ** 21n));
    for (const [c, args] of [[C.storage, [7]], [C.reverter, []], [C.caller, []]] as const) {
      const r = await e.runCall({ caller: sender, data: hexToBytes((c.bytecode + iface(c).encodeDeploy([...args]).slice(2)) as `0x${string}`), gasLimit: 5_000_000n });
      assert.equal(r.execResult.exceptionError, undefined);
    }
    await e.stateManager.putCode(a, hexToBytes('0x0c'));
    await e.stateManager.putCode(b, hexToBytes('0xfe'));
    await e.stateManager.putCode(p, hexToBytes(`0x${code}`));
    return e;
  };
  const raw = async (config: unknown, to: Address, data = '0x') => {
    const e = await fresh();
    const tracer = createTracer('callTracer', config) as Tracer;
    tracer.attach(e);
    try {
      await e.runCall({ caller: sender, to, data: hexToBytes(data as `0x${string}`), gasLimit: 1_000_000n });
    } finally {
      tracer.detach();
    }
    return tracer.result() as any;
  };
  const noLogs = (f: any): any => {
    const { logs, calls, ...rest } = f;
    void logs;
    return calls ? { ...rest, calls: calls.map(noLogs) } : rest;
  };
  const cases: [Address, string][] = [
    [p, '0x'],
    ...([
      [caller, C.caller, 'callSet', [storage.toString(), 3]],
      [caller, C.caller, 'callRevert', [reverter.toString()]],
      [caller, C.caller, 'callRevertHard', [reverter.toString()]],
      [caller, C.caller, 'delegate', [storage.toString(), 5]],
      [caller, C.caller, 'create', [9]],
      [reverter, C.reverter, 'outOfGas', []],
    ] as const).map(([to, c, fn, args]) => [to, iface(c).encodeFunctionData(fn, [...args])] as [Address, string]),
  ];
  for (const [to, data] of cases) {
    // withLog (which listens to steps) only adds the logs.
    assert.deepEqual(await raw({}, to, data), noLogs(await raw({ withLog: true }, to, data)), `${to} ${data.slice(0, 10)}`);
  }
  const tree = await raw({}, p);
  assert.deepEqual(tree.calls.map((c: any) => [c.type, c.error]), [
    ['CALLCODE', 'invalid opcode: opcode 0xc not defined'],
    ['STATICCALL', 'invalid opcode: INVALID'],
    ['CALL', undefined],
    ['DELEGATECALL', 'invalid opcode: opcode 0xc not defined'],
    ['CREATE2', undefined],
    ['CREATE', 'invalid opcode: INVALID'],
  ]);
});

test('struct logger: steps, stack, storage, memory, returnValue', async () => {
  const r = await trace(undefined, {}, storage, C.storage, 'set', [99]);
  assert.deepEqual(Object.keys(r), ['gas', 'failed', 'returnValue', 'structLogs']);
  assert.equal(r.failed, false);
  assert.equal(r.returnValue, '');
  const first = r.structLogs[0];
  assert.deepEqual(first, { pc: 0, op: 'PUSH1', gas: 1_000_000, gasCost: 3, depth: 1, stack: [] }, 'runCall charges no intrinsic gas');
  const sload = r.structLogs.find((l: any) => l.op === 'SLOAD');
  const slot0 = '0'.repeat(64);
  assert.deepEqual(sload.storage, { [slot0]: (42).toString(16).padStart(64, '0') }, 'SLOAD records the loaded value (42 from the callSet test)');
  const sstore = r.structLogs.find((l: any) => l.op === 'SSTORE');
  assert.deepEqual(sstore.storage, { [slot0]: (99).toString(16).padStart(64, '0') });
  assert.ok(r.structLogs.some((l: any) => l.op === 'LOG2'));
  assert.equal(r.structLogs.every((l: any) => l.memory === undefined), true);
  const m = await trace(undefined, { enableMemory: true, disableStack: true, disableStorage: true }, storage, C.storage, 'get');
  assert.equal(m.returnValue, (99).toString(16).padStart(64, '0'));
  assert.ok(m.structLogs.some((l: any) => l.memory?.length > 0 && l.memory[0].length === 64));
  assert.ok(m.structLogs.every((l: any) => l.stack === undefined && l.storage === undefined));
  const rev = await trace(undefined, { limit: 5 }, reverter, C.reverter, 'revertWithReason');
  assert.equal(rev.failed, true);
  assert.equal(rev.structLogs.length, 5);
  assert.equal(revertMessage(Buffer.from(rev.returnValue, 'hex')), 'execution reverted: Reverter: nope');
  const oog = await trace(undefined, { disableStack: true }, reverter, C.reverter, 'outOfGas');
  assert.equal(oog.failed, true);
  assert.equal(oog.returnValue, '');
});

test('struct logger: enableReturnData shows the last call\'s return data in the caller', async () => {
  const r = await trace(undefined, { enableReturnData: true, disableStack: true }, caller, C.caller, 'callSet', [storage.toString(), 8]);
  const afterGet = r.structLogs.filter((l: any) => l.depth === 1 && l.returnData !== undefined);
  assert.ok(afterGet.length > 0);
  assert.equal(afterGet[afterGet.length - 1].returnData, '0x' + (8).toString(16).padStart(64, '0'));
  const plain = await trace(undefined, { disableStack: true }, caller, C.caller, 'callSet', [storage.toString(), 8]);
  assert.ok(plain.structLogs.every((l: any) => l.returnData === undefined));
});

test('struct logger: gas figures are JSON numbers, exact past 2^53 (a bigint the server writes bare)', async () => {
  const t = createTracer(undefined, {}) as Tracer;
  t.attach(evm);
  await evm.runCall({ caller: sender, to: storage, data: hexToBytes(iface(C.storage).encodeFunctionData('get') as `0x${string}`), gasLimit: 2n ** 63n - 1n });
  t.detach();
  const r = t.result() as any;
  assert.equal(r.structLogs[0].gas, 2n ** 63n - 1n);
  assert.equal(typeof r.structLogs[0].gasCost, 'number');
  const text = toJSON(r);
  assert.match(text, /^\{"gas":\d+,"failed":false,"returnValue":"[0-9a-f]{64}","structLogs":\[\{"pc":0,"op":"PUSH1","gas":9223372036854775807,"gasCost":3,"depth":1,/);
});

test('txStart / txEnd set the top-level gas figures', async () => {
  const t = createTracer('callTracer', {}) as Tracer;
  t.attach(evm);
  t.txStart(50_000n);
  await evm.runCall({ caller: sender, to: storage, data: hexToBytes(iface(C.storage).encodeFunctionData('get') as `0x${string}`), gasLimit: 50_000n });
  t.txEnd(23_456n);
  t.detach();
  const r = t.result() as any;
  assert.equal(r.gas, '0xc350');
  assert.equal(r.gasUsed, '0x5ba0');
});

test('noop and 4byte tracers', async () => {
  assert.deepEqual(await trace('noopTracer', {}, storage, C.storage, 'get'), {});
  const r = await trace('4byteTracer', {}, caller, C.caller, 'callSet', [storage.toString(), 1]);
  const sel = (c: Compiled, f: string) => iface(c).getFunction(f)!.selector;
  assert.deepEqual(r, { [`${sel(C.caller, 'callSet')}-64`]: 1, [`${sel(C.storage, 'get')}-0`]: 1, [`${sel(C.storage, 'set')}-32`]: 1 });
  // Their constructors ignore the config (`_ json.RawMessage`), whatever JSON it is.
  for (const tracerConfig of [5, 'x', [1], true, { onlyTopCall: 'yes' }]) {
    assert.deepEqual(await trace('noopTracer', { tracerConfig }, storage, C.storage, 'get'), {}, JSON.stringify(tracerConfig));
    assert.deepEqual(await trace('4byteTracer', { tracerConfig }, caller, C.caller, 'callSet', [storage.toString(), 1]), r, JSON.stringify(tracerConfig));
  }
});

test('bad tracer names and configs give geth errors', () => {
  const err = (f: () => unknown, message: string) =>
    assert.throws(f, (e: unknown) => e instanceof RpcError && e.code === -32000 && e.message === message);
  err(() => createTracer('fooTracer', {}), 'ReferenceError: fooTracer is not defined at <eval>:1:1(0)');
  err(() => createTracer('callTracer', { tracerConfig: { onlyTopCall: 'yes' } }), 'json: cannot unmarshal string into Go struct field callTracerConfig.onlyTopCall of type bool');
  err(() => createTracer(undefined, { enableMemory: 1 }), 'json: cannot unmarshal number into Go struct field Config.enableMemory of type bool');
  err(() => createTracer('callTracer', { tracerConfig: 5 }), 'json: cannot unmarshal number into Go value of type native.callTracerConfig');
});

test('unpackRevert', () => {
  const enc = new Interface(['error Error(string)', 'error Panic(uint256)']);
  assert.equal(unpackRevert(hexToBytes(enc.encodeErrorResult('Error', ['ERC20: transfer amount exceeds balance']) as `0x${string}`)), 'ERC20: transfer amount exceeds balance');
  assert.equal(unpackRevert(hexToBytes(enc.encodeErrorResult('Panic', [0x11]) as `0x${string}`)), 'arithmetic underflow or overflow');
  assert.equal(unpackRevert(hexToBytes(enc.encodeErrorResult('Panic', [0x99]) as `0x${string}`)), 'unknown panic code: 0x99');
  assert.equal(unpackRevert(hexToBytes('0x12345678')), undefined);
  assert.equal(unpackRevert(hexToBytes('0x08c379a0ff')), undefined);
  assert.equal(revertMessage(new Uint8Array(0)), 'execution reverted');
});

test("anvilRevertReason: foundry's RevertDecoder order (Anvil's evm_mine_detailed revertReason)", () => {
  const enc = new Interface(['error Error(string)', 'error Panic(uint256)', 'error Denied(address)']);
  const r = (hex: string) => anvilRevertReason(hexToBytes(hex as `0x${string}`));
  assert.equal(r('0x'), undefined);
  assert.equal(r('0xab01'), 'custom error bytes 0xab01');
  assert.equal(r(enc.encodeErrorResult('Error', ['nope'])), 'nope');
  assert.equal(r(enc.encodeErrorResult('Panic', [0x12])), 'panic: division or modulo by zero (0x12)');
  assert.equal(r(enc.encodeErrorResult('Panic', [0x99])), 'panic: unknown code (0x99)');
  // A bare ABI-encoded string, then plain UTF-8 text.
  assert.equal(r('0x' + '20'.padStart(64, '0') + '2'.padStart(64, '0') + '6869'.padEnd(64, '0')), 'hi');
  assert.equal(r('0x' + Buffer.from('out of luck').toString('hex')), 'out of luck');
  // A custom error: its selector, then the rest as text when it is UTF-8, else as hex.
  const denied = enc.encodeErrorResult('Denied', ['0x00000000000000000000000000000000000000ff']);
  assert.equal(r(denied), `custom error ${denied.slice(0, 10)}: ${'00'.repeat(31)}ff`);
  assert.equal(r('0xcb362b34'), 'custom error 0xcb362b34');
});
