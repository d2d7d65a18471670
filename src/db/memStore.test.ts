// The memdb store's own hash table against a plain Map model: growth, probing past deleted slots,
// compaction and ranges must never lose, mix up or resurrect a value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemStore } from './memStore.js';

/** Deterministic pseudo-random numbers (xorshift32), so a failure reproduces. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}
const hex = (b: Uint8Array | undefined) => (b === undefined ? undefined : Buffer.from(b).toString('hex'));

function checkAgainst(store: MemStore, model: Map<string, string>, probes: string[]): void {
  for (const [k, v] of model) assert.equal(hex(store.get(Buffer.from(k, 'hex'))), v, `key ${k}`);
  for (const k of probes) if (!model.has(k)) assert.equal(store.has(Buffer.from(k, 'hex')), false, `absent key ${k}`);
  const all = [...store.range({})].map((e) => [hex(e.key)!, hex(e.value)!]);
  assert.deepEqual(all, [...model].sort(([a], [b]) => Buffer.compare(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'))));
}

test('memdb store: random puts, overwrites and deletes over 60,000 keys match a Map', () => {
  const rand = rng(42);
  const store = new MemStore();
  const model = new Map<string, string>();
  // Keys of every shape the chain uses: 33-byte hashes, prefix + u64 numbers (differing in the last
  // byte only), short names, the empty key.
  const keyOf = (i: number): string => {
    switch (i % 4) {
      case 0:
        return '73' + Buffer.alloc(32, i % 251).toString('hex').slice(0, 56) + i.toString(16).padStart(8, '0');
      case 1:
        return '4e' + BigInt(i).toString(16).padStart(16, '0');
      case 2:
        return Buffer.from(`k${i}`).toString('hex');
      default:
        return i === 3 ? '' : (i & 0xffff).toString(16).padStart(4, '0') + 'ff';
    }
  };
  const seen: string[] = [];
  for (let round = 0; round < 30; round++) {
    const ops: [Uint8Array, Uint8Array | null][] = [];
    for (let n = 0; n < 4000; n++) {
      const r = rand();
      const i = Math.floor(rand() * 60_000);
      const k = keyOf(i);
      if (r < 0.25 && model.size > 0) {
        ops.push([Buffer.from(k, 'hex'), null]);
        model.delete(k);
      } else {
        const v = Buffer.alloc(Math.floor(rand() * 300), (round * 7 + n) & 0xff).toString('hex');
        ops.push([Buffer.from(k, 'hex'), Buffer.from(v, 'hex')]);
        model.set(k, v);
      }
      seen.push(k);
    }
    store.writeSync(ops);
    if (round % 10 === 9) checkAgainst(store, model, seen.slice(-5000));
  }
  checkAgainst(store, model, seen);
});

test('memdb store: deleting and re-adding the same keys many times keeps lookups right (deleted slots are reused and swept)', () => {
  const store = new MemStore();
  const key = (i: number) => Buffer.from(`key-${i}`);
  for (let round = 0; round < 200; round++) {
    store.writeSync(Array.from({ length: 500 }, (_, i) => [key(i + round * 3), Buffer.from([round & 0xff, i & 0xff])] as [Uint8Array, Uint8Array]));
    store.writeSync(Array.from({ length: 500 }, (_, i) => [key(i + round * 3), null] as [Uint8Array, null]));
  }
  assert.deepEqual([...store.range({})], []);
  store.writeSync([[key(1), Buffer.from([1])]]);
  assert.equal(hex(store.get(key(1))), '01');
  assert.equal(store.get(key(2)), undefined);
});

test('memdb store: values read before a compaction stay intact, values after it are the latest', () => {
  const store = new MemStore();
  store.writeSync([[Buffer.from('keep'), Buffer.from('kept value')]]);
  const early = store.get(Buffer.from('keep'))!;
  // ~12 MiB of overwritten 3 KiB values: several compactions.
  for (let round = 0; round < 40; round++) {
    store.writeSync(Array.from({ length: 100 }, (_, i) => [Buffer.from(`v${i}`), Buffer.alloc(3000, round)] as [Uint8Array, Uint8Array]));
  }
  assert.equal(Buffer.from(early).toString(), 'kept value');
  assert.equal(Buffer.from(store.get(Buffer.from('keep'))!).toString(), 'kept value');
  for (let i = 0; i < 100; i++) assert.deepEqual(Buffer.from(store.get(Buffer.from(`v${i}`))!), Buffer.alloc(3000, 39));
});

test('memdb store: a range with a limit counts only the entries it yields', () => {
  const store = new MemStore();
  store.writeSync([1, 2, 3, 4, 5].map((i) => [Uint8Array.of(i), Uint8Array.of(i)] as [Uint8Array, Uint8Array]));
  const it = store.range({ limit: 2 })[Symbol.iterator]();
  assert.equal(hex(it.next().value!.key), '01');
  store.writeSync([[Uint8Array.of(2), null]]); // deleted while iterating: skipped, not counted
  assert.equal(hex(it.next().value!.key), '03');
  assert.equal(it.next().done, true);
});

test('memdb store: a value larger than a slab between small ones leaves every address right', () => {
  const store = new MemStore();
  store.writeSync([[Buffer.from('a'), Buffer.from('first')]]);
  store.writeSync([[Buffer.from('big'), Buffer.alloc(1_500_000, 7)]]);
  store.writeSync([[Buffer.from('b'), Buffer.from('after the big one')]]);
  assert.equal(Buffer.from(store.get(Buffer.from('a'))!).toString(), 'first');
  assert.equal(Buffer.from(store.get(Buffer.from('b'))!).toString(), 'after the big one');
  assert.deepEqual(Buffer.from(store.get(Buffer.from('big'))!), Buffer.alloc(1_500_000, 7));
});

test('memdb store: values read back are plain Uint8Arrays holding exactly the bytes written (slabs are not zeroed)', () => {
  const store = new MemStore();
  // Fill a slab's worth and more, with values of every length up to 300, then read each back.
  const written = new Map<string, Uint8Array>();
  for (let i = 0; i < 8_000; i++) {
    const v = Uint8Array.from({ length: i % 301 }, (_, j) => (i * 31 + j) & 0xff);
    written.set(`k${i}`, v);
    store.writeSync([[Buffer.from(`k${i}`), v]]);
  }
  for (const [k, v] of written) {
    const got = store.get(Buffer.from(k))!;
    assert.equal(Object.getPrototypeOf(got), Uint8Array.prototype, k);
    assert.deepEqual(got, v, k);
  }
});
