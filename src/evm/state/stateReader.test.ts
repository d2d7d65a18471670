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
import { NOT_NOW } from './readsNow.js';


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

test('a call state\'s reads without a promise answer what getAccount and getCode resolve to, or NOT_NOW', async () => {
  const holder = new Address(Buffer.alloc(20, 0x42));
  const { common, store, root } = await stateWith(holder, new Account(3n, 9n), [[1, 5]]);
  const code = Uint8Array.of(0x60, 0x01, 0x60, 0x00, 0x55, 0x00);
  const withCode = new Address(Buffer.alloc(20, 0x44));
  const cs = new CallState(store.reader(common, root));
  const nobody = new Address(Buffer.alloc(20, 0x43));

  // The reader's base state answers at once here (memdb): the same account as getAccount, a copy each time.
  const now = cs.getAccountNow(holder);
  assert.ok(now !== NOT_NOW && now !== undefined);
  assert.deepEqual(now.serialize(), (await cs.getAccount(holder))!.serialize());
  assert.notEqual(cs.getAccountNow(holder), cs.getAccountNow(holder), 'each read is a copy');
  (cs.getAccountNow(holder) as Account).balance = 1n;
  assert.equal((await cs.getAccount(holder))!.balance, 9n, 'changing the copy changes nothing');
  // An absence the base state cannot tell at once is NOT_NOW until the reader has read it.
  const first = cs.getAccountNow(nobody);
  assert.ok(first === undefined || first === NOT_NOW);
  assert.equal(await cs.getAccount(nobody), undefined);
  assert.equal(cs.getAccountNow(nobody), undefined, 'once read, held');
  assert.deepEqual(cs.getCodeNow(nobody), new Uint8Array(0));
  assert.deepEqual(cs.getCodeNow(holder), new Uint8Array(0), "an account without code");

  // The run's own writes are what both see; a revert takes them back for both.
  await cs.checkpoint();
  await cs.putCode(withCode, code);
  assert.equal(cs.getCodeNow(withCode), await cs.getCode(withCode), 'the very array getCode gives');
  assert.equal((cs.getAccountNow(withCode) as Account).isContract(), true);
  await cs.revert();
  assert.equal(cs.getAccountNow(withCode), undefined);
  assert.deepEqual(cs.getCodeNow(withCode), new Uint8Array(0));

  // Code of the state itself: NOT_NOW until the reader has read it, then getCode's own array.
  const { store: store2, root: root2 } = await stateWith(withCode, new Account(0n, 0n), []);
  const live = store2.live(common, root2);
  await live.checkpoint();
  await live.putCode(withCode, code);
  await live.commit();
  const root3 = await live.getStateRoot();
  await store2.nodes.takeBatch();
  const cs2 = new CallState(store2.reader(common, root3));
  assert.equal(cs2.getCodeNow(withCode), NOT_NOW);
  const read = await cs2.getCode(withCode);
  assert.deepEqual(read, code);
  assert.equal(cs2.getCodeNow(withCode), read);
  assert.equal(new CallState(store2.reader(common, root3)).getCodeNow(withCode), read, 'another view of the same root shares the reader');
});
