// bin/loadBundle.cjs (the bundles' loader with V8's code cache) for ES modules: bin/powder.js,
// dist/powder.lib.mjs and the tests import it from here. Required rather than imported: an ES
// module's `import` of a CommonJS file runs Node's analysis of its exports first (cjs-module-lexer,
// its WebAssembly made on first use), 6.5–11 ms of a library import against 3.5–4.7 for `require`
// (docs/performance.md, session 47).
import { createRequire } from 'node:module';

const loader = createRequire(import.meta.url)('./loadBundle.cjs');

export const { processFlags, bundleKey, codeCacheFile, loadBundle, requireBundle, requiredBundles } = loader;
