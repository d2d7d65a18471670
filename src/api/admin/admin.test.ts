// admin API over real HTTP: aliases, chain aliases, logger levels, getConfig, loadVMs, dbGet.
// Profiler methods are tested in src/profiler/profiler.test.ts; logging files in src/logging.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestNode, rpc, type TestNode } from '../../../test/helpers.js';
import { cb58Encode } from '../../ids/cb58.js';
import { EMPTY_ID } from '../../ids/ids.js';
import { UNMARSHAL_ERROR } from '../../rpc/gorilla.js';

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function errorOf(url: string, method: string, params: unknown): Promise<string> {
  const r = await rpc(url, method, params);
  assert.ok(r.error, `${method} ${JSON.stringify(params)} should fail, got ${JSON.stringify(r)}`);
  assert.equal(r.error.code, -32000);
  assert.equal(r.error.data, null);
  return r.error.message;
}

describe('admin API on one node', () => {
  let t: TestNode;
  let admin: string;
  let chainID: string;
  before(async () => {
    t = await startTestNode({ 'api-admin-enabled': true });
    admin = `${t.url}/ext/admin`;
    chainID = t.node.chains.aliaser.lookup('dev');
  });
  after(() => t.stop());

  test('alias: 512 bytes are accepted, 513 are too long (bytes, not characters)', async () => {
    assert.deepEqual((await rpc(admin, 'admin.alias', { endpoint: 'info', alias: 'a'.repeat(512) })).result, {});
    assert.equal(await errorOf(admin, 'admin.alias', { endpoint: 'info', alias: 'b'.repeat(513) }), 'alias length is too long');
    // 257 two-byte characters = 514 bytes.
    assert.equal(await errorOf(admin, 'admin.alias', { endpoint: 'info', alias: 'é'.repeat(257) }), 'alias length is too long');
  });

  test('alias: the alias URL serves the endpoint; reusing it fails with no change', async () => {
    assert.deepEqual((await rpc(admin, 'admin.alias', { endpoint: 'info', alias: 'myinfo' })).result, {});
    const r = await rpc(`${t.url}/ext/myinfo`, 'info.getNodeID', {});
    assert.equal(r.result.nodeID, t.node.nodeID);
    assert.equal(
      await errorOf(admin, 'admin.alias', { endpoint: 'health', alias: 'myinfo' }),
      'route is either already aliased or already maps to a handle: /ext/myinfo',
    );
    // Still the info API, not health.
    assert.equal((await rpc(`${t.url}/ext/myinfo`, 'info.getNodeID', {})).result.nodeID, t.node.nodeID);
  });

  test('alias: colliding with an existing route fails but keeps the alias reserved (side effect)', async () => {
    assert.equal(await errorOf(admin, 'admin.alias', { endpoint: 'health', alias: 'info' }), 'failed to create endpoint as /ext/info already exists');
    assert.equal(
      await errorOf(admin, 'admin.alias', { endpoint: 'health', alias: 'info' }),
      'route is either already aliased or already maps to a handle: /ext/info',
    );
    // /ext/info still answers info, and routes added to /ext/health later appear under /ext/info.
    assert.equal((await rpc(`${t.url}/ext/info`, 'info.getNodeID', {})).result.nodeID, t.node.nodeID);
    t.node.addRoute('/ext/health', '/admin-test', { http: (_q, res) => void res.end('health side route') });
    const side = await fetch(`${t.url}/ext/info/admin-test`);
    assert.equal(await side.text(), 'health side route');
  });

  test('alias: a path another base already serves is no collision (the router checks its own base); the first route keeps answering', async () => {
    // AvalancheGo compares routes[base][suffix] only: /ext/health + /readiness is another base's
    // route, so the alias is recorded without error, and gorilla/mux keeps matching the route
    // registered first for the path.
    assert.deepEqual((await rpc(admin, 'admin.alias', { endpoint: 'info', alias: 'health/readiness' })).result, {});
    const ready = await fetch(`${t.url}/ext/health/readiness`);
    assert.deepEqual(Object.keys(((await ready.json()) as any).checks), ['bootstrapped']);
    // The alias URL is reserved now, as any alias.
    assert.equal(
      await errorOf(admin, 'admin.alias', { endpoint: 'info', alias: 'health/readiness' }),
      'route is either already aliased or already maps to a handle: /ext/health/readiness',
    );
  });

  test('alias: an unknown endpoint gives a dormant alias that wakes when routes appear', async () => {
    assert.deepEqual((await rpc(admin, 'admin.alias', { endpoint: 'not-yet', alias: 'later' })).result, {});
    assert.equal((await post(`${t.url}/ext/later`, {})).status, 404);
    t.node.addRoute('/ext/not-yet', '', { http: (_q, res) => void res.end('awake') });
    const r = await post(`${t.url}/ext/later`, {});
    assert.equal(r.status, 200);
    assert.equal(await r.text(), 'awake');
  });

  test('aliasChain: /ext/bc/<alias>/rpc answers; getChainAliases lists it last', async () => {
    assert.equal((await post(`${t.url}/ext/bc/mychain/rpc`, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).status, 404);
    assert.deepEqual((await rpc(admin, 'admin.aliasChain', { chain: 'dev', alias: 'mychain' })).result, {});
    const r = await post(`${t.url}/ext/bc/mychain/rpc`, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
    assert.equal(r.status, 200);
    // The chain ID also resolves (a chain ID is an alias of itself).
    assert.deepEqual((await rpc(admin, 'admin.aliasChain', { chain: chainID, alias: 'mychain2' })).result, {});
    assert.equal((await post(`${t.url}/ext/bc/mychain2/rpc`, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).status, 200);
    const aliases = (await rpc(admin, 'admin.getChainAliases', { chain: chainID })).result.aliases;
    assert.deepEqual(aliases, ['dev', chainID, 'mychain', 'mychain2']);
    // Not added without the bc/ prefix.
    assert.equal((await post(`${t.url}/ext/mychain/rpc`, {})).status, 404);
  });

  test('aliasChain: unknown or malformed chain, alias in use, alias too long', async () => {
    assert.equal(await errorOf(admin, 'admin.aliasChain', { chain: 'nochain', alias: 'x1' }), 'there is no ID with alias: nochain');
    assert.equal(await errorOf(admin, 'admin.aliasChain', { chain: '', alias: 'x2' }), 'there is no ID with alias: ');
    // A well-formed ID of a chain this node does not run is unknown too.
    assert.equal(await errorOf(admin, 'admin.aliasChain', { chain: EMPTY_ID, alias: 'x3' }), `there is no ID with alias: ${EMPTY_ID}`);
    assert.equal(await errorOf(admin, 'admin.aliasChain', { chain: 'dev', alias: 'dev' }), 'alias already mapped to an ID: dev');
    assert.equal(await errorOf(admin, 'admin.aliasChain', { chain: 'dev', alias: chainID }), `alias already mapped to an ID: ${chainID}`);
    assert.equal(await errorOf(admin, 'admin.aliasChain', { chain: 'dev', alias: 'z'.repeat(513) }), 'alias length is too long');
    // The too-long check comes first: even an unknown chain reports the length.
    assert.equal(await errorOf(admin, 'admin.aliasChain', { chain: 'nochain', alias: 'z'.repeat(513) }), 'alias length is too long');
  });

  test('getChainAliases: CB58 errors, unknown ID → null', async () => {
    assert.equal(await errorOf(admin, 'admin.getChainAliases', { chain: '' }), 'base58 decoding error: zero length string');
    assert.equal(await errorOf(admin, 'admin.getChainAliases', { chain: 'X' }), 'input string is smaller than the checksum size');
    assert.equal(await errorOf(admin, 'admin.getChainAliases', { chain: 'dev' }), 'input string is smaller than the checksum size');
    assert.equal(await errorOf(admin, 'admin.getChainAliases', { chain: '0abcdefgh' }), "base58 decoding error: Invalid base58 digit ('0')");
    // The digit is quoted as Go's %q of a rune.
    assert.equal(await errorOf(admin, 'admin.getChainAliases', { chain: 'ab\tc' }), "base58 decoding error: Invalid base58 digit ('\\t')");
    assert.equal(await errorOf(admin, 'admin.getChainAliases', { chain: "ab'c" }), "base58 decoding error: Invalid base58 digit ('\\'')");
    assert.equal(await errorOf(admin, 'admin.getChainAliases', { chain: 'ab"c' }), 'base58 decoding error: Invalid base58 digit (\'"\')');
    const last = chainID.at(-1) === '2' ? '3' : '2';
    assert.equal(await errorOf(admin, 'admin.getChainAliases', { chain: chainID.slice(0, -1) + last }), 'invalid input checksum');
    assert.equal(
      await errorOf(admin, 'admin.getChainAliases', { chain: cb58Encode(new Uint8Array(20).fill(7)) }),
      'invalid hash length: expected 32 bytes but got 20',
    );
    assert.deepEqual((await rpc(admin, 'admin.getChainAliases', { chain: EMPTY_ID })).result, { aliases: null });
  });

  test('getLoggerLevel: all loggers sorted, one logger, unknown logger', async () => {
    const all = (await rpc(admin, 'admin.getLoggerLevel', {})).result.loggerLevels;
    assert.deepEqual(Object.keys(all), ['dev', 'main', 'vm-factory']);
    assert.deepEqual(all.main, { logLevel: 'INFO', displayLevel: 'OFF' });
    const one = (await rpc(admin, 'admin.getLoggerLevel', { loggerName: 'dev' })).result;
    assert.deepEqual(Object.keys(one.loggerLevels), ['dev']);
    assert.equal(await errorOf(admin, 'admin.getLoggerLevel', { loggerName: 'C' }), 'logger with name "C" not found');
    // Names are exact and case-sensitive.
    assert.equal(await errorOf(admin, 'admin.getLoggerLevel', { loggerName: 'Main' }), 'logger with name "Main" not found');
    // The name is quoted as Go's %q.
    assert.equal(await errorOf(admin, 'admin.getLoggerLevel', { loggerName: 'a"b\\c\n' }), 'logger with name "a\\"b\\\\c\\n" not found');
    assert.equal(await errorOf(admin, 'admin.setLoggerLevel', { loggerName: 'x"', logLevel: 'info' }), 'logger with name "x\\"" not found');
  });

  test('setLoggerLevel: any case in, upper case out; either level alone; all loggers', async () => {
    let r = await rpc(admin, 'admin.setLoggerLevel', { loggerName: 'vm-factory', logLevel: 'dEbUg' });
    assert.deepEqual(r.result, { loggerLevels: { 'vm-factory': { logLevel: 'DEBUG', displayLevel: 'OFF' } } });
    r = await rpc(admin, 'admin.setLoggerLevel', { loggerName: 'vm-factory', displayLevel: 'trace' });
    assert.deepEqual(r.result, { loggerLevels: { 'vm-factory': { logLevel: 'DEBUG', displayLevel: 'TRACE' } } });
    for (const lvl of ['verbo', 'DEBUG', 'Trace', 'info', 'WARN', 'error', 'Fatal', 'off']) {
      r = await rpc(admin, 'admin.setLoggerLevel', { loggerName: 'vm-factory', logLevel: lvl });
      assert.equal(r.result.loggerLevels['vm-factory'].logLevel, lvl.toUpperCase());
    }
    // Empty name: every logger, and the reply lists them all.
    r = await rpc(admin, 'admin.setLoggerLevel', { displayLevel: 'off', logLevel: 'info' });
    assert.deepEqual(Object.keys(r.result.loggerLevels), ['dev', 'main', 'vm-factory']);
    for (const v of Object.values(r.result.loggerLevels)) assert.deepEqual(v, { logLevel: 'INFO', displayLevel: 'OFF' });
    assert.equal(t.node.logs.get('vm-factory').logLevel, t.node.logs.get('main').logLevel);
  });

  test('setLoggerLevel: errors', async () => {
    const NEITHER = 'need to specify either displayLevel or logLevel';
    assert.equal(await errorOf(admin, 'admin.setLoggerLevel', { loggerName: 'main' }), NEITHER);
    assert.equal(await errorOf(admin, 'admin.setLoggerLevel', { loggerName: 'main', logLevel: null }), NEITHER);
    // Checked before the logger name.
    assert.equal(await errorOf(admin, 'admin.setLoggerLevel', { loggerName: 'nope' }), NEITHER);
    assert.equal(await errorOf(admin, 'admin.setLoggerLevel', { loggerName: 'nope', logLevel: 'info' }), 'logger with name "nope" not found');
    for (const bad of ['warning', '', 'all', 3, 'UNKNO', true]) {
      assert.equal(await errorOf(admin, 'admin.setLoggerLevel', { loggerName: 'main', logLevel: bad }), UNMARSHAL_ERROR);
      assert.equal(await errorOf(admin, 'admin.setLoggerLevel', { displayLevel: bad }), UNMARSHAL_ERROR);
    }
    // Nothing changed.
    assert.equal((await rpc(admin, 'admin.getLoggerLevel', { loggerName: 'main' })).result.loggerLevels.main.logLevel, 'INFO');
  });

  test('setLoggerLevel: levels are upper-cased as Go does, one character to one (`oﬀ` is no level, `ınfo` is INFO)', async () => {
    // JS's toUpperCase turns the ligature ﬀ into "FF"; Go's strings.ToUpper keeps it.
    for (const bad of ['oﬀ', 'OFF\u0000', 'deßug']) {
      assert.equal(await errorOf(admin, 'admin.setLoggerLevel', { loggerName: 'main', logLevel: bad }), UNMARSHAL_ERROR, bad);
    }
    // unicode.ToUpper('ı') (dotless i) is 'I': Go takes it.
    const r = await rpc(admin, 'admin.setLoggerLevel', { loggerName: 'vm-factory', logLevel: 'ınfo' });
    assert.equal(r.result.loggerLevels['vm-factory'].logLevel, 'INFO');
  });

  test('no-argument methods reject scalar params with the generic unmarshal error', async () => {
    for (const m of ['admin.getConfig', 'admin.lockProfile', 'admin.loadVMs']) {
      assert.equal(await errorOf(admin, m, 'x'), UNMARSHAL_ERROR);
      assert.equal(await errorOf(admin, m, [5]), UNMARSHAL_ERROR);
      assert.ok((await rpc(admin, m, [{}])).result);
    }
  });

  test('getConfig: the real node\'s top-level keys Powder has facts for; durations in nanoseconds', async () => {
    const c = (await rpc(admin, 'admin.getConfig', {})).result;
    assert.deepEqual(Object.keys(c), [
      'httpConfig', 'stakingConfig', 'databaseConfig', 'networkID', 'healthCheckFreq', 'profilerConfig', 'loggingConfig',
      'pluginDir', 'trackedSubnets', 'chainAliases', 'vmAliases', 'chainDataDir', 'processContextFilePath',
    ]);
    assert.equal(c.networkID, 12345);
    assert.equal(c.healthCheckFreq, 30_000_000_000);
    assert.equal(c.httpConfig.readTimeout, 30_000_000_000);
    assert.equal(c.httpConfig.idleTimeout, 120_000_000_000);
    assert.equal(c.httpConfig.readHeaderTimeout, 30_000_000_000);
    assert.equal(c.httpConfig.writeHeaderTimeout, 30_000_000_000); // sic: AvalancheGo's key for the write timeout
    assert.deepEqual(Object.keys(c.httpConfig).slice(0, 4), ['readTimeout', 'readHeaderTimeout', 'writeHeaderTimeout', 'idleTimeout']);
    assert.equal(c.httpConfig.apiConfig.adminAPIEnabled, true);
    assert.deepEqual(c.httpConfig.httpAllowedHosts, ['localhost']);
    assert.deepEqual(c.loggingConfig, {
      maxSize: 8, maxFiles: 7, maxAge: 0, directory: join(t.dataDir, 'logs'), compress: false,
      disableWriterDisplaying: false, logLevel: 'INFO', displayLevel: 'OFF', logFormat: c.loggingConfig.logFormat,
    });
    assert.ok(['plain', 'colors', 'json'].includes(c.loggingConfig.logFormat));
    assert.deepEqual(c.profilerConfig, { dir: join(t.dataDir, 'profiles'), enabled: false, freq: 900_000_000_000, maxNumFiles: 5 });
    assert.deepEqual(c.databaseConfig, { readOnly: false, path: join(t.dataDir, 'db', 'local'), name: 'lmdb' });
    assert.equal(c.pluginDir, join(t.dataDir, 'plugins'));
    assert.equal(c.chainDataDir, join(t.dataDir, 'chainData'));
    // Each chain's own folder there is made when the chain is built.
    assert.equal(statSync(join(c.chainDataDir, chainID)).isDirectory(), true);
    assert.equal(statSync(join(c.chainDataDir, chainID)).mode & 0o777, 0o700);
    assert.equal(c.processContextFilePath, join(t.dataDir, 'process.json'));
    assert.deepEqual(c.trackedSubnets, [t.node.chains.chains.get(chainID)!.subnetID]);
    assert.deepEqual(c.chainAliases, {});
    // No secrets.
    assert.doesNotMatch(JSON.stringify(c), /PRIVATE KEY|BEGIN CERTIFICATE/);
    // The aliases files as read at start: one written since (not in effect) is not reported.
    mkdirSync(join(t.dataDir, 'configs', 'chains'), { recursive: true });
    writeFileSync(join(t.dataDir, 'configs', 'chains', 'aliases.json'), JSON.stringify({ [chainID]: ['later'] }));
    assert.deepEqual((await rpc(admin, 'admin.getConfig', {})).result.chainAliases, {});
  });

  test('loadVMs: nothing new → {"newVMs":{}} without failedVMs', async () => {
    const r = await post(admin, { jsonrpc: '2.0', id: 7, method: 'admin.loadVMs', params: {} });
    assert.equal(await r.text(), '{"jsonrpc":"2.0","result":{"newVMs":{}},"id":7}\n');
  });

  test('dbGet: hex key errors, not found, found, empty key', async () => {
    assert.equal(await errorOf(admin, 'admin.dbGet', { key: 'abcd' }), 'missing 0x prefix to hex encoding');
    assert.equal(await errorOf(admin, 'admin.dbGet', { key: '0x0' }), 'encoding/hex: odd length hex string');
    assert.equal(await errorOf(admin, 'admin.dbGet', { key: '0x0g' }), "encoding/hex: invalid byte: U+0067 'g'");
    // An invalid byte is reported before an odd length, as Go does.
    assert.equal(await errorOf(admin, 'admin.dbGet', { key: '0x00g' }), "encoding/hex: invalid byte: U+0067 'g'");
    assert.equal(await errorOf(admin, 'admin.dbGet', { key: '0xzz' }), "encoding/hex: invalid byte: U+007A 'z'");
    assert.equal(await errorOf(admin, 'admin.dbGet', { key: 5 }), UNMARSHAL_ERROR);
    assert.deepEqual((await rpc(admin, 'admin.dbGet', { key: '0x0102' })).result, { value: '', errorCode: 2 });
    assert.deepEqual((await rpc(admin, 'admin.dbGet', { key: '' })).result, { value: '', errorCode: 2 });
    t.node.db.store('node').writeSync([[Buffer.from('0102', 'hex'), Buffer.from('cafe00', 'hex')]]);
    assert.deepEqual((await rpc(admin, 'admin.dbGet', { key: '0x0102' })).result, { value: '0xcafe00', errorCode: 0 });
    // Upper-case hex digits are fine.
    t.node.db.store('node').writeSync([[Buffer.from('abcd', 'hex'), Buffer.alloc(0)]]);
    assert.deepEqual((await rpc(admin, 'admin.dbGet', { key: '0xABcd' })).result, { value: '0x', errorCode: 0 });
  });

  test('every method logs "API called" at DEBUG on the main logger', async () => {
    await rpc(admin, 'admin.setLoggerLevel', { loggerName: 'main', logLevel: 'debug' });
    await rpc(admin, 'admin.getChainAliases', { chain: EMPTY_ID });
    await rpc(admin, 'admin.setLoggerLevel', { loggerName: 'main', logLevel: 'info' });
    const lines = readFileSync(join(t.dataDir, 'logs', 'main.log'), 'utf8').split('\n');
    const called = lines.filter((l) => l.includes('API called') && l.includes('"method": "getChainAliases"'));
    assert.equal(called.length, 1, lines.join('\n'));
    assert.match(called[0], / DEBUG .*"service": "admin"/);
  });
});

test('loadVMs: new VMs with their aliases (keys sorted), failures by VM ID, scan errors', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-admin-vms-'));
  const plugins = join(dataDir, 'plugins');
  mkdirSync(plugins, { recursive: true });
  const vmA = cb58Encode(new Uint8Array(32).fill(1));
  const vmB = cb58Encode(new Uint8Array(32).fill(2));
  const t = await startTestNode({
    'data-dir': dataDir,
    'db-type': 'memdb',
    'api-admin-enabled': true,
    'vm-aliases-file-content': Buffer.from(JSON.stringify({ [vmA]: ['avm-a', 'first-a'] })).toString('base64'),
  });
  const admin = `${t.url}/ext/admin`;
  try {
    const factory = `export default { version: 'v0.0.1', async createChain() { return { createHandlers: () => ({}), async shutdown() {} }; } };\n`;
    writeFileSync(join(plugins, 'avm-a.mjs'), factory);
    writeFileSync(join(plugins, `${vmB}.mjs`), 'export default 42;\n');
    const r = await rpc(admin, 'admin.loadVMs', {});
    assert.deepEqual(Object.keys(r.result), ['newVMs', 'failedVMs']);
    assert.deepEqual(r.result.newVMs, { [vmA]: ['avm-a', 'first-a'] });
    assert.deepEqual(Object.keys(r.result.failedVMs), [vmB]);
    assert.equal(typeof r.result.failedVMs[vmB], 'string');
    // Loaded once: a second call finds nothing new.
    assert.deepEqual((await rpc(admin, 'admin.loadVMs', {})).result, { newVMs: {} });
    // A file named neither by a VM alias nor a VM ID fails the whole call.
    writeFileSync(join(plugins, 'my-plugin.mjs'), factory);
    assert.equal(await errorOf(admin, 'admin.loadVMs', {}), 'invalid vmID: "my-plugin"');
  } finally {
    await t.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('dbGet on a closed database answers errorCode 1', async () => {
  // memdb: closing LMDB under a running node would also fail the node's own shutdown writes.
  const t = await startTestNode({ 'api-admin-enabled': true, 'db-type': 'memdb' });
  try {
    await t.node.db.close();
    assert.deepEqual((await rpc(`${t.url}/ext/admin`, 'admin.dbGet', { key: '0x01' })).result, { value: '', errorCode: 1 });
    // Key errors still come first.
    assert.equal(await errorOf(`${t.url}/ext/admin`, 'admin.dbGet', { key: '01' }), 'missing 0x prefix to hex encoding');
  } finally {
    await t.stop();
  }
});

test('/ext/admin is a 404 unless --api-admin-enabled', async () => {
  const t = await startTestNode({ 'db-type': 'memdb' });
  try {
    const r = await post(`${t.url}/ext/admin`, { jsonrpc: '2.0', id: 1, method: 'admin.getLoggerLevel', params: {} });
    assert.equal(r.status, 404);
    assert.equal(await r.text(), '404 page not found\n');
  } finally {
    await t.stop();
  }
  const on = await startTestNode({ 'db-type': 'memdb', 'api-admin-enabled': 'true' });
  try {
    const r = await rpc(`${on.url}/ext/admin`, 'admin.getLoggerLevel', {});
    assert.ok(r.result.loggerLevels.main);
  } finally {
    await on.stop();
  }
});

test('getConfig: loggingConfig.disableWriterDisplaying is --log-disable-display-plugin-logs', async () => {
  const t = await startTestNode({ 'db-type': 'memdb', 'api-admin-enabled': true, 'log-disable-display-plugin-logs': true, chains: [] });
  try {
    assert.equal((await rpc(`${t.url}/ext/admin`, 'admin.getConfig', {})).result.loggingConfig.disableWriterDisplaying, true);
  } finally {
    await t.stop();
  }
});
