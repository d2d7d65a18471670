// The command line, through the real binary: `node bin/powder.js` (needs the tsc build in dist/,
// which `npm test` makes first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './repoRoot.js';

const ROOT = repoRoot();
const BIN = join(ROOT, 'bin/powder.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion (for inputs that must stop the start). */
function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A data dir per test, so no run touches ~/.powder. */
function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'powder-cli-'));
}

const BAD_INPUTS: [string, string[], Record<string, string>, RegExp][] = [
  ['unknown flag', ['--http-prot=9650'], {}, /--http-prot/],
  ['bad port value (= form)', ['--http-port=abc'], {}, /"--http-port"/],
  ['bad port value (space form)', ['--http-port', '99999'], {}, /"--http-port".*out of range/],
  ['bad bool', ['--api-admin-enabled=yes please'], {}, /"--api-admin-enabled"/],
  ['bad duration', ['--health-check-frequency', '5 minutes'], {}, /"--health-check-frequency"/],
  ['bad log level', ['--log-level=loud'], {}, /"--log-level"/],
  ['bad network', ['--network-id=moon'], {}, /--network-id/],
  ['bad db type', ['--db-type=leveldb'], {}, /--db-type/],
  ['bad environment variable', [], { AVAGO_HTTP_PORT: 'eighty' }, /AVAGO_HTTP_PORT/],
  ['missing config file', ['--config-file=/nonexistent/powder.json'], {}, /--config-file.*\/nonexistent\/powder\.json/],
  ['bad config-file-content', ['--config-file-content=bm90IGpzb24='], {}, /--config-file-content/],
  ['positional argument', ['start'], {}, /"start"/],
];

for (const [what, args, env, names] of BAD_INPUTS) {
  test(`CLI: ${what} → one line on stderr naming it, exit code 1`, async () => {
    const dir = tempDir();
    try {
      const r = await run([`--data-dir=${dir}`, ...args], env);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, '');
      const lines = r.stderr.split('\n');
      assert.equal(lines.length, 2, `one line: ${JSON.stringify(r.stderr)}`);
      assert.equal(lines[1], '');
      assert.match(lines[0], /^powder: /);
      assert.match(lines[0], names);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('CLI: a config file with a bad value names the file and the key', async () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ 'http-port': 'x', 'log-level': 'debug' }));
    const r = await run([`--data-dir=${dir}`, '--config-file', file]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^powder: invalid value "x" for "http-port" in config file .*config\.json: .*\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('CLI: a chain config.json that fails keeps its cause, also when the file ends with a newline (the quoted bytes span lines)', async () => {
  const dir = tempDir();
  try {
    mkdirSync(join(dir, 'chains', 'dev'), { recursive: true });
    writeFileSync(join(dir, 'chains', 'dev', 'config.json'), '{"tx-pool-lifetime":"soon"}\n');
    const r = await run([`--data-dir=${dir}`, '--db-type=memdb', `--chain-config-dir=${join(dir, 'chains')}`]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'powder: failed to unmarshal config {"tx-pool-lifetime":"soon"}\n: time: invalid duration "soon"\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('CLI: a port in use is one clear line', async () => {
  const dir = tempDir();
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  const port = (blocker.address() as { port: number }).port;
  try {
    const r = await run([`--data-dir=${dir}`, `--http-port=${port}`, '--log-display-level=off']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `powder: --http-port ${port} is already in use (127.0.0.1:${port}); pick another port or --http-port=0\n`);
  } finally {
    blocker.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('CLI: --help lists every flag; --version prints the version', async () => {
  const help = await run(['--help']);
  assert.equal(help.code, 0);
  for (const f of ['--http-port', '--data-dir', '--chains-file', '--http-max-body-size', '--config-file']) assert.ok(help.stdout.includes(f), f);
  const v = await run(['--version']);
  assert.equal(v.stdout, 'avalanchego/1.14.2 (powder)\n');
});

/** Starts the CLI and resolves once it printed its banner: its URL, what it printed, a stop function. */
async function startCLI(args: string[], env: Record<string, string> = {}): Promise<{ url: string; stdout: string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.on('close', r));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      if (/RPC: +http/.test(stdout)) resolve();
    });
    child.on('close', () => reject(new Error(`exited early: ${stderr}`)));
  });
  const url = /^Powder: a local Avalanche node \((https?:\/\/127\.0\.0\.1:\d+)\)$/m.exec(stdout)![1];
  return {
    url,
    stdout,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

test('CLI: starts from flags, env and a config file; prints the banner once; serves; stops on SIGTERM', async () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ 'api-admin-enabled': true, 'log-display-level': 'off' }));
    const { url, stdout, stop } = await startCLI(['--data-dir', dir, '--http-port', '0', `--config-file=${file}`], { AVAGO_NETWORK_ID: 'network-4242' });
    assert.match(stdout, /^Powder: a local Avalanche node \(http:\/\/127\.0\.0\.1:\d+\)$/m);
    assert.equal(stdout.match(/^Powder: /gm)!.length, 1, 'banner printed once');
    const nodeID = /^ {2}NodeID: +(NodeID-\S+)$/m.exec(stdout)?.[1];
    assert.match(stdout, new RegExp(`^  data dir: +${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    assert.match(stdout, /^ {2}network: +network-4242 \(4242\)$/m);
    assert.match(stdout, /^Chain dev$/m);
    assert.match(stdout, /^ {2}ID: +[1-9A-HJ-NP-Za-km-z]{49,50}$/m);
    assert.match(stdout, new RegExp(`^  RPC: +${url}/ext/bc/dev/rpc$`, 'm'));
    const post = (path: string, method: string) =>
      fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }) }).then((r) => r.json() as Promise<any>);
    assert.equal((await post('/ext/info', 'info.getNodeID')).result.nodeID, nodeID);
    assert.equal((await post('/ext/info', 'info.getNetworkID')).result.networkID, '4242');
    assert.deepEqual((await post('/ext/admin', 'admin.getChainAliases')).error?.code, -32000, 'admin enabled by the config file');
    assert.equal(await stop(), 0);
    await assert.rejects(fetch(url + '/ext/info'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('CLI with its code cache: what loads on first use (profilers, HTTPS) still loads', async () => {
  const dir = tempDir();
  const running: { stop: () => Promise<number | null> }[] = [];
  const start = async (args: string[]) => {
    const n = await startCLI(args);
    running.push(n);
    return n;
  };
  try {
    // The first start makes the plain code cache if the build has not (after a second of running).
    const first = await start(['--data-dir', dir, '--http-port', '0', '--db-type', 'memdb', '--log-display-level', 'off']);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(await first.stop(), 0);
    const { url, stop } = await start(['--data-dir', dir, '--http-port', '0', '--db-type', 'memdb', '--api-admin-enabled', '--log-display-level', 'off']);
    const admin = (method: string) =>
      fetch(url + '/ext/admin', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }) }).then((r) => r.json() as Promise<any>);
    // node:inspector is imported by the first profile: from the cached bundle this failed with
    // "A dynamic import callback was not specified".
    assert.deepEqual(await admin('admin.startCPUProfiler'), { jsonrpc: '2.0', result: {}, id: 1 });
    assert.deepEqual(await admin('admin.stopCPUProfiler'), { jsonrpc: '2.0', result: {}, id: 1 });
    assert.deepEqual(await admin('admin.memoryProfile'), { jsonrpc: '2.0', result: {}, id: 1 });
    assert.ok(existsSync(join(dir, 'profiles', 'cpu.profile')) && existsSync(join(dir, 'profiles', 'mem.profile')));
    assert.equal(await stop(), 0);
    // HTTPS (node:https, imported when TLS is on).
    const { generateKeyPairSync } = await import('node:crypto');
    const { selfSignedCertificate } = await import('../src/node/certificate.js');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(join(dir, 'key.pem'), privateKey.export({ format: 'pem', type: 'pkcs8' }) as string);
    writeFileSync(join(dir, 'cert.pem'), selfSignedCertificate(privateKey));
    const tls = await start(['--data-dir', dir, '--http-port', '0', '--db-type', 'memdb', '--log-display-level', 'off', '--http-tls-enabled', `--http-tls-key-file=${join(dir, 'key.pem')}`, `--http-tls-cert-file=${join(dir, 'cert.pem')}`]);
    assert.match(tls.url, /^https:/);
    const https = await import('node:https');
    const chainId = await new Promise<string>((resolve, reject) => {
      const req = https.request(tls.url + '/ext/bc/dev/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, rejectUnauthorized: false }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(JSON.parse(text).result));
      });
      req.on('error', reject);
      req.end('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}');
    });
    assert.equal(chainId, '0xa8ca');
    assert.equal(await tls.stop(), 0);
  } finally {
    await Promise.all(running.map((n) => n.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
});
