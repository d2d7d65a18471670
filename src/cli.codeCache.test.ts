// bin/loadBundle.cjs (bin/loadBundle.js for ES modules): the bundles' loader with V8's code
// cache. The cache must be used when it matches, rebuilt when it does not, and never applied to a
// rebuilt bundle, even one of the same length (V8 itself only compares the source length).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';

function repoRoot(): string {
  let d = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(d, 'bin', 'loadBundle.js'))) d = dirname(d);
  return d;
}

const loader = pathToFileURL(join(repoRoot(), 'bin/loadBundle.js')).href;
const { bundleKey, codeCacheFile } = (await import(loader)) as { bundleKey: (file: string) => string; codeCacheFile: (file: string, flags?: string) => string };

/**
 * Loads the bundle in a fresh process (in this one V8's in-memory compilation cache would answer
 * before the code cache is even read) and, with `save`, writes the code cache there. The child runs
 * a script file with exactly `nodeFlags` (no -e, whose text would be among its flags).
 */
function load(file: string, save = false, nodeFlags: string[] = []): { answer: string; cacheUsed: boolean; saved?: boolean } {
  const script = join(dirname(file), 'load.mjs');
  writeFileSync(
    script,
    `const { loadBundle } = await import(${JSON.stringify(loader)});
    const b = loadBundle(${JSON.stringify(file)});
    console.log(JSON.stringify({ answer: b.exports.answer(), cacheUsed: b.cacheUsed, saved: process.argv[2] === 'save' ? b.saveCodeCache() : undefined }));`,
  );
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return JSON.parse(execFileSync(process.execPath, [...nodeFlags, script, save ? 'save' : 'load'], { encoding: 'utf8', env }));
}
const cacheFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.cache')).sort();

/** A CommonJS "bundle" whose answer is `word` (same length for every 5-letter word). */
function writeBundle(file: string, word: string, mtimeSeconds: number): void {
  writeFileSync(file, `const word = ${JSON.stringify(word)};\nmodule.exports.answer = () => word + ' from ' + require('node:path').basename(__filename);\n`);
  utimesSync(file, mtimeSeconds, mtimeSeconds);
}

test('code cache: made on demand, used when it matches, never for a rebuilt bundle of the same length', () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-codecache-'));
  try {
    const file = join(dir, 'bundle.cjs');
    writeBundle(file, 'first', 1_700_000_000);

    assert.deepEqual(load(file, true), { answer: 'first from bundle.cjs', cacheUsed: false, saved: true });
    assert.ok(existsSync(codeCacheFile(file, '')));
    assert.deepEqual(load(file), { answer: 'first from bundle.cjs', cacheUsed: true }, 'the matching cache is accepted');

    // Rebuilt: same length, other content and mtime. The old cache must not be applied (V8 would
    // accept it and run the old code).
    writeBundle(file, 'other', 1_700_000_100);
    assert.deepEqual(load(file, true), { answer: 'other from bundle.cjs', cacheUsed: false, saved: true });
    assert.deepEqual(
      cacheFiles(dir),
      [codeCacheFile(file, '').slice(dir.length + 1)],
      'the earlier bundle’s cache is removed',
    );
    assert.deepEqual(load(file), { answer: 'other from bundle.cjs', cacheUsed: true });

    // A damaged cache is rejected by V8 and the bundle still runs.
    writeFileSync(codeCacheFile(file, ''), Buffer.alloc(64, 7));
    assert.deepEqual(load(file), { answer: 'other from bundle.cjs', cacheUsed: false });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('code cache: a start with V8 flags keeps its own cache and leaves the plain one in place', () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-codecache-'));
  try {
    const file = join(dir, 'bundle.cjs');
    writeBundle(file, 'plain', 1_700_000_000);
    assert.deepEqual(load(file, true), { answer: 'plain from bundle.cjs', cacheUsed: false, saved: true });
    // V8 rejects a cache made under other flags; with its own file the flagged start neither
    // misses every time nor replaces the cache every plain start uses.
    const flags = ['--max-semi-space-size=4'];
    assert.deepEqual(load(file, true, flags), { answer: 'plain from bundle.cjs', cacheUsed: false, saved: true });
    assert.deepEqual(cacheFiles(dir), [codeCacheFile(file, ''), codeCacheFile(file, flags.join(' '))].map((f) => f.slice(dir.length + 1)).sort());
    assert.deepEqual(load(file, false, flags), { answer: 'plain from bundle.cjs', cacheUsed: true }, 'the flagged start uses its own cache');
    assert.deepEqual(load(file), { answer: 'plain from bundle.cjs', cacheUsed: true }, 'the plain cache is still there and used');
    // A rebuilt bundle's cache replaces both.
    writeBundle(file, 'newer', 1_700_000_100);
    assert.deepEqual(load(file, true), { answer: 'newer from bundle.cjs', cacheUsed: false, saved: true });
    assert.deepEqual(cacheFiles(dir), [codeCacheFile(file, '').slice(dir.length + 1)]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('requireBundle: one load per process, its cache written a moment later and then used as it is', () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-codecache-'));
  try {
    const file = join(dir, 'bundle.cjs');
    writeFileSync(file, `globalThis.loads = (globalThis.loads ?? 0) + 1;\nmodule.exports.answer = () => 'loaded ' + globalThis.loads;\n`);
    const script = join(dir, 'require.cjs');
    // The child stays up past the save delay (the timer is unref'd and would not keep it alive).
    writeFileSync(
      script,
      `const { requireBundle } = require(${JSON.stringify(join(repoRoot(), 'bin/loadBundle.cjs'))});
      const a = requireBundle(${JSON.stringify(file)});
      const b = requireBundle(${JSON.stringify(file)});
      setTimeout(() => console.log(JSON.stringify({ answer: b.answer(), same: a === b })), 1500);`,
    );
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    delete env.POWDER_CODE_CACHE;
    const run = () => JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8', env }));
    assert.deepEqual(run(), { answer: 'loaded 1', same: true });
    const cache = codeCacheFile(file, '');
    assert.ok(existsSync(cache), 'the cache is written after the first load');
    const first = statSync(cache).mtimeMs;
    assert.deepEqual(run(), { answer: 'loaded 1', same: true });
    assert.equal(statSync(cache).mtimeMs, first, 'a load from the cache leaves it as it is');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the build leaves a code cache for the lmdb bundle (an LMDB start compiles it from there)', () => {
  const dist = join(repoRoot(), 'dist');
  const key = bundleKey(join(dist, 'lmdb.cjs'));
  assert.ok(
    readdirSync(dist).some((f) => f.startsWith(key) && f.endsWith('.cache')),
    `no ${key}*.cache in dist/ (scripts/bundle.mjs makeCodeCache('lmdb'))`,
  );
});
