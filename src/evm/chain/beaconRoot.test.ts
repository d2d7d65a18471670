// EIP-4788 (Etna): the beacon-root system call at block start, through a real node. Without the
// contract a block leaves no trace of it; with the contract (EIP-4788's runtime code) every block
// stores its timestamp, a transaction in the same block can read it back, and tracing replays it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDevNode, signTx } from './testkit.js';
import { BEACON_ROOTS_ADDRESS, SYSTEM_ADDRESS } from './beaconRoot.js';

const { rpc } = useDevNode({ 'db-type': 'memdb' });

// The contract's runtime code from EIP-4788 (HISTORY_BUFFER_LENGTH 8191).
const BEACON_ROOTS_CODE =
  '0x3373fffffffffffffffffffffffffffffffffffffffe14604d57602036146024575f5ffd5b5f35801560495762001fff810690815414603c575f5ffd5b62001fff01545f5260205ff35b5f5ffd5b62001fff42064281555f359062001fff015500';
const word = (n: bigint) => '0x' + n.toString(16).padStart(64, '0');

test('without the beacon roots contract an empty block leaves the state as it was', async () => {
  const before = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.equal(before.parentBeaconBlockRoot, '0x' + '00'.repeat(32));
  await rpc('evm_mine');
  const after = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.equal(after.stateRoot, before.stateRoot);
  assert.equal(await rpc('eth_getCode', [BEACON_ROOTS_ADDRESS, 'latest']), '0x');
});

test('with the contract, each block stores its timestamp; a tx in that block reads it; tracing agrees', async () => {
  await rpc('hardhat_setCode', [BEACON_ROOTS_ADDRESS, BEACON_ROOTS_CODE]);
  const head = await rpc('eth_getBlockByNumber', ['latest', false]);
  const t1 = BigInt(head.timestamp) + 100n;
  await rpc('evm_setNextBlockTimestamp', [Number(t1)]);
  await rpc('evm_mine');
  const mined = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.equal(BigInt(mined.timestamp), t1);
  assert.notEqual(mined.stateRoot, head.stateRoot);
  assert.equal(BigInt(await rpc('eth_getStorageAt', [BEACON_ROOTS_ADDRESS, word(t1 % 8191n), 'latest'])), t1);
  assert.equal(BigInt(await rpc('eth_getStorageAt', [BEACON_ROOTS_ADDRESS, word((t1 % 8191n) + 8191n), 'latest'])), 0n);
  // get(t1) answers the (zero) root; an unknown timestamp reverts, as the contract does.
  assert.equal(await rpc('eth_call', [{ to: BEACON_ROOTS_ADDRESS, data: word(t1) }, 'latest']), word(0n));
  const miss = await rpc.raw('eth_call', [{ to: BEACON_ROOTS_ADDRESS, data: word(t1 + 1n) }, 'latest']);
  assert.deepEqual([miss.error.code, miss.error.message], [-32000, 'execution reverted']); // no revert data
  // The system address never enters the state.
  assert.equal(await rpc('eth_getTransactionCount', [SYSTEM_ADDRESS, 'latest']), '0x0');
  assert.equal(await rpc('eth_getBalance', [SYSTEM_ADDRESS, 'latest']), '0x0');

  // A tx that asks for its own block's timestamp succeeds only if the call ran before it.
  const t2 = t1 + 7n;
  await rpc('evm_setNextBlockTimestamp', [Number(t2)]);
  const nonce = BigInt(await rpc('eth_getTransactionCount', ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', 'latest']));
  const hash = await rpc('eth_sendRawTransaction', [signTx(0, { to: BEACON_ROOTS_ADDRESS, data: word(t2), gasLimit: 100_000n, nonce, maxFeePerGas: 1_000_000_000_000n })]);
  const receipt = await rpc('eth_getTransactionReceipt', [hash]);
  assert.equal(receipt.status, '0x1');
  assert.equal(BigInt((await rpc('eth_getBlockByNumber', [receipt.blockNumber, false])).timestamp), t2);
  const trace = await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
  assert.equal(trace.error, undefined);
  assert.equal(trace.output, word(0n));
});
