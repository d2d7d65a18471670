// Bundles the compiled node (dist/src/cli.js and everything it imports) into one ES module,
// dist/powder.mjs, which bin/powder.js runs. Why: Node 20 spends most of a cold start resolving,
// reading and compiling ~400 small ES modules (@ethereumjs/* and ours); one file halves the
// start-up CPU. Native addons, and packages that locate files beside themselves, stay external
// and load from node_modules as before. Tests and the library API (dist/src/index.js) keep using
// the unbundled modules.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { readFile } from 'node:fs/promises';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// src/evm/vmTuning.ts patches ethereumjs' Interpreter, which the package does not export: it
// imports the module by URL at run time. In the bundle that would load a second, unused copy, so
// the import is made static here and esbuild resolves it to the bundled module itself.
const interpreterFile = join(root, 'node_modules/@ethereumjs/evm/dist/esm/interpreter.js');
const staticInterpreter = {
  name: 'static-interpreter',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]src[\\/]evm[\\/]vmTuning\.js$/ }, async (args) => {
      const js = await readFile(args.path, 'utf8');
      const out = js.replace(/const interpreterURL = [^\n]*\nconst mod = \(?await import\(interpreterURL\)\)?;/, `import * as mod from ${JSON.stringify(interpreterFile)};`);
      if (out === js) throw new Error('bundle: vmTuning.js no longer has the expected interpreter import');
      return { contents: out, loader: 'js' };
    });
  },
};

await build({
  plugins: [staticInterpreter],
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
