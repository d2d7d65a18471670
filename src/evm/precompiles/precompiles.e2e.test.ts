// End to end: a node whose chain `pc` enables every precompile in genesis, driven over HTTP with viem
// and raw JSON-RPC (error codes and texts as a real Subnet-EVM node answers them).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  getContractAddress,
  http,
  parseAbi,
  parseEventLogs,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startTestNode, type TestNode } from '../../../test/helpers.js';
import { PRECOMPILE_TEST_SOURCES } from './contracts.js';
import { compile } from './testkit.js';

const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;
const ADDR0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const; // admin of every list
const KEY1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const;
const ADDR1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const; // no role at start
const TREASURY = '0x1000000000000000000000000000000000000007' as const;

const MINTER = '0x0200000000000000000000000000000000000001' as const;
const TX_ALLOW_LIST = '0x0200000000000000000000000000000000000002' as const;
const FEE_MANAGER = '0x0200000000000000000000000000000000000003' as const;
const REWARD_MANAGER = '0x0200000000000000000000000000000000000004' as const;
const WARP = '0x0200000000000000000000000000000000000005' as const;

const abi = parseAbi([
  'function readAllowList(address) view returns (uint256)',
  'function setEnabled(address)',
  'function mintNativeCoin(address addr, uint256 amount)',
  'event NativeCoinMinted(address indexed sender, address indexed recipient, uint256 amount)',
  'function setFeeConfig(uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256)',
  'function getFeeConfigLastChangedAt() view returns (uint256)',
  'function setRewardAddress(address)',
  'function sendWarpMessage(bytes payload) returns (bytes32)',
  'event SendWarpMessage(address indexed sender, bytes32 indexed messageID, bytes message)',
]);

const admin = [ADDR0];
const genesis = {
  config: {
    chainId: 99999,
    feeConfig: {
      gasLimit: 8000000, targetBlockRate: 2, minBaseFee: 25000000000, targetGas: 15000000,
      baseFeeChangeDenominator: 36, minBlockGasCost: 0, maxBlockGasCost: 1000000, blockGasCostStep: 200000,
    },
    contractDeployerAllowListConfig: { blockTimestamp: 0, adminAddresses: admin },
    txAllowListConfig: { blockTimestamp: 0, adminAddresses: admin },
    contractNativeMinterConfig: { blockTimestamp: 0, adminAddresses: admin, initialMint: { [TREASURY]: '1000' } },
    feeManagerConfig: { blockTimestamp: 0, adminAddresses: admin },
    rewardManagerConfig: { blockTimestamp: 0, adminAddresses: admin },
    warpConfig: { blockTimestamp: 1607144400, quorumNumerator: 67 },
  },
  alloc: {
    [ADDR0.slice(2)]: { balance: '0x52B7D2DCC80CD2E4000000' },
    [ADDR1.slice(2)]: { balance: '0x52B7D2DCC80CD2E4000000' },
  },
  nonce: '0x0', timestamp: '0x5FCB13D0', extraData: '0x00', gasLimit: '0x7A1200', difficulty: '0x0',
  mixHash: '0x' + '0'.repeat(64), coinbase: '0x' + '0'.repeat(40), number: '0x0', gasUsed: '0x0', parentHash: '0x' + '0'.repeat(64),
};

function clientsFor(url: string) {
  const chain = defineChain({ id: 99999, name: 'pc', nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
  return {
    chain,
    pub: createPublicClient({ chain, transport: http(url), cacheTime: 0 }),
    w0: createWalletClient({ chain, transport: http(url), account: privateKeyToAccount(KEY0) }),
    w1: createWalletClient({ chain, transport: http(url), account: privateKeyToAccount(KEY1) }),
  };
}
type Clients = ReturnType<typeof clientsFor>;

let node: TestNode;
let rpcURL: string;
let pub: Clients['pub'];
let w0: Clients['w0'];
let w1: Clients['w1'];
let chain: Clients['chain'];

async function raw(method: string, params: unknown[]): Promise<any> {
  const res = await fetch(rpcURL, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return res.json();
}

before(async () => {
  node = await startTestNode({ chains: [{ name: 'pc', aliases: ['pc'], genesis }] });
  rpcURL = node.url + '/ext/bc/pc/rpc';
  ({ chain, pub, w0, w1 } = clientsFor(rpcURL));
});

after(async () => {
  await node?.stop();
});

async function send(w: typeof w0, to: Address, data: Hex, gas?: bigint) {
  const hash = await w.sendTransaction({ to, data, gas, chain, account: w.account! });
  return pub.waitForTransactionReceipt({ hash });
}

test('genesis activation: code 0x01 at each precompile, roles and initial mint in place', async () => {
  for (const a of [MINTER, TX_ALLOW_LIST, FEE_MANAGER, REWARD_MANAGER, WARP]) {
    assert.equal(await pub.getCode({ address: a }), '0x01', a);
  }
  assert.equal(await pub.readContract({ address: TX_ALLOW_LIST, abi, functionName: 'readAllowList', args: [ADDR0] }), 2n);
  assert.equal(await pub.getBalance({ address: TREASURY }), 1000n);
  const slot = await pub.getStorageAt({ address: MINTER, slot: ('0x' + ADDR0.slice(2).toLowerCase().padStart(64, '0')) as Hex });
  assert.equal(BigInt(slot!), 2n);
});

test('TxAllowList: a sender without a role is refused by eth_sendRawTransaction until enabled', async () => {
  const req = await w1.prepareTransactionRequest({ to: TREASURY, value: 1n, chain, account: w1.account! });
  const signed = await w1.signTransaction(req as never);
  const r = await raw('eth_sendRawTransaction', [signed]);
  assert.deepEqual(r.error, { code: -32000, message: `cannot issue transaction from non-allow listed address: ${ADDR1}` });
  const rec = await send(w0, TX_ALLOW_LIST, encodeFunctionData({ abi, functionName: 'setEnabled', args: [ADDR1] }));
  assert.equal(rec.status, 'success');
  const ok = await raw('eth_sendRawTransaction', [signed]);
  assert.equal(ok.error, undefined);
  assert.equal((await pub.waitForTransactionReceipt({ hash: ok.result })).status, 'success');
});

test('NativeMinter: admin mints (event in the receipt); eth_call shows the refusal text for others', async () => {
  const data = encodeFunctionData({ abi, functionName: 'mintNativeCoin', args: [TREASURY, 5n] });
  const before = await pub.getBalance({ address: TREASURY });
  const rec = await send(w0, MINTER, data);
  assert.equal(rec.status, 'success');
  const [ev] = parseEventLogs({ abi, logs: rec.logs, eventName: 'NativeCoinMinted' });
  assert.equal(ev!.args.amount, 5n);
  assert.equal(await pub.getBalance({ address: TREASURY }), before + 5n);
  const r = await raw('eth_call', [{ from: ADDR1, to: MINTER, data }, 'latest']);
  assert.equal(r.error.code, -32000);
  assert.equal(r.error.message, `non-enabled cannot mint: ${ADDR1}`);
  // mined: status 0, all gas consumed
  const failed = await send(w1, MINTER, data, 100_000n);
  assert.equal(failed.status, 'reverted');
  assert.equal(failed.gasUsed, 100_000n);
});

test('DeployerAllowList: deployment by a non-listed origin is mined with status 0 and eth_estimateGas explains', async () => {
  const { bytecode } = compile(PRECOMPILE_TEST_SOURCES, 'Child');
  const r = await raw('eth_estimateGas', [{ from: ADDR1, data: bytecode }]);
  assert.equal(r.error?.message, `tx.origin ${ADDR1} is not authorized to deploy a contract`);
  const nonce = BigInt(await pub.getTransactionCount({ address: ADDR1 }));
  const hash = await w1.sendTransaction({ data: bytecode, gas: 300_000n, chain, account: w1.account!, to: null });
  const rec = await pub.waitForTransactionReceipt({ hash });
  assert.equal(rec.status, 'reverted');
  assert.equal(rec.gasUsed, 300_000n);
  // As geth's receipt: the address the creation was to make, though it was refused.
  assert.equal(rec.contractAddress, getContractAddress({ from: ADDR1, nonce }).toLowerCase());
  const ok = await pub.waitForTransactionReceipt({ hash: await w0.deployContract({ abi: [], bytecode, chain, account: w0.account! }) });
  assert.equal(ok.status, 'success');
});

test('FeeManager: setFeeConfig shows up in eth_feeConfig with lastChangedAt', async () => {
  const rec = await send(
    w0,
    FEE_MANAGER,
    encodeFunctionData({ abi, functionName: 'setFeeConfig', args: [9_000_000n, 2n, 25_000_000_000n, 15_000_000n, 36n, 0n, 1_000_000n, 200_000n] }),
  );
  assert.equal(rec.status, 'success');
  const r = await raw('eth_feeConfig', []);
  assert.equal(r.result.feeConfig.gasLimit, 9000000);
  assert.equal(r.result.lastChangedAt, Number(rec.blockNumber));
  const last = await pub.readContract({ address: FEE_MANAGER, abi, functionName: 'getFeeConfigLastChangedAt' });
  assert.equal(last, rec.blockNumber);
});

test('RewardManager: after setRewardAddress the next blocks pay their fees to it', async () => {
  const rec = await send(w0, REWARD_MANAGER, encodeFunctionData({ abi, functionName: 'setRewardAddress', args: [TREASURY] }));
  assert.equal(rec.status, 'success');
  const next = await send(w0, TREASURY, '0x');
  const block = await pub.getBlock({ blockNumber: next.blockNumber });
  assert.equal(block.miner.toLowerCase(), TREASURY);
});

test('Warp: sendWarpMessage emits SendWarpMessage', async () => {
  const rec = await send(w0, WARP, encodeFunctionData({ abi, functionName: 'sendWarpMessage', args: ['0x68656c6c6f'] }));
  assert.equal(rec.status, 'success');
  const [ev] = parseEventLogs({ abi, logs: rec.logs, eventName: 'SendWarpMessage' });
  assert.equal(ev!.args.sender, ADDR0);
  assert.ok(ev!.args.message.endsWith('68656c6c6f'));
});
