// viem against the dev chain: deploy and use an ERC-20, logs, revert reasons, gas, fees,
// WebSocket watchers, batches, and the anvil-style test actions.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  webSocket,
  parseEther,
  parseEventLogs,
  BaseError,
  ContractFunctionRevertedError,
  type Hex,
  type Address,
} from 'viem';
import type { WalletClient, PublicClient, Transport, Chain, Account } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startDevNode, contracts, KEY0, ADDR0, ADDR1, EWOQ_KEY, EWOQ_ADDR, type DevNode } from './setup.js';

let dev: DevNode;
let pub: PublicClient<Transport, Chain>;
let wallet: WalletClient<Transport, Chain, Account>;
const account = privateKeyToAccount(KEY0);
const erc20 = () => contracts.erc20();
let token: Address;

before(async () => {
  dev = await startDevNode();
  pub = createPublicClient<Transport, Chain>({ chain: dev.chain, transport: http(dev.rpcURL), cacheTime: 0, pollingInterval: 50 });
  wallet = createWalletClient<Transport, Chain, Account>({ chain: dev.chain, transport: http(dev.rpcURL), account });
  const c = erc20();
  const hash = await wallet.deployContract({ abi: c.abi, bytecode: c.bytecode, args: ['Powder Token', 'PWD', parseEther('1000000')], account, chain: dev.chain });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  assert.equal(receipt.status, 'success');
  token = receipt.contractAddress!;
});

after(async () => {
  await dev?.stop();
});

test('chain id, block number, balances of the dev accounts', async () => {
  assert.equal(await pub.getChainId(), dev.chainId);
  assert.ok((await pub.getBlockNumber()) >= 1n);
  assert.ok((await pub.getBalance({ address: EWOQ_ADDR })) > 0n);
  const block = await pub.getBlock();
  assert.ok(block.baseFeePerGas! > 0n);
});

test('ERC-20: read, transfer, Transfer event in receipt and getLogs', async () => {
  const c = erc20();
  assert.equal(await pub.readContract({ address: token, abi: c.abi, functionName: 'name' }), 'Powder Token');
  assert.equal(await pub.readContract({ address: token, abi: c.abi, functionName: 'balanceOf', args: [ADDR0] }), parseEther('1000000'));
  const hash = await wallet.writeContract({ address: token, abi: c.abi, functionName: 'transfer', args: [ADDR1, 1234n], account, chain: dev.chain });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  assert.equal(receipt.status, 'success');
  const events = parseEventLogs({ abi: c.abi, logs: receipt.logs }) as any[];
  assert.equal(events.length, 1);
  assert.equal(events[0].eventName, 'Transfer');
  assert.equal(events[0].args.to, ADDR1);
  assert.equal(events[0].args.value, 1234n);
  assert.equal(await pub.readContract({ address: token, abi: c.abi, functionName: 'balanceOf', args: [ADDR1] }), 1234n);
  const logs = await pub.getContractEvents({ address: token, abi: c.abi, eventName: 'Transfer', args: { to: ADDR1 }, fromBlock: 0n });
  assert.equal(logs.length, 1);
  assert.equal(logs[0].transactionHash, hash);
  const filter = await pub.createContractEventFilter({ address: token, abi: c.abi, eventName: 'Transfer', fromBlock: 0n });
  const fromFilter = await pub.getFilterLogs({ filter });
  assert.ok(fromFilter.length >= 2, 'mint and transfer');
});

test('revert reasons reach viem: simulateContract, estimateGas, custom errors', async () => {
  const c = erc20();
  const poor = privateKeyToAccount(EWOQ_KEY);
  await assert.rejects(
    pub.simulateContract({ address: token, abi: c.abi, functionName: 'transfer', args: [ADDR0, 1n], account: poor }),
    (e: unknown) => {
      const revert = (e as BaseError).walk((x) => x instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
      assert.ok(revert, String(e));
      assert.equal(revert.reason, 'ERC20: transfer amount exceeds balance');
      return true;
    },
  );
  await assert.rejects(
    pub.estimateContractGas({ address: token, abi: c.abi, functionName: 'transfer', args: [ADDR0, 1n], account: poor }),
    /ERC20: transfer amount exceeds balance/,
  );
  await assert.rejects(
    pub.simulateContract({ address: token, abi: c.abi, functionName: 'mint', args: [EWOQ_ADDR, 1n], account: poor }),
    (e: unknown) => {
      const revert = (e as BaseError).walk((x) => x instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
      assert.ok(revert, String(e));
      assert.equal(revert.data?.errorName, 'NotOwner');
      assert.deepEqual(revert.data?.args, [EWOQ_ADDR]);
      return true;
    },
  );
});

test('estimateGas and fees', async () => {
  const gas = await pub.estimateGas({ account: ADDR0, to: ADDR1, value: 1n });
  assert.equal(gas, 21000n);
  const c = erc20();
  const g = await pub.estimateContractGas({ address: token, abi: c.abi, functionName: 'transfer', args: [ADDR1, 1n], account: ADDR0 });
  assert.ok(g > 21000n && g < 100000n, String(g));
  const fees = await pub.estimateFeesPerGas();
  assert.ok(fees.maxFeePerGas! > 0n);
  assert.ok((await pub.getGasPrice()) > 0n);
  const history = await pub.getFeeHistory({ blockCount: 2, rewardPercentiles: [25, 75] });
  assert.ok(history.baseFeePerGas.length >= 1);
  assert.equal(history.reward!.length, history.gasUsedRatio.length);
});

test('plain value transfer with a second wallet (ewoq key)', async () => {
  const ewoq = createWalletClient({ chain: dev.chain, transport: http(dev.rpcURL), account: privateKeyToAccount(EWOQ_KEY) });
  const before = await pub.getBalance({ address: ADDR1 });
  const hash = await ewoq.sendTransaction({ to: ADDR1, value: parseEther('1'), account: ewoq.account!, chain: dev.chain });
  const r = await pub.waitForTransactionReceipt({ hash });
  assert.equal(r.status, 'success');
  assert.equal(r.from, EWOQ_ADDR.toLowerCase());
  assert.equal(await pub.getBalance({ address: ADDR1 }), before + parseEther('1'));
  const tx = await pub.getTransaction({ hash });
  assert.equal(tx.type, 'eip1559');
});

test('HTTP batch transport', async () => {
  const batched = createPublicClient({ chain: dev.chain, transport: http(dev.rpcURL, { batch: true }) });
  const [id, n, bal] = await Promise.all([batched.getChainId(), batched.getBlockNumber(), batched.getBalance({ address: ADDR0 })]);
  assert.equal(id, dev.chainId);
  assert.ok(n >= 1n);
  assert.ok(bal > 0n);
});

test('WebSocket: watchBlocks (newHeads) and watchContractEvent (logs)', async () => {
  const wsClient = createPublicClient({ chain: dev.chain, transport: webSocket(dev.wsURL) });
  const c = erc20();
  try {
    const gotBlock = new Promise<bigint>((resolve) => {
      const un = wsClient.watchBlocks({ onBlock: (b) => { un(); resolve(b.number!); } });
    });
    const gotEvent = new Promise<any>((resolve) => {
      const un = wsClient.watchContractEvent({ address: token, abi: c.abi, eventName: 'Transfer', onLogs: (logs) => { un(); resolve(logs[0]); } });
    });
    // give the subscriptions a moment to be registered on the server before the block comes
    await new Promise((r) => setTimeout(r, 200));
    const hash = await wallet.writeContract({ address: token, abi: c.abi, functionName: 'transfer', args: [ADDR1, 77n], account, chain: dev.chain });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    const [blockNumber, log] = await Promise.all([gotBlock, gotEvent]);
    assert.ok(blockNumber >= 1n);
    assert.equal(log.args.value, 77n);
    assert.equal(log.transactionHash, hash);
    assert.equal(log.blockNumber, receipt.blockNumber);
  } finally {
    await (await wsClient.transport.getRpcClient()).close();
  }
});

test('WebSocket transport for requests: wallet sends, public client reads the receipt', async () => {
  const transport = webSocket(dev.wsURL);
  const wsWallet = createWalletClient({ chain: dev.chain, transport, account });
  const wsPub = createPublicClient({ chain: dev.chain, transport, cacheTime: 0 });
  try {
    const hash = await wsWallet.sendTransaction({ to: ADDR1, value: 3n, account, chain: dev.chain });
    const r = await wsPub.waitForTransactionReceipt({ hash });
    assert.equal(r.status, 'success');
    assert.equal(await wsPub.getChainId(), dev.chainId);
    const [a, b] = await Promise.all([wsPub.getBlockNumber(), wsPub.getBalance({ address: ADDR1 })]);
    assert.ok(a >= r.blockNumber);
    assert.ok(b > 0n);
  } finally {
    await (await wsPub.transport.getRpcClient()).close();
  }
});

test('test client (anvil mode): mine, setBalance, snapshot/revert, increaseTime, impersonate', async () => {
  const t = createTestClient({ mode: 'anvil', chain: dev.chain, transport: http(dev.rpcURL) });
  const n0 = await pub.getBlockNumber();
  await t.mine({ blocks: 2 });
  assert.equal(await pub.getBlockNumber(), n0 + 2n);

  const who = '0x00000000000000000000000000000000000000aa' as Address;
  await t.setBalance({ address: who, value: 12345n });
  assert.equal(await pub.getBalance({ address: who }), 12345n);

  const snap = await t.snapshot();
  await t.setBalance({ address: who, value: 1n });
  await t.mine({ blocks: 1 });
  assert.equal(await pub.getBalance({ address: who }), 1n);
  await t.revert({ id: snap });
  assert.equal(await pub.getBalance({ address: who }), 12345n);

  const before = (await pub.getBlock()).timestamp;
  await t.increaseTime({ seconds: 3600 });
  await t.mine({ blocks: 1 });
  assert.ok((await pub.getBlock()).timestamp >= before + 3600n);

  const rich = EWOQ_ADDR as Address;
  await t.impersonateAccount({ address: rich });
  const hash = await createWalletClient({ chain: dev.chain, transport: http(dev.rpcURL) }).sendTransaction({ account: rich, to: who, value: 5n, chain: dev.chain });
  const r = await pub.waitForTransactionReceipt({ hash });
  assert.equal(r.status, 'success');
  await t.stopImpersonatingAccount({ address: rich });
  assert.equal(await pub.getBalance({ address: who }), 12350n);

  // viem's setLoggingEnabled and setRpcUrl call anvil_setLoggingEnabled and anvil_setRpcUrl.
  await t.setLoggingEnabled(false);
  await t.setLoggingEnabled(true);
  await assert.rejects(t.setRpcUrl('http://127.0.0.1:8545'), /forking is not supported/);
  const meta = (await t.request({ method: 'anvil_metadata' } as never)) as { chainId: number; latestBlockNumber: number };
  assert.deepEqual([meta.chainId, BigInt(meta.latestBlockNumber)], [dev.chain.id, await pub.getBlockNumber()]);
});

test('code and storage reads of the deployed token', async () => {
  const code = (await pub.getCode({ address: token })) as Hex;
  assert.equal(code, erc20().deployedBytecode);
  // slot 2 = totalSupply
  const supply = await pub.getStorageAt({ address: token, slot: '0x2' });
  assert.equal(BigInt(supply!), parseEther('1000000'));
});

test('test client (anvil mode) on its own node: dropTransaction, timestamp interval, sendUnsignedTransaction, dumpState/loadState, reset', async () => {
  const own = await startDevNode();
  const other = await startDevNode();
  try {
    const t = createTestClient({ mode: 'anvil', chain: own.chain, transport: http(own.rpcURL) });
    const p = createPublicClient<Transport, Chain>({ chain: own.chain, transport: http(own.rpcURL), cacheTime: 0 });
    const w = createWalletClient<Transport, Chain, Account>({ chain: own.chain, transport: http(own.rpcURL), account });
    const who = '0x00000000000000000000000000000000000000ab' as Address;

    await t.setAutomine(false);
    const queued = await w.sendTransaction({ to: who, value: 1n, chain: own.chain });
    await t.dropTransaction({ hash: queued });
    assert.equal((await t.getTxpoolStatus()).pending, 0);
    await t.setAutomine(true);

    await t.setBlockTimestampInterval({ interval: 100 });
    await t.mine({ blocks: 1 });
    const b1 = await p.getBlock();
    await t.mine({ blocks: 1 });
    assert.equal((await p.getBlock()).timestamp, b1.timestamp + 100n);
    await t.removeBlockTimestampInterval();

    await t.setBalance({ address: who, value: parseEther('1') });
    const hash = await t.sendUnsignedTransaction({ from: who, to: ADDR1 as Address, value: 3n });
    assert.equal((await p.waitForTransactionReceipt({ hash })).from, who);

    const state = await t.dumpState();
    const t2 = createTestClient({ mode: 'anvil', chain: other.chain, transport: http(other.rpcURL) });
    await t2.loadState({ state });
    const p2 = createPublicClient<Transport, Chain>({ chain: other.chain, transport: http(other.rpcURL), cacheTime: 0 });
    assert.equal(await p2.getBalance({ address: who }), await p.getBalance({ address: who }));

    await t.reset();
    assert.equal(await p.getBlockNumber(), 0n);
    assert.equal(await p.getBalance({ address: who }), 0n);
  } finally {
    await own.stop();
    await other.stop();
  }
});
