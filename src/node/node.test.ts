// The library face: startNode() with flag names or camelCase, several nodes in one process, and a
// stop() that releases every socket, file and database handle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNode } from '../index.js';
import { rpc } from '../../test/helpers.js';

const openFDs = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : -1);

function refused(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = connect(Number(u.port), u.hostname);
    s.on('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}

test('startNode: flag names and camelCase options; several nodes in one process on their own ports', async () => {
  const d1 = mkdtempSync(join(tmpdir(), 'powder-lib-'));
  const d2 = mkdtempSync(join(tmpdir(), 'powder-lib-'));
  const a = await startNode({ 'http-port': 0, 'data-dir': d1, 'log-display-level': 'off', 'network-id': 'network-777', chains: [] });
  const b = await startNode({ httpPort: 0, dataDir: d2, logDisplayLevel: 'off', apiAdminEnabled: true, chains: [] });
  try {
    assert.notEqual(a.url, b.url);
    assert.notEqual(a.nodeID, b.nodeID);
    assert.equal((await rpc(`${a.url}/ext/info`, 'info.getNetworkID')).result.networkID, '777');
    assert.equal((await rpc(`${b.url}/ext/info`, 'info.getNetworkID')).result.networkID, '12345');
    assert.equal((await rpc(`${a.url}/ext/info`, 'info.getNodeID')).result.nodeID, a.nodeID);
    assert.equal((await rpc(`${b.url}/ext/info`, 'info.getNodeID')).result.nodeID, b.nodeID);
    assert.equal((await fetch(`${a.url}/ext/admin`, { method: 'POST' })).status, 404);
    assert.equal((await fetch(`${b.url}/ext/admin`, { method: 'POST' })).status, 415);
    // The process context file names the node's URL.
    const ctx = JSON.parse(readFileSync(join(d1, 'process.json'), 'utf8'));
    assert.equal(ctx.uri, a.url);
  } finally {
    await a.stop();
    await b.stop();
    rmSync(d1, { recursive: true, force: true });
    rmSync(d2, { recursive: true, force: true });
  }
});

test('startNode rejects bad options with a clear error and leaves nothing open', async () => {
  await assert.rejects(startNode({ httpPrt: 1 }), { message: 'unknown option "httpPrt"' });
  await assert.rejects(startNode({ 'http-port': 'x' }), /invalid value "x" for option "http-port"/);
});

test('stop() closes the port, the database and every file: the data dir reopens, data kept', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-lib-'));
  try {
    // Warm up once so modules loaded on first start do not count as leaked descriptors.
    const warm = await startNode({ httpPort: 0, dataDir: dir, logDisplayLevel: 'off' });
    await warm.stop();
    const before = openFDs();
    const n1 = await startNode({ httpPort: 0, dataDir: dir, logDisplayLevel: 'off' });
    const url1 = n1.url;
    const id1 = n1.nodeID;
    await n1.db.store('library-test').write([[Buffer.from('k'), Buffer.from('kept')]]);
    await n1.stop();
    assert.equal(await refused(url1), true, 'the port refuses connections after stop');
    assert.equal(existsSync(join(dir, 'process.json')), false);
    if (before >= 0) assert.equal(openFDs(), before, 'no file descriptor left open');
    const n2 = await startNode({ httpPort: 0, dataDir: dir, logDisplayLevel: 'off' });
    try {
      assert.equal(n2.nodeID, id1);
      assert.equal(Buffer.from(n2.db.store('library-test').get(Buffer.from('k'))!).toString(), 'kept');
      assert.equal((await rpc(`${n2.url}/ext/info`, 'info.isBootstrapped', { chain: 'dev' })).result.isBootstrapped, true);
    } finally {
      await n2.stop();
    }
    // stop() twice is harmless.
    await n2.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
