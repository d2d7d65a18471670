// Chains of plugin VMs declared before their VM is loaded: pending, then created by admin.loadVMs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startNode, type Node } from '../index.js';
import { rpc } from '../../test/helpers.js';
import { vmIDFromName } from '../ids/ids.js';
import { tempDirs, writePlugin } from '../vms/testkit.test-helpers.js';

/** A plugin whose chains answer `ctxinfo.get` with what they were told in their ChainContext. */
const CTX_PLUGIN = `export default {
  version: 'v3',
  async createChain(ctx) {
    if (ctx.options.failOnCreate) throw new Error('cannot create: ' + ctx.options.failOnCreate);
    const service = {
      get: {
        handler: () => ({
          chainID: ctx.chainID, subnetID: ctx.subnetID, primaryAlias: ctx.primaryAlias, aliases: ctx.aliases,
          networkID: ctx.networkID, nodeID: ctx.nodeID, genesis: Buffer.from(ctx.genesis).toString('utf8'),
          config: ctx.config ? Buffer.from(ctx.config).toString('utf8') : null, options: ctx.options,
          ephemeral: ctx.ephemeral,
        }),
      },
    };
    return {
      createHandlers: () => ({ '': ctx.rpc.gorilla('ctxinfo', service), '/other': ctx.rpc.gorilla('ctxinfo', service), 'no-slash': ctx.rpc.gorilla('ctxinfo', service) }),
      shutdown: async () => {},
    };
  },
};
`;

const VM_ID = vmIDFromName('ctxvm');

function start(dataDir: string, extra: Record<string, unknown>): Promise<Node> {
  return startNode({ 'http-port': 0, 'data-dir': dataDir, 'log-display-level': 'off', 'api-admin-enabled': true, 'db-type': 'memdb', ...extra });
}

test('pending chains: known IDs, not bootstrapped, 404 routes; created with their context by loadVMs', async () => {
  const { dataDir, pluginDir } = tempDirs();
  const configDir = join(dataDir, 'chain-configs');
  mkdirSync(join(configDir, 'one'), { recursive: true });
  writeFileSync(join(configDir, 'one', 'config.json'), '{"k":1}');
  const node = await start(dataDir, {
    'plugin-dir': pluginDir,
    'chain-config-dir': configDir,
    chains: [
      { vm: VM_ID, name: 'one', genesis: { n: 1 }, aliases: ['one', 'first'], colour: 'red' },
      { vm: VM_ID, name: 'two', genesis: { n: 2 }, aliases: ['two'] },
      { vm: VM_ID, name: 'bad', genesis: {}, aliases: ['bad'], failOnCreate: 'on purpose' },
    ],
  });
  try {
    const info = `${node.url}/ext/info`;
    const one = (await rpc(info, 'info.getBlockchainID', { alias: 'one' })).result.blockchainID;
    const two = (await rpc(info, 'info.getBlockchainID', { alias: 'two' })).result.blockchainID;
    assert.notEqual(one, two);
    assert.deepEqual((await rpc(info, 'info.isBootstrapped', { chain: 'one' })).result, { isBootstrapped: false });
    // The ID string becomes an alias only when the chain is created (reference §4.2).
    assert.equal((await rpc(info, 'info.isBootstrapped', { chain: one })).error.message, `there is no chain with alias/ID '${one}'`);
    assert.throws(() => node.chains.isBootstrapped('nothing'), { message: "there is no chain with alias/ID 'nothing'" });
    assert.equal(node.chains.pending.size, 3);
    for (const path of [`/ext/bc/one`, `/ext/bc/first/other`, `/ext/bc/${one}`]) {
      const res = await fetch(node.url + path, { method: 'POST' });
      assert.equal(res.status, 404, path);
    }
    // An alias added while the chain is pending is a dormant route alias that works once it exists.
    assert.deepEqual((await rpc(`${node.url}/ext/admin`, 'admin.aliasChain', { chain: 'one', alias: 'late' })).result, {});

    writePlugin(pluginDir, 'ctxvm', CTX_PLUGIN);
    const loaded = await rpc(`${node.url}/ext/admin`, 'admin.loadVMs');
    assert.deepEqual(loaded.result, { newVMs: { [VM_ID]: [] } }, 'a chain that fails to build does not fail loadVMs');

    assert.deepEqual((await rpc(info, 'info.isBootstrapped', { chain: 'one' })).result, { isBootstrapped: true });
    assert.deepEqual((await rpc(info, 'info.isBootstrapped', { chain: one })).result, { isBootstrapped: true });
    const ctx = (await rpc(`${node.url}/ext/bc/late/other`, 'ctxinfo.get')).result;
    assert.deepEqual(ctx, {
      chainID: one,
      subnetID: node.chains.chains.get(one)!.subnetID,
      primaryAlias: 'one',
      aliases: ['one', 'first', 'late', one],
      networkID: node.config.networkID,
      nodeID: node.nodeID,
      genesis: '{"n":1}',
      config: '{"k":1}',
      options: { colour: 'red' },
      ephemeral: true,
    });
    assert.equal((await rpc(`${node.url}/ext/bc/two`, 'ctxinfo.get')).result.chainID, two);
    assert.equal((await rpc(`${node.url}/ext/bc/${two}/other`, 'ctxinfo.get')).result.chainID, two);
    // A suffix that is not a request URI is skipped, as AvalancheGo does.
    assert.equal((await fetch(`${node.url}/ext/bc/oneno-slash`, { method: 'POST' })).status, 404);
    assert.equal((await fetch(`${node.url}/ext/bc/one/no-slash`, { method: 'POST' })).status, 404);

    // The chain whose VM refused to build it: recorded, not bootstrapped, no routes.
    const bad = node.chains.aliaser.lookup('bad');
    assert.equal(node.chains.failed.get(bad), 'cannot create: on purpose');
    assert.equal(node.chains.isBootstrapped('bad'), false);
    assert.equal((await fetch(`${node.url}/ext/bc/bad`, { method: 'POST' })).status, 404);
    assert.equal(node.chains.pending.size, 0);
  } finally {
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a chain of a VM that is already loaded at start is created at start', async () => {
  const { dataDir, pluginDir } = tempDirs();
  writePlugin(pluginDir, 'ctxvm', CTX_PLUGIN);
  const node = await start(dataDir, { 'plugin-dir': pluginDir, chains: [{ vm: VM_ID, name: 'now', genesis: {}, aliases: ['now'] }] });
  try {
    assert.equal(node.chains.isBootstrapped('now'), true);
    assert.equal(node.chains.pending.size, 0);
    assert.equal((await rpc(`${node.url}/ext/bc/now`, 'ctxinfo.get')).result.primaryAlias, 'now');
  } finally {
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a chain declared twice, or a plugin chain defined with a bad vm field, stops the start', async () => {
  for (const [chains, message] of [
    [[{ vm: VM_ID, name: 'x', genesis: {} }, { vm: VM_ID, name: 'x', genesis: {} }], /^chain \w+ is defined twice$/],
    [[{ vm: 42, name: 'n', genesis: {} }], /^chain n: "vm" must be a VM ID or VM alias string$/],
  ] as const) {
    const { dataDir } = tempDirs();
    try {
      await assert.rejects(start(dataDir, { chains }), { message });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
});
