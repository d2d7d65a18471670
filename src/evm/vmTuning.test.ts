// vmTuning's speed-ups must answer exactly what the code they replace answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import './vmTuning.js';

test('isActivatedEIP: the table answers as the array it stands for, across hardfork and EIP changes', () => {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Chainstart });
  const list = () => (common as unknown as { _activatedEIPsCache: number[] })._activatedEIPsCache;
  const agree = (label: string) => {
    for (let eip = 0; eip < 8200; eip++) assert.equal(common.isActivatedEIP(eip), list().includes(eip), `${label}: EIP-${eip}`);
    // Past the table's end and not an index at all: not activated, as `includes` says.
    for (const eip of [-1, 1.5, 2929.5, 1e9, NaN, Infinity]) assert.equal(common.isActivatedEIP(eip), list().includes(eip), `${label}: ${eip}`);
  };
  assert.equal((common.isActivatedEIP as { powderTable?: boolean }).powderTable, true, 'the patch is installed');
  agree('chainstart');
  for (const hf of [Hardfork.Berlin, Hardfork.London, Hardfork.Shanghai, Hardfork.Cancun, Hardfork.Berlin]) {
    common.setHardfork(hf);
    agree(hf);
  }
  assert.equal(common.isActivatedEIP(2929), true);
  assert.equal(common.isActivatedEIP(1559), false, 'back at Berlin, London is off again');
  common.setEIPs([3855]);
  assert.equal(common.isActivatedEIP(3855), true, 'an EIP set on its own is seen');
  agree('berlin + 3855');
  // A copy has its own array, and its own answers.
  const copy = common.copy();
  copy.setHardfork(Hardfork.Cancun);
  assert.equal(copy.isActivatedEIP(4844), true);
  assert.equal(common.isActivatedEIP(4844), false);
});

test('param and consensusType: the memos answer as the package does, across hardfork and EIP changes and copies', async () => {
  const { originalCommonMethods } = await import('./vmTuning.js');
  const { paramsEVM } = await import('@ethereumjs/evm');
  // (The EVM's parameters, as an EVM gives its Common.)
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Chainstart, params: paramsEVM });
  const names = () => Object.keys((common as unknown as { _paramsCache: object })._paramsCache);
  const agree = (c: Common, label: string) => {
    assert.equal(c.consensusType(), originalCommonMethods.consensusType.call(c as never), `${label}: consensusType`);
    for (const name of names()) assert.equal(c.param(name), originalCommonMethods.param.call(c as never, name), `${label}: ${name}`);
    assert.throws(() => c.param('noSuchParam'), /Missing parameter value for noSuchParam/);
    assert.throws(() => c.param('noSuchParam'), /Missing parameter value for noSuchParam/, 'a missing parameter throws again');
  };
  assert.equal((common.param as { powderMemo?: boolean }).powderMemo, true, 'the memo is installed');
  agree(common, 'chainstart');
  for (const hf of [Hardfork.Berlin, Hardfork.London, Hardfork.Paris, Hardfork.Cancun, Hardfork.Berlin]) {
    common.setHardfork(hf);
    agree(common, hf);
  }
  assert.equal(common.param('coldsloadGas'), 2100n);
  common.setHardfork(Hardfork.London);
  assert.equal(common.consensusType(), 'pow');
  common.setHardfork(Hardfork.Paris);
  assert.equal(common.consensusType(), 'pos', 'the Merge changes the consensus type');
  common.setEIPs([3855]);
  agree(common, 'paris + 3855');
  const copy = common.copy();
  copy.setHardfork(Hardfork.Cancun);
  agree(copy, 'a copy at cancun');
  assert.equal(copy.param('tstoreGas'), 100n);
  assert.throws(() => common.param('tstoreGas'), /Missing parameter/, 'the original stays at paris');
});

test('runInterpreter override: every frame result is the one the package method gives (returns, reverts, errors, storage and logs, nested calls, creates)', async () => {
  const { EVM } = await import('@ethereumjs/evm');
  const { createEVM } = await import('@ethereumjs/evm');
  const { createAddressFromString, hexToBytes } = await import('@ethereumjs/util');
  const { originalRunInterpreter } = await import('./vmTuning.js');
  const proto = EVM.prototype as unknown as { runInterpreter: unknown };
  const fast = proto.runInterpreter;
  assert.notEqual(fast, originalRunInterpreter, 'the override is installed');
  const A = createAddressFromString('0x' + 'aa'.repeat(20));
  const B = createAddressFromString('0x' + 'bb'.repeat(20));
  const storeAndLog = '6001600055' + '60006000a0' + '00'; // SSTORE(0, 1); LOG0(0, 0); STOP
  // CALL(gas 0xffff, B, 0, 0, 0, 0, 0), then RETURN the call's success word.
  const callB = '6000600060006000600073' + 'bb'.repeat(20) + '61fffff1' + '60005260206000f3';
  const cases: [string, { to?: typeof A; data?: string; code?: string; gasLimit?: bigint }][] = [
    ['return', { code: '602a60005260206000f3' }],
    ['revert', { code: '602a60005260206000fd' }],
    ['invalid opcode', { code: 'fe' }],
    ['out of gas', { code: '5b600056', gasLimit: 10_000n }],
    ['storage and log', { code: storeAndLog }],
    ['nested call', { code: callB }],
    ['create', { data: '602a60005260206000f3' }],
  ];
  const run = async (method: unknown, c: (typeof cases)[number][1]) => {
    proto.runInterpreter = method;
    try {
      const common = new Common({ chain: Mainnet, hardfork: Hardfork.Cancun });
      const evm = await createEVM({ common });
      await evm.stateManager.putCode(B, hexToBytes(`0x${storeAndLog}`));
      if (c.code) await evm.stateManager.putCode(A, hexToBytes(`0x${c.code}`));
      return await evm.runCall({ to: c.code ? A : undefined, data: c.data ? hexToBytes(`0x${c.data}`) : undefined, gasLimit: c.gasLimit ?? 1_000_000n });
    } finally {
      proto.runInterpreter = fast;
    }
  };
  const comparable = (v: unknown): unknown =>
    v === null || typeof v !== 'object' || v instanceof Uint8Array || Array.isArray(v) || v instanceof Map || v instanceof Set ? v : `<${v.constructor?.name}>`;
  for (const [name, c] of cases) {
    const want = await run(originalRunInterpreter, c);
    const got = await run(fast, c);
    // An own, enumerable data property (the package's is one), holding the merged view.
    const d = Object.getOwnPropertyDescriptor(got.execResult, 'runState');
    assert.ok(d && 'value' in d && d.enumerable && d.writable, `${name}: runState is a data property`);
    const w = want.execResult as unknown as Record<string, unknown>;
    const g = got.execResult as unknown as Record<string, unknown>;
    assert.deepEqual(Object.keys(g), Object.keys(w), `${name}: result keys`);
    for (const k of Object.keys(w)) if (k !== 'runState') assert.deepEqual(g[k], w[k], `${name}: ${k}`);
    const ws = w.runState as Record<string, unknown>;
    const gs = g.runState as Record<string, unknown>;
    assert.deepEqual(Object.keys(gs), Object.keys(ws), `${name}: runState keys, in order`);
    for (const k of Object.keys(ws)) assert.deepEqual(comparable(gs[k]), comparable(ws[k]), `${name}: runState.${k}`);
    // The merged run state is built on first read; a spread of the result (the package's create
    // path spreads it) still carries it.
    const spread = { ...g } as Record<string, unknown>;
    assert.equal(spread.runState, gs, `${name}: runState through a spread`);
    // The view is the merged object to every reflective operation.
    assert.deepEqual({ ...gs }, Object.fromEntries(Object.keys(ws).map((k) => [k, gs[k]])), `${name}: runState spread`);
    assert.equal(Object.getPrototypeOf(gs), Object.prototype);
    assert.equal('programCounter' in gs, true);
    gs.powderProbe = 1;
    assert.equal(gs.powderProbe, 1);
    assert.equal(delete gs.powderProbe, true);
    assert.equal('powderProbe' in gs, false);
    assert.deepEqual(got.createdAddress, want.createdAddress, `${name}: created address`);
  }
  // Setting runState replaces the merge, as on the package's plain property.
  const set = (await run(fast, cases[0]![1])).execResult as unknown as Record<string, unknown>;
  set.runState = { replaced: true };
  assert.deepEqual(set.runState, { replaced: true });
});

test('step loop override: results, gas, errors and step events as the package loop gives them', async () => {
  const { createEVM } = await import('@ethereumjs/evm');
  const { createAddressFromString, hexToBytes } = await import('@ethereumjs/util');
  const { originalInterpreterSteps, interpreterPrototype } = await import('./vmTuning.js');
  assert.ok(originalInterpreterSteps, 'the step loop override is installed');
  const proto = interpreterPrototype as { run: unknown; runStep: unknown; finish: unknown };
  const fast = { run: proto.run, runStep: proto.runStep, finish: proto.finish };
  assert.notEqual(fast.finish, originalInterpreterSteps!.finish, 'RETURN ends a fast frame without a throw');
  const A = createAddressFromString('0x' + 'aa'.repeat(20));
  const B = createAddressFromString('0x' + 'bb'.repeat(20));
  const storeAndLog = '6001600055' + '60006000a0' + '00';
  const cases: [string, { code?: string; data?: string; gasLimit?: bigint; callData?: string }][] = [
    ['return', { code: '602a60005260206000f3' }],
    ['revert', { code: '602a60005260206000fd' }],
    ['invalid opcode', { code: '6001fe' }],
    ['undefined opcode', { code: '60010c' }],
    ['stack underflow', { code: '01' }],
    ['stack overflow', { code: '5b5f600056' }], // PUSH0 forever: overflow at 1,025 items
    ['out of gas in a loop', { code: '5b600056', gasLimit: 10_000n }],
    ['out of gas on a constant-gas op', { code: '600160016001', gasLimit: 5n }],
    ['bad jump', { code: '600356' }],
    ['jump into push data', { code: '600456605b00' }],
    ['stop, no jump at all', { code: '6001600201' + '00' }],
    ['async constant-gas op (BLOCKHASH, SELFBALANCE)', { code: '600040' + '47' + '60005260206000f3' }],
    ['calldata and memory', { code: '60003560005260206000f3', callData: '11'.repeat(40) }],
    ['storage and log', { code: storeAndLog }],
    ['nested call', { code: '6000600060006000600073' + 'bb'.repeat(20) + '61fffff1' + '60005260206000f3' }],
    ['create', { data: '602a60005260206000f3' }],
    ['loop with jumps', { code: '600a5b6001900380600257' + '00' }],
    ['out of gas in a gas handler (memory expansion)', { code: '600163ffffffff52' }],
    ['dynamic gas, async handler (SLOAD, BALANCE)', { code: '600054' + '3031' + '0160005260206000f3' }],
    ['dynamic gas in a loop (MSTORE, MLOAD, KECCAK256)', { code: '60205b80518152602060002080600052600190038060025700' }],
    // GAS reads the exact gasLeft after constant-gas steps, after a dynamic one and after a call
    // gave gas back; the out-of-gas step is the same with the gas just enough, one short, and short
    // by more; a frame that runs off its code's end has paid for every step.
    ['GAS after constant-gas steps', { code: '6001600160015a60005260206000f3' }],
    ['GAS after a dynamic step', { code: '600160005260015a60205260406000f3' }],
    ['GAS after a nested call', { code: '6000600060006000600073' + 'bb'.repeat(20) + '61fffff1' + '5a' + '60005260206000f3' }],
    ['constant-gas steps to the end of the code (no STOP)', { code: '6001600101' }],
    ['constant gas just enough', { code: '6001'.repeat(10) + '00', gasLimit: 30n }],
    ['constant gas one short', { code: '6001'.repeat(10) + '00', gasLimit: 29n }],
    ['constant gas short mid-way', { code: '6001'.repeat(10) + '00', gasLimit: 23n }],
    ['constant gas, then a dynamic step short of gas', { code: '6001'.repeat(5) + '600052' + '00', gasLimit: 20n }],
    ['constant gas, then a dynamic step with just enough', { code: '6001'.repeat(5) + '600052' + '00', gasLimit: 27n }],
  ];
  const run = async (methods: { run: unknown; runStep: unknown; finish: unknown }, c: (typeof cases)[number][1], trace: boolean) => {
    Object.assign(proto, methods);
    try {
      const common = new Common({ chain: Mainnet, hardfork: Hardfork.Cancun });
      const evm = await createEVM({ common });
      const steps: unknown[] = [];
      if (trace) evm.events!.on('step', (s: { pc: number; opcode: { name: string }; gasLeft: bigint; stack: bigint[]; depth: number }, resolve?: () => void) => {
        steps.push([s.pc, s.opcode.name, s.gasLeft, s.stack.length, s.depth]);
        resolve?.();
      });
      await evm.stateManager.putCode(B, hexToBytes(`0x${storeAndLog}`));
      if (c.code) await evm.stateManager.putCode(A, hexToBytes(`0x${c.code}`));
      const res = await evm.runCall({
        to: c.code ? A : undefined,
        data: c.data ? hexToBytes(`0x${c.data}`) : c.callData ? hexToBytes(`0x${c.callData}`) : undefined,
        gasLimit: c.gasLimit ?? 1_000_000n,
      });
      return { res, steps };
    } finally {
      Object.assign(proto, fast);
    }
  };
  for (const trace of [false, true]) {
    for (const [name, c] of cases) {
      const want = await run(originalInterpreterSteps!, c, trace);
      const got = await run(fast, c, trace);
      const label = `${name}${trace ? ' (traced)' : ''}`;
      const w = want.res.execResult as unknown as Record<string, unknown>;
      const g = got.res.execResult as unknown as Record<string, unknown>;
      for (const k of ['executionGasUsed', 'returnValue', 'logs', 'gasRefund', 'createdAddresses', 'selfdestruct']) {
        assert.deepEqual(g[k], w[k], `${label}: ${k}`);
      }
      // The same error, which this loop gives geth's text where the package's message lacks what
      // geth names (the stack's length, an undefined opcode's byte).
      const { gethText, ...gotError } = (g.exceptionError ?? {}) as { gethText?: string };
      assert.deepEqual(g.exceptionError && gotError, w.exceptionError && { ...(w.exceptionError as object) }, `${label}: exceptionError`);
      const texts: Record<string, string> = { 'invalid opcode': 'invalid opcode: INVALID', 'undefined opcode': 'invalid opcode: opcode 0xc not defined', 'stack underflow': 'stack underflow (0 <=> 2)' };
      assert.equal(gethText, texts[name], `${label}: geth's text`);
      assert.deepEqual((g.runState as { programCounter: number }).programCounter, (w.runState as { programCounter: number }).programCounter, `${label}: pc`);
      assert.deepEqual((g.runState as { stack: unknown }).stack, (w.runState as { stack: unknown }).stack, `${label}: stack`);
      assert.deepEqual(got.res.createdAddress, want.res.createdAddress, `${label}: created address`);
      assert.deepEqual(got.steps, want.steps, `${label}: step events`);
      if (trace) assert.ok(want.steps.length > 0, `${label}: traced`);
    }
  }
});

test('opcode tables: EVMs of one Common share one table, equal to the one the package builds; a hooked EVM runs on a copy no other EVM sees', async () => {
  const { createEVM } = await import('@ethereumjs/evm');
  const { createAddressFromString, hexToBytes } = await import('@ethereumjs/util');
  const { originalGetActiveOpcodes } = await import('./opcodeTables.js');
  const { hookOpcodes } = await import('./opcodeHooks.js');
  type Tables = { _opcodeMap: unknown[]; _opcodes: Map<number, unknown>; _dynamicGasHandlers: Map<number, unknown>; _handlers: Map<number, unknown>; common: Common };
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Cancun });
  const a = (await createEVM({ common })) as unknown as Tables;
  const b = (await createEVM({ common })) as unknown as Tables;
  assert.equal(a._opcodeMap, b._opcodeMap, 'one table per Common');
  assert.equal(a._handlers, b._handlers);
  // The package's own table for that Common holds the same opcodes, handlers and gas handlers,
  // but for the memory opcodes' gas handlers and RETURNDATACOPY's handler (gethHalts.ts).
  const own = (await createEVM({ common })) as unknown as Tables;
  originalGetActiveOpcodes.call(own);
  const { GETH_HALT_OPCODES } = await import('./gethHalts.js');
  const strip = (m: Map<number, unknown>) => [...m.entries()].filter(([c]) => !GETH_HALT_OPCODES.has(c));
  assert.notEqual(own._opcodeMap, a._opcodeMap);
  assert.deepEqual([...own._opcodes.keys()], [...a._opcodes.keys()]);
  assert.deepEqual(strip(own._handlers), strip(a._handlers));
  assert.deepEqual(strip(own._dynamicGasHandlers), strip(a._dynamicGasHandlers));
  assert.equal(own._opcodeMap.length, a._opcodeMap.length);
  own._opcodeMap.forEach((e, i) => {
    type Entry = { opcodeInfo: unknown; opHandler: unknown; gasHandler: unknown };
    const [o, s] = [e as Entry, a._opcodeMap[i] as Entry];
    if (o.opcodeInfo === (own._opcodeMap[0xfe] as Entry).opcodeInfo && i !== 0xfe) {
      // An undefined opcode: INVALID's entry with its own byte.
      assert.deepEqual({ ...(s.opcodeInfo as object), code: 0xfe }, { ...(o.opcodeInfo as object) }, `opcode ${i}`);
      assert.equal((s.opcodeInfo as { code: number }).code, i);
      return assert.equal(s.opHandler, o.opHandler);
    }
    if (!GETH_HALT_OPCODES.has(i)) return assert.deepEqual(o, s, `opcode ${i}`);
    assert.deepEqual(o.opcodeInfo, s.opcodeInfo, `opcode ${i}`);
    assert.notEqual(o.gasHandler, s.gasHandler, `opcode ${i}: geth's memory-size check`);
    assert.equal(s.gasHandler, a._dynamicGasHandlers.get(i));
    assert.equal(s.opHandler, a._handlers.get(i));
    if (i === 0x3e) assert.notEqual(o.opHandler, s.opHandler, 'RETURNDATACOPY: its bounds checked in the opcode');
    else assert.equal(o.opHandler, s.opHandler, `opcode ${i}`);
  });
  // Another hardfork's Common gets its own table (PUSH0 exists from Shanghai on).
  const london = (await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.London }) })) as unknown as Tables;
  assert.notEqual(london._opcodeMap, a._opcodeMap);
  assert.equal(london._opcodes.has(0x5f), false);
  assert.equal(a._opcodes.has(0x5f), true);

  // SLOAD hooked on `a` only: `b` runs the same code unhooked, on the shared table, meanwhile.
  const code = hexToBytes('0x60015460005260206000f3'); // SLOAD(1), return it
  const to = createAddressFromString('0x' + 'cc'.repeat(20));
  for (const evm of [a, b] as unknown as { stateManager: { putCode(a: unknown, c: Uint8Array): Promise<void> } }[]) await evm.stateManager.putCode(to, code);
  const shared = a._opcodeMap;
  const heard: number[] = [];
  const restore = hookOpcodes(a, [0x54], { before: (c) => heard.push(c) });
  assert.notEqual(a._opcodeMap, shared, 'the hooked EVM runs on a copy');
  assert.equal(b._opcodeMap, shared);
  const run = (evm: unknown) => (evm as { runCall(o: object): Promise<{ execResult: { exceptionError?: unknown } }> }).runCall({ to, gasLimit: 100_000n });
  assert.equal((await run(b)).execResult.exceptionError, undefined);
  assert.deepEqual(heard, [], 'an unhooked EVM of the same Common hears nothing');
  assert.equal((await run(a)).execResult.exceptionError, undefined);
  assert.deepEqual(heard, [0x54]);
  restore();
  assert.equal(a._opcodeMap, shared, 'restore gives the shared table back');
  await run(a);
  assert.deepEqual(heard, [0x54], 'nothing heard after restore');
});
