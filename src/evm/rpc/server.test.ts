// The geth-style JSON-RPC server over a real HTTP server (HTTP + WebSocket), with a small method
// table and a subscription source driven by the test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { wsClient as openWsClient } from '../../../test/wsClient.js';
import { createEthRpcHandlers, RpcError, subscriptionNotFound, toJSON, type EthRpcHandlers, type RpcMethod } from './server.js';
import type { Logger } from '../../logging/logger.js';

const silent: Logger = {
  name: 'test',
  verbo() {}, debug() {}, trace() {}, info() {}, warn() {}, error() {}, fatal() {},
  enabled: () => false,
};

/** Subscriptions: 'ticks' emits whatever the test pushes; records unsubscribes. */
const emitters = new Set<(v: unknown) => void>();
let unsubscribed = 0;

const methods = new Map<string, RpcMethod>([
  ['eth_chainId', () => '0xa868'],
  ['test_echo', (p) => p],
  ['test_async', async (p) => {
    await new Promise((r) => setTimeout(r, 5));
    return p[0] ?? null;
  }],
  ['test_big', () => ({ gasLimit: 8000000n, huge: 2n ** 70n, list: [1n, 'x'] })],
  ['test_rpcError', () => {
    throw new RpcError(3, 'execution reverted: nope', '0x08c379a0');
  }],
  ['test_plainError', () => {
    throw new Error('header for hash not found');
  }],
  ['test_crash', () => {
    const o: any = undefined;
    return o.field;
  }],
  ['test_asyncError', async () => {
    throw new RpcError(-32000, 'cannot query unfinalized data');
  }],
  ['test_html', () => '<a&b>'],
  ['test_undefined', () => undefined],
  ['test_large', () => 'x'.repeat(60)],
  // A result longer than a JavaScript string can hold (V8 throws this RangeError from JSON.stringify),
  // and one that cannot be encoded at all.
  ['test_unencodable', async () => ({ toJSON() { throw new RangeError('Invalid string length'); } })],
  ['test_cyclic', () => {
    const o: Record<string, unknown> = {};
    o.self = o;
    return o;
  }],
]);

let server: http.Server;
let handlers: EthRpcHandlers;
let base: string;
let wsURL: string;

before(async () => {
  handlers = createEthRpcHandlers({
    methods,
    subscriptions: {
      subscribe(kind, params, emit, namespace) {
        if (namespace !== 'eth' || kind !== 'ticks') throw subscriptionNotFound(kind, namespace);
        if (params.length > 1) throw new RpcError(-32602, 'too many arguments, want at most 1');
        emit('early'); // before the subscription id is written: must arrive after it
        emitters.add(emit);
        return () => {
          emitters.delete(emit);
          unsubscribed++;
        };
      },
    },
    batchRequestLimit: 5,
    batchResponseMaxSize: 100,
    bodyLimit: 1000,
    log: silent,
    wsMessageLimit: 4096,
  });
  server = http.createServer((req, res) => {
    if (req.url === '/rpc') handlers.rpc.http(req, res);
    else if (req.url === '/ws') handlers.ws.http(req, res);
    else res.writeHead(404).end();
  });
  server.on('upgrade', (req, socket, head) => {
    if (req.url === '/ws') handlers.ws.upgrade!(req, socket, head);
    else socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  wsURL = `ws://127.0.0.1:${port}/ws`;
});

after(async () => {
  handlers.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function post(body: string, headers: Record<string, string> = { 'content-type': 'application/json' }, method = 'POST') {
  const res = await fetch(base + '/rpc', { method, headers, body });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

async function call(body: unknown): Promise<any> {
  const r = await post(typeof body === 'string' ? body : JSON.stringify(body));
  assert.equal(r.status, 200);
  return r.text === '' ? undefined : JSON.parse(r.text);
}

test('a call answers with jsonrpc, id, result in that order and a trailing newline', async () => {
  const r = await post('{"jsonrpc":"2.0","id":7,"method":"eth_chainId","params":[]}');
  assert.equal(r.status, 200);
  assert.equal(r.type, 'application/json');
  assert.equal(r.text, '{"jsonrpc":"2.0","id":7,"result":"0xa868"}\n');
});

test('ids are echoed (string, null, bool); params null or absent are empty', async () => {
  assert.deepEqual(await call({ jsonrpc: '2.0', id: 'abc', method: 'test_echo' }), { jsonrpc: '2.0', id: 'abc', result: [] });
  assert.deepEqual(await call({ jsonrpc: '2.0', id: null, method: 'test_echo', params: null }), { jsonrpc: '2.0', id: null, result: [] });
  assert.deepEqual(await call({ jsonrpc: '2.0', id: true, method: 'test_echo', params: [1] }), { jsonrpc: '2.0', id: true, result: [1] });
  const r = await post('{"JSONRPC":"2.0","Id":3,"Method":"eth_chainId"}');
  assert.equal(r.text, '{"jsonrpc":"2.0","id":3,"result":"0xa868"}\n', 'keys match case-insensitively as in Go');
});

test('numeric ids JSON.parse would round are echoed as sent (HTTP, batch, WebSocket)', async () => {
  const big = '123456789012345678901234567890';
  let r = await post(`{"jsonrpc":"2.0","id":${big},"method":"eth_chainId","params":[]}`);
  assert.equal(r.text, `{"jsonrpc":"2.0","id":${big},"result":"0xa868"}\n`);
  r = await post(`{"jsonrpc":"2.0", "ID" : 1e400 ,"method":"eth_chainId"}`);
  assert.equal(r.text, '{"jsonrpc":"2.0","id":1e400,"result":"0xa868"}\n', 'any case of the key; an id past a double');
  r = await post('{"jsonrpc":"2.0","id":-0,"method":"nope_x"}');
  assert.match(r.text, /^\{"jsonrpc":"2.0","id":-0,"error":/);
  r = await post('{"jsonrpc":"2.0","id":2.50,"method":"eth_chainId","params":[{"id":9007199254740993}]}');
  assert.match(r.text, /"id":2.50,/, 'a nested "id" is not the request\'s');
  // A batch: each element's own id; safe ones as before.
  r = await post(`[{"jsonrpc":"2.0","id":7,"method":"eth_chainId"},{"jsonrpc":"2.0","method":"eth_chainId","id":${big}},"x",{"jsonrpc":"2.0","id":9007199254740993}]`);
  const ids = [...r.text.matchAll(/"id":([^,]+),/g)].map((m) => m[1]);
  assert.deepEqual(ids, ['7', big, 'null', '9007199254740993']);
  const c = await wsClient();
  try {
    c.send(`{"jsonrpc":"2.0","id":${big},"method":"eth_chainId"}`);
    const answer = await new Promise<string>((resolve) => c.ws.once('message', (d) => resolve(String(d))));
    assert.equal(answer.trim(), `{"jsonrpc":"2.0","id":${big},"result":"0xa868"}`);
  } finally {
    c.close();
  }
});

test('unknown method, non-array params', async () => {
  assert.deepEqual(await call({ jsonrpc: '2.0', id: 1, method: 'eth_suggestPriceOptions', params: [] }), {
    jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'the method eth_suggestPriceOptions does not exist/is not available' },
  });
  assert.deepEqual(await call({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: {} }), {
    jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'non-array args' },
  });
  assert.deepEqual((await call({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: 'x' })).error.message, 'non-array args');
});

test('invalid requests', async () => {
  const invalid = { code: -32600, message: 'invalid request' };
  assert.deepEqual(await call({ jsonrpc: '1.0', id: 1, method: 'eth_chainId' }), { jsonrpc: '2.0', id: 1, error: invalid });
  assert.deepEqual(await call({ jsonrpc: '2.0', id: 1 }), { jsonrpc: '2.0', id: 1, error: invalid });
  assert.deepEqual(await call({ jsonrpc: '2.0', id: 1, method: 5 }), { jsonrpc: '2.0', id: 1, error: invalid });
  assert.deepEqual(await call({ jsonrpc: '2.0', id: { a: 1 }, method: 'eth_chainId' }), { jsonrpc: '2.0', id: null, error: invalid });
  assert.deepEqual(await call('5'), { jsonrpc: '2.0', id: null, error: invalid });
  assert.deepEqual(await call('"x"'), { jsonrpc: '2.0', id: null, error: invalid });
  assert.deepEqual(await call('null'), { jsonrpc: '2.0', id: null, error: invalid });
});

test('parse errors, empty body, trailing bytes', async () => {
  const r = await post('{"jsonrpc":"2.0",');
  assert.equal(r.text, '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}\n');
  assert.equal((await post('{oops}')).text, '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}\n');
  const empty = await post('');
  assert.equal(empty.status, 200);
  assert.equal(empty.text, '');
  // Go's decoder reads the first value only.
  assert.deepEqual(await call('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"} trailing'), { jsonrpc: '2.0', id: 1, result: '0xa868' });
});

test('notifications and responses get no answer', async () => {
  assert.equal(await call({ jsonrpc: '2.0', method: 'eth_chainId' }), undefined);
  assert.equal(await call({ jsonrpc: '2.0', method: 'nope_nothing' }), undefined);
  assert.equal(await call({ jsonrpc: '2.0', id: 1, result: '0x1' }), undefined);
  assert.equal(await call([{ jsonrpc: '2.0', method: 'eth_chainId' }]), undefined);
});

test('errors: RpcError with data, plain Error → -32000, a crash → -32603, async errors', async () => {
  assert.equal(
    (await post('{"jsonrpc":"2.0","id":1,"method":"test_rpcError"}')).text,
    '{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted: nope","data":"0x08c379a0"}}\n',
  );
  assert.deepEqual((await call({ jsonrpc: '2.0', id: 1, method: 'test_plainError' })).error, { code: -32000, message: 'header for hash not found' });
  assert.deepEqual((await call({ jsonrpc: '2.0', id: 1, method: 'test_crash' })).error, { code: -32603, message: 'method handler crashed' });
  assert.deepEqual((await call({ jsonrpc: '2.0', id: 1, method: 'test_asyncError' })).error, { code: -32000, message: 'cannot query unfinalized data' });
  assert.deepEqual(await call({ jsonrpc: '2.0', id: 2, method: 'test_async', params: ['0x5'] }), { jsonrpc: '2.0', id: 2, result: '0x5' });
  assert.deepEqual(await call({ jsonrpc: '2.0', id: 2, method: 'test_undefined' }), { jsonrpc: '2.0', id: 2, result: null });
});

test('regression: a result that cannot be encoded is answered in its own envelope, not as a failed request or batch', async () => {
  assert.deepEqual(await call({ jsonrpc: '2.0', id: 4, method: 'test_unencodable' }), { jsonrpc: '2.0', id: 4, error: { code: -32003, message: 'response too large' } });
  assert.deepEqual(await call({ jsonrpc: '2.0', id: 5, method: 'test_cyclic' }), { jsonrpc: '2.0', id: 5, error: { code: -32603, message: 'method handler crashed' } });
  assert.deepEqual(
    await call([
      { jsonrpc: '2.0', id: 1, method: 'test_unencodable' },
      { jsonrpc: '2.0', id: 2, method: 'eth_chainId' },
    ]),
    [
      { jsonrpc: '2.0', id: 1, error: { code: -32003, message: 'response too large' } },
      { jsonrpc: '2.0', id: 2, result: '0xa868' },
    ],
  );
});

test('bigint results are bare JSON numbers; <>& are escaped as Go does', async () => {
  const r = await post('{"jsonrpc":"2.0","id":1,"method":"test_big"}');
  assert.equal(r.text, '{"jsonrpc":"2.0","id":1,"result":{"gasLimit":8000000,"huge":1180591620717411303424,"list":[1,"x"]}}\n');
  assert.equal((await post('{"jsonrpc":"2.0","id":1,"method":"test_html"}')).text, '{"jsonrpc":"2.0","id":1,"result":"\\u003ca\\u0026b\\u003e"}\n');
  assert.equal(toJSON({ a: 1n, s: 'plain' }), '{"a":1,"s":"plain"}');
  assert.equal(toJSON(undefined), 'null');
});

test('batches: order kept, invalid members answered, empty batch, limits', async () => {
  const r = await call([
    { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
    { jsonrpc: '2.0', id: 2, method: 'test_async', params: ['a'] },
    { jsonrpc: '2.0', method: 'eth_chainId' },
    5,
    { jsonrpc: '2.0', id: 3, method: 'nope' },
  ]);
  assert.deepEqual(r, [
    { jsonrpc: '2.0', id: 1, result: '0xa868' },
    { jsonrpc: '2.0', id: 2, result: 'a' },
    { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } },
    { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'the method nope does not exist/is not available' } },
  ]);
  assert.equal((await post('[]')).text, '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"empty batch"}}\n');
  const six = Array.from({ length: 6 }, (_, i) => ({ jsonrpc: '2.0', id: i + 10, method: 'eth_chainId' }));
  assert.equal((await post(JSON.stringify(six))).text, '[{"jsonrpc":"2.0","id":10,"error":{"code":-32600,"message":"batch too large"}}]\n');
  // Response size: each test_large result is 62 bytes; the limit is 100.
  const big = await call([
    { jsonrpc: '2.0', id: 1, method: 'test_large' },
    { jsonrpc: '2.0', id: 2, method: 'test_large' },
    { jsonrpc: '2.0', id: 3, method: 'test_large' },
    { jsonrpc: '2.0', method: 'test_large' },
  ]);
  assert.equal(big.length, 3);
  assert.equal(big[0].result.length, 60);
  assert.equal(big[1].result.length, 60);
  assert.deepEqual(big[2], { jsonrpc: '2.0', id: 3, error: { code: -32003, message: 'response too large' } });
});

test('HTTP rules: GET health check, PUT/DELETE 405, content type 415, body limit 413', async () => {
  const get = await fetch(base + '/rpc');
  assert.equal(get.status, 200);
  assert.equal(await get.text(), '');
  for (const m of ['PUT', 'DELETE']) {
    const r = await post('{}', { 'content-type': 'application/json' }, m);
    assert.equal(r.status, 405);
    assert.equal(r.text, 'method not allowed\n');
  }
  const ct = await post('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', { 'content-type': 'text/plain' });
  assert.equal(ct.status, 415);
  assert.equal(ct.text, 'invalid content type, only application/json is supported\n');
  const none = await post('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', {});
  assert.equal(none.status, 415);
  const charset = await post('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', { 'content-type': 'application/json; charset=utf-8' });
  assert.equal(charset.status, 200);
  const rpcType = await post('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', { 'content-type': 'application/json-rpc' });
  assert.equal(rpcType.status, 200);
  const big = await post('[' + ' '.repeat(1500) + ']');
  assert.equal(big.status, 413);
  assert.equal(big.text, 'content length too large (1502>1000)\n');
  const ws = await fetch(base + '/ws');
  assert.equal(ws.status, 400);
});

test('chunked body over the limit is cut and answers a parse error', async () => {
  const port = new URL(base).port;
  const text = await new Promise<string>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/rpc', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let s = '';
      res.on('data', (c) => (s += c));
      res.on('end', () => resolve(s));
    });
    req.on('error', reject);
    req.write('[{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["');
    req.write('y'.repeat(2000));
    req.end('"]}]');
  });
  assert.equal(text, '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}\n');
});

test('eth_subscribe over HTTP: notifications not supported; unsubscribe: not found', async () => {
  assert.deepEqual((await call({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['ticks'] })).error, { code: -32601, message: 'notifications not supported' });
  assert.deepEqual((await call({ jsonrpc: '2.0', id: 1, method: 'eth_unsubscribe', params: ['0x1'] })).error, { code: -32000, message: 'subscription not found' });
});

const wsClient = () => openWsClient(wsURL);

test('WebSocket: calls, batches, subscribe → id then notifications, unsubscribe', async () => {
  const c = await wsClient();
  c.send({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' });
  assert.deepEqual(await c.next(), { jsonrpc: '2.0', id: 1, result: '0xa868' });
  c.send([{ jsonrpc: '2.0', id: 2, method: 'eth_chainId' }, { jsonrpc: '2.0', id: 3, method: 'nope' }]);
  const batch = await c.next();
  assert.equal(batch.length, 2);
  assert.equal(batch[1].error.code, -32601);

  c.send({ jsonrpc: '2.0', id: 4, method: 'eth_subscribe', params: ['ticks'] });
  const sub = await c.next();
  assert.equal(sub.id, 4);
  assert.match(sub.result, /^0x[1-9a-f][0-9a-f]*$/);
  assert.deepEqual(await c.next(), { jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: sub.result, result: 'early' } });
  for (const e of emitters) e({ number: '0x1', big: 5n });
  assert.deepEqual(await c.next(), { jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: sub.result, result: { number: '0x1', big: 5 } } });

  c.send({ jsonrpc: '2.0', id: 5, method: 'eth_subscribe', params: ['nope'] });
  assert.deepEqual((await c.next()).error, { code: -32601, message: 'no "nope" subscription in eth namespace' });
  c.send({ jsonrpc: '2.0', id: 6, method: 'eth_subscribe' });
  assert.deepEqual((await c.next()).error, { code: -32602, message: 'non-array args' });
  c.send({ jsonrpc: '2.0', id: 7, method: 'eth_subscribe', params: [] });
  assert.deepEqual((await c.next()).error, { code: -32602, message: 'expected subscription name as first argument' });
  c.send({ jsonrpc: '2.0', id: 8, method: 'eth_subscribe', params: ['ticks', 1] });
  assert.deepEqual((await c.next()).error, { code: -32602, message: 'too many arguments, want at most 1' });
  c.send({ jsonrpc: '2.0', id: 9, method: 'foo_subscribe', params: ['ticks'] });
  assert.deepEqual((await c.next()).error, { code: -32601, message: 'no "ticks" subscription in foo namespace' });

  const before = unsubscribed;
  c.send({ jsonrpc: '2.0', id: 10, method: 'eth_unsubscribe', params: [sub.result] });
  assert.deepEqual(await c.next(), { jsonrpc: '2.0', id: 10, result: true });
  assert.equal(unsubscribed, before + 1);
  c.send({ jsonrpc: '2.0', id: 11, method: 'eth_unsubscribe', params: [sub.result] });
  assert.deepEqual((await c.next()).error, { code: -32000, message: 'subscription not found' });
  c.send({ jsonrpc: '2.0', id: 12, method: 'eth_unsubscribe', params: [5] });
  assert.deepEqual((await c.next()).error, { code: -32602, message: 'invalid argument 0: json: cannot unmarshal number into Go value of type rpc.ID' });
  c.send({ jsonrpc: '2.0', id: 13, method: 'eth_unsubscribe', params: [] });
  assert.deepEqual((await c.next()).error, { code: -32602, message: 'missing value for required argument 0' });
  c.ws.close();
  await c.closed;
});

test('WebSocket: closing the connection ends its subscriptions', async () => {
  const c = await wsClient();
  c.send({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['ticks'] });
  await c.next();
  await c.next(); // 'early'
  const before = unsubscribed;
  const count = emitters.size;
  c.ws.close();
  await c.closed;
  while (emitters.size === count) await new Promise((r) => setTimeout(r, 5));
  assert.equal(unsubscribed, before + 1);
});

test('WebSocket: invalid JSON answers a parse error and drops the connection; the server lives on', async () => {
  const c = await wsClient();
  c.send('{nope');
  assert.deepEqual(await c.next(), { jsonrpc: '2.0', id: null, error: { code: -32700, message: "invalid character 'n' looking for beginning of object key string" } });
  await c.closed;
  const d = await wsClient();
  d.ws.send(Buffer.from([0xff, 0x00, 0x01]), { binary: true });
  await d.closed;
  const e = await wsClient();
  e.send({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' });
  assert.deepEqual(await e.next(), { jsonrpc: '2.0', id: 1, result: '0xa868' });
  e.ws.close();
  await e.closed;
});

test('WebSocket: a message over the size limit closes the connection with 1009', async () => {
  const c = await wsClient();
  c.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'test_echo', params: ['z'.repeat(5000)] }));
  assert.equal(await c.closed, 1009);
  const d = await wsClient();
  d.send({ jsonrpc: '2.0', id: 2, method: 'test_echo', params: ['z'.repeat(3000)] });
  assert.equal((await d.next()).result[0].length, 3000);
  d.ws.close();
  await d.closed;
});
