// Warp on the default dev chain: the warp API is on by default there (docs/warp.md), and accepted
// messages are durable: they survive a restart of the node on the same data dir.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWalletClient, createPublicClient, defineChain, encodeFunctionData, http, parseAbi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startTestNode } from '../../../test/helpers.js';
import { idToString } from '../../ids/ids.js';

const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;
const WARP = '0x0200000000000000000000000000000000000005' as const;
const abi = parseAbi(['function sendWarpMessage(bytes payload) returns (bytes32)']);

async function call(url: string, method: string, params: unknown[]): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return res.json();
}

test('dev chain: warp_* enabled by default; accepted messages and block signatures survive a restart', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-warp-dev-'));
  try {
    let node = await startTestNode({ 'data-dir': dataDir });
    let url = node.url + '/ext/bc/dev/rpc';
    const chainId = Number((await call(url, 'eth_chainId', [])).result);
    const chain = defineChain({ id: chainId, name: 'dev', nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
    const wallet = createWalletClient({ chain, transport: http(url), account: privateKeyToAccount(KEY0) });
    const pub = createPublicClient({ chain, transport: http(url) });
    const hash = await wallet.sendTransaction({ to: WARP, data: encodeFunctionData({ abi, functionName: 'sendWarpMessage', args: ['0x1234'] }), chain, account: wallet.account! });
    const rec = await pub.waitForTransactionReceipt({ hash });
    assert.equal(rec.status, 'success');
    const id = idToString(Buffer.from((rec.logs[0].topics[2] as Hex).slice(2), 'hex'));
    const blockID = idToString(Buffer.from(rec.blockHash.slice(2), 'hex'));
    const message = (await call(url, 'warp_getMessage', [id])).result;
    assert.match(message, /^0x0000/);
    const blockSig = (await call(url, 'warp_getBlockSignature', [blockID])).result;
    assert.match(blockSig, /^0x[0-9a-f]{192}$/);
    await node.node.stop();

    node = await startTestNode({ 'data-dir': dataDir });
    url = node.url + '/ext/bc/dev/rpc';
    try {
      assert.equal((await call(url, 'warp_getMessage', [id])).result, message);
      assert.equal((await call(url, 'warp_getBlockSignature', [blockID])).result, blockSig);
    } finally {
      await node.node.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
