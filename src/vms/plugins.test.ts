// VM plugins loaded at run time through admin.loadVMs, over real HTTP (reference §2.8, §7).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startNode, type Node } from '../index.js';
import { rpc } from '../../test/helpers.js';
import { vmIDFromName } from '../ids/ids.js';
import { EXAMPLE_PLUGIN, TIMESTAMP_VM_ID, rawRpc, tempDirs, workingPluginSource, writePlugin } from './testkit.test-helpers.js';

const EMPTY_LOAD = '{"jsonrpc":"2.0","result":{"newVMs":{}},"id":1}\n';

function start(dataDir: string, extra: Record<string, unknown> = {}): Promise<Node> {
  return startNode({
    'http-port': 0,
    'data-dir': dataDir,
    'log-display-level': 'off',
    'api-admin-enabled': true,
    chains: [],
    ...extra,
  });
}

const timestampChain = { vm: TIMESTAMP_VM_ID, name: 'stamps', genesis: { data: 'hello' }, aliases: ['ts', 'stamps'] };

test('the example plugin dropped into a running node is loaded by admin.loadVMs and its chain answers over HTTP', async () => {
  const { dataDir, pluginDir } = tempDirs();
  let node = await start(dataDir, { 'plugin-dir': pluginDir, chains: [timestampChain] });
  try {
    const admin = `${node.url}/ext/admin`;
    // Declared but its VM is not loaded: the chain's ID is known, it is not bootstrapped, its routes 404.
    const chainID = node.chains.aliaser.lookup('ts');
    assert.equal(node.chains.isBootstrapped('ts'), false);
    const before = await fetch(`${node.url}/ext/bc/ts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(before.status, 404);
    assert.equal(await before.text(), '404 page not found\n');

    // Empty plugin dir: nothing new, and no failedVMs key at all.
    assert.deepEqual(await rawRpc(admin, 'admin.loadVMs'), { status: 200, text: EMPTY_LOAD });

    copyFileSync(EXAMPLE_PLUGIN, join(pluginDir, `${TIMESTAMP_VM_ID}.js`));
    const loaded = await rpc(admin, 'admin.loadVMs');
    assert.deepEqual(loaded, { jsonrpc: '2.0', result: { newVMs: { [TIMESTAMP_VM_ID]: [] } }, id: 1 });

    // The pending chain was created by the load: it answers at its aliases and its ID.
    assert.equal(node.chains.isBootstrapped('ts'), true);
    assert.equal(node.chains.isBootstrapped(chainID), true);
    const genesis = await rpc(`${node.url}/ext/bc/ts`, 'timestampvm.getBlock');
    assert.equal(genesis.result.data, 'hello');
    assert.equal(genesis.result.height, '0');
    assert.equal(genesis.result.timestamp, '0');
    assert.equal(genesis.result.parentID, '11111111111111111111111111111111LpoYY');

    const proposed = await rpc(`${node.url}/ext/bc/stamps`, 'timestampvm.proposeBlock', { data: 'first value' });
    assert.equal(proposed.result.success, true);
    assert.equal(proposed.result.height, '1');
    const latest = await rpc(`${node.url}/ext/bc/${chainID}`, 'timestampvm.getBlock', {});
    assert.deepEqual(
      { data: latest.result.data, height: latest.result.height, parentID: latest.result.parentID, id: latest.result.id },
      { data: 'first value', height: '1', parentID: genesis.result.id, id: proposed.result.id },
    );
    assert.ok(Number(latest.result.timestamp) > 1_600_000_000);
    const byID = await rpc(`${node.url}/ext/bc/ts`, 'timestampvm.getBlock', { id: genesis.result.id });
    assert.equal(byID.result.data, 'hello');

    // Bad input to the plugin's service gets the node-style JSON-RPC errors.
    const tooLong = await rpc(`${node.url}/ext/bc/ts`, 'timestampvm.proposeBlock', { data: 'x'.repeat(257) });
    assert.equal(tooLong.error.message, 'data is longer than 256 bytes');
    const notString = await rpc(`${node.url}/ext/bc/ts`, 'timestampvm.proposeBlock', { data: 5 });
    assert.equal(notString.error.code, -32000);
    assert.match(notString.error.message, /^couldn't unmarshal an argument/);
    const unknownBlock = await rpc(`${node.url}/ext/bc/ts`, 'timestampvm.getBlock', { id: 'nope' });
    assert.equal(unknownBlock.error.message, "couldn't get block: block nope not found");
    const unknownMethod = await rpc(`${node.url}/ext/bc/ts`, 'timestampvm.burn');
    assert.equal(unknownMethod.error.message, 'rpc: can\'t find method "timestampvm.Burn"');
    const get = await fetch(`${node.url}/ext/bc/ts`);
    assert.equal(get.status, 405);
    assert.equal(await get.text(), 'rpc: POST method required, received GET');

    // info.getVMs-style data and vmVersions.
    assert.deepEqual(node.vms.list().get(TIMESTAMP_VM_ID), []);
    assert.ok(node.vms.list().has(vmIDFromName('subnetevm')));
    assert.equal(node.vms.versions().get(TIMESTAMP_VM_ID), 'v1.0.0');

    // Loading again finds nothing new.
    assert.deepEqual(await rawRpc(admin, 'admin.loadVMs'), { status: 200, text: EMPTY_LOAD });

    // Restart: the plugin is loaded at start, the chain is created at start, the blocks persisted.
    await node.stop();
    node = await start(dataDir, { 'plugin-dir': pluginDir, chains: [timestampChain] });
    assert.equal(node.chains.isBootstrapped('ts'), true);
    const after = await rpc(`${node.url}/ext/bc/ts`, 'timestampvm.getBlock');
    assert.deepEqual(after.result, latest.result);
    assert.deepEqual(await rawRpc(`${node.url}/ext/admin`, 'admin.loadVMs'), { status: 200, text: EMPTY_LOAD });
  } finally {
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a plugin file named by a VM alias (--vm-aliases-file-content) resolves to its VM ID; newVMs lists the aliases', async () => {
  const { dataDir, pluginDir } = tempDirs();
  const content = Buffer.from(JSON.stringify({ [TIMESTAMP_VM_ID]: ['timestamp', 'timestampvm'] })).toString('base64');
  const node = await start(dataDir, {
    'plugin-dir': pluginDir,
    'vm-aliases-file-content': content,
    chains: [{ vm: 'timestampvm', name: 'a', genesis: { data: 'aliased' }, aliases: ['tsa'] }],
  });
  try {
    assert.equal(node.chains.isBootstrapped('tsa'), false);
    copyFileSync(EXAMPLE_PLUGIN, join(pluginDir, 'timestamp.js'));
    const r = await rpc(`${node.url}/ext/admin`, 'admin.loadVMs');
    assert.deepEqual(r.result, { newVMs: { [TIMESTAMP_VM_ID]: ['timestamp', 'timestampvm'] } });
    assert.deepEqual(node.vms.list().get(TIMESTAMP_VM_ID), ['timestamp', 'timestampvm']);
    assert.equal(node.vms.versions().get('timestamp'), 'v1.0.0');
    const block = await rpc(`${node.url}/ext/bc/tsa`, 'timestampvm.getBlock');
    assert.equal(block.result.data, 'aliased');
  } finally {
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('--vm-aliases-file (a file path) works the same way', async () => {
  const { dataDir, pluginDir } = tempDirs();
  const aliasesFile = join(dataDir, 'vm-aliases.json');
  writeFileSync(aliasesFile, JSON.stringify({ [TIMESTAMP_VM_ID]: ['stamp'] }));
  const node = await start(dataDir, { 'plugin-dir': pluginDir, 'vm-aliases-file': aliasesFile });
  try {
    copyFileSync(EXAMPLE_PLUGIN, join(pluginDir, 'stamp'));
    const r = await rpc(`${node.url}/ext/admin`, 'admin.loadVMs');
    assert.deepEqual(r.result, { newVMs: { [TIMESTAMP_VM_ID]: ['stamp'] } });
  } finally {
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('broken plugins go to failedVMs with their errors, stay recorded, and are not retried', async () => {
  const { dataDir, pluginDir } = tempDirs();
  const node = await start(dataDir, {
    'plugin-dir': pluginDir,
    chains: [{ vm: vmIDFromName('throws'), name: 'x', genesis: {}, aliases: ['broken-chain'] }],
  });
  try {
    const throws = writePlugin(pluginDir, 'throws', `throw new Error('boom at import');\n`);
    const empty = writePlugin(pluginDir, 'empty', `export const nothing = 1;\n`);
    const badProbe = writePlugin(pluginDir, 'badprobe', `export default { version: 'v1', createChain() {}, probe() { throw new Error('no GPU'); } };\n`);
    const oldProtocol = writePlugin(pluginDir, 'oldproto', `export default { version: 'v1', protocolVersion: 0, createChain() {} };\n`);
    const syntax = writePlugin(pluginDir, 'syntax', `export default {;\n`);
    const badFn = writePlugin(pluginDir, 'badfn', `export default () => 42;\n`);
    const viaFn = writePlugin(pluginDir, 'viafn', `export default async () => (${workingPluginSource('v9').replace(/^export default /, '').replace(/;\s*$/, '')});\n`);
    const named = writePlugin(pluginDir, 'named', `export const version = 'v2';\nexport async function createChain() { return { createHandlers: () => ({}), shutdown: async () => {} }; }\n`);

    const r = await rpc(`${node.url}/ext/admin`, 'admin.loadVMs');
    assert.deepEqual(Object.keys(r.result).sort(), ['failedVMs', 'newVMs']);
    assert.deepEqual(r.result.newVMs, { [viaFn]: [], [named]: [] });
    const failed = r.result.failedVMs as Record<string, string>;
    assert.deepEqual(Object.keys(failed).sort(), [throws, empty, badProbe, oldProtocol, syntax, badFn].sort());
    assert.equal(failed[throws], `failed to load VM plugin ${join(pluginDir, throws + '.js')}: boom at import`);
    assert.match(failed[empty], /does not export a VM factory: expected a default export/);
    assert.equal(failed[badProbe], 'handshake failed: no GPU');
    assert.match(failed[oldProtocol], /^handshake failed: plugin protocol version mismatch between Powder and VM plugin\. Powder implements plugin protocol version 1\. .* implements plugin protocol version 0\./);
    assert.match(failed[syntax], new RegExp(`^failed to load VM plugin ${join(pluginDir, syntax)}\.js: .+`)); // the parser's text (node or a loader such as tsx)
    assert.match(failed[badFn], /default export is a function that did not return a VM factory/);

    // Recorded before the probe (AvalancheGo's surprise): listed, never retried, no version.
    for (const id of Object.keys(failed)) {
      assert.ok(node.vms.list().has(id), id);
      assert.equal(node.vms.versions().has(id), false);
    }
    assert.equal(node.vms.versions().get(viaFn), 'v9');
    assert.deepEqual(await rawRpc(`${node.url}/ext/admin`, 'admin.loadVMs'), { status: 200, text: EMPTY_LOAD });
    // A chain of a failed VM stays pending.
    assert.equal(node.chains.isBootstrapped('broken-chain'), false);
    assert.equal((await fetch(`${node.url}/ext/bc/broken-chain`, { method: 'POST' })).status, 404);
  } finally {
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a badly named plugin file fails the whole loadVMs with invalid vmID and registers nothing', async () => {
  const { dataDir, pluginDir } = tempDirs();
  const node = await start(dataDir, { 'plugin-dir': pluginDir });
  try {
    const good = writePlugin(pluginDir, 'good', workingPluginSource());
    writeFileSync(join(pluginDir, '.DS_Store'), 'ignored'); // dot-files are skipped
    mkdirSync(join(pluginDir, 'some-directory')); // directories are skipped
    writeFileSync(join(pluginDir, 'my-plugin.js'), workingPluginSource());
    const bad = await rpc(`${node.url}/ext/admin`, 'admin.loadVMs');
    assert.deepEqual(bad, { jsonrpc: '2.0', error: { code: -32000, message: 'invalid vmID: "my-plugin"', data: null }, id: 1 });
    assert.equal(node.vms.list().has(good), false);

    // Only the last extension is stripped: `a.b.js` is the name `a.b`.
    rmSync(join(pluginDir, 'my-plugin.js'));
    writeFileSync(join(pluginDir, 'a.b.js'), workingPluginSource());
    const bad2 = await rpc(`${node.url}/ext/admin`, 'admin.loadVMs');
    assert.equal(bad2.error.message, 'invalid vmID: "a.b"');

    // The name is quoted as Go's %q.
    rmSync(join(pluginDir, 'a.b.js'));
    writeFileSync(join(pluginDir, 'my"plugin\\1.js'), workingPluginSource());
    const bad3 = await rpc(`${node.url}/ext/admin`, 'admin.loadVMs');
    assert.equal(bad3.error.message, 'invalid vmID: "my\\"plugin\\\\1"');
    rmSync(join(pluginDir, 'my"plugin\\1.js'));
    writeFileSync(join(pluginDir, 'a.b.js'), workingPluginSource());

    rmSync(join(pluginDir, 'a.b.js'));
    const ok = await rpc(`${node.url}/ext/admin`, 'admin.loadVMs');
    assert.deepEqual(ok.result, { newVMs: { [good]: [] } });
  } finally {
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a plugin file for a VM that is already registered (built-in Subnet-EVM, or an AvalancheGo VM alias) is ignored', async () => {
  const { dataDir, pluginDir } = tempDirs();
  const node = await start(dataDir, { 'plugin-dir': pluginDir, chains: [] });
  try {
    writeFileSync(join(pluginDir, 'subnetevm.js'), 'throw new Error("must not be imported")');
    writeFileSync(join(pluginDir, `${vmIDFromName('subnetevm')}.js`), 'throw new Error("must not be imported")');
    writeFileSync(join(pluginDir, 'evm'), 'throw new Error("must not be imported")');
    assert.deepEqual(await rawRpc(`${node.url}/ext/admin`, 'admin.loadVMs'), { status: 200, text: EMPTY_LOAD });
  } finally {
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('start fails with a clear message on bad plugin dirs, VM aliases and plugin names', async (t) => {
  const cases: [string, (d: { dataDir: string; pluginDir: string }) => Record<string, unknown>, (d: { dataDir: string; pluginDir: string }) => string | RegExp][] = [
    ['explicit missing plugin dir', (d) => ({ 'plugin-dir': join(d.dataDir, 'nope') }), (d) => `plugin dir "${join(d.dataDir, 'nope')}" not found: stat ${join(d.dataDir, 'nope')}: no such file or directory`],
    [
      'plugin dir is a file',
      (d) => {
        writeFileSync(join(d.dataDir, 'file'), '');
        return { 'plugin-dir': join(d.dataDir, 'file') };
      },
      (d) => `plugin dir is not a directory: "${join(d.dataDir, 'file')}"`,
    ],
    [
      'badly named plugin at start',
      (d) => {
        writeFileSync(join(d.pluginDir, 'not an id.js'), '');
        return { 'plugin-dir': d.pluginDir };
      },
      () => 'invalid vmID: "not an id"',
    ],
    ['explicit missing aliases file', (d) => ({ 'vm-aliases-file': join(d.dataDir, 'none.json') }), (d) => `file does not exist: ${join(d.dataDir, 'none.json')}`],
    ['bad base64', () => ({ 'vm-aliases-file-content': 'e30*' }), () => 'unable to decode base64 content for vm aliases: illegal base64 data at input byte 3'],
    // Go's encoding/json texts after the wrapper, not V8's.
    ['bad JSON', () => ({ 'vm-aliases-file-content': Buffer.from('{oops').toString('base64') }), () => "unmarshalling failed on vm aliases: invalid character 'o' looking for beginning of object key string"],
    [
      'truncated JSON in the file',
      (d) => {
        writeFileSync(join(d.dataDir, 't.json'), '{"x":');
        return { 'vm-aliases-file': join(d.dataDir, 't.json') };
      },
      () => 'unmarshalling failed on vm aliases: unexpected end of JSON input',
    ],
    // ids.ID's UnmarshalJSON texts: a CB58 error wrapped, a wrong length not.
    ['bad VM ID key', () => ({ 'vm-aliases-file-content': Buffer.from('{"notAnID":["x"]}').toString('base64') }), () => "unmarshalling failed on vm aliases: couldn't decode ID to bytes: base58 decoding error: Invalid base58 digit ('I')"],
    ['VM ID key with a bad checksum', () => ({ 'vm-aliases-file-content': Buffer.from('{"abcdefgh":["x"]}').toString('base64') }), () => "unmarshalling failed on vm aliases: couldn't decode ID to bytes: invalid input checksum"],
    ['VM ID key of 20 bytes', () => ({ 'vm-aliases-file-content': Buffer.from('{"111111111111111111116DBWJs":["x"]}').toString('base64') }), () => 'unmarshalling failed on vm aliases: invalid hash length: expected 32 bytes but got 20'],
    [
      'explicit aliases file that is a directory (no file, as storage.FileExists sees it)',
      (d) => {
        mkdirSync(join(d.dataDir, 'dir.json'));
        return { 'vm-aliases-file': join(d.dataDir, 'dir.json') };
      },
      (d) => `file does not exist: ${join(d.dataDir, 'dir.json')}`,
    ],
    [
      'aliases not an array',
      () => ({ 'vm-aliases-file-content': Buffer.from(JSON.stringify({ [TIMESTAMP_VM_ID]: 'ts' })).toString('base64') }),
      () => 'unmarshalling failed on vm aliases: json: cannot unmarshal string into Go value of type []string',
    ],
    [
      'file alias re-uses a built-in alias',
      (d) => {
        writeFileSync(join(d.dataDir, 'a.json'), JSON.stringify({ [TIMESTAMP_VM_ID]: ['evm'] }));
        return { 'vm-aliases-file': join(d.dataDir, 'a.json') };
      },
      () => "couldn't initialize API aliases: alias already mapped to an ID: evm",
    ],
    [
      'one alias for two VMs',
      () => ({ 'vm-aliases-file-content': Buffer.from(JSON.stringify({ [TIMESTAMP_VM_ID]: ['dup'], [vmIDFromName('other')]: ['dup'] })).toString('base64') }),
      () => 'alias already mapped to an ID: dup',
    ],
    ['chain of an unknown VM name', () => ({ chains: [{ vm: 'nosuchvm', name: 'n', genesis: {} }] }), () => 'chain n: unknown VM "nosuchvm": neither a VM alias nor a valid VM ID'],
    [
      'chain of a VM not loaded, without genesis',
      () => ({ chains: [{ vm: TIMESTAMP_VM_ID, name: 'g' }] }),
      () => `chain g: a genesis is required for a chain of VM "${TIMESTAMP_VM_ID}", which is not loaded`,
    ],
  ];
  for (const [name, options, expected] of cases) {
    await t.test(name, async () => {
      const d = tempDirs();
      try {
        const want = expected(d);
        await assert.rejects(start(d.dataDir, options(d)), (e: Error) => {
          if (typeof want === 'string') assert.equal(e.message, want);
          else assert.match(e.message, want);
          return true;
        });
      } finally {
        rmSync(d.dataDir, { recursive: true, force: true });
      }
    });
  }
});

test('a directory where the default aliases files go is no file: ignored, as a missing default file', async () => {
  const d = tempDirs();
  mkdirSync(join(d.dataDir, 'configs', 'vms', 'aliases.json'), { recursive: true });
  mkdirSync(join(d.dataDir, 'configs', 'chains', 'aliases.json'), { recursive: true });
  const node = await start(d.dataDir, { 'db-type': 'memdb' });
  try {
    const r = await rpc(`${node.url}/ext/admin`, 'admin.getConfig', {});
    assert.deepEqual([r.result.vmAliases, r.result.chainAliases], [{}, {}]);
  } finally {
    await node.stop();
    rmSync(d.dataDir, { recursive: true, force: true });
  }
});
