// Network upgrades and upgrade.json over real HTTP (reference subnet-evm.md §4.2, §4.3, §6): a
// precompile enabled in the future arrives in the first block at or after its time, disables wipe
// the account, state upgrades change balance/code/storage at their time, each network upgrade
// changes the header and EVM exactly where the reference says, and invalid upgrade.json files stop
// the chain with the reference's texts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFunctionData, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startTestNode, type TestNode } from '../../../test/helpers.js';

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027' as const;
const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const ADDR1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const FRESH = '0x00000000000000000000000000000000000c0ffe';
const CODED = '0x00000000000000000000000000000000000c0de0';
const STORE_ONLY = '0x00000000000000000000000000000000005707e0';
const STORE_BAL = '0x00000000000000000000000000000000005707e1';
const NATIVE_MINTER = '0x0200000000000000000000000000000000000001';
const TX_ALLOW_LIST = '0x0200000000000000000000000000000000000002';
const ZERO32 = '0x' + '00'.repeat(32);
const slotOf = (addr: string) => '0x' + '00'.repeat(12) + addr.slice(2).toLowerCase();
const word = (n: bigint) => '0x' + n.toString(16).padStart(64, '0');
const hex = (n: bigint | number) => '0x' + BigInt(n).toString(16);

const minterAbi = parseAbi(['function mintNativeCoin(address addr, uint256 amount)', 'function readAllowList(address addr) view returns (uint256)']);
const mintData = (to: string, amount: bigint) => encodeFunctionData({ abi: minterAbi, functionName: 'mintNativeCoin', args: [to as `0x${string}`, amount] });
const readAllowListData = (a: string) => encodeFunctionData({ abi: minterAbi, functionName: 'readAllowList', args: [a as `0x${string}`] });

const FEE_CONFIG = { gasLimit: 8000000, targetBlockRate: 2, minBaseFee: 25000000000, targetGas: 15000000, baseFeeChangeDenominator: 36, minBlockGasCost: 0, maxBlockGasCost: 1000000, blockGasCostStep: 200000 };
function genesis(chainId: number, extra: Record<string, unknown> = {}, timestamp = '0x5FCB13D0'): Record<string, unknown> {
  return {
    config: { chainId, feeConfig: FEE_CONFIG, initialMinDelayMS: 1, ...extra },
    alloc: { [EWOQ]: { balance: '0x52B7D2DCC80CD2E4000000' } },
    timestamp, gasLimit: '0x7A1200', difficulty: '0x0', extraData: '0x00',
  };
}

/** Wall-clock seconds at the start: upgrade times are set relative to it, in the future. */
const NOW = Math.floor(Date.now() / 1000);
const T = NOW + 3600;

let tmp: string;
let node: TestNode;

async function call(alias: string, method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(`${node.url}/ext/bc/${alias}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return res.json();
}
async function result(alias: string, method: string, params: unknown[] = []): Promise<any> {
  const body = await call(alias, method, params);
  assert.equal(body.error, undefined, `${method} ${JSON.stringify(params)}: ${JSON.stringify(body.error)}`);
  return body.result;
}
async function mineAt(alias: string, ts: number): Promise<any> {
  await result(alias, 'evm_setNextBlockTimestamp', [ts]);
  await result(alias, 'evm_mine');
  const b = await result(alias, 'eth_getBlockByNumber', ['latest', false]);
  assert.equal(Number(b.timestamp), ts);
  return b;
}
const ewoq = privateKeyToAccount(EWOQ_KEY);
/** Signs and sends a tx from ewoq (automine) and returns its receipt. */
async function send(alias: string, tx: { to: string; data?: `0x${string}`; value?: bigint; gas?: bigint }): Promise<any> {
  const chainId = Number(await result(alias, 'eth_chainId'));
  const nonce = Number(await result(alias, 'eth_getTransactionCount', [EWOQ, 'latest']));
  const raw = await ewoq.signTransaction({
    type: 'eip1559', chainId, nonce, to: tx.to as `0x${string}`, data: tx.data, value: tx.value ?? 0n,
    gas: tx.gas ?? 200_000n, maxFeePerGas: 1_000_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n,
  });
  const h = await result(alias, 'eth_sendRawTransaction', [raw]);
  const r = await result(alias, 'eth_getTransactionReceipt', [h]);
  assert.ok(r, 'automined');
  return r;
}

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'powder-upg-'));
  const cfgDir = join(tmp, 'chain-configs');
  const upgrade = (alias: string, u: unknown) => {
    mkdirSync(join(cfgDir, alias), { recursive: true });
    writeFileSync(join(cfgDir, alias, 'upgrade.json'), JSON.stringify(u));
  };
  upgrade('nm', { precompileUpgrades: [{ contractNativeMinterConfig: { blockTimestamp: T, adminAddresses: [EWOQ] } }] });
  upgrade('dis', {
    precompileUpgrades: [
      { txAllowListConfig: { blockTimestamp: T, adminAddresses: [EWOQ], enabledAddresses: [ADDR1] } },
      { txAllowListConfig: { blockTimestamp: T + 100_000, disable: true } },
    ],
  });
  upgrade('su', {
    stateUpgrades: [
      { blockTimestamp: T, accounts: { [FRESH]: { balanceChange: '100', code: '0x6001600055', storage: { [ZERO32]: word(0xffn) } }, [EWOQ]: { balanceChange: '0x3e8' } } },
    ],
  });
  // `"code": "0x"` is no code change (Go: len(code) != 0): no nonce bump, existing code kept.
  // STORE_ONLY ends the upgrade empty (no nonce, balance or code): Go's state deletes it, storage and all.
  upgrade('su0', {
    stateUpgrades: [
      {
        blockTimestamp: T,
        accounts: {
          [FRESH]: { balanceChange: '1', code: '0x' },
          [CODED]: { code: '0x' },
          [STORE_ONLY]: { storage: { [ZERO32]: word(7n) } },
          [STORE_BAL]: { balanceChange: '2', storage: { [ZERO32]: word(8n) } },
        },
      },
    ],
  });
  node = await startTestNode({
    'chain-config-dir': cfgDir,
    chains: [
      { name: 'su0', aliases: ['su0'], genesis: { ...genesis(99906), alloc: { [EWOQ]: { balance: '0x52B7D2DCC80CD2E4000000' }, [CODED]: { balance: '0x0', code: '0x6001' } } } },
      { name: 'nm', aliases: ['nm'], genesis: genesis(99901) },
      { name: 'dis', aliases: ['dis'], genesis: genesis(99902) },
      { name: 'su', aliases: ['su'], genesis: genesis(99903) },
      // Genesis at 0 and every Avalanche upgrade scheduled at its own time (≥ the local defaults).
      { name: 'sched', aliases: ['sched'], genesis: genesis(99904, { durangoTimestamp: 1700000000, etnaTimestamp: 1700000100, graniteTimestamp: 1700000200 }, '0x0') },
    ],
  });
});
after(async () => {
  await node?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

test('upgrade.json: a native minter enabled at a future time is absent until the first block at or after it', async () => {
  // Before: inactive in the rules of the head, active in the rules at T.
  assert.deepEqual((await result('nm', 'eth_getActiveRulesAt')).precompiles, {});
  assert.deepEqual((await result('nm', 'eth_getActiveRulesAt', [T - 1])).precompiles, {});
  assert.deepEqual((await result('nm', 'eth_getActiveRulesAt', [T])).precompiles, { contractNativeMinterConfig: { timestamp: T } });
  assert.deepEqual(await result('nm', 'eth_getActivePrecompilesAt'), {});
  assert.deepEqual(await result('nm', 'eth_getActivePrecompilesAt', [T]), { contractNativeMinterConfig: { adminAddresses: [EWOQ.toLowerCase()], blockTimestamp: T } });
  // …and the address is an empty account: a call returns nothing, a tx succeeds and mints nothing.
  assert.equal(await result('nm', 'eth_getCode', [NATIVE_MINTER, 'latest']), '0x');
  assert.equal(await result('nm', 'eth_call', [{ from: EWOQ, to: NATIVE_MINTER, data: mintData(ADDR1, 10n ** 18n) }, 'latest']), '0x');
  const r0 = await send('nm', { to: NATIVE_MINTER, data: mintData(ADDR1, 10n ** 18n) });
  assert.equal(r0.status, '0x1');
  assert.equal(await result('nm', 'eth_getBalance', [ADDR1, 'latest']), '0x0');

  // One second before: still nothing.
  const before = await mineAt('nm', T - 1);
  assert.equal(await result('nm', 'eth_getCode', [NATIVE_MINTER, before.number]), '0x');
  // The block at T activates it: nonce 1, code 0x01, ewoq admin.
  const at = await mineAt('nm', T);
  assert.equal(await result('nm', 'eth_getCode', [NATIVE_MINTER, at.number]), '0x01');
  assert.equal(await result('nm', 'eth_getTransactionCount', [NATIVE_MINTER, at.number]), '0x1');
  assert.equal(await result('nm', 'eth_getCode', [NATIVE_MINTER, before.number]), '0x');
  assert.equal(await result('nm', 'eth_getStorageAt', [NATIVE_MINTER, slotOf(EWOQ), 'latest']), word(2n));
  assert.equal(await result('nm', 'eth_call', [{ to: NATIVE_MINTER, data: readAllowListData(EWOQ) }, 'latest']), word(2n));
  assert.deepEqual((await result('nm', 'eth_getActiveRulesAt')).precompiles, { contractNativeMinterConfig: { timestamp: T } });
  assert.deepEqual(Object.keys(await result('nm', 'eth_getActivePrecompilesAt')), ['contractNativeMinterConfig']);

  // It works now: ewoq mints, a non-enabled caller is refused with the precompile's text.
  const r1 = await send('nm', { to: NATIVE_MINTER, data: mintData(ADDR1, 10n ** 18n) });
  assert.equal(r1.status, '0x1');
  assert.equal(BigInt(await result('nm', 'eth_getBalance', [ADDR1, 'latest'])), 10n ** 18n);
  const refused = await call('nm', 'eth_call', [{ from: ADDR1, to: NATIVE_MINTER, data: mintData(ADDR1, 1n) }, 'latest']);
  assert.deepEqual(refused.error, { code: -32000, message: `non-enabled cannot mint: ${ADDR1}` });
});

test('upgrade.json: enable then disable (evm_increaseTime + evm_mine); disabling wipes the account', async () => {
  assert.equal(await result('dis', 'eth_getCode', [TX_ALLOW_LIST, 'latest']), '0x');
  // Move the clock past T (but far from the disable time) and mine.
  await result('dis', 'evm_increaseTime', [3600 + 60]);
  await result('dis', 'evm_mine');
  const on = await result('dis', 'eth_getBlockByNumber', ['latest', false]);
  assert.ok(Number(on.timestamp) >= T && Number(on.timestamp) < T + 100_000, on.timestamp);
  assert.equal(await result('dis', 'eth_getCode', [TX_ALLOW_LIST, 'latest']), '0x01');
  assert.equal(await result('dis', 'eth_getStorageAt', [TX_ALLOW_LIST, slotOf(EWOQ), 'latest']), word(2n));
  assert.equal(await result('dis', 'eth_getStorageAt', [TX_ALLOW_LIST, slotOf(ADDR1), 'latest']), word(1n));
  assert.deepEqual((await result('dis', 'eth_getActiveRulesAt')).precompiles, { txAllowListConfig: { timestamp: T } });
  // The allow list is enforced: a non-listed sender is refused by the pool.
  const stranger = privateKeyToAccount('0x' + '11'.repeat(32) as `0x${string}`);
  const raw = await stranger.signTransaction({ type: 'eip1559', chainId: 99902, nonce: 0, to: EWOQ, gas: 21000n, maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 0n });
  const rej = await call('dis', 'eth_sendRawTransaction', [raw]);
  assert.deepEqual(rej.error, { code: -32000, message: `cannot issue transaction from non-allow listed address: ${stranger.address}` });

  // The disable time: rules show nothing active from then on.
  assert.deepEqual((await result('dis', 'eth_getActiveRulesAt', [T + 99_999])).precompiles, { txAllowListConfig: { timestamp: T } });
  assert.deepEqual((await result('dis', 'eth_getActiveRulesAt', [T + 100_000])).precompiles, {});
  await result('dis', 'evm_increaseTime', [100_000]);
  await result('dis', 'evm_mine');
  assert.equal(await result('dis', 'eth_getCode', [TX_ALLOW_LIST, 'latest']), '0x');
  assert.equal(await result('dis', 'eth_getTransactionCount', [TX_ALLOW_LIST, 'latest']), '0x0');
  assert.equal(await result('dis', 'eth_getStorageAt', [TX_ALLOW_LIST, slotOf(EWOQ), 'latest']), ZERO32);
  assert.deepEqual((await result('dis', 'eth_getActiveRulesAt')).precompiles, {});
  assert.deepEqual(await result('dis', 'eth_getActivePrecompilesAt'), {});
  // The earlier block still has it.
  assert.equal(await result('dis', 'eth_getCode', [TX_ALLOW_LIST, on.number]), '0x01');
});

test('upgrade.json: stateUpgrades change balance, code (nonce 1) and storage in the first block at or after their time', async () => {
  const ewoqBefore = BigInt(await result('su', 'eth_getBalance', [EWOQ, 'latest']));
  const before = await mineAt('su', T - 1);
  assert.equal(await result('su', 'eth_getBalance', [FRESH, before.number]), '0x0');
  assert.equal(await result('su', 'eth_getCode', [FRESH, before.number]), '0x');
  assert.equal(await result('su', 'eth_getTransactionCount', [FRESH, before.number]), '0x0');
  assert.equal(await result('su', 'eth_getStorageAt', [FRESH, ZERO32, before.number]), ZERO32);
  // No block at exactly T: the next one (T + 5) applies the upgrade.
  const at = await mineAt('su', T + 5);
  assert.equal(await result('su', 'eth_getBalance', [FRESH, at.number]), '0x64');
  assert.equal(await result('su', 'eth_getCode', [FRESH, at.number]), '0x6001600055');
  assert.equal(await result('su', 'eth_getTransactionCount', [FRESH, at.number]), '0x1');
  assert.equal(await result('su', 'eth_getStorageAt', [FRESH, ZERO32, at.number]), word(0xffn));
  assert.equal(BigInt(await result('su', 'eth_getBalance', [EWOQ, at.number])), ewoqBefore + 1000n);
  // Applied once: the next block changes nothing.
  const next = await mineAt('su', T + 10);
  assert.equal(await result('su', 'eth_getBalance', [FRESH, next.number]), '0x64');
  assert.equal(BigInt(await result('su', 'eth_getBalance', [EWOQ, next.number])), ewoqBefore + 1000n);
});

test('upgrade.json: a state upgrade with empty code ("0x") changes no code and no nonce', async () => {
  const at = await mineAt('su0', T);
  assert.equal(await result('su0', 'eth_getBalance', [FRESH, at.number]), '0x1');
  assert.equal(await result('su0', 'eth_getTransactionCount', [FRESH, at.number]), '0x0');
  assert.equal(await result('su0', 'eth_getCode', [FRESH, at.number]), '0x');
  assert.equal(await result('su0', 'eth_getCode', [CODED, at.number]), '0x6001');
  assert.equal(await result('su0', 'eth_getStorageAt', [STORE_ONLY, ZERO32, at.number]), ZERO32, 'an account left empty is deleted');
  assert.equal(await result('su0', 'eth_getStorageAt', [STORE_BAL, ZERO32, at.number]), word(8n));
  assert.equal(await result('su0', 'eth_getBalance', [STORE_BAL, at.number]), '0x2');
});

test('network upgrades: each one changes the header and the EVM at its own time (SubnetEVM → Durango → Etna → Granite)', async () => {
  const D = 1700000000, E = 1700000100, G = 1700000200;
  const cfg = await result('sched', 'eth_getChainConfig');
  assert.equal(cfg.durangoTimestamp, D);
  assert.equal(cfg.shanghaiTime, D);
  assert.equal(cfg.etnaTimestamp, E);
  assert.equal(cfg.cancunTime, E);
  assert.equal(cfg.graniteTimestamp, G);
  assert.equal(cfg.fortunaTimestamp, undefined);
  // PUSH0 PUSH0 RETURN (Shanghai) and PUSH1 1 PUSH1 0 TSTORE (Cancun) as creation code in eth_call.
  const push0 = { from: EWOQ, data: '0x5f5ff3' };
  const tstore = { from: EWOQ, data: '0x600160005d' };
  const callAt = (tx: unknown, n: string) => call('sched', 'eth_call', [tx, n]);
  const cancunFields = ['blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot'];
  const graniteFields = ['timestampMilliseconds', 'minDelayExcess'];

  // Genesis at 0: SubnetEVM only; no blockGasCost (pre-Etna genesis), no Cancun/Granite fields.
  const g = await result('sched', 'eth_getBlockByNumber', ['0x0', false]);
  for (const k of ['blockGasCost', ...cancunFields, ...graniteFields]) assert.equal(g[k], undefined, k);
  const rules = async (ts: number) => (await result('sched', 'eth_getActiveRulesAt', [ts])).avalancheRules;

  // SubnetEVM block: 80-byte fee window, blockGasCost, no Shanghai.
  const b1 = await mineAt('sched', D - 100);
  assert.equal((b1.extraData.length - 2) / 2, 80);
  assert.equal(b1.blockGasCost, '0x0');
  for (const k of [...cancunFields, ...graniteFields]) assert.equal(b1[k], undefined, k);
  assert.deepEqual(await rules(D - 100), { IsSubnetEVM: true, IsDurango: false, IsEtna: false, IsFortuna: false, IsGranite: false, IsHelicon: false });
  assert.match((await callAt(push0, b1.number)).error.message, /invalid opcode/);

  // Durango: window + empty predicate results (86 bytes), PUSH0 works, no TSTORE yet.
  const b2 = await mineAt('sched', D);
  assert.equal((b2.extraData.length - 2) / 2, 86);
  assert.ok(b2.extraData.endsWith('000000000000'));
  for (const k of [...cancunFields, ...graniteFields]) assert.equal(b2[k], undefined, k);
  assert.deepEqual(await rules(D), { IsSubnetEVM: true, IsDurango: true, IsEtna: false, IsFortuna: false, IsGranite: false, IsHelicon: false });
  assert.equal((await callAt(push0, b2.number)).result, '0x');
  assert.match((await callAt(tstore, b2.number)).error.message, /invalid opcode/);

  // Etna: Cancun header fields, TSTORE works, still second timestamps.
  const b3 = await mineAt('sched', E);
  assert.equal(b3.blobGasUsed, '0x0');
  assert.equal(b3.excessBlobGas, '0x0');
  assert.equal(b3.parentBeaconBlockRoot, ZERO32);
  for (const k of graniteFields) assert.equal(b3[k], undefined, k);
  assert.equal((await callAt(tstore, b3.number)).result, '0x');
  assert.deepEqual(await rules(E), { IsSubnetEVM: true, IsDurango: true, IsEtna: true, IsFortuna: false, IsGranite: false, IsHelicon: false });

  // Granite: millisecond timestamp, min delay excess seeded at 7,970,124 (first Granite block), blockGasCost 0.
  const b4 = await mineAt('sched', G);
  assert.equal(b4.timestampMilliseconds, hex(BigInt(G) * 1000n));
  assert.equal(b4.minDelayExcess, hex(7_970_124));
  assert.equal(b4.blockGasCost, '0x0');
  assert.equal((b4.extraData.length - 2) / 2, 86);
  assert.deepEqual(await rules(G), { IsSubnetEVM: true, IsDurango: true, IsEtna: true, IsFortuna: false, IsGranite: true, IsHelicon: false });
  // P256Verify exists from Granite (precompile 0x100): a wrong signature returns empty, not an error.
  const p256 = { to: '0x0000000000000000000000000000000000000100', data: '0x' + '00'.repeat(160), gas: '0x100000' };
  assert.equal((await callAt(p256, b4.number)).result, '0x');
  // The Granite min delay (2000 ms at this excess) is kept: a block 2 s later is fine.
  const b5 = await mineAt('sched', G + 2);
  assert.equal(b5.timestampMilliseconds, hex(BigInt(G + 2) * 1000n));
});

// ---------------------------------------------------------------------------------------------
// Invalid upgrade.json: the chain does not start, with the reference's text (§4.3, §6.1–§6.3)

async function startWithUpgrade(upgrade: string, genesisConfig: Record<string, unknown> = {}): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'powder-badupg-'));
  try {
    mkdirSync(join(dir, 'bad'), { recursive: true });
    writeFileSync(join(dir, 'bad', 'upgrade.json'), upgrade);
    const n = await startTestNode({ 'chain-config-dir': dir, chains: [{ name: 'bad', aliases: ['bad'], genesis: genesis(99905, genesisConfig) }] });
    await n.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
async function rejectsWith(upgrade: unknown, text: string): Promise<void> {
  await assert.rejects(startWithUpgrade(typeof upgrade === 'string' ? upgrade : JSON.stringify(upgrade)), (e: Error) => {
    assert.match(e.message, new RegExp(escape(text) + '$'));
    return true;
  });
}
const PRE = 'failed to verify genesis: invalid precompile upgrades: ';
const SPRE = 'failed to verify genesis: invalid state upgrades: ';

test('invalid upgrade.json: not JSON → failed to parse upgrade bytes', async () => {
  await assert.rejects(startWithUpgrade('{"precompileUpgrades": ['), /failed to parse upgrade bytes: /);
});
test('invalid upgrade.json: empty precompile upgrade', async () => {
  await rejectsWith({ precompileUpgrades: [{}] }, 'failed to parse upgrade bytes: PrecompileUpgrade cannot be empty');
});
test('invalid upgrade.json: precompile upgrade with two keys', async () => {
  await rejectsWith({ precompileUpgrades: [{ feeManagerConfig: { blockTimestamp: T }, txAllowListConfig: { blockTimestamp: T } }] }, 'failed to parse upgrade bytes: PrecompileUpgrade must have exactly one key, got 2');
});
test('invalid upgrade.json: unknown precompile key (gasPriceManagerConfig is not registered)', async () => {
  await rejectsWith({ precompileUpgrades: [{ gasPriceManagerConfig: { blockTimestamp: T } }] }, 'failed to parse upgrade bytes: unknown precompile config: gasPriceManagerConfig');
});
test('invalid upgrade.json: precompile upgrade without blockTimestamp', async () => {
  await rejectsWith({ precompileUpgrades: [{ feeManagerConfig: { adminAddresses: [EWOQ] } }] }, PRE + 'precompile upgrade block timestamp cannot be nil: PrecompileUpgrade (feeManagerConfig) at [0]');
});
test('invalid upgrade.json: precompile upgrade timestamps going back', async () => {
  await rejectsWith(
    { precompileUpgrades: [{ feeManagerConfig: { blockTimestamp: T + 10, adminAddresses: [EWOQ] } }, { txAllowListConfig: { blockTimestamp: T, adminAddresses: [EWOQ] } }] },
    PRE + `precompile upgrade config block timestamp must be greater than or equal to previous timestamp: PrecompileUpgrade (txAllowListConfig) at [1] has timestamp ${T}, previous timestamp ${T + 10}`,
  );
});
test('invalid upgrade.json: disabling a precompile that is not enabled', async () => {
  await rejectsWith({ precompileUpgrades: [{ feeManagerConfig: { blockTimestamp: T, disable: true } }] }, PRE + 'precompile upgrade disable value is invalid: PrecompileUpgrade (feeManagerConfig) at [0], disable should be false');
});
test('upgrade.json: a genesis precompile with a blockTimestamp counts as enabled, even with "disable": true', async () => {
  // §6.2: the state per key starts from the genesis config — enabled at its timestamp when it has
  // one (its `disable` flag is not looked at) — so the first upgrade of that key must be a disable.
  const genesisConfig = { txAllowListConfig: { blockTimestamp: 0, disable: true } };
  await assert.rejects(startWithUpgrade(JSON.stringify({ precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: T, adminAddresses: [EWOQ] } }] }), genesisConfig), (e: Error) => {
    assert.match(e.message, new RegExp(escape(PRE + 'precompile upgrade disable value is invalid: PrecompileUpgrade (txAllowListConfig) at [0], disable should be true') + '$'));
    return true;
  });
  await startWithUpgrade(JSON.stringify({ precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: T, disable: true } }] }), genesisConfig);
});
test('invalid upgrade.json: enabling twice in a row', async () => {
  await rejectsWith(
    { precompileUpgrades: [{ feeManagerConfig: { blockTimestamp: T, adminAddresses: [EWOQ] } }, { feeManagerConfig: { blockTimestamp: T + 1, adminAddresses: [EWOQ] } }] },
    PRE + 'precompile upgrade disable value is invalid: PrecompileUpgrade (feeManagerConfig) at [1], disable should be true',
  );
});
test('invalid upgrade.json: same key at the same timestamp', async () => {
  await rejectsWith(
    { precompileUpgrades: [{ feeManagerConfig: { blockTimestamp: T, adminAddresses: [EWOQ] } }, { feeManagerConfig: { blockTimestamp: T, disable: true } }] },
    PRE + `precompile upgrade config block timestamp for same key must be strictly greater than previous timestamp: PrecompileUpgrade (feeManagerConfig) at [1] has timestamp ${T}, previous timestamp of same key ${T}`,
  );
});
test('invalid upgrade.json: the config\'s own Verify (managers before Durango)', async () => {
  await rejectsWith({ precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: 1000, managerAddresses: [EWOQ] } }] }, PRE + 'cannot add managers before Durango');
});
test('invalid upgrade.json: state upgrade without blockTimestamp', async () => {
  await rejectsWith({ stateUpgrades: [{ accounts: { [EWOQ]: { balanceChange: '1' } } }] }, SPRE + 'state upgrade config block timestamp cannot be nil: StateUpgrade[0]');
});
test('invalid upgrade.json: state upgrade at timestamp 0', async () => {
  await rejectsWith({ stateUpgrades: [{ blockTimestamp: 0, accounts: { [EWOQ]: { balanceChange: '1' } } }] }, SPRE + 'state upgrade config block timestamp must be greater than 0: StateUpgrade[0] has timestamp 0');
});
test('invalid upgrade.json: state upgrades not strictly increasing', async () => {
  await rejectsWith(
    { stateUpgrades: [{ blockTimestamp: T, accounts: {} }, { blockTimestamp: T, accounts: {} }] },
    SPRE + `state upgrade config block timestamp must be greater than previous timestamp: StateUpgrade[1] has timestamp ${T}, previous timestamp ${T}`,
  );
});
test('invalid upgrade.json: networkUpgradeOverrides before the network default', async () => {
  await rejectsWith(
    { networkUpgradeOverrides: { durangoTimestamp: 1000 } },
    'failed to verify genesis: invalid network upgrades: durango fork block timestamp is invalid: provided timestamp must be greater than or equal to the default timestamp: provided timestamp 1000, default timestamp 1607144400',
  );
});
test('upgrade.json: networkUpgradeOverrides move an upgrade later', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-ovr-'));
  try {
    mkdirSync(join(dir, 'ovr'), { recursive: true });
    writeFileSync(join(dir, 'ovr', 'upgrade.json'), JSON.stringify({ networkUpgradeOverrides: { graniteTimestamp: T } }));
    const n = await startTestNode({ 'chain-config-dir': dir, chains: [{ name: 'ovr', aliases: ['ovr'], genesis: genesis(99906, {}, '0x0') }] });
    try {
      const r = await fetch(`${n.url}/ext/bc/ovr/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_getChainConfig","params":[]}' });
      const cfg = ((await r.json()) as any).result;
      assert.equal(cfg.graniteTimestamp, T);
      assert.deepEqual(cfg.upgrades, { networkUpgradeOverrides: { graniteTimestamp: T } });
      // A block made now is not Granite: no millisecond timestamp.
      await fetch(`${n.url}/ext/bc/ovr/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"evm_mine","params":[]}' });
      const b = (await (await fetch(`${n.url}/ext/bc/ovr/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}' })).json() as any).result;
      assert.equal(b.number, '0x1');
      assert.equal(b.timestampMilliseconds, undefined);
      assert.equal(b.parentBeaconBlockRoot, ZERO32);
    } finally {
      await n.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('network upgrades: default schedules per network id (§0, §4.3); Fortuna never by default', async () => {
  const want: Record<string, number[]> = {
    // durango, etna, granite, helicon
    mainnet: [1709740800, 1734368400, 1763568000, 253399622400],
    fuji: [1707840000, 1732550400, 1761750000, 253399622400],
    '1337': [1607144400, 1607144400, 1607144400, 253399622400],
  };
  for (const [nid, [d, e, g, h]] of Object.entries(want)) {
    const n = await startTestNode({ 'network-id': nid, chains: [{ name: 'c', aliases: ['c'], genesis: { alloc: {}, gasLimit: '0x7A1200', difficulty: '0x0', timestamp: '0x0' } }] });
    try {
      const r = await fetch(`${n.url}/ext/bc/c/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_getChainConfig","params":[]}' });
      const cfg = ((await r.json()) as any).result;
      assert.deepEqual(
        [cfg.subnetEVMTimestamp, cfg.durangoTimestamp, cfg.etnaTimestamp, cfg.fortunaTimestamp, cfg.graniteTimestamp, cfg.heliconTimestamp, cfg.shanghaiTime, cfg.cancunTime],
        [0, d, e, undefined, g, h, d, e],
        nid,
      );
    } finally {
      await n.stop();
    }
  }
});
