// The state's batched flush against @ethereumjs's own MerkleStateManager: the same state roots
// after blocks of account, storage and code changes (including deletions and cleared storage).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Account, Address, MapDB, ValueEncoding } from '@ethereumjs/util';
import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { StateStore } from './state.js';
import type { FlatStateManager } from './flat.js';
import { memStore } from './testStore.js';


test('batched flush gives the same roots as MerkleStateManager', async () => {
  const common = createCustomCommon({ chainId: 43210 }, Mainnet, { hardfork: 'cancun' });
  const store = new StateStore(memStore());
  const EMPTY = Buffer.from('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421', 'hex');
  const live = store.live(common, EMPTY);
  const ref = new MerkleStateManager({
    common,
    trie: new MerklePatriciaTrie({ db: new MapDB(), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common }),
    caches: new Caches(),
  });
  let seed = 7;
  const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const dead = new Set<string>();
  const addrs = Array.from({ length: 12 }, (_, i) => new Address(Buffer.alloc(20, i + 1)));
  for (let block = 0; block < 80; block++) {
    for (const sm of [live, ref]) await sm.checkpoint();
    const ops = 1 + Math.floor(rand() * 6);
    for (let i = 0; i < ops; i++) {
      const a = addrs[Math.floor(rand() * addrs.length)];
      const r = rand();
      // A deleted account is not touched again: MerkleStateManager itself then brings back the old
      // storage root of a re-created account, which no EVM path does.
      if (dead.has(a.toString())) continue;
      if (r < 0.05) dead.add(a.toString());
      const slot = Buffer.alloc(32, Math.floor(rand() * 5));
      const val = r < 0.15 ? new Uint8Array() : Uint8Array.of(Math.floor(rand() * 255) + 1, 7);
      const bal = BigInt(Math.floor(rand() * 1e9));
      for (const sm of [live, ref]) {
        if (r < 0.05) await sm.deleteAccount(a);
        else if (r < 0.1) await sm.clearStorage(a);
        else if (r < 0.12) await sm.putCode(a, Uint8Array.of(0x60, 0x00, block));
        else if (r < 0.6) {
          const acc = (await sm.getAccount(a)) ?? new Account();
          acc.balance += bal;
          acc.nonce += 1n;
          await sm.putAccount(a, acc);
        } else {
          if (!(await sm.getAccount(a))) await sm.putAccount(a, new Account(0n, 1n));
          await sm.putStorage(a, slot, val);
        }
      }
    }
    for (const sm of [live, ref]) await sm.commit();
    const got = await live.getStateRoot();
    const want = await ref.getStateRoot();
    assert.equal(Buffer.from(got).toString('hex'), Buffer.from(want).toString('hex'), `state root after block ${block}`);
    await store.nodes.takeBatch();
    // A fresh view at the new root reads the same accounts and storage.
    const view = store.view(common, got);
    for (const a of addrs) {
      assert.deepEqual((await view.getAccount(a))?.serialize(), (await ref.getAccount(a))?.serialize());
      assert.deepEqual(await view.getStorage(a, Buffer.alloc(32, 1)), await ref.getStorage(a, Buffer.alloc(32, 1)));
      assert.deepEqual(await view.getCode(a), await ref.getCode(a));
      assert.deepEqual(await store.readOnly(common, got).getCode(a), await ref.getCode(a));
    }
  }
});

test('the block builder\'s state keeps its caches bounded across blocks, and reads the same after they are dropped', async () => {
  const common = createCustomCommon({ chainId: 43210 }, Mainnet, { hardfork: 'cancun' });
  const store = new StateStore(memStore());
  const EMPTY = Buffer.from('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421', 'hex');
  const live = store.live(common, EMPTY, 50) as FlatStateManager;
  const ref = new MerkleStateManager({
    common,
    trie: new MerklePatriciaTrie({ db: new MapDB(), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common }),
    caches: new Caches(),
  });
  const token = new Address(Buffer.alloc(20, 0xee));
  for (const sm of [live, ref]) {
    await sm.checkpoint();
    await sm.putAccount(token, new Account(1n, 0n));
    await sm.putCode(token, Uint8Array.of(0x60, 0x01));
    await sm.commit();
  }
  let largest = 0;
  const addrs: Address[] = [];
  for (let block = 0; block < 12; block++) {
    // Each block: 8 new accounts, and a new slot of the token for each (16 new cache entries).
    for (const sm of [live, ref]) await sm.checkpoint();
    for (let i = 0; i < 8; i++) {
      const a = new Address(Buffer.alloc(20, block * 8 + i + 1));
      if (addrs.length < (block + 1) * 8) addrs.push(a);
      for (const sm of [live, ref]) {
        // The account read first, as the EVM does, so reads fill the caches too.
        const acc = (await sm.getAccount(a)) ?? new Account();
        acc.balance += BigInt(block + 1);
        await sm.putAccount(a, acc);
        await sm.putStorage(token, Buffer.alloc(32, block * 8 + i + 1), Uint8Array.of(block + 1, i + 1));
      }
    }
    for (const sm of [live, ref]) await sm.commit();
    largest = Math.max(largest, live.cacheEntries());
    assert.ok(live.cacheEntries() <= 50, `after block ${block}: ${live.cacheEntries()} cache entries, bound 50`);
    assert.equal(Buffer.from(await live.getStateRoot()).toString('hex'), Buffer.from(await ref.getStateRoot()).toString('hex'), `root after block ${block}`);
    await store.nodes.takeBatch();
  }
  assert.ok(largest > 0, 'the caches were in use between the drops');
  // Everything written reads back the same from the live state after its caches were dropped.
  for (const [i, a] of addrs.entries()) {
    assert.deepEqual((await live.getAccount(a))?.serialize(), (await ref.getAccount(a))?.serialize());
    assert.deepEqual(await live.getStorage(token, Buffer.alloc(32, i + 1)), await ref.getStorage(token, Buffer.alloc(32, i + 1)));
  }
  assert.deepEqual(await live.getCode(token), await ref.getCode(token));
  // Under the default bound (100,000 entries) nothing is dropped.
  const unbounded = store.live(common, EMPTY) as FlatStateManager;
  await unbounded.checkpoint();
  for (let i = 0; i < 60; i++) await unbounded.putAccount(new Address(Buffer.alloc(20, 200 - i)), new Account(0n, 1n));
  await unbounded.commit();
  assert.equal(unbounded.cacheEntries(), 60);
});

test('accountFromRLP: the decoded account, a fresh copy each time (changing one never shows in the next)', async () => {
  const { accountFromRLP } = await import('./flat.js');
  const rlp = new Account(7n, 10n ** 21n, new Uint8Array(32).fill(3), new Uint8Array(32).fill(4)).serialize();
  const a = accountFromRLP(rlp);
  assert.deepEqual(a.serialize(), rlp);
  a.nonce = 8n;
  a.balance = 0n;
  a.storageRoot = new Uint8Array(32);
  const b = accountFromRLP(rlp);
  assert.notEqual(a, b);
  assert.equal(b.nonce, 7n);
  assert.equal(b.balance, 10n ** 21n);
  assert.deepEqual(b.serialize(), rlp);
  assert.equal(b.isContract(), true);
  assert.throws(() => accountFromRLP(Uint8Array.from([0x80])), /Invalid serialized account input/);
});

test('FlatCache stays bounded when every entry is under one root (a new slot per eth_call on an idle chain)', async () => {
  const { FlatCache } = await import('./flat.js');
  const c = new FlatCache(100);
  for (let i = 0; i < 1000; i++) c.set('root', `k${i}`, Uint8Array.of(i & 0xff));
  let held = 0;
  for (let i = 0; i < 1000; i++) if (c.get('root', `k${i}`) !== undefined) held++;
  assert.ok(held <= 100, `${held} entries held`);
  // What was set last is there (a miss only costs a trie walk, but the cache must still serve).
  assert.deepEqual(c.get('root', 'k999'), Uint8Array.of(999 & 0xff));
});

test('checkpoints the trie takes late (at a flush inside them) undo and keep what MerkleStateManager does', async () => {
  const common = createCustomCommon({ chainId: 43210 }, Mainnet, { hardfork: 'cancun' });
  const EMPTY = Buffer.from('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421', 'hex');
  const live = new StateStore(memStore()).live(common, EMPTY) as FlatStateManager;
  const ref = new MerkleStateManager({
    common,
    trie: new MerklePatriciaTrie({ db: new MapDB(), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common }),
    caches: new Caches(),
  });
  const a = new Address(Buffer.alloc(20, 1));
  const b = new Address(Buffer.alloc(20, 2));
  const slot = Buffer.alloc(32, 3);
  const roots = async () => {
    const [x, y] = [await live.getStateRoot(), await ref.getStateRoot()];
    assert.equal(Buffer.from(x).toString('hex'), Buffer.from(y).toString('hex'));
    return Buffer.from(x).toString('hex');
  };
  const both = async (f: (sm: MerkleStateManager) => Promise<unknown>) => {
    for (const sm of [live, ref]) await f(sm);
  };
  await both(async (sm) => {
    await sm.checkpoint();
    await sm.putAccount(a, new Account(1n, 100n));
    await sm.commit();
  });
  const base = await roots();

  // A flush inside two checkpoints (getStateRoot), then the inner one kept and the outer undone.
  await both((sm) => sm.checkpoint());
  await both((sm) => sm.checkpoint());
  await both((sm) => sm.putAccount(b, new Account(0n, 5n)));
  await both((sm) => sm.putStorage(a, slot, Uint8Array.of(9)));
  const inside = await roots();
  assert.notEqual(inside, base);
  await both((sm) => sm.commit());
  await both((sm) => sm.checkpoint()); // a level begun after the flush, with nothing written
  await both((sm) => sm.revert());
  assert.equal(await roots(), inside);
  await both((sm) => sm.revert());
  assert.equal(await roots(), base);
  // What reads give after that is MerkleStateManager's (its caches' revert), whatever it is.
  assert.deepEqual(await live.getAccount(b), await ref.getAccount(b));
  assert.deepEqual(await live.getStorage(a, slot), await ref.getStorage(a, slot));

  // The same writes kept: a flush inside, more writes, then both levels committed.
  await both((sm) => sm.checkpoint());
  await both((sm) => sm.putAccount(b, new Account(0n, 5n)));
  await roots();
  await both((sm) => sm.checkpoint());
  await both((sm) => sm.putStorage(a, slot, Uint8Array.of(9)));
  await both((sm) => sm.commit());
  await both((sm) => sm.commit());
  const kept = await roots();
  assert.notEqual(kept, base);
  assert.equal((await live.getAccount(b))!.balance, 5n);
  assert.deepEqual(await live.getStorage(a, slot), Uint8Array.of(9));
});
