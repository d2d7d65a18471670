// Genesis state through a real node (reference subnet-evm.md §5.1): the airdrop file of the
// chain's config.json, checked against the genesis airdropHash, funds its addresses before the
// precompile activations and the alloc; an alloc entry at an active precompile's address replaces
// its code and nonce; and a restart on the same data dir sees the same genesis.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFunctionData, parseAbi } from 'viem';
import { startTestNode } from '../../../test/helpers.js';
import { rpcClient } from '../chain/testkit.js';
import { keccak256 } from '../crypto.js';
import * as addresses from '../precompiles/addresses.js';

const tmp = mkdtempSync(join(tmpdir(), 'powder-genesis-state-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const ADMIN = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';
const A1 = '0x00000000000000000000000000000000000a1001';
const A2 = '0x00000000000000000000000000000000000a1002';
const A3 = '0x00000000000000000000000000000000000a1003';
const { TX_ALLOW_LIST_ADDRESS: TX_ALLOW_LIST, FEE_MANAGER_ADDRESS: FEE_MANAGER, NATIVE_MINTER_ADDRESS: NATIVE_MINTER } = addresses;
const AMOUNT = 0x1234_5678_9abc_def0_1234_5678n;
const KECCAK_EMPTY = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';
const hexOf = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

function genesis(extra: Record<string, unknown> = {}, configExtra: Record<string, unknown> = {}, alloc: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    config: {
      chainId: 99931,
      feeConfig: { gasLimit: 8000000, targetBlockRate: 2, minBaseFee: 25000000000, targetGas: 15000000, baseFeeChangeDenominator: 36, minBlockGasCost: 0, maxBlockGasCost: 1000000, blockGasCostStep: 200000 },
      initialMinDelayMS: 1,
      ...configExtra,
    },
    alloc: { [ADMIN.slice(2)]: { balance: '0xd3c21bcecceda1000000' }, ...alloc },
    timestamp: '0x5FCB13D0',
    gasLimit: '0x7a1200',
    difficulty: '0x0',
    ...extra,
  };
}

/** A chain-config dir whose chain `gs` has `config` as its config.json. */
function configDir(config: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmp, 'cfg-'));
  mkdirSync(join(dir, 'gs'), { recursive: true });
  writeFileSync(join(dir, 'gs', 'config.json'), JSON.stringify(config));
  return dir;
}

function start(g: Record<string, unknown>, config: Record<string, unknown> = {}, dataDir?: string) {
  return startTestNode({ 'chain-config-dir': configDir(config), ...(dataDir ? { 'data-dir': dataDir } : {}), chains: [{ name: 'gs', aliases: ['gs'], genesis: g }] });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
async function refuses(g: Record<string, unknown>, config: Record<string, unknown>, text: string): Promise<void> {
  await assert.rejects(start(g, config), (e: Error) => {
    assert.match(e.message, new RegExp(escape(text) + '$'));
    return true;
  });
}

test('airdrop: a file matching airdropHash gives each address airdropAmount; alloc overrides it; a restart sees the same genesis', async () => {
  const file = join(tmp, 'airdrop.json');
  const data = Buffer.from(JSON.stringify([{ address: A1 }, { Address: A2.toUpperCase().replace('0X', '0x') }, { address: A3 }, { address: TX_ALLOW_LIST }]));
  writeFileSync(file, data);
  const g = genesis(
    { airdropHash: hexOf(keccak256(data)), airdropAmount: '0x' + AMOUNT.toString(16) },
    { txAllowListConfig: { blockTimestamp: 1607144400, adminAddresses: [ADMIN] } },
    { [A3]: { balance: '0x7' } },
  );
  const dataDir = mkdtempSync(join(tmp, 'data-'));
  let node = await start(g, { airdrop: file }, dataDir);
  let first: { hash: string; stateRoot: string };
  try {
    const rpc = rpcClient(node.url + '/ext/bc/gs/rpc');
    assert.equal(BigInt(await rpc('eth_getBalance', [A1, 'latest'])), AMOUNT);
    assert.equal(BigInt(await rpc('eth_getBalance', [A2, 'latest'])), AMOUNT);
    // alloc comes last: its balance replaces the airdrop's.
    assert.equal(await rpc('eth_getBalance', [A3, 'latest']), '0x7');
    // An airdropped precompile address keeps the balance through its activation (nonce 1, code 0x01).
    assert.equal(BigInt(await rpc('eth_getBalance', [TX_ALLOW_LIST, 'latest'])), AMOUNT);
    assert.equal(await rpc('eth_getCode', [TX_ALLOW_LIST, 'latest']), '0x01');
    assert.equal(await rpc('eth_getTransactionCount', [TX_ALLOW_LIST, 'latest']), '0x1');
    first = await rpc('eth_getBlockByNumber', ['0x0', false]);
  } finally {
    await node.stop();
  }
  // Without the airdrop the state root differs (the airdrop is in it).
  const plain = await start(genesis({}, { txAllowListConfig: { blockTimestamp: 1607144400, adminAddresses: [ADMIN] } }, { [A3]: { balance: '0x7' } }));
  try {
    const b = await rpcClient(plain.url + '/ext/bc/gs/rpc')('eth_getBlockByNumber', ['0x0', false]);
    assert.notEqual(b.stateRoot, first.stateRoot);
  } finally {
    await plain.stop();
  }
  node = await start(g, { airdrop: file }, dataDir);
  try {
    const rpc = rpcClient(node.url + '/ext/bc/gs/rpc');
    const again = await rpc('eth_getBlockByNumber', ['0x0', false]);
    assert.deepEqual([again.hash, again.stateRoot], [first.hash, first.stateRoot]);
    assert.equal(BigInt(await rpc('eth_getBalance', [A2, 'latest'])), AMOUNT);
  } finally {
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  // The file changed since: the restart fails as Subnet-EVM's (it rebuilds the genesis at every start).
  writeFileSync(file, '[]');
  const d2 = mkdtempSync(join(tmp, 'data-'));
  try {
    await assert.rejects(start(g, { airdrop: file }, d2), new RegExp(escape(`expected standard allocation ${g.airdropHash} but got ${hexOf(keccak256(Buffer.from('[]')))}`) + '$'));
  } finally {
    rmSync(d2, { recursive: true, force: true });
  }
});

test('airdrop: no airdropHash → the file is read but not applied', async () => {
  const file = join(tmp, 'unhashed.json');
  writeFileSync(file, JSON.stringify([{ address: A1 }]));
  const node = await start(genesis({ airdropAmount: '0x5' }), { airdrop: file });
  try {
    assert.equal(await rpcClient(node.url + '/ext/bc/gs/rpc')('eth_getBalance', [A1, 'latest']), '0x0');
  } finally {
    await node.stop();
  }
});

test('airdrop: a wrong hash, an unreadable file, a hash without a file each stop the chain with the real texts', async () => {
  const file = join(tmp, 'wrong.json');
  const data = Buffer.from(JSON.stringify([{ address: A1 }]));
  writeFileSync(file, data);
  const wrong = '0x' + '11'.repeat(32);
  await refuses(genesis({ airdropHash: wrong, airdropAmount: 1 }), { airdrop: file }, `expected standard allocation ${wrong} but got ${hexOf(keccak256(data))}`);
  const missing = join(tmp, 'nope', 'airdrop.json');
  await refuses(genesis(), { airdrop: missing }, `could not read airdrop file '${missing}': open ${missing}: no such file or directory`);
  await refuses(genesis(), { airdrop: tmp }, `could not read airdrop file '${tmp}': read ${tmp}: is a directory`);
  // No file configured: the data is empty.
  await refuses(genesis({ airdropHash: wrong }), {}, `expected standard allocation ${wrong} but got ${KECCAK_EMPTY}`);
  // keccak("") matches, but empty bytes are not JSON.
  await refuses(genesis({ airdropHash: KECCAK_EMPTY }), {}, 'unexpected end of JSON input');
  await refuses(genesis(), { airdrop: 7 }, 'json: cannot unmarshal number into Go struct field Config.airdrop of type string');
});

test('alloc at an active precompile address replaces its code and nonce; Configure storage stays; restart sees the same', async () => {
  const abi = parseAbi(['function readAllowList(address) view returns (uint256)']);
  const g = genesis(
    {},
    {
      txAllowListConfig: { blockTimestamp: 1607144400, adminAddresses: [ADMIN] },
      feeManagerConfig: { blockTimestamp: 1607144400, adminAddresses: [ADMIN] },
      contractNativeMinterConfig: { blockTimestamp: 1607144400, adminAddresses: [ADMIN] },
    },
    {
      [TX_ALLOW_LIST]: { balance: '0x9', nonce: '0x5' },
      [FEE_MANAGER]: { balance: '0x0', nonce: '0x7', code: '0x6001600155' },
      // A zero value deletes the slot Configure wrote (the admin's role).
      [NATIVE_MINTER]: { balance: '0x0', storage: { ['0x' + ADMIN.slice(2).padStart(64, '0')]: '0x00', '0x01': '0x2a' } },
    },
  );
  const dataDir = mkdtempSync(join(tmp, 'data-'));
  try {
    for (let run = 0; run < 2; run++) {
      const node = await start(g, {}, dataDir);
      try {
        const rpc = rpcClient(node.url + '/ext/bc/gs/rpc');
        assert.equal(await rpc('eth_getCode', [TX_ALLOW_LIST, 'latest']), '0x');
        assert.equal(await rpc('eth_getTransactionCount', [TX_ALLOW_LIST, 'latest']), '0x5');
        assert.equal(await rpc('eth_getBalance', [TX_ALLOW_LIST, 'latest']), '0x9');
        // Storage Configure wrote is kept: the precompile (run by address) still knows the admin.
        const role = await rpc('eth_call', [{ to: TX_ALLOW_LIST, data: encodeFunctionData({ abi, functionName: 'readAllowList', args: [ADMIN as `0x${string}`] }) }, 'latest']);
        assert.equal(BigInt(role), 2n);
        assert.equal(await rpc('eth_getCode', [FEE_MANAGER, 'latest']), '0x6001600155');
        assert.equal(await rpc('eth_getTransactionCount', [FEE_MANAGER, 'latest']), '0x7');
        assert.equal(await rpc('eth_getCode', [NATIVE_MINTER, 'latest']), '0x');
        assert.equal(await rpc('eth_getTransactionCount', [NATIVE_MINTER, 'latest']), '0x0');
        assert.equal(await rpc('eth_getStorageAt', [NATIVE_MINTER, '0x' + ADMIN.slice(2).padStart(64, '0'), 'latest']), '0x' + '00'.repeat(32));
        assert.equal(BigInt(await rpc('eth_getStorageAt', [NATIVE_MINTER, '0x1', 'latest'])), 42n);
      } finally {
        await node.stop();
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
