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
  // Go quotes the offending BYTE: a byte-order mark (EF BB BF, left by some Windows editors) is
  // 'ï', a non-ASCII character its first byte read as a rune, a control character escaped.
  for (const parse of [text, (s: string) => { try { parseJson(s); } catch (e) { return (e as Error).message; } assert.fail(s); }]) {
    assert.equal(parse('\ufeff{"a":1}'), "invalid character 'ï' looking for beginning of value");
    assert.equal(parse('{"a":1}é'), "invalid character 'Ã' after top-level value");
    assert.equal(parse('{"a":"x\ny"}'), "invalid character '\\n' in string literal");
    assert.equal(parse('{"a":"\u0001"}'), "invalid character '\\x01' in string literal");
  }
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
