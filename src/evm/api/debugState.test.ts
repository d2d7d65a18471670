// The `debug` service on the dev chain: debug_storageRangeAt pages a contract's storage as it was
// before a tx of a block ran, checked against eth_getStorageAt; debug_getBadBlocks, debug_preimage.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { encodeAbiParameters, encodeDeployData, encodeFunctionData, keccak256, pad, toHex } from 'viem';
import { compileContract } from '../../../test/solc.js';
import { devNode, devNodeWithConfig, rpcError, DEV_ADDRS, type Rpc } from '../chain/testkit.js';
import type { TestNode } from '../../../test/helpers.js';

let node: TestNode;
let rpc: Rpc;
const T = compileContract('ERC20');
let token: string;
let block: { hash: string; number: string; parentHash: string };
const A = '0x00000000000000000000000000000000000000a1';
const B = '0x00000000000000000000000000000000000000b2';

/** The token's slots that can be set: balances of the deployer, A and B; totalSupply, name, symbol, owner. */
const slotKeys = () => [
  ...[DEV_ADDRS[0], A, B].map((a) => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [a as `0x${string}`, 0n]))),
  ...[2, 3, 4, 5].map((n) => pad(toHex(n))),
];

/** {hashed slot key: {key: slot, value}} of the token's non-zero slots at `blockTag`, from eth_getStorageAt. */
async function expectedStorage(blockTag: string): Promise<Record<string, { key: string; value: string }>> {
  const out: [string, { key: string; value: string }][] = [];
  for (const slot of slotKeys()) {
    const value = await rpc('eth_getStorageAt', [token, slot, blockTag]);
    if (BigInt(value) !== 0n) out.push([keccak256(slot), { key: slot, value }]);
  }
  return Object.fromEntries(out.sort(([a], [b]) => (a < b ? -1 : 1)));
}

before(async () => {
  ({ node, rpc } = await devNode());
  const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], data: encodeDeployData({ abi: T.abi, bytecode: T.bytecode as `0x${string}`, args: ['Powder', 'PWD', 10n ** 24n] }) }]);
  token = (await rpc('eth_getTransactionReceipt', [h])).contractAddress;
  // One block with two transfers: the storage differs before each.
  await rpc('evm_setAutomine', [false]);
  try {
    for (const to of [A, B]) await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: token, data: encodeFunctionData({ abi: T.abi, functionName: 'transfer', args: [to, 1000n] }) }]);
    await rpc('evm_mine', []);
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
  block = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.equal((await rpc('eth_getBlockByNumber', ['latest', false])).transactions.length, 2);
});
after(async () => {
  await node.stop();
});

test('debug_storageRangeAt: the storage before tx i of the block, keyed by hashed slot, in key order', async () => {
  const before0 = await rpc('debug_storageRangeAt', [block.hash, 0, token, '0x', 100]);
  assert.deepEqual(before0, { storage: await expectedStorage(block.parentHash), nextKey: null });
  assert.equal(Object.keys(before0.storage).length, 5, 'deployer balance, totalSupply, name, symbol, owner');
  // Before tx 1, tx 0's transfer to A shows: a new balance slot, the deployer's lower.
  const before1 = await rpc('debug_storageRangeAt', [block.number, 1, token, '0x', 100]);
  assert.equal(Object.keys(before1.storage).length, 6);
  const aSlot = keccak256(slotKeys()[1]);
  assert.equal(BigInt(before1.storage[aSlot].value), 1000n);
  assert.equal(before0.storage[aSlot], undefined);
  // The next block's storage before its first tx is this block's final state.
  const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[1], to: DEV_ADDRS[2], value: '0x1' }]);
  const next = (await rpc('eth_getTransactionReceipt', [h])).blockHash;
  assert.deepEqual((await rpc('debug_storageRangeAt', [next, 0, token, '0x', 100])).storage, await expectedStorage(block.number));
});

test('debug_storageRangeAt: paging with maxResult and nextKey covers every slot once', async () => {
  const all = (await rpc('debug_storageRangeAt', [block.hash, 1, token, '0x', 100])).storage;
  const keys = Object.keys(all);
  assert.deepEqual(keys, [...keys].sort(), 'key order');
  const seen: Record<string, unknown> = {};
  let start = '0x';
  for (let pages = 0; ; pages++) {
    assert.ok(pages < 10);
    const page = await rpc('debug_storageRangeAt', [block.hash, 1, token, start, 2]);
    assert.ok(Object.keys(page.storage).length <= 2);
    Object.assign(seen, page.storage);
    if (page.nextKey === null) break;
    assert.equal(page.nextKey, keys[Object.keys(seen).length], 'nextKey is the first key of the next page');
    start = page.nextKey;
  }
  assert.deepEqual(seen, all);
  // maxResult 0: nothing, and where to start.
  assert.deepEqual(await rpc('debug_storageRangeAt', [block.hash, 1, token, '0x', 0]), { storage: {}, nextKey: keys[0] });
  // A start between keys, and one past the last.
  const mid = keys[2].slice(0, 10);
  const fromMid = await rpc('debug_storageRangeAt', [block.hash, 1, token, mid, 100]);
  assert.deepEqual(Object.keys(fromMid.storage), keys.filter((k) => k.slice(0, 10) >= mid));
  assert.deepEqual(await rpc('debug_storageRangeAt', [block.hash, 1, token, '0x' + 'ff'.repeat(32), 100]), { storage: {}, nextKey: null });
  // An account without storage.
  assert.deepEqual(await rpc('debug_storageRangeAt', [block.hash, 0, DEV_ADDRS[2], '0x', 10]), { storage: {}, nextKey: null });
});

test('debug_storageRangeAt: errors as geth words them', async () => {
  const msg = async (params: unknown[]) => {
    const e = await rpcError(rpc('debug_storageRangeAt', params));
    return [e.code, e.message];
  };
  assert.deepEqual(await msg([block.hash, 0, '0x00000000000000000000000000000000000000c3', '0x', 10]), [-32000, "account 00000000000000000000000000000000000000c3 doesn't exist"]);
  assert.deepEqual(await msg([block.hash, 2, token, '0x', 10]), [-32000, `transaction index 2 out of range for block ${block.hash}`]);
  assert.deepEqual(await msg([block.hash, -1, token, '0x', 10]), [-32000, `transaction index -1 out of range for block ${block.hash}`]);
  assert.deepEqual(await msg(['0x0', 0, token, '0x', 10]), [-32000, 'no transaction in genesis']);
  assert.deepEqual(await msg(['0x' + '01'.repeat(32), 0, token, '0x', 10]), [-32000, 'header for hash not found']);
  assert.deepEqual(await msg([block.hash, '0x0', token, '0x', 10]), [-32602, 'invalid argument 1: json: cannot unmarshal string into Go value of type int']);
  assert.deepEqual(await msg([block.hash, 0.5, token, '0x', 10]), [-32602, 'invalid argument 1: json: cannot unmarshal number 0.5 into Go value of type int']);
  assert.equal((await msg([block.hash, 0, 'nope', '0x', 10]))[0], -32602);
  assert.equal((await msg([block.hash, 0, token, 'zz', 10]))[0], -32602);
  assert.deepEqual(await msg([block.hash, 0, token, '0x']), [-32602, 'missing value for required argument 4']);
  assert.deepEqual(await msg([block.hash, 0, token, '0x', 1, 2]), [-32602, 'too many arguments, want at most 5']);
  // The node goes on answering.
  assert.equal(await rpc('eth_chainId', []), '0xa8ca');
});

test('debug_preimage: the addresses and slots the chain wrote (the dev chain records them); debug_getBadBlocks is empty', async () => {
  assert.deepEqual(await rpc('debug_getBadBlocks', []), []);
  assert.equal(await rpc('debug_preimage', [keccak256(token as `0x${string}`)]), token);
  assert.equal(await rpc('debug_preimage', [keccak256(DEV_ADDRS[0] as `0x${string}`)]), DEV_ADDRS[0], 'a genesis account');
  for (const slot of slotKeys().slice(0, 2)) assert.equal(await rpc('debug_preimage', [keccak256(slot)]), slot);
  const e = await rpcError(rpc('debug_preimage', [keccak256('0x01')]));
  assert.deepEqual([e.code, e.message], [-32000, 'unknown preimage']);
  assert.equal((await rpcError(rpc('debug_preimage', ['0x01']))).code, -32602);
});

test('"preimages-enabled": false: no preimages, null keys (Subnet-EVM\'s default)', async () => {
  const { node: n2, rpc: r2 } = await devNodeWithConfig({ 'preimages-enabled': false });
  try {
    const h = await r2('eth_sendTransaction', [{ from: DEV_ADDRS[0], data: encodeDeployData({ abi: T.abi, bytecode: T.bytecode as `0x${string}`, args: ['P', 'P', 5n] }) }]);
    const r = await r2('eth_getTransactionReceipt', [h]);
    await r2('eth_sendTransaction', [{ from: DEV_ADDRS[1], to: DEV_ADDRS[2], value: '0x1' }]);
    const range = await r2('debug_storageRangeAt', ['latest', 0, r.contractAddress, '0x', 10]);
    assert.equal(Object.keys(range.storage).length, 5);
    assert.ok(Object.values(range.storage).every((e: any) => e.key === null));
    const e = await rpcError(r2('debug_preimage', [keccak256(r.contractAddress)]));
    assert.equal(e.message, 'unknown preimage');
    const m = await rpcError(r2('debug_getModifiedAccountsByNumber', [Number(r.blockNumber)]));
    assert.match(m.message, /^no preimage found for hash [0-9a-f]{64}$/);
  } finally {
    await n2.stop();
  }
});

test('debug_getModifiedAccountsByNumber / ByHash: the accounts a block (or a range) changed, by their preimages', async () => {
  const OTHER = '0x00000000000000000000000000000000000000c4';
  const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[1], to: OTHER, value: '0x5' }]);
  const r = await rpc('eth_getTransactionReceipt', [h]);
  const b = await rpc('eth_getBlockByHash', [r.blockHash, false]);
  const byKey = (addrs: string[]) => [...addrs].sort((x, y) => (keccak256(x as `0x${string}`) < keccak256(y as `0x${string}`) ? -1 : 1));
  // The sender (nonce, balance), the recipient (new), and the block's coinbase (the fees).
  const expected = byKey([DEV_ADDRS[1], OTHER, b.miner.toLowerCase()]);
  assert.deepEqual(await rpc('debug_getModifiedAccountsByNumber', [Number(b.number)]), expected);
  assert.deepEqual(await rpc('debug_getModifiedAccountsByHash', [b.hash]), expected);
  // A range: the token transfers' block and this one.
  const range: string[] = await rpc('debug_getModifiedAccountsByNumber', [Number(block.number) - 1, Number(b.number)]);
  for (const a of [token, DEV_ADDRS[0], DEV_ADDRS[1], OTHER]) assert.ok(range.includes(a.toLowerCase()), a);
  assert.deepEqual(range, byKey(range), 'trie key order');
  assert.deepEqual(await rpc('debug_getModifiedAccountsByHash', [block.parentHash, b.hash]), range);
  // An empty block changes nothing: geth's nil list.
  await rpc('evm_mine', []);
  const empty = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.equal(await rpc('debug_getModifiedAccountsByNumber', [Number(empty.number)]), null);
  // Errors, in geth's words.
  const msg = async (method: string, params: unknown[]) => {
    const e = await rpcError(rpc(method, params));
    return [e.code, e.message];
  };
  assert.deepEqual(await msg('debug_getModifiedAccountsByNumber', [0]), [-32000, 'block 0 has no parent']);
  assert.deepEqual(await msg('debug_getModifiedAccountsByNumber', [999999]), [-32000, 'start block f423f not found']);
  assert.deepEqual(await msg('debug_getModifiedAccountsByNumber', [1, 999999]), [-32000, 'end block 999999 not found']);
  assert.deepEqual(await msg('debug_getModifiedAccountsByNumber', [Number(b.number), Number(b.number)]), [-32000, `start block height (${BigInt(b.number)}) must be less than end block height (${BigInt(b.number)})`]);
  assert.deepEqual(await msg('debug_getModifiedAccountsByNumber', ['0x1']), [-32602, 'invalid argument 0: json: cannot unmarshal string into Go value of type uint64']);
  const unknown = '0x' + '42'.repeat(32);
  assert.deepEqual(await msg('debug_getModifiedAccountsByHash', [unknown]), [-32000, `start block ${unknown.slice(2)} not found`]);
  assert.deepEqual(await msg('debug_getModifiedAccountsByHash', [b.hash, unknown]), [-32000, `end block ${unknown.slice(2)} not found`]);
});

test('debug_dumpBlock / debug_accountRange: geth\'s state dump of a block, paged with next', async () => {
  const head = await rpc('eth_getBlockByNumber', ['latest', false]);
  const dump = await rpc('debug_dumpBlock', ['latest']);
  assert.deepEqual(Object.keys(dump), ['root', 'accounts']);
  assert.equal('0x' + dump.root, head.stateRoot);
  const keys = Object.keys(dump.accounts);
  assert.deepEqual(keys, [...keys].sort(), 'Go sorts map keys');
  // Dev account 0, by its checksummed address: decimal balance, nonce as a number, its hashes.
  const dev = dump.accounts['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'];
  assert.equal(dev.balance, BigInt(await rpc('eth_getBalance', [DEV_ADDRS[0], 'latest'])).toString());
  assert.equal(dev.nonce, Number(await rpc('eth_getTransactionCount', [DEV_ADDRS[0], 'latest'])));
  assert.equal(dev.address, DEV_ADDRS[0]);
  assert.equal(dev.key, keccak256(DEV_ADDRS[0] as `0x${string}`));
  assert.deepEqual(Object.keys(dev), ['balance', 'nonce', 'root', 'codeHash', 'address', 'key'], 'no code or storage: omitted');
  // The token: its code and its storage by slot, values as unpadded hex without 0x.
  const t = Object.values(dump.accounts).find((a: any) => a.address === token) as any;
  assert.equal(t.code, await rpc('eth_getCode', [token, 'latest']));
  for (const slot of slotKeys()) {
    const v = BigInt(await rpc('eth_getStorageAt', [token, slot, 'latest']));
    const hex = v.toString(16);
    assert.equal(t.storage[slot], v === 0n ? undefined : hex.length % 2 ? '0' + hex : hex, slot); // the value's bytes
  }
  // accountRange pages the same accounts (nocode, nostorage), in key order, with next as base64.
  const seen: Record<string, any> = {};
  let start = '0x';
  for (let pages = 0; ; pages++) {
    assert.ok(pages < 100);
    const page = await rpc('debug_accountRange', ['latest', start, 3, true, true, false]);
    assert.ok(Object.keys(page.accounts).length <= 3);
    for (const [k, v] of Object.entries(page.accounts) as [string, any][]) {
      assert.equal(v.code, undefined);
      assert.equal(v.storage, undefined);
      seen[k] = v;
    }
    if (page.next === undefined) break;
    start = '0x' + Buffer.from(page.next, 'base64').toString('hex');
  }
  assert.deepEqual(Object.keys(seen).sort(), keys);
  // An earlier block by hash; errors.
  const past = await rpc('debug_accountRange', [{ blockHash: block.parentHash }, '0x', 0, false, false, false]);
  assert.equal(past.accounts['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'].nonce < dev.nonce, true);
  const msg = async (method: string, params: unknown[]) => {
    const e = await rpcError(rpc(method, params));
    return [e.code, e.message];
  };
  assert.deepEqual(await msg('debug_dumpBlock', ['0xffffff']), [-32000, 'block #16777215 not found']);
  const unknown = '0x' + '42'.repeat(32);
  assert.deepEqual(await msg('debug_accountRange', [{ blockHash: unknown }, '0x', 1, false, false, false]), [-32000, `block ${unknown} not found`]);
  assert.deepEqual(await msg('debug_accountRange', ['latest', '0x', 1, false, false]), [-32602, 'missing value for required argument 5']);
  assert.equal((await msg('debug_accountRange', ['latest', 'nothex', 1, false, false, false]))[0], -32602);
});

test('debug_getAccessibleState: an archive node has every block\'s state', async () => {
  const head = Number(await rpc('eth_blockNumber'));
  assert.equal(await rpc('debug_getAccessibleState', ['0x1', 'latest']), 1);
  assert.equal(await rpc('debug_getAccessibleState', ['latest', '0x0']), head);
  const e = await rpcError(rpc('debug_getAccessibleState', ['0x2', '0x2']));
  assert.deepEqual([e.code, e.message], [-32000, 'from and to needs to be different']);
  const m = await rpcError(rpc('debug_getAccessibleState', ['0xffffff', '0x0']));
  assert.deepEqual([m.code, m.message], [-32000, 'missing header 16777215']);
});

test('replays start from the state a block really ran on: after anvil_set* edits of its parent', async () => {
  const FRESH = '0x00000000000000000000000000000000000000f5';
  await rpc('anvil_setBalance', [FRESH, '0xde0b6b3a7640000']);
  await rpc('anvil_setStorageAt', [token, '0x' + '00'.repeat(31) + '63', '0x' + '00'.repeat(31) + '2a']);
  await rpc('anvil_impersonateAccount', [FRESH]);
  const h = await rpc('eth_sendTransaction', [{ from: FRESH, to: DEV_ADDRS[2], value: '0x7' }]);
  await rpc('anvil_stopImpersonatingAccount', [FRESH]);
  const r = await rpc('eth_getTransactionReceipt', [h]);
  assert.equal(r.status, '0x1');
  const b = await rpc('eth_getBlockByHash', [r.blockHash, false]);
  // The funds came from the edit: a replay from the parent's header state could not pay for the tx.
  const trace = await rpc('debug_traceTransaction', [h, { tracer: 'callTracer' }]);
  assert.equal(trace.value, '0x7');
  assert.deepEqual(await rpc('debug_intermediateRoots', [b.hash]), [b.stateRoot]);
  const range = await rpc('debug_storageRangeAt', [b.hash, 0, token, '0x', 100]);
  const edited = keccak256(('0x' + '00'.repeat(31) + '63') as `0x${string}`);
  assert.equal(range.storage[edited]?.value, '0x' + '00'.repeat(31) + '2a');
  // A later block still sees it (the edited parent is no longer the head).
  await rpc('evm_mine', []);
  assert.deepEqual(await rpc('debug_intermediateRoots', [b.hash]), [b.stateRoot]);
});
