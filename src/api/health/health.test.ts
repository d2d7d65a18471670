import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestNode, rpc, type TestNode } from '../../../test/helpers.js';
import { vmIDFromName } from '../../ids/ids.js';

let t: TestNode;
let subnetID: string;
before(async () => {
  t = await startTestNode({ 'db-type': 'memdb' });
  subnetID = [...t.node.chains.chains.values()][0].subnetID;
});
after(() => t.stop());

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

async function get(path: string, init?: RequestInit): Promise<{ status: number; type: string | null; text: string; body: any }> {
  const res = await fetch(t.url + path, init);
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), text, body: JSON.parse(text) };
}

test('GET /ext/health: database, bootstrapped and the dev chain, healthy, 200', async () => {
  const r = await get('/ext/health');
  assert.equal(r.status, 200);
  assert.equal(r.type, 'application/json');
  assert.ok(r.text.endsWith('}\n'));
  assert.deepEqual(Object.keys(r.body), ['checks', 'healthy']);
  assert.equal(r.body.healthy, true);
  assert.deepEqual(Object.keys(r.body.checks).sort(), ['bootstrapped', 'database', 'dev']);
  // database: no details (message omitted); bootstrapped: the empty list of bootstrapping subnets.
  assert.deepEqual(Object.keys(r.body.checks.database), ['timestamp', 'duration']);
  assert.deepEqual(Object.keys(r.body.checks.bootstrapped), ['message', 'timestamp', 'duration']);
  assert.deepEqual(r.body.checks.bootstrapped.message, []);
  for (const c of Object.values<any>(r.body.checks)) {
    assert.match(c.timestamp, RFC3339);
    assert.notEqual(c.timestamp, '0001-01-01T00:00:00Z');
    assert.ok(Number.isInteger(c.duration) && c.duration >= 0);
    assert.equal(c.error, undefined);
    assert.equal(c.contiguousFailures, undefined);
    assert.equal(c.timeOfFirstFailure, undefined);
  }
});

test('checks are keyed in byte order, as Go encodes a map (GET, sub-route and JSON-RPC)', async () => {
  // Registered database, bootstrapped, dev; Go's encoding/json sorts map[string]Result keys.
  const sorted = ['bootstrapped', 'database', 'dev'];
  assert.deepEqual(Object.keys((await get('/ext/health')).body.checks), sorted);
  assert.deepEqual(Object.keys((await get('/ext/health/health')).body.checks), sorted);
  assert.deepEqual(Object.keys((await rpc(`${t.url}/ext/health`, 'health.health')).result.checks), sorted);
  assert.match((await get('/ext/health')).text, /^\{"checks":\{"bootstrapped":\{.*\},"database":\{.*\},"dev":\{.*\}\},"healthy":true\}\n$/);
});

test('tags: a subnet tag selects its chains plus the node-wide checks', async () => {
  const bySubnet = await get(`/ext/health?tag=${subnetID}`);
  assert.deepEqual(Object.keys(bySubnet.body.checks).sort(), ['bootstrapped', 'database', 'dev']);
  const other = await get('/ext/health?tag=someOtherSubnet');
  assert.deepEqual(Object.keys(other.body.checks).sort(), ['bootstrapped', 'database']);
  const two = await get(`/ext/health?tag=x&tag=${subnetID}`);
  assert.ok('dev' in two.body.checks);
  // Tags Go's URL.Query() drops (a malformed escape, a `;`) leave no tag: every check.
  for (const q of ['?tag=%zz', '?tag=a;b']) assert.deepEqual(Object.keys((await get(`/ext/health${q}`)).body.checks).sort(), ['bootstrapped', 'database', 'dev'], q);
});

test('POST JSON-RPC health.health / readiness / liveness, with tags', async () => {
  const h = await rpc(`${t.url}/ext/health`, 'health.health', { tags: ['nope'] });
  assert.equal(h.result.healthy, true);
  assert.deepEqual(Object.keys(h.result.checks).sort(), ['bootstrapped', 'database']);
  const all = await rpc(`${t.url}/ext/health`, 'health.health');
  assert.deepEqual(Object.keys(all.result.checks).sort(), ['bootstrapped', 'database', 'dev']);
  const ready = await rpc(`${t.url}/ext/health`, 'health.readiness');
  assert.deepEqual(Object.keys(ready.result.checks), ['bootstrapped']);
  const live = await rpc(`${t.url}/ext/health`, 'health.liveness', {});
  assert.deepEqual(live, { jsonrpc: '2.0', result: { checks: {}, healthy: true }, id: 1 });
  // Go decodes null inside a []string as "": a tag nothing carries, so only the node-wide checks.
  const nullTag = await rpc(`${t.url}/ext/health`, 'health.health', { tags: [null] });
  assert.deepEqual(Object.keys(nullTag.result.checks), ['bootstrapped', 'database']);
  const bad = await rpc(`${t.url}/ext/health`, 'health.health', { tags: 'dev' });
  assert.match(bad.error.message, /^couldn't unmarshal an argument/);
  const unknown = await rpc(`${t.url}/ext/health`, 'health.status');
  assert.equal(unknown.error.message, 'rpc: can\'t find method "health.Status"');
});

test('sub-routes answer any HTTP method; other methods on /ext/health are JSON-RPC (405)', async () => {
  for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
    const live = await get('/ext/health/liveness', { method, body: method === 'GET' ? undefined : 'ignored' });
    assert.equal(live.status, 200);
    assert.equal(live.text, '{"checks":{},"healthy":true}\n');
    const ready = await get('/ext/health/readiness', { method });
    assert.deepEqual(Object.keys(ready.body.checks), ['bootstrapped']);
    const health = await get('/ext/health/health', { method });
    assert.equal(health.body.healthy, true);
  }
  const put = await fetch(`${t.url}/ext/health`, { method: 'PUT' });
  assert.equal(put.status, 405);
  assert.equal(await put.text(), 'rpc: POST method required, received PUT');
});

test('a chain waiting for its VM makes bootstrapped fail: 503, error and subnet list', async () => {
  const vmID = vmIDFromName('notloaded');
  const t2 = await startTestNode({ 'db-type': 'memdb', chains: [{ vm: vmID, name: 'w', genesis: { a: 1 } }] });
  try {
    const pendingSubnet = [...t2.node.chains.pending.values()][0].subnetID;
    const res = await fetch(`${t2.url}/ext/health`);
    assert.equal(res.status, 503);
    const body: any = await res.json();
    assert.equal(body.healthy, false);
    assert.equal(body.checks.bootstrapped.error, 'subnets not bootstrapped');
    assert.deepEqual(body.checks.bootstrapped.message, [pendingSubnet]);
    assert.equal(body.checks.bootstrapped.contiguousFailures, 1);
    assert.equal(body.checks.bootstrapped.timeOfFirstFailure, body.checks.bootstrapped.timestamp);
    assert.equal(body.checks.database.error, undefined);
    // The JSON-RPC form reports the same with HTTP 200.
    const r = await rpc(`${t2.url}/ext/health`, 'health.readiness');
    assert.equal(r.result.healthy, false);
    assert.equal((await fetch(`${t2.url}/ext/health/readiness`)).status, 503);
    assert.equal((await fetch(`${t2.url}/ext/health/liveness`)).status, 200);
  } finally {
    await t2.stop();
  }
});

test('a failing VM health check: error, contiguousFailures counting up, first failure kept', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-health-'));
  const pluginDir = join(dataDir, 'plugins');
  mkdirSync(pluginDir, { recursive: true });
  const vmID = vmIDFromName('flaky');
  writeFileSync(
    join(pluginDir, `${vmID}.mjs`),
    `export default { version: 'v1.0.0', async createChain() { return {
       createHandlers: () => ({}),
       health() { throw new Error('flaky <is> down'); },
       shutdown: async () => {},
     }; } };\n`,
  );
  const t2 = await startTestNode({
    'data-dir': dataDir,
    'db-type': 'memdb',
    'health-check-frequency': '20ms',
    chains: [{ vm: vmID, name: 'f', aliases: ['flaky'], genesis: {} }],
  });
  try {
    let body: any;
    for (let i = 0; i < 500; i++) {
      const res = await fetch(`${t2.url}/ext/health`);
      assert.equal(res.status, 503);
      const text = await res.text();
      assert.ok(text.includes('flaky \\u003cis\\u003e down'), 'Go-style escaping of < and >');
      body = JSON.parse(text);
      if (body.checks.flaky.contiguousFailures >= 3) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const c = body.checks.flaky;
    assert.deepEqual(Object.keys(c), ['error', 'timestamp', 'duration', 'contiguousFailures', 'timeOfFirstFailure']);
    assert.equal(c.error, 'flaky <is> down');
    assert.ok(c.contiguousFailures >= 3);
    // RFC 3339 with Go's trimmed fraction ("…01.1Z" vs "…01.12Z"): compared as times, not strings.
    assert.ok(Date.parse(c.timeOfFirstFailure) <= Date.parse(c.timestamp), `${c.timeOfFirstFailure} <= ${c.timestamp}`);
    assert.notEqual(c.timeOfFirstFailure, c.timestamp);
    // The chain's check carries its subnet as tag.
    const subnet = t2.node.chains.chains.get(t2.node.chains.aliaser.lookup('flaky'))!.subnetID;
    const tagged: any = await (await fetch(`${t2.url}/ext/health?tag=${subnet}`)).json();
    assert.ok('flaky' in tagged.checks);
    const metrics = await (await fetch(`${t2.url}/ext/metrics`)).text();
    assert.match(metrics, /^avalanche_health_checks_failing\{check="health",tag="all"\} 1$/m);
    assert.match(metrics, new RegExp(`^avalanche_health_checks_failing\\{check="health",tag="${subnet}"\\} 1$`, 'm'));
  } finally {
    await t2.stop();
  }
});
