// StateReader (the per-root cache eth_call reads through): what it remembers, and that a stream of
// calls reading ever new slots (a new holder per balanceOf) leaves a bounded amount behind — the
// absent slots stay out of the shared flat cache, and the reader starts over at its bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Account, Address } from '@ethereumjs/util';
import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { StateStore } from './state.js';
import { memStore } from './testStore.js';


const slotKey = (i: number) => {
  const b = Buffer.alloc(32);
  b.writeUInt32BE(i, 28);
  return b;
};
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

test('a state reader keeps the absent slots it reads to itself, within its bound, and reads the same after starting over', async () => {
  const common = createCustomCommon({ chainId: 43210 }, Mainnet, { hardfork: 'cancun' });
  const store = new StateStore(memStore());
  const EMPTY = Buffer.from('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421', 'hex');
  const live = store.live(common, EMPTY);
  const token = new Address(Buffer.alloc(20, 0x77));
  await live.checkpoint();
  await live.putAccount(token, new Account(0n, 1n));
  await live.putStorage(token, slotKey(1), Uint8Array.of(5));
  await live.putStorage(token, slotKey(2), Uint8Array.of(6));
  await live.commit();
  const root = await live.getStateRoot();
  await store.nodes.takeBatch();

  const reader = store.reader(common, root);
  const storageRoot = (await reader.account(token, hex(token.bytes)))!.storageRoot;
  assert.deepEqual(await reader.slot(storageRoot, slotKey(1)), Uint8Array.of(5));
  // A value found is shared with every other view of this storage root.
  assert.notEqual(store.flat.get(hex(storageRoot), hex(slotKey(1))), undefined);

  // 40,000 slots never written: each reads empty; none lands in the flat cache.
  for (let i = 1000; i < 41_000; i++) assert.equal((await reader.slot(storageRoot, slotKey(i))).length, 0);
  for (const i of [1000, 20_000, 40_999]) assert.equal(store.flat.get(hex(storageRoot), hex(slotKey(i))), undefined, `slot ${i}`);
  const kept = (reader as unknown as { slots: Map<string, Uint8Array> }).slots.size;
  assert.ok(kept > 0 && kept <= 16_384, `the reader holds ${kept} slots`);

  // After starting over (at least once above) it still reads what the state holds.
  assert.deepEqual(await reader.slot(storageRoot, slotKey(2)), Uint8Array.of(6));
  assert.deepEqual(await reader.slot(storageRoot, slotKey(1)), Uint8Array.of(5));
  assert.equal((await reader.slot(storageRoot, slotKey(1000))).length, 0);
});
