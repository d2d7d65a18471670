// scripts/singleExecutable.mjs: the single executable dist/powder-node. Its preparation blob is
// read and trimmed here as the build does it, from real blobs `node --experimental-sea-config`
// writes; the build's own executable is started (test/snapshotStart.test.ts runs a node from it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './repoRoot.js';

const ROOT = repoRoot();

type Range = { lengthAt: number; start: number; end: number };
const { seaSnapshotRange, keepSeaBuiltinCodeCache, SEA_NODE_OPTIONS } = (await import(pathToFileURL(join(ROOT, 'scripts/singleExecutable.mjs')).href)) as {
  seaSnapshotRange: (blob: Buffer) => Range | undefined;
  keepSeaBuiltinCodeCache: (file: string, keep: (id: string) => boolean) => { kept: string[]; entries: number; before: number; after: number } | undefined;
  SEA_NODE_OPTIONS: string;
};

const env = { ...process.env };
delete env.NODE_OPTIONS;

/** Node 20's layouts (the SEA blob's and the snapshot's code cache), on Linux: elsewhere the build makes no executable. */
const layoutKnown = process.versions.node.startsWith('20.') && process.platform === 'linux';
function otherLayout(t: { skip: (why: string) => void }): boolean {
  if (layoutKnown) return false;
  t.skip(`Node ${process.versions.node} on ${process.platform}: the build makes no single executable`);
  return true;
}

/** A SEA preparation blob with a snapshot whose restored process loads node:http and prints what it got. */
function buildPreparationBlob(dir: string): string {
  const main = join(dir, 'main.cjs');
  writeFileSync(
    main,
    `require('node:v8').startupSnapshot.setDeserializeMainFunction(() => {
      const http = require('node:http');
      process.stdout.write(typeof http.createServer + ' ' + http.STATUS_CODES[200]);
    });`,
  );
  const config = join(dir, 'sea.json');
  const blob = join(dir, 'prep.blob');
  writeFileSync(config, JSON.stringify({ main, output: blob, useSnapshot: true, disableExperimentalSEAWarning: true }));
  execFileSync(process.execPath, ['--experimental-sea-config', config], { env, stdio: 'ignore' });
  return blob;
}

/** The snapshot inside a preparation blob, as a blob file `node --snapshot-blob` starts from. */
function snapshotOf(prep: string, dir: string): string {
  const blob = readFileSync(prep);
  const range = seaSnapshotRange(blob);
  assert.ok(range, 'the snapshot is found');
  const file = join(dir, `inner-${Date.now()}.blob`);
  writeFileSync(file, blob.subarray(range.start, range.end));
  return file;
}
const startFrom = (blob: string) => spawnSync(process.execPath, ['--snapshot-blob', blob], { env, encoding: 'utf8' });

test('a SEA preparation blob ends with its snapshot; trimmed to node:http\'s code cache, its length follows and the snapshot still starts', (t) => {
  if (otherLayout(t)) return;
  const dir = mkdtempSync(join(tmpdir(), 'powder-sea-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const prep = buildPreparationBlob(dir);
  const before = readFileSync(prep);
  const range = seaSnapshotRange(before)!;
  assert.equal(range.end, before.length);
  assert.equal(before.readBigUInt64LE(range.lengthAt), BigInt(range.end - range.start));
  assert.equal(startFrom(snapshotOf(prep, dir)).stdout, 'function OK');

  const keep = new Set(['http', '_http_agent', '_http_client', '_http_common', '_http_incoming', '_http_outgoing', '_http_server']);
  const trimmed = keepSeaBuiltinCodeCache(prep, (id) => keep.has(id));
  assert.ok(trimmed && trimmed.entries > 100, JSON.stringify(trimmed));
  assert.ok(trimmed.kept.includes('http') && trimmed.kept.every((id) => keep.has(id)), trimmed.kept.join(' '));
  const after = readFileSync(prep);
  assert.equal(after.length, before.length - (trimmed.before - trimmed.after));
  assert.deepEqual(after.subarray(0, range.lengthAt), before.subarray(0, range.lengthAt), 'the header and the main path are kept');
  const newRange = seaSnapshotRange(after)!;
  assert.equal(newRange.start, range.start);
  assert.equal(after.readBigUInt64LE(newRange.lengthAt), BigInt(after.length - newRange.start));
  const started = startFrom(snapshotOf(prep, dir));
  assert.equal(started.stdout, 'function OK', started.stderr);
});

test('blobs that are not a SEA preparation blob ending with a snapshot are not read, and not changed', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-sea-bad-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const sea = (magic: number, flags: number, path: string, payload: Buffer, lengthDelta = 0) => {
    const head = Buffer.alloc(16);
    head.writeUInt32LE(magic, 0);
    head.writeUInt32LE(flags, 4);
    head.writeBigUInt64LE(BigInt(path.length), 8);
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt(payload.length + lengthDelta));
    return Buffer.concat([head, Buffer.from(path), length, payload]);
  };
  // A payload that ends with an empty code-cache section (a count of 0), as a trimmed snapshot may.
  const payload = Buffer.concat([Buffer.from('snapshot bytes'), Buffer.alloc(8)]);
  assert.ok(seaSnapshotRange(sea(0x143da20, 0b11, '/x/main.cjs', payload)), 'the well-formed one is read');
  const cases: [string, Buffer][] = [
    ['another magic number', sea(0x143da21, 0b11, '/x/main.cjs', payload)],
    ['a main script, not a snapshot', sea(0x143da20, 0b01, '/x/main.cjs', payload)],
    ['a code cache after the snapshot', sea(0x143da20, 0b111, '/x/main.cjs', payload)],
    ['assets after the snapshot', sea(0x143da20, 0b1011, '/x/main.cjs', payload)],
    ['a snapshot shorter than the rest', sea(0x143da20, 0b11, '/x/main.cjs', payload, -1)],
    ['a snapshot longer than the file', sea(0x143da20, 0b11, '/x/main.cjs', payload, 1)],
    ['a path longer than the file', sea(0x143da20, 0b11, '/x/main.cjs', payload).fill(0xff, 8, 16)],
    ['a few bytes', Buffer.from([0x20, 0xda, 0x43, 0x01])],
    ['nothing', Buffer.alloc(0)],
  ];
  for (const [what, blob] of cases) {
    assert.equal(seaSnapshotRange(blob), undefined, what);
    const file = join(dir, 'blob');
    writeFileSync(file, blob);
    assert.equal(keepSeaBuiltinCodeCache(file, () => false), undefined, what);
    assert.deepEqual(readFileSync(file), blob, what);
  }
});

test('the build\'s single executable starts only with the NODE_OPTIONS bin/powder gives it (its snapshot\'s heap flag)', (t) => {
  if (otherLayout(t)) return;
  const exe = join(ROOT, 'dist/powder-node');
  assert.ok(existsSync(exe), 'dist/powder-node (the build prints why when it cannot make one)');
  const withFlag = spawnSync(exe, ['--version'], { env: { ...env, NODE_OPTIONS: SEA_NODE_OPTIONS }, encoding: 'utf8' });
  assert.match(withFlag.stdout, /^avalanchego\/\S+ \(powder\)$/m, withFlag.stderr);
  assert.equal(readFileSync(join(ROOT, 'bin/powder'), 'utf8').includes(`NODE_OPTIONS=${SEA_NODE_OPTIONS}\n`), true, 'bin/powder gives the same flag');
  assert.ok(readFileSync(join(ROOT, 'scripts/snapshot.cjs'), 'utf8').includes(`const SEA_NODE_OPTIONS = '${SEA_NODE_OPTIONS}';`), 'snapshot.cjs removes the same value');
  // Without it the snapshot does not load (V8 checks the flags it was built with).
  const without = spawnSync(exe, ['--version'], { env, encoding: 'utf8' });
  assert.notEqual(without.status, 0);
  assert.match(without.stderr, /snapshot/i);
});
