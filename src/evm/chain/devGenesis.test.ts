// The default dev chain's genesis as a test suite meets it: its block is "now" (the time the chain's
// database was made, kept across restarts), its chain ID does not depend on that time, and the
// CREATE2 deployer Foundry scripts use is in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getContractAddress, type Hex } from 'viem';
import { devNode, DEV_ADDRS, LOOP_CREATION } from './testkit.js';

const DEPLOYER = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
const DEPLOYER_CODE = '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';

async function chainID(url: string): Promise<string> {
  const r = await fetch(`${url}/ext/info`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":{"alias":"dev"}}' });
  return ((await r.json()) as { result: { blockchainID: string } }).result.blockchainID;
}

test('the dev genesis block is at the time its database was made, and keeps it across restarts; the chain ID does not move', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-devgenesis-'));
  try {
    const before = Math.floor(Date.now() / 1000);
    let { node, rpc } = await devNode({ 'data-dir': dataDir });
    const genesis = await rpc('eth_getBlockByNumber', ['0x0', false]);
    const t = Number(BigInt(genesis.timestamp));
    assert.ok(t >= before && t <= Math.floor(Date.now() / 1000), `genesis at ${t}, the test began at ${before}`);
    assert.equal(genesis.timestampMilliseconds, '0x' + (BigInt(t) * 1000n).toString(16), 'Granite is active at genesis');
    // The latest block before any transaction is now: a test's "latest + 1 year" lies in the future.
    assert.equal((await rpc('eth_getBlockByNumber', ['latest', false])).hash, genesis.hash);
    const id = await chainID(node.url);
    await node.stop();

    await new Promise((r) => setTimeout(r, 1100)); // a second later, the same genesis is read back
    ({ node, rpc } = await devNode({ 'data-dir': dataDir }));
    try {
      assert.deepEqual(await rpc('eth_getBlockByNumber', ['0x0', false]), genesis);
      assert.equal(await chainID(node.url), id);
    } finally {
      await node.stop();
    }

    // A chain in memory is made at every start: a new genesis time, the same chain ID.
    const mem = await devNode({ 'db-type': 'memdb' });
    try {
      assert.equal(await chainID(mem.node.url), id);
      assert.ok(BigInt((await mem.rpc('eth_getBlockByNumber', ['0x0', false])).timestamp) > BigInt(t));
    } finally {
      await mem.node.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the CREATE2 deployer is at genesis, as on Anvil: salt ‖ init code deploys at the CREATE2 address', async () => {
  const { node, rpc } = await devNode({ 'db-type': 'memdb' });
  try {
    assert.equal(await rpc('eth_getCode', [DEPLOYER, '0x0']), DEPLOYER_CODE);
    assert.equal(await rpc('eth_getTransactionCount', [DEPLOYER, '0x0']), '0x0');
    const salt = ('0x' + '11'.repeat(32)) as Hex;
    const want = getContractAddress({ opcode: 'CREATE2', from: DEPLOYER, salt, bytecode: LOOP_CREATION as Hex });
    // The deployer returns the new contract's address (20 bytes).
    assert.equal(await rpc('eth_call', [{ from: DEV_ADDRS[0], to: DEPLOYER, data: salt + LOOP_CREATION.slice(2) }, 'latest']), want.toLowerCase());
    const hash = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEPLOYER, data: salt + LOOP_CREATION.slice(2), gas: '0x100000' }]);
    assert.equal((await rpc('eth_getTransactionReceipt', [hash])).status, '0x1');
    assert.notEqual(await rpc('eth_getCode', [want, 'latest']), '0x');
  } finally {
    await node.stop();
  }
});
