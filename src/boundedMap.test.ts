// BoundedMap: bounded, keeps what is used, forgets the oldest generation whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedMap } from './boundedMap.js';

test('BoundedMap holds at most max entries and always the most recent max/2', () => {
  const m = new BoundedMap<number, string>(10);
  for (let i = 0; i < 1000; i++) {
    m.set(i, `v${i}`);
    assert.ok(m.size <= 10, `size ${m.size} after ${i + 1} inserts`);
    for (let j = Math.max(0, i - 4); j <= i; j++) assert.equal(m.get(j), `v${j}`);
  }
  assert.equal(m.get(0), undefined);
});

test('BoundedMap: a read keeps an entry through later generations; set replaces; delete and clear forget', () => {
  const m = new BoundedMap<string, number>(4);
  m.set('hot', 1);
  for (let i = 0; i < 20; i++) {
    m.set(`k${i}`, i);
    assert.equal(m.get('hot'), 1, `hot lost after ${i + 1} inserts`);
  }
  m.set('hot', 2);
  assert.equal(m.get('hot'), 2);
  assert.ok(m.has('hot'));
  const before = m.size;
  m.delete('hot');
  assert.equal(m.get('hot'), undefined);
  assert.equal(m.has('hot'), false);
  assert.equal(m.size, before - 1);
  m.clear();
  assert.equal(m.size, 0);
});

test('BoundedMap: setting a key that aged into the old generation counts it once', () => {
  const m = new BoundedMap<number, number>(4);
  m.set(1, 1);
  m.set(2, 2);
  m.set(3, 3); // 1 and 2 are now the old generation
  m.set(1, 10);
  assert.equal(m.size, 3);
  assert.equal(m.get(1), 10);
});
