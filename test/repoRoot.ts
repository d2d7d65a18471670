// The repository's root, found from a test's own file (the source under test/ or its compiled copy
// under dist/test/): the nearest folder above that holds bin/powder.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'bin/powder'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no bin/powder above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return dir;
}
