// scratch: write syscall duration for getBalance vs new-holder eth_call (strace -T on the main thread)
import { spawn } from 'node:child_process';
import { compileToken } from './lib/contract.js';
import { makeKeys, setupChain, distinctBalanceOfBodies } from './lib/chain.js';
import { startNode, stopNode } from './lib/nodes.js';
import { runLoad } from './lib/rpc.js';
const token = compileToken(); const keys = makeKeys();
const n = await startNode('powder');
const s = await setupChain(n.url, Number(BigInt(n.chainId)), keys, token);
await runLoad({ url: n.url, method: 'eth_call', nextBody: distinctBalanceOfBodies(token, s.token), connections: 1, durationMs: 2000 });
for (const [name, opts] of [['getBalance', { method: 'eth_getBalance', params: ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'latest'] }], ['call', { method: 'eth_call', nextBody: distinctBalanceOfBodies(token, s.token) }]]) {
  const st = spawn('strace', ['-T', '-e', 'trace=write,writev', '-p', String(n.pid), '-o', `/tmp/s22/wr-${name}.txt`], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500));
  await runLoad({ url: n.url, ...opts, connections: 1, durationMs: 1500 });
  st.kill('SIGINT'); await new Promise((r) => st.on('exit', r));
}
await stopNode(n);
