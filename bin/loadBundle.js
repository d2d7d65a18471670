// bin/loadBundle.cjs (the bundles' loader with V8's code cache) for ES modules: bin/powder.js,
// dist/powder.lib.mjs and the tests import it from here.
import loader from './loadBundle.cjs';

export const { processFlags, bundleKey, codeCacheFile, loadBundle, requireBundle, requiredBundles } = loader;
