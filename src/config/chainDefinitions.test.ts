// Chain definitions (--chains, --chains-file, a config file's `chains`) of the wrong shape stop the
// start with one line naming the definition and the key. They used to reach the code as they were:
// `[null]` failed with "Cannot read properties of null (reading 'name')", `"aliases": "x"` with
// "(def.aliases ?? []).map is not a function", `"name": 5` with Node's "The "data" argument must
// be of type string…", `"validators": 5` with "(defs ?? [{(intermediate value)}]).map is not a
// function"; `[1]` or `"aliases": [1]` started a chain as if the value were not there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestNode } from '../../test/helpers.js';

test('a chain definition of the wrong shape: the start fails with one line naming it (no JavaScript text)', async (t) => {
  const cases: [string, unknown[], string][] = [
    ['a number', [1], '--chains: chain definition 0: must be a JSON object, not number'],
    ['null', [null], '--chains: chain definition 0: must be a JSON object, not null'],
    ['an array', [{ name: 'a' }, []], '--chains: chain definition 1: must be a JSON object, not array'],
    ['aliases a string', [{ aliases: 'x' }], '--chains: chain definition 0: "aliases" must be an array of strings'],
    ['aliases an object', [{ aliases: {} }], '--chains: chain definition 0: "aliases" must be an array of strings'],
    ['an alias a number', [{ aliases: ['a', 1] }], '--chains: chain definition 0: "aliases" must be an array of strings'],
    ['name a number', [{ name: 5 }], '--chains: chain definition 0: "name" must be a string, not number'],
    ['subnetID a number', [{ subnetID: 5 }], '--chains: chain definition 0: "subnetID" must be a string, not number'],
    ['validators a number', [{ validators: 5 }], '--chains: chain definition 0: "validators" must be an array, not number'],
    // Subnet-EVM's own options, checked by the VM.
    ['dev a string', [{ dev: 'yes' }], 'chain option "dev" must be true or false, not "yes"'],
    ['devAccounts a string', [{ dev: true, devAccounts: '5' }], 'chain option "devAccounts" must be a whole number of accounts from 0 to 10000, not "5"'],
    ['devAccounts negative', [{ dev: true, devAccounts: -1 }], 'chain option "devAccounts" must be a whole number of accounts from 0 to 10000, not -1'],
    ['devAccounts too many', [{ dev: true, devAccounts: 1e9 }], 'chain option "devAccounts" must be a whole number of accounts from 0 to 10000, not 1000000000'],
    ['blockTime an object', [{ blockTime: {} }], 'chain option "blockTime" must be a duration ("2s", "500ms") or a number of milliseconds, 0 or more, not {}'],
    ['blockTime a bad text', [{ blockTime: 'soon' }], 'chain option "blockTime": time: invalid duration "soon"'],
    ['clientVersion a number', [{ clientVersion: 5 }], 'chain option "clientVersion" must be a string, not 5'],
  ];
  for (const [what, chains, want] of cases) {
    await t.test(what, async () => {
      await assert.rejects(startTestNode({ 'db-type': 'memdb', chains }), (e: Error) => {
        assert.equal(e.message, want);
        return true;
      });
    });
  }
  await t.test('from --chains-file, the file is named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'powder-chaindefs-'));
    try {
      const file = join(dir, 'chains.json');
      writeFileSync(file, '[{"aliases":"x"}]');
      await assert.rejects(startTestNode({ 'db-type': 'memdb', 'chains-file': file }), (e: Error) => {
        assert.equal(e.message, `--chains-file ${file}: chain definition 0: "aliases" must be an array of strings`);
        return true;
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  await t.test('well-formed definitions, nulls as absent, still start', async () => {
    const node = await startTestNode({ 'db-type': 'memdb', chains: [{ name: 'a', aliases: ['a'], dev: true, devAccounts: 2, blockTime: null, validators: null, subnetID: null }] });
    try {
      const r = await fetch(`${node.url}/ext/bc/a/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_accounts"}' });
      assert.equal(((await r.json()) as { result: string[] }).result.length, 3); // 2 mnemonic accounts and the ewoq key
    } finally {
      await node.stop();
    }
  });
});

test('a --chains-file or config file that is no JSON: Go\'s syntax texts; too deep: Go\'s "exceeded max depth" (was V8\'s stack overflow)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-chaindefs-'));
  try {
    const cases: [string, string, string, (file: string) => string][] = [
      ['chains file 200,000 arrays deep', 'chains-file', '['.repeat(200_000), (f) => `--chains-file ${f} is not valid JSON: exceeded max depth`],
      ['chains file truncated', 'chains-file', '[{"name":"a"', (f) => `--chains-file ${f} is not valid JSON: unexpected end of JSON input`],
      ['config file with a trailing comma', 'config-file', '{"http-port":0,}', (f) => `config file ${f} is not valid JSON: invalid character '}' looking for beginning of object key string`],
    ];
    for (const [what, flag, text, want] of cases) {
      await t.test(what, async () => {
        const file = join(dir, `${flag}.json`);
        writeFileSync(file, text);
        await assert.rejects(startTestNode({ 'db-type': 'memdb', [flag]: file }), (e: Error) => {
          assert.equal(e.message, want(file));
          return true;
        });
      });
    }
    await t.test('a deep chains file whose values are fine still starts (integers past 2^53 kept)', async () => {
      const file = join(dir, 'deep.json');
      // 5,000 levels inside an option the VM ignores, and a balance past 2^53 in the genesis.
      const genesis = `{"config":{"chainId":99999,"feeConfig":{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000}},"alloc":{"8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC":{"balance":1000000000000000000000001}},"timestamp":"0x0","gasLimit":"0x7A1200","difficulty":"0x0"}`;
      writeFileSync(file, `[{"name":"d","aliases":["d"],"genesis":${genesis},"deep":${'['.repeat(5000)}${']'.repeat(5000)}}]`);
      const node = await startTestNode({ 'db-type': 'memdb', 'chains-file': file });
      try {
        const r = await fetch(`${node.url}/ext/bc/d/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC","latest"]}' });
        assert.equal(BigInt(((await r.json()) as { result: string }).result), 1000000000000000000000001n);
      } finally {
        await node.stop();
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
