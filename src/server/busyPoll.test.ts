import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'node:http';
import { availableParallelism } from 'node:os';
import { WebSocket } from 'ws';
import { BusyPoll, MIN_WINDOW_US, busyPoll, loopKeeper } from './busyPoll.js';
import { startNode } from '../index.js';

/** A poller on a clock the test moves (milliseconds, as performance.now()). */
function clocked(): { poll: BusyPoll; at: (ms: number) => void } {
  let now = 0;
  return { poll: new BusyPoll(() => now), at: (ms) => (now = ms) };
}

test('the window: kept while requests come within it, grown while they come just after it, shrunk to off while they come long after', () => {
  const { poll, at } = clocked();
  const release = poll.use(300);
  assert.equal(poll.window, 300);
  // Within the window: caught, unchanged.
  at(0);
  poll.answered();
  at(0.2);
  poll.arrived();
  assert.equal(poll.window, 300);
  assert.equal(poll.stats.caught, 1);
  // Long after the longest window: halved each time, then off below MIN_WINDOW_US.
  const longGap = () => {
    at(10);
    poll.answered();
    at(15);
    poll.arrived();
  };
  longGap();
  assert.equal(poll.window, 150);
  longGap();
  longGap();
  assert.equal(poll.window, 37.5);
  longGap();
  assert.equal(poll.window, 0, `${37.5 / 2} < ${MIN_WINDOW_US}: off`);
  longGap();
  assert.equal(poll.window, 0);
  assert.equal(poll.stats.shrunk, 4, 'an idle node no longer counts shrinks once off');
  // Off: an answer starts no poll; a request soon after it grows the window again, up to the longest.
  const shortGap = () => {
    at(20);
    poll.answered();
    at(20.29);
    poll.arrived();
  };
  const polls = poll.stats.polls;
  assert.equal(poll.active, true, 'the first poll, whose immediates this synchronous test never lets run');
  const windows: number[] = [];
  for (let i = 0; i < 6; i++) {
    shortGap();
    windows.push(poll.window);
  }
  assert.deepEqual(windows, [25, 50, 100, 200, 300, 300]);
  assert.equal(poll.stats.polls, polls, 'no new poll while one is running');
  // A request with no answer before it (the first, or a second one on other connections) changes nothing.
  poll.arrived();
  assert.equal(poll.window, 300);
  release();
  at(30);
  poll.answered();
  at(40);
  poll.arrived();
  assert.equal(poll.window, 0, 'released: off');
});

test('several users: the longest setting applies, and releasing one leaves the others', () => {
  const { poll } = clocked();
  const a = poll.use(100);
  const b = poll.use(400);
  assert.equal(poll.window, 400);
  b();
  b(); // twice is once
  assert.equal(poll.window, 100);
  const c = poll.use(0);
  assert.equal(poll.window, 100);
  a();
  assert.equal(poll.window, 0);
  c();
  assert.equal(poll.window, 0);
});

/** CPU milliseconds this process used over `ms` of wall time (its event loop free meanwhile). */
async function cpuOver(ms: number): Promise<number> {
  const before = process.cpuUsage();
  await sleep(ms);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

for (const [how, keeperOf] of [
  ['the loop keeper (no JavaScript per turn)', loopKeeper],
  ['a chain of immediates', () => undefined],
] as const) {
  test(`an answer keeps the real event loop turning for the window, then lets it sleep: ${how}`, async () => {
    const poll = new BusyPoll(undefined, keeperOf);
    poll.answered();
    assert.equal(poll.active, false, 'no node asked for polling: the loop may sleep at once');
    const windowMs = 200; // long enough to look at on a loaded machine
    const release = poll.use(windowMs * 1000);
    try {
      // While polling, timers still fire and I/O is still served, and the thread does not sleep.
      const started = performance.now();
      poll.answered();
      assert.equal(poll.active, true);
      const spun = await cpuOver(50);
      assert.equal(poll.active, true, 'still polling 50 ms into a 200 ms window');
      // A sleeping loop uses next to no CPU; a turning one all it gets (the bound leaves room for a busy machine).
      assert.ok(spun > 10, `the thread kept turning: ${spun.toFixed(1)} ms of CPU in 50 ms`);
      while (poll.active && performance.now() - started < 5000) await sleep(5);
      assert.equal(poll.active, false, 'stopped after the window');
      assert.ok(performance.now() - started >= windowMs, 'polled for the whole window');
      assert.equal(poll.stats.polls, 1);
      const rested = await cpuOver(50);
      assert.ok(rested < spun / 2, `the loop sleeps again: ${rested.toFixed(1)} ms of CPU in 50 ms (${spun.toFixed(1)} while polling)`);
      // Another answer while polling extends the same poll rather than starting a second one.
      poll.answered();
      await sleep(5);
      poll.answered();
      assert.equal(poll.stats.polls, 2);
      // The last user gone (its node stopped): the poll under way ends (the chain at its next turn).
      release();
      await sleep(5);
      assert.equal(poll.active, false);
    } finally {
      release();
    }
  });
}

test('the loop keeper works on this Node.js: one referenced Immediate counted while held, by any number of holders, none queued', async () => {
  const keeper = loopKeeper();
  assert.ok(keeper, 'Node.js timers as the keeper expects them (else polling falls back to a chain of immediates)');
  const immediates = () => process.getActiveResourcesInfo().filter((r) => r === 'Immediate').length;
  const before = immediates();
  keeper.hold();
  keeper.hold();
  assert.equal(immediates(), before + 1);
  keeper.release();
  assert.equal(immediates(), before + 1, 'still held by the second holder');
  let ran = false;
  setImmediate(() => (ran = true));
  await sleep(1);
  assert.equal(ran, true, 'immediates of others still run while held');
  keeper.release();
  assert.equal(immediates(), before);
  keeper.release(); // one release too many changes nothing
  assert.equal(immediates(), before);
});

test('a node polls after its HTTP, node:http and WebSocket answers; a library node does not by default', async () => {
  const post = (url: string, body: string, headers: Record<string, string> = {}) =>
    new Promise<string>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end(body);
    });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
  // A library node polls only when asked (config.ts LIBRARY_DEFAULTS); the CLI's default is 300us.
  const node = await startNode({ httpPort: 0, dbType: 'memdb', logDisplayLevel: 'off', httpBusyPoll: '300us' });
  try {
    const rpc = `${node.url}/ext/bc/dev/rpc`;
    if (availableParallelism() < 2) {
      assert.equal(busyPoll.window, 0, 'off on a one-CPU machine');
      return;
    }
    assert.equal(busyPoll.window, 300, 'the default');
    // The fast path.
    let polls = busyPoll.stats.polls;
    await sleep(5);
    assert.match(await post(rpc, body), /"result":"0x/);
    assert.ok(busyPoll.stats.polls > polls, 'fast path');
    // node:http's path (a request the fast path hands over: chunked).
    polls = busyPoll.stats.polls;
    await sleep(5);
    assert.match(await post(rpc, body, { 'transfer-encoding': 'chunked' }), /"result":"0x/);
    assert.ok(busyPoll.stats.polls > polls, 'node:http path');
    // WebSocket.
    const ws = new WebSocket(`${node.url.replace('http', 'ws')}/ext/bc/dev/ws`);
    await new Promise((r, j) => ws.once('open', r).once('error', j));
    polls = busyPoll.stats.polls;
    await sleep(5);
    const answer = new Promise<string>((r) => ws.once('message', (d) => r(String(d))));
    ws.send(body);
    assert.match(await answer, /"result":"0x/);
    assert.ok(busyPoll.stats.polls > polls, 'WebSocket');
    ws.close();
  } finally {
    await node.stop();
  }
  assert.equal(busyPoll.window, 0, 'a stopped node no longer asks for polling');
  const off = await startNode({ httpPort: 0, dbType: 'memdb', logDisplayLevel: 'off' });
  try {
    const polls = busyPoll.stats.polls;
    assert.match(await post(`${off.url}/ext/bc/dev/rpc`, body), /"result":"0x/);
    assert.equal(busyPoll.stats.polls, polls);
  } finally {
    await off.stop();
  }
});
