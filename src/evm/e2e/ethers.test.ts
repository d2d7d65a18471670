// ethers v6 against the dev chain: ContractFactory deploy, transfers, revert reasons, events,
// filters, fee data, and the WebSocket provider.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { JsonRpcProvider, WebSocketProvider, Wallet, ContractFactory, Contract, parseEther, isError, type Log, type EventLog } from 'ethers';
import { startDevNode, contracts, rawRpc, KEY0, ADDR1, EWOQ_KEY, EWOQ_ADDR, type DevNode } from './setup.js';

let dev: DevNode;
let provider: JsonRpcProvider;
let wallet: Wallet;
let token: Contract;

before(async () => {
  dev = await startDevNode();
  provider = new JsonRpcProvider(dev.rpcURL, dev.chainId, { staticNetwork: true, pollingInterval: 100, cacheTimeout: -1 });
  wallet = new Wallet(KEY0, provider);
  const c = contracts.erc20();
  const factory = new ContractFactory(c.abi, c.bytecode, wallet);
  token = (await factory.deploy('Ethers Token', 'ETK', parseEther('500'))) as Contract;
  await token.waitForDeployment();
});

after(async () => {
  provider?.destroy();
  await dev?.stop();
});

test('network and accounts', async () => {
  const net = await provider.getNetwork();
  assert.equal(net.chainId, BigInt(dev.chainId));
  assert.ok((await provider.getBalance(EWOQ_ADDR)) > 0n);
  assert.equal(await provider.getTransactionCount(wallet.address), 1);
});

test('ERC-20 transfer through a Contract, with the Transfer event', async () => {
  assert.equal(await token.symbol(), 'ETK');
  const tx = await token.transfer(ADDR1, 500n);
  const receipt = await tx.wait();
  assert.equal(receipt!.status, 1);
  const ev = receipt!.logs.map((l: Log) => token.interface.parseLog(l)).find((x: { name: string } | null) => x?.name === 'Transfer');
  assert.equal(ev!.args.to, ADDR1);
  assert.equal(ev!.args.value, 500n);
  assert.equal(await token.balanceOf(ADDR1), 500n);
  const events = (await token.queryFilter(token.filters.Transfer(null, ADDR1), 0)) as EventLog[];
  assert.equal(events.length, 1);
  assert.equal(events[0].transactionHash, tx.hash);
});

test('revert reasons: call, estimateGas and sendTransaction', async () => {
  const poor = new Wallet(EWOQ_KEY, provider);
  const asPoor = token.connect(poor) as Contract;
  await assert.rejects(asPoor.transfer.staticCall(wallet.address, 1n), (e: unknown) => {
    assert.ok(isError(e, 'CALL_EXCEPTION'), String(e));
    assert.equal(e.reason, 'ERC20: transfer amount exceeds balance');
    return true;
  });
  await assert.rejects(asPoor.transfer.estimateGas(wallet.address, 1n), (e: unknown) => {
    assert.ok(isError(e, 'CALL_EXCEPTION'), String(e));
    assert.equal(e.reason, 'ERC20: transfer amount exceeds balance');
    return true;
  });
  // A custom error: decoded by the contract on a static call ...
  await assert.rejects(asPoor.mint.staticCall(EWOQ_ADDR, 1n), (e: unknown) => {
    assert.ok(isError(e, 'CALL_EXCEPTION'), String(e));
    assert.equal(e.revert?.name, 'NotOwner');
    assert.equal(e.revert?.args[0], EWOQ_ADDR);
    return true;
  });
  // ... and carried as revert data when sending (ethers leaves decoding to the caller there).
  await assert.rejects(asPoor.mint(EWOQ_ADDR, 1n), (e: unknown) => {
    assert.ok(isError(e, 'CALL_EXCEPTION'), String(e));
    assert.equal(token.interface.parseError(e.data!)?.name, 'NotOwner');
    return true;
  });
});

test('fee data, blocks, raw eth_call', async () => {
  const fee = await provider.getFeeData();
  assert.ok(fee.maxFeePerGas! > 0n);
  assert.ok(fee.gasPrice! > 0n);
  const block = await provider.getBlock('latest');
  const head = await rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
  assert.equal(block!.number, Number(head.result));
  assert.ok(block!.number >= 1);
  assert.ok(block!.baseFeePerGas! > 0n);
  const data = token.interface.encodeFunctionData('totalSupply');
  const out = await provider.call({ to: await token.getAddress(), data });
  assert.equal(BigInt(out), parseEther('500'));
});

test('WebSocketProvider: block and contract event subscriptions', async () => {
  const ws = new WebSocketProvider(dev.wsURL, dev.chainId);
  try {
    const wsToken = new Contract(await token.getAddress(), token.interface, ws);
    const gotBlock = new Promise<number>((resolve) => ws.once('block', resolve));
    const gotTransfer = new Promise<bigint>((resolve) => wsToken.once('Transfer', (_from, _to, value) => resolve(value)));
    await new Promise((r) => setTimeout(r, 300)); // let eth_subscribe land
    const tx = await token.transfer(ADDR1, 9n);
    await tx.wait();
    assert.ok((await gotBlock) >= 1);
    assert.equal(await gotTransfer, 9n);
    // The `once` listeners unsubscribe on their own; let those eth_unsubscribe calls be answered
    // (a later call on the same socket is answered after them), or destroy() cancels them and
    // ethers reports the cancellation as an unhandled rejection.
    await new Promise((r) => setImmediate(r));
    await ws.send('eth_chainId', []);
  } finally {
    await ws.destroy();
  }
});
