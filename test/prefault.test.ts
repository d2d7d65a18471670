// dist/prefault.so (native/prefault.c, built by scripts/prefault.mjs): what bin/powder preloads into
// the single executable. Checked here: the build made it where it can (Linux, a C compiler, the
// single executable); bin/powder preloads it by default and not with POWDER_PREFAULT=off nor over
// an LD_PRELOAD of the user's; it acts only in a program named powder-node, which then no longer
// has LD_PRELOAD in its environment (nor do the processes it starts); and a node started with it
// serves as one started without. Its effect on a start (page faults, time) is measured in bench/,
// not here (docs/performance.md, session 47).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpc } from './helpers.js';
import { repoRoot } from './repoRoot.js';

const ROOT = repoRoot();
const SO = join(ROOT, 'dist/prefault.so');
const SEA = join(ROOT, 'dist/powder-node');
const haveCompiler = spawnSync(process.env.CC || 'cc', ['--version']).status === 0;
const EXPECTED = process.platform === 'linux' && existsSync(SEA) && haveCompiler;

test('the build made dist/prefault.so beside the single executable (Linux with a C compiler)', (t) => {
  if (!EXPECTED) return void t.skip(`not expected here (platform ${process.platform}, single executable ${existsSync(SEA)}, compiler ${haveCompiler})`);
  assert.ok(existsSync(SO), SO);
});

/** Runs `program` (a link to node under some name) with `script`, the library preloaded; its stdout. */
function runAs(name: string, script: string, env: Record<string, string> = {}, flags: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'powder-prefault-'));
  try {
    const program = join(dir, name);
    symlinkSync(process.execPath, program);
    const r = spawnSync(program, [...flags, '-e', script], { env: { ...process.env, LD_PRELOAD: SO, ...env }, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const REPORT = `const maps = require('fs').readFileSync('/proc/self/maps', 'utf8');
const child = require('child_process').execFileSync('sh', ['-c', 'printf %s "$LD_PRELOAD"'], { encoding: 'utf8' });
console.log(JSON.stringify({ loaded: maps.includes('prefault.so'), env: process.env.LD_PRELOAD ?? null, child }));`;

test('in a program named powder-node it loads and takes LD_PRELOAD out of the environment, its children\'s too; elsewhere it does nothing', (t) => {
  if (!existsSync(SO)) return void t.skip('no dist/prefault.so');
  assert.deepEqual(JSON.parse(runAs('powder-node', REPORT)), { loaded: true, env: null, child: '' });
  // Another program keeps the variable as it was given (bin/powder preloads it into powder-node only).
  assert.deepEqual(JSON.parse(runAs('other-node', REPORT)), { loaded: true, env: SO, child: SO });
});

test('in powder-node, with the heap populated and the user\'s malloc settings or none, memory and mprotect behave as usual', (t) => {
  if (!existsSync(SO)) return void t.skip('no dist/prefault.so');
  // Allocations across the heap it populated, a typed array in pages V8 made writable, and
  // WebAssembly (code pages made writable and executable). (A failing mprotect's errno would take a
  // native addon to observe.)
  const script = `const bufs = []; for (let i = 0; i < 2000; i++) bufs.push(Buffer.alloc(4096 + i, i & 255));
const arr = new Float64Array(4 << 20); arr.fill(1.5);
const sum = bufs.reduce((s, b) => s + b[b.length - 1], 0) + arr[arr.length - 1];
const wasm = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array([0,97,115,109,1,0,0,0,1,7,1,96,2,127,127,1,127,3,2,1,0,7,7,1,3,97,100,100,0,0,10,9,1,7,0,32,0,32,1,106,11]))).exports.add(2, 3);
console.log(JSON.stringify({ sum, wasm }));`;
  const want = JSON.stringify({ sum: Array.from({ length: 2000 }, (_, i) => i & 255).reduce((s, v) => s + v, 0) + 1.5, wasm: 5 });
  const envs: Record<string, string>[] = [{ MALLOC_MMAP_THRESHOLD_: '8388608' }, { MALLOC_MMAP_THRESHOLD_: '8388608', MALLOC_TRIM_THRESHOLD_: '131072' }, {}];
  for (const env of envs) {
    assert.equal(runAs('powder-node', script, env), want, JSON.stringify(env));
  }
});

/** The kernel's transparent huge page mode ('always', 'madvise', 'never'), or null where it has none. */
function thpMode(): string | null {
  try {
    return /\[(\w+)\]/.exec(readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

test('in powder-node, V8\'s first heap pages and the populated malloc heap are huge pages, no longer marked for them once the window closes', (t) => {
  if (!existsSync(SO)) return void t.skip('no dist/prefault.so');
  const mode = thpMode();
  if (mode !== 'always' && mode !== 'madvise') return void t.skip(`transparent huge pages: ${mode}`);
  // The mappings holding huge pages, with their flags (hg: MADV_HUGEPAGE, nh: MADV_NOHUGEPAGE): as
  // the script starts (inside the 400 ms window), and at 600 ms (after it; malloc may have trimmed
  // its heap's free top by then).
  const script = `const huge = () => { const out = []; let cur;
for (const l of require('fs').readFileSync('/proc/self/smaps', 'utf8').split('\\n')) {
  const h = /^[0-9a-f]+-[0-9a-f]+ (\\S+) \\S+ \\S+ \\d+\\s*(.*)$/.exec(l);
  if (h) { cur = { prot: h[1], name: h[2] || '', huge: 0, flags: '' }; out.push(cur); continue; }
  const f = /^(AnonHugePages|VmFlags):\\s+(.*)$/.exec(l);
  if (f && f[1] === 'AnonHugePages') cur.huge = parseInt(f[2]); else if (f) cur.flags = f[2];
}
return out.filter((m) => m.huge > 0); };
const during = huge(); setTimeout(() => console.log(JSON.stringify({ during, after: huge() })), 600);`;
  type Mapping = { prot: string; name: string; huge: number; flags: string };
  const env = { MALLOC_MMAP_THRESHOLD_: '8388608' };
  const { during, after } = JSON.parse(runAs('powder-node', script, env)) as { during: Mapping[]; after: Mapping[] };
  assert.ok(during.some((m) => m.name === '[heap]'), `malloc's heap: ${JSON.stringify(during)}`);
  assert.ok(during.some((m) => m.name === '' && m.prot === 'rw-p'), `V8's pages: ${JSON.stringify(during)}`);
  // With huge pages only where asked for, every mapping holding some is one of the library's: marked
  // for them in the window, no longer after it.
  if (mode === 'madvise') {
    for (const m of during) assert.match(m.flags, /\bhg\b/, JSON.stringify(m));
    for (const m of after) assert.match(m.flags, /\bnh\b/, JSON.stringify(m));
  }
  // Elsewhere the library asks for none.
  const other = JSON.parse(runAs('other-node', script, env)) as { during: Mapping[]; after: Mapping[] };
  if (mode === 'madvise') assert.deepEqual(other, { during: [], after: [] });
});

test('in powder-node, a heap that outgrows the arena in the window and keeps changing after it holds what was written', (t) => {
  if (!existsSync(SO)) return void t.skip('no dist/prefault.so');
  // Well over the arena's 24 MiB of V8 heap in the window (600,000 small objects in old-space and
  // young-generation pages, large-object pages of 0.8-2.4 MiB; the typed arrays' 2-6 MiB backing
  // stores come from malloc), then, after it, more, with full collections moving and freeing pages
  // in between.
  const script = `const keep = []; const big = [];
const fill = (n) => { for (let i = keep.length, end = i + n; i < end; i++) keep.push({ i, s: 'v' + i, a: [i, i + 1] }); };
const check = () => { keep.forEach((o, i) => { if (o.i !== i || o.s !== 'v' + i || o.a[1] !== i + 1) throw new Error('object ' + i); });
  big.forEach((b, j) => { if (b.length !== (1 + (j % 3)) << 18 || b[0] !== j || b[b.length - 1] !== j * 2) throw new Error('array ' + j); }); };
const make = (j) => { const b = new Float64Array((1 + (j % 3)) << 18); b[0] = j; b[b.length - 1] = j * 2; return b; };
const grow = (from, to) => { for (let j = from; j < to; j++) big.push(make(j)); };
// Large-object pages of 0.8-2.4 MiB (JavaScript arrays and a string, in V8's heap: the arena serves those up to 4 MiB).
const lo = []; for (let j = 0; j < 8; j++) lo.push(new Array(100000 + j * 20000).fill(j)); lo.push('ab'.repeat(600000));
const checkLo = () => { lo.slice(0, 8).forEach((a, j) => { if (a.length !== 100000 + j * 20000 || a[0] !== j || a[a.length - 1] !== j) throw new Error('large array ' + j); });
  if (lo[8].length !== 1200000 || lo[8].slice(-4) !== 'abab') throw new Error('large string'); };
fill(400000); grow(0, 20); gc(); check(); checkLo();
setTimeout(() => { fill(200000); grow(20, 30); gc(); // then the first ten freed and made again
  big.splice(0, 10); gc(); for (let j = 9; j >= 0; j--) big.unshift(make(j)); gc(); gc(); check(); checkLo(); lo.splice(0, 4); gc(); console.log(keep.length + ' ' + big.length + ' ' + lo.length); }, 500);`;
  for (const env of [{ MALLOC_MMAP_THRESHOLD_: '8388608' }, {}] as Record<string, string>[]) {
    assert.equal(runAs('powder-node', script, env, ['--expose-gc']), '600000 30 5', JSON.stringify(env));
  }
});

/** Starts bin/powder: its node's URL, program, and whether the library is mapped into it. */
async function startPowder(env: Record<string, string | undefined>): Promise<{ url: string; loaded: boolean; exe: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'powder-prefault-node-'));
  const full: Record<string, string | undefined> = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete full[k];
  const child = spawn(join(ROOT, 'bin/powder'), ['--http-port=0', '--db-type=memdb', `--data-dir=${dir}`, '--log-display-level=off'], { env: full as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 30_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /\((http:\/\/[^)]+)\)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  const maps = readFileSync(`/proc/${child.pid}/maps`, 'utf8');
  const exe = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0')[0]!;
  return {
    url,
    exe,
    loaded: maps.includes('prefault.so'),
    stop: async () => {
      child.kill('SIGINT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('bin/powder preloads it into the single executable, not with POWDER_PREFAULT=off nor over the user\'s LD_PRELOAD', async (t) => {
  if (!existsSync(SO)) return void t.skip('no dist/prefault.so');
  const userLib = ['/lib/x86_64-linux-gnu/libm.so.6', '/usr/lib/x86_64-linux-gnu/libm.so.6', '/lib64/libm.so.6'].find((f) => existsSync(f));
  const cases: [string, Record<string, string | undefined>, boolean][] = [
    ['default', { LD_PRELOAD: undefined, POWDER_PREFAULT: undefined }, true],
    ['POWDER_PREFAULT=off', { LD_PRELOAD: undefined, POWDER_PREFAULT: 'off' }, false],
  ];
  if (userLib) cases.push(['the user\'s LD_PRELOAD', { LD_PRELOAD: userLib, POWDER_PREFAULT: undefined }, false]);
  for (const [what, env, loaded] of cases) {
    const node = await startPowder(env);
    try {
      assert.ok(node.exe.endsWith('powder-node'), `${what}: ${node.exe}`);
      assert.equal(node.loaded, loaded, what);
      assert.equal((await rpc(`${node.url}/ext/bc/dev/rpc`, 'eth_chainId', [])).result, '0xa8ca', what);
      const block = await rpc(`${node.url}/ext/bc/dev/rpc`, 'eth_getBlockByNumber', ['0x0', false]);
      assert.match(block.result.hash, /^0x[0-9a-f]{64}$/, what);
    } finally {
      await node.stop();
    }
  }
});

// dist/pagecache (native/pagecache.c): the build runs it on dist/powder-node's hot 2 MiB chunks.
const PAGECACHE = join(ROOT, 'dist/pagecache');

test('the build made dist/pagecache beside the single executable (Linux with a C compiler)', (t) => {
  if (!EXPECTED) return void t.skip('not expected here');
  assert.ok(existsSync(PAGECACHE), PAGECACHE);
});

test('pagecache reads a file\'s 2 MiB ranges back into the page cache as huge folios, which a later mapping maps whole; the bytes stay', (t) => {
  if (!existsSync(PAGECACHE)) return void t.skip('no dist/pagecache');
  // On the binary's file system (dist/), which is the one that matters.
  const file = join(ROOT, 'dist', `.pagecache-test-${process.pid}`);
  const bytes = Buffer.alloc(8 << 20);
  for (let i = 0; i < bytes.length; i += 4096) bytes.writeUInt32LE((i ^ 0x9e3779b9) >>> 0, i);
  writeFileSync(file, bytes);
  try {
    const run = (...args: string[]) => spawnSync(PAGECACHE, [file, ...args], { encoding: 'utf8' });
    const warmed = run(`0-${4 << 20}`);
    assert.equal(warmed.status, 0, warmed.stderr);
    const kib = Number(warmed.stdout.trim());
    // 4 MiB as huge pages where the kernel and the file system make such folios (Linux 6.x, ext4
    // here), none elsewhere; the check maps the whole file again and sees at least as much.
    assert.ok(kib === 0 || kib === 4096, warmed.stdout);
    if (kib === 0) t.diagnostic('no huge folios for this file system here');
    const checked = run();
    assert.equal(checked.status, 0, checked.stderr);
    assert.ok(Number(checked.stdout.trim()) >= kib, `${checked.stdout} < ${kib}`);
    assert.ok(readFileSync(file).equals(bytes));
    // A range past the file's end is left alone.
    const past = run(`${16 << 20}-${18 << 20}`);
    assert.equal(past.status, 0, past.stderr);
    // Bad input: a range not 2 MiB aligned, an empty one, a file that is not there.
    for (const bad of ['4096-8192', `${4 << 20}-${2 << 20}`, 'x']) {
      const r = run(bad);
      assert.equal(r.status, 2, bad);
      assert.match(r.stderr, /bad range/, bad);
    }
    const missing = spawnSync(PAGECACHE, [`${file}.missing`], { encoding: 'utf8' });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /No such file/);
  } finally {
    rmSync(file, { force: true });
  }
});
