// A chain's /ws endpoint as gorilla/websocket serves it behind AvalancheGo's front door: the
// handshake's refusals (wsHandshake.ts) with gorilla's statuses and texts on a connection that
// stays open, the front door's own answers first (preflight, header route, paths), no subprotocol,
// and geth's way of ending a connection on a bad message (no close frame: the client sees 1006).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import type { TestNode } from '../../test/helpers.js';
import { maskDate, post, useWireNode, Wire } from '../../test/httpWire.js';

let t: TestNode;
let port: number;
let nodeID: string;
useWireNode({ 'http-allowed-origins': 'http://a.example' }, (n) => ({ t, port, nodeID } = n));

const LIMIT = { timeout: 10_000 };
const WS = '/ext/bc/dev/ws';
const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';
const SWITCHING = 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n';

/** A handshake request; `lines` replace or add header lines (a null value drops one). */
function handshake(method = 'GET', lines: Record<string, string | null> = {}, path = WS): string {
  const h: Record<string, string | null> = { Host: '127.0.0.1', Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': KEY, ...lines };
  let out = `${method} ${path} HTTP/1.1\r\n`;
  for (const [k, v] of Object.entries(h)) if (v !== null) out += `${k}: ${v}\r\n`;
  return out + '\r\n';
}

/** gorilla's refusal through the front door (Date masked), `cors` lines after Vary. */
function refusal(status: 400 | 405, cors = ''): string {
  const text = status === 400 ? 'Bad Request' : 'Method Not Allowed';
  return (
    `HTTP/1.1 ${status} ${text}\r\nnode-id: ${nodeID}\r\nVary: Origin\r\n${cors}Content-Type: text/plain; charset=utf-8\r\nSec-Websocket-Version: 13\r\n` +
    `X-Content-Type-Options: nosniff\r\nContent-Length: ${text.length + 1}\r\nDate: *\r\n\r\n${text}\n`
  );
}

test("handshakes gorilla's Upgrader refuses get its status and text, with the node's headers, and the connection serves on", LIMIT, async () => {
  const cases: [string, string, string][] = [
    ['a POST handshake', handshake('POST'), refusal(405)],
    ['version 8 (ws would take it)', handshake('GET', { 'Sec-WebSocket-Version': '8' }), refusal(400)],
    ['a key that is not 16 bytes of base64', handshake('GET', { 'Sec-WebSocket-Key': 'abc' }), refusal(400)],
    ['an Upgrade other than websocket', handshake('GET', { Upgrade: 'foo' }), refusal(400)],
    ['no Connection: upgrade', handshake('GET', { Connection: null }), refusal(400)],
    ['a plain GET', `GET ${WS} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, refusal(400)],
    ['an unknown method', handshake('FOO'), refusal(405)],
    ['an allowed Origin (CORS headers on the refusal)', handshake('GET', { Origin: 'http://a.example', 'Sec-WebSocket-Version': '12' }), refusal(400, 'Access-Control-Allow-Origin: http://a.example\r\nAccess-Control-Allow-Credentials: true\r\n')],
  ];
  const w = await Wire.open(port);
  for (const [what, req, want] of cases) {
    await w.write(req);
    assert.equal(maskDate((await w.read(1))[0]), want, what);
  }
  await w.write(post('/ext/bc/dev/rpc', '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}'));
  assert.equal((await w.read(1))[0].body, '{"jsonrpc":"2.0","id":1,"result":"0xa8ca"}\n');
});

test('gorilla takes what ws alone would refuse or answer otherwise: token lists, any Origin, a percent-encoded path; and offers no subprotocol', LIMIT, async () => {
  const accepted = [
    handshake('GET', { Connection: 'keep-alive, Upgrade', Upgrade: 'websocket, foo', 'Sec-WebSocket-Version': '13, 8' }),
    handshake('GET', { Origin: 'http://not-listed.example' }),
    handshake('GET', {}, '/ext/bc/de%76/ws'),
    handshake('GET', { 'Sec-WebSocket-Protocol': 'foo, bar', 'Sec-WebSocket-Extensions': 'permessage-deflate' }),
    // An absolute-form target: Go takes path and host from it (the Host header is not looked at).
    handshake('GET', { Host: 'evil.example' }, `http://localhost:${port}${WS}`),
  ];
  for (const req of accepted) {
    const w = await Wire.open(port);
    await w.write(req);
    assert.equal((await w.read(1))[0].raw, SWITCHING, req);
    w.destroy();
  }
  // A client that insists on a subprotocol fails, as against gorilla.
  const ws = new WebSocket(`ws://127.0.0.1:${port}${WS}`, ['foo']);
  const err = await new Promise<Error>((resolve) => ws.once('error', resolve));
  assert.equal(err.message, 'Server sent no subprotocol');
});

test('the front door answers first on /ws: a preflight, Avalanche-Api-Route, a path to clean, a refused Host', LIMIT, async () => {
  const w = await Wire.open(port);
  await w.write(handshake('OPTIONS', { Origin: 'http://a.example', 'Access-Control-Request-Method': 'GET' }));
  const [pre] = await w.read(1);
  assert.equal(pre.status, 200);
  assert.equal(pre.headers.find(([n]) => n === 'Access-Control-Allow-Methods')?.[1], 'GET');
  await w.write(handshake('GET', { 'Avalanche-Api-Route': 'x' }));
  const [routed] = await w.read(1);
  assert.equal(routed.status, 404);
  assert.equal(routed.body, '');
  await w.write(handshake('GET', {}, '/ext/bc//dev/ws'));
  const [moved] = await w.read(1);
  assert.equal(moved.status, 301);
  assert.equal(moved.headers.find(([n]) => n === 'Location')?.[1], WS);
  for (const req of [handshake('GET', { Host: 'evil.example' }), handshake('GET', {}, `http://evil.example${WS}`)]) {
    await w.write(req);
    const [forbidden] = await w.read(1);
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body, 'invalid host specified\n');
  }
});

/** Opens /ws, sends `messages`, and returns what came back and the close code the client saw. */
async function exchange(messages: (string | Buffer)[]): Promise<{ got: string[]; code: number }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${WS}`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const got: string[] = [];
  ws.on('message', (d) => got.push(String(d)));
  const closed = new Promise<number>((resolve) => ws.once('close', resolve));
  for (const m of messages) ws.send(m);
  return { got, code: await closed };
}

test('a message that is not JSON: geth writes the parse error and drops the connection without a close frame (1006); a truncated one is dropped silently', LIMIT, async () => {
  const bad = await exchange(['xyz']);
  assert.deepEqual(bad.got, [`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"invalid character 'x' looking for beginning of value"}}\n`]);
  assert.equal(bad.code, 1006);
  // A scalar then whitespace is a whole value (Go's decoder stops there): not a request, answered, the connection stays.
  const ws = new WebSocket(`ws://127.0.0.1:${port}${WS}`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const answers: string[] = [];
  const two = new Promise<void>((resolve) => ws.on('message', (d) => answers.push(String(d)) === 2 && resolve()));
  ws.send('1 x');
  ws.send('{"jsonrpc":"2.0","id":4,"method":"eth_chainId"}');
  await two;
  assert.deepEqual(answers, ['{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}\n', '{"jsonrpc":"2.0","id":4,"result":"0xa8ca"}\n']);
  ws.terminate();
  const glued = await exchange(['1x']);
  assert.deepEqual(glued.got, [`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"invalid character 'x' after top-level value"}}\n`]);
  assert.equal(glued.code, 1006);
  for (const truncated of ['{"jsonrpc":"2.0","id":1,"method":"eth_chainId"', '{"jsonrpc":"2.0","id":1 ', '1.', '']) {
    const r = await exchange([truncated]);
    assert.deepEqual(r.got, [], JSON.stringify(truncated));
    assert.equal(r.code, 1006, JSON.stringify(truncated));
  }
});

test('a message over 32 MiB closes the connection with 1009; the node keeps serving', LIMIT, async () => {
  const big = await exchange([Buffer.alloc(32 * 1024 * 1024 + 1, 0x20)]);
  assert.equal(big.code, 1009);
  const w = await Wire.open(port);
  await w.write(post('/ext/bc/dev/rpc', '{"jsonrpc":"2.0","id":2,"method":"eth_chainId"}'));
  assert.equal((await w.read(1))[0].body, '{"jsonrpc":"2.0","id":2,"result":"0xa8ca"}\n');
});

test('a text message that is not valid UTF-8 is read as Go reads it (U+FFFD), not refused (gorilla does not check; ws alone would close 1007)', LIMIT, async () => {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${WS}`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  try {
    const answer = new Promise<string>((resolve, reject) => {
      ws.once('message', (d) => resolve(String(d)));
      ws.once('close', (code) => reject(new Error(`closed with ${code}`)));
    });
    const msg = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":3,"method":"eth_chainId","params":[],"note":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    ws.send(msg, { binary: false });
    assert.equal(await answer, '{"jsonrpc":"2.0","id":3,"result":"0xa8ca"}\n');
  } finally {
    ws.terminate();
  }
});
