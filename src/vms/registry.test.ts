// The VM registry on its own, with real plugin files in a temp dir (reference §7).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { LogFactory } from '../logging/logger.js';
import { Levels } from '../logging/levels.js';
import { vmIDFromName } from '../ids/ids.js';
import { VMRegistry, decodeStdBase64, readAliasesFile, stripLastExtension, SUBNET_EVM_ID } from './registry.js';
import { tempDirs, workingPluginSource, writePlugin } from './testkit.test-helpers.js';
import type { VMFactory } from './types.js';

function registry(pluginDir: string, dataDir: string, probeTimeoutMs?: number): VMRegistry {
  const logs = new LogFactory({ dir: join(dataDir, 'logs'), logLevel: Levels.Off, displayLevel: Levels.Off, format: 'plain' });
  return new VMRegistry(pluginDir, logs.make('vm-factory'), { probeTimeoutMs });
}

const dummyFactory: VMFactory = { version: 'v0', createChain: async () => ({ createHandlers: () => ({}), shutdown: async () => {} }) };

test('a plugin that does not finish loading within the probe timeout fails with a handshake error', async () => {
  const { dataDir, pluginDir } = tempDirs();
  try {
    const r = registry(pluginDir, dataDir, 300);
    const hangsInProbe = writePlugin(pluginDir, 'hangs', `export default { version: 'v1', createChain() {}, probe: () => new Promise(() => {}) };\n`);
    // .mjs: ES module for every loader (tsx, for one, compiles a .js outside a "type": "module" package to CommonJS).
    const hangsInImport = vmIDFromName('hangsimport');
    writeFileSync(join(pluginDir, `${hangsInImport}.mjs`), `await new Promise(() => {});\nexport default {};\n`);
    const { newVMs, failedVMs } = await r.reload();
    assert.deepEqual(newVMs, []);
    assert.equal(failedVMs.get(hangsInProbe), `handshake failed: the VM plugin at ${join(pluginDir, hangsInProbe + '.js')} did not load within 0.3s`);
    assert.equal(failedVMs.get(hangsInImport), `handshake failed: the VM plugin at ${join(pluginDir, hangsInImport + '.mjs')} did not load within 0.3s`);
    assert.equal(r.isRecorded(hangsInProbe), true);
    assert.equal(r.get(hangsInProbe), undefined);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a changed plugin file is imported afresh only when its VM is new', async () => {
  const { dataDir, pluginDir } = tempDirs();
  try {
    const first = registry(pluginDir, dataDir);
    // .mjs so that the test also holds under tsx, whose CommonJS path for .js ignores the query.
    const id = writePlugin(pluginDir, 'changing', workingPluginSource('v1'), `${vmIDFromName('changing')}.mjs`);
    assert.deepEqual((await first.reload()).newVMs, [id]);
    assert.equal(first.get(id)!.factory.version, 'v1');

    writePlugin(pluginDir, 'changing', workingPluginSource('v2'), `${id}.mjs`);
    utimesSync(join(pluginDir, id + '.mjs'), new Date(), new Date(Date.now() + 5_000));
    assert.deepEqual((await first.reload()).newVMs, [], 'an already registered VM is not reloaded');
    assert.equal(first.get(id)!.factory.version, 'v1');

    // Another registry (a node started later in the same process) gets the changed file, not the
    // module cached from the first import.
    const second = registry(pluginDir, dataDir);
    assert.deepEqual((await second.reload()).newVMs, [id]);
    assert.equal(second.get(id)!.factory.version, 'v2');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('concurrent reloads register each VM once', async () => {
  const { dataDir, pluginDir } = tempDirs();
  try {
    const r = registry(pluginDir, dataDir);
    const id = writePlugin(pluginDir, 'once', workingPluginSource());
    const results = await Promise.all([r.reload(), r.reload(), r.reload()]);
    assert.deepEqual(results.map((x) => x.newVMs), [[id], [], []]);
    assert.deepEqual(results.map((x) => x.failedVMs.size), [0, 0, 0]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('two files for one VM: the name sorting last wins; listeners hear about new VMs', async () => {
  const { dataDir, pluginDir } = tempDirs();
  try {
    const r = registry(pluginDir, dataDir);
    r.applyAliases({ [vmIDFromName('twice')]: ['twice'] });
    const id = writePlugin(pluginDir, 'twice', workingPluginSource('by-id'));
    writeFileSync(join(pluginDir, 'twice.js'), workingPluginSource('by-alias'));
    const heard: string[][] = [];
    r.onNewVMs((ids) => {
      heard.push(ids);
    });
    assert.deepEqual((await r.reload()).newVMs, [id]);
    const last = [`${id}.js`, 'twice.js'].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))[1];
    assert.equal(r.get('twice')!.factory.version, last === 'twice.js' ? 'by-alias' : 'by-id');
    assert.deepEqual(heard, [[id]]);
    await r.reload();
    assert.deepEqual(heard, [[id]], 'no call when nothing is new');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('built-in VMs: Powder aliases yield to the aliases file, AvalancheGo aliases clash with it', () => {
  const { dataDir, pluginDir } = tempDirs();
  try {
    const r = registry(pluginDir, dataDir);
    r.applyAliases({ [SUBNET_EVM_ID]: ['subnetevm', 'subnet-evm'] });
    r.registerBuiltin(SUBNET_EVM_ID, dummyFactory, ['subnetevm']);
    assert.deepEqual(r.list().get(SUBNET_EVM_ID), ['subnetevm', 'subnet-evm']);
    assert.equal(r.resolve('evm'), vmIDFromName('evm'));
    assert.equal(r.resolve('platform'), vmIDFromName('platformvm'));
    assert.equal(r.resolve('nope'), undefined);
    assert.throws(() => r.registerBuiltin(SUBNET_EVM_ID, dummyFactory, []), { message: `"${SUBNET_EVM_ID}" was already registered as a vm` });

    const other = registry(pluginDir, dataDir);
    other.applyAliases({ [vmIDFromName('mine')]: ['subnetevm'] });
    other.registerBuiltin(SUBNET_EVM_ID, dummyFactory, ['subnetevm']);
    assert.equal(other.resolve('subnetevm'), vmIDFromName('mine'));
    assert.deepEqual(other.list().get(SUBNET_EVM_ID), []);

    const clash = registry(pluginDir, dataDir);
    clash.applyAliases({ [vmIDFromName('mine')]: ['avm'] });
    assert.throws(() => clash.registerBuiltin(SUBNET_EVM_ID, dummyFactory, ['subnetevm']), {
      message: "couldn't initialize API aliases: alias already mapped to an ID: avm",
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a plugin dir removed after start makes the scan fail', async () => {
  const { dataDir, pluginDir } = tempDirs();
  try {
    const r = registry(pluginDir, dataDir);
    rmSync(pluginDir, { recursive: true });
    await assert.rejects(r.reload(), { message: `open ${pluginDir}: no such file or directory` });
    // A file where the directory was: Go's os.ReadDir opens it and fails reading (getdents).
    writeFileSync(pluginDir, 'x');
    await assert.rejects(r.reload(), { message: `readdirent ${pluginDir}: not a directory` });
    // Below a file: the open fails.
    const below = registry(join(pluginDir, 'sub'), dataDir);
    await assert.rejects(below.reload(), { message: `open ${join(pluginDir, 'sub')}: not a directory` });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('aliases file parsing: JSON null, bad types, base64 content precedence', () => {
  const { dataDir, pluginDir } = tempDirs();
  try {
    const r = registry(pluginDir, dataDir);
    r.applyAliases(null);
    r.applyAliases({ [vmIDFromName('a')]: null });
    assert.throws(() => r.applyAliases([]), { message: 'unmarshalling failed on vm aliases: json: cannot unmarshal array into Go value of type map[ids.ID][]string' });
    assert.throws(() => r.applyAliases({ [vmIDFromName('a')]: [1] }), { message: 'unmarshalling failed on vm aliases: json: cannot unmarshal number into Go value of type string' });

    const file = join(dataDir, 'aliases.json');
    writeFileSync(file, '{"x": oops}');
    assert.throws(() => readAliasesFile(file, true, '', 'vm'), /^Error: unmarshalling failed on vm aliases: /);
    const content = Buffer.from('{"a":["b"]}').toString('base64');
    assert.deepEqual(readAliasesFile(file, true, content, 'vm'), { a: ['b'] }, 'content wins over the file');
    assert.equal(readAliasesFile(join(dataDir, 'absent.json'), false, '', 'vm'), undefined);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('strict base64 (Go StdEncoding) and filepath.Ext-style names', () => {
  assert.deepEqual(decodeStdBase64('e30=').toString(), '{}');
  assert.deepEqual(decodeStdBase64('e3\n0=').toString(), '{}');
  assert.throws(() => decodeStdBase64('e30'), { message: 'illegal base64 data at input byte 0' });
  assert.throws(() => decodeStdBase64('e3-='), { message: 'illegal base64 data at input byte 2' });
  assert.throws(() => decodeStdBase64('e3=0'), { message: 'illegal base64 data at input byte 2' });
  assert.equal(stripLastExtension('foo.exe'), 'foo');
  assert.equal(stripLastExtension('a.b.c'), 'a.b');
  assert.equal(stripLastExtension('.DS_Store'), '');
  assert.equal(stripLastExtension('plain'), 'plain');
});

test('base64 error positions follow Go for padding and trailing data', () => {
  assert.throws(() => decodeStdBase64('e3='), { message: 'illegal base64 data at input byte 3' });
  assert.throws(() => decodeStdBase64('e30=e30='), { message: 'illegal base64 data at input byte 4' });
  assert.throws(() => decodeStdBase64('e==='), { message: 'illegal base64 data at input byte 1' });
  assert.equal(decodeStdBase64('').length, 0);
  assert.equal(decodeStdBase64('eyJhIjpbImIiXX0=').toString(), '{"a":["b"]}');
});
