// Request methods and expectations as Go's net/http takes them, on the wire (raw sockets): methods
// node:http's parser does not know (`FOO`, a lower-case `post`, RTSP's `DESCRIBE`) and CONNECT
// are routed like any request (reparse.ts, unknownMethods.ts); `Expect` gets Go's answers
// (expectContinue.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestNode } from '../../test/helpers.js';
import { maskDate, post, type Resp, useWireNode, Wire } from '../../test/httpWire.js';

let t: TestNode;
let port: number;
let nodeID: string;
useWireNode({ 'http-allowed-origins': '*' }, (n) => ({ t, port, nodeID } = n));

const LIMIT = { timeout: 10_000 };
const INFO_CALL = '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}';
const INFO_ANSWER = '{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":1}\n';
const CHAIN_CALL = '{"jsonrpc":"2.0","id":7,"method":"eth_chainId"}';
const CHAIN_ANSWER = '{"jsonrpc":"2.0","id":7,"result":"0xa8ca"}\n';

/** gorilla rpc's 405 for a method other than POST, as the node sends it (Date masked). */
function gorilla405(method: string): string {
  const body = `rpc: POST method required, received ${method}`;
  return `HTTP/1.1 405 Method Not Allowed\r\nnode-id: ${nodeID}\r\nVary: Origin\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nDate: *\r\n\r\n${body}`;
}
const bodyOf = (r: Resp) => r.body;
const request = (method: string, path: string, extra = '') => `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}\r\n`;

test('methods node:http does not parse reach the route as sent: `post`, `FOO`, `DESCRIBE` on /ext/info get gorilla\'s 405 naming them; the connection serves on', LIMIT, async () => {
  const w = await Wire.open(port);
  for (const method of ['post', 'FOO', 'Get', 'POSTX', 'DESCRIBE']) {
    await w.write(request(method, '/ext/info'));
    assert.equal(maskDate((await w.read(1))[0]), gorilla405(method), method);
  }
  await w.write(post('/ext/info', INFO_CALL));
  assert.equal((await w.read(1))[0].body, INFO_ANSWER);
  assert.equal(w.closed, false);
});

test('a lower-case `post` to a chain\'s JSON-RPC route is served as a call (geth answers any method but GET, PUT, DELETE)', LIMIT, async () => {
  const w = await Wire.open(port);
  await w.write(post('/ext/bc/dev/rpc', CHAIN_CALL).replace(/^POST/, 'post'));
  const [r] = await w.read(1);
  assert.equal(r.status, 200);
  assert.equal(r.body, CHAIN_ANSWER);
});

test('an unknown method after node:http took the connection (an Origin request first), and pipelined behind an answer being written, keeps request order', LIMIT, async () => {
  const w = await Wire.open(port);
  await w.write(post('/ext/info', INFO_CALL, 'Origin: http://example.com\r\n'));
  assert.equal((await w.read(1))[0].body, INFO_ANSWER);
  await w.write(request('FOO', '/ext/info'));
  assert.equal(maskDate((await w.read(1))[0]), gorilla405('FOO'));
  // One write: a body-reading POST (answered after its body's 'end'), then two unknown methods, then a POST.
  await w.write(post('/ext/info', INFO_CALL, 'Origin: http://example.com\r\n') + request('FOO', '/ext/info') + post('/ext/info', INFO_CALL).replace(/^POST/, 'post') + post('/ext/info', INFO_CALL));
  const rs = await w.read(4);
  assert.deepEqual(rs.map(bodyOf), [INFO_ANSWER, 'rpc: POST method required, received FOO', 'rpc: POST method required, received post', INFO_ANSWER]);
});

test('a method that is not a token, or an unknown method on a malformed line, is still `400 Bad Request` and a close', LIMIT, async () => {
  for (const req of [request('F@O', '/ext/info'), 'FOO /ext/info HTTP/1.1 x\r\nHost: 127.0.0.1\r\n\r\n', 'FOO\r\n\r\n']) {
    const w = await Wire.open(port);
    await w.write(req);
    assert.ok(await w.waitClose(), JSON.stringify(req));
    assert.equal(w.pending.toString('latin1'), 'HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request', JSON.stringify(req));
  }
  // An unknown method keeps Go's other checks: no Host on HTTP/1.1.
  const w = await Wire.open(port);
  await w.write('FOO /ext/info HTTP/1.1\r\n\r\n');
  assert.ok(await w.waitClose());
  assert.match(w.pending.toString('latin1'), /^HTTP\/1\.1 400 Bad Request: missing required Host header\r\n/);
});

test('CONNECT is routed as in Go: `CONNECT host:port` is redirected to `//host:port/` (after the Host filter on that host), `CONNECT /path` reaches the route', LIMIT, async () => {
  const w = await Wire.open(port);
  await w.write('CONNECT 127.0.0.1:9650 HTTP/1.1\r\nHost: 127.0.0.1:9650\r\n\r\n');
  assert.equal(
    maskDate((await w.read(1))[0]),
    `HTTP/1.1 301 Moved Permanently\r\nnode-id: ${nodeID}\r\nVary: Origin\r\nLocation: //127.0.0.1:9650/\r\nContent-Length: 0\r\nDate: *\r\n\r\n`,
  );
  // Go takes the CONNECT target's host as the request's host (and needs no Host header for CONNECT).
  await w.write('CONNECT example.com:443 HTTP/1.1\r\n\r\n');
  const [forbidden] = await w.read(1);
  assert.equal(forbidden.status, 403);
  assert.equal(forbidden.body, 'invalid host specified\n');
  await w.write(request('CONNECT', '/ext/info'));
  assert.equal(maskDate((await w.read(1))[0]), gorilla405('CONNECT'));
  await w.write(post('/ext/info', INFO_CALL));
  assert.equal((await w.read(1))[0].body, INFO_ANSWER);
});

test("Expect: 100-continue gets no 100 from a route that answers without reading the body, and that answer closes the connection (Go's server)", LIMIT, async () => {
  const w = await Wire.open(port);
  await w.write('POST /ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n');
  const [r] = await w.read(1);
  assert.equal(r.status, 415);
  assert.equal(r.body, 'rpc: unrecognized Content-Type: text/plain');
  assert.equal(r.headers.find(([n]) => n === 'Connection')?.[1], 'close');
  assert.ok(await w.waitClose());
  // With nothing announced (Content-Length: 0) there is no body to wait for: keep-alive as usual.
  const w2 = await Wire.open(port);
  await w2.write('POST /ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 0\r\nExpect: 100-continue\r\n\r\n');
  const [r2] = await w2.read(1);
  assert.equal(r2.status, 200);
  assert.equal(r2.headers.find(([n]) => n === 'Connection'), undefined); // kept, and named as Go names it: not at all
  // A route that reads the body: 100 first, then the answer, keep-alive.
  await w2.write('POST /ext/bc/dev/rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n');
  const [cont] = await w2.read(1);
  assert.equal(cont.raw, 'HTTP/1.1 100 Continue\r\n\r\n');
  await w2.write(`${CHAIN_CALL.length.toString(16)}\r\n${CHAIN_CALL}\r\n0\r\n\r\n`);
  assert.equal((await w2.read(1))[0].body, CHAIN_ANSWER);
});

test('an Expect other than 100-continue gets `417 Expectation Failed` and a close, before any handler (no node-id)', LIMIT, async () => {
  const w = await Wire.open(port);
  await w.write(post('/ext/info', INFO_CALL, 'Expect: something\r\n'));
  const [r] = await w.read(1);
  assert.equal(maskDate(r), 'HTTP/1.1 417 Expectation Failed\r\nContent-Length: 0\r\nDate: *\r\nConnection: close\r\n\r\n');
  assert.ok(await w.waitClose());
});
