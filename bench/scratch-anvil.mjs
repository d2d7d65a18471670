import { startNode, stopNode, memory } from './lib/nodes.js';
import { compileToken } from './lib/contract.js';
import { makeKeys, setupChain, TransferSigner, runTransfers } from './lib/chain.js';
import { RpcClient } from './lib/rpc.js';
const kind = process.argv[2] ?? 'anvil';
const senders = Number(process.argv[3] ?? 32);
const total = Number(process.argv[4] ?? 2000);
const token = compileToken(); const keys = makeKeys();
const n = await startNode(kind, { logDir: '/tmp' });
console.log('log', n.logPath);
try {
  const s = await setupChain(n.url, 43214, keys, token);
  const signer = new TransferSigner(keys, token);
  const p = await signer.prepare({ url: n.url, chainId: 43214, kind: process.argv[5] ?? 'eth', senders, total, tokenAddress: s.token });
  const res = await runTransfers(n.url, p, { timeoutMs: 30000 });
  console.log(res, memory(n.pid));
  const c = new RpcClient(n.url);
  console.log(await c.call('eth_blockNumber'), await c.call('txpool_status').catch(e=>e.message));
  c.close();
} finally { await stopNode(n); }
