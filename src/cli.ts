// `powder` / `npm start`: flags and config file → NodeConfig → a running node.
// A bad flag, value or config file stops the start with one line on stderr and exit code 1.
import { resolveConfig } from './config/config.js';
import { Node } from './node/node.js';
import { FLAGS } from './config/flags.js';
import { NODE_VERSION } from './api/info/version.js';
import { fastHttpStats } from './server/fastHttp.js';
import { busyPoll } from './server/busyPoll.js';
import { restoreExtraCaCerts } from './node/extraCaCerts.js';

function usage(): string {
  const lines = [
    'Usage: powder [--flag=value | --flag value]...',
    '',
    'Every flag can also be set as AVAGO_<FLAG_NAME> in the environment or as a key of a JSON',
    '--config-file. Details: docs/configuration.md. Flags marked * exist only in Powder.',
    '',
  ];
  for (const f of FLAGS) {
    const d = Array.isArray(f.default) ? f.default.join(',') : f.default;
    const shown = d === '' || d === null ? '' : f.type === 'duration' ? ` (default ${formatMs(d as number)})` : ` (default ${d})`;
    lines.push(`  --${f.name}${f.powder ? ' *' : ''}`, `        ${f.help}${shown}`);
  }
  lines.push('  --version', '        print the version and exit');
  return lines.join('\n');
}

function formatMs(ms: number): string {
  if (ms === 0) return '0s';
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  if (ms < 1) return `${Math.round(ms * 1000)}µs`; // as Go's Duration.String writes it
  return `${ms}ms`;
}

/** What went wrong at start: the error's whole text, as AvalancheGo prints it (a config file's bytes quoted in it may span lines). */
function startError(e: unknown, argvPort: () => string): string {
  const err = e as NodeJS.ErrnoException & { address?: string; port?: number };
  if (err?.code === 'EADDRINUSE') return `--http-port ${argvPort()} is already in use (${err.address}:${err.port}); pick another port or --http-port=0`;
  if (err?.code === 'EACCES' && err.syscall === 'listen') return `cannot listen on ${err.address}:${err.port}: permission denied (--http-host/--http-port)`;
  const msg = e instanceof Error ? e.message : String(e);
  return msg.trimEnd();
}

export async function main(argv: string[]): Promise<void> {
  restoreExtraCaCerts();
  if (argv.includes('--help') || argv.includes('-h') || argv.includes('-help')) {
    console.log(usage());
    return;
  }
  if (argv.includes('--version')) {
    console.log(`${NODE_VERSION} (powder)`);
    return;
  }
  let node: Node;
  let port = '9650';
  try {
    const config = resolveConfig({ argv, env: process.env });
    port = String(config.httpPort);
    node = await Node.start({}, config);
  } catch (e) {
    process.stderr.write(`powder: ${startError(e, () => port)}\n`);
    process.exit(1);
  }
  console.log(node.banner().join('\n'));
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await node.stop();
    process.exit(0);
  };
  node.onSelfStop((code) => process.exit(code));
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

/**
 * For scripts/snapshot.cjs only: starts a node as `main` would (in memory, in `dataDir`, on
 * whatever server the snapshot builder stands in for node:http) and stops it, so the functions a
 * start runs are compiled when the start-up snapshot is taken. `whileRunning` runs before the
 * stop: the builder's requests to the dev chain, on sockets through the server's fast path, so the
 * serving path is compiled too.
 */
export async function rehearseStart(dataDir: string, whileRunning: () => Promise<void>): Promise<void> {
  const config = resolveConfig({ argv: ['--http-port=0', '--db-type=memdb', `--data-dir=${dataDir}`, '--log-display-level=off'], env: {} });
  const node = await Node.start({}, config);
  node.banner();
  await whileRunning();
  await node.stop();
  // The counts are "since start": the rehearsal's requests are not the restored process's.
  fastHttpStats.answered = 0;
  fastHttpStats.handedOff = 0;
  fastHttpStats.waited = 0;
  for (const k of Object.keys(busyPoll.stats) as (keyof typeof busyPoll.stats)[]) busyPoll.stats[k] = 0;
}
