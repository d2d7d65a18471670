#!/usr/bin/env node
// `npx powder`: runs the compiled node; builds it first in a fresh clone.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(join(root, 'dist/src/cli.js'))) {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
}
const { main } = await import('../dist/src/cli.js');
await main(process.argv.slice(2));
