// A WebSocket client that stops reading but keeps sending requests: geth gives each write 10 s
// (rpc defaultWriteTimeout), then closes the connection. Powder queued the answers instead, up to
// 256 MiB per connection (a few such clients took the node past 1 GB RSS), and kept the connection,
// since its requests also kept it alive against the ping check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { startTestNode } from '../../../test/helpers.js';
import { WS_WRITE_TIMEOUT_MS } from './server.js';

/** A node on memdb and an open WebSocket to its dev chain. */
async function nodeAndSocket() {
  const node = await startTestNode({ 'db-type': 'memdb' });
  const ws = new WebSocket(node.url.replace('http', 'ws') + '/ext/bc/dev/ws');
  try {
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
  } catch (e) {
    await node.stop();
    throw e;
  }
  return { node, ws };
}

test('a WebSocket client that reads nothing for the write timeout is dropped (1006); the node keeps serving', { timeout: 60_000 }, async () => {
  const { node, ws } = await nodeAndSocket();
  try {
    let answers = 0;
    ws.on('message', () => answers++);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.on('error', () => {});
    // Stop reading: answers stay in the node's queue once the kernel's buffers are full.
    const sock = (ws as unknown as { _socket: import('node:net').Socket })._socket;
    sock.pause();
    // ~1 MB answers (a batch of 1,000 genesis blocks), 40 of them: more than the socket buffers hold.
    const batch = JSON.stringify(Array.from({ length: 1000 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_getBlockByNumber', params: ['0x0', true] })));
    let sent = 0;
    for (; sent < 40; sent++) ws.send(batch);
    // Keep asking past the timeout (each request also counts as a sign of life for the ping check).
    const until = Date.now() + WS_WRITE_TIMEOUT_MS + 2500;
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250));
      if (ws.readyState !== WebSocket.OPEN) break;
      ws.send('{"jsonrpc":"2.0","id":"x","method":"eth_chainId"}');
      sent++;
    }
    // Read again: what the node wrote before it gave up arrives, then the connection ends without
    // a close frame, as geth's does.
    sock.resume();
    const code = await Promise.race([closed, new Promise<string>((r) => setTimeout(() => r('still open'), 5000))]);
    assert.equal(code, 1006);
    assert.ok(answers < sent, `${answers} answers of ${sent}`);
    const r = await fetch(`${node.url}/ext/bc/dev/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' });
    assert.deepEqual(await r.json(), { jsonrpc: '2.0', id: 1, result: '0xa8ca' });
  } finally {
    ws.terminate();
    await node.stop();
  }
});

test('a client that reads slowly but steadily keeps its connection', { timeout: 90_000 }, async () => {
  const { node, ws } = await nodeAndSocket();
  try {
    const BATCHES = 20;
    let batches = 0;
    const sock = (ws as unknown as { _socket: import('node:net').Socket })._socket;
    // One answer per turn of the loop below: the socket stops at each answer read, so the kernel's
    // buffers, which can hold more than one (~0.6 MB each), never hand over several at once.
    ws.on('message', (m: Buffer) => {
      if (m.length > 10_000) {
        batches++;
        sock.pause();
      }
    });
    const batch = JSON.stringify(Array.from({ length: 1000 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_getBlockByNumber', params: ['0x0', true] })));
    for (let i = 0; i < BATCHES; i++) ws.send(batch);
    // Read one answer (~0.6 MB) a second: the queue drains a little at a time, so its answers take
    // longer than the write timeout in all (20 answers, ~20 s), but each is written well within it.
    // Reading until an answer has come (not for a fixed time) keeps that pace on a loaded machine too.
    const started = Date.now();
    while (batches < BATCHES) {
      sock.pause();
      await new Promise((r) => setTimeout(r, 1000));
      ws.send('{"jsonrpc":"2.0","id":"x","method":"eth_chainId"}');
      const seen = batches;
      sock.resume();
      for (const until = Date.now() + 5000; batches === seen && Date.now() < until; ) await new Promise((r) => setTimeout(r, 5));
      assert.equal(ws.readyState, WebSocket.OPEN, `dropped after ${batches} answers, ${Date.now() - started} ms`);
    }
    assert.ok(Date.now() - started > WS_WRITE_TIMEOUT_MS, `the slow reading outlasted the write timeout (${Date.now() - started} ms)`);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(ws.readyState, WebSocket.OPEN);
  } finally {
    ws.terminate();
    await node.stop();
  }
});
