// The AvalancheGo version Powder reports (reference: avalanchego-node.md §0, version/constants.go).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_VERSION = 'avalanchego/1.14.2';
export const DATABASE_VERSION = 'v1.4.5';
export const RPC_PROTOCOL_VERSION = '45';

let commit: string | undefined;

/** The git commit Powder runs from, when it runs from a git checkout; '' otherwise (as a Go build without ldflags). */
export function gitCommit(): string {
  if (commit !== undefined) return commit;
  commit = '';
  try {
    let dir = dirname(fileURLToPath(import.meta.url));
    for (let i = 0; i < 6 && !existsSync(join(dir, '.git')); i++) dir = dirname(dir);
    const git = join(dir, '.git');
    if (!existsSync(join(git, 'HEAD'))) return commit;
    const head = readFileSync(join(git, 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40}$/.test(head)) return (commit = head);
    const ref = /^ref: (.+)$/.exec(head)?.[1];
    if (!ref) return commit;
    if (existsSync(join(git, ref))) return (commit = readFileSync(join(git, ref), 'utf8').trim());
    const packed = join(git, 'packed-refs');
    if (existsSync(packed)) {
      const line = readFileSync(packed, 'utf8').split('\n').find((l) => l.endsWith(' ' + ref));
      if (line) commit = line.slice(0, 40);
    }
  } catch {
    /* not a checkout: leave it empty */
  }
  return commit;
}

export function nodeVersion(): { version: string; databaseVersion: string; rpcProtocolVersion: string; gitCommit: string } {
  return { version: NODE_VERSION, databaseVersion: DATABASE_VERSION, rpcProtocolVersion: RPC_PROTOCOL_VERSION, gitCommit: gitCommit() };
}
