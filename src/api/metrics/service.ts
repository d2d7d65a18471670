// /ext/metrics: the node's metrics in the Prometheus text exposition format (version 0.0.4),
// any HTTP method, as AvalancheGo serves them (reference: avalanchego-node.md §9.3). See metrics.md.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Node } from '../../node/node.js';
import type { HealthChecks } from '../health/checks.js';
import { gzipAsync } from '../../logging/gzip.js';

type Labels = Record<string, string>;
interface Sample {
  labels?: Labels;
  value: number | bigint;
}
interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge';
  samples: Sample[];
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

function formatValue(v: number | bigint): string {
  if (typeof v === 'bigint') return v.toString();
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

/** Renders metric families in the Prometheus text format, families and label sets sorted. */
export function renderPrometheus(families: Family[]): string {
  const lines: string[] = [];
  for (const f of [...families].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    const rows = f.samples.map((s) => {
      const labels = Object.entries(s.labels ?? {})
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
        .join(',');
      return `${f.name}${labels ? `{${labels}}` : ''} ${formatValue(s.value)}`;
    });
    lines.push(...rows.sort());
  }
  return lines.join('\n') + '\n';
}

function processFamilies(startedAtMs: number): Family[] {
  const cpu = process.cpuUsage();
  const mem = process.memoryUsage();
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.().length;
  const f: Family[] = [
    { name: 'avalanche_process_cpu_seconds_total', help: 'Total user and system CPU time spent in seconds.', type: 'counter', samples: [{ value: (cpu.user + cpu.system) / 1e6 }] },
    { name: 'avalanche_process_resident_memory_bytes', help: 'Resident memory size in bytes.', type: 'gauge', samples: [{ value: mem.rss }] },
    { name: 'avalanche_process_heap_bytes', help: 'JavaScript heap in use, bytes.', type: 'gauge', samples: [{ value: mem.heapUsed }] },
    { name: 'avalanche_process_start_time_seconds', help: 'Start time of the node since unix epoch in seconds.', type: 'gauge', samples: [{ value: Math.floor(startedAtMs / 1000) }] },
  ];
  if (handles !== undefined) {
    f.push({ name: 'avalanche_process_open_handles', help: 'Open sockets, files and timers of the process.', type: 'gauge', samples: [{ value: handles }] });
  }
  return f;
}

export function nodeMetrics(node: Node, health: HealthChecks): string {
  const calls = [...node.router.calls.byRoute];
  const families: Family[] = [
    ...processFamilies(node.startedAt),
    {
      name: 'avalanche_api_calls_processed',
      help: 'The number of HTTP API calls processed, by route.',
      type: 'counter',
      samples: calls.map(([base, c]) => ({ labels: { base }, value: c.processed })),
    },
    {
      name: 'avalanche_api_calls_processing',
      help: 'The number of HTTP API calls being processed, by route.',
      type: 'gauge',
      samples: calls.map(([base, c]) => ({ labels: { base }, value: c.processing })),
    },
    {
      name: 'avalanche_api_calls_duration',
      help: 'Total time spent processing HTTP API calls, nanoseconds, by route.',
      type: 'counter',
      samples: calls.map(([base, c]) => ({ labels: { base }, value: c.durationNs })),
    },
    {
      name: 'avalanche_health_checks_failing',
      help: 'Number of failing health checks, by check set and tag.',
      type: 'gauge',
      samples: health.failing().map(({ set, tag, count }) => ({ labels: { check: set, tag }, value: count })),
    },
    {
      name: 'avalanche_chains',
      help: 'Number of chains running.',
      type: 'gauge',
      samples: [{ value: node.chains.chains.size }],
    },
  ];
  return renderPrometheus(families);
}

/**
 * Whether the client takes gzip (Accept-Encoding, as promhttp negotiates it: `gzip` or `*` with a
 * q-value above 0).
 */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const part of text.split(',')) {
    const [name, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (name !== 'gzip' && name !== '*') continue;
    const q = params.find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export function registerMetrics(node: Node, health: HealthChecks): void {
  node.addRoute('/ext/metrics', '', {
    http: async (req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      const body = nodeMetrics(node, health);
      // Prometheus' Go handler (promhttp) compresses for a client that takes gzip, as a scraper does.
      if (acceptsGzip(req.headers['accept-encoding'])) {
        const gz = await gzipAsync(Buffer.from(body));
        res.writeHead(200, { 'Content-Type': CONTENT_TYPE, 'Content-Encoding': 'gzip', 'Content-Length': gz.length });
        res.end(gz);
        return;
      }
      res.writeHead(200, { 'Content-Type': CONTENT_TYPE, 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    },
  });
}
