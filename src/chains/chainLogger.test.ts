// A chain's logger is named by its primary alias; a name a logger has already (`main`,
// `vm-factory`) fails the chain as on AvalancheGo (reference §5.2: `logger with name "<name>"
// already exists`) instead of writing the chain's entries into the node's own log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestNode, rpc } from '../../test/helpers.js';
import { TIMESTAMP_VM_ID, tempDirs, workingPluginSource } from '../vms/testkit.test-helpers.js';

test('a chain whose primary alias is "main" stops the start with the log factory\'s error', async () => {
  await assert.rejects(startTestNode({ 'db-type': 'memdb', chains: [{ name: 'm', aliases: ['main'] }] }), {
    message: 'error while creating chain\'s log logger with name "main" already exists',
  });
});

test('a chain data directory that cannot be made stops the start with Go\'s mkdir error', async () => {
  const d = tempDirs();
  try {
    const file = join(d.dataDir, 'a-file');
    writeFileSync(file, '');
    await assert.rejects(startTestNode({ 'db-type': 'memdb', 'data-dir': d.dataDir, 'chain-data-dir': file }), (e: Error) => {
      assert.match(e.message, new RegExp(`^error while creating chain data directory mkdir ${file}: not a directory$`));
      return true;
    });
  } finally {
    rmSync(d.dataDir, { recursive: true, force: true });
  }
});

test('a plugin chain aliased "vm-factory" fails when loadVMs brings its VM: failing health check, loggers unchanged', async () => {
  const d = tempDirs();
  const t = await startTestNode({
    'db-type': 'memdb',
    'data-dir': d.dataDir,
    'api-admin-enabled': true,
    chains: [{ vm: TIMESTAMP_VM_ID, name: 'v', genesis: { a: 1 }, aliases: ['vm-factory'] }],
  });
  try {
    const subnet = [...t.node.chains.pending.values()][0].subnetID;
    writeFileSync(join(d.pluginDir, `${TIMESTAMP_VM_ID}.js`), workingPluginSource());
    const loaded = await rpc(`${t.url}/ext/admin`, 'admin.loadVMs');
    assert.deepEqual(loaded.result, { newVMs: { [TIMESTAMP_VM_ID]: [] } });
    const health: any = await (await fetch(`${t.url}/ext/health`)).json();
    assert.equal(health.healthy, false);
    assert.equal(
      health.checks['vm-factory'].error,
      `failed to create chain on subnet ${subnet}: error while creating chain's log logger with name "vm-factory" already exists`,
    );
    // The node's own loggers are untouched: no chain prefix on vm-factory, no extra logger.
    const levels = await rpc(`${t.url}/ext/admin`, 'admin.getLoggerLevel', {});
    assert.deepEqual(Object.keys(levels.result.loggerLevels), ['main', 'vm-factory']);
    assert.equal((await fetch(`${t.url}/ext/bc/vm-factory`, { method: 'POST' })).status, 404);
  } finally {
    await t.stop();
  }
});
