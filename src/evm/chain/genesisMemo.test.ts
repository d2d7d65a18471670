// genesisMemo.ts: a chain whose genesis state has the same inputs as the last one this process
// computed takes its nodes from there, and gets exactly the state it would have computed; any input
// that changes the nodes (here: no preimages beside them; each input of the key) computes it again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { devNode, devNodeWithConfig, rpcError, DEV_ADDRS, type Rpc } from './testkit.js';
import { genesisStateKey, genesisStateRecalls, recallGenesisState, rememberGenesisState } from './genesisMemo.js';
import { keccak256, type Hex } from 'viem';

const DEPLOYER = '0x4e59b44847b379578588920ca78fbf26c0b4956c';

async function genesisView(rpc: Rpc) {
  const block = await rpc('eth_getBlockByNumber', ['0x0', false]);
  return {
    stateRoot: block.stateRoot as string,
    balances: await Promise.all(DEV_ADDRS.slice(0, 3).map((a) => rpc('eth_getBalance', [a, '0x0']))),
    deployer: await rpc('eth_getCode', [DEPLOYER, '0x0']),
  };
}

test('a second chain with the same genesis inputs takes the state from the first: the same root, balances and code', async () => {
  const first = await devNode({ 'db-type': 'memdb' });
  let a;
  try {
    a = await genesisView(first.rpc);
  } finally {
    await first.node.stop();
  }
  const before = genesisStateRecalls();
  const second = await devNode({ 'db-type': 'memdb' });
  try {
    assert.equal(genesisStateRecalls(), before + 1, 'the second chain recalled the state');
    assert.deepEqual(await genesisView(second.rpc), a);
    // A dev chain records preimages: the recalled nodes carry the genesis accounts' too.
    assert.equal(((await second.rpc('debug_preimage', [keccak256(DEV_ADDRS[0] as Hex)])) as string).toLowerCase(), DEV_ADDRS[0]!.toLowerCase());
    // A block on top of the recalled state: the state is really in the database, not only its root.
    const to = '0x00000000000000000000000000000000000000aa';
    const sent = await second.rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to, value: '0x1' }]);
    const receipt = await second.rpc('eth_getTransactionReceipt', [sent]);
    assert.equal(receipt.status, '0x1');
    assert.equal(await second.rpc('eth_getBalance', [to, 'latest']), '0x1');
  } finally {
    await second.node.stop();
  }
});

test('a chain without preimages, or inputs that change the state, make another key', async () => {
  const plain = await devNode({ 'db-type': 'memdb' });
  let root: string;
  try {
    root = (await genesisView(plain.rpc)).stateRoot;
  } finally {
    await plain.node.stop();
  }
  const before = genesisStateRecalls();
  const without = await devNodeWithConfig({ 'preimages-enabled': false }, { 'db-type': 'memdb' });
  try {
    assert.equal(genesisStateRecalls(), before, 'not recalled: the dev chain\'s nodes carry preimages, these must not');
    assert.equal((await genesisView(without.rpc)).stateRoot, root, 'preimages do not change the root');
    assert.equal((await rpcError(without.rpc('debug_preimage', [keccak256(DEV_ADDRS[0] as Hex)]))).message, 'unknown preimage');
  } finally {
    await without.node.stop();
  }

  const base = { genesis: new Uint8Array([1]), networkID: 12345, upgrade: undefined, airdrop: [], activations: [], recordPreimages: false };
  const keys = new Set([
    genesisStateKey(base),
    genesisStateKey({ ...base, genesis: new Uint8Array([2]) }),
    genesisStateKey({ ...base, networkID: 1 }),
    genesisStateKey({ ...base, upgrade: new Uint8Array([0x7b, 0x7d]) }),
    genesisStateKey({ ...base, airdrop: ['0x00000000000000000000000000000000000000aa'] }),
    genesisStateKey({ ...base, activations: [{ key: 'txAllowListConfig', config: { blockTimestamp: 0n, adminAddresses: [DEV_ADDRS[0]] } }] }),
    genesisStateKey({ ...base, recordPreimages: true }),
  ]);
  assert.equal(keys.size, 7, 'every input changes the key');

  // A large genesis state is not kept for the life of the process (nor a smaller one before it).
  const node = (n: number): [Uint8Array, Uint8Array] => [new Uint8Array(33).fill(n % 256), new Uint8Array(1024)];
  rememberGenesisState('small', [node(1)], new Uint8Array(32));
  assert.ok(recallGenesisState('small'));
  rememberGenesisState('large', Array.from({ length: 1100 }, (_, i) => node(i)), new Uint8Array(32));
  assert.equal(recallGenesisState('large'), undefined);
  assert.equal(recallGenesisState('small'), undefined);
  assert.equal(genesisStateKey({ ...base }), genesisStateKey(base), 'the same inputs, the same key');
});
