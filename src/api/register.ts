// Mounts the node-level APIs (reference: avalanchego-node.md §2, §9).
import type { Node } from '../node/node.js';
import { adminService } from './admin/service.js';
import { infoService } from './info/service.js';
import { nodeHealthChecks, registerHealth } from './health/service.js';
import { registerMetrics } from './metrics/service.js';

export async function registerNodeAPIs(node: Node): Promise<void> {
  const c = node.config;
  if (c.apiAdminEnabled) node.addGorillaRoute('/ext/admin', '', 'admin', adminService(node));
  if (c.apiInfoEnabled) node.addGorillaRoute('/ext/info', '', 'info', infoService(node));
  // Health checks run whether or not their API is served (the metrics report them too).
  const health = nodeHealthChecks(node);
  if (c.apiHealthEnabled) registerHealth(node, health);
  if (c.apiMetricsEnabled) registerMetrics(node, health);
  node.onStop(() => health.stop());
  // Chains are created after the node APIs: the first round runs once the event loop turns, and
  // a report asked before it waits for it.
  setImmediate(() => {
    if (!node.stopped) void health.start(c.healthCheckFrequencyMs);
  });
}
