// `powder` / `npm start`: flags and config file → NodeConfig → a running node.
import { resolveConfig, ConfigError } from './config/config.js';
import { Node } from './node/node.js';
import { FLAGS } from './config/flags.js';

function usage(): string {
  const lines = ['Usage: powder [--flag=value | --flag value]...', '', 'Flags (AvalancheGo names and defaults; * = Powder only):'];
  for (const f of FLAGS) {
    const d = Array.isArray(f.default) ? f.default.join(',') : f.default;
    lines.push(`  --${f.name}${f.powder ? ' *' : ''}  ${f.help}${d !== '' && d !== null ? ` (default ${d})` : ''}`);
  }
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage());
    return;
  }
  let node: Node;
  try {
    const config = resolveConfig({ argv, env: process.env });
    node = await Node.start({}, config);
  } catch (e) {
    const msg = e instanceof ConfigError || e instanceof Error ? e.message : String(e);
    process.stderr.write(`powder: ${msg.split('\n')[0]}\n`);
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
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
