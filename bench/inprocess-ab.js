#!/usr/bin/env node
// A/B of two Powder builds' eth_call cost without HTTP: both builds' library bundles
// (dist/powder.lib.mjs) loaded into one process, each with a node on memdb set up as the harness
// sets it up, then their JSON-RPC routes answering new-holder `balanceOf` calls (the harness's
// call-distinct bodies) in blocks that alternate between the builds. A change of 1–2 % shows here
// where the HTTP A/B (ab.js) is lost in the host's noise.
//
// The build loaded second ran 5–8 % faster than the first in A/A-like runs on this host
// (docs/performance.md, session 40), so each comparison runs twice, in fresh processes, once in
// each order, and the result is the geometric mean of the two ratios, which cancels that bias.
//
//   node inprocess-ab.js --a=<build root> [--b=<build root>] [--rounds=20] [--block=2000] [--warmup=10000]
//
// A build root is a checkout with `npm run build` done; --b defaults to this checkout.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const here = dirname(fileURLToPath(import.meta.url));
// The V8 flags bin/powder runs with (the heap sizes change how often the collector runs).
const NODE_FLAGS = ['--heap-growing-percent=50', '--min-semi-space-size=2', '--max-semi-space-size=8', '--no-parallel-scavenge'];

if (args.includes('--child')) {
  await child(option('first'), option('second'), Number(option('rounds', 20)), Number(option('block', 2000)), Number(option('warmup', 10000)));
} else {
  const a = resolve(option('a') ?? usage());
  const b = resolve(option('b', join(here, '..')));
  const passOn = ['rounds', 'block', 'warmup'].filter((n) => option(n) !== undefined).map((n) => `--${n}=${option(n)}`);
  const run = (first, second) => {
    const r = spawnSync(process.execPath, [...NODE_FLAGS, fileURLToPath(import.meta.url), '--child', `--first=${first}`, `--second=${second}`, ...passOn], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (r.status !== 0) throw new Error(`the measuring process failed (${r.status})`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop());
    console.log(`${first === a ? 'A' : 'B'} first: A ${out[first === a ? 'first' : 'second'].toFixed(1)} µs, B ${out[first === a ? 'second' : 'first'].toFixed(1)} µs per call (medians of ${out.rounds} blocks); B faster in ${first === a ? out.secondWon : out.rounds - out.secondWon} of ${out.rounds}`);
    return first === a ? out.second / out.first : out.first / out.second;
  };
  console.log(`A ${a}\nB ${b}`);
  const r1 = run(a, b);
  const r2 = run(b, a);
  console.log(`B ÷ A: ${Math.sqrt(r1 * r2).toFixed(3)} (the two orders' geometric mean; below 1, B is faster)`);
}

function usage() {
  console.error('usage: node inprocess-ab.js --a=<build root> [--b=<build root>] [--rounds=20] [--block=2000] [--warmup=10000]');
  process.exit(2);
}

async function child(first, second, rounds, block, warmup) {
  const { compileToken } = await import('./lib/contract.js');
  const { makeKeys, setupChain, distinctBalanceOfBodies } = await import('./lib/chain.js');
  const token = compileToken();
  const sides = [];
  for (const root of [first, second]) {
    const { startNode } = await import(pathToFileURL(join(root, 'dist/powder.lib.mjs')).href);
    const dataDir = mkdtempSync(join(tmpdir(), 'powder-inprocess-ab-'));
    const node = await startNode({ 'http-port': 0, 'db-type': 'memdb', 'data-dir': dataDir, 'log-level': 'warn', 'log-display-level': 'off' });
    const url = node.url + '/ext/bc/dev/rpc';
    const chainId = Number((await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' })).json()).result);
    const { token: tokenAddress } = await setupChain(url, chainId, makeKeys(chainId), token);
    const next = distinctBalanceOfBodies(token, tokenAddress);
    const post = node.router.lookup('/ext/bc/dev/rpc').post;
    const one = async () => {
      const r = post.answer(next(), '/ext/bc/dev/rpc');
      const v = r instanceof Promise ? await r : r;
      if (v.status !== 200 || !v.body.includes('"result"')) throw new Error(`an eth_call failed: ${v.body}`);
    };
    sides.push({ node, dataDir, one, times: [] });
  }
  for (const s of sides) for (let k = 0; k < warmup; k++) await s.one();
  for (let r = 0; r < rounds; r++) {
    for (const i of r % 2 ? [1, 0] : [0, 1]) {
      const s = sides[i];
      const t = performance.now();
      for (let k = 0; k < block; k++) await s.one();
      s.times.push(((performance.now() - t) * 1000) / block);
    }
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  let secondWon = 0;
  for (let r = 0; r < rounds; r++) if (sides[1].times[r] < sides[0].times[r]) secondWon++;
  for (const s of sides) {
    await s.node.stop();
    rmSync(s.dataDir, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ first: median(sides[0].times), second: median(sides[1].times), rounds, secondWon }));
}
