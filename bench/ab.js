#!/usr/bin/env node
// A/B of two Powder builds on one workload: both nodes started side by side (memdb, set up as the
// harness sets them up), then rounds alternating A and B (A B, B A, A B, …) so that the machine's
// drifts fall on both; the first rounds are warm-up and not counted. Prints, per build, the
// median and min–max of the rate, the node's CPU per request or transaction (its whole process
// tree, from /proc), and p50/p99 for the reads. On this noisy 2-core host a difference is only a
// difference if it holds in most pairs: the per-round figures are printed too.
//
//   node ab.js --a=<bin/powder of build A> [--b=<bin/powder of build B>] [--workload=call-distinct]
//              [--connections=1] [--rounds=10] [--warmup=2] [--seconds=1.5] [--db=memdb]
//              [--a-flags="<node flags>"] [--b-flags="<node flags>"]
//
// Workloads: chainId, getBalance, call, call-distinct (reads, --connections, --seconds per round),
// tx-eth, tx-erc20 (2,000 pre-signed transfers per round from --senders=1|32 senders), start (a
// round is one cold start of each build: spawn to its first answered eth_chainId, asked every
// 1 ms on a fresh connection, on --db=memdb|lmdb and a fresh data dir; no long-lived nodes).
// --b defaults to this checkout's bin/powder. A build is any checkout with `npm run build` done
// (e.g. `git worktree add /tmp/base <commit>`, its node_modules linked, then built). --a-flags and
// --b-flags pass Node.js/V8 flags to a bin/powder.js (a bin/powder from the snapshot has its own),
// so one build can be compared with itself under other V8 settings.
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compileToken } from './lib/contract.js';
import { runLoad } from './lib/rpc.js';
import { DEFAULT_POWDER_BIN, cpuSeconds, startNode, stopNode } from './lib/nodes.js';
import { makeKeys, setupChain, TransferSigner, runTransfers, balanceOfCall, distinctBalanceOfBodies } from './lib/chain.js';
import { summarize } from './lib/stats.js';

const args = process.argv.slice(2);
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
function usage(message) {
  console.error(`ab.js: ${message}`);
  process.exit(2);
}

const WORKLOADS = ['chainId', 'getBalance', 'call', 'call-distinct', 'tx-eth', 'tx-erc20', 'start'];
const workload = option('workload', 'call-distinct');
if (!WORKLOADS.includes(workload)) usage(`--workload: ${workload} is not one of ${WORKLOADS.join(', ')}`);
const number = (name, fallback, ok) => {
  const v = Number(option(name, String(fallback)));
  if (!ok(v)) usage(`--${name}: ${option(name)} is out of range`);
  return v;
};
const connections = number('connections', 1, (v) => Number.isInteger(v) && v >= 1 && v <= 256);
const senders = number('senders', 1, (v) => v === 1 || v === 32);
const rounds = number('rounds', 10, (v) => Number.isInteger(v) && v >= 2);
const warmup = number('warmup', 2, (v) => Number.isInteger(v) && v >= 0 && v < rounds);
const seconds = number('seconds', 1.5, (v) => v > 0 && v <= 60);
const builds = [
  { name: 'A', bin: option('a') ? resolve(option('a')) : usage('--a=<path to a bin/powder> is required'), nodeFlags: option('a-flags', '').split(' ').filter(Boolean) },
  { name: 'B', bin: resolve(option('b', DEFAULT_POWDER_BIN)), nodeFlags: option('b-flags', '').split(' ').filter(Boolean) },
];
for (const b of builds) if (b.nodeFlags.length > 0 && !b.bin.endsWith('.js')) usage(`--${b.name.toLowerCase()}-flags needs a bin/powder.js: ${b.bin} starts from its snapshot, with the flags it was built with`);
const isTx = workload.startsWith('tx-');
const isStart = workload === 'start';
const db = option('db', 'memdb');
if (db !== 'memdb' && db !== 'lmdb') usage(`--db: ${db} is not memdb or lmdb`);

// A start round needs no chain set-up: no token, keys or signer.
const token = isStart ? undefined : compileToken();
const keys = isStart ? undefined : makeKeys();
const signer = isStart ? undefined : new TransferSigner(keys, token);

for (const b of builds) {
  b.rounds = [];
  if (isStart) continue;
  b.node = await startNode('powder', { powderBin: b.bin, powderNodeFlags: b.nodeFlags });
  b.node.chainIdNum = Number(BigInt(b.node.chainId));
  b.tokenAddress = (await setupChain(b.node.url, b.node.chainIdNum, keys, token)).token;
  b.nextBody = requestBodies(b);
}

/** The request body source of a read workload on build `b`'s node. */
function requestBodies(b) {
  const fixed = (method, params) => () => Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  if (workload === 'chainId') return fixed('eth_chainId', []);
  if (workload === 'getBalance') return fixed('eth_getBalance', [keys.funded[0].address, 'latest']);
  if (workload === 'call') return fixed('eth_call', [balanceOfCall(token, b.tokenAddress, keys.senders[0].address), 'latest']);
  return distinctBalanceOfBodies(token, b.tokenAddress);
}

async function round(b) {
  if (isStart) {
    const node = await startNode('powder', { powderBin: b.bin, powderNodeFlags: b.nodeFlags, powderDb: db, probeEveryMs: 1 });
    await stopNode(node);
    return { ms: node.startMs };
  }
  const cpu0 = cpuSeconds(b.node.pid);
  if (isTx) {
    const prepared = await signer.prepare({ url: b.node.url, chainId: b.node.chainIdNum, kind: workload.slice(3), senders, total: 2000, tokenAddress: b.tokenAddress });
    const t0 = performance.now();
    const r = await runTransfers(b.node.url, prepared, { stallMs: 10_000 });
    if (r.errors) throw new Error(`build ${b.name}: ${r.firstError}`);
    return { rate: r.tps, cpuMicros: ((cpuSeconds(b.node.pid) - cpu0) / 2000) * 1e6, ms: performance.now() - t0 };
  }
  const r = await runLoad({ url: b.node.url, nextBody: b.nextBody, connections, durationMs: seconds * 1000 });
  if (r.errors) throw new Error(`build ${b.name}: ${r.firstError}`);
  return { rate: r.rps, cpuMicros: ((cpuSeconds(b.node.pid) - cpu0) / r.ok) * 1e6, p50: r.p50, p99: r.p99 };
}

try {
  for (let i = 0; i < rounds; i++) {
    for (const b of i % 2 ? [...builds].reverse() : builds) {
      const r = await round(b);
      if (i >= warmup) b.rounds.push(r);
    }
  }
} finally {
  for (const b of builds) if (b.node) await stopNode(b.node);
}

/** A build's name, its node flags (if any) and its bin. */
const label = (b) => [b.name, ...b.nodeFlags, b.bin].join(' ');
const f = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '–');
if (isStart) {
  console.log(`start (${db}): ${rounds} rounds (${warmup} warm-up), alternating; spawn to the first answered eth_chainId`);
  for (const b of builds) {
    const ms = summarize(b.rounds.map((r) => r.ms));
    console.log(`${label(b)}\n  ${f(ms.median, 1)} ms (${f(ms.min, 1)}–${f(ms.max, 1)})\n  rounds: ${b.rounds.map((r) => f(r.ms, 1)).join(' ')}`);
  }
  const [a, bb] = builds.map((b) => summarize(b.rounds.map((r) => r.ms)).median);
  const wins = builds[0].rounds.filter((r, i) => r.ms < builds[1].rounds[i].ms).length;
  console.log(`B ÷ A: ${(bb / a).toFixed(2)}× (medians; above 1, A starts faster); A faster in ${wins} of ${builds[0].rounds.length} pairs`);
  process.exit(0);
}
const unit = isTx ? 'tx/s' : 'req/s';
const what = isTx ? `${workload}, ${senders} sender${senders > 1 ? 's' : ''}` : `${workload}, ${connections} connection${connections > 1 ? 's' : ''}`;
console.log(`${what}: ${rounds} rounds (${warmup} warm-up), alternating`);
for (const b of builds) {
  const rate = summarize(b.rounds.map((r) => r.rate));
  const cpu = summarize(b.rounds.map((r) => r.cpuMicros));
  let line = `${label(b)}\n  ${f(rate.median)} ${unit} (${f(rate.min)}–${f(rate.max)}), node CPU ${f(cpu.median)} µs per ${isTx ? 'tx' : 'request'} (${f(cpu.min)}–${f(cpu.max)})`;
  if (!isTx) line += `, p50 ${f(summarize(b.rounds.map((r) => r.p50)).median, 2)} ms, p99 ${f(summarize(b.rounds.map((r) => r.p99)).median, 2)} ms`;
  console.log(line);
  console.log(`  rounds: ${b.rounds.map((r) => f(r.rate)).join(' ')}`);
  if (!isTx) console.log(`  p99 by round: ${b.rounds.map((r) => f(r.p99, 2)).join(' ')}`);
}
const [a, bb] = builds.map((b) => summarize(b.rounds.map((r) => r.rate)).median);
const wins = builds[0].rounds.filter((r, i) => r.rate > (builds[1].rounds[i]?.rate ?? Infinity)).length;
console.log(`A ÷ B: ${(a / bb).toFixed(2)}× (medians); A faster in ${wins} of ${builds[0].rounds.length} pairs`);
if (!isTx) {
  const tails = builds[0].rounds.filter((r, i) => r.p99 < (builds[1].rounds[i]?.p99 ?? -Infinity)).length;
  console.log(`p99: A lower in ${tails} of ${builds[0].rounds.length} pairs`);
}
