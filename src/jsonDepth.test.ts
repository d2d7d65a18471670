// Go's encoding/json nesting limit, as the JSON parsers standing in for Go's apply it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exceedsGoJsonDepth, GO_MAX_JSON_DEPTH } from './jsonDepth.js';
import { parseGoJSON } from './rpc/gorilla.js';
import { parseFirstValue } from './evm/rpc/server.js';
import { parseJson, parseJsonGoErrors } from './evm/config/json.js';
import { startTestNode } from '../test/helpers.js';

const nested = (n: number, open = '[', close = ']') => open.repeat(n) + close.repeat(n);

test('10,000 levels pass, 10,001 are refused, arrays and objects counted together', () => {
  assert.equal(exceedsGoJsonDepth(nested(GO_MAX_JSON_DEPTH)), false);
  assert.equal(exceedsGoJsonDepth(nested(GO_MAX_JSON_DEPTH + 1)), true);
  const mixed = '{"a":'.repeat(5_000) + '['.repeat(5_001) + ']'.repeat(5_001) + '}'.repeat(5_000);
  assert.equal(exceedsGoJsonDepth(mixed), true);
  // Depth, not count: many shallow values side by side are fine.
  assert.equal(exceedsGoJsonDepth('[' + Array(20_000).fill('[]').join(',') + ']'), false);
  // A truncated text that already went too deep is refused too (Go's scanner stops there first).
  assert.equal(exceedsGoJsonDepth('['.repeat(GO_MAX_JSON_DEPTH + 1)), true);
});

test('brackets inside strings, escaped quotes included, do not count', () => {
  const s = JSON.stringify('['.repeat(30_000) + '\\"' + '{'.repeat(30_000));
  assert.equal(exceedsGoJsonDepth(`[${s}]`), false);
  assert.equal(exceedsGoJsonDepth(`{"k":${s}}`), false);
  // An escaped backslash before the closing quote ends the string; what follows counts again.
  assert.equal(exceedsGoJsonDepth(`["x\\\\",${nested(GO_MAX_JSON_DEPTH)}]`), true);
  // An unterminated string is left to the parser.
  assert.equal(exceedsGoJsonDepth('["' + '['.repeat(20_000)), false);
});

test('every Go-standing parser answers "exceeded max depth" past the limit and parses at it', () => {
  const deep = nested(GO_MAX_JSON_DEPTH + 1);
  assert.throws(() => parseGoJSON(deep), { message: 'exceeded max depth' });
  assert.throws(() => parseFirstValue(deep), { message: 'exceeded max depth' });
  assert.throws(() => parseJsonGoErrors(deep), { message: 'exceeded max depth' });
  // The config parser is recursive: without the check this would be a stack overflow.
  assert.throws(() => parseJson(nested(200_000)), { message: 'exceeded max depth' });
  const ok = nested(GO_MAX_JSON_DEPTH);
  assert.ok(Array.isArray(parseGoJSON(ok)));
  assert.ok(Array.isArray(parseFirstValue(ok)));
  assert.ok(Array.isArray(parseJsonGoErrors(ok)));
  // The exact-integer config parser walks containers without recursion, so Go's depth fits.
  assert.ok(Array.isArray(parseJson(ok)));
  assert.equal(typeof parseJson('{"a":'.repeat(5_000) + nested(4_999) + '}'.repeat(5_000)), 'object');
});

test('over HTTP: a chain answers geth\'s parse error, a node API Go\'s decoder text, and both go on', async () => {
  const t = await startTestNode({ 'db-type': 'memdb' });
  try {
    const post = async (path: string, body: string): Promise<any> =>
      (await fetch(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json();
    const deep = (method: string, n: number) => `{"jsonrpc":"2.0","id":1,"method":"${method}","params":[${nested(n)}]}`;
    // Object + params array + 9,999 = 10,001 levels.
    assert.deepEqual(await post('/ext/bc/dev/rpc', deep('eth_chainId', 9_999)), { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    assert.deepEqual((await post('/ext/bc/dev/rpc', deep('eth_chainId', 9_998))).error, { code: -32602, message: 'too many arguments, want at most 0' });
    const info = await post('/ext/info', deep('info.getNodeID', 9_999));
    assert.deepEqual(info.error, { code: -32700, message: 'exceeded max depth', data: { jsonrpc: '', method: '', params: null, id: null } });
    assert.equal((await post('/ext/bc/dev/rpc', '{"jsonrpc":"2.0","id":2,"method":"eth_chainId"}')).result, '0xa8ca'); // 43210
    assert.ok((await post('/ext/info', '{"jsonrpc":"2.0","id":3,"method":"info.getNodeID"}')).result.nodeID);
  } finally {
    await t.stop();
  }
});
