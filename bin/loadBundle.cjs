// Loads the CommonJS bundle through V8's code cache. Why: a cold start spent ~35 ms parsing and
// compiling the 1.1 MB bundle and more compiling the functions the start-up runs; with the code
// V8 made last time (bytecode of every function compiled by then) both are skipped (measured:
// cold start to the first answered eth_chainId 225 → 165 ms on 2 cores).
//
// The cache sits beside the bundle, named after the bundle's size and mtime: V8 itself only checks
// the source's length, so a rebuilt bundle of the same length must never meet the old cache. V8
// rejects a cache made under other flags, so a start with Node/V8 flags (`node --cpu-prof …`,
// NODE_OPTIONS) keeps its own file instead of replacing the plain one every later start uses. A
// missing or rejected cache (another Node) is rebuilt once the node has run for a moment; a folder
// that cannot be written (a read-only install) just goes without.
//
// CommonJS, so that the bundles themselves can require it (requireBundle, for dist/lmdb.cjs);
// bin/loadBundle.js is its face for ES modules.
'use strict';
const vm = require('node:vm');
const { createRequire } = require('node:module');
const { readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');

/** How long the node runs before the cache is written, so the serving path is compiled too. */
const SAVE_AFTER_MS = 1000;

/** This process's Node/V8 flags, as one string ('' for a plain `node bin/powder.js`). */
function processFlags() {
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').trim();
}

/** The cache files' common start for the bundle as it is now (its size and mtime). */
function bundleKey(file) {
  const { size, mtimeMs } = statSync(file);
  return `${basename(file)}.${size}-${Math.floor(mtimeMs)}`;
}

/** The code cache file for the bundle as it is now, started with `flags`. */
function codeCacheFile(file, flags = processFlags()) {
  let suffix = '';
  if (flags) {
    let h = 0x811c9dc5; // FNV-1a: a short stable name, without loading node:crypto at start
    for (let i = 0; i < flags.length; i++) h = Math.imul(h ^ flags.charCodeAt(i), 0x01000193);
    suffix = `-f${(h >>> 0).toString(16).padStart(8, '0')}`;
  }
  return join(dirname(file), `${bundleKey(file)}${suffix}.cache`);
}

function loadBundle(file) {
  const dir = dirname(file);
  const prefix = `${basename(file)}.`;
  const cacheFile = codeCacheFile(file);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const source = readFileSync(file, 'utf8');
  // The CommonJS wrapper, as Node's loader writes it, so the bundle sees the usual five names.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    // import() in the bundle (VM plugins, by file URL) goes to Node's own loader.
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER ?? ((specifier) => import(specifier)),
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dir);

  const fresh = cachedData !== undefined && !script.cachedDataRejected;
  /** Writes the code cache now (atomically) and removes the caches of earlier bundles; false if it cannot. */
  function saveCodeCache() {
    try {
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cacheFile);
      const current = bundleKey(file);
      for (const f of readdirSync(dir)) {
        const ours = f === `${current}.cache` || f.startsWith(`${current}-f`); // this bundle, any flags
        if (f.startsWith(prefix) && f.endsWith('.cache') && !ours) rmSync(join(dir, f), { force: true });
      }
      return true;
    } catch {
      return false; // a read-only install runs without the cache
    }
  }
  function saveCodeCacheLater() {
    if (fresh || process.env.POWDER_CODE_CACHE === 'off') return;
    setTimeout(saveCodeCache, SAVE_AFTER_MS).unref();
  }
  return { exports: module.exports, cacheUsed: fresh, saveCodeCache, saveCodeCacheLater };
}

const required = new Map();

/**
 * require() of a CommonJS bundle through its code cache, once per process like require: the
 * bundles load dist/lmdb.cjs this way at the first LMDB open (~5 ms of an LMDB start compiled
 * from the cache instead of the source; docs/performance.md, session 32). The cache is written
 * a moment later when there was none.
 */
function requireBundle(file) {
  let exports = required.get(file);
  if (exports === undefined) {
    const loaded = loadBundle(file);
    loaded.saveCodeCacheLater();
    required.set(file, (exports = loaded.exports));
  }
  return exports;
}

/** The files requireBundle has loaded in this process (the tests ask). */
const requiredBundles = () => [...required.keys()];

module.exports = { processFlags, bundleKey, codeCacheFile, loadBundle, requireBundle, requiredBundles };
