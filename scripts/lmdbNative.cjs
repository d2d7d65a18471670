// lmdb's native addon, for the bundles (scripts/bundle.mjs bundles lmdb's JavaScript and points its
// `require('node-gyp-build-optional-packages')` here). That loader asks detect-libc whether libc is
// musl (which loads node:child_process) and searches folders before it picks a binary: ~16 ms of
// the ~55 ms that `require('lmdb')` took on an LMDB start (docs/performance.md, session 21). On
// Linux, when lmdb has no local build or prebuilds of its own, the glibc binary of its platform
// package is required directly, the one the loader would pick (this Node's ABI first, then N-API);
// if it is missing or does not load (musl, another system), the package's own loader decides.
'use strict';
const { dirname, join } = require('node:path');
const { existsSync, realpathSync } = require('node:fs');

/**
 * The first `<dir>/node_modules/<name>` holding a package.json, for `dir` and each folder above it,
 * in the order Node's resolution tries them (a folder named node_modules gets none of its own).
 * A few stat calls, where `require.resolve` of a package with an exports map took 2–5 ms of a cold
 * start (its loader code runs for the first time; docs/performance.md, session 33).
 */
function nearestPackage(dir, name) {
  for (let d = dir; ; d = dirname(d)) {
    if (!/[\\/]node_modules$/.test(d) && existsSync(join(d, 'node_modules', name, 'package.json'))) return join(d, 'node_modules', name);
    if (dirname(d) === d) return undefined;
  }
}

/** lmdb's package folder (its exports do not include package.json; a variable keeps esbuild from resolving it). */
function lmdbDir() {
  const found = nearestPackage(__dirname, 'lmdb');
  if (found) return realpathSync(found); // as require.resolve gives it (pnpm links packages)
  const lmdb = 'lmdb';
  return dirname(dirname(require.resolve(lmdb))); // <lmdb>/dist/index.cjs (NODE_PATH, a global folder)
}

module.exports = function loadLmdbNative() {
  const dir = lmdbDir();
  const ownBuild = ['build/Release', 'build/Debug', 'prebuilds'].some((d) => existsSync(join(dir, d)));
  if (process.platform === 'linux' && !ownBuild && !process.env.LMDB_PREBUILD) {
    try {
      const name = `@lmdb/lmdb-linux-${process.arch}`;
      const pkg = nearestPackage(dir, name) ?? dirname(require.resolve(`${name}/package.json`, { paths: [dir] }));
      const abi = join(pkg, `node.abi${process.versions.modules}.glibc.node`);
      return require(existsSync(abi) ? abi : join(pkg, 'node.napi.glibc.node'));
    } catch {
      // not installed, or not loadable here (musl): the package's loader below
    }
  }
  return require('node-gyp-build-optional-packages')(dir);
};

/** For test/lmdbNative.test.ts. */
module.exports.nearestPackage = nearestPackage;
