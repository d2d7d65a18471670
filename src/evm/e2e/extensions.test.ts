// The four Subnet-EVM extension methods (eth_feeConfig, eth_getChainConfig, eth_getActiveRulesAt,
// eth_getActivePrecompilesAt) checked over real HTTP against the exact outputs of the reference
// (subnet-evm.md §2, §10). Results are compared as raw response text where key order or number
// forms matter (bare JSON numbers that can exceed 2^53, alphabetical top-level keys, struct order).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestNode, type TestNode } from '../../../test/helpers.js';

const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const EWOQ_LC = EWOQ.toLowerCase();
const ZERO32 = '0x' + '00'.repeat(32);
const FEE_MANAGER = '0x0200000000000000000000000000000000000003';

/** The repo's tests/genesis.json (reference §5.4). */
const TESTS_FEE_CONFIG = { gasLimit: 200000000, minBaseFee: 1000000000, targetGas: 400000000, baseFeeChangeDenominator: 48, minBlockGasCost: 0, maxBlockGasCost: 10000000, targetBlockRate: 2, blockGasCostStep: 500000 };
function genesisWith(config: Record<string, unknown>, timestamp = '0x5FCB13D0', gasLimit = '0xBEBC200'): Record<string, unknown> {
  return {
    config,
    alloc: { '8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC': { balance: '0x52B7D2DCC80CD2E4000000' } },
    nonce: '0x0', timestamp, extraData: '0x00', gasLimit, difficulty: '0x0',
    mixHash: ZERO32, coinbase: '0x' + '00'.repeat(20), number: '0x0', gasUsed: '0x0', parentHash: ZERO32,
  };
}

let tmp: string;
let node: TestNode;
const url = (alias: string) => `${node.url}/ext/bc/${alias}/rpc`;

/** POST one call; returns the raw body text and the parsed envelope. */
async function call(alias: string, method: string, params?: unknown[]): Promise<{ text: string; body: any }> {
  const req: Record<string, unknown> = { jsonrpc: '2.0', id: 1, method };
  if (params !== undefined) req.params = params;
  const res = await fetch(url(alias), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(req) });
  const text = await res.text();
  return { text, body: JSON.parse(text) };
}
/** The raw JSON text of `result` (the envelope is {"jsonrpc":"2.0","id":1,"result":…}). */
async function rawResult(alias: string, method: string, params?: unknown[]): Promise<string> {
  const { text, body } = await call(alias, method, params);
  assert.equal(body.error, undefined, `${method} failed: ${text}`);
  const prefix = '{"jsonrpc":"2.0","id":1,"result":';
  assert.ok(text.startsWith(prefix), text);
  return text.trimEnd().slice(prefix.length, -1);
}
async function result(alias: string, method: string, params?: unknown[]): Promise<any> {
  const { text, body } = await call(alias, method, params);
  assert.equal(body.error, undefined, `${method} failed: ${text}`);
  return body.result;
}
async function rpcError(alias: string, method: string, params?: unknown[]): Promise<{ code: number; message: string }> {
  const { text, body } = await call(alias, method, params);
  assert.ok(body.error, `${method} ${JSON.stringify(params)} should fail: ${text}`);
  return body.error;
}

// Big fee values (> 2^53) — written into a genesis *file* so no JSON writer of ours touches them.
const BIG_TARGET_GAS = '1152921504606846977'; // 2^60 + 1
const BIG_MAX_BLOCK_GAS_COST = '18446744073709551615'; // 2^64 - 1 (must fit uint64)

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'powder-ext-'));
  const bigGenesisPath = join(tmp, 'big-genesis.json');
  writeFileSync(
    bigGenesisPath,
    `{"config":{"chainId":99998,"feeConfig":{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,` +
      `"targetGas":${BIG_TARGET_GAS},"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":${BIG_MAX_BLOCK_GAS_COST},"blockGasCostStep":200000}},` +
      `"alloc":{},"timestamp":"0x5FCB13D0","gasLimit":"0x7A1200","difficulty":"0x0"}`,
  );
  const cfgDir = join(tmp, 'chain-configs');
  for (const [alias, file] of [['apis', 'config.json'], ['legacyapis', 'config.json'], ['upg', 'upgrade.json'], ['badfee', 'upgrade.json'], ['unfin', 'config.json'], ['zerocb', 'config.json']] as const) mkdirSync(join(cfgDir, alias), { recursive: true });
  // The zero address (Subnet-EVM takes only a full hex address: "0x0" would leave the blackhole).
  writeFileSync(join(cfgDir, 'zerocb', 'config.json'), JSON.stringify({ feeRecipient: '0x' + '00'.repeat(20) }));
  writeFileSync(join(cfgDir, 'unfin', 'config.json'), JSON.stringify({ 'allow-unfinalized-queries': true }));
  // A state upgrade that wipes the FeeManager's stored gasLimit (slot 0x01…): an invalid stored config.
  writeFileSync(
    join(cfgDir, 'badfee', 'upgrade.json'),
    JSON.stringify({ stateUpgrades: [{ blockTimestamp: 1800000000, accounts: { [FEE_MANAGER]: { storage: { ['0x01' + '00'.repeat(31)]: ZERO32 } } } }] }),
  );
  writeFileSync(join(cfgDir, 'apis', 'config.json'), JSON.stringify({ 'eth-apis': ['eth', 'net'] }));
  writeFileSync(join(cfgDir, 'legacyapis', 'config.json'), JSON.stringify({ 'eth-apis': ['internal-public-blockchain'] }));
  writeFileSync(
    join(cfgDir, 'upg', 'upgrade.json'),
    JSON.stringify({
      networkUpgradeOverrides: { graniteTimestamp: 1900000000 },
      stateUpgrades: [{ blockTimestamp: 1800000000, accounts: { [EWOQ]: { balanceChange: '100', code: '0x6001', storage: { [ZERO32]: '0x' + '00'.repeat(31) + 'ff' } } } }],
      precompileUpgrades: [
        { feeManagerConfig: { blockTimestamp: 1800000000, adminAddresses: [EWOQ] } },
        { feeManagerConfig: { blockTimestamp: 1800000001, disable: true } },
      ],
    }),
  );
  node = await startTestNode({
    'chain-config-dir': cfgDir,
    chains: [
      // tests/genesis.json, unchanged.
      { name: 'plain', aliases: ['plain'], genesis: genesisWith({ chainId: 99999, feeConfig: TESTS_FEE_CONFIG }) },
      // §2.3/§2.4 examples: native minter from genesis, warp at Durango.
      {
        name: 'pre', aliases: ['pre'],
        genesis: genesisWith({
          chainId: 99999, feeConfig: TESTS_FEE_CONFIG,
          contractNativeMinterConfig: { blockTimestamp: 0, adminAddresses: [EWOQ] },
          warpConfig: { blockTimestamp: 1607144400 },
          // No blockTimestamp: configured, never activated; shows blockTimestamp null.
          txAllowListConfig: { adminAddresses: [EWOQ] },
          // All three role lists, to check their serialization order.
          feeManagerConfig: { blockTimestamp: 1607144400, enabledAddresses: ['0x0Fa8EA536Be85F32724D57A37758761B86416123'], managerAddresses: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'], adminAddresses: [EWOQ] },
          allowFeeRecipients: true,
          initialMinDelayMS: 500,
        }),
      },
      { name: 'big', aliases: ['big'], genesis: bigGenesisPath },
      // Genesis at timestamp 0: pre-Durango; no config at all → chain id 43214, default fee config.
      { name: 'old', aliases: ['old'], genesis: { alloc: {}, gasLimit: '0x7A1200', difficulty: '0x0', timestamp: '0x0' } },
      // SubnetEVM scheduled after a timestamp-0 genesis: the genesis is pre-SubnetEVM.
      { name: 'presub', aliases: ['presub'], genesis: genesisWith({ chainId: 99994, feeConfig: TESTS_FEE_CONFIG, subnetEVMTimestamp: 1000 }, '0x0') },
      { name: 'apis', aliases: ['apis'], genesis: genesisWith({ chainId: 99997, feeConfig: TESTS_FEE_CONFIG }) },
      { name: 'legacyapis', aliases: ['legacyapis'], genesis: genesisWith({ chainId: 99996, feeConfig: TESTS_FEE_CONFIG }) },
      { name: 'upg', aliases: ['upg'], genesis: genesisWith({ chainId: 99995, feeConfig: TESTS_FEE_CONFIG }) },
      { name: 'zerocb', aliases: ['zerocb'], genesis: genesisWith({ chainId: 99991, feeConfig: TESTS_FEE_CONFIG }) },
      { name: 'unfin', aliases: ['unfin'], genesis: genesisWith({ chainId: 99992, feeConfig: TESTS_FEE_CONFIG }) },
      { name: 'badfee', aliases: ['badfee'], genesis: genesisWith({ chainId: 99993, feeConfig: TESTS_FEE_CONFIG, feeManagerConfig: { blockTimestamp: 0, adminAddresses: [EWOQ] } }) },
    ],
  });
});
after(async () => {
  await node?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const TESTS_FEE_JSON = '{"gasLimit":200000000,"targetBlockRate":2,"minBaseFee":1000000000,"targetGas":400000000,"baseFeeChangeDenominator":48,"minBlockGasCost":0,"maxBlockGasCost":10000000,"blockGasCostStep":500000}';
const DEFAULT_FEE_JSON = '{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000}';

// ---------------------------------------------------------------------------------------------
// eth_feeConfig (§2.1, §10)

test('eth_feeConfig: tests/genesis.json config, bare numbers in struct order, lastChangedAt 0 without FeeManager', async () => {
  const want = `{"feeConfig":${TESTS_FEE_JSON},"lastChangedAt":0}`;
  assert.equal(await rawResult('plain', 'eth_feeConfig'), want);
  assert.equal(await rawResult('plain', 'eth_feeConfig', []), want);
  assert.equal(await rawResult('plain', 'eth_feeConfig', [null]), want);
  assert.equal(await rawResult('plain', 'eth_feeConfig', ['latest']), want);
  assert.equal(await rawResult('plain', 'eth_feeConfig', ['earliest']), want);
  assert.equal(await rawResult('plain', 'eth_feeConfig', ['0x0']), want);
  const genesis = await result('plain', 'eth_getBlockByNumber', ['0x0', false]);
  assert.equal(await rawResult('plain', 'eth_feeConfig', [genesis.hash]), want);
  assert.equal(await rawResult('plain', 'eth_feeConfig', [{ blockHash: genesis.hash }]), want);
  assert.equal(await rawResult('plain', 'eth_feeConfig', [{ blockNumber: '0x0' }]), want);
  // A later block (mined with the test control) answers the same.
  await result('plain', 'evm_mine');
  const b1 = await result('plain', 'eth_getBlockByNumber', ['0x1', false]);
  assert.equal(await rawResult('plain', 'eth_feeConfig', ['0x1']), want);
  assert.equal(await rawResult('plain', 'eth_feeConfig', [b1.hash]), want);
});

test('eth_feeConfig: values beyond 2^53 are written as exact bare JSON numbers', async () => {
  const raw = await rawResult('big', 'eth_feeConfig');
  assert.equal(
    raw,
    `{"feeConfig":{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":${BIG_TARGET_GAS},"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":${BIG_MAX_BLOCK_GAS_COST},"blockGasCostStep":200000},"lastChangedAt":0}`,
  );
  // eth_getChainConfig carries the same feeConfig object.
  assert.ok((await rawResult('big', 'eth_getChainConfig')).includes(`"targetGas":${BIG_TARGET_GAS},`));
});

test('eth_feeConfig: default fee config when genesis has no config; still lastChangedAt 0 (SubnetEVM at 0)', async () => {
  assert.equal(await rawResult('old', 'eth_feeConfig'), `{"feeConfig":${DEFAULT_FEE_JSON},"lastChangedAt":0}`);
});

test('eth_feeConfig: before SubnetEVM → the hard-coded default config and no lastChangedAt', async () => {
  assert.equal(await rawResult('presub', 'eth_feeConfig', ['0x0']), `{"feeConfig":${DEFAULT_FEE_JSON}}`);
  const cfg = await result('presub', 'eth_getChainConfig');
  assert.equal(cfg.subnetEVMTimestamp, 1000);
  assert.equal((await result('presub', 'eth_getActiveRulesAt', [999])).avalancheRules.IsSubnetEVM, false);
  assert.equal((await result('presub', 'eth_getActiveRulesAt', [1000])).avalancheRules.IsSubnetEVM, true);
  // The genesis has no base fee and no fee window.
  const g = await result('presub', 'eth_getBlockByNumber', ['0x0', false]);
  assert.equal(g.baseFeePerGas, undefined);
  assert.equal(g.blockGasCost, undefined);
});

test('eth_baseFee / eth_gasPrice: a head without base fee (pre-SubnetEVM) → null and the tip alone (§2.5, §7.9)', async () => {
  // Now is long past subnetEVMTimestamp (1000), but the head (the genesis) has no base fee.
  const g = await result('presub', 'eth_getBlockByNumber', ['latest', false]);
  assert.equal(g.baseFeePerGas, undefined);
  assert.equal(await result('presub', 'eth_baseFee'), null);
  assert.equal(await result('presub', 'eth_gasPrice'), await result('presub', 'eth_maxPriorityFeePerGas'));
});

test('eth_coinbase / eth_etherbase: feeRecipient, the blackhole by default, an error for the zero address (§1.2)', async () => {
  for (const m of ['eth_coinbase', 'eth_etherbase']) {
    assert.equal(await result('plain', m, []), '0x0100000000000000000000000000000000000000');
    assert.deepEqual(await rpcError('zerocb', m, []), { code: -32000, message: 'etherbase must be explicitly specified' });
  }
});

test('eth_feeConfig: block above the last accepted → cannot query unfinalized data', async () => {
  const head = BigInt(await result('plain', 'eth_blockNumber'));
  for (const p of ['0x' + (head + 1n).toString(16), '0x3e8', { blockNumber: '0x' + (head + 5n).toString(16) }]) {
    assert.deepEqual(await rpcError('plain', 'eth_feeConfig', [p]), { code: -32000, message: 'cannot query unfinalized data' });
  }
});

test('allow-unfinalized-queries: a number above the last accepted block is no block (eth_feeConfig crashes, as the real node)', async () => {
  const far = '0x' + (BigInt(await result('unfin', 'eth_blockNumber')) + 5n).toString(16);
  // HeaderByNumber answers no header (no error) past the last accepted block with the option.
  assert.equal(await result('unfin', 'eth_getBlockByNumber', [far, false]), null);
  assert.deepEqual(await rpcError('unfin', 'eth_getBalance', [EWOQ, far]), { code: -32000, message: 'header not found' });
  // eth_feeConfig dereferences the nil header: the RPC server's panic guard answers (§10).
  assert.deepEqual(await rpcError('unfin', 'eth_feeConfig', [far]), { code: -32603, message: 'method handler crashed' });
  // The default chain refuses instead.
  assert.deepEqual(await rpcError('plain', 'eth_getBalance', [EWOQ, '0x3e8']), { code: -32000, message: 'cannot query unfinalized data' });
});

test('eth_feeConfig: unknown block hash → header for hash not found', async () => {
  const h = '0x' + 'ab'.repeat(32);
  assert.deepEqual(await rpcError('plain', 'eth_feeConfig', [h]), { code: -32000, message: 'header for hash not found' });
  assert.deepEqual(await rpcError('plain', 'eth_feeConfig', [{ blockHash: h }]), { code: -32000, message: 'header for hash not found' });
  // A block hash of another chain is unknown here too.
  const other = await result('pre', 'eth_getBlockByNumber', ['0x0', false]);
  const mine = await result('plain', 'eth_getBlockByNumber', ['0x0', false]);
  assert.notEqual(other.hash, mine.hash);
  assert.deepEqual(await rpcError('plain', 'eth_feeConfig', [other.hash]), { code: -32000, message: 'header for hash not found' });
});

test('eth_feeConfig: a stored FeeManager config that fails validation → the validation error', async () => {
  // Before the state upgrade: FeeManager active from genesis, its config stored at activation (block 0).
  assert.equal(await rawResult('badfee', 'eth_feeConfig'), `{"feeConfig":${TESTS_FEE_JSON},"lastChangedAt":0}`);
  await result('badfee', 'evm_setNextBlockTimestamp', [1800000000]);
  await result('badfee', 'evm_mine');
  const head = await result('badfee', 'eth_getBlockByNumber', ['latest', false]);
  assert.equal(Number(head.timestamp), 1800000000);
  assert.equal(await result('badfee', 'eth_getStorageAt', [FEE_MANAGER, '0x01' + '00'.repeat(31), 'latest']), ZERO32);
  // GetFeeConfigAt verifies what it reads from the FeeManager's storage (defense in depth).
  const want = { code: -32000, message: 'gasLimit cannot be less than or equal to 0: gasLimit = 0' };
  assert.deepEqual(await rpcError('badfee', 'eth_feeConfig'), want);
  assert.deepEqual(await rpcError('badfee', 'eth_feeConfig', [head.hash]), want);
  // The block before still answers.
  assert.equal(await rawResult('badfee', 'eth_feeConfig', ['0x0']), `{"feeConfig":${TESTS_FEE_JSON},"lastChangedAt":0}`);
  // The gas price oracle reads the same config (GetFeeConfigAt(head)): eth_baseFee and eth_gasPrice
  // answer its error, the tip alone does not need it.
  assert.deepEqual(await rpcError('badfee', 'eth_baseFee'), want);
  assert.deepEqual(await rpcError('badfee', 'eth_gasPrice'), want);
  assert.match(await result('badfee', 'eth_maxPriorityFeePerGas'), /^0x[0-9a-f]+$/);
  // So does a transaction's default fee cap (setDefaults, here eth_createAccessList's); with the
  // fee cap given nothing estimates the base fee.
  const tx = { from: EWOQ, to: EWOQ, value: '0x1' };
  assert.deepEqual(await rpcError('badfee', 'eth_createAccessList', [tx, 'latest']), want);
  const list = await result('badfee', 'eth_createAccessList', [{ ...tx, maxFeePerGas: '0x' + (300n * 10n ** 9n).toString(16) }, 'latest']);
  assert.deepEqual(list, { accessList: [], gasUsed: '0x5208' });
});

test('eth_feeConfig: bad params → -32602 with geth texts', async () => {
  const cases: [unknown, string][] = [
    ['foo', 'invalid argument 0: hex string without 0x prefix'],
    [5, 'invalid argument 0: json: cannot unmarshal number into Go value of type string'],
    [true, 'invalid argument 0: json: cannot unmarshal bool into Go value of type string'],
    ['0xzz', 'invalid argument 0: invalid hex string'],
    ['0x01', 'invalid argument 0: hex number with leading zero digits'],
    [{ blockNumber: '0x0', blockHash: '0x' + '00'.repeat(32) }, 'invalid argument 0: cannot specify both BlockHash and BlockNumber, choose one or the other'],
  ];
  for (const [p, msg] of cases) assert.deepEqual(await rpcError('plain', 'eth_feeConfig', [p]), { code: -32602, message: msg }, JSON.stringify(p));
  assert.deepEqual(await rpcError('plain', 'eth_feeConfig', ['latest', 1]), { code: -32602, message: 'too many arguments, want at most 1' });
});

// ---------------------------------------------------------------------------------------------
// eth_getChainConfig (§2.2)

test('eth_getChainConfig: tests/genesis.json on a local network is exactly the reference example', async () => {
  const want =
    '{"berlinBlock":0,"byzantiumBlock":0,"cancunTime":1607144400,"chainId":99999,"constantinopleBlock":0,' +
    '"durangoTimestamp":1607144400,"eip150Block":0,"eip155Block":0,"eip158Block":0,"etnaTimestamp":1607144400,' +
    `"feeConfig":${TESTS_FEE_JSON},` +
    '"graniteTimestamp":1607144400,"heliconTimestamp":253399622400,"homesteadBlock":0,"istanbulBlock":0,' +
    '"londonBlock":0,"muirGlacierBlock":0,"petersburgBlock":0,"shanghaiTime":1607144400,"subnetEVMTimestamp":0,' +
    '"upgrades":{}}';
  assert.equal(await rawResult('plain', 'eth_getChainConfig'), want);
  assert.equal(await rawResult('plain', 'eth_getChainConfig', []), want);
  assert.deepEqual(await rpcError('plain', 'eth_getChainConfig', [1]), { code: -32602, message: 'too many arguments, want at most 0' });
});

test('eth_getChainConfig: genesis precompile configs, allowFeeRecipients, initialMinDelayMS, key order', async () => {
  const raw = await rawResult('pre', 'eth_getChainConfig');
  const cfg = JSON.parse(raw);
  const keys = Object.keys(cfg);
  assert.equal(keys.at(-1), 'upgrades');
  assert.deepEqual(keys.slice(0, -1), [...keys.slice(0, -1)].sort(), 'top-level keys alphabetical, upgrades last');
  assert.deepEqual(keys, [
    'allowFeeRecipients', 'berlinBlock', 'byzantiumBlock', 'cancunTime', 'chainId', 'constantinopleBlock', 'contractNativeMinterConfig',
    'durangoTimestamp', 'eip150Block', 'eip155Block', 'eip158Block', 'etnaTimestamp', 'feeConfig', 'feeManagerConfig', 'graniteTimestamp',
    'heliconTimestamp', 'homesteadBlock', 'initialMinDelayMS', 'istanbulBlock', 'londonBlock', 'muirGlacierBlock', 'petersburgBlock',
    'shanghaiTime', 'subnetEVMTimestamp', 'txAllowListConfig', 'warpConfig', 'upgrades',
  ]);
  assert.ok(raw.includes('"allowFeeRecipients":true,'));
  assert.ok(raw.includes('"initialMinDelayMS":500,'));
  assert.ok(raw.includes(`"contractNativeMinterConfig":{"adminAddresses":["${EWOQ_LC}"],"blockTimestamp":0},`));
  assert.ok(raw.includes(`"txAllowListConfig":{"adminAddresses":["${EWOQ_LC}"],"blockTimestamp":null},`), raw);
  assert.ok(raw.includes('"warpConfig":{"blockTimestamp":1607144400,"quorumNumerator":0,"requirePrimaryNetworkSigners":false},'), raw);
  assert.ok(
    raw.includes(
      `"feeManagerConfig":{"adminAddresses":["${EWOQ_LC}"],"managerAddresses":["0x70997970c51812dc3a010c7d01b50e0d17dc79c8"],` +
        `"enabledAddresses":["0x0fa8ea536be85f32724d57a37758761b86416123"],"blockTimestamp":1607144400},`,
    ),
    raw,
  );
  assert.ok(raw.endsWith(',"upgrades":{}}'));
  // allowFeeRecipients false is omitted, not written as false.
  assert.ok(!(await rawResult('plain', 'eth_getChainConfig')).includes('allowFeeRecipients'));
});

test('eth_getChainConfig: no genesis config → chain id 43214 and the default fee config', async () => {
  const cfg = JSON.parse(await rawResult('old', 'eth_getChainConfig'));
  assert.equal(cfg.chainId, 43214);
  assert.equal(JSON.stringify(cfg.feeConfig), DEFAULT_FEE_JSON);
  assert.equal(cfg.subnetEVMTimestamp, 0);
  assert.equal(cfg.durangoTimestamp, 1607144400);
  assert.equal(cfg.fortunaTimestamp, undefined);
  assert.deepEqual(cfg.upgrades, {});
});

test('eth_getChainConfig: upgrades shows upgrade.json (overrides, state and precompile upgrades) re-serialized', async () => {
  const raw = await rawResult('upg', 'eth_getChainConfig');
  const cfg = JSON.parse(raw);
  // The override is applied to the config itself...
  assert.equal(cfg.graniteTimestamp, 1900000000);
  // ...and listed under upgrades, which is the last key, with its sub-keys in struct order.
  assert.equal(Object.keys(cfg).at(-1), 'upgrades');
  const ups = raw.slice(raw.indexOf(',"upgrades":') + ',"upgrades":'.length, -1);
  assert.equal(
    ups,
    '{"networkUpgradeOverrides":{"graniteTimestamp":1900000000},' +
      `"stateUpgrades":[{"blockTimestamp":1800000000,"accounts":{"${EWOQ_LC}":{"code":"0x6001","storage":{"${ZERO32}":"0x${'00'.repeat(31)}ff"},"balanceChange":"0x64"}}}],` +
      `"precompileUpgrades":[{"feeManagerConfig":{"adminAddresses":["${EWOQ_LC}"],"blockTimestamp":1800000000}},{"feeManagerConfig":{"blockTimestamp":1800000001,"disable":true}}]}`,
  );
  // The genesis feeManagerConfig is absent: upgrade.json precompiles are not top-level keys.
  assert.equal(cfg.feeManagerConfig, undefined);
});

// ---------------------------------------------------------------------------------------------
// eth_getActiveRulesAt / eth_getActivePrecompilesAt (§2.3, §2.4, §10)

const RULES_ALL =
  '{"ethRules":{"ChainID":99999,"IsHomestead":true,"IsEIP150":true,"IsEIP155":true,"IsEIP158":true,' +
  '"IsByzantium":true,"IsConstantinople":true,"IsPetersburg":true,"IsIstanbul":true,' +
  '"IsBerlin":true,"IsLondon":true,"IsMerge":true,"IsShanghai":true,"IsCancun":true,' +
  '"IsPrague":false,"IsVerkle":false},' +
  '"avalancheRules":{"IsSubnetEVM":true,"IsDurango":true,"IsEtna":true,"IsFortuna":false,"IsGranite":true,"IsHelicon":false},';

test('eth_getActiveRulesAt: the reference example (no param = head timestamp; number param)', async () => {
  const want = RULES_ALL + '"precompiles":{"contractNativeMinterConfig":{"timestamp":0},"feeManagerConfig":{"timestamp":1607144400},"warpConfig":{"timestamp":1607144400}}}';
  assert.equal(await rawResult('pre', 'eth_getActiveRulesAt'), want);
  assert.equal(await rawResult('pre', 'eth_getActiveRulesAt', []), want);
  assert.equal(await rawResult('pre', 'eth_getActiveRulesAt', [null]), want);
  assert.equal(await rawResult('pre', 'eth_getActiveRulesAt', [1607144400]), want);
  assert.equal(await rawResult('pre', 'eth_getActiveRulesAt', [2000000000]), want);
  // One second before the local-network Durango/Etna/Granite time.
  assert.equal(
    await rawResult('pre', 'eth_getActiveRulesAt', [1607144399]),
    '{"ethRules":{"ChainID":99999,"IsHomestead":true,"IsEIP150":true,"IsEIP155":true,"IsEIP158":true,' +
      '"IsByzantium":true,"IsConstantinople":true,"IsPetersburg":true,"IsIstanbul":true,' +
      '"IsBerlin":true,"IsLondon":true,"IsMerge":true,"IsShanghai":false,"IsCancun":false,' +
      '"IsPrague":false,"IsVerkle":false},' +
      '"avalancheRules":{"IsSubnetEVM":true,"IsDurango":false,"IsEtna":false,"IsFortuna":false,"IsGranite":false,"IsHelicon":false},' +
      '"precompiles":{"contractNativeMinterConfig":{"timestamp":0}}}',
  );
  // Helicon is scheduled at 253399622400 on a local network.
  const helicon = await result('pre', 'eth_getActiveRulesAt', [253399622400]);
  assert.equal(helicon.avalancheRules.IsHelicon, true);
  assert.equal(helicon.avalancheRules.IsFortuna, false);
  // No precompiles → {}.
  assert.equal(await rawResult('plain', 'eth_getActiveRulesAt', [1607144400]), RULES_ALL + '"precompiles":{}}');
});

test('eth_getActiveRulesAt: default is the head block timestamp', async () => {
  // 'old' has a timestamp-0 genesis: at its head only SubnetEVM is active.
  const r = await result('old', 'eth_getActiveRulesAt');
  assert.equal(r.ethRules.ChainID, 43214);
  assert.deepEqual(r.avalancheRules, { IsSubnetEVM: true, IsDurango: false, IsEtna: false, IsFortuna: false, IsGranite: false, IsHelicon: false });
  // After a block made now, the head is a Granite block.
  await result('old', 'evm_mine');
  const head = await result('old', 'eth_getBlockByNumber', ['latest', false]);
  assert.ok(BigInt(head.timestamp) > 1607144400n);
  const r2 = await result('old', 'eth_getActiveRulesAt');
  assert.deepEqual(r2, await result('old', 'eth_getActiveRulesAt', [Number(BigInt(head.timestamp))]));
  assert.equal(r2.avalancheRules.IsGranite, true);
});

test('eth_getActivePrecompilesAt: full configs of the active precompiles, deprecated but answered', async () => {
  assert.equal(
    await rawResult('pre', 'eth_getActivePrecompilesAt', [1607144400]),
    `{"contractNativeMinterConfig":{"adminAddresses":["${EWOQ_LC}"],"blockTimestamp":0},` +
      `"feeManagerConfig":{"adminAddresses":["${EWOQ_LC}"],"managerAddresses":["0x70997970c51812dc3a010c7d01b50e0d17dc79c8"],"enabledAddresses":["0x0fa8ea536be85f32724d57a37758761b86416123"],"blockTimestamp":1607144400},` +
      '"warpConfig":{"blockTimestamp":1607144400,"quorumNumerator":0,"requirePrimaryNetworkSigners":false}}',
  );
  assert.equal(await rawResult('pre', 'eth_getActivePrecompilesAt', [0]), `{"contractNativeMinterConfig":{"adminAddresses":["${EWOQ_LC}"],"blockTimestamp":0}}`);
  assert.equal(await rawResult('pre', 'eth_getActivePrecompilesAt'), await rawResult('pre', 'eth_getActivePrecompilesAt', [1607144400]));
  assert.equal(await rawResult('plain', 'eth_getActivePrecompilesAt'), '{}');
});

test('eth_getActiveRulesAt / eth_getActivePrecompilesAt: a hex string or non-uint64 → -32602', async () => {
  for (const m of ['eth_getActiveRulesAt', 'eth_getActivePrecompilesAt']) {
    const cases: [unknown, string][] = [
      ['0x5fcb13d0', 'invalid argument 0: json: cannot unmarshal string into Go value of type uint64'],
      ['latest', 'invalid argument 0: json: cannot unmarshal string into Go value of type uint64'],
      [true, 'invalid argument 0: json: cannot unmarshal bool into Go value of type uint64'],
      [{}, 'invalid argument 0: json: cannot unmarshal object into Go value of type uint64'],
      [[], 'invalid argument 0: json: cannot unmarshal array into Go value of type uint64'],
      [-1, 'invalid argument 0: json: cannot unmarshal number -1 into Go value of type uint64'],
      [1.5, 'invalid argument 0: json: cannot unmarshal number 1.5 into Go value of type uint64'],
    ];
    for (const [p, msg] of cases) assert.deepEqual(await rpcError('pre', m, [p]), { code: -32602, message: msg }, `${m} ${JSON.stringify(p)}`);
    assert.deepEqual(await rpcError('pre', m, [1, 2]), { code: -32602, message: 'too many arguments, want at most 1' });
  }
});

// ---------------------------------------------------------------------------------------------
// eth-apis (§1.2): the extensions belong to internal-blockchain

test('eth-apis: without internal-blockchain the four extensions do not exist; the legacy name enables them', async () => {
  for (const m of ['eth_feeConfig', 'eth_getChainConfig', 'eth_getActiveRulesAt', 'eth_getActivePrecompilesAt']) {
    assert.deepEqual(await rpcError('apis', m, []), { code: -32601, message: `the method ${m} does not exist/is not available` });
    assert.equal(typeof (await result('legacyapis', m, [])), 'object');
  }
  // The services that were listed still answer.
  assert.equal(await result('apis', 'net_version', []), '99997');
  // And the methods of the other default services are gone from the legacy-only chain.
  assert.deepEqual(await rpcError('legacyapis', 'net_version', []), { code: -32601, message: 'the method net_version does not exist/is not available' });
});

test('rpc_modules: the namespaces a chain serves, each "1.0", as geth\'s rpc service lists them', async () => {
  const apis = await result('apis', 'rpc_modules', []);
  assert.deepEqual(Object.keys(apis), [...Object.keys(apis)].sort());
  for (const ns of ['eth', 'net', 'rpc']) assert.equal(apis[ns], '1.0');
  for (const ns of ['web3', 'debug', 'txpool']) assert.equal(apis[ns], undefined, ns);
  // Not internal-personal: the dev nodes' personal_sign, which the test controls serve (typedData.ts).
  assert.equal(apis.personal, '1.0');
  assert.equal((await rpcError('apis', 'personal_listAccounts', [])).code, -32601);
  const legacy = await result('legacyapis', 'rpc_modules', []);
  assert.equal(legacy.eth, '1.0');
  assert.equal(legacy.net, undefined);
  assert.deepEqual((await rpcError('apis', 'rpc_modules', [1])).code, -32602);
});
