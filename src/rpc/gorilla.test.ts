// The node-style JSON-RPC engine's answers to bad input, through real HTTP (reference:
// avalanchego-node.md §1). Each kind of bad input has its own test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startTestNode, rpc, type TestNode } from '../../test/helpers.js';
import { GoJSONText, GorillaServer, UNMARSHAL_ERROR, uint64 } from './gorilla.js';

let t: TestNode;
let info: string;
let admin: string;
before(async () => {
  t = await startTestNode({ 'db-type': 'memdb', chains: [], 'api-admin-enabled': true, 'http-max-body-size': 4096 });
  info = `${t.url}/ext/info`;
  admin = `${t.url}/ext/admin`;
});
after(() => t.stop());

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request with exactly these headers and body bytes. */
function raw(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'POST', headers: opts.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}
const JSON_CT = { 'content-type': 'application/json' };
const post = (url: string, body: string, headers: Record<string, string> = JSON_CT) => raw(url, { headers, body });

const EMPTY_ECHO = { jsonrpc: '', method: '', params: null, id: null };

test('malformed JSON: -32700, Go-style message, data echo, id null, HTTP 200, always written', async () => {
  const r = await post(info, '{"jsonrpc":"2.0","id":1,');
  assert.equal(r.status, 200);
  assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  assert.equal(
    r.body,
    '{"jsonrpc":"2.0","error":{"code":-32700,"message":"unexpected EOF","data":{"jsonrpc":"","method":"","params":null,"id":null}},"id":null}\n',
  );
  const x = JSON.parse((await post(info, 'xyz')).body);
  assert.deepEqual(x.error, { code: -32700, message: "invalid character 'x' looking for beginning of value", data: EMPTY_ECHO });
  const empty = JSON.parse((await post(info, '')).body);
  assert.deepEqual(empty.error, { code: -32700, message: 'EOF', data: EMPTY_ECHO });
});

test('syntax error texts quote the offending byte as Go\'s quoteChar does', async () => {
  const msg = async (body: string) => JSON.parse((await post(info, body)).body).error.message;
  assert.equal(await msg('{"jsonrpc":"2.0","method":"a\u0001"}'), "invalid character '\\x01' in string literal");
  assert.equal(await msg('\\'), "invalid character '\\\\' looking for beginning of value");
  assert.equal(await msg("'"), "invalid character '\\'' looking for beginning of value");
  // Go reports the first byte of a multi-byte character, as a Latin-1 rune.
  assert.equal(await msg('é'), "invalid character 'Ã' looking for beginning of value");
});

test('envelope type errors: -32700 with the decoded part echoed', async () => {
  const r = JSON.parse((await post(info, '{"jsonrpc":"2.0","id":5,"method":5}')).body);
  assert.equal(r.error.code, -32700);
  assert.match(r.error.message, /^json: cannot unmarshal number into Go struct field serverRequest.method of type string$/);
  assert.equal(r.id, 5);
  const n = JSON.parse((await post(info, '{"jsonrpc":2.0,"id":1,"method":"info.getNetworkID"}')).body);
  assert.equal(n.error.code, -32700);
  const s = JSON.parse((await post(info, '"a string"')).body);
  assert.deepEqual(s.error, { code: -32700, message: 'json: cannot unmarshal string into Go value of type json2.serverRequest', data: EMPTY_ECHO });
});

test('trailing bytes after the first JSON value are ignored', async () => {
  const r = await post(info, '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"} trailing garbage {[');
  assert.equal(r.body, '{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":1}\n');
});

test('a numeric id past 2^53 is echoed as sent', async () => {
  const big = '123456789012345678901234567890';
  const r = await post(info, `{"jsonrpc":"2.0","id":${big},"method":"info.getNetworkID"}`);
  assert.equal(r.body, `{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":${big}}\n`);
  const e = await post(info, `{"jsonrpc":"2.0","id":${big},"method":"info.nope"}`);
  assert.match(e.body, new RegExp(`"id":${big}\\}\\n$`));
});

test('wrong jsonrpc version: -32600 with the request echoed; silent for a notification', async () => {
  const r = await post(admin, '{"jsonrpc":"1.0","id":3,"method":"admin.alias","params":{"alias":"a"}}');
  assert.equal(
    r.body,
    '{"jsonrpc":"2.0","error":{"code":-32600,"message":"jsonrpc must be 2.0","data":{"jsonrpc":"1.0","method":"admin.alias","params":{"alias":"a"},"id":3}},"id":3}\n',
  );
  const missing = JSON.parse((await post(info, '{"id":3,"method":"info.getNetworkID"}')).body);
  assert.equal(missing.error.code, -32600);
  const note = await post(info, '{"jsonrpc":"1.0","method":"info.getNetworkID"}');
  assert.equal(note.status, 200);
  assert.equal(note.body, '');
});

test('notifications run the method but answer an empty 200; their errors are silent too', async () => {
  const r = await post(admin, '{"jsonrpc":"2.0","method":"admin.alias","params":{"endpoint":"info","alias":"notified"}}');
  assert.equal(r.status, 200);
  assert.equal(r.body, '');
  const viaAlias = await rpc(`${t.url}/ext/notified`, 'info.getNetworkID');
  assert.deepEqual(viaAlias.result, { networkID: '12345' }, 'the notification took effect');
  const nullID = await post(info, '{"jsonrpc":"2.0","id":null,"method":"info.nope"}');
  assert.equal(nullID.body, '');
});

test('ids are echoed verbatim, of any JSON type', async () => {
  for (const id of ['"abc"', '1.5', '{"a":[1,2]}', '[1]', 'true', '-7']) {
    const r = await post(info, `{"jsonrpc":"2.0","id":${id},"method":"info.getNetworkID"}`);
    assert.equal(r.body, `{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":${id}}\n`);
  }
});

test('method names: missing, ill-formed, upper-case, unknown method, unknown service', async () => {
  const call = async (method: unknown) => JSON.parse((await post(info, JSON.stringify({ jsonrpc: '2.0', id: 1, method }))).body).error;
  const e = (message: string) => ({ code: -32000, message, data: null });
  assert.deepEqual(await call(undefined), e('rpc: service/method request ill-formed: ""'));
  assert.deepEqual(await call(''), e('rpc: service/method request ill-formed: ""'));
  assert.deepEqual(await call('getNodeID'), e('rpc: service/method request ill-formed: "getNodeID"'));
  assert.deepEqual(await call('info.a.b'), e('rpc: service/method request ill-formed: "info.A.b"'));
  assert.deepEqual(await call('info.GetNodeID'), e('method must start with a non-uppercase letter'));
  assert.deepEqual(await call('info.foo'), e('rpc: can\'t find method "info.Foo"'));
  assert.deepEqual(await call('info.getnodeid'), e('rpc: can\'t find method "info.Getnodeid"'));
  assert.deepEqual(await call('admin.alias'), e('rpc: can\'t find service "admin.Alias"'));
  assert.deepEqual(await call('Info.getNodeID'), e('rpc: can\'t find service "Info.GetNodeID"'));
  assert.deepEqual(await call('info.'), e('rpc: can\'t find method "info."'));
});

test('method names in errors are quoted as Go\'s %q; the upper-case rule is Unicode\'s', async () => {
  const call = async (method: string) => JSON.parse((await post(info, JSON.stringify({ jsonrpc: '2.0', id: 1, method }))).body).error.message;
  // gorilla formats the name with %q (strconv.Quote): ", \\ and non-printables escaped, printable Unicode kept.
  assert.equal(await call('info.fo"o'), 'rpc: can\'t find method "info.Fo\\"o"');
  assert.equal(await call('a\\b'), 'rpc: service/method request ill-formed: "a\\\\b"');
  assert.equal(await call('info.x\ty\n'), 'rpc: can\'t find method "info.X\\ty\\n"');
  assert.equal(await call('info.\u0001\u007f\u00ad'), 'rpc: can\'t find method "info.\\x01\\x7f\\u00ad"');
  assert.equal(await call('nfo"x.getNodeID'), 'rpc: can\'t find service "nfo\\"x.GetNodeID"');
  assert.equal(await call('info.étoile'), 'rpc: can\'t find method "info.Étoile"');
  // unicode.IsUpper, not only A–Z.
  assert.equal(await call('info.Étoile'), 'method must start with a non-uppercase letter');
  assert.equal(await call('info.Ωmega'), 'method must start with a non-uppercase letter');
});

test('strings in answers: <, >, & and U+2028/U+2029 escaped as Go\'s encoding/json does', async () => {
  const r = await post(info, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getBlockchainID', params: { alias: '<a&b>\u2028\u2029' } }));
  assert.equal(
    r.body,
    '{"jsonrpc":"2.0","error":{"code":-32000,"message":"there is no ID with alias: \\u003ca\\u0026b\\u003e\\u2028\\u2029","data":null},"id":1}\n',
  );
});

test('params: object, case-insensitive keys, array-of-object fallback; scalars and wrong types fail', async () => {
  const call = async (params: unknown) =>
    JSON.parse((await post(info, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.isBootstrapped', params }))).body);
  const notGiven = { code: -32000, message: "argument 'chain' not given", data: null };
  const unknown = { code: -32000, message: "there is no chain with alias/ID 'x'", data: null };
  assert.deepEqual((await call({ chain: 'x' })).error, unknown);
  assert.deepEqual((await call({ CHAIN: 'x' })).error, unknown, 'keys match case-insensitively');
  assert.deepEqual((await call([{ chain: 'x' }, 'ignored'])).error, unknown, 'array whose first element is the object');
  assert.deepEqual((await call([])).error, notGiven, 'empty array: zero-valued arguments');
  assert.deepEqual((await call({ other: 1 })).error, notGiven, 'unknown keys are ignored');
  assert.deepEqual((await call({ chain: null })).error, notGiven, 'null leaves the zero value');
  const generic = { code: -32000, message: UNMARSHAL_ERROR, data: null };
  for (const bad of ['x', 5, true, ['x'], [5], { chain: 5 }, [{ chain: [] }]]) {
    assert.deepEqual((await call(bad)).error, generic, JSON.stringify(bad));
  }
});

test('batch arrays are not supported: one -32700 error object', async () => {
  const r = await post(info, '[{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"},{"jsonrpc":"2.0","id":2,"method":"info.getNetworkID"}]');
  assert.equal(r.status, 200);
  assert.deepEqual(JSON.parse(r.body), {
    jsonrpc: '2.0',
    error: { code: -32700, message: 'json: cannot unmarshal array into Go value of type json2.serverRequest', data: EMPTY_ECHO },
    id: null,
  });
});

test('GET, PUT, HEAD and plain OPTIONS: 405 with the method in the text', async () => {
  for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    const r = await raw(info, { method });
    assert.equal(r.status, 405);
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(r.body, `rpc: POST method required, received ${method}`);
    // gorilla's WriteError sets the Content-Type only (Go's http.Error would add nosniff).
    assert.equal(r.headers['x-content-type-options'], undefined);
  }
  const head = await raw(info, { method: 'HEAD' });
  assert.equal(head.status, 405);
});

test('Content-Type: missing or other → 415; any case and parameters of application/json accepted', async () => {
  const body = '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}';
  const missing = await post(info, body, {});
  assert.equal(missing.status, 415);
  assert.equal(missing.body, 'rpc: unrecognized Content-Type: ');
  assert.equal(missing.headers['x-content-type-options'], undefined);
  const form = await post(info, body, { 'content-type': 'application/x-www-form-urlencoded' });
  assert.equal(form.body, 'rpc: unrecognized Content-Type: application/x-www-form-urlencoded');
  const text = await post(info, body, { 'content-type': 'Text/Plain; charset=utf-8' });
  assert.equal(text.body, 'rpc: unrecognized Content-Type: Text/Plain');
  const spaced = await post(info, body, { 'content-type': 'application/json ; charset=utf-8' });
  assert.equal(spaced.status, 415);
  assert.equal(spaced.body, 'rpc: unrecognized Content-Type: application/json ');
  for (const ct of ['Application/JSON; charset=whatever', 'application/json;', 'APPLICATION/JSON']) {
    const ok = await post(info, body, { 'content-type': ct });
    assert.equal(ok.status, 200, ct);
    assert.equal(JSON.parse(ok.body).result.networkID, '12345');
  }
});

test('oversized body: HTTP 413 with a clear text; the node keeps serving', async () => {
  const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getNetworkID', params: { pad: 'x'.repeat(5000) } });
  const r = await post(info, big);
  assert.equal(r.status, 413);
  assert.equal(r.body, 'request body too large (limit 4096 bytes)');
  // Without Content-Length (chunked), the limit applies as the body streams in.
  const chunked = await new Promise<Raw>((resolve, reject) => {
    const req = http.request(info, { method: 'POST', headers: JSON_CT, agent: false }, (res) => {
      let b = '';
      res.on('data', (c) => (b += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: b }));
    });
    req.on('error', reject);
    req.write(big.slice(0, 3000));
    req.end(big.slice(3000));
  });
  assert.equal(chunked.status, 413);
  const fine = await rpc(info, 'info.getNetworkID');
  assert.equal(fine.result.networkID, '12345');
});

test('a flood of garbage (200 concurrent random-byte requests): each gets -32700, the node keeps serving', async () => {
  const garbage = Array.from({ length: 200 }, (_, i) => {
    const b = Buffer.alloc(16 + (i % 64) * 16);
    for (let j = 0; j < b.length; j++) b[j] = Math.floor(Math.random() * 256);
    b[0] = 0x80 + (i % 64); // never the start of a JSON value
    return b;
  });
  // Valid calls in the middle of the flood must all be answered correctly.
  const valid = Array.from({ length: 20 }, (_, i) => rpc(info, 'info.getNetworkID', {}, 1000 + i));
  const answers = await Promise.all(garbage.map((b) => post(info, b.toString('latin1'))));
  for (const a of answers) {
    assert.equal(a.status, 200);
    assert.equal(JSON.parse(a.body).error.code, -32700);
  }
  const ok = await Promise.all(valid);
  ok.forEach((r, i) => assert.deepEqual(r, { jsonrpc: '2.0', result: { networkID: '12345' }, id: 1000 + i }));
  const alias = await rpc(`${t.url}/ext/notified`, 'info.getNetworkID').catch(() => null);
  assert.ok(alias === null || alias.result?.networkID === '12345');
});

test('utils/json.Uint64 decoder: numbers and decimal strings below 2^64; null is 0; the rest refused', () => {
  assert.equal(uint64(5), 5n);
  assert.equal(uint64(null), 0n);
  assert.equal(uint64('18446744073709551615'), 2n ** 64n - 1n);
  for (const bad of [2 ** 64, 1e30, -1, 1.5, '18446744073709551616', '-1', '0x10', '', true, [], {}]) {
    assert.throws(() => uint64(bad), /not a uint64/, String(bad));
  }
});

test('a synchronous handler is answered synchronously; async ones, throws, rejections and unencodable results keep their answers', async () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const errors: string[] = [];
  const server = new GorillaServer({
    name: 'svc',
    maxBodyBytes: 4096,
    onError: (m, e) => errors.push(`${m}: ${e.message}`),
    service: {
      sync: { handler: () => ({ a: 1, big: 2n ** 64n - 1n, html: '<&>' }) },
      async: { handler: async () => ({ a: 2 }) },
      nothing: { handler: () => undefined },
      text: { handler: () => new GoJSONText('{"pre":"encoded"}') },
      throws: { handler: () => { throw new Error('sync failure'); } },
      rejects: { handler: async () => { throw new Error('async failure'); } },
      cyclic: { handler: () => cyclic },
      cyclicLater: { handler: async () => cyclic },
      // A thenable that is not a Promise (another library's, another realm's) is still awaited.
      thenable: { handler: () => ({ then: (resolve: (v: unknown) => void) => setImmediate(() => resolve({ a: 3 })) }) },
    },
  });
  const ask = (method: string, id: unknown = 1) => server.answer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method: `svc.${method}`, params: {} })));
  const body = async (method: string) => String((await ask(method)).body);

  const sync = ask('sync');
  assert.ok(!(sync instanceof Promise), 'a synchronous handler needs no promise turn');
  assert.equal(String((sync as { body: string }).body), '{"jsonrpc":"2.0","result":{"a":1,"big":18446744073709551615,"html":"\\u003c\\u0026\\u003e"},"id":1}\n');
  assert.ok(ask('async') instanceof Promise);
  assert.equal(await body('async'), '{"jsonrpc":"2.0","result":{"a":2},"id":1}\n');
  assert.equal(await body('nothing'), '{"jsonrpc":"2.0","result":{},"id":1}\n');
  assert.equal(await body('thenable'), '{"jsonrpc":"2.0","result":{"a":3},"id":1}\n');
  assert.equal(await body('text'), '{"jsonrpc":"2.0","result":{"pre":"encoded"},"id":1}\n');
  assert.equal(await body('throws'), '{"jsonrpc":"2.0","error":{"code":-32000,"message":"sync failure","data":null},"id":1}\n');
  assert.equal(await body('rejects'), '{"jsonrpc":"2.0","error":{"code":-32000,"message":"async failure","data":null},"id":1}\n');
  for (const m of ['cyclic', 'cyclicLater']) {
    const r = JSON.parse(await body(m));
    assert.equal(r.error.code, -32000, m);
    assert.match(r.error.message, /circular/, m);
  }
  assert.equal(errors.length, 4);
  // A notification runs the method and answers nothing, whichever way the handler returns.
  const note = ask('sync', null);
  assert.ok(!(note instanceof Promise));
  assert.equal((note as { body: string }).body, '');
  assert.equal((await ask('rejects', null)).body, '');
});
