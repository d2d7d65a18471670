// The health API (/ext/health): see health.md beside this file.
import type { Node } from '../../node/node.js';

export function registerHealth(node: Node): void {
  const report = () => JSON.stringify({ checks: {}, healthy: true }) + '\n';
  node.addRoute('/ext/health', '', {
    http: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(report());
    },
  });
}
