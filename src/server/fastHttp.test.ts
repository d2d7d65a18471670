// The fast HTTP path (fastHttp.ts) through real sockets: which requests it answers itself, that
// it hands a connection to node:http with nothing lost, and that its answers — failures included —
// are node:http's byte for byte. (src/server/wire.test.ts pins the wire behaviour as a whole.)
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { startTestNode, type TestNode } from '../../test/helpers.js';
import { Wire, chunkedPost, destroyOpened, maskDate, post } from '../../test/httpWire.js';
import { fastHttpStats } from './fastHttp.js';
import { writeReply, type Reply } from './router.js';

let t: TestNode;
let port: number;
before(async () => {
  t = await startTestNode({ 'db-type': 'memdb' });
  port = Number(new URL(t.url).port);
  const boom = (): never => {
    throw new Error('boom');
  };
  const ok: Reply = { status: 200, headers: ['Content-Type', 'text/plain', 'Content-Length', '3'], body: 'ok\n' };
  // A route whose answer throws, one whose answer rejects, and one answering either way.
  t.node.addRoute('/ext/test-throws', '', { http: boom, post: { bodyLimit: 100, accepts: () => true, answer: boom } });
  t.node.addRoute('/ext/test-rejects', '', {
    http: () => Promise.reject(new Error('boom')),
    post: { bodyLimit: 100, accepts: () => true, answer: () => Promise.reject(new Error('boom')) },
  });
  // 64 KiB answers, answered at once: enough of them fill the socket's buffers.
  const big: Reply = { status: 200, headers: ['Content-Type', 'text/plain', 'Content-Length', String(65536)], body: 'x'.repeat(65535) + '\n' };
  t.node.addRoute('/ext/test-big', '', { http: (_req, res) => writeReply(res, big), post: { bodyLimit: 100, accepts: () => true, answer: () => big } });
  t.node.addRoute('/ext/test-ok', '', { http: (_req, res) => writeReply(res, ok), post: { bodyLimit: 100, accepts: () => true, answer: () => ok } });
  // An answer ready only after 50 ms (as a slow call's).
  const slow: Reply = { status: 200, headers: ['Content-Type', 'text/plain', 'Content-Length', '5'], body: 'slow\n' };
  const later = () => new Promise<Reply>((resolve) => setTimeout(() => resolve(slow), 50));
  t.node.addRoute('/ext/test-slow', '', { http: async (_req, res) => writeReply(res, await later()), post: { bodyLimit: 100, accepts: () => true, answer: later } });
});
after(() => t.stop());
afterEach(destroyOpened);

const CHAIN_ID = '{"jsonrpc":"2.0","id":7,"method":"eth_chainId","params":[]}';

test('a keep-alive client of node:http is answered on the fast path, with no hand-off', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  const before = { ...fastHttpStats };
  const one = () =>
    new Promise<string>((resolve, reject) => {
      const req = http.request({ port, host: '127.0.0.1', path: '/ext/bc/dev/rpc', method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        let d = '';
        res.on('data', (c) => (d += c));
        res.on('end', () => resolve(d));
      });
      req.on('error', reject);
      req.end(CHAIN_ID);
    });
  const answers = await Promise.all(Array.from({ length: 20 }, one));
  agent.destroy();
  for (const a of answers) assert.equal(JSON.parse(a).id, 7);
  assert.equal(fastHttpStats.answered - before.answered, 20);
  assert.equal(fastHttpStats.handedOff - before.handedOff, 0);
});

test('requests on the fast path schedule no read-ahead tick on the server\'s socket (Readable\'s maybeReadMore); a socket handed to node:http reads ahead again', async () => {
  const ticks: unknown[] = [];
  const nextTick = process.nextTick;
  process.nextTick = function (this: unknown, fn: (...a: unknown[]) => void, ...args: unknown[]) {
    // (The server's sockets are the accepted ones: net.Server sets their `server`, null on a client's.)
    if (fn.name === 'maybeReadMore_' && (args[0] as { server?: unknown } | undefined)?.server != null) ticks.push(args[0]);
    return nextTick.call(process, fn, ...args);
  } as typeof process.nextTick;
  try {
    const c = await Wire.open(port);
    for (let i = 0; i < 20; i++) {
      c.socket.write(post('/ext/bc/dev/rpc', CHAIN_ID));
      const [r] = await c.read(1);
      assert.equal(JSON.parse(r!.body).id, 7);
    }
    assert.equal(ticks.length, 0, 'no read-ahead tick for 20 requests');
    // Handed to node:http (a chunked body), the socket is a plain stream again.
    c.socket.write(chunkedPost('/ext/bc/dev/rpc', CHAIN_ID));
    const [h] = await c.read(1);
    assert.equal(JSON.parse(h!.body).id, 7);
    c.destroy();
  } finally {
    process.nextTick = nextTick;
  }
});

test('a chunked request hands the connection to node:http once; requests before and after it are answered in order', async () => {
  const c = await Wire.open(port);
  const before = { ...fastHttpStats };
  c.socket.write(post('/ext/bc/dev/rpc', CHAIN_ID.replace('"id":7', '"id":1')));
  c.socket.write(chunkedPost('/ext/bc/dev/rpc', CHAIN_ID.replace('"id":7', '"id":2')) + post('/ext/bc/dev/rpc', CHAIN_ID.replace('"id":7', '"id":3')));
  const rs = await c.read(3);
  assert.deepEqual(rs.map((r) => JSON.parse(r.body).id), [1, 2, 3]);
  // Same answer bytes from both paths (Date aside).
  assert.equal(maskDate(rs[0]!).replace('"id":1', ''), maskDate(rs[1]!).replace('"id":2', ''));
  assert.equal(fastHttpStats.answered - before.answered, 1);
  assert.equal(fastHttpStats.handedOff - before.handedOff, 1);
  c.destroy();
});

test('Connection: close is answered on the fast path with node:http\'s bytes, then the connection ends, unread bytes after it left unread (as Go)', async () => {
  const ask = async (request: string) => {
    const c = await Wire.open(port);
    c.socket.write(request);
    const [r] = await c.read(1);
    assert.equal(await c.waitClose(3000), true, 'the server closes the connection');
    assert.equal(c.ended, true, 'with a FIN first');
    return r!;
  };
  const before = { ...fastHttpStats };
  const fast = await ask(post('/ext/bc/dev/rpc', CHAIN_ID, 'Connection: close\r\n'));
  assert.equal(fastHttpStats.answered - before.answered, 1);
  assert.equal(fastHttpStats.handedOff - before.handedOff, 0);
  // The same request with a chunked body is node:http's: the same bytes (Date aside).
  const slow = await ask(chunkedPost('/ext/bc/dev/rpc', CHAIN_ID, 3, 'Connection: close\r\n'));
  assert.equal(fastHttpStats.handedOff - before.handedOff, 1);
  assert.equal(maskDate(fast), maskDate(slow));
  assert.match(fast.raw, /\r\nConnection: close\r\n\r\n/);
  assert.doesNotMatch(fast.raw, /Keep-Alive/);
  // `Connection: CLOSE` is the same token; two Connection lines, or another value, are node:http's.
  const upper = await ask(post('/ext/bc/dev/rpc', CHAIN_ID, 'Connection: CLOSE\r\n'));
  assert.equal(maskDate(upper), maskDate(fast));
  assert.equal(fastHttpStats.answered - before.answered, 2);
  await ask(post('/ext/bc/dev/rpc', CHAIN_ID, 'Connection: close\r\nConnection: close\r\n'));
  assert.equal(fastHttpStats.handedOff - before.handedOff, 2);

  // A request pipelined after a Connection: close one is never read, as on Go's server (node:http
  // would answer both with one 400): the first answer, then the close.
  const c = await Wire.open(port);
  c.socket.write(post('/ext/bc/dev/rpc', CHAIN_ID, 'Connection: close\r\n') + post('/ext/bc/dev/rpc', CHAIN_ID.replace('"id":7', '"id":8')));
  assert.equal(await c.waitClose(3000), true);
  const [first] = await c.read(1);
  assert.equal(maskDate(first!), maskDate(fast));
  assert.equal(c.pending.length, 0, 'no second answer');
  assert.equal(fastHttpStats.handedOff - before.handedOff, 2);
  assert.equal(fastHttpStats.answered - before.answered, 3);
});

test('the answers of one event-loop turn are written together: five pipelined requests, one write, in order', async () => {
  const c = await Wire.open(port);
  // The node runs in this process: count the writes of the server's end of this connection.
  const clientPort = c.socket.localPort;
  const writes: string[] = [];
  const write = net.Socket.prototype.write;
  const own = Object.prototype.hasOwnProperty.call(net.Socket.prototype, 'write');
  net.Socket.prototype.write = function (this: net.Socket, chunk: unknown, ...rest: unknown[]) {
    if (this.remotePort === clientPort && this !== c.socket) writes.push(String(chunk));
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof write;
  let rs;
  try {
    let all = '';
    for (let i = 1; i <= 5; i++) all += post('/ext/bc/dev/rpc', CHAIN_ID.replace('"id":7', `"id":${i}`));
    c.socket.write(all);
    rs = await c.read(5);
  } finally {
    if (own) net.Socket.prototype.write = write;
    else delete (net.Socket.prototype as { write?: unknown }).write;
  }
  assert.deepEqual(rs.map((r) => JSON.parse(r.body).id), [1, 2, 3, 4, 5]);
  assert.equal(writes.length, 1, 'one write for the five answers');
  c.destroy();
});

test('connections whose requests arrive in the same turn: the first answered at once, the others in the check phase, every answer in order', async () => {
  const conns = await Promise.all(Array.from({ length: 5 }, () => Wire.open(port)));
  // A first request on each: the node has accepted all five and reads them.
  for (const c of conns) {
    c.socket.write(post('/ext/bc/dev/rpc', CHAIN_ID));
    await c.read(1);
  }
  const before = { ...fastHttpStats };
  // The node runs in this process: holding its event loop for a moment after the writes makes it
  // find all five sockets readable in one poll.
  conns.forEach((c, k) => c.socket.write(post('/ext/bc/dev/rpc', CHAIN_ID.replace('"id":7', `"id":${k * 10}`)) + post('/ext/bc/dev/rpc', CHAIN_ID.replace('"id":7', `"id":${k * 10 + 1}`))));
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  const answers = await Promise.all(conns.map((c) => c.read(2)));
  answers.forEach((rs, k) => assert.deepEqual(rs.map((r) => JSON.parse(r.body).id), [k * 10, k * 10 + 1]));
  assert.equal(fastHttpStats.answered - before.answered, 10);
  assert.ok(fastHttpStats.waited - before.waited >= 1, 'some connections waited for the check phase');
  for (const c of conns) c.destroy();
});

test('answers waiting to be written go out first: before a hand-off to node:http, a Connection: close answer and the end the client asked for', async () => {
  const id = (n: number) => CHAIN_ID.replace('"id":7', `"id":${n}`);
  // A fast-path answer, then a chunked request node:http answers, then the fast path's again.
  const a = await Wire.open(port);
  a.socket.write(post('/ext/bc/dev/rpc', id(1)) + chunkedPost('/ext/bc/dev/rpc', id(2)) + post('/ext/bc/dev/rpc', id(3)));
  assert.deepEqual((await a.read(3)).map((r) => JSON.parse(r.body).id), [1, 2, 3]);
  a.destroy();
  // Two keep-alive requests and a Connection: close one: three answers, then the connection ends.
  const b = await Wire.open(port);
  b.socket.write(post('/ext/bc/dev/rpc', id(4)) + post('/ext/bc/dev/rpc', id(5)) + post('/ext/bc/dev/rpc', id(6), 'Connection: close\r\n'));
  assert.equal(await b.waitClose(3000), true);
  assert.deepEqual((await b.read(3)).map((r) => JSON.parse(r.body).id), [4, 5, 6]);
  assert.equal(b.ended, true, 'with a FIN');
  // Requests, then the client's FIN at once: every answer, then the server's FIN — here the FIN
  // arrives while an answer is still being computed (a route that answers after 50 ms).
  const c = await Wire.open(port);
  c.socket.end(post('/ext/test-ok', '{}') + post('/ext/test-slow', '{}') + post('/ext/test-ok', '{}'));
  assert.equal(await c.waitClose(3000), true);
  assert.deepEqual((await c.read(3)).map((r) => r.body), ['ok\n', 'slow\n', 'ok\n']);
  assert.equal(c.ended, true);
});

test('a handler that throws or rejects: the fast path answers node:http\'s 500, and the node keeps serving', async () => {
  for (const path of ['/ext/test-throws', '/ext/test-rejects']) {
    const fast = await Wire.open(port);
    fast.socket.write(post(path, '{}'));
    const slow = await Wire.open(port);
    slow.socket.write(chunkedPost(path, '{}'));
    const [[f], [s]] = await Promise.all([fast.read(1), slow.read(1)]);
    assert.match(f!.raw, /^HTTP\/1\.1 500 Internal Server Error\r\n/);
    assert.equal(f!.body, 'internal server error\n');
    assert.equal(maskDate(f!), maskDate(s!));
    // The fast connection is still usable.
    fast.socket.write(post('/ext/test-ok', '{}'));
    assert.equal((await fast.read(1))[0]!.body, 'ok\n');
    fast.destroy();
    slow.destroy();
  }
});

test('a body arriving in many packets, and a large one, are answered on the fast path', async () => {
  const c = await Wire.open(port);
  const before = { ...fastHttpStats };
  const req = post('/ext/bc/dev/rpc', CHAIN_ID);
  for (let i = 0; i < req.length; i += 7) {
    c.socket.write(req.slice(i, i + 7));
    await new Promise((r) => setImmediate(r));
  }
  assert.equal(JSON.parse((await c.read(1))[0]!.body).result, '0xa8ca');
  // ~1 MB of call data (an eth_call to no contract returns 0x whatever the input).
  const big = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'eth_call', params: [{ to: '0x00000000000000000000000000000000000000aa', data: '0x' + 'ab'.repeat(500_000) }, 'latest'] });
  c.socket.write(post('/ext/bc/dev/rpc', big));
  assert.deepEqual(JSON.parse((await c.read(1))[0]!.body), { jsonrpc: '2.0', id: 9, result: '0x' });
  assert.equal(fastHttpStats.answered - before.answered, 2);
  assert.equal(fastHttpStats.handedOff - before.handedOff, 0);
  c.destroy();
});

test('2,000 pipelined requests in one write, read only afterwards: all answered, in order', async () => {
  const c = await Wire.open(port);
  c.socket.pause();
  const n = 2000;
  let all = '';
  for (let i = 0; i < n; i++) all += post('/ext/bc/dev/rpc', `{"jsonrpc":"2.0","id":${i},"method":"eth_blockNumber","params":[]}`);
  c.socket.write(all);
  await new Promise((r) => setTimeout(r, 200));
  c.socket.resume();
  const rs = await c.read(n, 20_000);
  assert.deepEqual(
    rs.map((r) => JSON.parse(r.body).id),
    Array.from({ length: n }, (_, i) => i),
  );
  c.destroy();
});

test('pipelined requests whose answers fill the socket\'s buffers (client not reading): all answered once it reads', async () => {
  const c = await Wire.open(port);
  c.socket.pause();
  const n = 200; // 12.5 MiB of answers
  c.socket.write(post('/ext/test-big', '{}').repeat(n));
  await new Promise((r) => setTimeout(r, 300));
  c.socket.resume();
  const rs = await c.read(n, 8000); // throws if the answers stall
  assert.equal(rs.length, n);
  for (const r of rs) assert.equal(r.body.length, 65536);
  c.destroy();
});

test('requests the fast path leaves to node:http get node:http\'s answers: bad Host, Origin, unknown route, GET', async () => {
  const cases: [string, RegExp][] = [
    [post('/ext/bc/dev/rpc', CHAIN_ID).replace('Host: 127.0.0.1', 'Host: evil.example'), /^HTTP\/1\.1 403 Forbidden\r\n[^]*invalid host specified\n$/],
    [post('/ext/bc/dev/rpc', CHAIN_ID, 'Origin: http://example.com\r\n'), /^HTTP\/1\.1 200 OK\r\n[^]*"result":"0xa8ca"/],
    [post('/ext/nope', CHAIN_ID), /^HTTP\/1\.1 404 Not Found\r\n[^]*404 page not found\n$/],
    ['GET /ext/bc/dev/rpc HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', /^HTTP\/1\.1 200 OK\r\n[^]*Content-Length: 0\r\n/],
  ];
  for (const [request, expected] of cases) {
    const c = await Wire.open(port);
    const before = { ...fastHttpStats };
    c.socket.write(request);
    assert.match((await c.read(1))[0]!.raw, expected);
    assert.equal(fastHttpStats.handedOff - before.handedOff, 1, request.split('\r\n')[0]);
    // node:http keeps the connection.
    c.socket.write(post('/ext/bc/dev/rpc', CHAIN_ID));
    assert.equal(JSON.parse((await c.read(1))[0]!.body).id, 7);
    c.destroy();
  }
});

test('http-write-timeout: an answer ready after the deadline is not written, the connection closes (both paths), as Go\'s write deadline does', async () => {
  const n = await startTestNode({ 'db-type': 'memdb', chains: [], 'http-write-timeout': '300ms' });
  try {
    const p = Number(new URL(n.url).port);
    const late: Reply = { status: 200, headers: ['Content-Length', '5'], body: 'late\n' };
    const slowly = () => new Promise<Reply>((r) => setTimeout(() => r(late), 600));
    n.node.addRoute('/ext/test-slow', '', {
      http: async (_req, res) => writeReply(res, await slowly()),
      post: { bodyLimit: 100, accepts: () => true, answer: slowly },
    });
    const ask = async (request: string): Promise<{ closed: boolean; received: string }> => {
      const s = net.connect(p, '127.0.0.1');
      let received = '';
      s.on('data', (d) => (received += d.toString('latin1')));
      const closed = new Promise<boolean>((r) => s.on('close', () => r(true)));
      s.write(request);
      const result = await Promise.race([closed, new Promise<boolean>((r) => setTimeout(() => r(false), 3000))]);
      s.destroy();
      return { closed: result, received };
    };
    const path = '/ext/test-slow';
    for (const request of [post(path, '{}'), chunkedPost(path, '{}')]) {
      assert.deepEqual(await ask(request), { closed: true, received: '' }, request.split('\r\n').slice(0, 4).join(' | '));
    }
    // A quick answer is unaffected.
    const s = net.connect(p, '127.0.0.1');
    const got = await new Promise<string>((resolve) => {
      let d = '';
      s.on('data', (c) => {
        d += c;
        if (d.includes('"result"')) resolve(d);
      });
      s.write(post('/ext/info', '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}'));
    });
    s.destroy();
    assert.match(got, /^HTTP\/1\.1 200 OK\r\n/);
  } finally {
    await n.stop();
  }
});
