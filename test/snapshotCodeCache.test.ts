// scripts/snapshotCodeCache.mjs: the built-in modules' code cache at the end of a start-up
// snapshot blob, which the build trims to the modules a start compiles. Real blobs throughout: the
// one the build wrote, and small ones `node --build-snapshot` writes here, trimmed and started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './repoRoot.js';

const ROOT = repoRoot();

interface Section {
  start: number;
  entries: { id: string; begin: number; end: number }[];
}
const { readBuiltinCodeCache, keepBuiltinCodeCache } = (await import(pathToFileURL(join(ROOT, 'scripts/snapshotCodeCache.mjs')).href)) as {
  readBuiltinCodeCache: (blob: Buffer) => Section | undefined;
  keepBuiltinCodeCache: (file: string, keep: (id: string) => boolean, out?: string) => { kept: string[]; entries: number; before: number; after: number } | undefined;
};

const env = { ...process.env };
delete env.NODE_OPTIONS;

/** A snapshot whose restored process loads node:http (which no snapshot can hold) and prints what it got. */
function buildSnapshot(dir: string): string {
  const builder = join(dir, 'builder.cjs');
  writeFileSync(
    builder,
    `require('node:v8').startupSnapshot.setDeserializeMainFunction(() => {
      const http = require('node:http');
      process.stdout.write(typeof http.createServer + ' ' + http.STATUS_CODES[200] + ' ' + require('node:fs').existsSync(__filename));
    });`,
  );
  const blob = join(dir, 'plain.blob');
  execFileSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', builder], { env, stdio: 'ignore' });
  return blob;
}
const startFrom = (blob: string) => spawnSync(process.execPath, ['--snapshot-blob', blob], { env, encoding: 'utf8' });

/**
 * The layout is Node 20's. On another major version whose blob does not end with it, the build
 * keeps the whole blob (and says so), and these tests skip; on Node 20 the section must be found.
 */
const layoutKnown = process.versions.node.startsWith('20.');
function noSection(t: { skip: (why: string) => void }): boolean {
  if (layoutKnown) return false;
  t.skip(`Node ${process.versions.node}'s snapshot blob does not end with Node 20's code-cache section`);
  return true;
}

test('a blob from node --build-snapshot ends with every built-in module\'s code cache; trimmed to node:http\'s modules it still starts', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-codecache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const blob = buildSnapshot(dir);
  const bytes = readFileSync(blob);
  const section = readBuiltinCodeCache(bytes);
  if (!section && noSection(t)) return;
  assert.ok(section, 'a code-cache section at the end of the blob');
  const ids = section.entries.map((e) => e.id);
  assert.ok(ids.length > 200, `${ids.length} entries`);
  for (const id of ['fs', 'internal/errors', 'http', '_http_server']) assert.ok(ids.includes(id), id);
  assert.equal(section.entries.at(-1)!.end, bytes.length);

  const keep = new Set(['http', '_http_agent', '_http_client', '_http_common', '_http_incoming', '_http_outgoing', '_http_server', 'internal/http', 'internal/freelist']);
  const out = join(dir, 'trimmed.blob');
  const result = keepBuiltinCodeCache(blob, (id) => keep.has(id), out);
  assert.ok(result);
  assert.deepEqual(new Set(result.kept), keep);
  assert.equal(result.entries, ids.length);
  assert.ok(result.after < result.before - 1_000_000, `${result.before} -> ${result.after} bytes`);
  assert.deepEqual(readFileSync(blob), bytes, 'the original is left as it was when `out` is another file');
  const trimmed = readFileSync(out);
  assert.deepEqual(trimmed.subarray(0, section.start), bytes.subarray(0, section.start), 'everything before the section is kept byte for byte');
  assert.deepEqual(readBuiltinCodeCache(trimmed)!.entries.map((e) => e.id).sort(), [...keep].sort());
  for (const file of [blob, out]) {
    const run = startFrom(file);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'function OK true');
  }

  // None kept: still a valid blob (the built-ins compile from their source).
  const none = keepBuiltinCodeCache(out, () => false);
  assert.deepEqual(none?.kept, []);
  assert.deepEqual(readBuiltinCodeCache(readFileSync(out))!.entries, []);
  assert.equal(startFrom(out).stdout, 'function OK true');
});

test('a file that does not end with a code-cache section is left untouched', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-codecache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cases: [string, Buffer][] = [
    ['empty', Buffer.alloc(0)],
    ['text', Buffer.from('not a snapshot blob\n'.repeat(100))],
    ['a section with bytes after it', (() => {
      const blob = readFileSync(buildSnapshot(dir));
      return Buffer.concat([blob, Buffer.from([0])]);
    })()],
    ['a section cut short', (() => {
      const blob = readFileSync(buildSnapshot(dir));
      return blob.subarray(0, blob.length - 5);
    })()],
  ];
  for (const [name, bytes] of cases) {
    const file = join(dir, `${name}.blob`);
    writeFileSync(file, bytes);
    assert.equal(readBuiltinCodeCache(bytes), undefined, name);
    assert.equal(keepBuiltinCodeCache(file, () => false), undefined, name);
    assert.deepEqual(readFileSync(file), bytes, name);
    assert.ok(!existsSync(`${file}.tmp`), name);
  }
});

test('the build\'s snapshot keeps the code cache of node:http\'s modules and stdout\'s file stream only, not of the modules it holds', (t) => {
  const blob = join(ROOT, 'dist/powder.snapshot.blob');
  assert.ok(existsSync(blob), 'dist/powder.snapshot.blob');
  const section = readBuiltinCodeCache(readFileSync(blob));
  if (!section && noSection(t)) return;
  assert.ok(section);
  const ids = section.entries.map((e) => e.id);
  for (const id of ['http', '_http_server', '_http_incoming', '_http_outgoing', 'internal/fs/sync_write_stream']) assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
  for (const id of ['fs', 'net', 'internal/errors', 'events', 'internal/http2/core', 'worker_threads']) assert.ok(!ids.includes(id), id);
  assert.ok(ids.length < 20, ids.join(', '));
});
