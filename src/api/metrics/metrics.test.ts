import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestNode, rpc, type TestNode } from '../../../test/helpers.js';
import { renderPrometheus } from './service.js';

let t: TestNode;
before(async () => {
  t = await startTestNode({ 'db-type': 'memdb', chains: [] });
});
after(() => t.stop());

const SAMPLE = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? \S+$/;

test('/ext/metrics: Prometheus text format with process, API call and health metrics', async () => {
  await rpc(`${t.url}/ext/info`, 'info.getNetworkID');
  await rpc(`${t.url}/ext/info`, 'info.getNetworkID');
  const res = await fetch(`${t.url}/ext/metrics`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  const text = await res.text();
  assert.ok(text.endsWith('\n'));
  for (const line of text.trimEnd().split('\n')) {
    if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    assert.match(line, SAMPLE);
    assert.ok(line.startsWith('avalanche_'), line);
  }
  assert.match(text, /^# TYPE avalanche_process_resident_memory_bytes gauge$/m);
  assert.match(text, /^avalanche_process_resident_memory_bytes \d+$/m);
  assert.match(text, /^avalanche_process_cpu_seconds_total [0-9.e-]+$/m);
  const calls = /^avalanche_api_calls_processed\{base="\/ext\/info"\} (\d+)$/m.exec(text);
  assert.ok(calls, 'calls to /ext/info are counted');
  assert.equal(Number(calls[1]), 2);
  const duration = /^avalanche_api_calls_duration\{base="\/ext\/info"\} (\d+)$/m.exec(text);
  assert.ok(duration && Number(duration[1]) > 0, 'time spent on /ext/info is counted, in whole nanoseconds');
  assert.match(text, /^avalanche_api_calls_processing\{base="\/ext\/info"\} 0$/m, 'finished calls leave the in-flight gauge');
  assert.match(text, /^avalanche_health_checks_failing\{check="health",tag="all"\} 0$/m);
  assert.match(text, /^avalanche_health_checks_failing\{check="liveness",tag="all"\} 0$/m);
});

test('/ext/metrics answers any method; its own earlier calls are counted', async () => {
  const res = await fetch(`${t.url}/ext/metrics`, { method: 'POST', body: 'x' });
  assert.equal(res.status, 200);
  assert.match(await res.text(), /^avalanche_api_calls_processed\{base="\/ext\/metrics"\} [1-9]\d*$/m);
});

test('--api-metrics-enabled=false: 404', async () => {
  const t2 = await startTestNode({ 'db-type': 'memdb', chains: [], 'api-metrics-enabled': false });
  try {
    assert.equal((await fetch(`${t2.url}/ext/metrics`)).status, 404);
  } finally {
    await t2.stop();
  }
});

test('renderPrometheus escapes label values and sorts families', () => {
  const text = renderPrometheus([
    { name: 'avalanche_b', help: 'b', type: 'gauge', samples: [{ value: 1 }] },
    { name: 'avalanche_a', help: 'a\nx', type: 'counter', samples: [{ labels: { l: 'q"\\\n' }, value: 2n }] },
  ]);
  assert.equal(
    text,
    '# HELP avalanche_a a\\nx\n# TYPE avalanche_a counter\navalanche_a{l="q\\"\\\\\\n"} 2\n# HELP avalanche_b b\n# TYPE avalanche_b gauge\navalanche_b 1\n',
  );
});

test('/ext/metrics is gzipped for a client that takes gzip (as promhttp does), plain otherwise', async () => {
  const { request } = await import('node:http');
  const { gunzipSync } = await import('node:zlib');
  const get = (acceptEncoding?: string) =>
    new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const u = new URL(`${t.url}/ext/metrics`);
      const req = request({ host: u.hostname, port: u.port, path: u.pathname, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
  const gz = await get('gzip, deflate');
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.equal(gz.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  assert.equal(Number(gz.headers['content-length']), gz.body.length);
  assert.match(gunzipSync(gz.body).toString(), /^# HELP avalanche_/);
  for (const plain of [undefined, 'gzip;q=0', 'br', 'identity']) {
    const r = await get(plain);
    assert.equal(r.headers['content-encoding'], undefined, String(plain));
    assert.match(r.body.toString(), /^# HELP avalanche_/);
  }
});

test('acceptsGzip: gzip or * with a q above 0', async () => {
  const { acceptsGzip } = await import('./service.js');
  for (const yes of ['gzip', 'deflate, gzip', 'GZIP;q=0.5', '*', 'br, *;q=1']) assert.equal(acceptsGzip(yes), true, yes);
  for (const no of [undefined, '', 'gzip;q=0', 'br', 'identity', 'x-gzip2']) assert.equal(acceptsGzip(no), false, String(no));
});
