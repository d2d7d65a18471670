// makeVM: a VM made for one call, estimate or trace must not stay reachable from the chain's
// shared Common (each EVM subscribes to its Common's hardforkChanged; see exec.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { hexToBytes } from '@ethereumjs/util';
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
