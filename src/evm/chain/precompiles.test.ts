// The chain's precompile hooks with a custom genesis: TxAllowList at the pool, FeeManager's
// config read at the parent, NativeMinter through a tx, eth_getActivePrecompilesAt.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFunctionData, parseAbi } from 'viem';
import { startTestNode, type TestNode } from '../../../test/helpers.js';
import { rpcClient, rpcError, signTx, DEV_ADDRS, type Rpc } from './testkit.js';

let node: TestNode;
let rpc: Rpc;
const ADMIN = DEV_ADDRS[0];
const TX_ALLOW = '0x0200000000000000000000000000000000000002';
const FEE_MANAGER = '0x0200000000000000000000000000000000000003';
const MINTER = '0x0200000000000000000000000000000000000001';

before(async () => {
  const genesis = {
    config: {
      chainId: 43210,
      feeConfig: { gasLimit: 8000000, targetBlockRate: 2, minBaseFee: 25000000000, targetGas: 15000000, baseFeeChangeDenominator: 36, minBlockGasCost: 0, maxBlockGasCost: 1000000, blockGasCostStep: 200000 },
      initialMinDelayMS: 1,
      txAllowListConfig: { blockTimestamp: 1607144400, adminAddresses: [ADMIN] },
      feeManagerConfig: { blockTimestamp: 1607144400, adminAddresses: [ADMIN] },
      contractNativeMinterConfig: { blockTimestamp: 1607144400, adminAddresses: [ADMIN] },
    },
    alloc: Object.fromEntries(DEV_ADDRS.map((a) => [a, { balance: '0xd3c21bcecceda1000000' }])),
    timestamp: '0x5FCB13D0',
    gasLimit: '0x7a1200',
    difficulty: '0x0',
  };
  // Before Granite (and after 1754107200, as the wall clock is): a DELEGATECALL into a stateful
  // precompile invalidates its tx. No block gas cost, so blocks need no tip.
  const preGranite = {
    ...genesis,
    config: {
      chainId: 43210,
      graniteTimestamp: 1900000000,
      feeConfig: { ...genesis.config.feeConfig, minBlockGasCost: 0, maxBlockGasCost: 0, blockGasCostStep: 0 },
      txAllowListConfig: { blockTimestamp: 1607144400, adminAddresses: [ADMIN] },
    },
  };
  node = await startTestNode({ chains: [{ name: 'pc', aliases: ['pc'], genesis }, { name: 'pg', aliases: ['pg'], genesis: preGranite }] });
  rpc = rpcClient(node.url + '/ext/bc/pc/rpc');
});
after(async () => {
  await node.stop();
});

test('TxAllowList: the pool refuses senders without a role; an admin enables them', async () => {
  const e = await rpcError(rpc('eth_sendRawTransaction', [signTx(1, { nonce: 0n, to: DEV_ADDRS[2] })]));
  assert.deepEqual([e.code, e.message], [-32000, 'cannot issue transaction from non-allow listed address: 0x70997970C51812dc3A010C7d01b50e0d17dc79C8']);
  const abi = parseAbi(['function setEnabled(address)', 'function readAllowList(address) view returns (uint256)']);
  await rpc('eth_sendRawTransaction', [signTx(0, { nonce: 0n, to: TX_ALLOW, gasLimit: 100000n, data: encodeFunctionData({ abi, functionName: 'setEnabled', args: [DEV_ADDRS[1] as `0x${string}`] }) })]);
  assert.equal(BigInt(await rpc('eth_call', [{ to: TX_ALLOW, data: encodeFunctionData({ abi, functionName: 'readAllowList', args: [DEV_ADDRS[1] as `0x${string}`] }) }, 'latest'])), 1n);
  const h = await rpc('eth_sendRawTransaction', [signTx(1, { nonce: 0n, to: DEV_ADDRS[2] })]);
  assert.equal((await rpc('eth_getTransactionReceipt', [h])).status, '0x1');
  assert.equal(await rpc('eth_getCode', [TX_ALLOW, 'latest']), '0x01');
});

test('FeeManager: a new fee config applies from the next block; eth_feeConfig reports lastChangedAt', async () => {
  const abi = parseAbi(['function setFeeConfig(uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256)']);
  const data = encodeFunctionData({ abi, functionName: 'setFeeConfig', args: [7_000_000n, 2n, 30_000_000_000n, 15_000_000n, 36n, 0n, 1_000_000n, 200_000n] });
  const nonce = BigInt(await rpc('eth_getTransactionCount', [ADMIN, 'latest']));
  const h = await rpc('eth_sendRawTransaction', [signTx(0, { nonce, to: FEE_MANAGER, gasLimit: 300000n, data })]);
  const r = await rpc('eth_getTransactionReceipt', [h]);
  assert.equal(r.status, '0x1');
  const fc = await rpc('eth_feeConfig', []);
  assert.equal(fc.feeConfig.gasLimit, 7000000);
  assert.equal(fc.lastChangedAt, Number(BigInt(r.blockNumber)));
  // The pool's floor follows: 25 gwei is now underpriced.
  const e = await rpcError(rpc('eth_sendRawTransaction', [signTx(0, { nonce: nonce + 1n, to: DEV_ADDRS[2], maxFeePerGas: 26_000_000_000n })]));
  assert.match(e.message, /^transaction underpriced: .* < pool minimum fee cap \(30000000000\)$/);
  const h2 = await rpc('eth_sendRawTransaction', [signTx(0, { nonce: nonce + 1n, to: DEV_ADDRS[2], maxFeePerGas: 40_000_000_000n })]);
  const b = await rpc('eth_getBlockByNumber', [(await rpc('eth_getTransactionReceipt', [h2])).blockNumber, false]);
  assert.equal(b.gasLimit, '0x6acfc0');
  assert.equal(BigInt(b.baseFeePerGas) >= 30_000_000_000n, true);
});

test('NativeMinter mints from a tx; a non-enabled caller fails in eth_call with the precompile text', async () => {
  const abi = parseAbi(['function mintNativeCoin(address,uint256)']);
  const target = '0x00000000000000000000000000000000000000cc';
  const data = encodeFunctionData({ abi, functionName: 'mintNativeCoin', args: [target, 1000n] });
  const nonce = BigInt(await rpc('eth_getTransactionCount', [ADMIN, 'latest']));
  const h = await rpc('eth_sendRawTransaction', [signTx(0, { nonce, to: MINTER, gasLimit: 100000n, data, maxFeePerGas: 60_000_000_000n })]);
  assert.equal((await rpc('eth_getTransactionReceipt', [h])).status, '0x1');
  assert.equal(await rpc('eth_getBalance', [target, 'latest']), '0x3e8');
  const e = await rpcError(rpc('eth_call', [{ from: DEV_ADDRS[2], to: MINTER, data }, 'latest']));
  assert.deepEqual([e.code, e.message], [-32000, 'non-enabled cannot mint: 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC']);
  const active = await rpc('eth_getActivePrecompilesAt', []);
  assert.deepEqual(Object.keys(active).sort(), ['contractNativeMinterConfig', 'feeManagerConfig', 'txAllowListConfig']);
});

test('before Granite, a tx that DELEGATECALLs into a stateful precompile is not mined (reference §8.1); eth_call answers why', async () => {
  const pg = rpcClient(node.url + '/ext/bc/pg/rpc');
  // A proxy: DELEGATECALL(gas, TxAllowList, calldata) then STOP.
  const runtime = '365f5f375f5f365f73' + TX_ALLOW.slice(2) + '5af400';
  const init = '0x6020600c60003960206000f3' + runtime;
  const deployed = await pg('eth_getTransactionReceipt', [await pg('eth_sendRawTransaction', [signTx(0, { nonce: 0n, gasLimit: 200000n, data: init })])]);
  assert.equal(deployed.status, '0x1');
  const proxy = deployed.contractAddress;
  const abi = parseAbi(['function readAllowList(address) view returns (uint256)']);
  const data = encodeFunctionData({ abi, functionName: 'readAllowList', args: [ADMIN as `0x${string}`] });
  const e = await rpcError(pg('eth_call', [{ from: ADMIN, to: proxy, data }, 'latest']));
  assert.deepEqual([e.code, e.message], [-32000, 'precompile cannot be called with DELEGATECALL']);
  const height = await pg('eth_blockNumber', []);
  const hash = await pg('eth_sendRawTransaction', [signTx(0, { nonce: 1n, to: proxy, gasLimit: 100000n, data })]);
  // The automine builds nothing from it: no block, no receipt; it waits in the pool, as on the
  // real node (its builder skips the sender), and an empty block leaves it there.
  assert.equal(await pg('eth_getTransactionReceipt', [hash]), null);
  assert.equal(await pg('eth_blockNumber', []), height);
  await pg('evm_mine', []);
  assert.equal(await pg('eth_getTransactionReceipt', [hash]), null);
  assert.equal(BigInt(await pg('eth_getTransactionCount', [ADMIN, 'latest'])), 1n);
  // A plain CALL into the precompile is fine.
  assert.equal(BigInt(await pg('eth_call', [{ from: ADMIN, to: TX_ALLOW, data }, 'latest'])), 2n);
});
