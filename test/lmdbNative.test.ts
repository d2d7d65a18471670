// scripts/lmdbNative.cjs finds lmdb and its platform package by stat calls instead of
// require.resolve (a cold start's cost, docs/performance.md session 33). Its search must pick the
// folder Node's own resolution picks: checked against require.resolve on layouts npm makes. And
// the bundle of lmdb that search serves, with its one patch (scripts/bundle.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout (this file runs from test/ and, compiled, from dist/test/). */
let root = dirname(fileURLToPath(import.meta.url));
while (!existsSync(join(root, 'scripts', 'lmdbNative.cjs'))) root = dirname(root);
const require = createRequire(import.meta.url);
const { nearestPackage } = require(join(root, 'scripts', 'lmdbNative.cjs')) as { nearestPackage(dir: string, name: string): string | undefined };

function pkg(dir: string, name: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, main: 'index.js' }));
  writeFileSync(join(dir, 'index.js'), '');
}

/** What Node resolves `name` to from a module in `dir` (its package folder). */
function nodeResolves(dir: string, name: string): string | undefined {
  try {
    return dirname(createRequire(join(dir, 'x.js')).resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

test('the lmdb search finds the folder Node resolves: hoisted, nested, scoped, in a node_modules chain, and none', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'powder-lmdbnative-'));
  try {
    // npm's hoisted layout: the app's node_modules holds powder and lmdb side by side.
    const dist = join(tmp, 'app', 'node_modules', 'powder', 'dist');
    mkdirSync(dist, { recursive: true });
    assert.equal(nearestPackage(dist, 'fake-lmdb'), undefined);
    assert.equal(nodeResolves(dist, 'fake-lmdb'), undefined);
    pkg(join(tmp, 'app', 'node_modules', 'fake-lmdb'), 'fake-lmdb');
    pkg(join(tmp, 'app', 'node_modules', '@fake', 'lmdb-linux-x64'), '@fake/lmdb-linux-x64');
    for (const name of ['fake-lmdb', '@fake/lmdb-linux-x64']) {
      assert.equal(nearestPackage(dist, name), join(tmp, 'app', 'node_modules', name));
      assert.equal(nearestPackage(dist, name), nodeResolves(dist, name));
    }
    // A copy nested under powder (a version conflict) comes first, as for Node (another name:
    // Node remembers what it resolved).
    pkg(join(tmp, 'app', 'node_modules', 'fake-lmdb2'), 'fake-lmdb2');
    pkg(join(tmp, 'app', 'node_modules', 'powder', 'node_modules', 'fake-lmdb2'), 'fake-lmdb2');
    assert.equal(nearestPackage(dist, 'fake-lmdb2'), join(tmp, 'app', 'node_modules', 'powder', 'node_modules', 'fake-lmdb2'));
    assert.equal(nearestPackage(dist, 'fake-lmdb2'), nodeResolves(dist, 'fake-lmdb2'));
    // From inside a package's own folder the search goes up past node_modules (no node_modules/node_modules).
    const inner = join(tmp, 'app', 'node_modules', 'fake-lmdb');
    assert.equal(nearestPackage(inner, '@fake/lmdb-linux-x64'), join(tmp, 'app', 'node_modules', '@fake', 'lmdb-linux-x64'));
    assert.equal(nearestPackage(inner, '@fake/lmdb-linux-x64'), nodeResolves(inner, '@fake/lmdb-linux-x64'));
    pkg(join(tmp, 'app', 'node_modules', '@fake', 'lmdb-linux-arm64'), '@fake/lmdb-linux-arm64');
    pkg(join(tmp, 'app', 'node_modules', 'node_modules', '@fake', 'lmdb-linux-arm64'), 'decoy');
    const modules = join(tmp, 'app', 'node_modules');
    assert.equal(nearestPackage(modules, '@fake/lmdb-linux-arm64'), join(modules, '@fake', 'lmdb-linux-arm64'));
    assert.equal(nearestPackage(modules, '@fake/lmdb-linux-arm64'), nodeResolves(modules, '@fake/lmdb-linux-arm64'));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('the bundled lmdb (dist/lmdb.cjs, msgpackr required only where an encoder is made): binary databases as Powder opens them, and a msgpack one still', () => {
  const { requireBundle } = require(join(root, 'bin', 'loadBundle.cjs')) as { requireBundle(file: string): { open(options: object): LmdbRoot } };
  type LmdbDb = { putSync(k: unknown, v: unknown): void; get(k: unknown): unknown };
  type LmdbRoot = LmdbDb & { openDB(options: object): LmdbDb; close(): Promise<void> };
  const lmdb = requireBundle(join(root, 'dist', 'lmdb.cjs'));
  const dir = mkdtempSync(join(tmpdir(), 'powder-lmdb-bundle-'));
  try {
    const env = lmdb.open({ path: dir, maxDbs: 4, keyEncoding: 'binary', encoding: 'binary' });
    const binary = env.openDB({ name: 'b', keyEncoding: 'binary', encoding: 'binary' });
    binary.putSync(Buffer.from([1, 2]), Buffer.from([3, 4, 5]));
    assert.deepEqual(Buffer.from(binary.get(Buffer.from([1, 2])) as Uint8Array), Buffer.from([3, 4, 5]));
    // The package's default encoding, msgpack: its encoder comes from msgpackr, required at this open.
    const structured = env.openDB({ name: 'm', encoding: 'msgpack' });
    structured.putSync('k', { a: 1, list: [1n, 'two'], nested: { ok: true } });
    assert.deepEqual(structured.get('k'), { a: 1, list: [1n, 'two'], nested: { ok: true } });
    void env.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
