// Mounts the node-level APIs (reference: avalanchego-node.md §2, §9).
import type { Node } from '../node/node.js';
import { adminService } from './admin/service.js';
import { infoService } from './info/service.js';
import { registerHealth } from './health/service.js';

export async function registerNodeAPIs(node: Node): Promise<void> {
  const c = node.config;
  if (c.apiAdminEnabled) node.addGorillaRoute('/ext/admin', '', 'admin', adminService(node));
  if (c.apiInfoEnabled) node.addGorillaRoute('/ext/info', '', 'info', infoService(node));
  if (c.apiHealthEnabled) registerHealth(node);
}
