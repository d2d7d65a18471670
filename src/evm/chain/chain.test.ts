// The dev chain through real HTTP: genesis, accounts, mining, receipts, fees to the coinbase,
// block tags, and bad params.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDevNode, signTx, rpcError, DEV_ADDRS, BLACKHOLE } from './testkit.js';
import { devAccounts } from './devAccounts.js';
import { createTx } from '@ethereumjs/tx';
import { Mainnet, createCustomCommon } from '@ethereumjs/common';

function otherChainTx(): string {
  const common = createCustomCommon({ chainId: '1234' }, Mainnet, { hardfork: 'cancun' });
  const tx = createTx({ type: 2, chainId: 1234n, nonce: 0n, gasLimit: 21000n, maxFeePerGas: 30_000_000_000n, to: DEV_ADDRS[1] as `0x${string}` }, { common });
  return '0x' + Buffer.from(tx.sign(Buffer.from('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', 'hex')).serialize()).toString('hex');
}

const { rpc } = useDevNode();

test('dev accounts: BIP-44 derivation of the test mnemonic and the ewoq key', () => {
  const accts = devAccounts();
  assert.equal(accts.length, 11);
  assert.equal(accts[0].address, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  assert.equal(accts[1].address, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
  assert.equal(accts[0].privateKey, '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
  assert.equal(accts[10].address, '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
});

test('dev chain: chain id, accounts, prefunded balances, Granite genesis', async () => {
  assert.equal(await rpc('eth_chainId'), '0xa8ca');
  assert.equal(await rpc('net_version'), '43210');
  const accounts = await rpc('eth_accounts');
  assert.equal(accounts.length, 11);
  assert.equal(accounts[0], DEV_ADDRS[0]);
  assert.equal(await rpc('eth_getBalance', [accounts[10], 'earliest']), '0xd3c21bcecceda1000000');
  const g = await rpc('eth_getBlockByNumber', ['0x0', false]);
  assert.equal(g.number, '0x0');
  // The chain's first start (its JSON says 0x5fcb13d0: every upgrade through Granite active).
  assert.ok(BigInt(g.timestamp) > 0x5fcb13d0n && BigInt(g.timestamp) <= BigInt(Math.ceil(Date.now() / 1000)), g.timestamp);
  assert.equal(g.baseFeePerGas, '0x5d21dba00');
  assert.equal(g.gasLimit, '0x1c9c380'); // 30,000,000: the dev fee config
  assert.ok(g.timestampMilliseconds && g.minDelayExcess !== undefined, 'Granite genesis fields');
  assert.equal(await rpc('eth_syncing'), false);
  assert.equal(await rpc('net_listening'), true);
  assert.equal(await rpc('net_peerCount'), '0x0');
});

test('automine: a transfer is in a block when eth_sendRawTransaction answers; the whole fee goes to the coinbase', async () => {
  const before = BigInt(await rpc('eth_getBalance', [BLACKHOLE, 'latest']));
  const senderBefore = BigInt(await rpc('eth_getBalance', [DEV_ADDRS[2], 'latest']));
  const nonce = BigInt(await rpc('eth_getTransactionCount', [DEV_ADDRS[2], 'latest']));
  const hash = await rpc('eth_sendRawTransaction', [signTx(2, { nonce, to: DEV_ADDRS[1], value: 12345n, maxPriorityFeePerGas: 1_000_000_000n })]);
  const r = await rpc('eth_getTransactionReceipt', [hash]);
  assert.ok(r, 'receipt available right away');
  assert.equal(r.status, '0x1');
  assert.equal(r.gasUsed, '0x5208');
  assert.equal(r.from, DEV_ADDRS[2]);
  const block = await rpc('eth_getBlockByHash', [r.blockHash, true]);
  assert.equal(block.miner, BLACKHOLE);
  assert.equal(block.difficulty, '0x1');
  assert.equal(block.transactions[0].hash, hash);
  assert.equal(block.extraData.length, 2 + 86 * 2, 'fee window + empty predicate results');
  assert.equal(block.blockGasCost, '0x0');
  const fee = 21000n * BigInt(r.effectiveGasPrice);
  assert.equal(BigInt(r.effectiveGasPrice), BigInt(block.baseFeePerGas) + 1_000_000_000n);
  assert.equal(BigInt(await rpc('eth_getBalance', [BLACKHOLE, 'latest'])) - before, fee, 'base fee + tip to the coinbase');
  assert.equal(senderBefore - BigInt(await rpc('eth_getBalance', [DEV_ADDRS[2], 'latest'])), fee + 12345n);
  assert.equal(await rpc('eth_blockNumber'), block.number);
  const tx = await rpc('eth_getTransactionByHash', [hash]);
  assert.equal(tx.blockHash, r.blockHash);
  assert.equal(tx.from, DEV_ADDRS[2]);
  assert.equal(tx.value, '0x3039');
  const receipts = await rpc('eth_getBlockReceipts', [block.number]);
  assert.deepEqual(receipts, [r]);
});

test('eth_sendTransaction signs for a dev account; unknown accounts are refused', async () => {
  const hash = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], value: '0x1' }]);
  const r = await rpc('eth_getTransactionReceipt', [hash]);
  assert.equal(r.status, '0x1');
  const e = await rpcError(rpc('eth_sendTransaction', [{ from: '0x1111111111111111111111111111111111111111', to: DEV_ADDRS[1], value: '0x1' }]));
  assert.equal(e.code, -32000);
  assert.equal(e.message, 'unknown account');
});

test('block tags: latest/pending/safe/finalized/accepted are the last accepted block; above it is unfinalized', async () => {
  const head = await rpc('eth_blockNumber');
  for (const tag of ['latest', 'pending', 'safe', 'finalized', 'accepted']) {
    assert.equal((await rpc('eth_getBlockByNumber', [tag, false])).number, head, tag);
  }
  const next = '0x' + (BigInt(head) + 1n).toString(16);
  for (const [m, p] of [
    ['eth_getBlockByNumber', [next, false]],
    ['eth_getBalance', [DEV_ADDRS[0], next]],
    ['eth_call', [{ to: DEV_ADDRS[0] }, next]],
  ] as const) {
    const e = await rpcError(rpc(m, [...p]));
    assert.deepEqual([e.code, e.message], [-32000, 'cannot query unfinalized data'], m);
  }
  assert.equal(await rpc('eth_getBlockByHash', ['0x' + '11'.repeat(32), false]), null);
  assert.equal(await rpc('eth_getTransactionReceipt', ['0x' + '11'.repeat(32)]), null);
});

test('"pending" block and header: the last accepted one with hash, nonce and miner null (geth\'s API)', async () => {
  for (const [method, extra] of [['eth_getBlockByNumber', [false]], ['eth_getHeaderByNumber', []]] as const) {
    const latest = await rpc(method, ['latest', ...extra]);
    const pending = await rpc(method, ['pending', ...extra]);
    assert.deepEqual(Object.keys(pending), Object.keys(latest), method);
    assert.deepEqual(pending, { ...latest, hash: null, nonce: null, miner: null }, method);
  }
});

test('bad params are answered with geth texts', async () => {
  let e = await rpcError(rpc('eth_getBalance', ['0x1234', 'latest']));
  assert.deepEqual([e.code, e.message], [-32602, 'invalid argument 0: hex string has length 4, want 40 for common.Address']);
  e = await rpcError(rpc('eth_getBalance', [DEV_ADDRS[0], 'lastest']));
  assert.equal(e.code, -32602);
  e = await rpcError(rpc('eth_getBlockByNumber', ['0x01', false]));
  assert.deepEqual([e.code, e.message], [-32602, 'invalid argument 0: hex number with leading zero digits']);
  e = await rpcError(rpc('eth_getBalance', []));
  assert.deepEqual([e.code, e.message], [-32602, 'missing value for required argument 0']);
  e = await rpcError(rpc('eth_getTransactionReceipt', ['0x12']));
  assert.equal(e.code, -32602);
  e = await rpcError(rpc('eth_sendRawTransaction', ['0xzz']));
  assert.equal(e.code, -32602);
  e = await rpcError(rpc('eth_chainId', [1]));
  assert.deepEqual([e.code, e.message], [-32602, 'too many arguments, want at most 0']);
  e = await rpcError(rpc('eth_getBalance', [DEV_ADDRS[0], null]));
  assert.deepEqual([e.code, e.message], [-32000, 'invalid arguments; neither block nor hash specified']);
  e = await rpcError(rpc('eth_getBlockByNumber', [5, false]));
  assert.deepEqual([e.code, e.message], [-32602, 'invalid argument 0: hex string without 0x prefix']);
  // A tx signed for another chain id has no valid sender here.
  e = await rpcError(rpc('eth_sendRawTransaction', [otherChainTx()]));
  assert.deepEqual([e.code, e.message], [-32000, 'invalid sender']);
  e = await rpcError(rpc('eth_suggestPriceOptions', []));
  assert.deepEqual([e.code, e.message], [-32601, 'the method eth_suggestPriceOptions does not exist/is not available']);
});

test('fee methods on the dev chain', async () => {
  assert.equal(await rpc('eth_baseFee'), '0x5d21dba00');
  const tip = BigInt(await rpc('eth_maxPriorityFeePerGas'));
  assert.equal(BigInt(await rpc('eth_gasPrice')), tip + 25_000_000_000n);
  const fc = await rpc('eth_feeConfig', []);
  assert.equal(fc.feeConfig.gasLimit, 30000000);
  assert.equal(fc.lastChangedAt, 0);
  const hist = await rpc('eth_feeHistory', ['0x2', 'latest', [50]]);
  assert.equal(hist.baseFeePerGas.length, 2, 'Subnet-EVM: blockCount base fees, not +1');
  assert.equal(hist.reward.length, 2);
  // Percentiles decode as Go's []float64.
  const p1 = await rpcError(rpc('eth_feeHistory', ['0x2', 'latest', {}]));
  assert.deepEqual([p1.code, p1.message], [-32602, 'invalid argument 2: json: cannot unmarshal object into Go value of type []float64']);
  const p2 = await rpcError(rpc('eth_feeHistory', ['0x2', 'latest', ['50']]));
  assert.deepEqual([p2.code, p2.message], [-32602, 'invalid argument 2: json: cannot unmarshal string into Go value of type float64']);
  const cfg = await rpc('eth_getChainConfig');
  assert.equal(cfg.chainId, 43210);
  assert.deepEqual(cfg.upgrades, {});
  const rules = await rpc('eth_getActiveRulesAt', []);
  assert.equal(rules.avalancheRules.IsGranite, true);
  const e = await rpcError(rpc('eth_getActiveRulesAt', ['0x10']));
  assert.equal(e.code, -32602);
});
