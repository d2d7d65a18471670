// Tests of what only the bundles carry (scripts/bundle.mjs's package patches): a dev-chain node
// started from dist/powder.lib.mjs, which `npm test` builds before it runs the tests.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rpcClient, type Rpc } from './chain/testkit.js';

/** A file of the package's dist/ (the bundles), which must have been built. */
export function distFile(name: string): string {
  let d = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(d, 'bin', 'loadBundle.js'))) d = dirname(d);
  const f = join(d, 'dist', name);
  if (!existsSync(f)) throw new Error(`${f} is missing: npm test builds it (npm run build)`);
  return f;
}

/** A memdb dev-chain node from the library bundle, its chain's JSON-RPC client, and its stop (which removes its data dir). */
export async function bundledDevNode(dataDirPrefix: string): Promise<{ rpc: Rpc; stop: () => Promise<void> }> {
  const { startNode } = (await import(pathToFileURL(distFile('powder.lib.mjs')).href)) as typeof import('../index.js');
  const dataDir = mkdtempSync(join(tmpdir(), dataDirPrefix));
  const node = await startNode({ 'http-port': 0, 'db-type': 'memdb', 'data-dir': dataDir, 'log-display-level': 'off' });
  return {
    rpc: rpcClient(node.url + '/ext/bc/dev/rpc'),
    stop: async () => {
      await node.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
