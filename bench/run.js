#!/usr/bin/env node
// Runs every workload against every node, interleaved (for each workload, for each repetition,
// every node in turn), and writes results/latest.json, results/latest.md and (full runs) the
// generated part of docs/benchmarks.md. Usage: node run.js [--quick] [--nodes=anvil,hardhat,ganache,powder]
//   [--only=<workload ids>] [--powder=<path to bin/powder or bin/powder.js>] [--powder-db=memdb|lmdb] [--keep-env] [--no-docs] [--docs]
//   | node run.js --render (tables again from results/latest.json)
// --only runs a subset (ids: see WORKLOAD_IDS) and writes results/only.{json,md} instead, never the docs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, release, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { compileToken } from './lib/contract.js';
import { runLoad, RpcClient } from './lib/rpc.js';
import { BENCH_DIR, ROOT_DIR, NODE_KINDS, DEFAULT_CHAIN_ID, DEFAULT_POWDER_BIN, droppedEnvHere, powderRootOf, startNode, stopNode, memory, cpuSeconds } from './lib/nodes.js';
import { makeKeys, setupChain, TransferSigner, runTransfers, balanceOfCall, distinctBalanceOfBodies } from './lib/chain.js';
import { comparisonTable, fmt, powderOnlyTable } from './lib/report.js';
import { nodeStartMs, pageFaultMicros } from './lib/host.js';
import { summarize } from './lib/stats.js';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/** A bad command line: the message, no stack, exit code 2. */
function usage(message) {
  console.error(`run.js: ${message}`);
  process.exit(2);
}

const QUICK = flag('quick');
const CONFIG = QUICK
  ? { mode: 'quick', coldReps: 2, loadReps: 2, loadMs: 500, txReps: 1, txCount: 2000, stallMs: 10_000, powderReps: 1, powderMs: 500 }
  : { mode: 'full', coldReps: 5, loadReps: 5, loadMs: 1000, txReps: 3, txCount: 2000, stallMs: 10_000, powderReps: 5, powderMs: 1000 };
const WARMUP_MS = 300;
/**
 * The order of one repetition: `list` rotated by `rep` (A B C D, B C D A, …), so no node (or
 * Powder-only request) always runs first or always follows the same one.
 */
const inTurn = (list, rep) => list.map((_, i) => list[(i + rep) % list.length]);
const ALL_NODES = ['anvil', 'hardhat', 'ganache', 'powder'];
const requested = (option('nodes') ?? ALL_NODES.join(',')).split(',').filter(Boolean);
for (const n of requested) if (!NODE_KINDS[n]) usage(`--nodes: unknown node ${n}; known: ${ALL_NODES.join(', ')}`);
const MiB = 1024 * 1024;
// --keep-env: start the nodes with this environment as it is (by default lib/nodes.js's DROPPED_ENV is taken out for all).
const KEEP_ENV = flag('keep-env');

// --powder: the Powder build to measure (a path to its bin/powder, or to its bin/powder.js to start it
// without the start-up snapshot; relative to the current directory).
const POWDER_BIN = resolve(option('powder') ?? DEFAULT_POWDER_BIN);
if (requested.includes('powder') && !existsSync(POWDER_BIN)) usage(`--powder: ${POWDER_BIN} does not exist`);
// --powder-db: Powder's database (--db-type). memdb by default, like the peers, which keep their
// chains in memory; lmdb measures Powder as `npm start` runs it (a durable write per block).
const POWDER_DB = option('powder-db') ?? 'memdb';
if (!['memdb', 'lmdb'].includes(POWDER_DB)) usage(`--powder-db: ${POWDER_DB} is not memdb or lmdb`);

// --only: a subset of the workloads. Reads also take a connection count (`call-32`).
const READ_IDS = ['chainId', 'getBalance', 'call', 'call-distinct'];
const TX_IDS = ['tx-eth-32', 'tx-eth-1', 'tx-erc20-32', 'tx-erc20-1'];
const WORKLOAD_IDS = ['cold-start', ...READ_IDS, ...TX_IDS, 'rss-peak', 'powder-only'];
const KNOWN_IDS = [...WORKLOAD_IDS, ...READ_IDS.flatMap((id) => [`${id}-1`, `${id}-32`]), 'powder-only-1', 'powder-only-32'];
const ONLY = option('only')?.split(',').filter(Boolean);
for (const id of ONLY ?? []) if (!KNOWN_IDS.includes(id)) usage(`--only: unknown workload ${id}; known: ${WORKLOAD_IDS.join(', ')} (reads and powder-only also as <id>-1 / <id>-32)`);
const selected = (id, connections) => !ONLY || ONLY.includes(id) || (connections !== undefined && ONLY.includes(`${id}-${connections}`));
const selectedAnyConn = (id) => selected(id, 1) || selected(id, 32);

const logDir = mkdtempSync(join(tmpdir(), 'powder-bench-logs-'));
const running = new Map(); // kind -> RunningNode (the long-lived instances of workloads 2-5)
const startedAt = new Date();
const t0 = performance.now();
const log = (msg) => console.log(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(4)}s] ${msg}`);

// Never leave a node behind, whatever happens.
async function stopAll() {
  await Promise.all([...running.values()].map((n) => stopNode(n).catch(() => {})));
  running.clear();
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stopAll().finally(() => process.exit(130)));

/** Rows of the result: one per metric; samples per node, each {value} or {error, stalled}. */
const rows = [];
function row(id, group, label, unit, better, extra = {}) {
  let r = rows.find((x) => x.id === id);
  if (!r) rows.push((r = { id, group, label, unit, better, samples: {}, ...extra }));
  return r;
}
function sample(r, node, s) {
  (r.samples[node] ??= []).push(s);
}
const errorSample = (e) => ({ error: e.message, stalled: Boolean(e.stall || e.kind === 'stall') });

/** What a node process does over 2 s (for a stall diagnosis): CPU use and RSS growth, process tree summed. */
async function processActivity(pid) {
  const cpu0 = cpuSeconds(pid);
  const rss0 = memory(pid).rss;
  const t = performance.now();
  await new Promise((r) => setTimeout(r, 2000));
  const s = (performance.now() - t) / 1000;
  return { cpuPercent: +((100 * (cpuSeconds(pid) - cpu0)) / s).toFixed(0), rssMiB: +(memory(pid).rss / MiB).toFixed(0), rssGrowthMiBps: +((memory(pid).rss - rss0) / MiB / s).toFixed(1) };
}

function machine() {
  const cpuModel = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model;
  return {
    nproc: cpus().length,
    memoryGiB: +(totalmem() / 1024 ** 3).toFixed(1),
    cpuModel,
    kernel: release(),
    node: process.version,
    loadAvgAtStart: loadavg().map((x) => +x.toFixed(2)),
  };
}

function versions() {
  const pkg = (p) => JSON.parse(readFileSync(join(BENCH_DIR, 'node_modules', p, 'package.json'), 'utf8')).version;
  const sh = (cmd, a, cwd) => {
    try {
      return execFileSync(cmd, a, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return 'unknown';
    }
  };
  const anvilBin = join(BENCH_DIR, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil');
  const powderRoot = powderRootOf(POWDER_BIN);
  let powderVersion = 'unknown';
  try {
    powderVersion = JSON.parse(readFileSync(join(powderRoot, 'package.json'), 'utf8')).version;
  } catch {
    /* a bin without its package.json: version unknown */
  }
  // The commit of the git checkout the measured bin belongs to (+dirty with local changes); "unknown"
  // outside a checkout (e.g. a private build in /tmp). safe.directory: a checkout owned by another user.
  const git = (...a) => sh('git', ['-c', 'safe.directory=*', '-C', powderRoot, ...a], powderRoot);
  const commit = git('rev-parse', '--short', 'HEAD');
  const dirty = commit === 'unknown' ? '' : git('status', '--porcelain');
  return {
    anvil: `${pkg('@foundry-rs/anvil-linux-amd64')} (${sh(anvilBin, ['--version']).split('\n')[0]})`,
    hardhat: `${pkg('hardhat')} (EDR ${pkg('@nomicfoundation/edr')})`,
    ganache: pkg('ganache'),
    powder: `${powderVersion} (commit ${commit}${dirty && dirty !== 'unknown' ? '+dirty' : ''})`,
    viem: pkg('viem'),
    solc: pkg('solc'),
  };
}

function commandLines() {
  return Object.fromEntries(
    Object.entries(NODE_KINDS).map(([k, d]) => {
      const [prog, a] = d.command('<port>', '<tmp-dir>', '<chain-id>', { powderBin: POWDER_BIN, powderDb: POWDER_DB });
      const rel = (s) => String(s).replace(`${BENCH_DIR}/`, '').replace(`${ROOT_DIR}/`, '../').replace(process.execPath, 'node');
      const cwd = k !== 'powder' ? 'bench' : POWDER_BIN === DEFAULT_POWDER_BIN ? '.' : powderRootOf(POWDER_BIN);
      return [k, `${rel(prog)} ${a.map((x) => (/\s/.test(x) ? `"${x}"` : rel(x))).join(' ')}  (cwd: ${cwd}, RPC ${d.rpcPath})`];
    }),
  );
}

// ---------------------------------------------------------------------------------------------

async function main() {
  log(`mode ${CONFIG.mode}; nodes ${requested.join(', ')}${ONLY ? `; only ${ONLY.join(', ')}` : ''}; Powder ${POWDER_BIN} (${POWDER_DB}); logs in ${logDir}`);
  const info = { machine: machine(), versions: versions(), commands: commandLines(), config: CONFIG, powderBin: POWDER_BIN, powderDb: POWDER_DB, only: ONLY ?? null, droppedEnv: KEEP_ENV ? [] : droppedEnvHere() };
  const token = compileToken();
  info.versions.solcCompiler = token.solcVersion;
  const keys = makeKeys();
  const signer = new TransferSigner(keys, token);
  const unavailable = {};

  if (requested.includes('powder') && !existsSync(join(powderRootOf(POWDER_BIN), 'dist/src/cli.js'))) {
    log(`warning: ${join(powderRootOf(POWDER_BIN), 'dist')} is missing; bin/powder.js will build it on the warm-up start, without a start-up snapshot, (run \`npm run build\` in the root first)`);
  }

  // Warm-up start of every node (untimed: fills the disk cache; tells whether Powder answers).
  // Powder goes first: its dev chain id is given to the peers.
  let chainId = DEFAULT_CHAIN_ID;
  for (const kind of [...requested].sort((a, b) => (b === 'powder') - (a === 'powder'))) {
    try {
      const n = await startNode(kind, { logDir, chainId, readyTimeoutMs: 180_000, powderBin: POWDER_BIN, powderDb: POWDER_DB, keepEnv: KEEP_ENV });
      if (kind === 'powder') chainId = Number(BigInt(n.chainId));
      log(`warm-up ${n.label}: eth_chainId ${n.chainId} after ${n.startMs.toFixed(0)} ms`);
      await stopNode(n);
    } catch (e) {
      unavailable[kind] = e.message;
      log(`${NODE_KINDS[kind].label} unavailable: ${e.message}`);
    }
  }
  const nodes = requested.filter((k) => !unavailable[k]);

  // 1. Cold start, and 5a. RSS right after the first answer.
  const cold = selected('cold-start') && row('cold-start', 1, 'cold start to first eth_chainId', 'ms', 'lower');
  const rssStart = selected('cold-start') && row('rss-start', 5, 'RSS after start (at the first answered eth_chainId)', 'MiB', 'lower');
  const faultsStart = selected('cold-start') && row('faults-start', 5, 'minor page faults to the first answered eth_chainId (the host\'s cost of one is in the host context)', 'faults', 'lower');
  // Powder only: the same start on its other database (LMDB, `npm start`'s default, when the peers'
  // comparison runs on memdb), right after each of its starts above.
  const otherDb = POWDER_DB === 'memdb' ? 'lmdb' : 'memdb';
  const coldOther =
    cold &&
    nodes.includes('powder') &&
    row('p-cold-other', 6, `cold start to first eth_chainId with --db-type=${otherDb}${otherDb === 'lmdb' ? ' (the default database)' : ''}`, 'ms', 'lower', {
      reference: 'cold-start',
      referenceLabel: `the cold start with ${POWDER_DB} (1.)`,
    });
  // Powder only: a restart on the LMDB data dir its LMDB start above left (its identity and genesis
  // on disk), as a persistent dev chain restarts; measured right after that start's clean stop.
  const restartLmdb =
    cold &&
    nodes.includes('powder') &&
    row('p-restart-lmdb', 6, 'restart to first eth_chainId on the data dir of an --db-type=lmdb start (identity and genesis on disk)', 'ms', 'lower', {
      reference: POWDER_DB === 'lmdb' ? 'cold-start' : 'p-cold-other',
      referenceLabel: POWDER_DB === 'lmdb' ? 'the cold start with lmdb (1.)' : 'the cold start with lmdb',
    });
  const nodeStarts = [];
  for (let rep = 0; cold && rep < CONFIG.coldReps; rep++) {
    // Host context, interleaved with the nodes' starts: Node.js's own start and exit.
    await nodeStartMs({ keepEnv: KEEP_ENV }).then((ms) => nodeStarts.push(ms), () => {});
    for (const kind of inTurn(nodes, rep)) {
      // Powder's LMDB start (the comparison's when --powder-db=lmdb, else its other database's) leaves
      // its data dir for the restart below.
      let lmdbDir;
      try {
        const n = await startNode(kind, { logDir, chainId, powderBin: POWDER_BIN, powderDb: POWDER_DB, keepEnv: KEEP_ENV });
        sample(cold, kind, { value: n.startMs });
        sample(rssStart, kind, { value: n.rssAtStart / MiB });
        sample(faultsStart, kind, { value: n.faultsAtStart });
        const keepData = kind === 'powder' && POWDER_DB === 'lmdb';
        await stopNode(n, { keepData });
        if (keepData) lmdbDir = n.dataDir;
      } catch (e) {
        sample(cold, kind, errorSample(e));
      }
      if (kind === 'powder' && coldOther) {
        try {
          const n = await startNode(kind, { logDir, chainId, powderBin: POWDER_BIN, powderDb: otherDb, keepEnv: KEEP_ENV });
          sample(coldOther, kind, { value: n.startMs });
          const keepData = otherDb === 'lmdb';
          await stopNode(n, { keepData });
          if (keepData) lmdbDir = n.dataDir;
        } catch (e) {
          sample(coldOther, kind, errorSample(e));
        }
      }
      if (kind === 'powder' && restartLmdb) {
        if (lmdbDir === undefined) sample(restartLmdb, kind, { error: 'the LMDB start before it failed' });
        else {
          try {
            const n = await startNode(kind, { logDir, chainId, powderBin: POWDER_BIN, powderDb: 'lmdb', keepEnv: KEEP_ENV, dataDir: lmdbDir });
            sample(restartLmdb, kind, { value: n.startMs });
            await stopNode(n);
          } catch (e) {
            rmSync(lmdbDir, { recursive: true, force: true });
            sample(restartLmdb, kind, errorSample(e));
          }
        }
      }
    }
    log(`cold start rep ${rep + 1}/${CONFIG.coldReps}`);
  }
  if (cold) {
    const boot = summarize(nodeStarts);
    info.machine.nodeStartMs = nodeStarts.length ? { median: +boot.median.toFixed(1), min: +boot.min.toFixed(1), max: +boot.max.toFixed(1), samples: nodeStarts.map((x) => +x.toFixed(1)) } : null;
    info.machine.pageFaultMicros = pageFaultMicros({ keepEnv: KEEP_ENV }) ?? null;
  }

  // Long-lived instances for workloads 2-5, each set up (untimed) the same way.
  const setupErrors = {};
  const restarts = [];
  const stalledIn4 = {};
  const peakSeen = {};
  const notePeak = (kind) => {
    const n = running.get(kind);
    if (n && n.child.exitCode === null) peakSeen[kind] = Math.max(peakSeen[kind] ?? 0, memory(n.pid).peak);
  };
  const bringUp = async (kind) => {
    delete setupErrors[kind];
    try {
      const n = await startNode(kind, { logDir, chainId, powderBin: POWDER_BIN, powderDb: POWDER_DB, keepEnv: KEEP_ENV });
      running.set(kind, n);
      n.chainIdNum = Number(BigInt(n.chainId));
      const s = await setupChain(n.url, n.chainIdNum, keys, token);
      n.tokenAddress = s.token;
      log(`${n.label} set up: chain ${n.chainIdNum}, token ${s.token}`);
    } catch (e) {
      setupErrors[kind] = e;
      log(`${NODE_KINDS[kind].label} setup failed: ${e.message}`);
    }
  };
  /** After a stall the node's pool is wedged: a fresh, freshly set-up instance runs the next measurement. */
  const restart = async (kind, where) => {
    notePeak(kind);
    const n = running.get(kind);
    running.delete(kind);
    if (n) await stopNode(n).catch(() => {});
    restarts.push({ node: kind, after: where });
    log(`${NODE_KINDS[kind].label} restarted after a stall/exit in ${where}`);
    await bringUp(kind);
  };
  const needInstances = [...READ_IDS, 'powder-only'].some(selectedAnyConn) || [...TX_IDS, 'rss-peak'].some((id) => selected(id));
  if (needInstances) for (const kind of nodes) await bringUp(kind);
  const alive = (kind) => {
    const n = running.get(kind);
    if (setupErrors[kind]) throw setupErrors[kind];
    if (!n || n.child.exitCode !== null || n.child.signalCode !== null) throw new Error(`${NODE_KINDS[kind].label} process has exited`);
    return n;
  };

  // 2-3. Read loads: eth_chainId, eth_getBalance, eth_call balanceOf; 1 and 32 connections.
  const account0 = keys.funded[0].address;
  const reads = [
    { id: 'chainId', group: 2, name: 'eth_chainId', params: () => [] },
    { id: 'getBalance', group: 2, name: 'eth_getBalance', params: () => [account0, 'latest'] },
    { id: 'call', group: 3, name: 'eth_call ERC-20 balanceOf', method: 'eth_call', params: (n) => [balanceOfCall(token, n.tokenAddress, keys.senders[0].address), 'latest'] },
    // Defeats any result cache: the i-th request to a node asks for holder number i, counted per
    // instance across warm-up, repetitions and both connection counts (so no request repeats on a
    // node), and the same sequence of holders on every node.
    {
      id: 'call-distinct',
      group: 3,
      name: 'eth_call ERC-20 balanceOf, a different holder per request',
      method: 'eth_call',
      bodies: (n) => (n.distinctHolders ??= distinctBalanceOfBodies(token, n.tokenAddress)),
    },
  ];
  for (const read of reads) {
    for (const connections of [1, 32]) {
      if (!selected(read.id, connections)) continue;
      const tag = `${read.name}, ${connections} conn`;
      const rps = row(`${read.id}-${connections}-rps`, read.group, `${tag}: throughput`, 'req/s', 'higher');
      const p50 = row(`${read.id}-${connections}-p50`, read.group, `${tag}: p50 latency`, 'ms', 'lower');
      const p99 = row(`${read.id}-${connections}-p99`, read.group, `${tag}: p99 latency`, 'ms', 'lower');
      const load = (n, durationMs) =>
        runLoad({ url: n.url, method: read.method ?? read.name, ...(read.bodies ? { nextBody: read.bodies(n) } : { params: read.params(n) }), connections, durationMs });
      for (const kind of nodes) {
        try {
          await load(alive(kind), WARMUP_MS);
        } catch {
          /* reported by the measured runs */
        }
      }
      for (let rep = 0; rep < CONFIG.loadReps; rep++) {
        for (const kind of inTurn(nodes, rep)) {
          try {
            const r = await load(alive(kind), CONFIG.loadMs);
            if (r.errors) {
              const s = { error: `${r.errors} errors (${r.ok} ok): ${r.firstError}`, stalled: r.stalled };
              for (const x of [rps, p50, p99]) sample(x, kind, s);
            } else {
              sample(rps, kind, { value: r.rps });
              sample(p50, kind, { value: r.p50 });
              sample(p99, kind, { value: r.p99 });
            }
          } catch (e) {
            for (const x of [rps, p50, p99]) sample(x, kind, errorSample(e));
          }
        }
      }
      log(`${tag}: done`);
    }
  }

  // 4. Transfers: 2,000 pre-signed txs from 32 senders and from 1 sender; ETH and ERC-20.
  for (const kind of ['eth', 'erc20']) {
    for (const senders of [32, 1]) {
      if (!selected(`tx-${kind}-${senders}`)) continue;
      const what = kind === 'eth' ? 'ETH transfers' : 'ERC-20 transfers';
      const r = row(`tx-${kind}-${senders}`, 4, `${CONFIG.txCount} ${what}, ${senders} sender${senders > 1 ? 's' : ''}, until every receipt`, 'tx/s', 'higher');
      for (let rep = 0; rep < CONFIG.txReps; rep++) {
        for (const node of inTurn(nodes, rep)) {
          try {
            const n = alive(node);
            const prepared = await signer.prepare({ url: n.url, chainId: n.chainIdNum, kind, senders, total: CONFIG.txCount, tokenAddress: n.tokenAddress });
            const res = await runTransfers(n.url, prepared, { stallMs: CONFIG.stallMs, processProbe: () => processActivity(n.pid) });
            if (res.errors) sample(r, node, { error: res.firstError, stalled: res.stalled, ...(res.diagnosis ? { diagnosis: res.diagnosis } : {}) });
            if (res.diagnosis) log(`${n.label} ${r.id} rep ${rep + 1} stalled: ${res.firstError}`);
            else sample(r, node, { value: res.tps, seconds: res.seconds, sendSeconds: res.sendSeconds });
            if (res.stalled) {
              stalledIn4[node] = true;
              await restart(node, `${r.id} rep ${rep + 1}`);
            }
          } catch (e) {
            sample(r, node, errorSample(e));
            const n = running.get(node);
            if (n && (n.child.exitCode !== null || n.child.signalCode !== null)) await restart(node, `${r.id} rep ${rep + 1}`);
          }
        }
      }
      log(`${r.label}: done`);
    }
  }

  // 5b. Peak RSS (VmHWM) of the long-lived instances after workload 4.
  const peak = selected('rss-peak') && row('rss-peak', 5, 'peak RSS after workload 4 (VmHWM)', 'MiB', 'lower');
  for (const kind of peak ? nodes : []) {
    try {
      alive(kind);
      notePeak(kind);
      const mib = peakSeen[kind] / MiB;
      if (stalledIn4[kind]) sample(peak, kind, { error: `stalled in workload 4; highest instance peak ${mib.toFixed(0)} MiB`, stalled: true });
      else sample(peak, kind, { value: mib });
    } catch (e) {
      sample(peak, kind, errorSample(e));
    }
  }

  // 6. Powder only: Avalanche-specific requests beside eth_chainId; an admin chain alias beside the direct path.
  const powderRows = [coldOther, restartLmdb].filter(Boolean);
  if (nodes.includes('powder') && selectedAnyConn('powder-only')) {
    try {
      const n = alive('powder');
      const admin = new RpcClient(`${n.base}/ext/admin`);
      await admin.call('admin.aliasChain', { chain: 'dev', alias: 'benchalias' }).finally(() => admin.close());
    } catch (e) {
      log(`admin.aliasChain failed: ${e.message}`);
    }
    const variants = [
      { id: 'p-chainId', label: 'eth_chainId (/ext/bc/dev/rpc)', path: '/ext/bc/dev/rpc', method: 'eth_chainId', params: [] },
      { id: 'p-feeConfig', label: 'eth_feeConfig', path: '/ext/bc/dev/rpc', method: 'eth_feeConfig', params: [], ref: 'p-chainId' },
      { id: 'p-rules', label: 'eth_getActiveRulesAt', path: '/ext/bc/dev/rpc', method: 'eth_getActiveRulesAt', params: [], ref: 'p-chainId' },
      { id: 'p-validators', label: 'validators.getCurrentValidators (/ext/bc/dev/validators)', path: '/ext/bc/dev/validators', method: 'validators.getCurrentValidators', params: {}, ref: 'p-chainId' },
      { id: 'p-alias', label: 'eth_chainId through admin.aliasChain alias (/ext/bc/benchalias/rpc)', path: '/ext/bc/benchalias/rpc', method: 'eth_chainId', params: [], ref: 'p-chainId' },
    ];
    for (const connections of [1, 32]) {
      if (!selected('powder-only', connections)) continue;
      const vrows = variants.map((v) => ({
        v,
        rps: row(`${v.id}-${connections}-rps`, 6, `${v.label}, ${connections} conn: throughput`, 'req/s', 'higher', v.ref ? { reference: `${v.ref}-${connections}-rps`, referenceLabel: `eth_chainId, ${connections} conn` } : {}),
        p50: row(`${v.id}-${connections}-p50`, 6, `${v.label}, ${connections} conn: p50 latency`, 'ms', 'lower', v.ref ? { reference: `${v.ref}-${connections}-p50`, referenceLabel: `eth_chainId, ${connections} conn` } : {}),
      }));
      for (let rep = 0; rep <= CONFIG.powderReps; rep++) {
        for (const { v, rps, p50 } of inTurn(vrows, rep)) {
          try {
            const n = alive('powder');
            const r = await runLoad({ url: `${n.base}${v.path}`, method: v.method, params: v.params, connections, durationMs: rep === 0 ? WARMUP_MS : CONFIG.powderMs });
            if (rep === 0) continue; // warm-up
            if (r.errors) for (const x of [rps, p50]) sample(x, 'powder', { error: `${r.errors} errors (${r.ok} ok): ${r.firstError}`, stalled: r.stalled });
            else {
              sample(rps, 'powder', { value: r.rps });
              sample(p50, 'powder', { value: r.p50 });
            }
          } catch (e) {
            if (rep > 0) for (const x of [rps, p50]) sample(x, 'powder', errorSample(e));
          }
        }
      }
      powderRows.push(...vrows.flatMap(({ rps, p50 }) => [rps, p50]));
      log(`Powder-only requests, ${connections} conn: done`);
    }
  }

  // Final memory reading and shutdown.
  for (const kind of nodes) {
    const n = running.get(kind);
    if (n && n.child.exitCode === null) info[`rssAtEnd_${kind}`] = +(memory(n.pid).rss / MiB).toFixed(1);
  }
  await stopAll();
  info.machine.loadAvgAtEnd = loadavg().map((x) => +x.toFixed(2));
  info.durationSeconds = Math.round((performance.now() - t0) / 1000);
  info.startedAt = startedAt.toISOString();
  info.nodes = nodes;
  info.chainId = chainId;
  info.unavailable = unavailable;
  info.restarts = restarts;
  info.setupErrors = Object.fromEntries(Object.entries(setupErrors).map(([k, e]) => [k, e.message]));
  writeResults(info, rows.filter((r) => r.group !== 6), powderRows, nodes, unavailable);
}

function writeResults(info, compareRows, powderRows, nodes, unavailable, full = !QUICK, subset = Boolean(info.only)) {
  const dir = join(BENCH_DIR, 'results');
  mkdirSync(dir, { recursive: true });
  const groups = [
    [1, '1. Cold start'],
    [2, '2. eth_chainId and eth_getBalance'],
    [3, '3. eth_call of ERC-20 balanceOf (one holder; a different holder per request)'],
    [4, '4. Transfers (eth_sendRawTransaction, pre-signed)'],
    [5, '5. Memory'],
  ];
  const m = info.machine;
  const md = [
    `Run ${info.startedAt} (${info.config.mode} mode, ${info.durationSeconds} s). Machine: ${m.nproc} cores (${m.cpuModel}), ${m.memoryGiB} GiB, Linux ${m.kernel}, Node ${m.node}; load average ${m.loadAvgAtStart.join(' ')} at start, ${m.loadAvgAtEnd.join(' ')} at end.`,
    '',
    `Versions: Anvil ${info.versions.anvil}; Hardhat ${info.versions.hardhat}; Ganache ${info.versions.ganache}; Powder ${info.versions.powder}${info.powderBin && info.powderBin !== DEFAULT_POWDER_BIN ? ` from ${info.powderBin}` : ''}.`,
    '',
    `Chain id ${info.chainId}. Node command lines (each started directly, stdout/stderr to a log file, default logging and mining; Hardhat's chain id and balances are in bench/hardhat.config.cjs): ${Object.entries(info.commands)
      .filter(([k]) => info.nodes.includes(k) || info.unavailable[k])
      .map(([k, c]) => `${NODE_KINDS[k].label}: \`${c.replace(/  \(cwd.*$/, '')}\``)
      .join('; ')}.`,
    '',
    `Each cell: median (min–max) over ${info.config.coldReps} cold starts, ${info.config.loadReps} × ${info.config.loadMs / 1000} s load runs, ${info.config.txReps} transfer runs; nodes interleaved within every repetition, in an order that rotates from one repetition to the next. "Powder vs X" = Powder's advantage: its rate ÷ X's, or X's time/memory ÷ Powder's; > 1 means Powder is better.`,
  ];
  if (m.nodeStartMs || m.pageFaultMicros) {
    const parts = [];
    if (m.nodeStartMs) parts.push(`Node.js's own start and exit (\`node -e 0\`, once per cold-start repetition) ${fmt(m.nodeStartMs.median)} ms (${fmt(m.nodeStartMs.min)}–${fmt(m.nodeStartMs.max)})`);
    if (m.pageFaultMicros) parts.push(`a first touch of a 4 KiB page of fresh memory ${m.pageFaultMicros} µs`);
    md.push('', `Host context for the cold starts (bench/lib/host.js; no ratio is made of it): ${parts.join('; ')}.`);
  }
  if (info.droppedEnv?.length) md.push('', `Every node started without ${info.droppedEnv.join(', ')}, which this machine's environment sets (bench/lib/nodes.js says why; \`--keep-env\` keeps it).`);
  if (subset) md.push('', `Subset run: --only=${info.only.join(',')}.`);
  for (const [k, reason] of Object.entries(unavailable)) md.push('', `**${NODE_KINDS[k].label} not measured**: ${reason.replace(/\s+/g, ' ').slice(0, 300)}`);
  for (const [k, reason] of Object.entries(info.setupErrors)) md.push('', `**${NODE_KINDS[k].label} setup failed** (its workloads 2-5 show errors): ${reason}`);
  if (info.restarts.length) md.push('', `Restarts (a node that stalled was stopped and a fresh, freshly set-up instance ran the next measurement; the stalled run stays reported): ${info.restarts.map((r) => `${NODE_KINDS[r.node].label} after ${r.after}`).join('; ')}.`);
  for (const [g, title] of groups) {
    const rs = compareRows.filter((r) => r.group === g);
    if (rs.length) md.push('', `### ${title}`, '', comparisonTable(rs, nodes, unavailable));
  }
  if (powderRows.length) md.push('', '### 6. Powder only (its other database\'s start and an LMDB restart; Avalanche APIs beside eth_chainId)', '', powderOnlyTable(powderRows, compareRows));
  const table = md.join('\n') + '\n';
  // A subset run (--only) leaves the full run's results and the docs alone.
  const name = subset ? 'only' : 'latest';
  writeFileSync(join(dir, `${name}.md`), table);
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ ...info, rows: [...compareRows, ...powderRows] }, null, 2) + '\n');
  log(`wrote results/${name}.md and results/${name}.json`);

  const updateDocs = !subset && (flag('docs') || (full && !flag('no-docs')));
  const docs = join(ROOT_DIR, 'docs/benchmarks.md');
  if (updateDocs && existsSync(docs)) {
    const text = readFileSync(docs, 'utf8');
    const begin = '<!-- bench:results:begin -->';
    const end = '<!-- bench:results:end -->';
    const i = text.indexOf(begin);
    const j = text.indexOf(end);
    if (i >= 0 && j > i) {
      writeFileSync(docs, `${text.slice(0, i + begin.length)}\n${table}${text.slice(j)}`);
      log('updated docs/benchmarks.md');
    }
  }
  console.log('\n' + table);
}

/** --render: rewrite results/latest.md (and the docs table) from results/latest.json, no run. */
function render() {
  const { rows: saved, ...info } = JSON.parse(readFileSync(join(BENCH_DIR, 'results/latest.json'), 'utf8'));
  writeResults(info, saved.filter((r) => r.group !== 6), saved.filter((r) => r.group === 6), info.nodes, info.unavailable, info.config.mode === 'full');
}

if (flag('render')) render();
else main().catch(async (e) => {
  console.error(e);
  await stopAll();
  process.exit(1);
});
