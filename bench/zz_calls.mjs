// scratch (session 22): faults and CPU per new-holder eth_call
import { readFileSync } from 'node:fs';
import { compileToken } from './lib/contract.js';
import { makeKeys, setupChain, distinctBalanceOfBodies } from './lib/chain.js';
import { startNode, stopNode } from './lib/nodes.js';
import { runLoad } from './lib/rpc.js';
const kind = process.argv[2] ?? 'powder'; const bin = process.argv[3]; const conns = +(process.argv[4] ?? 1);
const stat = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return { minflt: +f[7], utime: +f[11], stime: +f[12] }; };
const sched = (pid) => +readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]; const waitq = (pid) => +readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[1];
const token = compileToken(); const keys = makeKeys();
const n = await startNode(kind, bin ? { powderBin: bin } : {});
n.chainIdNum = Number(BigInt(n.chainId));
const s = await setupChain(n.url, n.chainIdNum, keys, token);
const addr = s.token;
for (let r = 0; r < 4; r++) {
  const bodies = distinctBalanceOfBodies(token, addr);
  const a = stat(n.pid), c0 = sched(n.pid), w0 = waitq(n.pid), t0 = performance.now();
  const res = await runLoad({ url: n.url, method: 'eth_call', nextBody: bodies, connections: conns, durationMs: 2000 });
  const b = stat(n.pid), c1 = sched(n.pid), w1 = waitq(n.pid), el = performance.now() - t0;
  const reqs = res.ok;
  console.log(`${kind} conns=${conns} rps=${(res.rps ?? res.requestsPerSecond ?? 0).toFixed?.(0)} reqs=${reqs} faults/req=${((b.minflt - a.minflt) / reqs).toFixed(2)} mainCPUus/req=${((c1 - c0) / 1000 / reqs).toFixed(1)} runqWait%=${((w1 - w0) / 1e4 / el).toFixed(1)} mainBusy%=${((c1 - c0) / 1e4 / el).toFixed(1)} procCPUus/req=${(((b.utime + b.stime) - (a.utime + a.stime)) * 10000 / reqs).toFixed(1)}`);
}
await stopNode(n);
