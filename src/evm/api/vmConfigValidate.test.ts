// The chain's config.json is validated as Subnet-EVM's Config.Validate does (reference §9.4): the
// first failing rule, in its order and words, stops the chain; valid combinations start it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { devNodeWithConfig } from '../chain/testkit.js';

test('config.json validation errors stop the chain, first failing rule first', async () => {
  for (const [config, message] of [
    [{ 'populate-missing-tries': 5 }, 'cannot enable populate missing tries while offline pruning (enabled: false)/pruning (enabled: true) are enabled'],
    [{ 'populate-missing-tries': 5, 'pruning-enabled': false, 'populate-missing-tries-parallelism': 0 }, 'cannot enable populate missing tries without at least one reader (parallelism: 0)'],
    [{ 'pruning-enabled': false, 'offline-pruning-enabled': true }, 'cannot run offline pruning while pruning is disabled'],
    [{ 'commit-interval': 0, 'state-history': 0 }, 'cannot use commit interval of 0 with pruning enabled'],
    [{ 'state-history': 0 }, 'cannot use state history of 0 with pruning enabled'],
    [{ 'push-gossip-percent-stake': 1.5 }, 'push-gossip-percent-stake is 1.500000 but must be in the range [0, 1]'],
    [{ 'push-gossip-percent-stake': -0.25 }, 'push-gossip-percent-stake is -0.250000 but must be in the range [0, 1]'],
    [{ 'state-scheme': 'path' }, 'path state scheme is not supported'],
    [{ 'commit-interval': '10' }, 'json: cannot unmarshal string into Go struct field Config.commit-interval of type uint64'],
  ] as const) {
    await assert.rejects(devNodeWithConfig(config), (e: Error) => {
      assert.ok(e.message.includes(message), `${JSON.stringify(config)}: ${e.message}`);
      return true;
    });
  }
});

test('valid pruning combinations start the chain', async () => {
  for (const config of [
    { 'pruning-enabled': false, 'commit-interval': 0, 'state-history': 0 },
    { 'pruning-enabled': false, 'populate-missing-tries': 0 },
    { 'push-gossip-percent-stake': 0, 'state-scheme': 'hash' },
  ]) {
    const { node, rpc } = await devNodeWithConfig(config);
    try {
      assert.match(await rpc('eth_blockNumber'), /^0x/);
    } finally {
      await node.stop();
    }
  }
});

test('rpc-gas-cap 0 is no cap: eth_call without gas runs with geth\'s MaxUint64 / 2', async () => {
  const { node, rpc } = await devNodeWithConfig({ 'rpc-gas-cap': 0 });
  try {
    // GAS (0x5a) as the first opcode of the code at `to`, through a state override: gas left = supplied − intrinsic − 2.
    const code = '0x5a60005260206000f3'; // GAS PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
    const to = '0x00000000000000000000000000000000000c0de0';
    const out = await rpc('eth_call', [{ to }, 'latest', { [to]: { code } }]);
    assert.equal(BigInt(out), 2n ** 63n - 1n - 21000n - 2n);
    const e = await rpc.raw('eth_call', [{ to, data: '0x5a' }, 'latest']);
    assert.equal(e.error, undefined, JSON.stringify(e.error));
  } finally {
    await node.stop();
  }
});
