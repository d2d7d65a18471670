// dist/prefault.so from native/prefault.c (that file says what it does and why): compiled with the
// machine's C compiler (`$CC`, else `cc`) when the build has made dist/powder-node, the only program
// bin/powder preloads it into. Optional: without a compiler, or where the library does not load,
// there is none and bin/powder starts the single executable as before. Then dist/pagecache, from
// native/pagecache.c, puts the executable's hot parts into the page cache as huge folios
// (warmHotCode).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEA_NODE_OPTIONS } from './singleExecutable.mjs';

/** Runs the C compiler (`$CC`, else `cc`) with -O2 -Wall and `args`; what went wrong, or null. */
function compile(args) {
  const cc = process.env.CC || 'cc';
  const made = spawnSync(cc, ['-O2', '-Wall', ...args], { encoding: 'utf8', timeout: 60_000 });
  if (made.status === 0) return null;
  return `${cc}: ${(made.error?.message ?? made.stderr ?? '').trim().split('\n').slice(0, 2).join(' / ').slice(0, 300) || `exit ${made.status}`}`;
}

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
  const failed = compile(['-shared', '-fPIC', '-o', candidate, join(root, 'native/prefault.c'), '-ldl', '-lpthread']);
  if (failed) return skip(failed);
  const check = spawnSync(exe, ['--version'], { env: { ...env, NODE_OPTIONS: SEA_NODE_OPTIONS, LD_PRELOAD: candidate }, encoding: 'utf8', timeout: 30_000 });
  if (check.status !== 0 || !/powder/.test(check.stdout)) return skip(`a start with it failed: ${(check.stderr || check.stdout || `exit ${check.status}`).trim().slice(0, 300)}`);
  renameSync(candidate, out);
}

/** A chunk of code is hot when at least this share of its pages is present at a start's first answer. */
const HOT = 0.8;
const CHUNK = 2 << 20;

/**
 * Puts the hot 2 MiB chunks of dist/powder-node (its code, read-only data and snapshot) into the
 * page cache as huge folios, with dist/pagecache (native/pagecache.c says why). Hot: at least HOT of
 * the chunk's pages present in a start from the single executable at its first answer (the kernel
 * maps the file's pages around each fault, so those count too). Only the hot ones: a process maps
 * such a chunk whole, and it counts whole in its RSS (all of the code so: ~+13 MiB at the first
 * answer). Optional like the preload: where the helper cannot be built or the kernel makes no such
 * folios, nothing changes.
 */
export async function warmHotCode({ root, env }) {
  const helper = join(root, 'dist/pagecache');
  rmSync(helper, { force: true });
  const exe = join(root, 'dist/powder-node');
  if (process.platform !== 'linux' || !existsSync(exe)) return;
  const failed = compile(['-o', helper, join(root, 'native/pagecache.c')]);
  if (failed) return console.warn(`bundle: no dist/pagecache (${failed})`);
  let chunks;
  try {
    chunks = await hotCodeChunks(root, env);
  } catch (e) {
    return console.warn(`bundle: dist/powder-node's code stays in small pages in the page cache (a start to find its hot code failed: ${String(e?.message ?? e).slice(0, 300)})`);
  }
  if (!chunks.length) return;
  const warmed = spawnSync(helper, [exe, ...chunks.map(([from, to]) => `${from}-${to}`)], { encoding: 'utf8', timeout: 60_000 });
  if (warmed.status !== 0) return console.warn(`bundle: dist/pagecache failed: ${(warmed.stderr || `exit ${warmed.status}`).trim().slice(0, 300)}`);
  console.log(`bundle: ${chunks.length} hot 2 MiB chunks of dist/powder-node read into the page cache as huge folios; a mapping of it maps ${warmed.stdout.trim()} KiB so`);
}

/** The file ranges [from, to) of dist/powder-node's 2 MiB chunks that a start finds hot. */
async function hotCodeChunks(root, env) {
  const exe = join(root, 'dist/powder-node');
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-hot-code-'));
  const so = join(root, 'dist/prefault.so');
  const child = spawn(exe, ['--http-port=0', '--db-type=memdb', `--data-dir=${dataDir}`, '--log-display-level=off'], {
    env: { ...env, NODE_OPTIONS: SEA_NODE_OPTIONS, ...(existsSync(so) ? { LD_PRELOAD: so } : {}) },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('no banner in 30 s')), 30_000);
      child.stdout.on('data', (d) => {
        out += d;
        const m = /\((http:\/\/[^)]+)\)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const res = await fetch(`${url}/ext/bc/dev/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' });
    await res.text();
    // The executable's read-only mappings: its code, its read-only data and the snapshot inside it
    // (the writable data is the process's own copy).
    const code = readFileSync(`/proc/${child.pid}/maps`, 'utf8').split('\n').map((l) => l.split(/\s+/)).filter((f) => /^r-[x-]p$/.test(f[1] ?? '') && f[5]?.endsWith('/powder-node'));
    const chunks = [];
    const fd = openSync(`/proc/${child.pid}/pagemap`, 'r');
    try {
      for (const [range, , hexOffset] of code) {
        const [start, end] = range.split('-').map((x) => parseInt(x, 16));
        const offset = parseInt(hexOffset, 16);
        if ((start - offset) % CHUNK !== 0) continue; // addresses not congruent to offsets: no huge mapping possible
        for (let at = Math.ceil(start / CHUNK) * CHUNK; at + CHUNK <= end; at += CHUNK) {
          const entries = Buffer.alloc((CHUNK / 4096) * 8);
          readSync(fd, entries, 0, entries.length, (at / 4096) * 8);
          let present = 0;
          for (let p = 0; p < CHUNK / 4096; p++) if (entries.readBigUInt64LE(p * 8) >> 63n) present++;
          if (present >= HOT * (CHUNK / 4096)) chunks.push([offset + at - start, offset + at - start + CHUNK]);
        }
      }
    } finally {
      closeSync(fd);
    }
    return chunks;
  } finally {
    // Gone before the helper runs: the kernel drops no page cache a process still maps.
    const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}
