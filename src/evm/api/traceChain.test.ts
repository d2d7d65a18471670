// debug_subscribe ["traceChain", start, end, config?] over /ws (geth's TraceChain, debug-tracer):
// one `debug_subscription` notification per block after `start` with transactions (and `end`
// always), each {block, hash, traces} with the traces debug_traceBlockByNumber gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDevNode, devNodeWithConfig, DEV_ADDRS } from '../chain/testkit.js';
import { wsClient } from '../../../test/wsClient.js';

const { rpc, node } = useDevNode();
const wsURL = (url: string) => url.replace('http', 'ws') + '/ext/bc/dev/ws';
const hex = (n: bigint) => '0x' + n.toString(16);

test('traceChain streams the traced blocks in order; empty blocks only as the end', async () => {
  const start = BigInt(await rpc('eth_blockNumber'));
  const h1 = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], value: '0x1' }]);
  await rpc('evm_mine', []); // an empty block between
  const h2 = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[1], to: DEV_ADDRS[0], value: '0x2' }]);
  await rpc('evm_mine', []); // an empty end block
  const end = BigInt(await rpc('eth_blockNumber'));
  const c = await wsClient(wsURL(node().url));
  try {
    const sub = await c.request('debug_subscribe', ['traceChain', hex(start), hex(end), { tracer: 'callTracer' }]);
    assert.match(sub.result, /^0x[0-9a-f]+$/);
    const notes = [];
    for (let i = 0; i < 3; i++) notes.push(await c.next((m) => m.method === 'debug_subscription' && m.params.subscription === sub.result));
    const results = notes.map((n) => n.params.result);
    assert.deepEqual(results.map((r) => r.block), [hex(start + 1n), hex(start + 3n), hex(end)]);
    for (const r of results) assert.deepEqual(Object.keys(r), ['block', 'hash', 'traces']);
    assert.equal(results[0].hash, (await rpc('eth_getBlockByNumber', [hex(start + 1n), false])).hash);
    assert.deepEqual(results[0].traces, await rpc('debug_traceBlockByNumber', [hex(start + 1n), { tracer: 'callTracer' }]));
    assert.equal(results[0].traces[0].txHash, h1);
    assert.equal(results[1].traces[0].txHash, h2);
    assert.deepEqual(results[2].traces, []);
    assert.equal((await c.request('debug_unsubscribe', [sub.result])).result, true);
  } finally {
    c.close();
  }
});

test('traceChain errors: the range, unknown blocks, arguments; a bad tracer fails each block\'s first tx', async () => {
  const head = BigInt(await rpc('eth_blockNumber'));
  const c = await wsClient(wsURL(node().url));
  try {
    const err = async (params: unknown[]) => (await c.request('debug_subscribe', params)).error;
    assert.deepEqual(await err(['traceChain', hex(head), hex(head)]), { code: -32000, message: `end block (#${head}) needs to come after start block (#${head})` });
    assert.deepEqual(await err(['traceChain', 'latest', '0x0']), { code: -32000, message: 'end block (#0) needs to come after start block (#-2)' });
    assert.deepEqual(await err(['traceChain', '0x0', hex(head + 5n)]), { code: -32000, message: 'cannot query unfinalized data' });
    assert.deepEqual(await err(['traceChain', '0x0']), { code: -32602, message: 'missing value for required argument 2' });
    assert.deepEqual(await err(['traceChain', '0x0', 'latest', 5]), { code: -32602, message: 'invalid argument 3: json: cannot unmarshal number into Go value of type tracers.TraceConfig' });
    assert.deepEqual(await err(['traceChain', '0x0', 'latest', null, 1]), { code: -32602, message: 'too many arguments, want at most 4' });
    assert.deepEqual(await err(['traceChain', 'x', 'latest']), { code: -32602, message: 'invalid argument 1: hex string without 0x prefix' });
    assert.deepEqual(await err(['nope']), { code: -32601, message: 'no "nope" subscription in debug namespace' });
    // A tracer geth cannot make: the tx's entry is the error, the block's later txs null.
    await rpc('evm_setAutomine', [false]);
    let n0 = BigInt(await rpc('eth_getTransactionCount', [DEV_ADDRS[0], 'latest']));
    const a = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], nonce: hex(n0++) }]);
    await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], nonce: hex(n0++) }]);
    await rpc('evm_mine', []);
    await rpc('evm_setAutomine', [true]);
    const sub = (await c.request('debug_subscribe', ['traceChain', hex(head), 'latest', { tracer: 'nopeTracer' }])).result;
    const note = await c.next((m) => m.method === 'debug_subscription' && m.params.subscription === sub);
    const traces = note.params.result.traces;
    assert.equal(traces.length, 2);
    assert.equal(traces[0].txHash, a);
    assert.equal(typeof traces[0].error, 'string');
    assert.equal(traces[1], null);
    // JavaScript tracers: one that is not JavaScript fails as a tracer geth cannot make; one whose
    // result throws fails its tx (the block's later txs null); a good one traces every tx.
    const traced = async (tracer: string) => {
      const id = (await c.request('debug_subscribe', ['traceChain', hex(head), 'latest', { tracer }])).result;
      return (await c.next((m) => m.method === 'debug_subscription' && m.params.subscription === id)).params.result.traces;
    };
    const syntax = await traced('{result: function() {');
    assert.match(syntax[0].error, /^SyntaxError: /);
    assert.equal(syntax[1], null);
    assert.deepEqual(await traced('{fault: function() {}, result: function() { throw new Error("no") }}'), [
      { txHash: a, error: "Error: no    in server-side tracer function 'result'" },
      null,
    ]);
    const counted = await traced('opcountTracer');
    assert.deepEqual(counted.map((t: { result: unknown }) => t.result), [0, 0], 'plain transfers run no opcode');
  } finally {
    c.close();
  }
});

test('over HTTP debug_subscribe is `notifications not supported`; without debug-tracer traceChain does not exist', async () => {
  assert.deepEqual((await rpc.raw('debug_subscribe', ['traceChain', '0x0', 'latest'])).error, { code: -32601, message: 'notifications not supported' });
  const { node: plain } = await devNodeWithConfig({ 'eth-apis': ['eth', 'eth-filter', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction'] });
  const c = await wsClient(wsURL(plain.url));
  try {
    assert.deepEqual((await c.request('debug_subscribe', ['traceChain', '0x0', 'latest'])).error, { code: -32601, message: 'no "traceChain" subscription in debug namespace' });
    assert.match((await c.request('eth_subscribe', ['newHeads'])).result, /^0x/);
  } finally {
    c.close();
    await plain.stop();
  }
});

test('without eth-filter in eth-apis, eth_subscribe has no kinds (as the filter API is not served)', async () => {
  const { node: plain } = await devNodeWithConfig({ 'eth-apis': ['eth', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction'] });
  const c = await wsClient(wsURL(plain.url));
  try {
    assert.deepEqual((await c.request('eth_subscribe', ['newHeads'])).error, { code: -32601, message: 'no "newHeads" subscription in eth namespace' });
  } finally {
    c.close();
    await plain.stop();
  }
});
