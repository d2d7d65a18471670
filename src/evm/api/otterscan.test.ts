// Otterscan's ots_* on the dev chain (otterscan.md), over HTTP on a real node: a factory that
// CREATEs and CREATE2s children, pays an EOA inside a call, STATICCALLs, DELEGATECALLs and
// self-destructs a child; failed txs; a block of several txs for paging; the searches.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { encodeErrorResult, encodeFunctionData, getContractAddress, type Hex } from 'viem';
import { compileContract } from '../../../test/solc.js';
import { devNode, devNodeWithConfig, rpcError, DEV_ADDRS, type Rpc } from '../chain/testkit.js';
import type { TestNode } from '../../../test/helpers.js';

let node: TestNode;
let rpc: Rpc;
const F = compileContract('OtsFactory', 'Otterscan.sol');
const CHILD = compileContract('OtsChild', 'Otterscan.sol');
const SALT = ('0x' + '11'.repeat(32)) as Hex;
/** An address that only the txs of this file touch. */
const LONER = '0x00000000000000000000000000000000000a11ce';
const UNKNOWN_HASH = '0x' + 'ab'.repeat(32);

let factory: string;
let deployTx: string;
let buildTx: string;
let gone: string;
let kept: string;
let revertTx: string;
let bareRevertTx: string;
let transferToLoner: string;
let pokeLoner: string;
let pagedBlock: number;
let pagedTxs: string[];

const hexNum = (n: number | bigint) => '0x' + n.toString(16);
const lower = (a: string) => a.toLowerCase();

async function send(tx: Record<string, unknown>): Promise<{ hash: string; receipt: any }> {
  const hash = await rpc('eth_sendTransaction', [{ gas: '0x200000', ...tx }]);
  return { hash, receipt: await rpc('eth_getTransactionReceipt', [hash]) };
}

const callData = (functionName: 'build' | 'fail' | 'failBare' | 'poke', args: unknown[] = []) =>
  encodeFunctionData({ abi: F.abi, functionName, args } as never);

const blockOf = async (hash: string) => Number((await rpc('eth_getTransactionReceipt', [hash])).blockNumber);
const fails = async (method: string, params: unknown[]) => {
  const e = await rpcError(rpc(method, params));
  return [e.code, e.message];
};

before(async () => {
  ({ node, rpc } = await devNode());
  const deployed = await send({ from: DEV_ADDRS[0], data: F.bytecode });
  assert.equal(deployed.receipt.status, '0x1');
  factory = deployed.receipt.contractAddress;
  deployTx = deployed.hash;
  const built = await send({ from: DEV_ADDRS[0], to: factory, value: '0x5', data: callData('build', [DEV_ADDRS[2], SALT]) });
  assert.equal(built.receipt.status, '0x1');
  buildTx = built.hash;
  gone = lower(getContractAddress({ from: factory as Hex, nonce: 1n }));
  kept = lower(getContractAddress({ opcode: 'CREATE2', from: factory as Hex, salt: SALT, bytecode: CHILD.bytecode }));
  revertTx = (await send({ from: DEV_ADDRS[0], to: factory, data: callData('fail', [42n]) })).hash;
  bareRevertTx = (await send({ from: DEV_ADDRS[0], to: factory, data: callData('failBare') })).hash;
  transferToLoner = (await send({ from: DEV_ADDRS[1], to: LONER, value: '0x7', gas: '0x5208' })).hash;
  pokeLoner = (await send({ from: DEV_ADDRS[1], to: factory, data: callData('poke', [LONER]) })).hash;
  // Three transfers in one block, for the paging.
  await rpc('evm_setAutomine', [false]);
  try {
    pagedTxs = [];
    for (let i = 0; i < 3; i++) pagedTxs.push(await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[2], to: DEV_ADDRS[1], value: hexNum(i + 1), gas: '0x5208' }]));
    await rpc('evm_mine', []);
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
  pagedBlock = await blockOf(pagedTxs[0]);
});

after(async () => {
  await node?.stop();
});

test('ots_getApiLevel answers 8; erigon_getHeaderByNumber is eth_getBlockByNumber(n, false)', async () => {
  assert.equal(await rpc('ots_getApiLevel', []), 8);
  assert.deepEqual(await fails('ots_getApiLevel', [1]), [-32602, 'too many arguments, want at most 0']);
  const n = await blockOf(buildTx);
  const header = await rpc('eth_getBlockByNumber', [hexNum(n), false]);
  assert.deepEqual(await rpc('erigon_getHeaderByNumber', [n]), header, 'a JSON number, as Otterscan sends');
  assert.deepEqual(await rpc('erigon_getHeaderByNumber', [hexNum(n)]), header, 'a hex quantity');
  assert.equal((await rpc('erigon_getHeaderByNumber', ['earliest'])).number, '0x0');
  assert.equal(await rpc('erigon_getHeaderByNumber', [n + 1000]), null, 'past the head');
  assert.deepEqual(await fails('erigon_getHeaderByNumber', []), [-32602, 'missing value for required argument 0']);
  assert.deepEqual(await fails('erigon_getHeaderByNumber', [1.5]), [-32602, 'invalid argument 0: json: cannot unmarshal number 1.5 into Go value of type uint64']);
  assert.deepEqual(await fails('erigon_getHeaderByNumber', [-1]), [-32602, 'invalid argument 0: json: cannot unmarshal number -1 into Go value of type uint64']);
  assert.deepEqual(await fails('erigon_getHeaderByNumber', ['0xzz']), [-32602, 'invalid argument 0: invalid hex string']);
  assert.deepEqual(await fails('erigon_getHeaderByNumber', [true]), [-32602, 'invalid argument 0: hex string without 0x prefix']);
  assert.deepEqual(await fails('erigon_getHeaderByNumber', [1, 2]), [-32602, 'too many arguments, want at most 1']);
});

test('ots_hasCode: code at the block asked (latest when absent)', async () => {
  const deployedAt = await blockOf(deployTx);
  assert.equal(await rpc('ots_hasCode', [factory, 'latest']), true);
  assert.equal(await rpc('ots_hasCode', [factory]), true);
  assert.equal(await rpc('ots_hasCode', [factory, deployedAt - 1]), false, 'before its deployment (a JSON number)');
  assert.equal(await rpc('ots_hasCode', [factory, hexNum(deployedAt)]), true);
  assert.equal(await rpc('ots_hasCode', [DEV_ADDRS[0], 'latest']), false);
  assert.equal(await rpc('ots_hasCode', [gone, 'latest']), false, 'self-destructed in the tx that made it');
  assert.equal(await rpc('ots_hasCode', [kept, 'latest']), true);
  assert.deepEqual(await fails('ots_hasCode', [factory, UNKNOWN_HASH]), [-32000, 'header for hash not found']);
  assert.deepEqual(await fails('ots_hasCode', [factory, '0xffffff']), [-32000, 'cannot query unfinalized data']);
  assert.deepEqual(await fails('ots_hasCode', ['0x12', 'latest']), [-32602, 'invalid argument 0: hex string has length 2, want 40 for common.Address']);
  assert.deepEqual(await fails('ots_hasCode', [factory, 'latest', 1]), [-32602, 'too many arguments, want at most 2']);
});

test('ots_getInternalOperations: value moves, creations and self-destructs, the top call included (Anvil), in order', async () => {
  assert.deepEqual(await rpc('ots_getInternalOperations', [buildTx]), [
    { type: 0, from: DEV_ADDRS[0], to: factory, value: '0x5' },
    { type: 2, from: factory, to: gone, value: '0x3' },
    { type: 3, from: factory, to: kept, value: '0x0' },
    { type: 0, from: factory, to: DEV_ADDRS[2], value: '0x2' },
    { type: 1, from: gone, to: DEV_ADDRS[2], value: '0x3' },
  ]);
  assert.deepEqual(await rpc('ots_getInternalOperations', [transferToLoner]), [{ type: 0, from: DEV_ADDRS[1], to: LONER, value: '0x7' }], 'a top call with value is a TRANSFER (Anvil)');
  assert.deepEqual(await rpc('ots_getInternalOperations', [deployTx]), [{ type: 2, from: DEV_ADDRS[0], to: factory, value: '0x0' }], 'a creation tx is a CREATE, without value too (Anvil)');
  assert.deepEqual(await rpc('ots_getInternalOperations', [revertTx]), [], 'a top call without value is nothing');
  assert.deepEqual(await fails('ots_getInternalOperations', [UNKNOWN_HASH]), [-32000, 'transaction not found']);
  assert.deepEqual(await fails('ots_getInternalOperations', ['0x12']), [-32602, 'invalid argument 0: hex string has length 2, want 64 for common.Hash']);
  assert.deepEqual(await fails('ots_getInternalOperations', [7]), [-32602, 'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Hash']);
  assert.deepEqual(await fails('ots_getInternalOperations', [buildTx, 1]), [-32602, 'too many arguments, want at most 1']);
});

test('ots_traceTransaction: every frame, flat, in execution order, with its depth', async () => {
  const entries = await rpc('ots_traceTransaction', [buildTx]);
  const shape = entries.map((e: any) => [e.type, e.depth, e.from, e.to, e.value]);
  assert.deepEqual(shape, [
    ['CALL', 0, DEV_ADDRS[0], factory, '0x5'],
    ['CREATE', 1, factory, gone, '0x3'],
    ['CREATE2', 1, factory, kept, '0x0'],
    ['CALL', 1, factory, DEV_ADDRS[2], '0x2'],
    ['STATICCALL', 1, factory, gone, '0x0'],
    ['DELEGATECALL', 1, factory, kept, '0x5'], // the caller's value (Anvil; Erigon writes null)
    ['CALL', 1, factory, gone, '0x0'],
    ['SELFDESTRUCT', 2, gone, DEV_ADDRS[2], '0x3'],
  ]);
  assert.equal(entries[0].input, callData('build', [DEV_ADDRS[2], SALT]));
  assert.equal(entries[0].output, '0x' + kept.slice(2).padStart(64, '0'), 'the top call returns the kept child');
  assert.equal(entries[1].input, CHILD.bytecode, 'a CREATE frame takes the init code');
  assert.equal(entries[2].output, CHILD.deployedBytecode, 'and gives the code deployed');
  assert.equal(entries[4].output, '0x' + '1'.padStart(64, '0'), 'ping() answers 1');
  assert.equal(entries[3].input, '0x');
  for (const e of entries) assert.deepEqual(Object.keys(e), ['type', 'depth', 'from', 'to', 'value', 'input', 'output']);
  const top = await rpc('ots_traceTransaction', [transferToLoner]);
  assert.deepEqual(top, [{ type: 'CALL', depth: 0, from: DEV_ADDRS[1], to: LONER, value: '0x7', input: '0x', output: '0x' }]);
  const deploy = await rpc('ots_traceTransaction', [deployTx]);
  assert.deepEqual([deploy.length, deploy[0].type, deploy[0].to, deploy[0].output], [1, 'CREATE', factory, F.deployedBytecode]);
  assert.deepEqual(await rpc('ots_traceTransaction', [UNKNOWN_HASH]), [], 'an unknown tx: [] (Anvil)');
  assert.deepEqual(await fails('ots_traceTransaction', []), [-32602, 'missing value for required argument 0']);
  assert.deepEqual(await fails('ots_traceTransaction', [buildTx, null]), [-32602, 'too many arguments, want at most 1']);
});

test('ots_getTransactionError: the revert data of a failed tx, 0x otherwise', async () => {
  assert.equal((await rpc('eth_getTransactionReceipt', [revertTx])).status, '0x0');
  const nope = encodeErrorResult({ abi: F.abi, errorName: 'Nope', args: [42n] } as never);
  assert.equal(await rpc('ots_getTransactionError', [revertTx]), nope);
  assert.equal(await rpc('ots_getTransactionError', [bareRevertTx]), '0x', 'failed without data');
  assert.equal(await rpc('ots_getTransactionError', [buildTx]), '0x', 'succeeded');
  assert.equal(await rpc('ots_getTransactionError', [UNKNOWN_HASH]), '0x', 'an unknown tx: 0x (Anvil)');
  assert.deepEqual(await fails('ots_getTransactionError', [{}]), [-32602, 'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Hash']);
  assert.deepEqual(await fails('ots_getTransactionError', [revertTx, 'x']), [-32602, 'too many arguments, want at most 1']);
});

test('ots_getBlockDetails / ots_getBlockDetailsByHash: the header (bloom kept), the tx count, zero issuance, the fees', async () => {
  const n = pagedBlock;
  const full = await rpc('eth_getBlockByNumber', [hexNum(n), false]);
  const receipts = await rpc('eth_getBlockReceipts', [hexNum(n)]);
  const fees = receipts.reduce((s: bigint, r: any) => s + BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice), 0n);
  assert.ok(fees > 0n);
  const { transactions, ...header } = full;
  assert.equal(transactions.length, 3);
  const expected = {
    block: { ...header, transactionCount: 3 },
    issuance: { blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' },
    totalFees: hexNum(fees),
  };
  assert.deepEqual(await rpc('ots_getBlockDetails', [n]), expected);
  assert.deepEqual(await rpc('ots_getBlockDetails', [hexNum(n)]), expected);
  assert.deepEqual(await rpc('ots_getBlockDetailsByHash', [full.hash]), expected);
  const genesis = await rpc('ots_getBlockDetails', [0]);
  assert.deepEqual([genesis.block.number, genesis.block.transactionCount, genesis.totalFees], ['0x0', 0, '0x0']);
  assert.deepEqual(await fails('ots_getBlockDetails', [n + 1000]), [-32001, 'Resource not found'], 'past the head: Anvil error');
  assert.deepEqual(await fails('ots_getBlockDetailsByHash', [UNKNOWN_HASH]), [-32001, 'Resource not found']);
  assert.deepEqual(await fails('ots_getBlockDetails', [{}]), [-32602, 'invalid argument 0: hex string without 0x prefix']);
  assert.deepEqual(await fails('ots_getBlockDetailsByHash', ['0x1234']), [-32602, 'invalid argument 0: hex string has length 4, want 64 for common.Hash']);
  assert.deepEqual(await fails('ots_getBlockDetails', [n, true]), [-32602, 'too many arguments, want at most 1']);
  assert.deepEqual(await fails('ots_getBlockDetailsByHash', [full.hash, 1]), [-32602, 'too many arguments, want at most 1']);
});

test('ots_getBlockTransactions: Anvil paging from the block first tx; inputs cut to the selector; receipts with the timestamp', async () => {
  const n = pagedBlock;
  const full = await rpc('eth_getBlockByNumber', [hexNum(n), true]);
  const receipts = await rpc('eth_getBlockReceipts', [hexNum(n)]);
  const page = async (pageNumber: unknown, pageSize: unknown) => rpc('ots_getBlockTransactions', [n, pageNumber, pageSize]);
  const expected = (from: number, to: number) => ({
    fullblock: { ...full, transactions: full.transactions.slice(from, to), transactionCount: 3 },
    receipts: receipts.slice(from, to).map((r: any) => ({ ...r, timestamp: full.timestamp })),
  });
  assert.deepEqual(await page(0, 2), expected(0, 2));
  assert.deepEqual(await page(1, 2), expected(2, 3));
  assert.deepEqual(await page('0x0', '0x19'), expected(0, 3), 'hex quantities too');
  assert.deepEqual((await page(0, 2)).fullblock.transactions.map((t: any) => t.hash), pagedTxs.slice(0, 2));
  assert.deepEqual(await page(2, 2), expected(3, 3), 'a page past the end is empty');
  assert.deepEqual(await page(0, 0), expected(0, 0), 'page size 0: an empty page');
  assert.deepEqual(await page('0xffffffffffffffff', '0xffffffffffffffff'), expected(3, 3));
  assert.deepEqual(await fails('ots_getBlockTransactions', [n + 1000, 0, 25]), [-32001, 'Resource not found'], 'past the head: Anvil error');
  const built = await rpc('ots_getBlockTransactions', [await blockOf(buildTx), 0, 25]);
  const builtTx = built.fullblock.transactions.find((t: any) => t.hash === buildTx);
  assert.equal(builtTx.input, callData('build', [DEV_ADDRS[2], SALT]).slice(0, 10), 'the input cut to its selector (Anvil, Erigon)');
  assert.deepEqual(await fails('ots_getBlockTransactions', [n, 0]), [-32602, 'missing value for required argument 2']);
  assert.deepEqual(await fails('ots_getBlockTransactions', [n, -1, 25]), [-32602, 'invalid argument 1: json: cannot unmarshal number -1 into Go value of type uint64']);
  assert.deepEqual(await fails('ots_getBlockTransactions', [n, 0, true]), [-32602, 'invalid argument 2: json: cannot unmarshal bool into Go value of type uint64']);
  assert.deepEqual(await fails('ots_getBlockTransactions', [n, 0, '25']), [-32602, 'invalid argument 2: json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Uint64']);
  assert.deepEqual(await fails('ots_getBlockTransactions', [n, 0, 25, 1]), [-32602, 'too many arguments, want at most 3']);
});

test('ots_searchTransactionsBefore / After: the txs that involve an address, newest first, whole blocks', async () => {
  const head = Number(await rpc('eth_blockNumber', []));
  const hashes = (r: any) => r.txs.map((t: any) => t.hash);
  // LONER: a plain transfer to it, and a call that touches it only inside (a trace finds it).
  const all = await rpc('ots_searchTransactionsBefore', [LONER, 0, 25]);
  assert.deepEqual(hashes(all), [pokeLoner, transferToLoner]);
  assert.deepEqual([all.firstPage, all.lastPage], [true, true]);
  assert.deepEqual(all.receipts.map((r: any) => r.transactionHash), [pokeLoner, transferToLoner]);
  const tx0 = await rpc('eth_getTransactionByHash', [pokeLoner]);
  assert.deepEqual(all.txs[0], tx0);
  const rc0 = await rpc('eth_getTransactionReceipt', [pokeLoner]);
  const blk0 = await rpc('eth_getBlockByNumber', [rc0.blockNumber, false]);
  assert.deepEqual(all.receipts[0], { ...rc0, timestamp: blk0.timestamp });

  const newest = await rpc('ots_searchTransactionsBefore', [LONER, 0, 1]);
  assert.deepEqual([hashes(newest), newest.firstPage, newest.lastPage], [[pokeLoner], true, false]);
  const next = await rpc('ots_searchTransactionsBefore', [LONER, await blockOf(pokeLoner), 1]);
  assert.deepEqual([hashes(next), next.firstPage, next.lastPage], [[transferToLoner], false, false]);
  const end = await rpc('ots_searchTransactionsBefore', [LONER, await blockOf(transferToLoner), 1]);
  assert.deepEqual([hashes(end), end.firstPage, end.lastPage], [[], false, true]);

  const oldest = await rpc('ots_searchTransactionsAfter', [LONER, 0, 1]);
  assert.deepEqual([hashes(oldest), oldest.firstPage, oldest.lastPage], [[transferToLoner], false, true]);
  const after = await rpc('ots_searchTransactionsAfter', [LONER, await blockOf(transferToLoner), 25]);
  assert.deepEqual([hashes(after), after.firstPage, after.lastPage], [[pokeLoner], true, false]);
  const both = await rpc('ots_searchTransactionsAfter', [LONER, 0, 25]);
  assert.deepEqual([hashes(both), both.firstPage, both.lastPage], [[pokeLoner, transferToLoner], true, true]);

  // Found inside the factory's build call only: the self-destructed child, and a DEV account paid there.
  assert.deepEqual(hashes(await rpc('ots_searchTransactionsBefore', [gone, 0, 25])), [buildTx]);
  assert.ok(hashes(await rpc('ots_searchTransactionsBefore', [kept, 0, 25])).includes(buildTx));
  const factoryTxs = hashes(await rpc('ots_searchTransactionsBefore', [factory, 0, 25]));
  assert.deepEqual(factoryTxs, [pokeLoner, bareRevertTx, revertTx, buildTx, deployTx], 'its creation included');
  const nobody = await rpc('ots_searchTransactionsBefore', ['0x' + '99'.repeat(20), 0, 25]);
  assert.deepEqual(nobody, { txs: [], receipts: [], firstPage: true, lastPage: true });
  // A paged block comes whole: its three txs though the page size is 1.
  const paged = await rpc('ots_searchTransactionsBefore', [DEV_ADDRS[2], pagedBlock + 1, 1]);
  assert.deepEqual(hashes(paged), [...pagedTxs].reverse());
  assert.equal(paged.firstPage, pagedBlock >= head);
  // Page size 0: one block looked at (Anvil's walk); a start past the head is the head.
  const zero = await rpc('ots_searchTransactionsBefore', [DEV_ADDRS[2], 0, 0]);
  assert.deepEqual([zero.firstPage, zero.lastPage], [true, head <= 1]);
  const beyond = await rpc('ots_searchTransactionsBefore', [LONER, head + 100, 25]);
  assert.deepEqual([hashes(beyond), beyond.firstPage], [[pokeLoner, transferToLoner], true]);
  const afterHead = await rpc('ots_searchTransactionsAfter', [LONER, head + 100, 25]);
  assert.deepEqual(afterHead, { txs: [], receipts: [], firstPage: true, lastPage: false });
  assert.deepEqual(await fails('ots_searchTransactionsBefore', [LONER, 0]), [-32602, 'missing value for required argument 2']);
  assert.deepEqual(await fails('ots_searchTransactionsAfter', ['nope', 0, 25]), [-32602, 'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address']);
  assert.deepEqual(await fails('ots_searchTransactionsAfter', [LONER, 1.5, 25]), [-32602, 'invalid argument 1: json: cannot unmarshal number 1.5 into Go value of type uint64']);
  assert.deepEqual(await fails('ots_searchTransactionsBefore', [LONER, 0, [25]]), [-32602, 'invalid argument 2: json: cannot unmarshal array into Go value of type uint64']);
  assert.deepEqual(await fails('ots_searchTransactionsBefore', [LONER, 0, 25, 0]), [-32602, 'too many arguments, want at most 3']);
});

test('ots_getTransactionBySenderAndNonce: the sender tx with that nonce, or null', async () => {
  const sent = [transferToLoner, pokeLoner];
  for (const h of sent) {
    const tx = await rpc('eth_getTransactionByHash', [h]);
    assert.equal(await rpc('ots_getTransactionBySenderAndNonce', [DEV_ADDRS[1], Number(tx.nonce)]), h);
    assert.equal(await rpc('ots_getTransactionBySenderAndNonce', [DEV_ADDRS[1], tx.nonce]), h, 'a hex quantity too');
  }
  const deploy = await rpc('eth_getTransactionByHash', [deployTx]);
  assert.equal(await rpc('ots_getTransactionBySenderAndNonce', [DEV_ADDRS[0], deploy.nonce]), deployTx);
  const count = Number(await rpc('eth_getTransactionCount', [DEV_ADDRS[1], 'latest']));
  assert.equal(await rpc('ots_getTransactionBySenderAndNonce', [DEV_ADDRS[1], count]), null, 'not sent yet');
  assert.equal(await rpc('ots_getTransactionBySenderAndNonce', ['0x' + '99'.repeat(20), 0]), null);
  // A nonce moved by anvil_setNonce: the search lands on a block without the tx, and looks at them all.
  const who = (await rpc('eth_accounts', []))[6];
  await rpc('anvil_setNonce', [who, '0x5']);
  const { hash } = await send({ from: who, to: LONER, gas: '0x5208' });
  assert.equal(await rpc('ots_getTransactionBySenderAndNonce', [who, 5]), hash);
  assert.equal(await rpc('ots_getTransactionBySenderAndNonce', [who, 2]), null);
  assert.deepEqual(await fails('ots_getTransactionBySenderAndNonce', [who]), [-32602, 'missing value for required argument 1']);
  assert.deepEqual(await fails('ots_getTransactionBySenderAndNonce', [who, '0x10000000000000000']), [-32602, 'invalid argument 1: json: cannot unmarshal hex number > 64 bits into Go value of type hexutil.Uint64']);
  assert.deepEqual(await fails('ots_getTransactionBySenderAndNonce', [who, 1, 2]), [-32602, 'too many arguments, want at most 2']);
});

test('eth_getTransactionBySenderAndNonce (Anvil): the tx object, from the pool first, then the chain; null otherwise', async () => {
  // Mined: eth_getTransactionByHash's object.
  for (const h of [transferToLoner, deployTx]) {
    const tx = await rpc('eth_getTransactionByHash', [h]);
    assert.deepEqual(await rpc('eth_getTransactionBySenderAndNonce', [tx.from, tx.nonce]), tx);
    assert.deepEqual(await rpc('eth_getTransactionBySenderAndNonce', [tx.from, Number(tx.nonce)]), tx, 'a JSON number too');
  }
  // In the pool (automine off): pending and queued, without block fields, as eth_getTransactionByHash answers them.
  const who = (await rpc('eth_accounts', []))[7];
  const next = Number(await rpc('eth_getTransactionCount', [who, 'latest']));
  await rpc('evm_setAutomine', [false]);
  try {
    const pending = await rpc('eth_sendTransaction', [{ from: who, to: LONER, gas: '0x5208', nonce: '0x' + next.toString(16) }]);
    const queued = await rpc('eth_sendTransaction', [{ from: who, to: LONER, gas: '0x5208', nonce: '0x' + (next + 2).toString(16) }]);
    for (const [h, n] of [[pending, next], [queued, next + 2]] as const) {
      const got = await rpc('eth_getTransactionBySenderAndNonce', [who, n]);
      assert.equal(got.hash, h);
      assert.equal(got.blockHash, null);
      assert.deepEqual(got, await rpc('eth_getTransactionByHash', [h]));
    }
    assert.equal(await rpc('eth_getTransactionBySenderAndNonce', [who, next + 1]), null, 'the gap');
    await rpc('anvil_dropAllTransactions', []);
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
  assert.equal(await rpc('eth_getTransactionBySenderAndNonce', ['0x' + '99'.repeat(20), 0]), null);
  assert.deepEqual(await fails('eth_getTransactionBySenderAndNonce', [who]), [-32602, 'missing value for required argument 1']);
  assert.deepEqual(await fails('eth_getTransactionBySenderAndNonce', ['0xzz', 0]), [-32602, 'invalid argument 0: hex string has length 2, want 40 for common.Address']);
  assert.deepEqual(await fails('eth_getTransactionBySenderAndNonce', [who, 1, 2]), [-32602, 'too many arguments, want at most 2']);
});

test('ots_getContractCreator: the tx and the direct creator; null for what no tx created', async () => {
  assert.deepEqual(await rpc('ots_getContractCreator', [factory]), { hash: deployTx, creator: DEV_ADDRS[0] });
  assert.deepEqual(await rpc('ots_getContractCreator', [kept]), { hash: buildTx, creator: factory }, 'made inside a call: the factory');
  assert.equal(await rpc('ots_getContractCreator', [gone]), null, 'self-destructed: no code left');
  assert.equal(await rpc('ots_getContractCreator', [DEV_ADDRS[0]]), null, 'an EOA');
  const planted = '0x00000000000000000000000000000000000c0de5';
  await rpc('anvil_setCode', [planted, '0x600160005260206000f3']);
  assert.equal(await rpc('ots_getContractCreator', [planted]), null, 'code put by anvil_setCode');
  assert.deepEqual(await fails('ots_getContractCreator', [123]), [-32602, 'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Address']);
  assert.deepEqual(await fails('ots_getContractCreator', [factory, 1]), [-32602, 'too many arguments, want at most 1']);
});

test('a chain without the test controls does not serve ots_*', async () => {
  const { node, rpc: other } = await devNodeWithConfig({ 'powder-test-controls': false });
  try {
    for (const m of ['ots_getApiLevel', 'ots_searchTransactionsBefore', 'erigon_getHeaderByNumber']) {
      assert.equal((await rpcError(other(m, []))).code, -32601, m);
    }
  } finally {
    await node.stop();
  }
});
