// bin/powder: the node started from its start-up snapshot (scripts/snapshot.cjs, written by the
// build that `npm test` runs first) — from the single executable dist/powder-node that holds it
// (scripts/singleExecutable.mjs) and from the blob (POWDER_SEA=off) — and the cases where it must
// start from bin/powder.js instead.
// Everything a start-up snapshot could get wrong is asked of a real node here: state made per
// process (keys, hashers, randomness), node:http (absent from the snapshot while it was built),
// import() (restored functions have none of their own), packages required by name, LMDB, signals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { privateKeyToAccount } from 'viem/accounts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rpc } from './helpers.js';
import { wsClient } from './wsClient.js';
import { repoRoot } from './repoRoot.js';

const ROOT = repoRoot();
const LAUNCHER = join(ROOT, 'bin/powder');
const SEA = join(ROOT, 'dist/powder-node');
/** The build makes the single executable on Node 20 on Linux (scripts/singleExecutable.mjs reads Node 20's SEA blob). */
const SEA_EXPECTED = process.versions.node.startsWith('20.') && process.platform === 'linux';
const TIMESTAMP_VM_ID = 'tGas3T58KzdjLHhBDMnH2TvrddhqTji5iZAMZ3RXs2NLpSnhH';

interface Started {
  child: ChildProcess;
  url: string;
  nodeID: string;
  /** The command line of the node process (after the launcher's exec). */
  cmdline: string[];
  /** The program the node process runs (after the launcher's exec). */
  exe: string;
  /** What the node has written to stderr so far. */
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * Runs `program` (the launcher, or a link to it; with `via`, `via` with `program` as its first
 * argument) and waits for the banner's URL. `detached`: in a process group of its own. `cwd`: the
 * working directory (a temporary folder by default).
 */
async function launch(program: string, args: string[], env: Record<string, string | undefined> = {}, opts: { via?: string; detached?: boolean; cwd?: string } = {}): Promise<Started> {
  const fullEnv: Record<string, string | undefined> = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete fullEnv[k];
  const argv = ['--http-port=0', '--log-display-level=off', ...args];
  const child = spawn(opts.via ?? program, opts.via ? [program, ...argv] : argv, { cwd: opts.cwd ?? tmpdir(), env: fullEnv as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: opts.detached });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in 30 s: ${out} ${err}`)), 30_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /^Powder: a local Avalanche node \((http:\/\/[^)]+)\)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before its banner: ${out} ${err}`)));
  });
  const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const exe = readlinkSync(`/proc/${child.pid}/exe`);
  const nodeID = /NodeID:\s+(NodeID-\S+)/.exec(out)?.[1] ?? '';
  return { child, url, nodeID, cmdline, exe, exited, stderr: () => err };
}

async function stop(s: Started): Promise<number | null> {
  s.child.kill('SIGINT');
  return s.exited;
}

const fromSea = (s: Started) => s.exe === SEA;
const fromBlob = (s: Started) => s.exe !== SEA && s.cmdline.includes('--snapshot-blob') && !s.cmdline.some((a) => a.endsWith('powder.js'));
const fromBundle = (s: Started) => s.exe !== SEA && !s.cmdline.includes('--snapshot-blob') && s.cmdline.some((a) => a.endsWith(join('bin', 'powder.js')));
/** Started from the snapshot as bin/powder starts by default: from the single executable where the build makes one. */
const fromSnapshot = (s: Started) => (SEA_EXPECTED ? fromSea(s) : fromBlob(s));
/** The environment that makes bin/powder start from the snapshot's blob, or from the single executable. */
const BLOB = { POWDER_SEA: 'off' } as const;
const DEFAULT = {} as const;

test('the build wrote a start-up snapshot and the stamp bin/powder checks', () => {
  assert.ok(existsSync(join(ROOT, 'dist/powder.snapshot.blob')), 'dist/powder.snapshot.blob (the build prints why when it cannot make one)');
  const [ino, size, mtime, bundle] = readFileSync(join(ROOT, 'dist/powder.snapshot.node'), 'utf8').trim().split(' ');
  const node = statSync(process.execPath);
  assert.deepEqual([ino, size, mtime], [node.ino, node.size, Math.floor(node.mtimeMs / 1000)].map(String));
  // bin/powder compares the times with `test -nt` / `-ot`: the stamp carries the binary's own.
  assert.equal(statSync(join(ROOT, 'dist/powder.snapshot.node')).mtimeMs, node.mtimeMs);
  assert.equal(bundle, join(ROOT, 'dist/powder.cjs'));
  if (SEA_EXPECTED) {
    // A copy of this node with the snapshot inside, made after the blob (bin/powder compares).
    assert.ok(existsSync(SEA), 'dist/powder-node (the build prints why when it cannot make one)');
    assert.ok(statSync(SEA).mode & 0o100, 'executable');
    assert.ok(statSync(SEA).mtimeMs >= statSync(join(ROOT, 'dist/powder.snapshot.blob')).mtimeMs);
    assert.ok(statSync(SEA).size > statSync(process.execPath).size);
    for (const left of ['powder-node.tmp', 'powder.sea.blob', 'powder.sea.json', 'powder.sea.builtins.json']) assert.ok(!existsSync(join(ROOT, 'dist', left)), left);
  }
});

for (const [how, env, started] of [['the single executable', DEFAULT, fromSnapshot], ['the blob', BLOB, fromBlob]] as const) {
test(`bin/powder from the snapshot (${how}): transactions, calls, WebSocket, node:http, import() of a plugin, LMDB across a restart`, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-snap-'));
  const pluginDir = join(dataDir, 'plugins');
  mkdirSync(pluginDir);
  const args = [`--data-dir=${dataDir}`, '--api-admin-enabled=true', `--plugin-dir=${pluginDir}`];
  // A NODE_EXTRA_CA_CERTS that Node.js would warn about at start had it read it (bin/powder sets it aside).
  const caFile = join(dataDir, 'no-such-ca.pem');
  let s = await launch(LAUNCHER, args, { ...env, NODE_EXTRA_CA_CERTS: caFile });
  try {
    assert.ok(started(s), `${s.exe} ${s.cmdline.join(' ')}`);
    const chain = `${s.url}/ext/bc/dev/rpc`;
    assert.equal((await rpc(chain, 'eth_chainId', [])).result, '0xa8ca');

    // A block is built, hashed and stored (keccak, the state trie, LMDB) and seen over WebSocket.
    const ws = await wsClient(`${s.url.replace(/^http/, 'ws')}/ext/bc/dev/ws`);
    try {
      const sub = await ws.request('eth_subscribe', ['newHeads']);
      assert.match(sub.result, /^0x[0-9a-f]+$/);
      const from = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'; // the dev chain's first funded account
      const hash = (await rpc(chain, 'eth_sendTransaction', [{ from, to: '0x00000000000000000000000000000000000000aa', value: '0x2a' }])).result;
      const receipt = (await rpc(chain, 'eth_getTransactionReceipt', [hash])).result;
      assert.equal(receipt.status, '0x1');
      const head = await ws.notification(sub.result);
      assert.equal(head.params.result.hash, receipt.blockHash);
      const block = (await rpc(chain, 'eth_getBlockByHash', [receipt.blockHash, false])).result;
      assert.deepEqual(block.transactions, [hash]);
    } finally {
      ws.close();
    }
    assert.equal((await rpc(chain, 'eth_getBalance', ['0x00000000000000000000000000000000000000aa', 'latest'])).result, '0x2a');
    // keccak256("") through web3_sha3: the per-process hasher works.
    assert.equal((await rpc(chain, 'web3_sha3', ['0x'])).result, '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');

    // A plain GET goes through node:http (which the snapshot could not hold).
    const health = await fetch(`${s.url}/ext/health`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { healthy: boolean }).healthy, true);

    // admin.loadVMs imports the plugin file: import() from a restored process. The plugin also
    // reports what code in the node's process sees: not the NODE_OPTIONS bin/powder gives the
    // single executable (the processes it starts would inherit it), and its arguments.
    const report = join(dataDir, 'plugin-saw.json');
    writeFileSync(
      join(pluginDir, `${TIMESTAMP_VM_ID}.js`),
      `import { writeFileSync } from 'node:fs';\n` +
        `writeFileSync(${JSON.stringify(report)}, JSON.stringify({ NODE_OPTIONS: process.env.NODE_OPTIONS ?? null, NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? null, setAside: process.env.POWDER_SET_ASIDE_EXTRA_CA_CERTS ?? null, args: process.argv.slice(-3) }));\n` +
        `export { default } from ${JSON.stringify(pathToFileURL(join(ROOT, 'examples/timestampvm', `${TIMESTAMP_VM_ID}.js`)).href)};\n`,
    );
    const loaded = await rpc(`${s.url}/ext/admin`, 'admin.loadVMs', {});
    assert.deepEqual(loaded.result, { newVMs: { [TIMESTAMP_VM_ID]: [] } });
    assert.deepEqual(JSON.parse(readFileSync(report, 'utf8')), { NODE_OPTIONS: null, NODE_EXTRA_CA_CERTS: caFile, setAside: null, args });
    assert.doesNotMatch(s.stderr(), /extra certs/i, 'Node.js did not read NODE_EXTRA_CA_CERTS');
    const log = readFileSync(join(dataDir, 'logs/vm-factory.log'), 'utf8'); // the registry's logger, as AvalancheGo names it
    assert.match(log, new RegExp(`INFO vms/registry\\.ts:\\d+ NODE_EXTRA_CA_CERTS was not loaded at start: .*POWDER_EXTRA_CA_CERTS=load.*"file": "${caFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`));

    assert.equal(await stop(s), 0, 'SIGINT stops it cleanly');
    s = await launch(LAUNCHER, args, env);
    assert.ok(started(s));
    assert.equal((await rpc(`${s.url}/ext/bc/dev/rpc`, 'eth_blockNumber', [])).result, '0x1', 'the chain was kept in LMDB');
    assert.equal((await rpc(`${s.url}/ext/bc/dev/rpc`, 'eth_getBalance', ['0x00000000000000000000000000000000000000aa', 'latest'])).result, '0x2a');
  } finally {
    await stop(s);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
}

test('bin/powder from the snapshot in another project\'s folder: the packages it loads on first use are its own', async () => {
  // A Hardhat project has its own micro-eth-signer (an older one); a restored process's import()
  // resolved package names from the working directory and loaded it (eth_signTypedData_v4 failed
  // with "signTyped is not a function", the KZG precompile with a missing export) or, in a folder
  // without node_modules, found nothing.
  const project = mkdtempSync(join(tmpdir(), 'powder-snap-cwd-'));
  const decoy = join(project, 'node_modules', 'micro-eth-signer');
  mkdirSync(decoy, { recursive: true });
  writeFileSync(join(decoy, 'package.json'), JSON.stringify({ name: 'micro-eth-signer', version: '0.0.1', type: 'module', exports: { '.': './index.js' } }));
  writeFileSync(join(decoy, 'index.js'), 'throw new Error("the project\'s micro-eth-signer was loaded");\n');
  const s = await launch(LAUNCHER, [`--data-dir=${join(project, 'data')}`], {}, { cwd: project });
  try {
    assert.ok(fromSnapshot(s), s.cmdline.join(' '));
    const chain = `${s.url}/ext/bc/dev/rpc`;
    const typed = {
      types: { EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'chainId', type: 'uint256' }], Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      domain: { name: 'Test', chainId: 43210 },
      message: { contents: 'hi' },
    } as const;
    const want = await privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80').signTypedData(typed as never);
    const signed = await rpc(chain, 'eth_signTypedData_v4', ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', typed]);
    assert.equal(signed.result, want, JSON.stringify(signed));
    // The point-evaluation precompile's KZG (micro-eth-signer/kzg.js) loads on its first call:
    // an input that parses but does not verify fails the call with geth's text for it.
    const bad = await rpc(chain, 'eth_call', [{ to: '0x000000000000000000000000000000000000000a', data: '0x01' + '00'.repeat(191) }, 'latest']);
    assert.ok(bad.error && !/micro-eth-signer|exports|Cannot find/.test(bad.error.message), JSON.stringify(bad));
  } finally {
    await stop(s);
    rmSync(project, { recursive: true, force: true });
  }
});

test('bin/powder from the snapshot: every process makes its own node identity', async () => {
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'powder-snap-id-')));
  const started: Started[] = [];
  try {
    for (const d of dirs) started.push(await launch(LAUNCHER, [`--data-dir=${d}`, '--db-type=memdb']));
    assert.ok(started.every(fromSnapshot));
    assert.match(started[0]!.nodeID, /^NodeID-/);
    assert.notEqual(started[0]!.nodeID, started[1]!.nodeID);
    const ids = await Promise.all(started.map(async (s) => (await rpc(`${s.url}/ext/info`, 'info.getNodeID', {})).result.nodePOP.publicKey));
    assert.notEqual(ids[0], ids[1], 'BLS keys differ');
  } finally {
    for (const s of started) await stop(s);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});

test('bin/powder\'s log lines name the TypeScript source that logged them, not the bundle\'s line, from the snapshot and from the code cache', async () => {
  // src/node/node.ts logs 'node started' (the line the build's table maps the call to).
  const line = readFileSync(join(ROOT, 'src/node/node.ts'), 'utf8').split('\n').findIndex((l) => l.includes("log.info('node started'")) + 1;
  assert.ok(line > 0);
  // The two loaders wrap the bundle's text alike today; the table finds its shift either way.
  for (const [env, started] of [[DEFAULT, fromSnapshot], [BLOB, fromBlob], [{ POWDER_SNAPSHOT: 'off' }, fromBundle]] as const) {
    const dataDir = mkdtempSync(join(tmpdir(), 'powder-log-caller-'));
    const s = await launch(LAUNCHER, [`--data-dir=${dataDir}`, '--db-type=memdb'], env);
    try {
      assert.ok(started(s), JSON.stringify(env));
      const log = readFileSync(join(dataDir, 'logs/main.log'), 'utf8');
      assert.match(log, new RegExp(`INFO node/node\\.ts:${line} node started `));
      assert.match(log, /INFO chains\/manager\.ts:\d+ created chain /);
      assert.doesNotMatch(log, /powder\.cjs:/);
    } finally {
      await stop(s);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
});

test('an LMDB start from the snapshot takes bin/loadBundle.cjs from the snapshot, not from the CommonJS loader', async () => {
  // The snapshot's command line as bin/powder builds it, with a preload that reports, at exit,
  // which of the process's CommonJS modules came from files.
  const dirs = [mkdtempSync(join(tmpdir(), 'powder-loadbundle-')), mkdtempSync(join(tmpdir(), 'powder-loadbundle-'))];
  const probe = await launch(LAUNCHER, ['--db-type=memdb', `--data-dir=${dirs[0]}`], BLOB);
  await stop(probe);
  assert.ok(fromBlob(probe), probe.cmdline.join(' '));
  const preload = join(dirs[1], 'report.cjs');
  writeFileSync(preload, "process.on('exit', () => process.stderr.write('REQUIRED ' + JSON.stringify(Object.keys(require.cache)) + '\\n'));\n");
  const at = probe.cmdline.indexOf('--snapshot-blob');
  const nodeArgs = [...probe.cmdline.slice(1, at), '--require', preload, ...probe.cmdline.slice(at, probe.cmdline.indexOf('--') + 1)];
  const launcher = join(dirs[1], 'powder-with-report');
  writeFileSync(launcher, `#!/bin/sh\nexec ${[probe.cmdline[0]!, ...nodeArgs].map((a) => `'${a}'`).join(' ')} "$@"\n`, { mode: 0o755 });
  const s = await launch(launcher, [`--data-dir=${join(dirs[1], 'data')}`, '--db-type=lmdb']);
  try {
    assert.equal((await rpc(`${s.url}/ext/bc/dev/rpc`, 'eth_chainId', [])).result, '0xa8ca');
    let err = '';
    s.child.stderr!.on('data', (d) => (err += d));
    await stop(s);
    const required = JSON.parse(/REQUIRED (.*)/.exec(err)?.[1] ?? 'null') as string[] | null;
    assert.ok(required, err);
    assert.ok(required.includes(preload), 'the report sees the CommonJS cache');
    assert.deepEqual(required.filter((f) => f.endsWith('loadBundle.cjs')), []);
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});

test('a start from the snapshot, stdout a file, compiles no built-in module that the blob keeps no code cache for', async () => {
  // The blob keeps the code cache of the built-in modules a start loads that the snapshot does not
  // hold (scripts/bundle.mjs codeCacheToKeep); any other would compile from its source. A preload
  // reports the modules loaded before the node's main and those loaded by its exit, after a start
  // whose stdout is a file (the bench's case) and one request.
  const dir = mkdtempSync(join(tmpdir(), 'powder-builtins-'));
  try {
    const probe = await launch(LAUNCHER, ['--db-type=memdb', `--data-dir=${join(dir, 'probe')}`], BLOB);
    await stop(probe);
    assert.ok(fromBlob(probe), probe.cmdline.join(' '));
    const preload = join(dir, 'report.cjs');
    writeFileSync(
      preload,
      "const fs = require('node:fs'); const before = [...process.moduleLoadList];\n" +
        "process.on('exit', () => fs.writeSync(2, 'LOADED ' + JSON.stringify({ before, after: process.moduleLoadList }) + '\\n'));\n",
    );
    const at = probe.cmdline.indexOf('--snapshot-blob');
    const nodeArgs = [...probe.cmdline.slice(1, at), '--require', preload, ...probe.cmdline.slice(at, probe.cmdline.indexOf('--') + 1)];
    const out = join(dir, 'stdout.txt');
    const fd = openSync(out, 'w');
    const child = spawn(probe.cmdline[0]!, [...nodeArgs, '--http-port=0', '--db-type=memdb', `--data-dir=${join(dir, 'data')}`], { stdio: ['ignore', fd, 'pipe'] });
    closeSync(fd);
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let url: string | undefined;
    for (let i = 0; i < 600 && !url; i++) {
      url = /^Powder: a local Avalanche node \((http:\/\/[^)]+)\)$/m.exec(readFileSync(out, 'utf8'))?.[1];
      if (!url) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(url, `no banner: ${readFileSync(out, 'utf8')} ${err}`);
    assert.equal((await rpc(`${url}/ext/bc/dev/rpc`, 'eth_chainId', [])).result, '0xa8ca');
    child.kill('SIGINT');
    await exited;
    const loaded = JSON.parse(/LOADED (.*)/.exec(err)?.[1] ?? 'null') as { before: string[]; after: string[] } | null;
    assert.ok(loaded, err);
    const held = new Set(loaded.before);
    const compiled = loaded.after.filter((m) => !held.has(m) && m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
    const { readBuiltinCodeCache } = (await import(pathToFileURL(join(ROOT, 'scripts/snapshotCodeCache.mjs')).href)) as { readBuiltinCodeCache: (blob: Buffer) => { entries: { id: string }[] } | undefined };
    const cached = new Set(readBuiltinCodeCache(readFileSync(join(ROOT, 'dist/powder.snapshot.blob')))?.entries.map((e) => e.id) ?? []);
    assert.ok(compiled.includes('http'), `node:http loads after the restore: ${compiled.join(', ')}`);
    assert.deepEqual(compiled.filter((id) => !cached.has(id)), [], `loaded after the restore: ${compiled.join(', ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bin/powder caps glibc\'s malloc arenas at two and sets its mmap threshold to 8 MiB unless the user chose, and from the snapshot V8\'s semi-spaces up to 8 MiB (from the blob from 2 MiB) and its scavenges on the main thread', async () => {
  const environ = (s: Started, name: string) => new RegExp(`(?:^|\\0)${name}=([^\\0]*)`).exec(readFileSync(`/proc/${s.child.pid}/environ`, 'utf8'))?.[1];
  const cases = [
    [{ MALLOC_ARENA_MAX: undefined, MALLOC_MMAP_THRESHOLD_: undefined }, '2', '8388608'],
    [{ MALLOC_ARENA_MAX: '8', MALLOC_MMAP_THRESHOLD_: '131072' }, '8', '131072'],
    [{ MALLOC_ARENA_MAX: undefined, MALLOC_MMAP_THRESHOLD_: undefined, ...BLOB }, '2', '8388608'],
    [{ MALLOC_ARENA_MAX: undefined, MALLOC_MMAP_THRESHOLD_: undefined, POWDER_SNAPSHOT: 'off' }, '2', '8388608'],
  ] as const;
  for (const [env, arenas, mmapThreshold] of cases) {
    const dataDir = mkdtempSync(join(tmpdir(), 'powder-arena-'));
    const s = await launch(LAUNCHER, ['--db-type=memdb', `--data-dir=${dataDir}`], env);
    try {
      assert.equal(environ(s, 'MALLOC_ARENA_MAX'), arenas, JSON.stringify(env));
      assert.equal(environ(s, 'MALLOC_MMAP_THRESHOLD_'), mmapThreshold, JSON.stringify(env));
      const what = `${JSON.stringify(env)}: ${s.exe} ${s.cmdline.join(' ')}`;
      assert.equal(fromBundle(s), 'POWDER_SNAPSHOT' in env, what);
      assert.equal(fromBlob(s), 'POWDER_SEA' in env || (!SEA_EXPECTED && !('POWDER_SNAPSHOT' in env)), what);
      // A heap-size flag cannot be set from JavaScript: only the blob's command line has them; the
      // single executable, which takes no V8 flags on its command line, gets the cap (the one heap
      // flag NODE_OPTIONS may carry) from there and sets --no-parallel-scavenge itself.
      assert.equal(s.cmdline.includes('--max-semi-space-size=8'), fromBlob(s), what);
      assert.equal(s.cmdline.includes('--min-semi-space-size=2'), fromBlob(s), what);
      assert.equal(environ(s, 'NODE_OPTIONS'), fromSea(s) ? '--max-semi-space-size=8' : undefined, what);
      // bin/powder.js sets this one from JavaScript; the blob needs it on its command line.
      assert.equal(s.cmdline.includes('--no-parallel-scavenge'), fromBlob(s), what);
    } finally {
      await stop(s);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
});

test('bin/powder starts Node.js without NODE_EXTRA_CA_CERTS unless POWDER_EXTRA_CA_CERTS=load, from the single executable, the blob and bin/powder.js', async () => {
  const environ = (s: Started) => readFileSync(`/proc/${s.child.pid}/environ`, 'utf8').split('\0');
  for (const how of [DEFAULT, BLOB, { POWDER_SNAPSHOT: 'off' }]) {
    for (const load of [false, true]) {
      const dataDir = mkdtempSync(join(tmpdir(), 'powder-extra-ca-'));
      const caFile = join(dataDir, 'no-such-ca.pem');
      const what = `${JSON.stringify(how)} ${load ? 'load' : 'default'}`;
      const s = await launch(LAUNCHER, [`--data-dir=${dataDir}`, '--db-type=memdb'], { ...how, NODE_EXTRA_CA_CERTS: caFile, POWDER_EXTRA_CA_CERTS: load ? 'load' : undefined });
      try {
        assert.equal((await rpc(`${s.url}/ext/bc/dev/rpc`, 'eth_chainId', [])).result, '0xa8ca', what);
        const vars = environ(s);
        assert.equal(vars.includes(`NODE_EXTRA_CA_CERTS=${caFile}`), load, what);
        assert.equal(vars.includes(`POWDER_SET_ASIDE_EXTRA_CA_CERTS=${caFile}`), !load, what);
        // Node.js warns at start when the file it was given cannot be read: only when it read it.
        assert.equal(/Warning: Ignoring extra certs from/.test(s.stderr()), load, `${what}: ${s.stderr()}`);
      } finally {
        await stop(s);
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
});

test('bin/powder starts from bin/powder.js with NODE_OPTIONS (V8 flags must match a snapshot) or POWDER_SNAPSHOT=off', async () => {
  for (const env of [{ NODE_OPTIONS: '--max-old-space-size=512' }, { POWDER_SNAPSHOT: 'off' }]) {
    const dataDir = mkdtempSync(join(tmpdir(), 'powder-snap-off-'));
    const s = await launch(LAUNCHER, [`--data-dir=${dataDir}`, '--db-type=memdb'], env);
    try {
      assert.ok(fromBundle(s), `${JSON.stringify(env)}: ${s.cmdline.join(' ')}`);
      assert.equal((await rpc(`${s.url}/ext/bc/dev/rpc`, 'eth_chainId', [])).result, '0xa8ca');
    } finally {
      await stop(s);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
});

test('the bundles\' lmdb: the platform package\'s binary, or with LMDB_PREBUILD the package\'s own loader; from the snapshot and from bin/powder.js', async () => {
  const lmdbDir = join(ROOT, 'node_modules/lmdb');
  const platformDir = join(ROOT, 'node_modules/@lmdb', `lmdb-linux-${process.arch}`);
  const prebuildDir = mkdtempSync(join(tmpdir(), 'powder-lmdb-prebuild-'));
  mkdirSync(join(prebuildDir, 'prebuilds', `linux-${process.arch}`), { recursive: true });
  const copied = join(prebuildDir, 'prebuilds', `linux-${process.arch}`, 'node.napi.glibc.node');
  copyFileSync(join(platformDir, 'node.napi.glibc.node'), copied);
  const cases = [
    { env: {}, binary: join(platformDir, `node.abi${process.versions.modules}.glibc.node`) },
    { env: { LMDB_PREBUILD: prebuildDir }, binary: copied },
  ];
  try {
    assert.ok(existsSync(lmdbDir));
    for (const { env, binary } of cases) {
      for (const snapshot of [true, false]) {
        const dataDir = mkdtempSync(join(tmpdir(), 'powder-lmdb-'));
        const s = await launch(LAUNCHER, [`--data-dir=${dataDir}`], { ...env, POWDER_SNAPSHOT: snapshot ? undefined : 'off' });
        const what = `${JSON.stringify(env)} ${snapshot ? 'snapshot' : 'bin/powder.js'}`;
        try {
          assert.equal(snapshot ? fromSnapshot(s) : fromBundle(s), true, what);
          const maps = readFileSync(`/proc/${s.child.pid}/maps`, 'utf8');
          const lmdbBinaries = [...new Set(maps.split('\n').map((l) => l.split(/\s+/)[5]).filter((f) => f && /lmdb.*\.node$/.test(f)))];
          assert.deepEqual(lmdbBinaries, [binary], what);
          const chain = `${s.url}/ext/bc/dev/rpc`;
          assert.equal((await rpc(chain, 'evm_mine', [])).result, '0x0');
          assert.equal((await rpc(chain, 'eth_blockNumber', [])).result, '0x1', what);
        } finally {
          await stop(s);
          rmSync(dataDir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    rmSync(prebuildDir, { recursive: true, force: true });
  }
});

test('bin/powder through a link (npm\'s node_modules/.bin) uses the snapshot; a copy of the package elsewhere does not', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-snap-pkg-'));
  const started: Started[] = [];
  try {
    // npm links the bin into node_modules/.bin.
    mkdirSync(join(dir, '.bin'));
    symlinkSync(LAUNCHER, join(dir, '.bin', 'powder'));
    started.push(await launch(join(dir, '.bin', 'powder'), [`--data-dir=${join(dir, 'd1')}`, '--db-type=memdb']));
    assert.ok(fromSnapshot(started[0]!), started[0]!.cmdline.join(' '));

    // The package copied (bin, dist, package.json, its node_modules linked): the snapshot names
    // the bundle it was built from, so the copy starts from its own bundle.
    const copy = join(dir, 'copy');
    for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(copy, part), { recursive: true, preserveTimestamps: true, filter: (f) => f !== SEA });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    started.push(await launch(join(copy, 'bin/powder'), [`--data-dir=${join(dir, 'd2')}`, '--db-type=memdb']));
    assert.ok(fromBundle(started[1]!), started[1]!.cmdline.join(' '));
    assert.equal(started[1]!.cmdline[1], join(copy, 'bin/powder.js'));
    assert.equal((await rpc(`${started[1]!.url}/ext/bc/dev/rpc`, 'eth_chainId', [])).result, '0xa8ca');
  } finally {
    for (const s of started) await stop(s);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('npm start\'s launcher (scripts/start.cjs) runs bin/powder, and Ctrl+C stops both with the node\'s exit code', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-npm-start-'));
  // Its own process group, as a terminal's foreground job: Ctrl+C signals every process in it.
  const s = await launch(join(ROOT, 'scripts/start.cjs'), ['--db-type=memdb', `--data-dir=${dataDir}`], {}, { via: process.execPath, detached: true });
  try {
    const [child] = readFileSync(`/proc/${s.child.pid}/task/${s.child.pid}/children`, 'utf8').trim().split(/\s+/);
    const cmdline = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0');
    const exe = readlinkSync(`/proc/${child}/exe`);
    assert.ok((SEA_EXPECTED ? exe === SEA : cmdline.includes('--snapshot-blob')) && cmdline.includes(`--data-dir=${dataDir}`), `${exe} ${cmdline.join(' ')}`);
    assert.equal((await rpc(`${s.url}/ext/bc/dev/rpc`, 'eth_chainId', [])).result, '0xa8ca');
    process.kill(-s.child.pid!, 'SIGINT');
    assert.equal(await s.exited, 0);
    assert.ok(!existsSync(`/proc/${child}/cmdline`) || readFileSync(`/proc/${child}/cmdline`, 'utf8') === '', 'the node has exited');
  } finally {
    try {
      process.kill(-s.child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});
