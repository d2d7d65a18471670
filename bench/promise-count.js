// Promises per request, counted with V8's promise hook (docs/performance.md, session 19): a
// promise is an allocation and, mostly, a microtask turn, so the count tracks what a request's
// async plumbing costs independently of this machine's timing noise. In process, through the
// dev chain's JSON-RPC route (no HTTP), on a node from a build's library bundle:
//   - a new-holder ERC-20 `balanceOf` eth_call (after 500 warm-up calls), per call;
//   - a pre-signed one-sender ERC-20 transfer by eth_sendRawTransaction with the block automine
//     builds for it (after 300 warm-up transfers), per transfer.
// Usage: node promise-count.js [package root of the Powder build, default ..]  (needs its `npm run build`)
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import v8 from 'node:v8';
import { compileToken } from './lib/contract.js';
import { makeKeys, setupChain, TransferSigner } from './lib/chain.js';

const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
const { startNode } = createRequire(import.meta.url)(join(root, 'dist/powder.lib.cjs'));
const dataDir = mkdtempSync(join(tmpdir(), 'powder-promises-'));
const node = await startNode({ httpPort: 0, dbType: 'memdb', dataDir, logDisplayLevel: 'off' });
try {
  const url = `${node.url}/ext/bc/dev/rpc`;
  const post = node.router.lookup('/ext/bc/dev/rpc').post;
  const answer = async (body) => {
    let r = post.answer(Buffer.from(body), '/ext/bc/dev/rpc');
    if (r instanceof Promise) r = await r;
    const { result } = JSON.parse(r.body);
    if (result === undefined) throw new Error(r.body);
    return result;
  };
  // The last transfer's block is built after its answer: the count waits for it (an idle node
  // makes no promises meanwhile).
  const counted = async (n, run) => {
    let count = 0;
    const stop = v8.promiseHooks.onInit(() => count++);
    try {
      for (let i = 0; i < n; i++) await run(i);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      stop();
    }
    return count / n;
  };
  const chainId = Number(await answer('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'));

  const token = compileToken();
  const keys = makeKeys();
  const { token: tokenAddress } = await setupChain(url, chainId, keys, token);
  let holder = 0x100000;
  const call = () =>
    answer(`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"${tokenAddress}","data":"0x70a08231${(holder++).toString(16).padStart(64, '0')}"},"latest"]}`);
  await counted(500, call);
  const perCall = await counted(100, call);

  const { lanes } = await new TransferSigner(keys, token).prepare({ url, chainId, kind: 'erc20', senders: 1, total: 400, tokenAddress });
  const raws = lanes[0].raws;
  let next = 0;
  const transfer = () => answer(`{"jsonrpc":"2.0","id":1,"method":"eth_sendRawTransaction","params":["${raws[next++]}"]}`);
  await counted(300, transfer);
  const perTransfer = await counted(100, transfer);

  console.log(`Powder at ${root}: ${perCall.toFixed(1)} promises per new-holder eth_call, ${perTransfer.toFixed(1)} per one-sender ERC-20 transfer (with its block)`);
} finally {
  await node.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
