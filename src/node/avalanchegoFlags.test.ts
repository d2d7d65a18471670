// AvalancheGo flags that change what the node does: HTTPS (--http-tls-*), --chain-config-content,
// --http-shutdown-wait, --track-subnets and friends in admin.getConfig. Real nodes on free ports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import https from 'node:https';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { selfSignedCertificate } from './certificate.js';
import { startTestNode, rpc } from '../../test/helpers.js';

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64');

/** POST over HTTPS to a node whose certificate is self-signed. */
function httpsPost(url: string, body: unknown): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, rejectUnauthorized: false }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

test('--http-tls-enabled: the node serves HTTPS (JSON-RPC, node APIs, WebSocket) and not plain HTTP', async () => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const key = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
  const cert = selfSignedCertificate(privateKey);
  const t = await startTestNode({ 'http-tls-enabled': true, 'http-tls-key-file-content': b64(key), 'http-tls-cert-file-content': b64(cert), 'api-admin-enabled': true });
  try {
    assert.match(t.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const chainId = await httpsPost(t.url + '/ext/bc/dev/rpc', { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
    assert.deepEqual([chainId.status, chainId.json.result], [200, '0xa8ca']);
    const info = await httpsPost(t.url + '/ext/info', { jsonrpc: '2.0', id: 1, method: 'info.getNodeID', params: {} });
    assert.equal(info.json.result.nodeID, t.node.nodeID);
    const cfg = await httpsPost(t.url + '/ext/admin', { jsonrpc: '2.0', id: 1, method: 'admin.getConfig', params: {} });
    assert.equal(cfg.json.result.httpConfig.httpsEnabled, true);
    assert.doesNotMatch(JSON.stringify(cfg.json.result), /PRIVATE KEY|BEGIN CERTIFICATE/);
    // WebSocket over TLS.
    const ws = new WebSocket(t.url.replace('https', 'wss') + '/ext/bc/dev/ws', { rejectUnauthorized: false });
    const answer = await new Promise<any>((resolve, reject) => {
      ws.on('open', () => ws.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] })));
      ws.on('message', (m) => resolve(JSON.parse(String(m))));
      ws.on('error', reject);
    });
    ws.close();
    assert.equal(answer.result, '0xa8ca');
    // Plain HTTP to the HTTPS port gets no JSON-RPC answer.
    const plain = await fetch(t.url.replace('https', 'http') + '/ext/bc/dev/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then(
      (r) => r.status,
      () => 'refused',
    );
    assert.notEqual(plain, 200);
  } finally {
    await t.stop();
  }
});

test('--chain-config-content replaces chain-config-dir; getConfig shows the HTTP shutdown settings, tracked subnets, indexer flags', async () => {
  const SUBNET = '217wrx8uXfeMatrqrv3q9fLqqd7UR3zx2CfFDngJvTYTcwt1wE';
  const t0 = await startTestNode({ 'dev-accounts': 1 });
  const dataDir = t0.dataDir + '-2';
  await t0.stop();
  // A chain-config-dir that would turn eth_gasPrice off, and content that keeps it but turns eth_chainId off.
  mkdirSync(join(dataDir, 'configs', 'chains', 'dev'), { recursive: true });
  writeFileSync(join(dataDir, 'configs', 'chains', 'dev', 'config.json'), JSON.stringify({ 'eth-apis': ['internal-blockchain'] }));
  const content = b64({ dev: { Config: b64({ 'eth-apis': ['internal-eth'] }) } });
  const t = await startTestNode({ 'data-dir': dataDir, 'chain-config-content': content, 'api-admin-enabled': true, 'track-subnets': SUBNET, 'index-enabled': true, 'http-shutdown-timeout': '3s', 'http-shutdown-wait': '1ms', 'sybil-protection-enabled': false });
  try {
    const url = t.url + '/ext/bc/dev/rpc';
    assert.match((await rpc(url, 'eth_gasPrice', [])).result, /^0x/);
    assert.equal((await rpc(url, 'eth_chainId', [])).error.code, -32601);
    const c = (await rpc(t.url + '/ext/admin', 'admin.getConfig', {})).result;
    assert.equal(c.httpConfig.shutdownTimeout, 3_000_000_000);
    assert.equal(c.httpConfig.shutdownWait, 1_000_000);
    assert.equal(c.httpConfig.httpsEnabled, false);
    assert.deepEqual(c.httpConfig.apiConfig.indexerConfig, { indexAPIEnabled: true, indexAllowIncomplete: false });
    assert.ok(c.trackedSubnets.includes(SUBNET));
  } finally {
    await t.stop();
  }
});

test('chain-config-dir: <chain>/config.* as Go\'s Glob matches it — a bare `config` is not read, two matches are an error', async () => {
  const t0 = await startTestNode({ 'dev-accounts': 1 });
  const dataDir = t0.dataDir + '-glob';
  await t0.stop();
  const dev = join(dataDir, 'configs', 'chains', 'dev');
  mkdirSync(dev, { recursive: true });
  // A file named exactly `config` (no dot) would turn eth_gasPrice off if it were read.
  writeFileSync(join(dev, 'config'), JSON.stringify({ 'eth-apis': ['internal-blockchain'] }));
  const t = await startTestNode({ 'data-dir': dataDir });
  try {
    assert.match((await rpc(t.url + '/ext/bc/dev/rpc', 'eth_gasPrice', [])).result, /^0x/);
  } finally {
    await t.stop();
  }
  writeFileSync(join(dev, 'config.json'), JSON.stringify({ 'eth-apis': ['internal-blockchain'] }));
  writeFileSync(join(dev, 'config.txt'), '{}');
  await assert.rejects(startTestNode({ 'data-dir': dataDir }), (e: Error) => e.message.includes(`too many files matched "config.*" in ${dev}`));
});

test('--chain-aliases-file-content: file aliases follow the chain\'s own (whose primary alias names its logger and health check), route nothing, and are taken', async () => {
  const t0 = await startTestNode({ 'dev-accounts': 1 });
  const id = (await rpc(t0.url + '/ext/info', 'info.getBlockchainID', { alias: 'dev' })).result.blockchainID as string;
  const dataDir = t0.dataDir + '-aliases';
  await t0.stop();
  const t = await startTestNode({ 'dev-accounts': 1, 'data-dir': dataDir, 'api-admin-enabled': true, 'chain-aliases-file-content': b64({ [id]: ['mychain', 'other'] }) });
  try {
    const admin = t.url + '/ext/admin';
    // AvalancheGo: the genesis aliases, then the file's in file order, then the ID at creation.
    assert.deepEqual((await rpc(admin, 'admin.getChainAliases', { chain: id })).result.aliases, ['dev', 'mychain', 'other', id]);
    assert.deepEqual(Object.keys((await rpc(admin, 'admin.getLoggerLevel', { loggerName: 'dev' })).result.loggerLevels), ['dev']);
    assert.ok('dev' in (await rpc(t.url + '/ext/health', 'health.health', {})).result.checks);
    assert.match((await rpc(t.url + '/ext/bc/dev/rpc', 'eth_chainId', [])).result, /^0x/);
    assert.equal((await fetch(t.url + '/ext/bc/mychain/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' })).status, 404);
    assert.equal((await rpc(admin, 'admin.aliasChain', { chain: id, alias: 'mychain' })).error.message, 'alias already mapped to an ID: mychain');
  } finally {
    await t.stop();
  }
});

test('--http-shutdown-wait: while the node waits to stop, /ext/health fails with shuttingDown', async () => {
  const t = await startTestNode({ 'http-shutdown-wait': '1s' });
  const healthy = await fetch(t.url + '/ext/health');
  assert.equal(healthy.status, 200);
  assert.equal(((await healthy.json()) as any).checks.shuttingDown, undefined);
  const stopping = t.stop();
  const started = Date.now();
  await new Promise((r) => setTimeout(r, 100));
  const r = await fetch(t.url + '/ext/health');
  assert.equal(r.status, 503);
  const report = (await r.json()) as any;
  assert.equal(report.healthy, false);
  assert.equal(report.checks.shuttingDown.error, 'server shutting down');
  assert.deepEqual(report.checks.shuttingDown.message, { isShuttingDown: true });
  await stopping;
  assert.ok(Date.now() - started >= 800, 'stop waited');
});
