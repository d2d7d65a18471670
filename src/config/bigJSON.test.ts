// Integers past 2^53 in an inline genesis (--chains, --chains-file, a config file's chains, or a
// library caller's bigints) reach the chain exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJSONKeepingIntegers, stringifyWithBigInts } from './bigJSON.js';
import { resolveConfig } from './config.js';
import { startTestNode, rpc } from '../../test/helpers.js';

const BIG_BALANCE = '1000000000000000000000001'; // 10^24 + 1: JSON.parse gives 1e+24
const BIG_COST = '1152921504606846977'; // 2^60 + 1
const ALICE = '0x1111111111111111111111111111111111111111';
const chainsText =
  `[{"name":"big","aliases":["big"],"genesis":{"config":{"chainId":99990,"feeConfig":{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,` +
  `"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":${BIG_COST},"blockGasCostStep":200000}},` +
  `"alloc":{"${ALICE}":{"balance":${BIG_BALANCE}}},"timestamp":"0x5FCB13D0","gasLimit":"0x7A1200","difficulty":"0x0"}}]`;

test('parseJSONKeepingIntegers: integers a double cannot hold become bigints (duplicates: the last), the rest as JSON.parse; stringifyWithBigInts writes them bare', () => {
  const v = parseJSONKeepingIntegers('{"a": [1, 18446744073709551615, 2.5, 1e400, -9007199254740993], "b": 5, "b": 123456789012345678901, "s": "9007199254740993"}') as Record<string, unknown>;
  assert.deepEqual(v, { a: [1, 18446744073709551615n, 2.5, Infinity, -9007199254740993n], b: 123456789012345678901n, s: '9007199254740993' });
  assert.equal(stringifyWithBigInts({ x: 10n ** 24n + 1n, y: [1, -2n], z: 'a\u0000b' }), '{"x":1000000000000000000000001,"y":[1,-2],"z":"a\\u0000b"}');
  // Without bigints, exactly JSON.stringify (so an inline genesis keeps the chain ID it had).
  const plain = { config: { chainId: 1 }, alloc: {}, timestamp: '0x0', n: 2.5 };
  assert.equal(stringifyWithBigInts(plain), JSON.stringify(plain));
});

test('--chains, --chains-file and a config file\'s chains keep a genesis\'s big integers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-bigjson-'));
  try {
    const file = join(dir, 'chains.json');
    writeFileSync(file, chainsText);
    const cfg = join(dir, 'config.json');
    writeFileSync(cfg, `{"http-port": 0, "chains": ${chainsText}}`);
    for (const argv of [[`--chains=${chainsText}`], [`--chains-file=${file}`], [`--config-file=${cfg}`]]) {
      const c = resolveConfig({ argv: ['--data-dir', dir, ...argv], env: {} });
      const g = (c.chains as { genesis: { alloc: Record<string, { balance: unknown }>; config: { feeConfig: Record<string, unknown> } } }[])[0].genesis;
      assert.equal(g.alloc[ALICE].balance, BigInt(BIG_BALANCE), argv[0]);
      assert.equal(g.config.feeConfig.maxBlockGasCost, BigInt(BIG_COST), argv[0]);
      assert.equal(g.config.feeConfig.gasLimit, 8000000, argv[0]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a chain from an inline genesis with big integers: the balance and the fee config are exact', async () => {
  const c = resolveConfig({ argv: [`--chains=${chainsText}`], env: {} });
  const t = await startTestNode({ chains: c.chains, 'db-type': 'memdb' });
  try {
    const url = `${t.url}/ext/bc/big/rpc`;
    assert.equal(BigInt((await rpc(url, 'eth_getBalance', [ALICE, 'latest'])).result), BigInt(BIG_BALANCE));
    const text = await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_feeConfig","params":[]}' })).text();
    assert.match(text, new RegExp(`"maxBlockGasCost":${BIG_COST},`));
  } finally {
    await t.stop();
  }
});
