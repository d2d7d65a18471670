// api-max-duration from the chain's config.json: an eth_call still running after that long is
// aborted with geth's `execution aborted (timeout = …)`, never remembered by the call cache, and the
// node goes on answering; without it (the default) the same loop runs until its gas is gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { devNodeWithConfig, deployFromDev, LOOP_CREATION, rpcError, type Rpc } from '../chain/testkit.js';

async function spin(rpc: Rpc, to: string, gas: bigint) {
  return rpc('eth_call', [{ to, gas: '0x' + gas.toString(16) }, 'latest']);
}

test('api-max-duration aborts a long eth_call with geth\'s text; the node keeps serving', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'api-max-duration': '200ms' });
  try {
    const loop = await deployFromDev(rpc, LOOP_CREATION);
    assert.equal(await rpc('eth_getCode', [loop, 'latest']), '0x5b600056');
    for (let i = 0; i < 2; i++) {
      const t0 = Date.now();
      const e = await rpcError(spin(rpc, loop, 50_000_000n));
      const took = Date.now() - t0;
      assert.deepEqual([e.code, e.message], [-32000, 'execution aborted (timeout = 200ms)'], `attempt ${i}`);
      assert.ok(took >= 200, `aborted only after the limit (${took} ms)`);
      // A second attempt runs (and is aborted) again: a timeout is not a result to remember.
    }
    // A short call under the limit still answers, and so does the rest of the chain.
    const out = await rpcError(spin(rpc, loop, 30_000n));
    assert.equal(out.message, 'out of gas');
    assert.equal(await rpc('eth_chainId'), '0xa8ca');
  } finally {
    await node.stop();
  }
});

test('without api-max-duration a call runs until its gas is gone; a bad duration stops the chain', async () => {
  const { node, rpc } = await devNodeWithConfig({});
  try {
    const loop = await deployFromDev(rpc, LOOP_CREATION);
    assert.equal((await rpcError(spin(rpc, loop, 2_000_000n))).message, 'out of gas');
  } finally {
    await node.stop();
  }
  // spf13/cast adds "ns" to a duration without a unit letter.
  await assert.rejects(devNodeWithConfig({ 'api-max-duration': 'forever' }), /failed to unmarshal config .*time: invalid duration "foreverns"/);
});
