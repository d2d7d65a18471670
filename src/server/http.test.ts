// The HTTP front door through real sockets (reference: avalanchego-node.md §3.1, §3.3).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { startTestNode, rpc, type TestNode } from '../../test/helpers.js';

let t: TestNode;
before(async () => {
  t = await startTestNode({ 'db-type': 'memdb', chains: [] });
});
after(() => t.stop());

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    // The path goes out verbatim (a URL object would already clean `/./` and `/../`).
    const m = /^(http:\/\/[^/]+)(.*)$/.exec(url)!;
    const base = new URL(m[1]);
    const options = { host: base.hostname, port: base.port, path: m[2] || '/', method: opts.method ?? 'GET', headers: opts.headers ?? {}, agent: false };
    const req = http.request(options, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}
const CALL = '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}';
const postInfo = (headers: Record<string, string>, url = `${t.url}/ext/info`) =>
  request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: CALL });

test('Host check: unknown names get 403 `invalid host specified`; localhost, IPs and no Host pass', async () => {
  const bad = await postInfo({ host: 'evil.example:9650' });
  assert.equal(bad.status, 403);
  assert.equal(bad.headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal(bad.body, 'invalid host specified\n');
  for (const host of ['localhost', 'LocalHost:9650', '10.1.2.3', '10.1.2.3:80', '[::1]:9650']) {
    const ok = await postInfo({ host });
    assert.equal(ok.status, 200, host);
    assert.equal(JSON.parse(ok.body).result.networkID, '12345');
  }
  // A raw request with an empty Host header passes too.
  const empty = await rawHTTP(`POST /ext/info HTTP/1.1\r\nHost: \r\nContent-Type: application/json\r\nContent-Length: ${CALL.length}\r\nConnection: close\r\n\r\n${CALL}`);
  assert.match(empty, /^HTTP\/1\.1 200 /);
});

test('--http-allowed-hosts: a list replaces localhost; * allows any name', async () => {
  const listed = await startTestNode({ 'db-type': 'memdb', chains: [], 'http-allowed-hosts': 'my.dev,Other.Dev' });
  const any = await startTestNode({ 'db-type': 'memdb', chains: [], httpAllowedHosts: '*' });
  try {
    assert.equal((await postInfo({ host: 'my.dev:1' }, `${listed.url}/ext/info`)).status, 200);
    assert.equal((await postInfo({ host: 'other.dev' }, `${listed.url}/ext/info`)).status, 200);
    assert.equal((await postInfo({ host: 'localhost' }, `${listed.url}/ext/info`)).status, 403);
    assert.equal((await postInfo({ host: 'evil.example' }, `${any.url}/ext/info`)).status, 200);
  } finally {
    await listed.stop();
    await any.stop();
  }
});

test('every response carries the node-id header (200, 403, 404, 405, 301, preflight)', async () => {
  const answers = [
    await postInfo({}),
    await postInfo({ host: 'evil.example' }),
    await request(`${t.url}/nothing`),
    await request(`${t.url}/ext/info`),
    await request(`${t.url}/ext//info`),
    await request(`${t.url}/ext/info`, { method: 'OPTIONS', headers: { origin: 'http://x.test', 'access-control-request-method': 'POST' } }),
  ];
  assert.deepEqual(answers.map((a) => a.status), [200, 403, 404, 405, 301, 200]);
  for (const a of answers) assert.equal(a.headers['node-id'], t.node.nodeID);
});

test('CORS with the default `*`: preflight 200 with allow headers; actual requests get Allow-Origin *', async () => {
  const pre = await request(`${t.url}/ext/info`, {
    method: 'OPTIONS',
    headers: { origin: 'http://app.test', 'access-control-request-method': 'post', 'access-control-request-headers': 'content-type, x-requested-with' },
  });
  assert.equal(pre.status, 200);
  assert.equal(pre.body, '');
  assert.equal(pre.headers['access-control-allow-origin'], '*');
  assert.equal(pre.headers['access-control-allow-methods'], 'POST');
  assert.equal(pre.headers['access-control-allow-headers'], 'Content-Type, X-Requested-With');
  assert.equal(pre.headers['access-control-allow-credentials'], 'true');
  assert.equal(pre.headers.vary, 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
  // A header outside rs/cors' defaults fails the preflight: 200 without allow headers.
  const custom = await request(`${t.url}/ext/info`, {
    method: 'OPTIONS',
    headers: { origin: 'http://app.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-custom' },
  });
  assert.equal(custom.status, 200);
  assert.equal(custom.headers['access-control-allow-origin'], undefined);
  const actual = await postInfo({ origin: 'http://app.test' });
  assert.equal(actual.headers['access-control-allow-origin'], '*');
  assert.equal(actual.headers['access-control-allow-credentials'], 'true');
  assert.equal(actual.headers.vary, 'Origin');
  const noOrigin = await postInfo({});
  assert.equal(noOrigin.headers['access-control-allow-origin'], undefined);
  assert.equal(noOrigin.headers.vary, 'Origin');
  // Methods outside GET/POST/HEAD get no CORS headers.
  const put = await request(`${t.url}/ext/info`, { method: 'PUT', headers: { origin: 'http://app.test' } });
  assert.equal(put.headers['access-control-allow-origin'], undefined);
});

test('CORS with an origin list: listed origins (and wildcards) are echoed, others get nothing', async () => {
  const n = await startTestNode({ 'db-type': 'memdb', chains: [], 'http-allowed-origins': 'http://a.test  http://*.b.test' });
  try {
    const url = `${n.url}/ext/info`;
    const a = await postInfo({ origin: 'http://a.test' }, url);
    assert.equal(a.headers['access-control-allow-origin'], 'http://a.test');
    const b = await postInfo({ origin: 'http://x.b.test' }, url);
    assert.equal(b.headers['access-control-allow-origin'], 'http://x.b.test');
    const other = await postInfo({ origin: 'http://c.test' }, url);
    assert.equal(other.status, 200, 'the request itself is served');
    assert.equal(other.headers['access-control-allow-origin'], undefined);
    const pre = await request(url, { method: 'OPTIONS', headers: { origin: 'http://c.test', 'access-control-request-method': 'POST' } });
    assert.equal(pre.status, 200);
    assert.equal(pre.headers['access-control-allow-origin'], undefined);
  } finally {
    await n.stop();
  }
});

test('CORS as rs/cors v1.7 decides it: OPTIONS is always an allowed method (preflight and actual), methods in any case, request headers split at commas and spaces', async () => {
  const url = `${t.url}/ext/info`;
  const preflight = (method: string, headers = '') =>
    request(url, { method: 'OPTIONS', headers: { origin: 'http://o.test', 'access-control-request-method': method, ...(headers ? { 'access-control-request-headers': headers } : {}) } });
  const options = await preflight('OPTIONS');
  assert.equal(options.headers['access-control-allow-origin'], '*');
  assert.equal(options.headers['access-control-allow-methods'], 'OPTIONS');
  const lower = await preflight('post', 'content-type accept,x-requested-with');
  assert.equal(lower.headers['access-control-allow-methods'], 'POST');
  assert.equal(lower.headers['access-control-allow-headers'], 'Content-Type, Accept, X-Requested-With');
  const refused = await preflight('PUT');
  assert.equal(refused.status, 200);
  assert.equal(refused.headers['access-control-allow-origin'], undefined);
  const badHeader = await preflight('POST', 'content-type x-other');
  assert.equal(badHeader.headers['access-control-allow-origin'], undefined);
  // An actual (non-preflight) OPTIONS with an Origin gets the CORS headers, then the route's answer.
  const actual = await request(url, { method: 'OPTIONS', headers: { origin: 'http://o.test' } });
  assert.equal(actual.status, 405);
  assert.equal(actual.body, 'rpc: POST method required, received OPTIONS');
  assert.equal(actual.headers['access-control-allow-origin'], '*');
  assert.equal(actual.headers['access-control-allow-credentials'], 'true');
  const put = await request(url, { method: 'PUT', headers: { origin: 'http://o.test' } });
  assert.equal(put.headers['access-control-allow-origin'], undefined);
});

test('CORS with an empty origin list: every origin is allowed (rs/cors treats no origins as all)', async () => {
  const n = await startTestNode({ 'db-type': 'memdb', chains: [], 'http-allowed-origins': ' ' });
  try {
    const a = await postInfo({ origin: 'http://any.test' }, `${n.url}/ext/info`);
    assert.equal(a.headers['access-control-allow-origin'], '*');
    const pre = await request(`${n.url}/ext/info`, { method: 'OPTIONS', headers: { origin: 'http://any.test', 'access-control-request-method': 'POST' } });
    assert.equal(pre.headers['access-control-allow-origin'], '*');
  } finally {
    await n.stop();
  }
});

test('non-canonical paths: 301 to the cleaned path (query kept, trailing slash kept)', async () => {
  const a = await request(`${t.url}/ext//info`);
  assert.equal(a.status, 301);
  assert.equal(a.headers.location, '/ext/info');
  assert.equal(a.headers['content-length'], '0');
  assert.equal(a.headers['transfer-encoding'], undefined);
  const b = await request(`${t.url}/ext/./bc/../info/?x=1`);
  assert.equal(b.status, 301);
  assert.equal(b.headers.location, '/ext/info/?x=1');
});

test("the 301's Location is the cleaned path escaped again, as Go's URL.EscapedPath writes it (decoded escapes, bytes that are not UTF-8, the query as sent)", async () => {
  const cases: [string, string][] = [
    ['/ext/a%20b//c', '/ext/a%20b/c'],
    ['/ext//a%3Fb?x=%20', '/ext/a%3Fb?x=%20'],
    ['/ext//%C3%A9', '/ext/%C3%A9'],
    ['/ext//a%25b', '/ext/a%25b'],
    ['/ext//a%2Fb', '/ext/a/b'],
    ["/ext//a'b(c)!*+$", '/ext/a%27b%28c%29%21%2A+$'],
    ['/ext//%FF', '/ext/%FF'],
    ['/ext/%2E%2E/info', '/info'],
  ];
  for (const [path, location] of cases) {
    const r = await request(`${t.url}${path}`);
    assert.equal(r.status, 301, path);
    assert.equal(r.headers.location, location, path);
  }
});

test('unknown routes and trailing slashes: 404 `404 page not found`; percent-encoding is decoded', async () => {
  for (const path of ['/ext/info/', '/ext/nothing', '/', '/ext/admin', '/ext/bc/nope/rpc']) {
    const r = await request(t.url + path);
    assert.equal(r.status, 404, path);
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.equal(r.body, '404 page not found\n');
  }
  const encoded = await postInfo({}, `${t.url}/ext/%69nfo?ignored=1`);
  assert.equal(JSON.parse(encoded.body).result.networkID, '12345');
});

test('keep-alive: several requests reuse one connection', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const ports: number[] = [];
    const reused: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = http.request(`${t.url}/ext/info`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.once('socket', (s) => {
          reused.push(req.reusedSocket);
          if (s.localPort) ports.push(s.localPort);
          else s.once('connect', () => ports.push(s.localPort!));
        });
        req.on('error', reject);
        req.end(CALL);
      });
    }
    assert.deepEqual(reused, [false, true, true, true, true]);
    assert.equal(ports.length, 5);
    assert.equal(new Set(ports).size, 1, 'one local port');
  } finally {
    agent.destroy();
  }
});

/** What the node sends back until it closes the connection (or, for a kept-alive one, until `done` matches). */
function rawHTTP(text: string, done?: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const u = new URL(t.url);
    const s = net.connect(Number(u.port), u.hostname, () => s.write(text));
    let got = '';
    s.on('data', (d) => {
      got += d;
      if (done?.test(got)) s.destroy();
    });
    s.on('end', () => resolve(got));
    s.on('close', () => resolve(got));
    s.on('error', reject);
  });
}

test('malformed HTTP on a raw socket: 400 and the connection closes; the node keeps serving', async () => {
  const answers = await Promise.all([
    rawHTTP('GARBAGE\r\n\r\n'),
    rawHTTP('POST /ext/info HTTP/1.1\r\nContent-Length: nope\r\n\r\n'),
    rawHTTP('\x00\x01\x02\xff\r\n\r\n'),
    // Over Go's 1 MiB head limit (a 20 KB head, over node:http's own 16 KiB, is served as Go serves it).
    rawHTTP('GET / HTTP/1.1\r\nHost: x\r\n' + 'X-Long: ' + 'a'.repeat(1100 * 1024) + '\r\n'.repeat(2)),
  ]);
  for (const a of answers) assert.match(a, /^HTTP\/1\.1 4\d\d /);
  const r = await rpc(`${t.url}/ext/info`, 'info.getNetworkID');
  assert.deepEqual(r.result, { networkID: '12345' });
});

/** Header names of a raw HTTP answer, in wire order. */
function headerNames(raw: string): string[] {
  return raw.split('\r\n\r\n')[0].split('\r\n').slice(1).map((l) => l.slice(0, l.indexOf(':')));
}

test("the node's headers (node-id, Vary, CORS) come first and once, also when a handler sets its own with setHeader", async () => {
  // A handler answering with writeHead only (the JSON-RPC answer).
  const ok = await rawHTTP(`POST /ext/info HTTP/1.1\r\nHost: localhost\r\nOrigin: http://app.test\r\nContent-Type: application/json\r\nContent-Length: ${CALL.length}\r\nConnection: close\r\n\r\n${CALL}`);
  assert.match(ok, /^HTTP\/1\.1 200 OK\r\n/);
  assert.deepEqual(headerNames(ok), [
    'node-id', 'Vary', 'Access-Control-Allow-Origin', 'Access-Control-Allow-Credentials',
    'Content-Type', 'X-Content-Type-Options', 'Content-Length', 'Date', 'Connection',
  ]);
  assert.ok(ok.includes(`\r\nnode-id: ${t.node.nodeID}\r\n`));
  assert.ok(ok.endsWith('"result":{"networkID":"12345"},"id":1}\n'));
  // A handler that calls setHeader before writeHead (the 413 of an oversized body closes the connection).
  const big = await rawHTTP(`POST /ext/info HTTP/1.1\r\nHost: localhost\r\nOrigin: http://app.test\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\n\r\n{`);
  assert.match(big, /^HTTP\/1\.1 413 /);
  assert.deepEqual(headerNames(big), [
    'node-id', 'Vary', 'Access-Control-Allow-Origin', 'Access-Control-Allow-Credentials',
    'Connection', 'Content-Type', 'X-Content-Type-Options', 'Content-Length', 'Date',
  ]);
  assert.ok(big.includes('\r\nConnection: close\r\n'));
  // No Origin: only node-id and Vary precede the handler's headers.
  const plainAnswer = await rawHTTP(`GET /nothing HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
  assert.deepEqual(headerNames(plainAnswer), ['node-id', 'Vary', 'Content-Type', 'X-Content-Type-Options', 'Content-Length', 'Date', 'Connection']);
});

test('Host check result does not stick to a connection: a good Host after a bad one passes, and back', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const statuses: number[] = [];
    for (const host of ['localhost', 'evil.example', 'evil.example', 'localhost', 'EVIL.example:1', '127.0.0.1:9']) {
      statuses.push(
        await new Promise<number>((resolve, reject) => {
          const req = http.request(`${t.url}/ext/info`, { method: 'POST', agent, headers: { host, 'content-type': 'application/json' } }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          });
          req.on('error', reject);
          req.end(CALL);
        }),
      );
    }
    assert.deepEqual(statuses, [200, 403, 403, 200, 403, 200]);
  } finally {
    agent.destroy();
  }
});

test('an Upgrade header on a route that takes none is a plain header: the usual answer (curl --http2, a WebSocket handshake on JSON-RPC)', async () => {
  const body = CALL;
  // A WebSocket handshake on the info API, and a second request on the same connection.
  const ws =
    `POST /ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
    `POST /ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  const both = await rawHTTP(ws);
  const answers = both.split(/(?=HTTP\/1\.1 )/);
  assert.equal(answers.length, 2, both);
  for (const a of answers) {
    assert.match(a, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(a, /\r\nnode-id: NodeID-/);
    assert.match(a, /\{"jsonrpc":"2.0","result":\{"networkID":"12345"\},"id":1\}/);
  }
  // curl --http2 on plain HTTP asks for h2c; the node answers in HTTP/1.1 (allowed: the upgrade is the server's choice).
  // (Both connections stay open after their answer: the read ends with the answer's body.)
  const h2c = await rawHTTP('GET /ext/health/liveness HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n', /\r\n\r\n[^]*"healthy":true\}/);
  assert.match(h2c, /^HTTP\/1\.1 200 OK\r\n/);
  assert.match(h2c, /"healthy":true/);
  // The Host check still runs first.
  const bad = await rawHTTP('GET /ext/health/liveness HTTP/1.1\r\nHost: evil.example\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n', /invalid host specified\n$/);
  assert.match(bad, /^HTTP\/1\.1 403 Forbidden\r\n[^]*\r\n\r\ninvalid host specified\n$/);
});

test('Avalanche-Api-Route: header routing skips the path; no chain of Powder serves by header, so 404 with no body', async () => {
  for (const route of ['foo', '2v96XhMRDs4J4voJVYso7jbSsTwLr2SXeJh3APJDg23SuB3k6B']) {
    const r = await postInfo({ 'avalanche-api-route': route });
    assert.equal(r.status, 404, route);
    assert.equal(r.body, '');
    assert.equal(r.headers['content-length'], '0');
    assert.ok(r.headers['node-id'], 'the node headers still come first');
  }
  // The Host filter runs before it.
  assert.equal((await postInfo({ 'avalanche-api-route': 'foo', host: 'evil.example' })).status, 403);
  // Without the header the same request is served.
  assert.equal((await postInfo({})).status, 200);
});

test('no limit on the number of header lines (Go bounds only the head\'s bytes): a Host after 2,100 other headers is seen', async () => {
  const req = 'POST /ext/info HTTP/1.1\r\n' + 'X-Filler: 1\r\n'.repeat(2100) + `Host: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${CALL.length}\r\n\r\n${CALL}`;
  const got = await rawHTTP(req, /"id":1}\n$/);
  assert.match(got, /^HTTP\/1\.1 200 OK\r\n/);
  assert.ok(got.endsWith('{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":1}\n'), got);
});
