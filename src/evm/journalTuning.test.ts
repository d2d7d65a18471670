// journalTuning.ts: the journal's diffs are shared until written, and the EIP-2929 warm sets come
// out of committed and reverted frames as the package's own journal leaves them (the same gas).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM } from '@ethereumjs/evm';
import { createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { journalMatchesCopied, originalJournalMethods, tuneJournal } from './journalTuning.js';

const addr = (b: string) => createAddressFromString('0x' + b.repeat(20));
const A = addr('aa');
const B = addr('bb'); // reads slot 1 and C's balance, then reverts
const B2 = addr('b2'); // the same, then stops
const R = addr('cc'); // calls B2, then reverts
const C = addr('c0');
const call = (to: string) => '6000600060006000600073' + to.repeat(20) + '5af150';
const reads = '600154' + '50' + '73' + 'c0'.repeat(20) + '3150';
const CODES: [typeof A, string][] = [
  [B, reads + '60006000fd'],
  [B2, reads + '00'],
  [R, call('b2') + '60006000fd'],
];
/** A's code for a case: the calls in order, then its own reads of C and of B's slot (through B2). */
const CASES: Record<string, string> = {
  'reverted, then committed, then reverted': call('bb') + call('b2') + call('bb') + '00',
  'committed, then reverted': call('b2') + call('bb') + '00',
  'a committed frame inside a reverted one': call('cc') + call('b2') + call('cc') + '00',
  'reads after the frames': call('bb') + call('cc') + '73' + 'c0'.repeat(20) + '3150' + call('b2') + '00',
};

async function tunedEVM() {
  const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Cancun }) });
  tuneJournal(evm.journal);
  for (const [a, code] of CODES) await evm.stateManager.putCode(a, hexToBytes(`0x${code}`));
  return evm;
}

test('journal tuning: installed over the package\'s journal', async () => {
  const evm = await tunedEVM();
  const proto = Object.getPrototypeOf(evm.journal);
  assert.ok(originalJournalMethods, 'the journal of @ethereumjs/evm is the version copied');
  assert.equal(journalMatchesCopied(Object.assign(Object.create(null), originalJournalMethods)), true);
  assert.notEqual(proto.checkpoint, originalJournalMethods!.checkpoint);
  assert.equal(journalMatchesCopied({ ...originalJournalMethods, commit: async function commit() {} }), false, 'another commit is not replaced');
});

test('journal tuning: diffs are shared until written, and a revert drops what its frame warmed', async () => {
  const evm = await tunedEVM();
  const j = evm.journal as any;
  j.cleanJournal();
  await j.checkpoint();
  await j.checkpoint();
  const shared = j.journalDiff[0][1];
  assert.ok(j.journalDiff.every((e: [number, unknown]) => e[1] === shared), 'three entries, one shared empty diff');
  j.addWarmedStorage(C.bytes, new Uint8Array(32));
  assert.notEqual(j.journalDiff[2][1], shared, 'the written entry has its own diff');
  assert.equal(j.journalDiff[1][1], shared);
  assert.equal(shared[0].size + shared[1].size + shared[2].size, 0, 'nothing went into the shared diff');
  assert.throws(() => shared[0].add('x'), /shared empty journal diff/);
  assert.equal(j.isWarmedStorage(C.bytes, new Uint8Array(32)), true);
  await j.revert();
  assert.equal(j.isWarmedAddress(C.bytes), false);
  assert.equal(j.isWarmedStorage(C.bytes, new Uint8Array(32)), false);
});

test('journal tuning: warm accounts and slots after committed and reverted frames, as the package\'s journal leaves them', async () => {
  const evm = await tunedEVM();
  const proto = Object.getPrototypeOf(evm.journal);
  const tuned = Object.fromEntries(Object.keys(originalJournalMethods!).map((k) => [k, proto[k]]));
  const gasOf = async (code: string) => {
    await evm.stateManager.putCode(A, hexToBytes(`0x${code}`));
    evm.journal.cleanJournal();
    const r = await evm.runCall({ to: A, gasLimit: 1_000_000n });
    assert.equal(r.execResult.exceptionError, undefined);
    return r.execResult.executionGasUsed;
  };
  const seen = new Set<bigint>();
  for (const [name, code] of Object.entries(CASES)) {
    let theirs: bigint;
    try {
      Object.assign(proto, originalJournalMethods);
      theirs = await gasOf(code);
    } finally {
      Object.assign(proto, tuned);
    }
    assert.equal(await gasOf(code), theirs, name);
    seen.add(theirs);
  }
  assert.equal(seen.size, Object.keys(CASES).length, 'each case spends its own gas (the warm sets matter)');
});
