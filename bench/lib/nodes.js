// The nodes under test, each started directly as a child process on a free loopback port, and
// their memory read from /proc. Every node gets the same chain id and the same funded mnemonic.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import http from 'node:http';
import { mkdtempSync, openSync, closeSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

export const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT_DIR = join(BENCH_DIR, '..');
export const MNEMONIC = 'test test test test test test test test test test test junk';
/** The peers' chain id when Powder is not measured; otherwise Powder's answer is used, so one set of signed txs fits all. */
export const DEFAULT_CHAIN_ID = 43214;

/**
 * Variables taken out of every node's environment, the same for all four. NODE_EXTRA_CA_CERTS makes
 * each Node.js process read and parse that certificate file before any of its code runs; this
 * machine's environment points it at the system's 220 KB CA bundle, ~55 ms of every start of a
 * Node-based node (Hardhat, Ganache, Powder) and none of Anvil's. No node here makes a TLS
 * connection. `run.js --keep-env` starts the nodes with the environment as it is (since session 45
 * Powder's bin/powder sets the variable aside for Node's start itself; Hardhat and Ganache pay it).
 */
export const DROPPED_ENV = ['NODE_EXTRA_CA_CERTS'];
/** Of DROPPED_ENV, the variables this environment sets (what a run actually drops). */
export const droppedEnvHere = () => DROPPED_ENV.filter((k) => process.env[k] !== undefined);
/** This process's environment for a child: without DROPPED_ENV unless `keepEnv`, plus `extra`. */
export function childEnv(keepEnv, extra = {}) {
  const env = { ...process.env, ...extra };
  if (!keepEnv) for (const k of DROPPED_ENV) delete env[k];
  return env;
}

const ANVIL_BIN = join(BENCH_DIR, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil');
const HARDHAT_CLI = join(BENCH_DIR, 'node_modules/hardhat/internal/cli/cli.js');
const GANACHE_CLI = join(BENCH_DIR, 'node_modules/ganache/dist/node/cli.js');
/**
 * The Powder build measured by default: this checkout's bin/powder, the command users run (npm's
 * bin), which starts the node from its start-up snapshot (run.js --powder=<path> picks another;
 * a path to a bin/powder.js is run with node, i.e. without the snapshot).
 */
export const DEFAULT_POWDER_BIN = join(ROOT_DIR, 'bin/powder');
/** The package root a powder bin belongs to (bin/powder → its parent folder); Powder runs with it as cwd. */
export const powderRootOf = (bin) => join(dirname(bin), '..');

/** How to start each node: program, arguments, JSON-RPC path. `opts.powderBin`: the Powder build to run. */
export const NODE_KINDS = {
  anvil: {
    label: 'Anvil',
    rpcPath: '/',
    command: (port, _dataDir, chainId) => [ANVIL_BIN, ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--balance', '1000000']],
  },
  hardhat: {
    label: 'Hardhat',
    rpcPath: '/',
    // chain id: BENCH_CHAIN_ID in the environment, read by hardhat.config.cjs
    command: (port) => [
      process.execPath,
      [HARDHAT_CLI, 'node', '--hostname', '127.0.0.1', '--port', String(port), '--config', join(BENCH_DIR, 'hardhat.config.cjs')],
    ],
  },
  ganache: {
    label: 'Ganache',
    rpcPath: '/',
    command: (port, _dataDir, chainId) => [
      process.execPath,
      [
        GANACHE_CLI,
        '--server.host', '127.0.0.1',
        '--server.port', String(port),
        '--chain.chainId', String(chainId),
        '--wallet.mnemonic', MNEMONIC,
        '--wallet.defaultBalance', '1000000',
      ],
    ],
  },
  powder: {
    label: 'Powder',
    rpcPath: '/ext/bc/dev/rpc',
    // `powderNodeFlags`: Node.js/V8 flags for a bin/powder.js (a bin/powder from the snapshot has its own).
    command: (port, dataDir, _chainId, { powderBin = DEFAULT_POWDER_BIN, powderDb = 'memdb', powderNodeFlags = [] } = {}) => {
      const args = [`--http-port=${port}`, `--db-type=${powderDb}`, `--data-dir=${dataDir}`, '--api-admin-enabled=true'];
      return powderBin.endsWith('.js') ? [process.execPath, [...powderNodeFlags, powderBin, ...args]] : [powderBin, args];
    },
  },
};

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const CHAIN_ID_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });

/** One eth_chainId on a fresh connection; resolves with the answer's `result` or rejects. */
function probeChainId(port, path) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', agent: false, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          // The HTTP server is up but the chain's route is not there yet (a node mounts a chain's
          // handlers once the chain is created, as AvalancheGo does): not an answer yet.
          if (res.statusCode === 404) return reject(new Error('eth_chainId: HTTP 404, the chain is not mounted yet'));
          try {
            const msg = JSON.parse(Buffer.concat(chunks).toString());
            if (msg.result !== undefined) resolve(msg.result);
            else reject(Object.assign(new Error(`eth_chainId answered ${JSON.stringify(msg.error ?? msg)}`), { answered: true }));
          } catch (e) {
            reject(Object.assign(new Error(`eth_chainId: HTTP ${res.statusCode}, unparsable answer`), { answered: true }));
          }
        });
      },
    );
    req.setTimeout(2000, () => req.destroy(new Error('probe timeout')));
    req.on('error', reject);
    req.end(CHAIN_ID_BODY);
  });
}

/**
 * Starts a node and waits for its first answered eth_chainId (asked every `probeEveryMs`, each time
 * on a fresh connection).
 * @returns {Promise<RunningNode>} with `startMs` = spawn → first answer, `rssAtStart` (bytes),
 * `faultsAtStart` (minor page faults to then).
 */
export async function startNode(kind, { logDir, chainId = DEFAULT_CHAIN_ID, readyTimeoutMs = 60_000, powderBin = DEFAULT_POWDER_BIN, powderDb = 'memdb', powderNodeFlags = [], keepEnv = false, probeEveryMs = 10, dataDir = mkdtempSync(join(tmpdir(), `bench-${kind}-`)) } = {}) {
  const def = NODE_KINDS[kind];
  const port = await freePort();
  const [program, args] = def.command(port, dataDir, chainId, { powderBin, powderDb, powderNodeFlags });
  const logPath = join(logDir ?? dataDir, `${kind}-${port}.log`);
  const logFd = openSync(logPath, 'a');
  const env = childEnv(keepEnv, { HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', BENCH_CHAIN_ID: String(chainId), NO_COLOR: '1' });
  const t0 = performance.now();
  const child = spawn(program, args, { cwd: kind === 'powder' ? powderRootOf(powderBin) : BENCH_DIR, stdio: ['ignore', logFd, logFd], env });
  closeSync(logFd);
  let exited = null;
  child.on('exit', (code, signal) => (exited = { code, signal }));
  const node = { kind, label: def.label, port, child, pid: child.pid, dataDir, logPath, url: `http://127.0.0.1:${port}${def.rpcPath}`, base: `http://127.0.0.1:${port}` };
  for (;;) {
    if (exited) throw new Error(`${def.label} exited (${exited.code ?? exited.signal}) before answering; log: ${tail(logPath)}`);
    if (performance.now() - t0 > readyTimeoutMs) {
      await stopNode(node);
      throw Object.assign(new Error(`${def.label} did not answer eth_chainId within ${readyTimeoutMs} ms`), { stall: true });
    }
    try {
      node.chainId = await probeChainId(port, def.rpcPath);
      node.startMs = performance.now() - t0;
      node.rssAtStart = memory(child.pid).rss;
      node.faultsAtStart = minorFaults(child.pid);
      return node;
    } catch (e) {
      if (e.answered) {
        await stopNode(node);
        throw new Error(`${def.label} answered eth_chainId with an error: ${e.message}`);
      }
      await new Promise((r) => setTimeout(r, probeEveryMs));
    }
  }
}

/** Stops the node and removes its data dir, unless `keepData` (a restart on it follows). */
export async function stopNode(node, { keepData = false } = {}) {
  const { child } = node;
  if (child.exitCode === null && child.signalCode === null) {
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
  }
  if (!keepData) rmSync(node.dataDir, { recursive: true, force: true });
}

function tail(path) {
  try {
    return readFileSync(path, 'utf8').slice(-600);
  } catch {
    return '(no log)';
  }
}

/** The pid and all its descendants (a launcher that forks is counted whole). */
function processTree(root) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      /* process ended meanwhile */
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]) ?? []));
  return out;
}

/** RSS now and peak RSS (VmHWM) in bytes, summed over the process tree. */
export function memory(pid) {
  let rss = 0;
  let peak = 0;
  for (const p of processTree(pid)) {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      rss += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
      peak += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      /* ended */
    }
  }
  return { rss, peak };
}

/**
 * The sum over the process tree of two fields of /proc/<pid>/stat, given by their index after the
 * command name (field n of proc(5) is index n - 3).
 */
function statFieldsSum(pid, a, b) {
  let sum = 0;
  for (const p of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      sum += Number(f[a]) + Number(f[b]);
    } catch {
      /* ended */
    }
  }
  return sum;
}

/**
 * Minor page faults so far, summed over the process tree (with those of its ended children that
 * were waited for: minflt and cminflt). On a host where a first touch of a page is slow they are
 * much of a cold start (docs/performance.md, sessions 22 and 44), so the report shows them beside
 * the start's time.
 */
export const minorFaults = (pid) => statFieldsSum(pid, 7, 8);

/** CPU time (user + system, seconds) used so far by the process tree: utime and stime, in ticks. */
export const cpuSeconds = (pid) => statFieldsSum(pid, 11, 12) / 100; // USER_HZ is 100 on Linux
