// Bundles the compiled node (dist/src/cli.js and everything it imports) into one ES module,
// dist/powder.mjs, which bin/powder.js runs. Why: Node 20 spends most of a cold start resolving,
// reading and compiling ~400 small ES modules (@ethereumjs/* and ours); one file halves the
// start-up CPU. Native addons, and packages that locate files beside themselves, stay external
// and load from node_modules as before. Tests and the library API (dist/src/index.js) keep using
// the unbundled modules.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

await build({
  entryPoints: [join(root, 'dist/src/cli.js')],
  outfile: join(root, 'dist/powder.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Whitespace and syntax only: function names stay as written, so CPU profiles and stack
  // traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  logLevel: 'warning',
  external: ['lmdb', 'keccak', 'secp256k1', '@chainsafe/blst', 'msgpackr-extract', 'solc', 'bufferutil', 'utf-8-validate'],
  // CommonJS dependencies inside an ES module bundle call `require` for Node built-ins.
  banner: { js: "import { createRequire as __powderRequire } from 'node:module'; const require = __powderRequire(import.meta.url);" },
});
