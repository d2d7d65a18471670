// The genesis airdrop (§5.1): reading the VM config's `airdrop` file in parseGenesis, and
// genesisAirdrop's hash check and decoding with Go's texts.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { genesisAirdrop, parseGenesis, type Genesis } from './index.js';
import { keccak256 } from '../crypto.js';

const tmp = mkdtempSync(join(tmpdir(), 'powder-airdrop-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const hexOf = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');
const BASE = { config: { chainId: 5, feeConfig: { gasLimit: 8000000, targetBlockRate: 2, minBaseFee: 25000000000, targetGas: 15000000, baseFeeChangeDenominator: 36, minBlockGasCost: 0, maxBlockGasCost: 1000000, blockGasCostStep: 200000 } }, alloc: {}, gasLimit: 8000000, difficulty: 0, timestamp: 0 };
const enc = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));

/** A parsed genesis whose airdrop data is `text` and whose airdropHash matches it. */
function withData(text: string): Genesis {
  const data = Buffer.from(text);
  return { ...parseGenesis(enc({ ...BASE, airdropHash: hexOf(keccak256(data)), airdropAmount: '0x10' }), 12345), airdropData: data };
}

test('parseGenesis reads the airdrop file; an unreadable one fails with Go’s text, after the genesis JSON and before the upgrade bytes', () => {
  const file = join(tmp, 'a.json');
  writeFileSync(file, '[{"address":"0x00000000000000000000000000000000000000aa"}]');
  const g = parseGenesis(enc(BASE), 12345, undefined, file);
  assert.equal(Buffer.from(g.airdropData!).toString(), '[{"address":"0x00000000000000000000000000000000000000aa"}]');
  // Without an airdropHash nothing is airdropped.
  assert.deepEqual(genesisAirdrop(g), []);
  assert.equal(parseGenesis(enc(BASE), 12345).airdropData, undefined);
  const missing = join(tmp, 'missing.json');
  assert.throws(() => parseGenesis(enc(BASE), 12345, undefined, missing), { message: `could not read airdrop file '${missing}': open ${missing}: no such file or directory` });
  assert.throws(() => parseGenesis(enc({ ...BASE, gasLimit: undefined }), 12345, undefined, missing), { message: "missing required field 'gasLimit' for Genesis" });
  assert.throws(() => parseGenesis(enc(BASE), 12345, enc('{'), missing), { message: `could not read airdrop file '${missing}': open ${missing}: no such file or directory` });
});

test('genesisAirdrop: hash check, then the entries as Go decodes []*AirdropEntry', () => {
  const g = withData('[{"address":"0x00000000000000000000000000000000000000AA","x":1},{"ADDRESS":"0x00000000000000000000000000000000000000bb"},{}]');
  assert.deepEqual(genesisAirdrop(g), ['0x00000000000000000000000000000000000000aa', '0x00000000000000000000000000000000000000bb', '0x0000000000000000000000000000000000000000']);
  assert.deepEqual(genesisAirdrop(withData('null')), []);
  assert.deepEqual(genesisAirdrop(withData('[]')), []);
  // A zero airdropHash is no airdrop, whatever the data.
  assert.deepEqual(genesisAirdrop({ ...g, airdropHash: '0x' + '00'.repeat(32) }), []);
  const other = '0x' + 'ab'.repeat(32);
  assert.throws(() => genesisAirdrop({ ...g, airdropHash: other }), { message: `expected standard allocation ${other} but got ${hexOf(keccak256(g.airdropData!))}` });
  const empty = { ...g, airdropData: undefined, airdropHash: hexOf(keccak256(new Uint8Array(0))) };
  assert.throws(() => genesisAirdrop(empty), { message: 'unexpected end of JSON input' });
  const cases: [string, string][] = [
    ['{}', 'json: cannot unmarshal object into Go value of type []*core.AirdropEntry'],
    ['[1]', 'json: cannot unmarshal number into Go value of type core.AirdropEntry'],
    ['[{"address":1}]', 'json: cannot unmarshal non-string into Go struct field AirdropEntry.address of type common.Address'],
    ['[{"address":null}]', 'json: cannot unmarshal non-string into Go struct field AirdropEntry.address of type common.Address'],
    ['[{"address":"00000000000000000000000000000000000000aa"}]', 'json: cannot unmarshal hex string without 0x prefix into Go struct field AirdropEntry.address of type common.Address'],
    ['[{"address":"0xabc"}]', 'json: cannot unmarshal hex string of odd length into Go struct field AirdropEntry.address of type common.Address'],
    ['[{"address":"0xabcd"}]', 'hex string has length 4, want 40 for common.Address'],
    ['[{"address":""}]', 'hex string has length 0, want 40 for common.Address'],
    ['[{"address":"0x00000000000000000000000000000000000000zz"}]', 'json: cannot unmarshal invalid hex string into Go struct field AirdropEntry.address of type common.Address'],
    // A wrong-typed entry is reported at the end; an address error stops the decoding at once.
    ['["x",{"address":"0x1"}]', 'json: cannot unmarshal hex string of odd length into Go struct field AirdropEntry.address of type common.Address'],
    ['["x",[]]', 'json: cannot unmarshal string into Go value of type core.AirdropEntry'],
    ['[null]', 'runtime error: invalid memory address or nil pointer dereference'],
    ['[{"address":"0x00000000000000000000000000000000000000aa"}', 'unexpected end of JSON input'],
  ];
  for (const [text, message] of cases) assert.throws(() => genesisAirdrop(withData(text)), { message }, text);
});
