import { startNode, stopNode, memory } from './lib/nodes.js';
import { compileToken } from './lib/contract.js';
import { makeKeys, setupChain, TransferSigner, runTransfers } from './lib/chain.js';
import { RpcClient } from './lib/rpc.js';
import { execSync } from 'node:child_process';
const [kind='eth', senders='1', total='2000'] = process.argv.slice(2);
const token = compileToken(); const keys = makeKeys();
const n = await startNode('powder', { logDir: '/tmp', chainId: Number(process.env.CID||43210) });
try {
  const s = await setupChain(n.url, Number(process.env.CID||43210), keys, token);
  const signer = new TransferSigner(keys, token);
  const p = await signer.prepare({ url: n.url, chainId: Number(process.env.CID||43210), kind, senders: +senders, total: +total, tokenAddress: s.token });
  const res = await runTransfers(n.url, p, { stallMs: 10000 });
  console.log(res, memory(n.pid));
  const c = new RpcClient(n.url);
  for (const m of ['eth_blockNumber', 'txpool_status']) console.log(m, await c.call(m).catch(e => e.message));
  console.log('nonce latest', await c.call('eth_getTransactionCount', [keys.senders[0].address, 'latest']), 'pending', await c.call('eth_getTransactionCount', [keys.senders[0].address, 'pending']));
  const lane = p.lanes[0];
  console.log('last tx', await c.call('eth_getTransactionByHash', [lane.hashes.at(-1)]).then(t => t && { blockNumber: t.blockNumber, nonce: t.nonce }).catch(e => e.message));
  const b = await c.call('eth_getBlockByNumber', ['latest', false]);
  console.log('latest block', b.number, b.gasUsed, b.gasLimit, b.baseFeePerGas, b.transactions.length, b.timestamp);
  c.close();
  console.log(execSync(`grep -rihE 'error|warn|fail' ${n.dataDir} | tail -5 || true`).toString());
} finally { await stopNode(n); }
