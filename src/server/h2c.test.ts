// Cleartext HTTP/2 with prior knowledge (h2c.ts) on the node's one port, through node:http2's
// client and raw sockets (reference: avalanchego-node.md §3.1).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import net from 'node:net';
import { startTestNode, rpc, type TestNode } from '../../test/helpers.js';
import { http2Preface } from './h2c.js';

let t: TestNode;
before(async () => {
  t = await startTestNode({ 'db-type': 'memdb' });
});
after(() => t.stop());

interface H2Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: string;
}

function h2request(session: http2.ClientHttp2Session, headers: http2.OutgoingHttpHeaders, body?: string): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const req = session.request(headers);
    let head: http2.IncomingHttpHeaders = {};
    let text = '';
    req.on('response', (h) => (head = h));
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => resolve({ status: Number(head[':status']), headers: head, body: text }));
    req.on('error', reject);
    req.end(body);
  });
}

const post = (session: http2.ClientHttp2Session, path: string, body: string, extra: http2.OutgoingHttpHeaders = {}) =>
  h2request(session, { ':method': 'POST', ':path': path, 'content-type': 'application/json', ...extra }, body);

function connect(): Promise<http2.ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const s = http2.connect(t.url);
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

function closeSession(s: http2.ClientHttp2Session): Promise<void> {
  return new Promise((resolve) => s.close(() => resolve()));
}

const NETWORK_ID = '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}';

test('http2Preface: the whole preface, a beginning of it, anything else', () => {
  const preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
  assert.equal(http2Preface(preface), 'yes');
  assert.equal(http2Preface(Buffer.concat([preface, Buffer.from([0, 0, 0, 4])])), 'yes');
  assert.equal(http2Preface(preface.subarray(0, 1)), 'maybe');
  assert.equal(http2Preface(preface.subarray(0, 20)), 'maybe');
  assert.equal(http2Preface(Buffer.from('POST /ext/info HTTP/1.1\r\n')), 'no');
  assert.equal(http2Preface(Buffer.from('PRI * HTTP/2.1\r\n\r\nSM\r\n\r\n')), 'no');
  assert.equal(http2Preface(Buffer.alloc(0)), 'no');
});

test('h2c: a node service answers over HTTP/2 with the node headers and no connection-specific ones', async () => {
  const s = await connect();
  try {
    const r = await post(s, '/ext/info', NETWORK_ID);
    assert.equal(r.status, 200);
    assert.deepEqual(JSON.parse(r.body), { jsonrpc: '2.0', result: { networkID: '12345' }, id: 1 });
    assert.equal(r.headers['node-id'], (await rpc(`${t.url}/ext/info`, 'info.getNodeID')).result.nodeID);
    assert.equal(r.headers.vary, 'Origin');
    assert.match(String(r.headers['content-type']), /^application\/json/);
    for (const h of ['connection', 'keep-alive', 'transfer-encoding']) assert.equal(r.headers[h], undefined, h);
    // CORS as over HTTP/1.1 (any origin by default).
    const cors = await post(s, '/ext/info', NETWORK_ID, { origin: 'http://app.example' });
    assert.equal(cors.headers['access-control-allow-origin'], '*');
    assert.equal(cors.headers['access-control-allow-credentials'], 'true');
  } finally {
    await closeSession(s);
  }
});

test('h2c: many streams at once on one connection reach a chain, as over HTTP/1.1', async () => {
  const s = await connect();
  try {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post(s, '/ext/bc/dev/rpc', `{"jsonrpc":"2.0","id":${i},"method":"eth_chainId","params":[]}`)),
    );
    const overHttp1 = (await rpc(`${t.url}/ext/bc/dev/rpc`, 'eth_chainId', [])).result;
    answers.forEach((a, i) => {
      assert.equal(a.status, 200);
      assert.deepEqual(JSON.parse(a.body), { jsonrpc: '2.0', id: i, result: overHttp1 });
    });
    // A chain alias and the validators API route the same way.
    const v = await post(s, '/ext/bc/dev/validators', '{"jsonrpc":"2.0","id":1,"method":"validators.getCurrentValidators","params":{}}');
    assert.equal(v.status, 200);
    assert.ok(Array.isArray(JSON.parse(v.body).result.validators));
  } finally {
    await closeSession(s);
  }
});

test('h2c: the Host filter reads :authority; 404, the canonical-path redirect and OPTIONS * as over HTTP/1.1', async () => {
  const s = await connect();
  try {
    const bad = await post(s, '/ext/info', NETWORK_ID, { ':authority': 'evil.example:9650' });
    assert.equal(bad.status, 403);
    assert.equal(bad.body, 'invalid host specified\n');
    assert.equal(bad.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal((await post(s, '/ext/info', NETWORK_ID, { ':authority': 'localhost:9650' })).status, 200);

    const missing = await post(s, '/ext/nothing', NETWORK_ID);
    assert.equal(missing.status, 404);
    assert.equal(missing.body, '404 page not found\n');

    const moved = await h2request(s, { ':method': 'GET', ':path': '/ext//health/./liveness?x=1' });
    assert.equal(moved.status, 301);
    assert.equal(moved.headers.location, '/ext/health/liveness?x=1');

    const health = await h2request(s, { ':method': 'GET', ':path': '/ext/health/liveness' });
    assert.equal(health.status, 200);
    assert.match(health.body, /"healthy":true/);

    const wrongType = await h2request(s, { ':method': 'POST', ':path': '/ext/info', 'content-type': 'text/plain' }, NETWORK_ID);
    assert.equal(wrongType.status, 415);
  } finally {
    await closeSession(s);
  }
});

test('h2c: a :path with a malformed escape resets its stream (PROTOCOL_ERROR); the connection serves on', async () => {
  const s = await connect();
  try {
    const code = await new Promise<number>((resolve) => {
      const req = s.request({ ':method': 'GET', ':path': '/ext/%zz' });
      req.on('close', () => resolve(req.rstCode));
      req.on('error', () => {});
      req.resume();
      req.end();
    });
    assert.equal(code, http2.constants.NGHTTP2_PROTOCOL_ERROR);
    assert.equal((await post(s, '/ext/info', NETWORK_ID)).status, 200);
  } finally {
    await closeSession(s);
  }
});

test('h2c: a body over the limit gets 413 without the HTTP/1.1 Connection: close header', async () => {
  const own = await startTestNode({ 'db-type': 'memdb', chains: [], 'http-max-body-size': 1024 });
  const s = http2.connect(own.url);
  try {
    const big = `{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID","params":{"x":"${'a'.repeat(4096)}"}}`;
    const r = await post(s, '/ext/info', big);
    assert.equal(r.status, 413);
    assert.equal(r.body, 'request body too large (limit 1024 bytes)');
    assert.equal(r.headers.connection, undefined);
    assert.equal((await post(s, '/ext/info', NETWORK_ID)).status, 200);
  } finally {
    await closeSession(s);
    await own.stop();
  }
});

/** Bytes written on a fresh socket, and everything it receives until it closes (or `ms` pass). */
function raw(bytes: Buffer, ms = 2000): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const sock = net.connect(Number(new URL(t.url).port), '127.0.0.1', () => sock.write(bytes));
    const done = () => resolve(Buffer.concat(chunks));
    sock.on('data', (c) => chunks.push(c));
    sock.on('close', done);
    sock.on('error', () => {});
    setTimeout(() => sock.destroy(), ms);
  });
}

test('h2c: bad input after the preface ends that connection only (a GOAWAY), never the node', async () => {
  const preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
  // A frame header announcing a 16 MiB DATA frame on stream 0, then junk: a connection error.
  const junk = await raw(Buffer.concat([preface, Buffer.from([0xff, 0xff, 0xff, 0x00, 0x00, 0, 0, 0, 0]), Buffer.from('not http/2 at all')]));
  // The server's SETTINGS frame (type 4) comes first, then a GOAWAY (type 7) before it closes.
  assert.ok(junk.length >= 9, 'the server answered with frames');
  assert.equal(junk[3], 4, 'SETTINGS first');
  let at = 0;
  const types: number[] = [];
  while (at + 9 <= junk.length) {
    types.push(junk[at + 3]);
    at += 9 + junk.readUIntBE(at, 3);
  }
  assert.ok(types.includes(7), `a GOAWAY among the frames (${types})`);
  // A stream reset halfway through its body ends that request only.
  const s = await connect();
  try {
    await new Promise<void>((resolve) => {
      const req = s.request({ ':method': 'POST', ':path': '/ext/info', 'content-type': 'application/json', 'content-length': '1000' });
      req.on('error', () => {});
      req.on('close', () => resolve());
      req.write('{"jsonrpc":"2.0",', () => setTimeout(() => req.close(http2.constants.NGHTTP2_CANCEL), 20));
    });
    assert.equal((await post(s, '/ext/info', NETWORK_ID)).status, 200);
    assert.equal(s.remoteSettings.maxConcurrentStreams, 250, "Go's default stream limit");
  } finally {
    await closeSession(s);
  }
  // Half a preface, then the client goes away; and a preface split over two writes still works.
  await raw(preface.subarray(0, 10), 300);
  const split = await new Promise<http2.ClientHttp2Session>((resolve, reject) => {
    const sock = net.connect(Number(new URL(t.url).port), '127.0.0.1');
    const s = http2.connect(t.url, {
      createConnection: () => {
        // node:http2 writes the preface in one go; cut it: the first byte now, the rest later.
        const write = sock.write.bind(sock);
        let first = true;
        sock.write = ((chunk: Buffer, ...rest: unknown[]) => {
          if (!first) return write(chunk, ...(rest as []));
          first = false;
          write(chunk.subarray(0, 1));
          setTimeout(() => write(chunk.subarray(1), ...(rest as [])), 50);
          return true;
        }) as typeof sock.write;
        return sock;
      },
    });
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
  try {
    assert.equal((await post(split, '/ext/info', NETWORK_ID)).status, 200);
  } finally {
    await closeSession(split);
  }
  assert.equal((await rpc(`${t.url}/ext/info`, 'info.getNetworkID')).result.networkID, '12345');
});

test('h2c: stopping the node closes an idle HTTP/2 connection with a GOAWAY', async () => {
  const own = await startTestNode({ 'db-type': 'memdb', chains: [] });
  const s = http2.connect(own.url);
  let goaway = false;
  s.on('goaway', () => (goaway = true));
  s.on('error', () => {});
  const closed = new Promise<void>((resolve) => s.on('close', () => resolve()));
  const r = await post(s, '/ext/info', NETWORK_ID);
  assert.equal(r.status, 200);
  await own.stop();
  await closed;
  assert.ok(goaway, 'the client saw a GOAWAY');
  assert.ok(s.destroyed || s.closed);
});

test("header lists as Go's HTTP/2 server takes them: 200 headers, and 120 KiB of them, are served (node:http2 alone resets past 128 headers or a 64 KiB list)", async () => {
  const s = await connect();
  try {
    const many: http2.OutgoingHttpHeaders = {};
    for (let i = 0; i < 200; i++) many[`x-filler-${i}`] = '1';
    const a = await post(s, '/ext/info', NETWORK_ID, many);
    assert.equal(a.status, 200);
    assert.equal(a.body, '{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":1}\n');
  } finally {
    await closeSession(s);
  }
  // node:http2's client sends at most 64 KiB of headers unless told otherwise.
  const big = http2.connect(t.url, { maxSendHeaderBlockLength: 1 << 20 });
  try {
    await new Promise((resolve, reject) => {
      big.once('remoteSettings', resolve);
      big.once('error', reject);
    });
    assert.equal(big.remoteSettings.maxHeaderListSize, (1 << 20) + 320);
    const v = 'v'.repeat(40 * 1024);
    const b = await post(big, '/ext/info', NETWORK_ID, { 'x-big-1': v, 'x-big-2': v, 'x-big-3': v });
    assert.equal(b.status, 200);
    assert.equal(b.body, '{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":1}\n');
  } finally {
    await closeSession(big);
  }
});
