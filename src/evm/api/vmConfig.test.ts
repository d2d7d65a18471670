// A chain's config.json decoded as Go's json.Unmarshal decodes it into subnet-evm's config.Config
// (reference §9.4): every key has its Go type; a value of the wrong JSON type, a number the field
// cannot hold, or a value its own decoder refuses stops the chain with Go's text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseVmConfig } from './vmConfig.js';
import { startTestNode, rpc } from '../../../test/helpers.js';

/** parseVmConfig's error for a config.json text (asserting the `failed to unmarshal config <json>: ` prefix). */
function decodeError(text: string): string {
  try {
    parseVmConfig(Buffer.from(text), {});
  } catch (e) {
    const prefix = `failed to unmarshal config ${text}: `;
    const message = (e as Error).message;
    assert.ok(message.startsWith(prefix), message);
    return message.slice(prefix.length);
  }
  return assert.fail(`accepted: ${text}`);
}

const field = (what: string, key: string, type: string) => `json: cannot unmarshal ${what} into Go struct field Config.${key} of type ${type}`;

test('config.json: a value of the wrong JSON type gets json.Unmarshal\'s text with the field\'s Go type', () => {
  const cases: [string, string][] = [
    ['{"eth-apis":"eth"}', field('string', 'eth-apis', '[]string')],
    ['{"eth-apis":{}}', field('object', 'eth-apis', '[]string')],
    ['{"eth-apis":["eth",5]}', field('number', 'eth-apis', 'string')],
    ['{"rpc-gas-cap":"abc"}', field('string', 'rpc-gas-cap', 'uint64')],
    ['{"allow-unfinalized-queries":"yes"}', field('string', 'allow-unfinalized-queries', 'bool')],
    ['{"skip-upgrade-check":0}', field('number', 'skip-upgrade-check', 'bool')],
    ['{"rpc-tx-fee-cap":"1"}', field('string', 'rpc-tx-fee-cap', 'float64')],
    ['{"feeRecipient":12}', field('number', 'feeRecipient', 'string')],
    ['{"log-level":{}}', field('object', 'log-level', 'string')],
    ['{"api-max-blocks-per-request":true}', field('bool', 'api-max-blocks-per-request', 'int64')],
    ['{"accepted-queue-limit":[1]}', field('array', 'accepted-queue-limit', 'int')],
    ['{"use-standalone-database":1}', field('number', 'use-standalone-database', 'config.PBool')],
    ['{"min-delay-target":"5"}', field('string', 'min-delay-target', 'uint64')],
    ['{"allow-unprotected-tx-hashes":"0x00"}', field('string', 'allow-unprotected-tx-hashes', '[]common.Hash')],
    ['{"warp-off-chain-messages":5}', field('number', 'warp-off-chain-messages', '[]hexutil.Bytes')],
  ];
  for (const [text, message] of cases) assert.equal(decodeError(text), message, text);
});

test('config.json: numbers an integer or float field cannot hold are quoted as written', () => {
  const cases: [string, string][] = [
    ['{"tx-pool-price-bump":1.5}', field('number 1.5', 'tx-pool-price-bump', 'uint64')],
    ['{"tx-pool-price-bump":1.50}', field('number 1.50', 'tx-pool-price-bump', 'uint64')],
    ['{"rpc-gas-cap":1e3}', field('number 1e3', 'rpc-gas-cap', 'uint64')],
    ['{"tx-pool-account-slots":-1}', field('number -1', 'tx-pool-account-slots', 'uint64')],
    ['{"tx-pool-account-slots":-0}', field('number -0', 'tx-pool-account-slots', 'uint64')],
    ['{"rpc-gas-cap":18446744073709551616}', field('number 18446744073709551616', 'rpc-gas-cap', 'uint64')],
    ['{"state-sync-request-size":65536}', field('number 65536', 'state-sync-request-size', 'uint16')],
    ['{"trie-clean-cache":9223372036854775808}', field('number 9223372036854775808', 'trie-clean-cache', 'int')],
    ['{"max-outbound-active-requests":2.5}', field('number 2.5', 'max-outbound-active-requests', 'int64')],
    ['{"min-delay-target":-1}', field('number -1', 'min-delay-target', 'uint64')],
    ['{"push-gossip-percent-stake":1e400}', field('number 1e400', 'push-gossip-percent-stake', 'float64')],
  ];
  for (const [text, message] of cases) assert.equal(decodeError(text), message, text);
});

test('config.json: durations decode as subnet-evm\'s Duration (spf13/cast, time.ParseDuration)', () => {
  const cases: [string, string][] = [
    ['{"tx-pool-lifetime":"soon"}', 'time: invalid duration "soon"'],
    // No unit letter: cast adds "ns".
    ['{"api-max-duration":"abc"}', 'time: invalid duration "abcns"'],
    ['{"regossip-frequency":"5x"}', 'time: unknown unit "xns" in duration "5xns"'],
    ['{"regossip-frequency":"5hours"}', 'time: unknown unit "hours" in duration "5hours"'],
    // Its UnmarshalJSON runs for null too.
    ['{"tx-pool-lifetime":null}', 'unable to cast <nil> of type <nil> to Duration'],
    ['{"push-gossip-frequency":true}', 'unable to cast true of type bool to Duration'],
    ['{"ws-cpu-max-stored":[1,"a",null,1e6]}', 'unable to cast []interface {}{1, "a", interface {}(nil), 1e+06} of type []interface {} to Duration'],
    ['{"ws-cpu-refill-rate":{"b":0.00001,"a":2}}', 'unable to cast map[string]interface {}{"a":2, "b":1e-05} of type map[string]interface {} to Duration'],
    ['{"continuous-profiler-frequency":1e400}', field('number 1e400', 'continuous-profiler-frequency', 'float64')],
  ];
  for (const [text, message] of cases) assert.equal(decodeError(text), message, text);
  const ms = (config: object) => parseVmConfig(Buffer.from(JSON.stringify(config)), {}).apiMaxDurationMs;
  assert.equal(ms({ 'api-max-duration': '1m30s' }), 90_000);
  assert.equal(ms({ 'api-max-duration': 1_500_000_000 }), 1500); // nanoseconds
  assert.equal(ms({ 'api-max-duration': '2000000' }), 2); // "2000000ns"
});

test('config.json: hashes, addresses and hex bytes get hexutil\'s texts', () => {
  const hash = (v: unknown) => decodeError(JSON.stringify({ 'allow-unprotected-tx-hashes': [v] }));
  const hashField = (what: string) => field(what, 'allow-unprotected-tx-hashes', 'common.Hash');
  assert.equal(hash('0x12'), 'hex string has length 2, want 64 for common.Hash');
  assert.equal(hash(''), 'hex string has length 0, want 64 for common.Hash');
  assert.equal(hash('12'), hashField('hex string without 0x prefix'));
  assert.equal(hash('0x123'), hashField('hex string of odd length'));
  assert.equal(hash('0x' + 'zz'.repeat(32)), hashField('invalid hex string'));
  assert.equal(hash(null), hashField('non-string'));
  assert.equal(hash(5), hashField('non-string'));
  const address = (v: string) => decodeError(JSON.stringify({ 'priority-regossip-addresses': [v] }));
  assert.equal(address('0x123'), field('hex string of odd length', 'priority-regossip-addresses', 'common.Address'));
  assert.equal(address('0x12'), 'hex string has length 2, want 40 for common.Address');
  assert.equal(decodeError('{"warp-off-chain-messages":["0x0g"]}'), field('invalid hex string', 'warp-off-chain-messages', 'hexutil.Bytes'));
});

test('config.json: a top-level value that is no object', () => {
  for (const [text, kind] of [
    ['[1,2]', 'array'],
    ['"x"', 'string'],
    ['5', 'number'],
    ['true', 'bool'],
  ]) {
    assert.equal(decodeError(text), `json: cannot unmarshal ${kind} into Go value of type config.Config`);
  }
  // null is no error: the defaults stay.
  assert.equal(parseVmConfig(Buffer.from('null'), {}).rpcGasCap, 50_000_000n);
});

test('config.json: the first type error is reported, but a field decoder\'s error ends decoding at once', () => {
  assert.equal(decodeError('{"rpc-gas-cap":"x","log-level":5}'), field('string', 'rpc-gas-cap', 'uint64'));
  assert.equal(decodeError('{"rpc-gas-cap":"x","tx-pool-lifetime":"soon"}'), 'time: invalid duration "soon"');
  // Keys match fields case-insensitively; the error names the field.
  assert.equal(decodeError('{"RPC-Gas-Cap":"x"}'), field('string', 'rpc-gas-cap', 'uint64'));
});

test('config.json: what Go accepts — null, case-folded keys, unknown keys, short feeRecipient', () => {
  const parse = (config: string, options = {}) => parseVmConfig(Buffer.from(config), options);
  // null leaves a value's default; a null list is Go's nil (no APIs).
  const nulls = parse('{"rpc-gas-cap":null,"allow-unfinalized-queries":null,"log-level":null,"min-delay-target":null,"eth-apis":null}');
  assert.equal(nulls.rpcGasCap, 50_000_000n);
  assert.equal(nulls.allowUnfinalizedQueries, false);
  assert.equal(nulls.minDelayTarget, undefined);
  assert.deepEqual(nulls.ethApis, []);
  assert.deepEqual(nulls.file, { 'eth-apis': null, 'min-delay-target': null });
  // Go decodes a list into the default one: a null element keeps the default's element.
  assert.deepEqual(parse('{"eth-apis":[null,"net"]}').ethApis, ['eth', 'net']);
  // Keys case-insensitively; unknown keys ignored; the file under the struct's key names.
  const folded = parse('{"RPC-GAS-CAP":7,"Allow-Unfinalized-Queries":true,"no-such-key":"x"}');
  assert.equal(folded.rpcGasCap, 7n);
  assert.equal(folded.allowUnfinalizedQueries, true);
  assert.deepEqual(folded.file, { 'no-such-key': 'x', 'rpc-gas-cap': 7, 'allow-unfinalized-queries': true });
  // Full ranges: uint64's max, a negative int.
  assert.equal(parse('{"tx-pool-price-limit":18446744073709551615,"trie-clean-cache":-5}').txPoolPriceLimit > 0n, true);
  // feeRecipient is a Go string: anything is accepted, but only a full hex address (common.IsHexAddress) is used.
  assert.equal(parse('{"feeRecipient":"0x12"}').feeRecipient, undefined);
  assert.equal(parse('{"feeRecipient":"not an address"}').feeRecipient, undefined);
  assert.equal(parse('{"feeRecipient":"AbCdEf0123456789abcdef0123456789ABCDEF01"}').feeRecipient, '0xabcdef0123456789abcdef0123456789abcdef01');
});

test('a node whose chain config.json has a value of the wrong type does not start, with Go\'s text', async () => {
  const base = mkdtempSync(join(tmpdir(), 'powder-vmconfig-'));
  try {
    for (const [config, message] of [
      ['{"eth-apis":"eth"}', 'json: cannot unmarshal string into Go struct field Config.eth-apis of type []string'],
      ['[1,2]', 'json: cannot unmarshal array into Go value of type config.Config'],
    ]) {
      mkdirSync(join(base, 'dev'), { recursive: true });
      writeFileSync(join(base, 'dev', 'config.json'), config);
      await assert.rejects(startTestNode({ 'db-type': 'memdb', 'chain-config-dir': base }), (e: Error) => {
        assert.ok(!(e instanceof TypeError), e.stack);
        assert.equal(e.message, `failed to unmarshal config ${config}: ${message}`);
        return true;
      });
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test('keys matched case-insensitively reach the node\'s readers too: validators and warp APIs off', async () => {
  const base = mkdtempSync(join(tmpdir(), 'powder-vmconfig-'));
  mkdirSync(join(base, 'dev'), { recursive: true });
  writeFileSync(join(base, 'dev', 'config.json'), '{"Validators-API-Enabled":false,"WARP-API-ENABLED":false}');
  const t = await startTestNode({ 'db-type': 'memdb', 'chain-config-dir': base });
  try {
    const validators = await fetch(`${t.url}/ext/bc/dev/validators`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"validators.getCurrentValidators","params":{}}' });
    assert.equal(validators.status, 404);
    const warp = await rpc(`${t.url}/ext/bc/dev/rpc`, 'warp_getMessage', ['0x' + '00'.repeat(32)]);
    assert.equal(warp.error?.code, -32601, JSON.stringify(warp));
  } finally {
    await t.stop();
    rmSync(base, { recursive: true, force: true });
  }
});
