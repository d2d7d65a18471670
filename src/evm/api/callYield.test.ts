// A long call or trace gives the event loop turns (callYield.ts): while one runs, the node answers
// other requests — reads, short calls, transactions, which are mined — and the long run's own
// answer is what it was. A request sent 50 ms into a loop of 50,000,000 gas (~1 s here) must be
// answered before the loop; without the turns it waited for the loop's end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEV_ADDRS, devNodeWithConfig, deployFromDev, LOOP_CREATION } from '../chain/testkit.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('while a long eth_call runs, the node answers reads, short calls and transactions; the long call answers as before', async () => {
  const { node, rpc } = await devNodeWithConfig({});
  try {
    const loop = await deployFromDev(rpc, LOOP_CREATION);
    const order: string[] = [];
    const track = <T>(name: string, p: Promise<T>) => p.then((v) => (order.push(name), v));
    const long = track('loop', rpc.raw('eth_call', [{ to: loop, gas: '0x' + (50_000_000).toString(16) }, 'latest']));
    await sleep(50);
    const chainId = await track('chainId', rpc('eth_chainId'));
    const balance = await track('balance', rpc('eth_getBalance', [DEV_ADDRS[1], 'latest']));
    const short = await track('short call', rpc.raw('eth_call', [{ to: loop, gas: '0x10000' }, 'latest']));
    const hash = await track('send', rpc('eth_sendTransaction', [{ from: DEV_ADDRS[2], to: '0x000000000000000000000000000000000000beef', value: '0x7' }]));
    const receipt = await track('receipt', rpc('eth_getTransactionReceipt', [hash]));
    const answer = await long;
    assert.deepEqual(order, ['chainId', 'balance', 'short call', 'send', 'receipt', 'loop']);
    assert.equal(chainId, '0xa8ca');
    assert.match(balance, /^0x[0-9a-f]+$/);
    assert.deepEqual(short.error, { code: -32000, message: 'out of gas' });
    assert.equal(receipt.status, '0x1', 'the transfer sent during the loop was mined');
    assert.deepEqual(answer.error, { code: -32000, message: 'out of gas' });
  } finally {
    await node.stop();
  }
});

test('long calls, estimates and traces side by side: each answers exactly as alone, on the state it started on', async () => {
  const { node, rpc } = await devNodeWithConfig({});
  try {
    const loop = await deployFromDev(rpc, LOOP_CREATION);
    const gas = '0x' + (20_000_000).toString(16);
    const alone = {
      call: await rpc.raw('eth_call', [{ to: loop, gas }, 'latest']),
      trace: await rpc.raw('debug_traceCall', [{ to: loop, gas: '0x30000' }, 'latest', { tracer: 'callTracer' }]),
      estimate: await rpc.raw('eth_estimateGas', [{ from: DEV_ADDRS[1], to: loop }]),
    };
    const head = await rpc('eth_blockNumber');
    const together = await Promise.all([
      rpc.raw('eth_call', [{ to: loop, gas }, head]),
      rpc.raw('eth_call', [{ to: loop, gas }, head]),
      rpc.raw('debug_traceCall', [{ to: loop, gas: '0x30000' }, head, { tracer: 'callTracer' }]),
      rpc.raw('eth_estimateGas', [{ from: DEV_ADDRS[1], to: loop }, head]),
      // Blocks mined meanwhile do not change what the runs above see.
      rpc('eth_sendTransaction', [{ from: DEV_ADDRS[2], to: loop, value: '0x1', gas: '0x30000' }]),
    ]);
    assert.deepEqual(together[0].error, alone.call.error);
    assert.deepEqual(together[1].error, alone.call.error);
    assert.deepEqual(together[2].result, alone.trace.result);
    assert.deepEqual(together[3].error, alone.estimate.error);
    assert.deepEqual(alone.call.error, { code: -32000, message: 'out of gas' });
    assert.equal(alone.trace.result.error, 'out of gas');
    assert.match(alone.estimate.error.message, /^gas required exceeds allowance \(\d+\)$/);
    assert.ok(Number(await rpc('eth_blockNumber')) > Number(head));
  } finally {
    await node.stop();
  }
});

test('a trace of a long mined transaction gives the node turns too', async () => {
  const { node, rpc } = await devNodeWithConfig({});
  try {
    const loop = await deployFromDev(rpc, LOOP_CREATION);
    const hash = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[1], to: loop, gas: '0x' + (25_000_000).toString(16) }]);
    assert.equal((await rpc('eth_getTransactionReceipt', [hash])).status, '0x0');
    const order: string[] = [];
    const trace = rpc.raw('debug_traceTransaction', [hash, { tracer: 'callTracer', timeout: '60s' }]).then((r) => (order.push('trace'), r));
    await sleep(50);
    assert.equal(await rpc('eth_chainId'), '0xa8ca');
    order.push('chainId');
    const r = await trace;
    assert.deepEqual(order, ['chainId', 'trace']);
    assert.equal(r.result?.error, 'out of gas', JSON.stringify(r).slice(0, 300));
    assert.equal(r.result.gasUsed, '0x' + (25_000_000).toString(16));
  } finally {
    await node.stop();
  }
});
