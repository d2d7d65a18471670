// What tracers show of memory: every word the frame paid for, zeros past what the store holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM } from '@ethereumjs/evm';
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { memoryWords } from './evmMemory.js';
import { toJSON } from './rpc/server.js';
import { createTracer, type Tracer } from './tracers/index.js';
import { asm, call, sender } from '../../test/traceCases.js';

test('memoryWords: a view of the store when it holds the words, else a zero-padded copy', () => {
  const store = new Uint8Array(64).fill(7);
  const view = memoryWords(store, 1n);
  assert.equal(view.length, 32);
  assert.equal(view.buffer, store.buffer, 'a view, not a copy');
  assert.equal(memoryWords(store, 2).length, 64);
  const padded = memoryWords(store, 3n);
  assert.equal(padded.length, 96);
  assert.notEqual(padded.buffer, store.buffer);
  assert.deepEqual([...padded.subarray(0, 64)], [...store]);
  assert.deepEqual([...padded.subarray(64)], new Array(32).fill(0));
  assert.equal(memoryWords(new Uint8Array(0), 0n).length, 0);
});

test('struct logger: memory a CALL paid for its output but never got is shown, as zeros, to its full size', async () => {
  // A CALL to an account without code whose output area starts at 0x3000 (past the package's
  // first 8 KiB store): the call returns nothing, so memory is paid for up to 0x3020 and never
  // written there. geth shows the memory at its paid size (385 words) in the next steps.
  const caller = createAddressFromString('0x' + 'c0'.repeat(20));
  const empty = createAddressFromString('0x' + 'e0'.repeat(20));
  const code = asm(0x2a, 0, 'MSTORE', ...call('CALL', 0xffff, empty, [0, 0, 0x3000, 0x20], 0), 'POP', 'STOP');
  const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Cancun }) });
  await evm.stateManager.putAccount(sender, new Account(0n, 10n ** 18n));
  await evm.stateManager.putCode(caller, hexToBytes(`0x${code}`));
  const t = createTracer(undefined, { enableMemory: true }) as Tracer;
  t.attach(evm as never);
  try {
    const r = await evm.runCall({ caller: sender, to: caller, gasLimit: 1_000_000n });
    assert.equal(r.execResult.exceptionError, undefined);
  } finally {
    t.detach();
  }
  const logs = (JSON.parse(toJSON(t.result())) as { structLogs: { op: string; memory?: string[] }[] }).structLogs;
  const stop = logs.find((l) => l.op === 'STOP')!;
  assert.equal(stop.memory!.length, 0x3020 / 32, 'every word paid for');
  assert.equal(stop.memory![0], '0'.repeat(62) + '2a');
  assert.ok(stop.memory!.slice(1).every((w) => w === '0'.repeat(64)));
  const pop = logs.find((l) => l.op === 'POP')!;
  assert.equal(pop.memory!.length, 0x3020 / 32, 'right after the CALL too');
});
