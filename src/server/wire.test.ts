// The HTTP front door as a client sees it on the wire: exact request bytes written to raw sockets,
// exact response bytes read back. These pin the behaviour that must hold whichever way http.ts
// serves a connection (its fast path on the raw socket, or node:http after a hand-off): the
// answers, their header order, keep-alive and closing, pipelining, timeouts and shutdown.
// Only the value of the Date header is ever masked when responses are compared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startTestNode, type TestNode } from '../../test/helpers.js';
import { chunkedPost, maskDate, post, type Resp, useWireNode, Wire } from '../../test/httpWire.js';
import WebSocket from 'ws';

// ----- helpers

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A masked client text frame (payload under 126 bytes). */
function wsTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  assert.ok(payload.length < 126);
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]));
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]);
}

const names = (r: Resp) => r.headers.map(([n]) => n);

const CHAIN = '/ext/bc/dev/rpc';
const INFO = '/ext/info';

const ethCall = (method: string, id: number) => `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":[]}`;
const infoCall = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"info.getNetworkID"}`;
const chainIdAnswer = (id: number) => `{"jsonrpc":"2.0","id":${id},"result":"0xa8ca"}\n`;
const networkIdAnswer = (id: number) => `{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":${id}}\n`;

/** What the node sends for a 200 JSON-RPC answer, Date masked (the compatibility contract). */
function chainOK(nodeID: string, body: string): string {
  return (
    `HTTP/1.1 200 OK\r\nnode-id: ${nodeID}\r\nVary: Origin\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `Date: *\r\n\r\n${body}`
  );
}
/** …and for a 200 answer of one of the node's own (gorilla) services such as /ext/info. */
function infoOK(nodeID: string, body: string): string {
  return (
    `HTTP/1.1 200 OK\r\nnode-id: ${nodeID}\r\nVary: Origin\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nDate: *\r\n\r\n${body}`
  );
}
/** A plain-text error answer of the chain's JSON-RPC handler. */
function textError(nodeID: string, statusLine: string, body: string): string {
  return (
    `${statusLine}\r\nnode-id: ${nodeID}\r\nVary: Origin\r\nContent-Type: text/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nDate: *\r\n\r\n${body}`
  );
}

/** Go's net/http answer to a request it cannot read (server.go), and its answers with a reason. */
const GO_ERROR_HEADERS = '\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n';
const BAD_REQUEST = `HTTP/1.1 400 Bad Request${GO_ERROR_HEADERS}400 Bad Request`;
const goStatusError = (status: string, text: string) => `HTTP/1.1 ${status}: ${text}${GO_ERROR_HEADERS}${status}: ${text}`;

// ----- the shared node (a dev Subnet-EVM chain at /ext/bc/dev/rpc, CORS `*`, default timeouts)

let t: TestNode;
let port: number;
let nodeID: string;
useWireNode({ 'http-allowed-origins': '*' }, (n) => ({ t, port, nodeID } = n));

// ----- tests

/** A hung exchange fails its test instead of the whole run. */
const LIMIT = { timeout: 10_000 };

test('a chunked body gets byte-for-byte the answer of the Content-Length one (eth_chainId, info.getNetworkID), headers in their current order', LIMIT, async () => {
  const cases = [
    { path: CHAIN, body: ethCall('eth_chainId', 1), expected: chainOK(nodeID, chainIdAnswer(1)) },
    { path: INFO, body: infoCall(1), expected: infoOK(nodeID, networkIdAnswer(1)) },
  ];
  for (const { path, body, expected } of cases) {
    const a = await Wire.open(port);
    await a.write(post(path, body));
    const [plain] = await a.read(1);
    assert.equal(maskDate(plain), expected);
    const b = await Wire.open(port);
    await b.write(chunkedPost(path, body, 3));
    const [chunked] = await b.read(1);
    assert.equal(maskDate(chunked), maskDate(plain), path);
    a.destroy();
    b.destroy();
  }
  // The header contract, spelled out (the full bytes are compared above).
  const w = await Wire.open(port);
  await w.write(post(CHAIN, ethCall('eth_chainId', 2)) + post(INFO, infoCall(3)));
  const [chain, info] = await w.read(2);
  w.destroy();
  assert.match(chain.raw, /^HTTP\/1\.1 200 OK\r\n/);
  // As Go's net/http: no Connection (nor Keep-Alive) on an answer that keeps the connection.
  assert.deepEqual(names(chain), ['node-id', 'Vary', 'Content-Type', 'Content-Length', 'Date']);
  assert.deepEqual(names(info), ['node-id', 'Vary', 'Content-Type', 'X-Content-Type-Options', 'Content-Length', 'Date']);
  assert.deepEqual(chain.headers.filter(([n]) => n !== 'Date'), [
    ['node-id', nodeID],
    ['Vary', 'Origin'],
    ['Content-Type', 'application/json'],
    ['Content-Length', '43'],
  ]);
  assert.equal(chain.body, chainIdAnswer(2));
  assert.equal(info.body, networkIdAnswer(3));
});

test('pipelining: five requests in one write get five answers in request order (also with a chunked one in the middle)', LIMIT, async () => {
  // The current height (a fresh dev chain: 0x0), for the exact eth_blockNumber answer.
  const h = await Wire.open(port);
  await h.write(post(CHAIN, ethCall('eth_blockNumber', 1)));
  const height = (JSON.parse((await h.read(1))[0].body) as { result: string }).result;
  h.destroy();
  assert.match(height, /^0x[0-9a-f]+$/);
  const blockAnswer = (id: number) => `{"jsonrpc":"2.0","id":${id},"result":"${height}"}\n`;
  for (const chunkedThird of [false, true]) {
    const requests = [
      post(CHAIN, ethCall('eth_chainId', 11)),
      post(INFO, infoCall(12)),
      chunkedThird ? chunkedPost(CHAIN, ethCall('eth_blockNumber', 13), 2) : post(CHAIN, ethCall('eth_blockNumber', 13)),
      post(CHAIN, ethCall('eth_chainId', 14)),
      post(INFO, infoCall(15)),
    ];
    const expected = [
      chainOK(nodeID, chainIdAnswer(11)),
      infoOK(nodeID, networkIdAnswer(12)),
      chainOK(nodeID, blockAnswer(13)),
      chainOK(nodeID, chainIdAnswer(14)),
      infoOK(nodeID, networkIdAnswer(15)),
    ];
    const w = await Wire.open(port);
    await w.write(requests.join(''));
    const rs = await w.read(5);
    assert.deepEqual(rs.map(maskDate), expected, `chunked third: ${chunkedThird}`);
    // Exactly five: nothing else arrives.
    await sleep(30);
    assert.equal(w.pending.length, 0);
    assert.equal(w.closed, false);
    w.destroy();
  }
});

test('a request delivered one byte per write is answered, and the connection serves the next request', LIMIT, async () => {
  const w = await Wire.open(port);
  const req = Buffer.from(post(CHAIN, ethCall('eth_chainId', 21)));
  for (let i = 0; i < req.length; i++) {
    await w.write(req.subarray(i, i + 1));
    await (i % 2 ? sleep(1) : new Promise((r) => setImmediate(r)));
    if (i < req.length - 1) assert.equal(w.pending.length, 0, `no answer before the last byte (after ${i + 1})`);
  }
  const [first] = await w.read(1);
  assert.equal(maskDate(first), chainOK(nodeID, chainIdAnswer(21)));
  await w.write(post(INFO, infoCall(22)));
  const [second] = await w.read(1);
  assert.equal(maskDate(second), infoOK(nodeID, networkIdAnswer(22)));
  w.destroy();
});

test('one keep-alive connection: Content-Length, then chunked, then Content-Length again, each answered in turn', LIMIT, async () => {
  const w = await Wire.open(port);
  await w.write(post(CHAIN, ethCall('eth_chainId', 31)));
  assert.equal(maskDate((await w.read(1))[0]), chainOK(nodeID, chainIdAnswer(31)));
  await w.write(chunkedPost(CHAIN, ethCall('eth_chainId', 32), 2));
  assert.equal(maskDate((await w.read(1))[0]), chainOK(nodeID, chainIdAnswer(32)));
  await w.write(post(INFO, infoCall(33)));
  assert.equal(maskDate((await w.read(1))[0]), infoOK(nodeID, networkIdAnswer(33)));
  await w.write(post(CHAIN, ethCall('eth_chainId', 34)));
  assert.equal(maskDate((await w.read(1))[0]), chainOK(nodeID, chainIdAnswer(34)));
  assert.equal(w.closed, false);
  w.destroy();
});

test('Expect: 100-continue gets `HTTP/1.1 100 Continue` before the body is sent, then the usual 200', LIMIT, async () => {
  const w = await Wire.open(port);
  const body = ethCall('eth_chainId', 41);
  await w.write(`POST ${CHAIN} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${body.length}\r\n\r\n`);
  const [interim] = await w.read(1);
  assert.equal(interim.raw, 'HTTP/1.1 100 Continue\r\n\r\n');
  await sleep(20);
  assert.equal(w.pending.length, 0, 'nothing more before the body');
  await w.write(body);
  const [final] = await w.read(1);
  assert.equal(maskDate(final), chainOK(nodeID, chainIdAnswer(41)));
  // Still keep-alive afterwards.
  await w.write(post(CHAIN, ethCall('eth_chainId', 42)));
  assert.equal(maskDate((await w.read(1))[0]), chainOK(nodeID, chainIdAnswer(42)));
  w.destroy();
});

test('Connection: close and HTTP/1.0 requests are answered with `Connection: close` and the server then closes', LIMIT, async () => {
  const closeAnswer = (body: string) =>
    `HTTP/1.1 200 OK\r\nnode-id: ${nodeID}\r\nVary: Origin\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nDate: *\r\nConnection: close\r\n\r\n${body}`;
  const a = await Wire.open(port);
  await a.write(post(CHAIN, ethCall('eth_chainId', 51), 'Connection: close\r\n'));
  const [ra] = await a.read(1);
  assert.equal(maskDate(ra), closeAnswer(chainIdAnswer(51)));
  assert.equal(await a.waitClose(3000), true, 'server closes after Connection: close');
  assert.equal(a.ended, true, 'a clean FIN');
  assert.equal(a.pending.length, 0);

  const b = await Wire.open(port);
  await b.write(post(CHAIN, ethCall('eth_chainId', 52), '', '1.0'));
  const [rb] = await b.read(1);
  assert.equal(maskDate(rb), closeAnswer(chainIdAnswer(52)));
  assert.equal(await b.waitClose(3000), true, 'server closes after an HTTP/1.0 request');
  assert.equal(b.ended, true);
  assert.equal(b.pending.length, 0);
});

test('an HTTP/1.0 request asking for keep-alive is answered with `Connection: keep-alive` (as Go) and the connection serves on', LIMIT, async () => {
  const w = await Wire.open(port);
  await w.write(post(CHAIN, ethCall('eth_chainId', 53), 'Connection: keep-alive\r\n', '1.0'));
  const [r] = await w.read(1);
  assert.equal(r.headers.find(([n]) => n === 'Connection')?.[1], 'keep-alive');
  assert.equal(r.body, chainIdAnswer(53));
  await w.write(post(CHAIN, ethCall('eth_chainId', 54)));
  assert.equal(maskDate((await w.read(1))[0]), chainOK(nodeID, chainIdAnswer(54)));
  w.destroy();
});

test('garbage on the wire gets `400 Bad Request` and a close (also after a good request); the node keeps serving', LIMIT, async () => {
  const inputs = ['HELLO\r\n\r\n', `GET ${INFO} HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n`, `POST ${CHAIN} HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\nContent-Length: 2\r\n\r\n{}`];
  for (const input of inputs) {
    const w = await Wire.open(port);
    await w.write(input);
    assert.equal(await w.waitClose(3000), true, JSON.stringify(input));
    const [r] = await w.read(1);
    assert.equal(r.raw, BAD_REQUEST, JSON.stringify(input));
    assert.equal(w.pending.length, 0);
  }
  // A good request first, then garbage on the same connection.
  const w = await Wire.open(port);
  await w.write(post(CHAIN, ethCall('eth_chainId', 61)) + 'HELLO\r\n\r\n');
  assert.equal(await w.waitClose(3000), true);
  const [good, bad] = await w.read(2);
  assert.equal(maskDate(good), chainOK(nodeID, chainIdAnswer(61)));
  assert.equal(bad.raw, BAD_REQUEST);
  // New connections are served.
  const n = await Wire.open(port);
  await n.write(post(CHAIN, ethCall('eth_chainId', 62)));
  assert.equal(maskDate((await n.read(1))[0]), chainOK(nodeID, chainIdAnswer(62)));
  n.destroy();
});

test("requests Go's server refuses before any handler get its answers and a close: Host, version, Transfer-Encoding, head size", LIMIT, async () => {
  const body = ethCall('eth_chainId', 81);
  const noHost = (path: string, version = '1.1') => `POST ${path} HTTP/${version}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  const refused: [string, string][] = [
    [noHost(CHAIN), goStatusError('400 Bad Request', 'missing required Host header')],
    [noHost(INFO), goStatusError('400 Bad Request', 'missing required Host header')],
    [post(CHAIN, body, 'Host: 127.0.0.1\r\n'), goStatusError('400 Bad Request', 'too many Host headers')],
    [post(CHAIN, body).replace('Host: 127.0.0.1', 'Host: a b'), goStatusError('400 Bad Request', 'malformed Host header')],
    [post(CHAIN, body).replace('Host: 127.0.0.1', 'Host: "127.0.0.1"'), goStatusError('400 Bad Request', 'malformed Host header')],
    [post(CHAIN, body, '', '2.0'), goStatusError('505 HTTP Version Not Supported', 'unsupported protocol version')],
    [post(CHAIN, body, 'Transfer-Encoding: gzip\r\n'), `HTTP/1.1 501 Not Implemented${GO_ERROR_HEADERS}Unsupported transfer encoding`],
    [`GET /ext/bc/dev/ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`, goStatusError('400 Bad Request', 'missing required Host header')],
    [post(CHAIN, body, `X-Big: ${'a'.repeat(1100 * 1024)}\r\n`), `HTTP/1.1 431 Request Header Fields Too Large${GO_ERROR_HEADERS}431 Request Header Fields Too Large`],
  ];
  for (const [input, answer] of refused) {
    const w = await Wire.open(port);
    await w.write(input);
    assert.equal(await w.waitClose(3000), true, input.slice(0, 80));
    const [r] = await w.read(1);
    assert.equal(r.raw, answer, input.slice(0, 80));
    assert.equal(w.pending.length, 0);
  }
  // What Go reads: an HTTP/1.0 request without a Host, an empty Host, a 100 KiB head (node:http's
  // own limit is 16 KiB), a chunked body.
  const accepted = [noHost(CHAIN, '1.0'), post(CHAIN, body).replace('Host: 127.0.0.1', 'Host: '), post(CHAIN, body, `X-Big: ${'a'.repeat(100 * 1024)}\r\n`), chunkedPost(CHAIN, body)];
  for (const input of accepted) {
    const w = await Wire.open(port);
    await w.write(input);
    const [r] = await w.read(1);
    assert.match(r.raw, /^HTTP\/1\.1 200 OK\r\n/, input.slice(0, 80));
    assert.ok(r.raw.endsWith(chainIdAnswer(81)), r.raw);
    w.destroy();
  }
});

test('the chain JSON-RPC handler: 413 over 5 MiB (declared), 415 for text/plain, 200 empty for a bare GET, 405 for PUT', LIMIT, async () => {
  // Declared 5 MiB + 1; only a little of it is sent.
  const big = await Wire.open(port);
  await big.write(`POST ${CHAIN} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${5 * 1024 * 1024 + 1}\r\n\r\n{"jsonrpc"`);
  const [r413] = await big.read(1);
  assert.equal(maskDate(r413), textError(nodeID, 'HTTP/1.1 413 Payload Too Large', 'content length too large (5242881>5242880)\n'));
  big.destroy();

  const w = await Wire.open(port);
  const body = ethCall('eth_chainId', 71);
  await w.write(`POST ${CHAIN} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  const [r415] = await w.read(1);
  assert.equal(maskDate(r415), textError(nodeID, 'HTTP/1.1 415 Unsupported Media Type', 'invalid content type, only application/json is supported\n'));
  await w.write(`GET ${CHAIN} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  const [get] = await w.read(1);
  assert.equal(maskDate(get), `HTTP/1.1 200 OK\r\nnode-id: ${nodeID}\r\nVary: Origin\r\nContent-Length: 0\r\nDate: *\r\n\r\n`);
  // geth looks at URL.RawQuery: a bare `?` leaves it empty (the health check), `?x` does not (415).
  await w.write(`GET ${CHAIN}? HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  assert.equal(maskDate((await w.read(1))[0]), maskDate(get));
  await w.write(`GET ${CHAIN}?x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  assert.equal((await w.read(1))[0].status, 415);
  await w.write(`PUT ${CHAIN} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  const [put] = await w.read(1);
  assert.equal(maskDate(put), textError(nodeID, 'HTTP/1.1 405 Method Not Allowed', 'method not allowed\n'));
  // The connection is still good.
  await w.write(post(CHAIN, ethCall('eth_chainId', 72)));
  assert.equal(maskDate((await w.read(1))[0]), chainOK(nodeID, chainIdAnswer(72)));
  w.destroy();
});

test('404 for an unknown path and 301 for a non-canonical one, each followed by a working request on the same connection', LIMIT, async () => {
  const a = await Wire.open(port);
  await a.write(`GET /ext/nope HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  const [notFound] = await a.read(1);
  assert.equal(maskDate(notFound), textError(nodeID, 'HTTP/1.1 404 Not Found', '404 page not found\n'));
  await a.write(post(CHAIN, ethCall('eth_chainId', 81)));
  assert.equal(maskDate((await a.read(1))[0]), chainOK(nodeID, chainIdAnswer(81)));
  a.destroy();

  // A POST (its body must be read past) to a path with `..`: 301 with an empty chunked body.
  const b = await Wire.open(port);
  await b.write(post('/ext/bc/dev/../dev/rpc', ethCall('eth_chainId', 82)));
  const [moved] = await b.read(1);
  assert.equal(
    maskDate(moved),
    `HTTP/1.1 301 Moved Permanently\r\nnode-id: ${nodeID}\r\nVary: Origin\r\nLocation: /ext/bc/dev/rpc\r\nContent-Length: 0\r\nDate: *\r\n\r\n`,
  );
  await b.write(post(CHAIN, ethCall('eth_chainId', 83)));
  assert.equal(maskDate((await b.read(1))[0]), chainOK(nodeID, chainIdAnswer(83)));
  b.destroy();
});

test('Go\'s timeouts: idle keep-alive connections close after http-idle-timeout; a request not whole within http-read-timeout, or its head within http-read-header-timeout, closes unanswered', LIMIT, async () => {
  const n = await startTestNode({ 'db-type': 'memdb', chains: [], 'http-idle-timeout': '300ms', 'http-read-timeout': '900ms', 'http-read-header-timeout': '500ms' });
  try {
    const p = Number(new URL(n.url).port);
    const id = n.node.nodeID;
    // One answered request on each path (a Content-Length one, a chunked one), then idle.
    const idle = async (request: string) => {
      const w = await Wire.open(p);
      await w.write(request);
      const [r] = await w.read(1);
      const answeredAt = Date.now();
      assert.equal(maskDate(r), infoOK(id, networkIdAnswer(91)));
      assert.equal(await w.waitClose(4000), true, 'idle connection closed');
      return w.closedAt - answeredAt;
    };
    // Part of a request, then nothing more: the connection closes without an answer.
    const stalled = async (partial: string) => {
      const w = await Wire.open(p);
      await w.write(partial);
      const sentAt = Date.now();
      assert.equal(await w.waitClose(5000), true, 'stalled request closed');
      assert.equal(w.pending.toString('latin1'), '', 'no answer to the stalled request');
      return w.closedAt - sentAt;
    };
    const [idleFast, idleSlow, body, head, chunkedBody] = await Promise.all([
      idle(post(INFO, infoCall(91))),
      idle(chunkedPost(INFO, infoCall(91), 2)),
      stalled(post(INFO, infoCall(92)).slice(0, -10)), // headers and part of a Content-Length body
      stalled(post(INFO, infoCall(93)).split('\r\n').slice(0, 2).join('\r\n') + '\r\n'), // half a head
      stalled(chunkedPost(INFO, infoCall(94), 2).slice(0, -12)), // part of a chunked body (node:http's)
    ]);
    const times = { idleFast, idleSlow, body, head, chunkedBody };
    // Idle: ~300 ms on the fast path, ~1.3 s once node:http serves the connection (Node 20's
    // keep-alive close comes ~1 s after the configured timeout).
    for (const ms of [idleFast, idleSlow]) assert.ok(ms >= 200 && ms <= 3000, JSON.stringify(times));
    // The read deadlines, not the idle timeout, end a request in progress: the head at ~500 ms,
    // the whole request at ~900 ms (node:http checks its deadlines once a second: up to ~2 s).
    assert.ok(head >= 400 && head <= 3000, JSON.stringify(times));
    assert.ok(body >= 700 && body <= 3000, JSON.stringify(times));
    assert.ok(chunkedBody >= 700 && chunkedBody <= 3500, JSON.stringify(times));
  } finally {
    await n.stop();
  }
});

test('WebSocket: /ext/bc/dev/ws answers eth_chainId; an upgrade after a POST on the same raw connection gets 101', LIMIT, async () => {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ext/bc/dev/ws`, { handshakeTimeout: 3000 });
  try {
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const reply = new Promise<string>((resolve, reject) => {
      ws.once('message', (d) => resolve(String(d)));
      ws.once('close', () => reject(new Error('WebSocket closed without an answer')));
      setTimeout(() => reject(new Error('no WebSocket answer within 3 s')), 3000).unref();
    });
    ws.send(ethCall('eth_chainId', 1));
    assert.deepEqual(JSON.parse(await reply), { jsonrpc: '2.0', id: 1, result: '0xa8ca' });
  } finally {
    ws.terminate();
  }

  const w = await Wire.open(port);
  await w.write(post(CHAIN, ethCall('eth_chainId', 101)));
  assert.equal(maskDate((await w.read(1))[0]), chainOK(nodeID, chainIdAnswer(101)));
  await w.write(
    `GET /ext/bc/dev/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  const [up] = await w.read(1);
  assert.equal(up.raw, 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n');
  // The socket now speaks WebSocket.
  await w.write(wsTextFrame(ethCall('eth_chainId', 102)));
  const f = await w.frame();
  assert.equal(f.opcode, 1);
  assert.deepEqual(JSON.parse(f.payload.toString()), { jsonrpc: '2.0', id: 102, result: '0xa8ca' });
  w.destroy();
});

test('CORS with http-allowed-origins `*`: POST with Origin and the preflight OPTIONS, exact headers in order', LIMIT, async () => {
  const w = await Wire.open(port);
  await w.write(post(CHAIN, ethCall('eth_chainId', 111), 'Origin: http://example.com\r\n'));
  const [actual] = await w.read(1);
  const body = chainIdAnswer(111);
  assert.equal(
    maskDate(actual),
    `HTTP/1.1 200 OK\r\nnode-id: ${nodeID}\r\nVary: Origin\r\nAccess-Control-Allow-Origin: *\r\nAccess-Control-Allow-Credentials: true\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nDate: *\r\n\r\n${body}`,
  );
  await w.write(
    `OPTIONS ${CHAIN} HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://example.com\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\n\r\n`,
  );
  const [pre] = await w.read(1);
  assert.equal(
    maskDate(pre),
    `HTTP/1.1 200 OK\r\nnode-id: ${nodeID}\r\nVary: Origin\r\nVary: Access-Control-Request-Method\r\nVary: Access-Control-Request-Headers\r\n` +
      `Access-Control-Allow-Origin: *\r\nAccess-Control-Allow-Methods: POST\r\nAccess-Control-Allow-Headers: Content-Type\r\nAccess-Control-Allow-Credentials: true\r\n` +
      `Content-Length: 0\r\nDate: *\r\n\r\n`,
  );
  // The same call without Origin has no CORS headers.
  await w.write(post(CHAIN, ethCall('eth_chainId', 112)));
  assert.equal(maskDate((await w.read(1))[0]), chainOK(nodeID, chainIdAnswer(112)));
  w.destroy();
});

test('metrics: avalanche_api_calls_processed for /ext/bc/dev/rpc grows by the calls made (both paths)', LIMIT, async () => {
  const processed = async () => {
    const w = await Wire.open(port);
    await w.write(`GET /ext/metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    const [r] = await w.read(1);
    w.destroy();
    assert.equal(r.status, 200);
    assert.equal(r.headers.find(([n]) => n === 'Content-Type')?.[1], 'text/plain; version=0.0.4; charset=utf-8');
    const m = /^avalanche_api_calls_processed\{base="\/ext\/bc\/dev\/rpc"\} (\d+)$/m.exec(r.body);
    return m ? Number(m[1]) : 0;
  };
  const before = await processed();
  const N = 20;
  const w = await Wire.open(port);
  let all = '';
  for (let i = 0; i < N; i++) all += i % 5 === 4 ? chunkedPost(CHAIN, ethCall('eth_chainId', 200 + i), 2) : post(CHAIN, ethCall('eth_chainId', 200 + i));
  await w.write(all);
  const rs = await w.read(N);
  w.destroy();
  assert.deepEqual(
    rs.map((r) => r.body),
    Array.from({ length: N }, (_, i) => chainIdAnswer(200 + i)),
  );
  // A call is counted when its response finishes: allow a moment for the last one.
  let grown = (await processed()) - before;
  for (let i = 0; i < 20 && grown < N; i++) {
    await sleep(25);
    grown = (await processed()) - before;
  }
  assert.ok(grown >= N, `processed grew by ${grown}, expected at least ${N}`);
});

// With the default 10 s the half-sent requests would be waited for (shutdown.test.ts); 0s cuts them.
test('stop() with http-shutdown-timeout=0s, idle keep-alive connections and half-sent requests finishes within seconds and closes every socket', LIMIT, async () => {
  const n = await startTestNode({ 'db-type': 'memdb', chains: [], 'http-shutdown-timeout': '0s' });
  const p = Number(new URL(n.url).port);
  const id = n.node.nodeID;
  const sockets: Wire[] = [];
  try {
    // Three idle keep-alive connections, each after one answered request (two Content-Length, one chunked).
    for (const request of [post(INFO, infoCall(1)), chunkedPost(INFO, infoCall(1)), post(INFO, infoCall(1))]) {
      const w = await Wire.open(p);
      await w.write(request);
      assert.equal(maskDate((await w.read(1))[0]), infoOK(id, networkIdAnswer(1)));
      sockets.push(w);
    }
    // Half a request: head and part of a Content-Length body; and a chunked body left open.
    const half = await Wire.open(p);
    await half.write(post(INFO, infoCall(2)).slice(0, -10));
    sockets.push(half);
    const halfChunked = await Wire.open(p);
    await halfChunked.write(chunkedPost(INFO, infoCall(3)).slice(0, -8));
    sockets.push(halfChunked);
    await sleep(50);
    assert.ok(sockets.every((s) => !s.closed));
  } catch (e) {
    await n.stop();
    throw e;
  }
  const t0 = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const stopped = await Promise.race([
    n.stop().then(() => true),
    new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 5000))),
  ]);
  clearTimeout(timer);
  assert.equal(stopped, true, 'stop() finished within 5 s');
  assert.ok(Date.now() - t0 < 3000, `stop() took ${Date.now() - t0} ms`);
  const closed = await Promise.all(sockets.map((s) => s.waitClose(3000)));
  assert.deepEqual(closed, [true, true, true, true, true]);
  for (const s of sockets.slice(3)) assert.equal(s.pending.length, 0, 'no answer to a half-sent request');
});

test('two connections interleaved: half a request on A, a whole one on B (answered), then the rest on A (answered)', LIMIT, async () => {
  const a = await Wire.open(port);
  const b = await Wire.open(port);
  const reqA = post(CHAIN, ethCall('eth_chainId', 121));
  const cut = reqA.indexOf('\r\n\r\n') + 10; // the head and 6 bytes of the body
  await a.write(reqA.slice(0, cut));
  await b.write(post(INFO, infoCall(122)));
  assert.equal(maskDate((await b.read(1))[0]), infoOK(nodeID, networkIdAnswer(122)));
  await sleep(10);
  assert.equal(a.pending.length, 0, 'A is not answered before its body is complete');
  await a.write(reqA.slice(cut));
  assert.equal(maskDate((await a.read(1))[0]), chainOK(nodeID, chainIdAnswer(121)));
  // And the other way round, with a chunked request left half-done on B.
  const reqB = chunkedPost(CHAIN, ethCall('eth_chainId', 123), 3);
  const cutB = reqB.indexOf('\r\n\r\n') + 12;
  await b.write(reqB.slice(0, cutB));
  await a.write(post(CHAIN, ethCall('eth_chainId', 124)));
  assert.equal(maskDate((await a.read(1))[0]), chainOK(nodeID, chainIdAnswer(124)));
  assert.equal(b.pending.length, 0);
  await b.write(reqB.slice(cutB));
  assert.equal(maskDate((await b.read(1))[0]), chainOK(nodeID, chainIdAnswer(123)));
  a.destroy();
  b.destroy();
});
