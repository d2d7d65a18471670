// The library face: start a Powder node inside a test suite or program.
import { Node } from './node/node.js';
import type { NodeOptions } from './config/config.js';

export type { NodeOptions, NodeConfig } from './config/config.js';
export type { VMFactory, ChainVM, ChainContext } from './vms/types.js';
export type { RouteHandler } from './server/router.js';
export { Node };

/**
 * Starts a node. Options take the flag names (`'http-port': 0`) or their camelCase (`httpPort: 0`).
 * Port 0 picks a free port; `node.url` tells which. `await node.stop()` closes everything.
 */
export function startNode(options: NodeOptions = {}): Promise<Node> {
  return Node.start(options);
}
