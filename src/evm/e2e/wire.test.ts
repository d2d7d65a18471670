// The chain's /rpc and /ws endpoints on the wire (plain fetch and `ws`): geth's envelope and
// error shapes, batches, HTTP rules, subscriptions, revert errors, and debug tracing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wsClient } from '../../../test/wsClient.js';
import { createWalletClient, createPublicClient, http, encodeFunctionData, decodeEventLog, type Address, type Hex } from 'viem';
import type { WalletClient, PublicClient, Transport, Chain, Account } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startDevNode, contracts, rawRpc, KEY0, ADDR0, ADDR1, type DevNode } from './setup.js';

let dev: DevNode;
let configDir: string;
let wallet: WalletClient<Transport, Chain, Account>;
let pub: PublicClient<Transport, Chain>;
const account = privateKeyToAccount(KEY0);
let emitter: Address;
let reverter: Address;
let caller: Address;

const call = (method: string, params: unknown[] = [], id: unknown = 1) => rawRpc(dev.rpcURL, { jsonrpc: '2.0', id, method, params });

async function deploy(c: { abi: any; bytecode: Hex }): Promise<Address> {
  const hash = await wallet.deployContract({ abi: c.abi, bytecode: c.bytecode, account, chain: dev.chain });
  return (await pub.waitForTransactionReceipt({ hash })).contractAddress!;
}

async function send(to: Address, data: Hex): Promise<Hex> {
  const hash = await wallet.sendTransaction({ to, data, account, chain: dev.chain });
  await pub.waitForTransactionReceipt({ hash });
  return hash;
}

before(async () => {
  // The dev chain with the tracing API on, through its chain config (eth-apis replaces the list).
  configDir = mkdtempSync(join(tmpdir(), 'powder-chaincfg-'));
  mkdirSync(join(configDir, 'dev'));
  const apis = ['eth', 'eth-filter', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction', 'debug-tracer'];
  writeFileSync(join(configDir, 'dev', 'config.json'), JSON.stringify({ 'eth-apis': apis }));
  dev = await startDevNode({ 'chain-config-dir': configDir });
  pub = createPublicClient<Transport, Chain>({ chain: dev.chain, transport: http(dev.rpcURL), cacheTime: 0, pollingInterval: 50 });
  wallet = createWalletClient<Transport, Chain, Account>({ chain: dev.chain, transport: http(dev.rpcURL), account });
  emitter = await deploy(contracts.emitter());
  reverter = await deploy(contracts.reverter());
  caller = await deploy(contracts.caller());
});

after(async () => {
  await dev?.stop();
  rmSync(configDir, { recursive: true, force: true });
});

test('envelope, member order and unknown methods', async () => {
  const res = await fetch(dev.rpcURL, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":"a","method":"eth_chainId","params":[]}' });
  assert.equal(res.headers.get('content-type'), 'application/json');
  assert.equal(await res.text(), `{"jsonrpc":"2.0","id":"a","result":"0x${dev.chainId.toString(16)}"}\n`);
  assert.deepEqual(await call('eth_suggestPriceOptions'), {
    jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'the method eth_suggestPriceOptions does not exist/is not available' },
  });
  assert.deepEqual((await call('eth_getBalance', ['0x12', 'latest'])).error, { code: -32602, message: 'invalid argument 0: hex string has length 2, want 40 for common.Address' });
  assert.deepEqual((await rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: {} })).error, { code: -32602, message: 'non-array args' });
  assert.deepEqual(await rawRpc(dev.rpcURL, '{"jsonrpc":"2.0","id":1,'), { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
  assert.equal(await rawRpc(dev.rpcURL, { jsonrpc: '2.0', method: 'eth_chainId', params: [] }), undefined, 'a notification gets no answer');
});

test('batches on /rpc', async () => {
  const r = await rawRpc(dev.rpcURL, [
    { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
    { jsonrpc: '2.0', id: 2, method: 'net_version', params: [] },
    { jsonrpc: '2.0', id: 3, method: 'nope_nope', params: [] },
    { jsonrpc: '2.0', method: 'eth_chainId', params: [] },
  ]);
  assert.equal(r.length, 3);
  assert.deepEqual(r.map((x: any) => x.id), [1, 2, 3]);
  assert.equal(r[1].result, String(dev.chainId));
  assert.equal(r[2].error.code, -32601);
  assert.deepEqual(await rawRpc(dev.rpcURL, '[]'), { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } });
  const tooMany = Array.from({ length: 1001 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId', params: [] }));
  assert.deepEqual(await rawRpc(dev.rpcURL, tooMany), [{ jsonrpc: '2.0', id: 0, error: { code: -32600, message: 'batch too large' } }]);
});

test('HTTP rules on /rpc and /ws', async () => {
  const get = await fetch(dev.rpcURL);
  assert.equal(get.status, 200);
  const bad = await fetch(dev.rpcURL, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
  assert.equal(bad.status, 415);
  assert.equal(await bad.text(), 'invalid content type, only application/json is supported\n');
  const put = await fetch(dev.rpcURL, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(put.status, 405);
  const big = await fetch(dev.rpcURL, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ' '.repeat(5 * 1024 * 1024 + 1) });
  assert.equal(big.status, 413);
  assert.equal(await big.text(), `content length too large (${5 * 1024 * 1024 + 1}>${5 * 1024 * 1024})\n`);
  const wsPlain = await fetch(dev.wsURL.replace(/^ws/, 'http'));
  assert.equal(wsPlain.status, 400);
  assert.deepEqual((await call('eth_subscribe', ['newHeads'])).error, { code: -32601, message: 'notifications not supported' });
});

test('eth_call reverts: code 3, reason in the message, revert data', async () => {
  const c = contracts.reverter();
  const reason = await call('eth_call', [{ to: reverter, data: encodeFunctionData({ abi: c.abi, functionName: 'revertWithReason' }) }, 'latest']);
  assert.equal(reason.error.code, 3);
  assert.equal(reason.error.message, 'execution reverted: Reverter: nope');
  assert.match(reason.error.data, /^0x08c379a0/);
  const custom = await call('eth_call', [{ to: reverter, data: encodeFunctionData({ abi: c.abi, functionName: 'revertWithCustom' }) }, 'latest']);
  assert.equal(custom.error.code, 3);
  assert.equal(custom.error.message, 'execution reverted');
  const panic = await call('eth_estimateGas', [{ from: ADDR0, to: reverter, data: encodeFunctionData({ abi: c.abi, functionName: 'panicDivide', args: [0n] }) }]);
  assert.equal(panic.error.code, 3);
  assert.equal(panic.error.message, 'execution reverted: division or modulo by zero');
});

test('WebSocket subscriptions: newHeads, logs, newPendingTransactions, newAcceptedTransactions', async () => {
  const c = await wsClient(dev.wsURL);
  try {
    const heads = (await c.request('eth_subscribe', ['newHeads'])).result;
    const logs = (await c.request('eth_subscribe', ['logs', { address: emitter }])).result;
    const pending = (await c.request('eth_subscribe', ['newPendingTransactions'])).result;
    const accepted = (await c.request('eth_subscribe', ['newAcceptedTransactions'])).result;
    for (const id of [heads, logs, pending, accepted]) assert.match(id, /^0x[0-9a-f]+$/);
    assert.equal((await c.request('eth_subscribe', ['nope'])).error.message, 'no "nope" subscription in eth namespace');

    const em = contracts.emitter();
    const hash = await send(emitter, encodeFunctionData({ abi: em.abi, functionName: 'ping', args: [7n, 'hello'] }));

    const head = (await c.notification(heads)).params.result;
    assert.match(head.hash, /^0x[0-9a-f]{64}$/);
    assert.match(head.number, /^0x[0-9a-f]+$/);
    // geth sends the header value: HeaderSerializable's field order, then hash; each value as
    // eth_getBlockByHash has it, without totalDifficulty or the body.
    const keys = Object.keys(head);
    assert.deepEqual(keys.slice(0, 3), ['parentHash', 'sha3Uncles', 'miner']);
    assert.equal(keys.at(-1), 'hash');
    assert.equal('totalDifficulty' in head, false);
    const block = (await call('eth_getBlockByHash', [head.hash, false])).result;
    for (const k of keys) assert.deepEqual(head[k], block[k] ?? null, k);
    const log = (await c.notification(logs)).params.result;
    assert.equal(log.address, emitter.toLowerCase());
    assert.equal(log.transactionHash, hash);
    const ev = decodeEventLog({ abi: em.abi, data: log.data, topics: log.topics }) as any;
    assert.equal(ev.eventName, 'Ping');
    assert.equal(ev.args.note, 'hello');
    assert.equal((await c.notification(pending)).params.result, hash);
    assert.equal((await c.notification(accepted)).params.result, hash);

    assert.equal((await c.request('eth_unsubscribe', [logs])).result, true);
    assert.deepEqual((await c.request('eth_unsubscribe', [logs])).error, { code: -32000, message: 'subscription not found' });
  } finally {
    c.close();
  }
});

test('WebSocket: a logs subscription filtered by topic sees only matching logs', async () => {
  const c = await wsClient(dev.wsURL);
  try {
    const em = contracts.emitter();
    // topic 2 (indexed n) = 5
    const five = '0x' + (5).toString(16).padStart(64, '0');
    const sub = (await c.request('eth_subscribe', ['logs', { address: emitter, topics: [null, null, five] }])).result;
    await send(emitter, encodeFunctionData({ abi: em.abi, functionName: 'ping', args: [4n, 'no'] }));
    const hash = await send(emitter, encodeFunctionData({ abi: em.abi, functionName: 'ping', args: [5n, 'yes'] }));
    const log = (await c.notification(sub)).params.result;
    assert.equal(log.transactionHash, hash, 'the ping with n = 4 did not match');
    assert.equal(log.topics[2], five);
  } finally {
    c.close();
  }
});

test('eth_getLogs and filters over HTTP', async () => {
  const em = contracts.emitter();
  await send(emitter, encodeFunctionData({ abi: em.abi, functionName: 'many', args: [3n] }));
  const all = await call('eth_getLogs', [{ address: emitter, fromBlock: '0x0', toBlock: 'latest' }]);
  assert.ok(all.result.length >= 5, 'pings, Data and Anon');
  const anon = all.result.filter((l: any) => l.topics.length === 0);
  assert.equal(anon.length, 1, 'the anonymous event has no topics');
  const f = (await call('eth_newFilter', [{ address: emitter }])).result;
  await send(emitter, encodeFunctionData({ abi: em.abi, functionName: 'ping', args: [1n, 'filter'] }));
  const changes = (await call('eth_getFilterChanges', [f])).result;
  assert.equal(changes.length, 1);
  assert.deepEqual((await call('eth_getFilterChanges', [f])).result, []);
  assert.equal((await call('eth_uninstallFilter', [f])).result, true);
});

// The chain's methods decode params with src/evm/rpc/params.ts, so their errors are geth's.

test('a revert without data is the plain -32000 error without data', async () => {
  const c = contracts.reverter();
  const bare = await call('eth_call', [{ to: reverter, data: encodeFunctionData({ abi: c.abi, functionName: 'revertBare' }) }, 'latest']);
  // geth (DoCall): only a non-empty revert becomes a revertError (code 3 with data).
  assert.deepEqual(bare.error, { code: -32000, message: 'execution reverted' });
});

test('param errors have geth texts', async () => {
  const expect = async (method: string, params: unknown[], message: string, code = -32602) =>
    assert.deepEqual((await call(method, params)).error, { code, message }, `${method} ${JSON.stringify(params)}`);
  await expect('eth_chainId', [1], 'too many arguments, want at most 0');
  await expect('eth_getBlockByNumber', [5, false], 'invalid argument 0: hex string without 0x prefix');
  await expect('eth_getBalance', [ADDR0, null], 'invalid arguments; neither block nor hash specified', -32000);
  await expect('eth_call', [{ to: ADDR1, gas: '5208' }], 'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go struct field TransactionArgs.gas of type hexutil.Uint64');
  await expect('eth_getLogs', [{ address: 5 }], 'invalid argument 0: invalid addresses in query');
  await expect('eth_getLogs', [{ topics: '0x12' }], 'invalid argument 0: json: cannot unmarshal string into Go struct field input.topics of type []interface {}');
  await expect('eth_getLogs', [{ topics: ['0x12'] }], 'invalid argument 0: hex has invalid length 1 after decoding; expected 32 for topic');
});

test('eth_subscribe param errors have geth texts', async () => {
  const c = await wsClient(dev.wsURL);
  try {
    assert.deepEqual((await c.request('eth_subscribe', ['logs'])).error, { code: -32602, message: 'missing value for required argument 1' });
    assert.deepEqual((await c.request('eth_subscribe', ['newHeads', 1])).error, { code: -32602, message: 'too many arguments, want at most 1' });
    assert.deepEqual((await c.request('eth_subscribe', ['logs', { address: 5 }])).error, { code: -32602, message: 'invalid argument 1: invalid addresses in query' });
  } finally {
    c.close();
  }
});

test('debug_traceTransaction and debug_traceCall with callTracer and the struct logger', async () => {
  const st = contracts.storage();
  const storage = await deploy({ abi: st.abi, bytecode: (st.bytecode + '0'.repeat(63) + '3') as Hex });
  const cl = contracts.caller();
  const hash = await send(caller, encodeFunctionData({ abi: cl.abi, functionName: 'callSet', args: [storage, 11n] }));
  const t = await call('debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
  assert.equal(t.error, undefined, JSON.stringify(t.error));
  const top = t.result;
  assert.equal(top.type, 'CALL');
  assert.equal(top.from, ADDR0.toLowerCase());
  assert.equal(top.to, caller.toLowerCase());
  assert.equal(top.calls[0].type, 'CALL');
  assert.equal(top.calls[1].type, 'STATICCALL');
  const receipt = await pub.getTransactionReceipt({ hash });
  assert.equal(BigInt(top.gasUsed), receipt.gasUsed);

  const s = await call('debug_traceTransaction', [hash, {}]);
  assert.equal(s.result.failed, false);
  assert.equal(s.result.gas, Number(receipt.gasUsed));
  assert.ok(s.result.structLogs.some((l: any) => l.op === 'SSTORE' && l.depth === 2));

  const tc = await call('debug_traceCall', [{ from: ADDR1, to: caller, data: encodeFunctionData({ abi: cl.abi, functionName: 'callRevert', args: [reverter] }) }, 'latest', { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
  assert.equal(tc.error, undefined, JSON.stringify(tc.error));
  assert.equal(tc.result.calls[0].revertReason, 'Reverter: nope');
  assert.equal(tc.result.logs.length, 1);
  assert.equal((await call('debug_traceCall', [{ to: caller }, 'latest', { tracer: 'fooTracer' }])).error.code, -32000);
});
