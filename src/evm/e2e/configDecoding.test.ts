// Odd genesis and upgrade.json input through a real node (reference subnet-evm.md §4.1, §5.1, §6.1):
// JSON nulls where Go's decoder leaves a zero value (accepted, with the real node's answers), and
// wrong JSON kinds refused at start with the texts Go's encoding/json prints — the field named by
// its path from the decode root (`Genesis.config.<field>`, `UpgradeConfig.precompileUpgrades.<field>`,
// `StateUpgrade.stateUpgrades.<field>`), numbers quoted (`number -1`), `non-string` for an address.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestNode, type TestNode } from '../../../test/helpers.js';

const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const EWOQ_LOWER = EWOQ.toLowerCase();
const FEE_CONFIG = { gasLimit: 8000000, targetBlockRate: 2, minBaseFee: 25000000000, targetGas: 15000000, baseFeeChangeDenominator: 36, minBlockGasCost: 0, maxBlockGasCost: 1000000, blockGasCostStep: 200000 };
const T = Math.floor(Date.now() / 1000) + 3600;
const SLOT1 = '0x' + '00'.repeat(31) + '01';

function genesis(chainId: number, config: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    config: { chainId, feeConfig: FEE_CONFIG, initialMinDelayMS: 1, ...config },
    alloc: { [EWOQ]: { balance: '0x52B7D2DCC80CD2E4000000' } },
    timestamp: '0x5FCB13D0', gasLimit: '0x7A1200', difficulty: '0x0',
    ...extra,
  };
}

let tmp: string;
let node: TestNode;

async function call(alias: string, method: string, params: unknown[] = []): Promise<{ text: string; body: any }> {
  const res = await fetch(`${node.url}/ext/bc/${alias}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const text = await res.text();
  return { text, body: JSON.parse(text) };
}

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'powder-cfgdec-'));
  const cfgDir = join(tmp, 'chain-configs');
  mkdirSync(join(cfgDir, 'nullup'), { recursive: true });
  // A null account is the zero StateUpgradeAccount; a state upgrade without accounts has a nil map;
  // "" and "+5" are what big.Int's SetString reads as 0 and 5.
  // Struct fields match case-insensitively (Go's encoding/json); precompile keys are map keys (exact).
  mkdirSync(join(cfgDir, 'fold'), { recursive: true });
  writeFileSync(join(cfgDir, 'fold', 'upgrade.json'), JSON.stringify({ PrecompileUpgrades: [{ feeManagerConfig: { BlockTimestamp: T, AdminAddresses: [EWOQ] } }], STATEUPGRADES: [{ blockTIMESTAMP: T, Accounts: { [EWOQ]: { BalanceChange: '1' } } }] }));
  writeFileSync(
    join(cfgDir, 'nullup', 'upgrade.json'),
    JSON.stringify({ stateUpgrades: [{ blockTimestamp: T, accounts: { [EWOQ]: null, '0x00000000000000000000000000000000000c0ffe': { balanceChange: '' } } }, { blockTimestamp: T + 1 }, { blockTimestamp: T + 2, accounts: { [EWOQ]: { balanceChange: '+5' } } }] }),
  );
  node = await startTestNode({
    'chain-config-dir': cfgDir,
    chains: [
      // `"<key>": null` in genesis config: a genesis precompile with no blockTimestamp (never active).
      { name: 'nullpc', aliases: ['nullpc'], genesis: genesis(99941, { txAllowListConfig: null, warpConfig: null, daoForkSupport: false, terminalTotalDifficultyPassed: true, ethash: { anything: 1 }, clique: { period: 2 } }, { alloc: { [EWOQ]: { balance: '0x52B7D2DCC80CD2E4000000', storage: { [SLOT1]: null } } } }) },
      { name: 'nullup', aliases: ['nullup'], genesis: genesis(99942) },
      {
        name: 'fold',
        aliases: ['fold'],
        genesis: {
          Config: { ChainID: 99948, FEECONFIG: { ...FEE_CONFIG, GasLimit: 8000000 }, InitialMinDelayMS: 1, txAllowListConfig: { BlockTimestamp: 0, ADMINADDRESSES: [EWOQ] }, TxAllowListConfig: { blockTimestamp: 0 } },
          ALLOC: { [EWOQ]: { Balance: '0x52B7D2DCC80CD2E4000000' } },
          Timestamp: '0x5FCB13D0', GasLimit: '0x7A1200', Difficulty: '0x0',
        },
      },
    ],
  });
});
after(async () => {
  await node?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

test('genesis config: a precompile key set to null is listed by eth_getChainConfig with "blockTimestamp":null and never activates', async () => {
  const { text, body } = await call('nullpc', 'eth_getChainConfig');
  assert.ok(text.includes('"txAllowListConfig":{"blockTimestamp":null}'), text);
  assert.ok(text.includes('"warpConfig":{"blockTimestamp":null,"quorumNumerator":0,"requirePrimaryNetworkSigners":false}'), text);
  assert.deepEqual(body.result.upgrades, {});
  // geth's omitempty bools: false is not written back, true is.
  assert.equal(body.result.daoForkSupport, undefined);
  assert.equal(body.result.terminalTotalDifficultyPassed, true);
  // params.EthashConfig has no fields; CliqueConfig has period and epoch (both written).
  assert.ok(text.includes('"clique":{"period":2,"epoch":0}') && text.includes('"ethash":{}'), text);
  assert.deepEqual((await call('nullpc', 'eth_getActivePrecompilesAt', [T])).body.result, {});
  assert.deepEqual((await call('nullpc', 'eth_getActiveRulesAt', [T])).body.result.precompiles, {});
  assert.equal((await call('nullpc', 'eth_getCode', ['0x0200000000000000000000000000000000000002', 'latest'])).body.result, '0x');
  // A null storage value in the alloc is the zero word (no slot written).
  assert.equal((await call('nullpc', 'eth_getStorageAt', [EWOQ, SLOT1, 'latest'])).body.result, '0x' + '00'.repeat(32));
});

test('upgrade.json: a null state-upgrade account is no change; missing accounts print as "accounts":null; "" and "+5" are decimal', async () => {
  const { text, body } = await call('nullup', 'eth_getChainConfig');
  assert.ok(text.includes(`"stateUpgrades":[{"blockTimestamp":${T},"accounts":{"0x00000000000000000000000000000000000c0ffe":{"balanceChange":"0x0"},"${EWOQ_LOWER}":{}}},{"blockTimestamp":${T + 1},"accounts":null},{"blockTimestamp":${T + 2},"accounts":{"${EWOQ_LOWER}":{"balanceChange":"0x5"}}}]`), text);
  assert.equal(body.result.upgrades.precompileUpgrades, undefined);
});

test('struct fields match case-insensitively (ChainID, GasLimit, BlockTimestamp…); precompile keys only exactly', async () => {
  assert.equal((await call('fold', 'eth_chainId')).body.result, '0x' + (99948).toString(16));
  const { body } = await call('fold', 'eth_getChainConfig');
  assert.equal(body.result.chainId, 99948);
  assert.deepEqual(body.result.txAllowListConfig, { adminAddresses: [EWOQ_LOWER], blockTimestamp: 0 });
  assert.equal(body.result.TxAllowListConfig, undefined);
  assert.deepEqual(body.result.upgrades.precompileUpgrades, [{ feeManagerConfig: { adminAddresses: [EWOQ_LOWER], blockTimestamp: T } }]);
  assert.deepEqual(body.result.upgrades.stateUpgrades, [{ blockTimestamp: T, accounts: { [EWOQ_LOWER]: { balanceChange: '0x1' } } }]);
  assert.equal((await call('fold', 'eth_getBalance', [EWOQ, 'latest'])).body.result, '0x52b7d2dcc80cd2e4000000');
});

// ---------------------------------------------------------------------------------------------
// Refused at start

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Starts a chain that must fail; a string genesis/upgrade is written as is (number literals like `25e9` kept). */
async function refuses(g: Record<string, unknown> | string, upgrade: unknown, text: string): Promise<void> {
  const dir = mkdtempSync(join(tmp, 'bad-'));
  if (upgrade !== undefined) {
    mkdirSync(join(dir, 'bad'), { recursive: true });
    writeFileSync(join(dir, 'bad', 'upgrade.json'), typeof upgrade === 'string' ? upgrade : JSON.stringify(upgrade));
  }
  let genesisDef: Record<string, unknown> | string = g;
  if (typeof g === 'string') {
    genesisDef = join(dir, 'genesis.json');
    writeFileSync(genesisDef, g);
  }
  await assert.rejects(startTestNode({ 'chain-config-dir': dir, chains: [{ name: 'bad', aliases: ['bad'], genesis: genesisDef }] }), (e: Error) => {
    assert.match(e.message, new RegExp(escape(text) + '$'));
    return true;
  });
}
const badUpgrade = (u: unknown, text: string) => refuses(genesis(99943), u, text);
const badConfig = (config: Record<string, unknown>, text: string) => refuses(genesis(99944, config), undefined, text);
const PARSE = 'failed to parse upgrade bytes: ';

test('upgrade.json: null entries decode to zero values and fail validation as the real node does', async () => {
  await badUpgrade({ precompileUpgrades: [null] }, PARSE + 'PrecompileUpgrade cannot be empty');
  await badUpgrade(
    { precompileUpgrades: [{ feeManagerConfig: null }] },
    'failed to verify genesis: invalid precompile upgrades: precompile upgrade block timestamp cannot be nil: PrecompileUpgrade (feeManagerConfig) at [0]',
  );
  await badUpgrade({ stateUpgrades: [null] }, 'failed to verify genesis: invalid state upgrades: state upgrade config block timestamp cannot be nil: StateUpgrade[0]');
});

test('upgrade.json: wrong JSON kinds name the field by its Go path', async () => {
  await badUpgrade({ precompileUpgrades: [{ feeManagerConfig: { blockTimestamp: '1' } }] }, PARSE + 'json: cannot unmarshal string into Go struct field UpgradeConfig.precompileUpgrades.blockTimestamp of type uint64');
  await badUpgrade({ precompileUpgrades: [{ rewardManagerConfig: { blockTimestamp: T, initialRewardConfig: { allowFeeRecipients: 1 } } }] }, PARSE + 'json: cannot unmarshal number into Go struct field UpgradeConfig.precompileUpgrades.initialRewardConfig.allowFeeRecipients of type bool');
  await badUpgrade({ precompileUpgrades: [{ feeManagerConfig: 5 }] }, PARSE + 'json: cannot unmarshal number into Go struct field UpgradeConfig.precompileUpgrades of type feemanager.Config');
  await badUpgrade({ precompileUpgrades: [5] }, PARSE + 'json: cannot unmarshal number into Go struct field UpgradeConfig.precompileUpgrades of type map[string]json.RawMessage');
  await badUpgrade({ stateUpgrades: [{ blockTimestamp: -1 }] }, PARSE + 'json: cannot unmarshal number -1 into Go struct field StateUpgrade.stateUpgrades.blockTimestamp of type uint64');
  await badUpgrade({ stateUpgrades: [{ blockTimestamp: T, accounts: { [EWOQ]: { code: '6001' } } }] }, PARSE + 'json: cannot unmarshal hex string without 0x prefix into Go struct field StateUpgradeAccount.stateUpgrades.accounts.code of type hexutil.Bytes');
  await badUpgrade({ stateUpgrades: [{ blockTimestamp: T, accounts: { '0x01': {} } }] }, PARSE + 'hex string has length 2, want 40 for common.Address');
  await badUpgrade({ stateUpgrades: [{ blockTimestamp: T, accounts: { '8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC': {} } }] }, PARSE + 'json: cannot unmarshal hex string without 0x prefix into Go struct field StateUpgrade.stateUpgrades.accounts of type common.Address');
  await badUpgrade({ stateUpgrades: [{ blockTimestamp: T, accounts: { [EWOQ]: { storage: { [SLOT1]: 1 } } } }] }, PARSE + 'json: cannot unmarshal non-string into Go struct field StateUpgradeAccount.stateUpgrades.accounts.storage of type common.Hash');
  await badUpgrade({ networkUpgradeOverrides: { graniteTimestamp: 1.5 } }, PARSE + 'json: cannot unmarshal number 1.5 into Go struct field NetworkUpgrades.networkUpgradeOverrides.graniteTimestamp of type uint64');
  // HexOrDecimal256 quotes the JSON text it could not read (an array or a bool too).
  await badUpgrade({ stateUpgrades: [{ blockTimestamp: T, accounts: { [EWOQ]: { balanceChange: true } } }] }, PARSE + 'invalid hex or decimal integer "true"');
  await badUpgrade({ stateUpgrades: [{ blockTimestamp: T, accounts: { [EWOQ]: { balanceChange: [1] } } }] }, PARSE + 'invalid hex or decimal integer "[1]"');
});

test('genesis config: wrong JSON kinds name the field as Genesis.config.<path>', async () => {
  await badConfig({ txAllowListConfig: { blockTimestamp: '5' } }, 'json: cannot unmarshal string into Go struct field Genesis.config.blockTimestamp of type uint64');
  await badConfig({ txAllowListConfig: { blockTimestamp: 0, adminAddresses: [5] } }, 'json: cannot unmarshal non-string into Go struct field Genesis.config.adminAddresses of type common.Address');
  await badConfig({ txAllowListConfig: [] }, 'json: cannot unmarshal array into Go struct field Genesis.config of type txallowlist.Config');
  // common.Address is not a pointer: Go hands `null` to its decoder, which refuses it.
  await badConfig(
    { rewardManagerConfig: { blockTimestamp: 0, initialRewardConfig: { rewardAddress: null } } },
    'json: cannot unmarshal non-string into Go struct field Genesis.config.initialRewardConfig.rewardAddress of type common.Address',
  );
  await badConfig({ durangoTimestamp: -1 }, 'json: cannot unmarshal number -1 into Go struct field Genesis.config.durangoTimestamp of type uint64');
  await badConfig({ feeConfig: { ...FEE_CONFIG, targetBlockRate: 2.5 } }, 'json: cannot unmarshal number 2.5 into Go struct field Genesis.config.feeConfig.targetBlockRate of type uint64');
  await badConfig({ feeConfig: { ...FEE_CONFIG, gasLimit: [8000000] } }, 'math/big: cannot unmarshal "[8000000]" into a *big.Int');
  // geth's own keys are decoded with their types too (pragueTime is a *uint64).
  await badConfig({ pragueTime: 'x' }, 'json: cannot unmarshal string into Go struct field Genesis.config.pragueTime of type uint64');
  await refuses({ ...genesis(99945), config: [] }, undefined, 'json: cannot unmarshal array into Go struct field Genesis.config of type extras._ChainConfigExtra');
});

test('number literals with a fraction or an exponent are quoted as written and refused in integer fields', async () => {
  const raw = (config: string) => JSON.stringify(genesis(99947)).replace('"initialMinDelayMS":1', config);
  await refuses(raw('"initialMinDelayMS":1,"durangoTimestamp":1e10'), undefined, 'json: cannot unmarshal number 1e10 into Go struct field Genesis.config.durangoTimestamp of type uint64');
  await refuses(
    JSON.stringify(genesis(99947)).replace('"minBaseFee":25000000000', '"minBaseFee":25e9'),
    undefined,
    'math/big: cannot unmarshal "25e9" into a *big.Int',
  );
  await refuses(raw('"initialMinDelayMS":1,"clique":{"period":2.0}'), undefined, 'json: cannot unmarshal number 2.0 into Go struct field Genesis.config.clique.period of type uint64');
  await badUpgrade(`{"stateUpgrades":[{"blockTimestamp":${T},"accounts":{"${EWOQ}":{"balanceChange":1e3}}}]}`, PARSE + 'invalid hex or decimal integer "1e3"');
  await badUpgrade(`{"precompileUpgrades":[{"warpConfig":{"blockTimestamp":${T},"quorumNumerator":67.0}}]}`, PARSE + 'json: cannot unmarshal number 67.0 into Go struct field UpgradeConfig.precompileUpgrades.quorumNumerator of type uint64');
});

test('genesis config: rewardManagerConfig checks its initialRewardConfig before its allow list', async () => {
  await badConfig(
    { rewardManagerConfig: { blockTimestamp: 0, adminAddresses: [EWOQ, EWOQ], initialRewardConfig: { allowFeeRecipients: true, rewardAddress: EWOQ } } },
    'failed to verify genesis: invalid precompile upgrades: cannot enable both fee recipients and reward address at the same time',
  );
  await badConfig({ rewardManagerConfig: { blockTimestamp: 0, adminAddresses: [EWOQ, EWOQ] } }, `failed to verify genesis: invalid precompile upgrades: duplicate address in admin list: ${EWOQ}`);
});

test('genesis alloc: key, code and storage errors as types.GenesisAlloc / storageJSON print them', async () => {
  const bad = (a: unknown, text: string) => refuses(genesis(99946, {}, { alloc: a }), undefined, text);
  await bad([], 'json: cannot unmarshal array into Go struct field Genesis.alloc of type map[common.UnprefixedAddress]types.Account');
  await bad({ abcd: { balance: '0x1' } }, 'hex string has length 4, want 40 for UnprefixedAddress');
  await bad({ [EWOQ]: 5 }, 'json: cannot unmarshal number into Go struct field Genesis.alloc of type types.Account');
  await bad({ [EWOQ]: { balance: '0x1', code: '6001' } }, 'json: cannot unmarshal hex string without 0x prefix into Go struct field Genesis.alloc.code of type hexutil.Bytes');
  await bad({ [EWOQ]: { balance: '0x1', storage: { ['0x' + '1'.repeat(65)]: '0x01' } } }, `too many hex characters in storage key/value "${'1'.repeat(65)}"`);
  await bad({ [EWOQ]: { balance: '0x1', storage: { [SLOT1]: '0xzz' } } }, 'invalid hex storage key/value "zz"');
});
