#!/usr/bin/env node
// `npx powder`: runs the compiled node (dist/powder.cjs, the one-file bundle of dist/src made by
// scripts/bundle.mjs); builds it first in a fresh clone, and re-bundles after a newer `tsc` build.
import { existsSync, statSync } from 'node:fs';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { loadBundle } from './loadBundle.js';

// V8 grows the old generation up to ~4x the live data when GC is cheap (measured: ~32 MB live,
// 115-160 MB old space under a transfer load); 1.5x keeps the peak RSS near the live data at no
// measured cost in speed. It only takes effect when set before the heap grows, so here.
v8.setFlagsFromString('--heap-growing-percent=50');
// Young-generation collections on the main thread alone: they find a few KB alive, and waking a
// helper thread for that cost the one-connection p99 ~0.14 ms (bin/powder says more). V8 reads
// this flag at each collection, so setting it here works.
v8.setFlagsFromString('--no-parallel-scavenge');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'dist/powder.cjs');
const compiled = join(root, 'dist/src/cli.js');
const mtime = (f) => (existsSync(f) ? statSync(f).mtimeMs : -1);
if (mtime(bundle) < mtime(compiled) || !existsSync(bundle)) {
  // Loaded only here: compiling node:child_process costs a normal start ~3 ms.
  const { execFileSync } = await import('node:child_process');
  if (!existsSync(compiled)) {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
  }
  execFileSync(process.execPath, [join(root, 'scripts/bundle.mjs')], { stdio: 'inherit' });
}
// The bundle's import() goes through this module's own (src/dynamicImport.ts says why).
globalThis.__powderImport = (specifier) => import(specifier);
const { exports, saveCodeCacheLater } = loadBundle(bundle);
await exports.main(process.argv.slice(2));
saveCodeCacheLater();
