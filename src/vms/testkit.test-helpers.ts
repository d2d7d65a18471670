// Helpers shared by the VM plugin tests: temp dirs, the example plugin's path, raw JSON-RPC calls.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vmIDFromName } from '../ids/ids.js';

export const TIMESTAMP_VM_ID = 'tGas3T58KzdjLHhBDMnH2TvrddhqTji5iZAMZ3RXs2NLpSnhH';

/** The repository root (works from src/ under tsx and from dist/src/ after tsc). */
function repoRoot(): string {
  let d = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(d, 'package.json'))) {
    const up = dirname(d);
    if (up === d) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    d = up;
  }
  return d;
}

export const EXAMPLE_PLUGIN = join(repoRoot(), 'examples', 'timestampvm', `${TIMESTAMP_VM_ID}.js`);

/** A fresh data dir with an (existing, empty) plugin dir inside it. */
export function tempDirs(): { dataDir: string; pluginDir: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-vms-'));
  const pluginDir = join(dataDir, 'plugins');
  mkdirSync(pluginDir);
  return { dataDir, pluginDir };
}

/** Writes a plugin module named by the VM ID of `name` (or by `fileName`); returns the VM ID. */
export function writePlugin(pluginDir: string, name: string, source: string, fileName?: string): string {
  const id = vmIDFromName(name);
  writeFileSync(join(pluginDir, fileName ?? `${id}.js`), source);
  return id;
}

/** A minimal working factory's source: one chain route `''` with service `echo`. */
export function workingPluginSource(version = 'v0.0.1'): string {
  return `export default {
  version: ${JSON.stringify(version)},
  async createChain(ctx) {
    return {
      createHandlers: () => ({ '': ctx.rpc.gorilla('echo', { hello: { params: { name: ctx.rpc.decoders.str }, handler: ({ name }) => ({ hello: name, chainID: ctx.chainID, version: ${JSON.stringify(version)} }) } }) }),
      shutdown: async () => {},
    };
  },
};
`;
}

/** POSTs a JSON-RPC call and returns the raw HTTP status and body text. */
export async function rawRpc(url: string, method: string, params: unknown = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: res.status, text: await res.text() };
}
