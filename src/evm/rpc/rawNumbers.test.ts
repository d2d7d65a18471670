// Bare-number params decoded from their source text, as Go's encoding/json does (rawNumbers.ts,
// params.ts): a node on a free port, every case over HTTP (alone and inside a batch) and over
// WebSocket (alone and inside a batch), all four answers required to be the same.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wsClient, type WsTestClient } from '../../../test/wsClient.js';
import { startDevNode, ADDR0, type DevNode } from '../e2e/setup.js';

let dev: DevNode;
let ws: WsTestClient;
let workDir: string;

before(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'powder-rawnumbers-'));
  const configDir = join(workDir, 'chain-config');
  mkdirSync(join(configDir, 'dev'), { recursive: true });
  const apis = ['eth', 'eth-filter', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction', 'internal-personal', 'internal-debug', 'debug', 'debug-handler', 'admin'];
  writeFileSync(join(configDir, 'dev', 'config.json'), JSON.stringify({ 'eth-apis': apis }));
  dev = await startDevNode({ 'chain-config-dir': configDir, 'db-type': 'memdb' });
  ws = await wsClient(dev.wsURL);
});

after(async () => {
  ws?.close();
  await dev?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

async function post(body: string): Promise<string> {
  const res = await fetch(dev.rpcURL, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return res.text();
}

let nextWsId = 1000;
/** Sends a raw text over the WebSocket; the answer to id `id` (or the batch answer holding it). */
async function wsSend(body: string, id: number): Promise<unknown> {
  ws.send(body);
  return ws.next((m) => (Array.isArray(m) ? m.some((x) => x.id === id) : m.id === id));
}

const request = (id: number, method: string, params: string) => `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":[${params}]}`;
const ordinary = (id: number) => request(id, 'eth_chainId', '');

/** What a call answers ({result} or {error}), the same over HTTP, in HTTP and WebSocket batches and over WebSocket. */
async function call(method: string, params: string): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const strip = (m: any) => {
    const { jsonrpc, id, ...rest } = m;
    void jsonrpc, void id;
    return rest;
  };
  const single = JSON.parse(await post(request(1, method, params)));
  // in a batch, after a call whose own text comes first in the body
  const batch = JSON.parse(await post('[' + ordinary(1) + ' , ' + request(2, method, params) + ']'));
  assert.equal(batch.length, 2);
  const a = nextWsId++;
  const overWs = await wsSend(request(a, method, params), a);
  const b = nextWsId++;
  const wsBatch = (await wsSend('[' + ordinary(b - 100000) + ',' + request(b, method, params) + ']', b)) as any[];
  const answers = [strip(single), strip(batch[1]), strip(overWs), strip(wsBatch[1])];
  for (const x of answers.slice(1)) assert.deepEqual(x, answers[0], `${method} [${params}]: the answers differ`);
  return answers[0];
}

async function ok(method: string, params: string): Promise<unknown> {
  const r = await call(method, params);
  assert.equal(r.error, undefined, `${method} [${params}]: ${JSON.stringify(r.error)}`);
  return r.result;
}

async function fails(method: string, params: string, message: string, code = -32602): Promise<void> {
  const r = await call(method, params);
  assert.deepEqual(r.error, { code, message }, `${method} [${params}]`);
}

const uint64Error = (i: number, literal: string, type = 'uint64') => `invalid argument ${i}: json: cannot unmarshal number ${literal} into Go value of type ${type}`;

test('max uint64 is a valid uint64 timestamp (JSON.parse rounded it to 2^64 and it was refused)', async () => {
  const all = await ok('eth_getActiveRulesAt', '18446744073709551615');
  const before = await ok('eth_getActiveRulesAt', '18446744073709551614');
  assert.deepEqual(all, before);
  await ok('eth_getActivePrecompilesAt', '18446744073709551615');
});

test('a uint64 past 2^64 is refused with the literal as sent', async () => {
  for (const m of ['eth_getActiveRulesAt', 'eth_getActivePrecompilesAt']) {
    await fails(m, '18446744073709551616', uint64Error(0, '18446744073709551616'));
    await fails(m, '99999999999999999999999999999', uint64Error(0, '99999999999999999999999999999'));
  }
  const long = '9'.repeat(5000);
  await fails('eth_getActiveRulesAt', long, uint64Error(0, long));
});

test('digits past 2^53 are read exactly (9007199254740993 is not ...992)', async () => {
  await fails('debug_printBlock', '9007199254740993', 'block #9007199254740993 not found', -32000);
  await fails('debug_getModifiedAccountsByNumber', '9007199254740993', 'start block 20000000000001 not found', -32000);
  await fails('debug_getModifiedAccountsByNumber', '0, 18446744073709551615', 'end block 18446744073709551615 not found', -32000);
});

test('a fraction is refused for an integer, even .0', async () => {
  for (const lit of ['1.0', '1.5', '0.0', '-1.0']) {
    await fails('eth_getActiveRulesAt', lit, uint64Error(0, lit));
    await fails('debug_printBlock', lit, uint64Error(0, lit));
    await fails('debug_verbosity', lit, uint64Error(0, lit, 'int'));
  }
  await fails('debug_storageRangeAt', `"latest", 0.5, "${ADDR0}", "0x", 1`, uint64Error(1, '0.5', 'int'));
  await fails('personal_unlockAccount', `"${ADDR0}", "pw", 300.0`, uint64Error(2, '300.0'));
  await fails('admin_exportChain', '"never-written.rlp", 1.0', uint64Error(1, '1.0'));
});

test('an exponent is refused for an integer, 1e400 included (JSON.parse made it Infinity)', async () => {
  for (const lit of ['1e2', '1E2', '1e+2', '10e-1', '1e400', '-1e400']) {
    await fails('eth_getActiveRulesAt', lit, uint64Error(0, lit));
    await fails('eth_getActivePrecompilesAt', lit, uint64Error(0, lit));
    await fails('debug_setMutexProfileFraction', lit, uint64Error(0, lit, 'int'));
  }
  await fails('admin_exportChain', '"never-written.rlp", 0, 1e1', uint64Error(2, '1e1'));
  await fails('debug_accountRange', '"latest", "0x", 1e3, true, true, true', uint64Error(2, '1e3', 'int'));
  await fails('debug_cpuProfile', '"never-written.prof", 1e0', uint64Error(1, '1e0', 'uint'));
});

test('a sign is refused for an unsigned integer, -0 included; -0 is a Go int 0', async () => {
  await fails('eth_getActiveRulesAt', '-0', uint64Error(0, '-0'));
  await fails('eth_getActiveRulesAt', '-1', uint64Error(0, '-1'));
  await fails('debug_printBlock', '-0', uint64Error(0, '-0'));
  await fails('debug_cpuProfile', '"never-written.prof", -0', uint64Error(1, '-0', 'uint'));
  assert.equal(await ok('debug_verbosity', '-0'), null);
  assert.equal(await ok('debug_verbosity', '3'), null);
});

test("Go's int is int64: its whole range is accepted, one past either end refused", async () => {
  assert.equal(await ok('debug_setMutexProfileFraction', '-9223372036854775808'), null);
  assert.equal(await ok('debug_setMutexProfileFraction', '-1'), null);
  await fails('debug_setMutexProfileFraction', '9223372036854775808', uint64Error(0, '9223372036854775808', 'int'));
  await fails('debug_setMutexProfileFraction', '-9223372036854775809', uint64Error(0, '-9223372036854775809', 'int'));
  const max = (await ok('debug_accountRange', '"latest", "0x", 9223372036854775807, true, true, true')) as { accounts: object };
  const dflt = (await ok('debug_accountRange', '"latest", "0x", 0, true, true, true')) as { accounts: object };
  assert.deepEqual(max, dflt);
});

test('eth_feeHistory blockCount is math.HexOrDecimal64: a bare number is read as its decimal text', async () => {
  const capped = await ok('eth_feeHistory', '18446744073709551615, "latest", []');
  assert.deepEqual(capped, await ok('eth_feeHistory', '"0xffffffffffffffff", "latest", []'));
  assert.deepEqual(capped, await ok('eth_feeHistory', '1, "latest", []'));
  for (const lit of ['1e2', '1.0', '-1', '-0', '18446744073709551616', '1e400']) {
    await fails('eth_feeHistory', `${lit}, "latest", []`, `invalid argument 0: invalid hex or decimal integer "${lit}"`);
  }
  await fails('eth_feeHistory', '"x", "latest", []', 'invalid argument 0: invalid hex or decimal integer "x"');
  await fails('eth_feeHistory', '"0x", "latest", []', 'invalid argument 0: invalid hex or decimal integer "0x"');
  await fails('eth_feeHistory', 'null, "latest", []', 'invalid argument 0: invalid hex or decimal integer "null"');
  // math.ParseUint64: "" is zero (no blocks), and leading zeros are fine
  assert.deepEqual(await ok('eth_feeHistory', '"", "latest", []'), { oldestBlock: '0x0', gasUsedRatio: null });
  assert.deepEqual(await ok('eth_feeHistory', '"0x0001", "latest", []'), capped);
  assert.deepEqual(await ok('eth_feeHistory', '"001", "latest", []'), capped);
});

test('ordinary numbers decode as before', async () => {
  const head = await ok('eth_getActiveRulesAt', '');
  assert.equal(typeof head, 'object');
  await ok('eth_getActiveRulesAt', '0');
  await ok('eth_getActiveRulesAt', '1700000000');
  await ok('eth_getActivePrecompilesAt', '1700000000');
  assert.equal(typeof (await ok('debug_printBlock', '0')), 'string');
  await fails('debug_printBlock', '123456789012345', 'block #123456789012345 not found', -32000);
  assert.equal(await ok('debug_verbosity', '3'), null);
});

test('null decodes as before', async () => {
  assert.deepEqual(await ok('eth_getActiveRulesAt', 'null'), await ok('eth_getActiveRulesAt', ''));
  assert.deepEqual(await ok('eth_getActivePrecompilesAt', 'null'), await ok('eth_getActivePrecompilesAt', ''));
  assert.deepEqual(await ok('debug_printBlock', 'null'), await ok('debug_printBlock', '0'));
  assert.equal(await ok('debug_verbosity', 'null'), null);
  assert.equal(await ok('debug_verbosity', '3'), null);
});

test('a kept literal where another type is expected gets the same error as any number', async () => {
  for (const lit of ['1.0', '1e400', '18446744073709551616', '9007199254740993', '-0']) {
    const same = async (method: string, params: (n: string) => string) => {
      const plain = await call(method, params('1'));
      assert.ok(plain.error, `${method}: expected an error`);
      assert.deepEqual(await call(method, params(lit)), plain, `${method} with ${lit}`);
    };
    await same('eth_getBalance', (n) => `${n}, "latest"`);
    await same('eth_getBalance', (n) => `"${ADDR0}", ${n}`);
    await same('eth_getBlockByNumber', (n) => `${n}, false`);
    await same('eth_getBlockByNumber', (n) => `"latest", ${n}`);
    await same('eth_call', (n) => `${n}, "latest"`);
    await same('debug_vmodule', (n) => n);
    await same('eth_getActiveRulesAt', (n) => `[${n}]`);
    await same('eth_getActiveRulesAt', (n) => `"${n}"`);
  }
  await fails('debug_vmodule', '1.0', 'invalid argument 0: json: cannot unmarshal number into Go value of type string');
  await fails('eth_getActiveRulesAt', '"1"', 'invalid argument 0: json: cannot unmarshal string into Go value of type uint64');
});

test('numbers inside objects and arrays are not top-level params: decoded as before', async () => {
  // eth_feeHistory's percentiles are float64s: 1.0 and 1e1 are fine there
  await ok('eth_feeHistory', '1, "latest", [1.0, 1e1, 50]');
  assert.deepEqual(await call('eth_getActiveRulesAt', '[1.0]'), await call('eth_getActiveRulesAt', '[1]'));
});

test("eth_feeHistory's percentiles are float64s: a literal past float64's range is refused as sent (JSON.parse made it Infinity)", async () => {
  const floatError = (literal: string) => `invalid argument 2: json: cannot unmarshal ${literal} into Go value of type float64`;
  await fails('eth_feeHistory', '1, "latest", [1e400]', floatError('number 1e400'));
  await fails('eth_feeHistory', '1, "latest", [10, -1E+400]', floatError('number -1E+400'));
  // The first bad element is reported, as Go's decoder keeps its first error.
  await fails('eth_feeHistory', '1, "latest", [10, "x", 1e400]', floatError('string'));
  await fails('eth_feeHistory', '1, "latest", [10, 1e400, "x"]', floatError('number 1e400'));
  // In range, however spelled: Go's own check of the values follows.
  await ok('eth_feeHistory', '1, "latest", [1e-400, 5e1, 100.0]');
  await fails('eth_feeHistory', '1, "latest", [1e3]', 'invalid reward percentile: 1000.000000', -32000);
});

test('a numeric id past 2^53 is still echoed as sent beside a kept param', async () => {
  const text = await post('{"jsonrpc":"2.0","id":18446744073709551617,"method":"eth_getActiveRulesAt","params":[1.0]}');
  assert.equal(text, `{"jsonrpc":"2.0","id":18446744073709551617,"error":{"code":-32602,"message":"${uint64Error(0, '1.0')}"}}\n`);
  const batch = await post('[{"jsonrpc":"2.0","id":1e400,"method":"debug_printBlock","params":[9007199254740993]}]');
  assert.equal(batch, '[{"jsonrpc":"2.0","id":1e400,"error":{"code":-32000,"message":"block #9007199254740993 not found"}}]\n');
});

test('the params member the envelope takes is the one whose texts are kept', async () => {
  // Case-insensitive keys, whitespace and a params member before other members.
  const body = '{ "PARAMS" : [ 1e2 ] , "jsonrpc":"2.0", "method":"debug_printBlock", "id":7 }';
  assert.equal(JSON.parse(await post(body)).error.message, uint64Error(0, '1e2'));
  const spaced = '{"jsonrpc":"2.0","id":8,"method":"eth_getActiveRulesAt","params":[\n\t18446744073709551615 \n]}';
  assert.equal(JSON.parse(await post(spaced)).error, undefined);
  // A string holding a number-like text and brackets is skipped as a string.
  const tricky = '{"jsonrpc":"2.0","id":9,"x":"[1.0, \\"]","method":"debug_printBlock","params":[18446744073709551615]}';
  assert.equal(JSON.parse(await post(tricky)).error.message, 'block #18446744073709551615 not found');
});

test('large bodies with number params decode in linear time', async () => {
  // 1000 calls (the batch limit) of ~2 KB each, every one with a kept literal: a rescan of the body
  // per call would read ~2 GB.
  const pad = Array.from({ length: 300 }, (_, i) => String(i + 1)).join(',');
  const calls = Array.from({ length: 1000 }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"debug_printBlock","params":[${pad},1.0]}`);
  let t = Date.now();
  const answers = JSON.parse(await post('[' + calls.join(',') + ']')) as { error: { message: string } }[];
  assert.equal(answers.length, 1000);
  assert.equal(answers[999].error.message, 'too many arguments, want at most 1');
  assert.ok(Date.now() - t < 5000, `batch took ${Date.now() - t} ms`);
  // A 1 MB params array of kept literals, and a nested 1 MB array (not scanned at all).
  const many = Array.from({ length: 250_000 }, () => '1.0').join(',');
  t = Date.now();
  const one = JSON.parse(await post(request(1, 'debug_getModifiedAccountsByNumber', many)));
  assert.equal(one.error.message, 'too many arguments, want at most 2');
  const nested = JSON.parse(await post(request(1, 'eth_getActiveRulesAt', `[${many}]`)));
  assert.equal(nested.error.message, 'invalid argument 0: json: cannot unmarshal array into Go value of type uint64');
  assert.ok(Date.now() - t < 5000, `1 MB params took ${Date.now() - t} ms`);
});
