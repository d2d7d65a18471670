// Anvil's eth_getAccount / eth_getAccountInfo against a real node over HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDevNode, rpcError, deployFromDev, devNodeWithConfig, DEV_ADDRS } from '../chain/testkit.js';

const { rpc } = useDevNode();
const EMPTY_TRIE = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
const EMPTY_CODE_HASH = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';
/** LOG1 on every call, behind its creation code: a contract with 8 bytes of code and no storage. */
const LOGGER_CREATION = '0x67602a60006000a10060005260086018f3';

test('eth_getAccount and eth_getAccountInfo: the account in one read, at a block; a missing account reads as empty', async () => {
  const before = await rpc('eth_blockNumber');
  const c = await deployFromDev(rpc, LOGGER_CREATION);
  const a = await rpc('eth_getAccount', [c, 'latest']);
  assert.deepEqual(Object.keys(a), ['nonce', 'balance', 'storageRoot', 'codeHash']);
  assert.deepEqual(a, { nonce: '0x1', balance: '0x0', storageRoot: EMPTY_TRIE, codeHash: await rpc('web3_sha3', ['0x602a60006000a100']) });
  assert.deepEqual(await rpc('eth_getAccountInfo', [c, 'latest']), { balance: '0x0', nonce: '0x1', code: '0x602a60006000a100' });
  // At the block before the deployment, by number and by hash.
  assert.deepEqual(await rpc('eth_getAccountInfo', [c, before]), { balance: '0x0', nonce: '0x0', code: '0x' });
  const head = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.deepEqual(await rpc('eth_getAccountInfo', [c, { blockHash: head.hash }]), await rpc('eth_getAccountInfo', [c, 'latest']));
  // A dev account: the same fields eth_getBalance / eth_getTransactionCount answer.
  const dev = await rpc('eth_getAccount', [DEV_ADDRS[0], 'latest']);
  assert.equal(dev.balance, await rpc('eth_getBalance', [DEV_ADDRS[0], 'latest']));
  assert.equal(dev.nonce, await rpc('eth_getTransactionCount', [DEV_ADDRS[0], 'latest']));
  assert.equal(dev.codeHash, EMPTY_CODE_HASH);
  assert.deepEqual(await rpc('eth_getAccount', ['0x0000000000000000000000000000000000000abc', 'latest']), {
    nonce: '0x0',
    balance: '0x0',
    storageRoot: EMPTY_TRIE,
    codeHash: EMPTY_CODE_HASH,
  });
});

test('eth_getAccount / eth_getAccountInfo: bad input is -32602 (or the block error of eth_getBalance), and no test controls means no method', async () => {
  for (const m of ['eth_getAccount', 'eth_getAccountInfo']) {
    for (const [params, want] of [
      [[DEV_ADDRS[0]], /^missing value for required argument 1$/],
      [[], /^missing value for required argument 0$/],
      [['0x12', 'latest'], /^invalid argument 0: /],
      [[DEV_ADDRS[0], 'nope'], /^invalid argument 1: /],
      [[DEV_ADDRS[0], 'latest', 1], /^too many arguments, want at most 2$/],
    ] as [unknown[], RegExp][]) {
      const e = await rpcError(rpc(m, params));
      assert.equal(e.code, -32602, `${m} ${JSON.stringify(params)}`);
      assert.match(e.message, want, `${m} ${JSON.stringify(params)}`);
    }
    const far = await rpcError(rpc(m, [DEV_ADDRS[0], '0x999999']));
    assert.deepEqual(far, await rpcError(rpc('eth_getBalance', [DEV_ADDRS[0], '0x999999'])), m);
  }
  const { node, rpc: other } = await devNodeWithConfig({ 'powder-test-controls': false });
  try {
    for (const m of ['eth_getAccount', 'eth_getAccountInfo']) assert.equal((await rpcError(other(m, [DEV_ADDRS[0], 'latest']))).code, -32601, m);
  } finally {
    await node.stop();
  }
});
