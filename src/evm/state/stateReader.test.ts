// StateReader (the per-root cache eth_call reads through): what it remembers, and that a stream of
// calls reading ever new slots (a new holder per balanceOf) leaves nothing behind — the absent
// slots stay out of the shared flat cache and out of the reader — and the reader starts over at
// its bound. And
// CallState over it keeps the promise contract of a state manager without being async.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Account, Address } from '@ethereumjs/util';
import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { StateStore } from './state.js';
import { CallState } from './callState.js';
import { memStore } from './testStore.js';


const slotKey = (i: number) => {
  const b = Buffer.alloc(32);
  b.writeUInt32BE(i, 28);
  return b;
};
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** A state store holding one account with the given slots (each a one-byte value), committed. */
async function stateWith(address: Address, account: Account, slots: [number, number][]) {
  const common = createCustomCommon({ chainId: 43210 }, Mainnet, { hardfork: 'cancun' });
  const store = new StateStore(memStore());
  const EMPTY = Buffer.from('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421', 'hex');
  const live = store.live(common, EMPTY);
  await live.checkpoint();
  await live.putAccount(address, account);
  for (const [slot, value] of slots) await live.putStorage(address, slotKey(slot), Uint8Array.of(value));
  await live.commit();
  const root = await live.getStateRoot();
  await store.nodes.takeBatch();
  return { common, store, root };
}

test('a state reader keeps the values it reads, not the absences, within its bound, and reads the same after starting over', async () => {
  const token = new Address(Buffer.alloc(20, 0x77));
  // Enough slots holding a value to pass the reader's bound (16,384 entries).
  const held: [number, number][] = [[1, 5], [2, 6]];
  for (let i = 100_000; i < 116_500; i++) held.push([i, 1 + (i % 200)]);
  const { common, store, root } = await stateWith(token, new Account(0n, 1n), held);
  // (Kept by storage root, then by slot: the count is the reader's own.)
  const slots = () => (reader as unknown as { slotCount: number }).slotCount;

  const reader = store.reader(common, root);
  const storageRoot = (await reader.account(token, hex(token.bytes)))!.storageRoot;
  assert.deepEqual(await reader.slot(storageRoot, slotKey(1)), Uint8Array.of(5));
  // A value found is shared with every other view of this storage root.
  assert.notEqual(store.flat.get(hex(storageRoot), hex(slotKey(1))), undefined);

  // 40,000 slots never written: each reads empty; none is kept, here or in the flat cache.
  for (let i = 1000; i < 41_000; i++) assert.equal((await reader.slot(storageRoot, slotKey(i))).length, 0);
  for (const i of [1000, 20_000, 40_999]) assert.equal(store.flat.get(hex(storageRoot), hex(slotKey(i))), undefined, `slot ${i}`);
  assert.equal(slots(), 1, 'only the value read is kept');

  // The values read are kept up to the bound, then the reader starts over.
  for (let i = 100_000; i < 116_500; i++) assert.deepEqual(await reader.slot(storageRoot, slotKey(i)), Uint8Array.of(1 + (i % 200)));
  assert.ok(slots() > 0 && slots() <= 16_384, `the reader holds ${slots()} slots`);

  // After starting over it still reads what the state holds.
  assert.deepEqual(await reader.slot(storageRoot, slotKey(2)), Uint8Array.of(6));
  assert.deepEqual(await reader.slot(storageRoot, slotKey(1)), Uint8Array.of(5));
  assert.equal((await reader.slot(storageRoot, slotKey(1000))).length, 0);
});

test('a call state answers with promises: what it holds comes back settled, bad input as a rejection, never a throw', async () => {
  const holder = new Address(Buffer.alloc(20, 0x42));
  const { common, store, root } = await stateWith(holder, new Account(3n, 9n), [[1, 5]]);

  const cs = new CallState(store.reader(common, root));
  // Every method hands back a promise (a caller may chain on it), whether it had to read or not.
  const first = cs.getAccount(holder);
  assert.ok(first instanceof Promise);
  assert.equal((await first)!.balance, 9n);
  const again = cs.getAccount(holder);
  assert.ok(again instanceof Promise);
  assert.equal((await again)!.nonce, 3n);
  assert.notEqual(await cs.getAccount(holder), await cs.getAccount(holder), 'each read is a copy');
  assert.deepEqual(await cs.getStorage(holder, slotKey(1)), Uint8Array.of(5));
  assert.equal(await cs.getAccount(new Address(Buffer.alloc(20, 0x43))), undefined);

  // Writes are undone by a revert, kept by a commit, and each answers with a promise.
  const cp = cs.checkpoint();
  assert.ok(cp instanceof Promise);
  await cp;
  await cs.putStorage(holder, slotKey(1), Uint8Array.of(7));
  await cs.putAccount(holder, new Account(4n, 10n));
  assert.deepEqual(await cs.getStorage(holder, slotKey(1)), Uint8Array.of(7));
  await cs.revert();
  assert.deepEqual(await cs.getStorage(holder, slotKey(1)), Uint8Array.of(5));
  assert.equal((await cs.getAccount(holder))!.nonce, 3n);

  // Bad input and misuse reject (as the async functions they replace did) instead of throwing.
  const badKey = cs.getStorage(holder, Uint8Array.of(1));
  assert.ok(badKey instanceof Promise);
  await assert.rejects(badKey, /Storage key must be 32 bytes long/);
  await assert.rejects(cs.putStorage(holder, Uint8Array.of(1), Uint8Array.of(1)), /Storage key must be 32 bytes long/);
  await assert.rejects(cs.commit(), /commit without a checkpoint/);
  await assert.rejects(cs.revert(), /revert without a checkpoint/);
});
