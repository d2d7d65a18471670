// Stopping the node's HTTP server as AvalancheGo does (Go's http.Server.Shutdown bounded by
// --http-shutdown-timeout, then Close): idle connections close at once, a request being received
// is finished and answered with `Connection: close`, what is left at the timeout is cut, and open
// WebSockets do not hold the stop up. Real sockets against a real node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { WebSocket } from 'ws';
import { startTestNode } from '../../test/helpers.js';

const CALL = '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}';
const HEAD = (extra = '') => `POST /ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}Content-Length: ${CALL.length}\r\n\r\n`;

/** A raw connection that records everything it receives and when it closes. */
async function connect(url: string): Promise<{ sock: net.Socket; received: () => string; closed: Promise<void> }> {
  const u = new URL(url);
  const sock = net.connect(Number(u.port), u.hostname);
  await new Promise<void>((r, j) => sock.once('connect', () => r()).once('error', j));
  let data = '';
  sock.on('data', (d) => (data += d.toString('latin1')));
  sock.on('error', () => {});
  const closed = new Promise<void>((r) => sock.once('close', () => r()));
  return { sock, received: () => data, closed };
}

const answers = (s: string) => s.split('HTTP/1.1 ').length - 1;
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const [path, extra] of [
  ['fast path', ''],
  ['node:http (a request with Origin)', 'Origin: http://example.com\r\n'],
] as const) {
  test(`${path}: a request half received when the node stops is finished and answered with Connection: close`, { timeout: 30_000 }, async () => {
    const t = await startTestNode({ 'db-type': 'memdb', chains: [], 'http-shutdown-timeout': '1m' });
    const c = await connect(t.url);
    // One whole request first (a keep-alive answer), then the head and half the body of the next.
    c.sock.write(HEAD(extra) + CALL);
    while (answers(c.received()) < 1) await tick(5);
    assert.doesNotMatch(c.received(), /\r\nConnection:/); // kept alive: named as Go's net/http names it, not at all
    c.sock.write(HEAD(extra) + CALL.slice(0, 10));
    await tick(50);
    let stopped = false;
    const stop = t.stop().then(() => (stopped = true));
    await tick(200);
    assert.equal(stopped, false, 'stop waits for the request being received');
    c.sock.write(CALL.slice(10));
    await c.closed; // the server closes the connection after its last answer
    await stop;
    const second = c.received().slice(c.received().lastIndexOf('HTTP/1.1 '));
    assert.match(second, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(second, /\r\nConnection: close\r\n/);
    assert.doesNotMatch(second, /Keep-Alive:/);
    assert.equal(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4)).result.networkID, '12345');
  });
}

test('idle keep-alive connections and open WebSockets do not hold the stop up', { timeout: 30_000 }, async () => {
  // A 1-minute shutdown timeout: the test would time out if stop waited for either.
  const t = await startTestNode({ 'db-type': 'memdb', 'http-shutdown-timeout': '1m' });
  const idle = await connect(t.url);
  idle.sock.write(HEAD() + CALL);
  while (answers(idle.received()) < 1) await tick(5);
  const ws = new WebSocket(`${t.url.replace('http', 'ws')}/ext/bc/dev/ws`);
  await new Promise((r, j) => ws.once('open', r).once('error', j));
  const wsClosed = new Promise((r) => ws.once('close', r));
  await t.stop();
  await idle.closed;
  await wsClosed;
  assert.equal(answers(idle.received()), 1);
});

for (const [timeout, what] of [
  ['300ms', 'a request still incomplete at the timeout is cut without an answer'],
  ['0s', '0s closes every connection at once, a request in flight included'],
] as const) {
  test(`--http-shutdown-timeout=${timeout}: ${what}`, { timeout: 30_000 }, async () => {
    const t = await startTestNode({ 'db-type': 'memdb', chains: [], 'http-shutdown-timeout': timeout });
    const c = await connect(t.url);
    c.sock.write(HEAD() + CALL.slice(0, 10));
    await tick(50);
    await t.stop();
    await c.closed;
    assert.equal(c.received(), '');
  });
}
