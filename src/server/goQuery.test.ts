import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goQueryValues } from './goQuery.js';

test("goQueryValues reads a query as Go's url.ParseQuery: repeated keys, escapes, + as space", () => {
  assert.deepEqual(goQueryValues('/ext/health?tag=a&tag=b', 'tag'), ['a', 'b']);
  assert.deepEqual(goQueryValues('/ext/health?tag=a%20b&tag=c+d&tag=%E2%9C%93', 'tag'), ['a b', 'c d', '✓']);
  assert.deepEqual(goQueryValues('/ext/health?tag&x=1&tag=', 'tag'), ['', '']);
  assert.deepEqual(goQueryValues('/ext/health', 'tag'), []);
  assert.deepEqual(goQueryValues('/ext/health?t%61g=x', 'tag'), ['x']);
});

test('goQueryValues drops what Go drops: a pair with `;`, a pair with a malformed escape', () => {
  assert.deepEqual(goQueryValues('/ext/health?tag=a;b', 'tag'), []);
  assert.deepEqual(goQueryValues('/ext/health?tag=%zz&tag=ok', 'tag'), ['ok']);
  assert.deepEqual(goQueryValues('/ext/health?tag=%4', 'tag'), []);
  assert.deepEqual(goQueryValues('/ext/health?ta%g=x&tag=y', 'tag'), ['y']);
});
