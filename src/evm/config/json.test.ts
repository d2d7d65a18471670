// Go's json.Unmarshal syntax error texts where a user sees them (config.json, config contents).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJson, parseJsonGoErrors } from './json.js';
import { parseVmConfig } from '../api/vmConfig.js';

test('parseJsonGoErrors: JSON.parse results, Go texts for syntax errors', () => {
  assert.deepEqual(parseJsonGoErrors('{"a":[1,2.5,"x"]}'), { a: [1, 2.5, 'x'] });
  const text = (s: string) => {
    try {
      parseJsonGoErrors(s);
    } catch (e) {
      return (e as Error).message;
    }
    assert.fail(`parsed: ${s}`);
  };
  assert.equal(text('{"a":'), 'unexpected end of JSON input');
  assert.equal(text(''), 'unexpected end of JSON input');
  assert.equal(text('{nope}'), "invalid character 'n' looking for beginning of object key string");
  assert.equal(text('{"a":1} x'), "invalid character 'x' after top-level value");
  assert.equal(text('[1,]'), "invalid character ']' looking for beginning of value");
});

test("a chain's config.json that is no JSON stops the chain with Go's text", () => {
  assert.throws(() => parseVmConfig(Buffer.from('{"eth-apis": ['), {}), { message: 'failed to unmarshal config {"eth-apis": [: unexpected end of JSON input' });
});

test('parseJson: the source text of a top-level object\'s scalar members, for Go\'s number texts', () => {
  const literals = new Map<string, string>();
  parseJson('{"a": 1.50, "b": [2.0], "c": {"d": 1e3}, "e": -0, "f": "x"}', literals);
  assert.deepEqual([...literals], [
    ['a', '1.50'],
    ['e', '-0'],
    ['f', '"x"'],
  ]);
});
