// dist/prefault.so from native/prefault.c (that file says what it does and why): compiled with the
// machine's C compiler (`$CC`, else `cc`) when the build has made dist/powder-node, the only program
// bin/powder preloads it into. Optional: without a compiler, or where the library does not load,
// there is none and bin/powder starts the single executable as before.
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SEA_NODE_OPTIONS } from './singleExecutable.mjs';

/** Builds dist/prefault.so, or leaves none and says why. Checked by a start of the single executable with it. */
export function makePrefault({ root, env }) {
  const out = join(root, 'dist/prefault.so');
  const candidate = `${out}.tmp`;
  rmSync(out, { force: true });
  const exe = join(root, 'dist/powder-node');
  const skip = (why) => {
    rmSync(candidate, { force: true });
    console.warn(`bundle: no dist/prefault.so (${why}); bin/powder starts dist/powder-node without it`);
  };
  if (process.platform !== 'linux') return; // no single executable elsewhere, nothing to preload into
  if (!existsSync(exe)) return;
  const cc = process.env.CC || 'cc';
  const made = spawnSync(cc, ['-O2', '-Wall', '-shared', '-fPIC', '-o', candidate, join(root, 'native/prefault.c'), '-ldl', '-lpthread'], { encoding: 'utf8', timeout: 60_000 });
  if (made.status !== 0) return skip(`${cc}: ${(made.error?.message ?? made.stderr ?? '').trim().split('\n').slice(0, 2).join(' / ').slice(0, 300) || `exit ${made.status}`}`);
  const check = spawnSync(exe, ['--version'], { env: { ...env, NODE_OPTIONS: SEA_NODE_OPTIONS, LD_PRELOAD: candidate }, encoding: 'utf8', timeout: 30_000 });
  if (check.status !== 0 || !/powder/.test(check.stdout)) return skip(`a start with it failed: ${(check.stderr || check.stdout || `exit ${check.status}`).trim().slice(0, 300)}`);
  renameSync(candidate, out);
}
