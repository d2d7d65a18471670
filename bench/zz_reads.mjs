// scratch (session 22): CPU per read request
import { readFileSync } from 'node:fs';
import { startNode, stopNode } from './lib/nodes.js';
import { runLoad } from './lib/rpc.js';
const kind = process.argv[2] ?? 'powder'; const bin = process.argv[3] || undefined; const conns = +(process.argv[4] ?? 1);
const stat = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return { minflt: +f[7], cpu: +f[11] + +f[12] }; };
const sched = (pid) => +readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0];
const n = await startNode(kind, bin ? { powderBin: bin } : {});
const acct = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
for (let r = 0; r < 3; r++) for (const [method, params] of [['eth_chainId', []], ['eth_getBalance', [acct, 'latest']]]) {
  const a = stat(n.pid), c0 = sched(n.pid);
  const res = await runLoad({ url: n.url, method, params, connections: conns, durationMs: 1500 });
  const b = stat(n.pid), c1 = sched(n.pid);
  console.log(`${kind} ${method} conns=${conns} rps=${res.rps.toFixed(0)} p50=${res.p50.toFixed(3)} mainCPUus/req=${((c1 - c0) / 1000 / res.ok).toFixed(1)} procCPUus/req=${((b.cpu - a.cpu) * 10000 / res.ok).toFixed(1)}`);
}
await stopNode(n);
