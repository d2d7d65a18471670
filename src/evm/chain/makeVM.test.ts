// makeVM: a VM made for one call, estimate or trace must not stay reachable from the chain's
// shared Common (each EVM subscribes to its Common's hardforkChanged; see exec.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { Commons } from './common.js';
import { blockHashSource, makeVM } from './exec.js';

test('makeVM leaves no subscription on the shared Common, and its EVM still runs code', async () => {
  const common = new Commons(43210n).get('cancun');
  const listeners = () => common.events.listeners('hardforkChanged').length;
  const before = listeners();
  for (let i = 0; i < 20; i++) {
    const vm = await makeVM(common, new MerkleStateManager({ common }) as never, blockHashSource(() => undefined));
    // PUSH1 0x2a PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: returns 42 as a word.
    const code = await vm.evm.runCode!({ code: hexToBytes('0x602a60005260206000f3'), gasLimit: 100_000n } as never);
    assert.equal(BigInt('0x' + Buffer.from(code.returnValue).toString('hex')), 42n);
  }
  assert.equal(listeners(), before);
});

test('makeVM: the VM\'s and the EVM\'s events still reach listeners added after it, in order, awaited', async () => {
  const common = new Commons(43210n).get('cancun');
  const vm = await makeVM(common, new MerkleStateManager({ common }) as never, blockHashSource(() => undefined));
  const heard: string[] = [];
  // Nobody listens yet: a settled promise, nothing told.
  await (vm as any)._emit('beforeTx', {});
  vm.events.on('beforeTx', () => heard.push('vm sync'));
  vm.events.on('beforeTx', ((_: unknown, done: () => void) => setTimeout(() => (heard.push('vm async'), done()), 5)) as never);
  await (vm as any)._emit('beforeTx', {});
  assert.deepEqual(heard, ['vm sync', 'vm async']);
  const messages: number[] = [];
  vm.evm.events!.on('beforeMessage', ((m: { depth: number }, done: () => void) => (messages.push(m.depth), done())) as never);
  const r = await vm.evm.runCall({ to: createAddressFromString('0x' + '11'.repeat(20)), gasLimit: 100_000n });
  assert.equal(r.execResult.exceptionError, undefined);
  assert.deepEqual(messages, [0]);
});
