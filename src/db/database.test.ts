// The KV stores behind --db-type=memdb and lmdb must behave the same: values round-trip byte for
// byte, overwrites and deletes win, ranges come back in byte order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database, type KVStore } from './database.js';

const b = (...xs: number[]) => Uint8Array.from(xs);
const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);
const eq = (a: Uint8Array | undefined, e: Uint8Array) => assert.deepEqual(a && Buffer.from(a), Buffer.from(e));

for (const type of ['memdb', 'lmdb'] as const) {
  const withDb = async (fn: (db: Database) => Promise<void> | void) => {
    const dir = mkdtempSync(join(tmpdir(), 'powder-db-'));
    const db = openDatabase(type, dir);
    try {
      await fn(db);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };

  test(`${type}: values round-trip, overwrite and delete`, () =>
    withDb(async (db) => {
      const s = db.store('a');
      assert.equal(db.store('a'), s, 'same name, same store');
      assert.equal(s.get(b(1)), undefined);
      assert.equal(s.has(b(1)), false);
      await s.write([
        [b(1), b(10, 11)],
        [b(2), new Uint8Array(0)],
        [b(3), bytes(300, 7)],
      ]);
      eq(s.get(b(1)), b(10, 11));
      eq(s.get(b(2)), new Uint8Array(0));
      assert.equal(s.has(b(2)), true, 'an empty value exists');
      eq(s.get(b(3)), bytes(300, 7));
      await s.write([
        [b(1), b(12)],
        [b(3), null],
      ]);
      eq(s.get(b(1)), b(12));
      assert.equal(s.get(b(3)), undefined);
      assert.equal(s.has(b(3)), false);
      // The last op on a key in one batch wins.
      s.writeSync([
        [b(4), b(1)],
        [b(4), b(2)],
        [b(5), b(1)],
        [b(5), null],
      ]);
      eq(s.get(b(4)), b(2));
      assert.equal(s.has(b(5)), false);
      // Stores are separate namespaces.
      assert.equal(db.store('other').get(b(1)), undefined);
    }));

  test(`${type}: a written value is a copy (later changes to the caller's buffer don't leak in)`, () =>
    withDb(async (db) => {
      const s = db.store('a');
      const v = b(1, 2, 3);
      const k = b(9);
      await s.write([[k, v]]);
      v[0] = 99;
      k[0] = 8;
      eq(s.get(b(9)), b(1, 2, 3));
      assert.equal(s.get(b(8)), undefined);
    }));

  test(`${type}: keys that differ only in high bytes stay distinct and range in byte order`, () =>
    withDb(async (db) => {
      const s = db.store('r');
      const keys = [b(0x00), b(0x01, 0xff), b(0x7f), b(0x80), b(0x80, 0x00), b(0xc3, 0xa9), b(0xff), b(0xff, 0xff)];
      await s.write([...keys].reverse().map((k, i) => [k, b(i)] as [Uint8Array, Uint8Array]));
      const all = [...s.range({})].map((e) => Buffer.from(e.key).toString('hex'));
      assert.deepEqual(all, ['00', '01ff', '7f', '80', '8000', 'c3a9', 'ff', 'ffff']);
      const mid = [...s.range({ start: b(0x7f), end: b(0xff) })].map((e) => Buffer.from(e.key).toString('hex'));
      assert.deepEqual(mid, ['7f', '80', '8000', 'c3a9']);
      const rev = [...s.range({ start: b(0x7f), end: b(0xff), reverse: true, limit: 2 })].map((e) => Buffer.from(e.key).toString('hex'));
      assert.deepEqual(rev, ['c3a9', '8000']);
      const first = [...s.range({ limit: 1 })][0]!;
      eq(first.value, b(keys.length - 1));
    }));

  test(`${type}: many values, large values and heavy overwriting keep every value intact`, () =>
    withDb(async (db) => {
      const s = db.store('big');
      const key = (i: number) => Uint8Array.from(Buffer.from(`k${i}`));
      // Large values (over 1 MiB) beside small ones.
      await s.write([
        [b(1), bytes(3 << 20, 1)],
        [b(2), bytes(100, 2)],
      ]);
      const held = s.get(b(2))!;
      // Overwrite the same keys many times with ~2 KiB values: ~40 MiB written, little of it live.
      for (let round = 0; round < 100; round++) {
        const ops: [Uint8Array, Uint8Array][] = [];
        for (let i = 0; i < 200; i++) ops.push([key(i), bytes(2000 + (i % 7), round + i)]);
        s.writeSync(ops);
      }
      for (let i = 0; i < 200; i++) eq(s.get(key(i)), bytes(2000 + (i % 7), 99 + i));
      eq(s.get(b(1)), bytes(3 << 20, 1));
      eq(s.get(b(2)), bytes(100, 2));
      eq(held, bytes(100, 2)); // a value read earlier is not changed by later writes
    }));
}

test('openDatabase: memdb does not need the data directory', async () => {
  const db = openDatabase('memdb', join(tmpdir(), 'powder-db-never-created', String(process.pid)));
  const s: KVStore = db.store('x');
  await s.write([[b(1), b(2)]]);
  eq(s.get(b(1)), b(2));
  assert.equal(db.type, 'memdb');
  await db.close();
  assert.equal(db.closed, true);
});
