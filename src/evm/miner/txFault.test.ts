// A transaction whose run throws out of the EVM — not a revert or a refusal, but the node's own
// fault (here: the KZG precompile's lazy module load failing, what a start from the snapshot in
// another project's folder did before bin/importer.js) — must leave the chain as it was: no
// nonce or fee taken in an empty block, no open checkpoint left in the block builder's state (it
// made every later contract creation fail with "missing trie node"), nor in a reused eth_call
// session. The tx leaves the pool, and the chain's log says why.
//
// The fault is the real one: the node's import() (src/dynamicImport.ts) refuses the module.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startDevNode, contracts, rawRpc, KEY0, ADDR0, type DevNode } from '../e2e/setup.js';

const POINT_EVALUATION = '0x000000000000000000000000000000000000000a';
// A valid point-evaluation input (192 bytes: versioned hash, z, y, commitment, proof).
const VALID = ('0x010657f37554c781402a22917dee2f75def7ab966d7b770905398eba3c444014' +
  '0000000000000000000000000000000000000000000000000000000000000000' +
  '0000000000000000000000000000000000000000000000000000000000000000' +
  'c00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000' +
  'c00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000') as Hex;

type Importer = ((specifier: string) => Promise<unknown>) | undefined;
const host = globalThis as { __powderImport?: Importer };

let dev: DevNode;
before(async () => {
  dev = await startDevNode();
});
after(async () => {
  host.__powderImport = undefined;
  await dev?.stop();
});

const rpc = async (method: string, params: unknown[]) => {
  const r = await rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 1, method, params });
  if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code });
  return r.result;
};

test('a tx that throws out of the EVM is dropped with its state undone; the chain, the pool and eth_call go on', async () => {
  const account = privateKeyToAccount(KEY0);
  const wallet = createWalletClient({ account, chain: dev.chain, transport: http(dev.rpcURL) });
  const client = createPublicClient({ chain: dev.chain, transport: http(dev.rpcURL) });
  const st = contracts.storage();
  const deploy = async (initial: bigint) => {
    const hash = await wallet.deployContract({ abi: st.abi, bytecode: st.bytecode, args: [initial], account, chain: dev.chain });
    const r = await client.waitForTransactionReceipt({ hash });
    assert.equal(r.status, 'success');
    return r.contractAddress!;
  };
  const storage = await deploy(7n);
  const readValue = () => client.readContract({ address: storage, abi: st.abi, functionName: 'value' });
  assert.equal(await readValue(), 7n);

  host.__powderImport = (specifier) =>
    specifier.startsWith('micro-eth-signer') ? Promise.reject(new Error(`Cannot find package '${specifier}'`)) : import(specifier);

  // eth_call: an error answer, and the session it ran in is not reused with its writes.
  await assert.rejects(rpc('eth_call', [{ from: ADDR0, to: POINT_EVALUATION, data: VALID }, 'latest']), /Cannot find package 'micro-eth-signer/);
  assert.equal(await readValue(), 7n);
  assert.equal(await rpc('eth_call', [{ from: ADDR0, data: st.bytecode + '0'.repeat(63) + '9' }, 'latest']).then((c: string) => c.length > 2), true);

  const nonce = await rpc('eth_getTransactionCount', [ADDR0, 'latest']);
  const balance = await rpc('eth_getBalance', [ADDR0, 'latest']);
  const height = await rpc('eth_blockNumber', []);
  const hash = await rpc('eth_sendTransaction', [{ from: ADDR0, to: POINT_EVALUATION, data: VALID, gas: '0x30000' }]);
  // The automine tried it and dropped it: not pending, not mined, no block for it.
  for (let i = 0; i < 100 && (await rpc('eth_getTransactionByHash', [hash])) !== null; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(await rpc('eth_getTransactionByHash', [hash]), null);
  assert.equal(await rpc('eth_getTransactionReceipt', [hash]), null);
  assert.deepEqual(await rpc('txpool_status', []), { pending: '0x0', queued: '0x0' });
  assert.equal(await rpc('eth_blockNumber', []), height);
  await rpc('evm_mine', []);
  assert.equal(await rpc('eth_getTransactionCount', [ADDR0, 'latest']), nonce, 'no nonce taken');
  assert.equal(await rpc('eth_getBalance', [ADDR0, 'latest']), balance, 'no fee taken');
  const log = readFileSync(join(dev.node.dataDir, 'logs', 'dev.log'), 'utf8');
  assert.match(log, new RegExp(`ERROR .*transaction dropped: it failed inside the block builder.*${hash}.*Cannot find package`));

  // The builder's state is whole: a creation and a write mine, and read back.
  const second = await deploy(11n);
  assert.equal(await client.readContract({ address: second, abi: st.abi, functionName: 'value' }), 11n);
  const set = await wallet.writeContract({ address: storage, abi: st.abi, functionName: 'set', args: [42n], account, chain: dev.chain });
  assert.equal((await client.waitForTransactionReceipt({ hash: set })).status, 'success');
  assert.equal(await readValue(), 42n);

  // Once the module loads, the same tx runs (the load is retried).
  host.__powderImport = undefined;
  const ok = await wallet.sendTransaction({ to: POINT_EVALUATION, data: VALID, gas: 0x30000n, account, chain: dev.chain });
  assert.equal((await client.waitForTransactionReceipt({ hash: ok })).status, 'success');
});
