// The "admin" service (admin_exportChain / admin_importChain) over real HTTP: a chain exported
// from one dev node (plain and gzip) is imported into fresh nodes with the same genesis and gives
// the same blocks, receipts and state; known blocks are skipped; every bad input gets geth's
// error and leaves the node's chain as it was.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_ADDRS, devNodeWithConfig, rpcError, signTx, type Rpc } from '../chain/testkit.js';
import type { TestNode } from '../../../test/helpers.js';
import { devGenesis } from '../config/index.js';
import { devAccounts } from '../chain/devAccounts.js';
import { DEV_BALANCE, DEV_CHAIN_ID } from '../factory.js';

const CONFIG = { 'eth-apis': ['eth', 'internal-eth', 'internal-blockchain', 'internal-transaction', 'internal-debug', 'debug-tracer', 'debug-file-tracer', 'admin'] };
// Runtime: SSTORE(0, CALLVALUE + 42); LOG0(0, 0); STOP. Init code copies it out.
const RUNTIME = '602a340160005560006000a000';
const INIT = '0x600d600c600039600d6000f3' + RUNTIME;

const nodes: TestNode[] = [];
let dir: string;
let a: Rpc;
let contract: string;
let head: number;
/** The node that imported a's chain and mined block 5 on top of it. */
let b: Rpc;

// The default dev genesis is at each chain's first start (docs/dev-chain.md), so the nodes are given
// one genesis: the dev chain's own JSON, whose time is fixed.
const devAccountsList = devAccounts(undefined, 10).map((x) => x.address);
const SAME_GENESIS = [{ name: 'dev', aliases: ['dev'], dev: true, genesis: devGenesis({ networkID: 12345, accounts: devAccountsList, balance: DEV_BALANCE, chainId: DEV_CHAIN_ID }) }];

async function fresh(): Promise<Rpc> {
  const { node, rpc } = await devNodeWithConfig(CONFIG, { chains: SAME_GENESIS });
  nodes.push(node);
  return rpc;
}

async function blocks(rpc: Rpc, upTo: number): Promise<any[]> {
  const out = [];
  for (let n = 0; n <= upTo; n++) out.push(await rpc('eth_getBlockByNumber', ['0x' + n.toString(16), true]));
  return out;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'powder-chainadmin-'));
  a = await fresh();
  const h = await a('eth_sendRawTransaction', [signTx(0, { nonce: 0n, data: INIT, gasLimit: 200_000n })]);
  contract = (await a('eth_getTransactionReceipt', [h])).contractAddress;
  await a('eth_sendRawTransaction', [signTx(1, { nonce: 0n, to: contract, value: 7n, gasLimit: 100_000n })]);
  // a block with several txs from different senders, legacy and 1559
  await a('evm_setAutomine', [false]);
  try {
    await a('eth_sendRawTransaction', [signTx(0, { nonce: 1n, to: DEV_ADDRS[2], value: 1000n })]);
    await a('eth_sendRawTransaction', [signTx(2, { type: 0, nonce: 0n, to: contract, gasLimit: 100_000n })]);
    await a('eth_sendRawTransaction', [signTx(1, { type: 1, nonce: 1n, to: DEV_ADDRS[0], value: 3n })]);
    await a('evm_mine', []);
  } finally {
    await a('evm_setAutomine', [true]);
  }
  await a('evm_mine', []); // an empty block too
  head = Number(await a('eth_blockNumber'));
  assert.equal(head, 4);
});

after(async () => {
  for (const n of nodes) await n.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('admin_exportChain: the whole chain, RLP blocks back to back as debug_getRawBlock gives them', async () => {
  const file = join(dir, 'all.rlp');
  assert.equal(await a('admin_exportChain', [file]), true);
  let expected = '';
  for (let n = 0; n <= head; n++) expected += (await a('debug_getRawBlock', ['0x' + n.toString(16)])).slice(2);
  assert.equal(readFileSync(file).toString('hex'), expected);
  // a range, gzip-compressed by the name
  const gz = join(dir, 'range.rlp.gz');
  assert.equal(await a('admin_exportChain', [gz, 2, 3]), true);
  const two = (await a('debug_getRawBlock', ['0x2'])).slice(2) + (await a('debug_getRawBlock', ['0x3'])).slice(2);
  assert.equal(gunzipSync(readFileSync(gz)).toString('hex'), two);
  // first alone: up to the head
  const tail = join(dir, 'tail.rlp');
  assert.equal(await a('admin_exportChain', [tail, 3]), true);
  const three = (await a('debug_getRawBlock', ['0x3'])).slice(2) + (await a('debug_getRawBlock', ['0x4'])).slice(2);
  assert.equal(readFileSync(tail).toString('hex'), three);
});

test('admin_exportChain: geth errors; nothing is overwritten', async () => {
  const file = join(dir, 'all.rlp');
  const before = readFileSync(file);
  assert.deepEqual(await rpcError(a('admin_exportChain', [file])), { code: -32000, message: 'location would overwrite an existing file', data: undefined });
  assert.deepEqual(readFileSync(file), before);
  assert.equal((await rpcError(a('admin_exportChain', [join(dir, 'x1.rlp'), null, 2]))).message, 'last cannot be specified without first');
  assert.equal(existsSync(join(dir, 'x1.rlp')), false);
  // geth creates the file before it checks the range: the (empty) file stays
  const x2 = join(dir, 'x2.rlp');
  assert.equal((await rpcError(a('admin_exportChain', [x2, 3, 1]))).message, 'export failed: first (3) is greater than last (1)');
  assert.equal(statSync(x2).size, 0);
  assert.equal((await rpcError(a('admin_exportChain', [join(dir, 'x3.rlp'), 1, 99]))).message, 'export failed on #5: not found');
  const noDir = join(dir, 'missing', 'x.rlp');
  assert.equal((await rpcError(a('admin_exportChain', [noDir]))).message, `open ${noDir}: no such file or directory`);
  assert.equal((await rpcError(a('admin_exportChain', [5]))).message, 'invalid argument 0: json: cannot unmarshal number into Go value of type string');
  assert.equal((await rpcError(a('admin_exportChain', [join(dir, 'x4.rlp'), '0x1']))).message, 'invalid argument 1: json: cannot unmarshal string into Go value of type uint64');
  assert.equal((await rpcError(a('admin_exportChain', [join(dir, 'x4.rlp'), -1]))).message, 'invalid argument 1: json: cannot unmarshal number -1 into Go value of type uint64');
  assert.equal((await rpcError(a('admin_exportChain', [join(dir, 'x4.rlp'), 1, 2, 3]))).message, 'too many arguments, want at most 3');
  assert.equal((await rpcError(a('admin_exportChain', []))).message, 'missing value for required argument 0');
  assert.equal(existsSync(join(dir, 'x4.rlp')), false);
});

test('admin_importChain: a fresh node with the same genesis gets the same blocks, receipts and state', async () => {
  b = await fresh();
  const src = await blocks(a, head);
  assert.equal((await b('eth_getBlockByNumber', ['0x0', false])).hash, src[0].hash, 'same genesis');
  assert.equal(await b('admin_importChain', [join(dir, 'all.rlp')]), true);
  assert.equal(Number(await b('eth_blockNumber')), head);
  assert.deepEqual(await blocks(b, head), src);
  for (const t of src[3].transactions) assert.deepEqual(await b('eth_getTransactionReceipt', [t.hash]), await a('eth_getTransactionReceipt', [t.hash]));
  assert.equal(await b('eth_getStorageAt', [contract, '0x0', 'latest']), await a('eth_getStorageAt', [contract, '0x0', 'latest']));
  assert.equal(await b('eth_getBalance', [DEV_ADDRS[2], 'latest']), await a('eth_getBalance', [DEV_ADDRS[2], 'latest']));
  // importing again skips the known blocks; so does importing into the node that exported it
  assert.equal(await b('admin_importChain', [join(dir, 'all.rlp')]), true);
  assert.equal(await a('admin_importChain', [join(dir, 'all.rlp')]), true);
  assert.equal(Number(await b('eth_blockNumber')), head);
  // the imported chain goes on: the next tx is mined on top, with the next nonce
  const h = await b('eth_sendRawTransaction', [signTx(0, { nonce: 2n, to: contract, value: 1n, gasLimit: 100_000n })]);
  const r = await b('eth_getTransactionReceipt', [h]);
  assert.equal(r.status, '0x1');
  assert.equal(Number(r.blockNumber), head + 1);
  // and its blocks trace like the original's
  assert.deepEqual(await b('debug_traceBlockByNumber', ['0x3']), await a('debug_traceBlockByNumber', ['0x3']));
});

test('admin_importChain: gzip, in parts (known blocks skipped, the rest on top of the head)', async () => {
  const c = await fresh();
  const gz = join(dir, 'all.rlp.gz');
  assert.equal(await a('admin_exportChain', [gz, 0, 2]), true);
  assert.equal(await c('admin_importChain', [gz]), true);
  assert.equal(Number(await c('eth_blockNumber')), 2);
  // blocks 1..4: 1 and 2 are known, 3 and 4 are new
  const rest = join(dir, 'from1.rlp');
  assert.equal(await a('admin_exportChain', [rest, 1]), true);
  assert.equal(await c('admin_importChain', [rest]), true);
  assert.deepEqual(await blocks(c, head), await blocks(a, head));
});

test('admin_importChain: a gzip file cut after its last block (its trailer missing) imports every block, as geth does', async () => {
  // geth's gzip reader gives every block, then io.ErrUnexpectedEOF, which rlp.Stream takes for the
  // end of its input when no value has started.
  const c = await fresh();
  const gz = gzipSync(readFileSync(join(dir, 'all.rlp')));
  const cut = join(dir, 'no-trailer.rlp.gz');
  writeFileSync(cut, gz.subarray(0, gz.length - 8));
  assert.equal(await c('admin_importChain', [cut]), true);
  assert.deepEqual(await blocks(c, head), await blocks(a, head));
});

test('admin_importChain: geth errors; a bad block is refused and the chain stays as it was', async () => {
  const d = await fresh();
  const genesis = await d('eth_getBlockByNumber', ['0x0', false]);
  const missing = join(dir, 'nope.rlp');
  assert.deepEqual(await rpcError(d('admin_importChain', [missing])), { code: -32000, message: `open ${missing}: no such file or directory`, data: undefined });
  const garbage = join(dir, 'garbage.rlp');
  writeFileSync(garbage, Buffer.from('83010203', 'hex'));
  assert.equal((await rpcError(d('admin_importChain', [garbage]))).message, 'block 0: failed to parse: rlp: expected input list for types.extblock');
  // a file with good blocks then garbage: the batch is parsed before anything is inserted
  const tailJunk = join(dir, 'tailjunk.rlp');
  writeFileSync(tailJunk, Buffer.concat([readFileSync(join(dir, 'all.rlp')), Buffer.from('83010203', 'hex')]));
  assert.equal((await rpcError(d('admin_importChain', [tailJunk]))).message, `block ${head + 1}: failed to parse: rlp: expected input list for types.extblock`);
  // A block whose tx has a malformed access list (an entry that is a byte string): geth's decoder
  // text with the block's path before the tx's (ethereumjs failed on it in JavaScript's words).
  const { RLP } = await import('@ethereumjs/rlp');
  const [h] = (RLP.decode(readFileSync(join(dir, 'all.rlp')), true) as { data: unknown[] }).data;
  const f = (hex: string) => Buffer.from(hex, 'hex');
  const badTx = Buffer.concat([f('02'), RLP.encode([f('a8ca'), f(''), f('01'), f('05'), f('5208'), f('11'.repeat(20)), f(''), f(''), [f('2b')], f(''), f('01'), f('01')])]);
  const badAccessList = join(dir, 'bad-access-list.rlp');
  writeFileSync(badAccessList, RLP.encode([h as never, [badTx], []]));
  assert.equal(
    (await rpcError(d('admin_importChain', [badAccessList]))).message,
    'block 0: failed to parse: rlp: expected input list for types.AccessTuple, decoding into (types.Block)(types.extblock).Txs[0](types.DynamicFeeTx).AccessList[0]',
  );
  assert.equal(Number(await d('eth_blockNumber')), 0);
  const badGz = join(dir, 'bad.gz');
  writeFileSync(badGz, 'not gzip at all');
  assert.equal((await rpcError(d('admin_importChain', [badGz]))).message, 'gzip: invalid header');
  // Cut short: geth decodes while it reads a file (an rlp.Stream without a size), so a block cut in
  // two is `unexpected EOF`, plain or gzipped (here 4 bytes of deflate data are missing, the last
  // block's end), and nothing of that batch is inserted.
  const all = readFileSync(join(dir, 'all.rlp'));
  const trunc = join(dir, 'trunc.rlp');
  writeFileSync(trunc, all.subarray(0, all.length - 10));
  assert.equal((await rpcError(d('admin_importChain', [trunc]))).message, `block ${head}: failed to parse: unexpected EOF`);
  const truncGz = join(dir, 'trunc.gz');
  const gzAll = gzipSync(all);
  writeFileSync(truncGz, gzAll.subarray(0, gzAll.length - 12));
  assert.equal((await rpcError(d('admin_importChain', [truncGz]))).message, `block ${head}: failed to parse: unexpected EOF`);
  assert.equal(Number(await d('eth_blockNumber')), 0);
  // blocks 3..4 without 1..2: their parent is unknown
  const gap = join(dir, 'gap.rlp');
  assert.equal(await a('admin_exportChain', [gap, 3, 4]), true);
  assert.equal((await rpcError(d('admin_importChain', [gap]))).message, 'batch 0: failed to insert: unknown ancestor');
  // block 1 with another state root: re-executing it gives the real one
  const raw = Buffer.from((await a('debug_getRawBlock', ['0x1'])).slice(2), 'hex');
  const root = Buffer.from((await a('eth_getBlockByNumber', ['0x1', false])).stateRoot.slice(2), 'hex');
  const at = raw.indexOf(root);
  raw[at + 31] ^= 1;
  const tampered = join(dir, 'tampered.rlp');
  writeFileSync(tampered, raw);
  const local = root.toString('hex');
  root[31] ^= 1;
  assert.equal((await rpcError(d('admin_importChain', [tampered]))).message, `batch 0: failed to insert: invalid merkle root (remote: ${root.toString('hex')} local: ${local})`);
  assert.equal(Number(await d('eth_blockNumber')), 0);
  assert.equal((await d('eth_getBlockByNumber', ['latest', false])).hash, genesis.hash);
  assert.equal((await rpcError(d('admin_importChain', [1]))).message, 'invalid argument 0: json: cannot unmarshal number into Go value of type string');
  assert.equal((await rpcError(d('admin_importChain', [missing, 1]))).message, 'too many arguments, want at most 1');
  assert.equal((await rpcError(d('admin_importChain', []))).message, 'missing value for required argument 0');
  // the node still works: the good file imports, and new blocks follow
  assert.equal(await d('admin_importChain', [join(dir, 'all.rlp')]), true);
  assert.equal(Number(await d('eth_blockNumber')), head);
  const one = join(dir, 'one.rlp');
  assert.equal(await a('admin_exportChain', [one, 1, 1]), true);
  assert.equal(await d('admin_importChain', [one]), true, 'known: skipped');

  // b's block 5 (mined by b on the imported chain) imports into a, whose head is block 4
  const bChain = join(dir, 'b.rlp.gz');
  assert.equal(await b('admin_exportChain', [bChain]), true);
  assert.equal(await a('admin_importChain', [bChain]), true);
  const b5 = await b('eth_getBlockByNumber', ['0x5', true]);
  assert.deepEqual(await a('eth_getBlockByNumber', ['0x5', true]), b5);
  assert.deepEqual(await a('eth_getTransactionReceipt', [b5.transactions[0].hash]), await b('eth_getTransactionReceipt', [b5.transactions[0].hash]));
  // d mines its own block 5: b's block 5 forks from d's chain and is refused, d keeps its own
  await d('eth_sendRawTransaction', [signTx(1, { nonce: 2n, to: DEV_ADDRS[2], value: 9n })]);
  const d5 = await d('eth_getBlockByNumber', ['0x5', false]);
  assert.notEqual(d5.hash, b5.hash);
  assert.equal(
    (await rpcError(d('admin_importChain', [bChain]))).message,
    `batch 0: failed to insert: block #5 [${b5.hash}] is not a child of the head #5 [${d5.hash}]: this node accepts blocks on top of its head only`,
  );
  assert.equal((await d('eth_getBlockByNumber', ['latest', false])).hash, d5.hash);
});

test('admin_importChain: a tx the head state cannot run fails geth\'s checks, in geth\'s order and words', async () => {
  const e = await fresh();
  const one = join(dir, 'one-checks.rlp');
  assert.equal(await a('admin_exportChain', [one, 1, 1]), true);
  const tx = (await a('eth_getBlockByNumber', ['0x1', true])).transactions[0];
  const from = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
  const fail = async (reason: string) =>
    assert.equal((await rpcError(e('admin_importChain', [one]))).message, `batch 0: failed to insert: could not apply tx 0 [${tx.hash}]: ${reason}`);
  // The test controls edit the head state (genesis) in place: block 1's parent is still the head.
  await e('anvil_setNonce', [DEV_ADDRS[0], '0x5']);
  await e('anvil_setBalance', [DEV_ADDRS[0], '0x0']);
  await fail(`nonce too low: address ${from}, tx: 0 state: 5`);
  await e('anvil_setNonce', [DEV_ADDRS[0], '0x0']);
  await e('hardhat_setCode', [DEV_ADDRS[0], '0x00']);
  await fail(`sender not an eoa: address ${from}, codehash: 0xbc36789e7a1e281436464229828f817d6612f7b477d66591ff96a9e064bcc98a`);
  await e('hardhat_setCode', [DEV_ADDRS[0], '0x']);
  await fail(`insufficient funds for gas * price + value: address ${from} have 0 want ${BigInt(tx.gas) * BigInt(tx.maxFeePerGas) + BigInt(tx.value)}`);
  assert.equal(Number(await e('eth_blockNumber')), 0);
});
