// Unit tests for genesis (§5), chain config JSON and rules (§2.2–2.4, §4.3) and upgrade.json (§6).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  activePrecompilesJSON,
  activeRulesJSON,
  chainConfigJSON,
  devGenesis,
  genesisHeader,
  parseGenesis,
  parseUpgradeConfig,
  precompileActivations,
  rulesAt,
  cachedRulesAt,
  stateUpgradesAt,
} from './index.js';
import { hashHeader, headerJSON, decodeHeader, encodeHeader } from '../header/index.js';

/** JSON text the way the RPC writer emits it (bigint → bare number). */
function wire(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `@@${x}@@` : x)).replace(/"@@(-?\d+)@@"/g, '$1');
}
const enc = (o: unknown) => new TextEncoder().encode(typeof o === 'string' ? o : wire(o));

const TESTS_GENESIS = `{
  "config": {
    "chainId": 99999,
    "feeConfig": {
      "gasLimit": 200000000, "minBaseFee": 1000000000, "targetGas": 400000000,
      "baseFeeChangeDenominator": 48, "minBlockGasCost": 0, "maxBlockGasCost": 10000000,
      "targetBlockRate": 2, "blockGasCostStep": 500000
    }
  },
  "alloc": {
    "8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC": {"balance": "0x52B7D2DCC80CD2E4000000"},
    "0x0Fa8EA536Be85F32724D57A37758761B86416123": {"balance": "0x52B7D2DCC80CD2E4000000"}
  },
  "nonce": "0x0", "timestamp": "0x5FCB13D0", "extraData": "0x00",
  "gasLimit": "0xBEBC200", "difficulty": "0x0",
  "mixHash": "0x0000000000000000000000000000000000000000000000000000000000000000",
  "coinbase": "0x0000000000000000000000000000000000000000",
  "number": "0x0", "gasUsed": "0x0",
  "parentHash": "0x0000000000000000000000000000000000000000000000000000000000000000"
}`;

const ADMIN = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const OTHER = '0x0Fa8EA536Be85F32724D57A37758761B86416123';

function genesisWith(config: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}): Uint8Array {
  const g = JSON.parse(TESTS_GENESIS) as Record<string, unknown>;
  if (config === undefined) delete g.config;
  else g.config = config;
  return enc({ ...g, ...extra });
}

test('§5.4 example genesis parses; alloc, defaults, base fee, header fields', () => {
  const g = parseGenesis(enc(TESTS_GENESIS), 12345);
  assert.equal(g.config.chainId, 99999n);
  assert.equal(g.gasLimit, 200_000_000n);
  assert.equal(g.timestamp, 1607144400n);
  assert.equal(g.difficulty, 0n);
  assert.equal(g.alloc.size, 2);
  assert.equal(g.alloc.get('0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc')!.balance, 10n ** 26n);
  assert.equal(g.alloc.get('0x0fa8ea536be85f32724d57a37758761b86416123')!.nonce, 0n);
  assert.equal(g.baseFee, 1_000_000_000n);
  // Genesis at 1607144400 on a local network: Etna and Granite are active → all extra fields.
  const h = genesisHeader(g, new Uint8Array(32));
  assert.equal(h.blockGasCost, 0n);
  assert.equal(h.timestampMilliseconds, 1607144400000n);
  assert.equal(h.minDelayExcess, 7_970_124n);
  const j = headerJSON(h, { hash: hashHeader(h) });
  assert.equal(j.baseFeePerGas, '0x3b9aca00');
  assert.equal(j.minDelayExcess, '0x799d4c');
  assert.equal(j.parentBeaconBlockRoot, '0x' + '00'.repeat(32));
  assert.equal(j.blobGasUsed, '0x0');
  assert.equal(j.totalDifficulty, '0x0');
  assert.deepEqual(Object.keys(j), [...Object.keys(j)].sort());
  assert.deepEqual(decodeHeader(encodeHeader(h)), h);
});

test('genesis at timestamp 0 (local): only SubnetEVM → no Cancun/Granite header fields', () => {
  const g = parseGenesis(genesisWith(undefined, { gasLimit: '0x7a1200', timestamp: '0x0' }), 12345);
  assert.equal(g.config.chainId, 43214n); // default config
  assert.equal(g.baseFee, 25_000_000_000n);
  const h = genesisHeader(g, new Uint8Array(32));
  assert.equal(h.blockGasCost, undefined);
  assert.equal(h.parentBeaconRoot, undefined);
  assert.equal(h.timestampMilliseconds, undefined);
  const j = headerJSON(h, { hash: hashHeader(h) });
  assert.equal('blockGasCost' in j, false);
  assert.equal('minDelayExcess' in j, false);
  // explicit baseFeePerGas wins; initialMinDelayMS seeds minDelayExcess on a Granite genesis
  const g2 = parseGenesis(
    genesisWith({ chainId: 1, initialMinDelayMS: 1000 }, { gasLimit: 8_000_000, baseFeePerGas: '1234' }),
    12345,
  );
  assert.equal(g2.baseFee, 1234n);
  assert.equal(genesisHeader(g2, new Uint8Array(32)).minDelayExcess, 7_243_307n);
});

test('genesis errors (exact texts)', () => {
  const base = JSON.parse(TESTS_GENESIS) as Record<string, unknown>;
  const without = (k: string) => {
    const o = { ...base };
    delete o[k];
    return enc(o);
  };
  assert.throws(() => parseGenesis(without('gasLimit'), 1), { message: "missing required field 'gasLimit' for Genesis" });
  assert.throws(() => parseGenesis(without('difficulty'), 1), { message: "missing required field 'difficulty' for Genesis" });
  assert.throws(() => parseGenesis(without('alloc'), 1), { message: "missing required field 'alloc' for Genesis" });
  assert.throws(() => parseGenesis(genesisWith(undefined), 12345), {
    message: 'failed to verify genesis: gas limit in fee config (8000000) does not match gas limit in header (200000000)',
  });
  assert.throws(() => parseGenesis(genesisWith({ chainId: 5, feeConfig: { gasLimit: 200000000 } }), 12345), {
    message: 'failed to verify genesis: invalid fee config: minBaseFee cannot be nil',
  });
  assert.throws(() => parseGenesis(genesisWith({ chainId: 5, feeConfig: { gasLimit: '200000000' } }), 12345), /cannot unmarshal/);
  assert.throws(() => parseGenesis(genesisWith({ chainId: 5, durangoTimestamp: 5 }, { gasLimit: 8000000 }), 12345), {
    message:
      'failed to verify genesis: invalid network upgrades: durango fork block timestamp is invalid: provided timestamp must be greater than or equal to the default timestamp: provided timestamp 5, default timestamp 1607144400',
  });
  assert.throws(() => parseGenesis(genesisWith({ chainId: 5, initialMinDelayMS: 2001 }, { gasLimit: 8000000 }), 12345), {
    message: 'failed to verify genesis: initialMinDelayMS too large: 2001 exceeds 2000',
  });
  assert.throws(() => parseGenesis(genesisWith({ chainId: 5, durangoTimestamp: 2000000000 }, { gasLimit: 8000000 }), 12345), {
    message: 'unsupported fork ordering: durangoTimestamp enabled at timestamp 2000000000, but etnaTimestamp enabled at timestamp 1607144400',
  });
  assert.throws(() => parseGenesis(enc('{"alloc": '), 1), { message: 'unexpected end of JSON input' });
  assert.throws(
    () => parseGenesis(genesisWith({ chainId: 5, txAllowListConfig: { blockTimestamp: 0, managerAddresses: [OTHER] } }, { gasLimit: 8000000 }), 12345),
    { message: 'failed to verify genesis: invalid precompile upgrades: cannot add managers before Durango' },
  );
  assert.throws(() => parseGenesis(genesisWith({ chainId: 5, warpConfig: { blockTimestamp: 0 } }, { gasLimit: 8000000 }), 12345), {
    message: 'failed to verify genesis: invalid precompile upgrades: warp cannot be activated before Durango',
  });
  assert.throws(
    () => parseGenesis(genesisWith({ chainId: 5, txAllowListConfig: { blockTimestamp: 0, adminAddresses: [ADMIN], enabledAddresses: [ADMIN.toLowerCase()] } }, { gasLimit: 8000000 }), 12345),
    { message: `failed to verify genesis: invalid precompile upgrades: cannot set address as both admin and enabled: ${ADMIN}` },
  );
  assert.throws(
    () => parseGenesis(genesisWith({ chainId: 5, warpConfig: { blockTimestamp: 1607144400, quorumNumerator: 20 } }, { gasLimit: 8000000 }), 12345),
    { message: 'failed to verify genesis: invalid precompile upgrades: invalid warp quorum ratio: cannot specify numerator (20) < min numerator (33)' },
  );
});

test('§2.2 chainConfigJSON for tests/genesis.json on a local network is exactly the reference object', () => {
  const g = parseGenesis(enc(TESTS_GENESIS), 12345);
  assert.equal(
    wire(chainConfigJSON(g.config)),
    '{"berlinBlock":0,"byzantiumBlock":0,"cancunTime":1607144400,"chainId":99999,"constantinopleBlock":0,' +
      '"durangoTimestamp":1607144400,"eip150Block":0,"eip155Block":0,"eip158Block":0,"etnaTimestamp":1607144400,' +
      '"feeConfig":{"gasLimit":200000000,"targetBlockRate":2,"minBaseFee":1000000000,"targetGas":400000000,"baseFeeChangeDenominator":48,"minBlockGasCost":0,"maxBlockGasCost":10000000,"blockGasCostStep":500000},' +
      '"graniteTimestamp":1607144400,"heliconTimestamp":253399622400,"homesteadBlock":0,"istanbulBlock":0,' +
      '"londonBlock":0,"muirGlacierBlock":0,"petersburgBlock":0,"shanghaiTime":1607144400,"subnetEVMTimestamp":0,' +
      '"upgrades":{}}',
  );
});

test('§4.3 network defaults: mainnet, fuji, `0` means default', () => {
  const main = parseGenesis(genesisWith({ chainId: 1, durangoTimestamp: 0 }, { gasLimit: 8000000 }), 1).config;
  assert.equal(main.networkUpgrades.durangoTimestamp, 1709740800n);
  assert.equal(main.networkUpgrades.graniteTimestamp, 1763568000n);
  assert.equal(main.networkUpgrades.fortunaTimestamp, undefined);
  const fuji = parseGenesis(genesisWith({ chainId: 1 }, { gasLimit: 8000000 }), 5).config;
  assert.equal(fuji.networkUpgrades.etnaTimestamp, 1732550400n);
  assert.equal(rulesAt(fuji, 1732550399n).isEtna, false);
  assert.equal(rulesAt(fuji, 1732550400n).isEtna, true);
  assert.equal(rulesAt(fuji, 1732550400n).isCancun, true);
  const fort = parseGenesis(genesisWith({ chainId: 1, fortunaTimestamp: 1607144400 }, { gasLimit: 8000000 }), 12345).config;
  assert.equal(rulesAt(fort, 1607144400n).isFortuna, true);
});

test('cachedRulesAt: the rules rulesAt gives, kept per timestamp up to its bound', () => {
  const fuji = parseGenesis(genesisWith({ chainId: 1 }, { gasLimit: 8000000 }), 5).config;
  const at = cachedRulesAt(fuji);
  for (const ts of [1732550399n, 1732550400n, 1732550400n, 0n, 1732550399n, 1732550399n]) assert.deepEqual(at(ts), rulesAt(fuji, ts), `at ${ts}`);
  assert.equal(at(1732550400n), at(1732550400n), 'the same timestamp again: the same rules');
  assert.notEqual(at(1732550399n).isEtna, at(1732550400n).isEtna);
  // Past 256 timestamps it starts over, and answers as rulesAt still.
  for (let ts = 1732550000n; ts < 1732550600n; ts++) assert.equal(at(ts).isEtna, rulesAt(fuji, ts).isEtna, `at ${ts}`);
  assert.deepEqual(at(1732550400n), rulesAt(fuji, 1732550400n));
});

const PRECOMPILE_CONFIG = {
  chainId: 43214,
  feeConfig: { gasLimit: 8000000, targetBlockRate: 2, minBaseFee: 25000000000, targetGas: 15000000, baseFeeChangeDenominator: 36, minBlockGasCost: 0, maxBlockGasCost: 1000000, blockGasCostStep: 200000 },
  allowFeeRecipients: false,
  contractDeployerAllowListConfig: { blockTimestamp: 0, adminAddresses: [ADMIN] },
  txAllowListConfig: { blockTimestamp: 0, adminAddresses: [ADMIN], enabledAddresses: [OTHER] },
  contractNativeMinterConfig: { blockTimestamp: 0, adminAddresses: [ADMIN], initialMint: { [OTHER]: '1000000000000000000' } },
  feeManagerConfig: { blockTimestamp: 0, adminAddresses: [ADMIN] },
  rewardManagerConfig: { blockTimestamp: 0, adminAddresses: [ADMIN], initialRewardConfig: { allowFeeRecipients: false, rewardAddress: OTHER } },
  warpConfig: { blockTimestamp: 1607144400, quorumNumerator: 67, requirePrimaryNetworkSigners: false },
  gasPriceManagerConfig: { blockTimestamp: 0 },
};

test('§5.4 precompile genesis: rules, active precompiles, chain config keys', () => {
  const cfg = parseGenesis(genesisWith(PRECOMPILE_CONFIG, { gasLimit: 8000000, timestamp: 0 }), 12345).config;
  const r0 = rulesAt(cfg, 0n);
  assert.deepEqual([...r0.precompiles.keys()], [
    '0x0200000000000000000000000000000000000000',
    '0x0200000000000000000000000000000000000001',
    '0x0200000000000000000000000000000000000002',
    '0x0200000000000000000000000000000000000003',
    '0x0200000000000000000000000000000000000004',
  ]);
  assert.equal(r0.isDurango, false);
  const later = activeRulesJSON(cfg, 1607144400n);
  assert.equal(
    wire(later),
    '{"ethRules":{"ChainID":43214,"IsHomestead":true,"IsEIP150":true,"IsEIP155":true,"IsEIP158":true,"IsByzantium":true,' +
      '"IsConstantinople":true,"IsPetersburg":true,"IsIstanbul":true,"IsBerlin":true,"IsLondon":true,"IsMerge":true,' +
      '"IsShanghai":true,"IsCancun":true,"IsPrague":false,"IsVerkle":false},' +
      '"avalancheRules":{"IsSubnetEVM":true,"IsDurango":true,"IsEtna":true,"IsFortuna":false,"IsGranite":true,"IsHelicon":false},' +
      '"precompiles":{"contractDeployerAllowListConfig":{"timestamp":0},"contractNativeMinterConfig":{"timestamp":0},' +
      '"feeManagerConfig":{"timestamp":0},"rewardManagerConfig":{"timestamp":0},"txAllowListConfig":{"timestamp":0},' +
      '"warpConfig":{"timestamp":1607144400}}}',
  );
  const ap = activePrecompilesJSON(cfg, 1607144400n);
  assert.equal(
    wire(ap.contractNativeMinterConfig),
    '{"adminAddresses":["0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"],"blockTimestamp":0,"initialMint":{"0x0fa8ea536be85f32724d57a37758761b86416123":"0xde0b6b3a7640000"}}',
  );
  assert.equal(wire(ap.warpConfig), '{"blockTimestamp":1607144400,"quorumNumerator":67,"requirePrimaryNetworkSigners":false}');
  assert.equal(
    wire(ap.txAllowListConfig),
    '{"adminAddresses":["0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"],"enabledAddresses":["0x0fa8ea536be85f32724d57a37758761b86416123"],"blockTimestamp":0}',
  );
  assert.equal(wire(activePrecompilesJSON(cfg, 0n)).includes('warpConfig'), false);
  const cj = chainConfigJSON(cfg);
  assert.equal('gasPriceManagerConfig' in cj, false); // unregistered key silently ignored
  assert.equal('allowFeeRecipients' in cj, false);
  assert.equal(Object.keys(cj).at(-1), 'upgrades');
  assert.deepEqual(precompileActivations(cfg, undefined, 0n).map((a) => a.key), [
    'contractDeployerAllowListConfig',
    'contractNativeMinterConfig',
    'txAllowListConfig',
    'feeManagerConfig',
    'rewardManagerConfig',
  ]);
  assert.deepEqual(precompileActivations(cfg, 1607144399n, 1607144401n).map((a) => a.key), ['warpConfig']);
});

const localCfg = () => parseGenesis(genesisWith({ chainId: 7, feeManagerConfig: { blockTimestamp: 1607144400, adminAddresses: [ADMIN] } }, { gasLimit: 8000000 }), 12345).config;

test('§6 upgrade.json: enable at a future time, disable, state upgrades, overrides, `upgrades` JSON', () => {
  const up = {
    networkUpgradeOverrides: { graniteTimestamp: 1900000000 },
    stateUpgrades: [
      { blockTimestamp: 1800000000, accounts: { [ADMIN]: { balanceChange: '100', code: '0x6080', storage: { ['0x' + '00'.repeat(32)]: '0x' + '00'.repeat(31) + 'ff' } } } },
    ],
    precompileUpgrades: [
      { feeManagerConfig: { blockTimestamp: 1700000000, disable: true } },
      { txAllowListConfig: { blockTimestamp: 1750000000, adminAddresses: [ADMIN] } },
      { feeManagerConfig: { blockTimestamp: 1760000000, adminAddresses: [OTHER], initialFeeConfig: { ...PRECOMPILE_CONFIG.feeConfig, minBaseFee: 1 } } },
    ],
  };
  const cfg = parseUpgradeConfig(enc(up), localCfg());
  const has = (ts: bigint, addr: string) => rulesAt(cfg, ts).precompiles.has(addr);
  const FM = '0x0200000000000000000000000000000000000003';
  const TX = '0x0200000000000000000000000000000000000002';
  assert.equal(has(1699999999n, FM), true);
  assert.equal(has(1700000000n, FM), false);
  assert.equal(has(1749999999n, TX), false);
  assert.equal(has(1750000000n, TX), true);
  assert.equal(rulesAt(cfg, 1760000000n).precompiles.get(FM)!.timestamp, 1760000000n);
  assert.equal(rulesAt(cfg, 1899999999n).isGranite, false);
  assert.equal(rulesAt(cfg, 1900000000n).isGranite, true);
  assert.equal(chainConfigJSON(cfg).graniteTimestamp, 1900000000n);
  assert.equal(stateUpgradesAt(cfg, 1799999999n, 1800000000n).length, 1);
  assert.equal(stateUpgradesAt(cfg, 1800000000n, 1800000005n).length, 0);
  const disables = precompileActivations(cfg, 1699999999n, 1700000000n);
  assert.equal(disables.length, 1);
  assert.equal(disables[0]!.config.disable, true);
  const u = chainConfigJSON(cfg).upgrades;
  assert.equal(
    wire(u),
    '{"networkUpgradeOverrides":{"graniteTimestamp":1900000000},' +
      '"stateUpgrades":[{"blockTimestamp":1800000000,"accounts":{"0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc":{"code":"0x6080","storage":{"0x0000000000000000000000000000000000000000000000000000000000000000":"0x00000000000000000000000000000000000000000000000000000000000000ff"},"balanceChange":"0x64"}}}],' +
      '"precompileUpgrades":[{"feeManagerConfig":{"blockTimestamp":1700000000,"disable":true}},' +
      '{"txAllowListConfig":{"adminAddresses":["0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"],"blockTimestamp":1750000000}},' +
      '{"feeManagerConfig":{"adminAddresses":["0x0fa8ea536be85f32724d57a37758761b86416123"],"blockTimestamp":1760000000,"initialFeeConfig":{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":1,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000}}}]}',
  );
  // the genesis config keeps `upgrades: {}`
  assert.equal(wire(chainConfigJSON(localCfg()).upgrades), '{}');
  // parseGenesis with upgrade bytes gives the same effective config
  const viaGenesis = parseGenesis(genesisWith({ chainId: 7, feeManagerConfig: { blockTimestamp: 1607144400, adminAddresses: [ADMIN] } }, { gasLimit: 8000000 }), 12345, enc(up)).config;
  assert.equal(wire(chainConfigJSON(viaGenesis)), wire(chainConfigJSON(cfg)));
});

test('§6 upgrade.json errors (exact texts, wrapped)', () => {
  const g = localCfg();
  const P = 'failed to verify genesis: invalid precompile upgrades: ';
  const bad = (o: unknown) => () => parseUpgradeConfig(enc(o), g);
  assert.throws(() => parseUpgradeConfig(enc('{'), g), /^Error: failed to parse upgrade bytes: /);
  assert.throws(bad({ precompileUpgrades: [{}] }), { message: 'failed to parse upgrade bytes: PrecompileUpgrade cannot be empty' });
  assert.throws(bad({ precompileUpgrades: [{ a: {}, b: {} }] }), { message: 'failed to parse upgrade bytes: PrecompileUpgrade must have exactly one key, got 2' });
  assert.throws(bad({ precompileUpgrades: [{ gasPriceManagerConfig: { blockTimestamp: 1 } }] }), {
    message: 'failed to parse upgrade bytes: unknown precompile config: gasPriceManagerConfig',
  });
  assert.throws(bad({ precompileUpgrades: [{ txAllowListConfig: {} }] }), {
    message: P + 'precompile upgrade block timestamp cannot be nil: PrecompileUpgrade (txAllowListConfig) at [0]',
  });
  assert.throws(bad({ precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: 1700000010 } }, { warpConfig: { blockTimestamp: 1700000000 } }] }), {
    message:
      P +
      'precompile upgrade config block timestamp must be greater than or equal to previous timestamp: PrecompileUpgrade (warpConfig) at [1] has timestamp 1700000000, previous timestamp 1700000010',
  });
  assert.throws(bad({ precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: 1700000000, disable: true } }] }), {
    message: P + 'precompile upgrade disable value is invalid: PrecompileUpgrade (txAllowListConfig) at [0], disable should be false',
  });
  assert.throws(bad({ precompileUpgrades: [{ feeManagerConfig: { blockTimestamp: 1700000000 } }] }), {
    message: P + 'precompile upgrade disable value is invalid: PrecompileUpgrade (feeManagerConfig) at [0], disable should be true',
  });
  assert.throws(bad({ precompileUpgrades: [{ feeManagerConfig: { blockTimestamp: 1607144400, disable: true } }] }), {
    message:
      P +
      'precompile upgrade config block timestamp for same key must be strictly greater than previous timestamp: PrecompileUpgrade (feeManagerConfig) at [0] has timestamp 1607144400, previous timestamp of same key 1607144400',
  });
  assert.throws(bad({ precompileUpgrades: [{ feeManagerConfig: { blockTimestamp: 1700000000, disable: true } }, { feeManagerConfig: { blockTimestamp: 1700000001, initialFeeConfig: { gasLimit: 0 } } }] }), {
    message: P + 'minBaseFee cannot be nil',
  });
  assert.throws(bad({ precompileUpgrades: [{ rewardManagerConfig: { blockTimestamp: 1700000000, initialRewardConfig: { allowFeeRecipients: true, rewardAddress: OTHER } } }] }), {
    message: P + 'cannot enable both fee recipients and reward address at the same time',
  });
  assert.throws(bad({ precompileUpgrades: [{ contractNativeMinterConfig: { blockTimestamp: 1700000000, initialMint: { [OTHER]: '0' } } }] }), {
    message: P + `initial mint cannot contain invalid amount: amount 0 for address ${OTHER}`,
  });
  const S = 'failed to verify genesis: invalid state upgrades: ';
  assert.throws(bad({ stateUpgrades: [{ accounts: {} }] }), { message: S + 'state upgrade config block timestamp cannot be nil: StateUpgrade[0]' });
  assert.throws(bad({ stateUpgrades: [{ blockTimestamp: 0, accounts: {} }] }), {
    message: S + 'state upgrade config block timestamp must be greater than 0: StateUpgrade[0] has timestamp 0',
  });
  assert.throws(bad({ stateUpgrades: [{ blockTimestamp: 5, accounts: {} }, { blockTimestamp: 5, accounts: {} }] }), {
    message: S + 'state upgrade config block timestamp must be greater than previous timestamp: StateUpgrade[1] has timestamp 5, previous timestamp 5',
  });
  assert.throws(bad({ networkUpgradeOverrides: { graniteTimestamp: 5 } }), {
    message:
      'failed to verify genesis: invalid network upgrades: granite fork block timestamp is invalid: provided timestamp must be greater than or equal to the default timestamp: provided timestamp 5, default timestamp 1607144400',
  });
  // override to 0 is allowed on a local network (default <= initially active) — but fork order still applies
  const zero = { durangoTimestamp: 0, etnaTimestamp: 0, graniteTimestamp: 0 };
  assert.equal(parseUpgradeConfig(enc({ networkUpgradeOverrides: zero }), g).networkUpgrades.graniteTimestamp, 0n);
  assert.throws(bad({ networkUpgradeOverrides: { graniteTimestamp: 0 } }), {
    message: 'unsupported fork ordering: etnaTimestamp enabled at timestamp 1607144400, but graniteTimestamp enabled at timestamp 0',
  });
});

test('devGenesis produces a valid Granite genesis with fast blocks, on every network id', () => {
  // Mainnet and Fuji reached Granite later: their dev genesis is at their Granite time (else Warp,
  // enabled at the genesis, would come before Durango and the node would not start).
  for (const [networkID, timestamp] of [[12345, 1607144400n], [1, 1763568000n], [5, 1761750000n]] as const) {
    const obj = devGenesis({ networkID, accounts: [ADMIN], balance: 10n ** 24n });
    const g = parseGenesis(enc(obj), networkID);
    assert.equal(g.timestamp, timestamp);
    assert.equal(g.alloc.get(ADMIN.toLowerCase())!.balance, 10n ** 24n);
    const h = genesisHeader(g, new Uint8Array(32));
    assert.equal(h.minDelayExcess, 0n);
    assert.equal(rulesAt(g.config, g.timestamp).isGranite, true);
    assert.equal(rulesAt(g.config, g.timestamp).precompiles.has('0x0200000000000000000000000000000000000005'), true);
  }
});

test('§4.4 checkConfigCompatible', async () => {
  const { checkConfigCompatible } = await import('./compat.js');
  const g = localCfg();
  const withTx = (ts: number) => parseUpgradeConfig(enc({ precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: ts, adminAddresses: [ADMIN] } }] }), g);
  // future upgrade added: fine; same config: fine
  assert.equal(checkConfigCompatible(g, withTx(1800000000), 10n, 1700000000n), null);
  assert.equal(checkConfigCompatible(withTx(1650000000), withTx(1650000000), 10n, 1700000000n), null);
  assert.equal(
    checkConfigCompatible(g, withTx(1650000000), 10n, 1700000000n),
    'mismatching cannot retroactively enable PrecompileUpgrade[0] in database (have timestamp nil, want timestamp 1650000000, rewindto timestamp 1649999999)',
  );
  assert.equal(
    checkConfigCompatible(withTx(1650000000), g, 10n, 1700000000n),
    'mismatching missing PrecompileUpgrade[0] in database (have timestamp 1650000000, want timestamp nil, rewindto timestamp 1649999999)',
  );
  const moved = parseUpgradeConfig(enc({ networkUpgradeOverrides: { graniteTimestamp: 1650000000 } }), g);
  assert.equal(
    checkConfigCompatible(g, moved, 10n, 1700000000n),
    'mismatching Granite fork block timestamp in database (have timestamp 1607144400, want timestamp 1650000000, rewindto timestamp 1607144399)',
  );
  // a chain still on a timestamp-0 genesis can change anything
  assert.equal(checkConfigCompatible(g, withTx(1650000000), 0n, 0n), null);
});
