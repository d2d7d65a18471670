// The health API (/ext/health): see health.md beside this file. Reference: avalanchego-node.md §9.2.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Node } from '../../node/node.js';
import { goJSON, strArray, type GorillaService } from '../../rpc/gorilla.js';
import { APPLICATION_TAG, CheckError, HealthChecks, type CheckSet, type Report } from './checks.js';
import { goQueryValues } from '../../server/goQuery.js';

/** The node's checks: database, bootstrapped, and one per chain named by its primary alias. */
export function nodeHealthChecks(node: Node): HealthChecks {
  const registered = new Set<string>();
  const health: HealthChecks = new HealthChecks(
    () => node.now(),
    () => registerChainChecks(),
  );

  health.register(
    'health',
    'database',
    () => {
      if (node.db.closed) throw new Error('closed');
      node.db.store('node').get(Buffer.from('health'));
      return undefined;
    },
    [APPLICATION_TAG],
  );
  const bootstrapped = () => {
    const bootstrapping = [...new Set([...node.chains.pending.values()].map((p) => p.subnetID))].sort();
    if (bootstrapping.length) throw new CheckError('subnets not bootstrapped', bootstrapping);
    return [];
  };
  health.register('health', 'bootstrapped', bootstrapped, [APPLICATION_TAG]);
  health.register('readiness', 'bootstrapped', bootstrapped, [APPLICATION_TAG]);

  function registerChainChecks(): void {
    if (node.shuttingDown && !registered.has('shuttingDown')) {
      registered.add('shuttingDown');
      health.register(
        'health',
        'shuttingDown',
        () => {
          throw new CheckError('server shutting down', { isShuttingDown: true });
        },
        [APPLICATION_TAG],
      );
    }
    for (const chain of node.chains.chains.values()) {
      if (registered.has(chain.id)) continue;
      registered.add(chain.id);
      const name = node.chains.aliaser.primaryAliasOrDefault(chain.id);
      if (health.has('health', name)) continue;
      health.register(
        'health',
        name,
        async () => {
          const c = node.chains.chains.get(chain.id);
          if (!c) throw new Error('chain is shut down');
          return c.vm.health ? await c.vm.health() : undefined;
        },
        [chain.subnetID],
      );
    }
    for (const [id, err] of node.chains.failed) {
      if (registered.has(id)) continue;
      registered.add(id);
      const subnetID = node.subnetOf(id) ?? '';
      const name = node.chains.aliaser.primaryAliasOrDefault(id);
      if (health.has('health', name)) continue;
      health.register(
        'health',
        name,
        () => {
          throw new Error(`failed to create chain on subnet ${subnetID}: ${err}`);
        },
        subnetID ? [subnetID] : [],
      );
    }
  }
  return health;
}

function writeReport(res: ServerResponse, r: Report): void {
  const body = goJSON(r) + '\n';
  res.writeHead(r.healthy ? 200 : 503, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** `?tag=…` values, read as Go's r.URL.Query() reads them. */
function tagsOf(req: IncomingMessage): string[] {
  return goQueryValues(req.url ?? '/', 'tag');
}

export function healthService(health: HealthChecks): GorillaService {
  const method = (set: CheckSet) => ({
    params: { tags: strArray },
    handler: ({ tags }: Record<string, any>) => health.report(set, (tags as string[] | undefined) ?? []),
  });
  return { health: method('health'), readiness: method('readiness'), liveness: method('liveness') };
}

/** Mounts /ext/health (GET report, other methods JSON-RPC) and its three sub-routes. */
export function registerHealth(node: Node, health: HealthChecks): void {
  const rpc = node.gorilla('health', healthService(health));
  node.addRoute('/ext/health', '', {
    http: async (req, res) => {
      if (req.method !== 'GET') return rpc.serve(req, res);
      req.resume();
      writeReport(res, await health.report('health', tagsOf(req)));
    },
  });
  for (const set of ['health', 'readiness', 'liveness'] as const) {
    node.addRoute('/ext/health', `/${set}`, {
      http: async (req, res) => {
        req.resume();
        writeReport(res, await health.report(set, tagsOf(req)));
      },
    });
  }
}
