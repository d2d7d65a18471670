// Shared test helpers: a node on a free port with its data in a temporary folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNode, type Node } from '../src/index.js';

export interface TestNode {
  node: Node;
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts a node on port 0 in a fresh temp data dir (LMDB unless options say otherwise). */
export async function startTestNode(options: Record<string, unknown> = {}): Promise<TestNode> {
  const dataDir = (options['data-dir'] as string) ?? mkdtempSync(join(tmpdir(), 'powder-test-'));
  let node: Node;
  try {
    node = await startNode({ 'http-port': 0, 'data-dir': dataDir, 'log-display-level': 'off', ...options });
  } catch (e) {
    // A node that fails to start (the bad-input tests) leaves no folder behind either.
    if (!options['data-dir']) rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  return {
    node,
    url: node.url,
    dataDir,
    async stop() {
      await node.stop();
      if (!options['data-dir']) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** POSTs a node-style JSON-RPC call and returns the parsed envelope. */
export async function rpc(url: string, method: string, params: unknown = {}, id: unknown = 1): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  return res.json();
}
