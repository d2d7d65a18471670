// eth_call's checks before the message runs (reference §9.3; geth's preCheck / buyGas /
// TransitionDb): the balance check counts gas × fee cap + value, and the RPC layer (geth's doCall)
// answers a failed check as `err: <error> (supplied gas <gas>)`. eth_callDetailed calls doCall too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getAddress } from 'viem';
import { useDevNode, rpcError, DEV_ADDRS } from '../chain/testkit.js';

const { rpc } = useDevNode({ 'db-type': 'memdb' });
const STRANGER = '0x00000000000000000000000000000000000c0ffe';
const hexQ = (n: bigint) => '0x' + n.toString(16);

test('eth_call: a failed pre-check is answered as geth\'s doCall wraps it', async () => {
  const baseFee = BigInt((await rpc('eth_getBlockByNumber', ['latest', false])).baseFeePerGas);
  const expect = async (call: Record<string, unknown>, message: string) => {
    for (const method of ['eth_call', 'eth_callDetailed']) {
      const e = await rpcError(rpc(method, [call, 'latest']));
      assert.deepEqual([e.code, e.message], [-32000, message], `${method} ${JSON.stringify(call)}`);
    }
  };
  // Zero fees: the balance must still cover the value (gas × 0 + value).
  await expect({ from: STRANGER, to: DEV_ADDRS[0], value: '0x1', gas: '0x7a120' }, `err: insufficient funds for gas * price + value: address ${getAddress(STRANGER)} have 0 want 1 (supplied gas 500000)`);
  // With a fee cap: gas × fee cap + value.
  const balance = BigInt(await rpc('eth_getBalance', [DEV_ADDRS[1], 'latest']));
  const want = 21000n * baseFee + balance;
  await expect(
    { from: DEV_ADDRS[1], to: DEV_ADDRS[0], value: hexQ(balance), gas: '0x5208', gasPrice: hexQ(baseFee) },
    `err: insufficient funds for gas * price + value: address ${getAddress(DEV_ADDRS[1])} have ${balance} want ${want} (supplied gas 21000)`,
  );
  await expect(
    { from: DEV_ADDRS[1], to: DEV_ADDRS[0], gas: '0x5208', gasPrice: '0x1' },
    `err: max fee per gas less than block base fee: address ${getAddress(DEV_ADDRS[1])}, maxFeePerGas: 1, baseFee: ${baseFee} (supplied gas 21000)`,
  );
  // Only a tip: the fee cap is 0 (geth's ToMessage), not base fee + tip.
  await expect(
    { from: DEV_ADDRS[1], to: DEV_ADDRS[0], gas: '0x5208', maxPriorityFeePerGas: '0x1' },
    `err: max priority fee per gas higher than max fee per gas: address ${getAddress(DEV_ADDRS[1])}, maxPriorityFeePerGas: 1, maxFeePerGas: 0 (supplied gas 21000)`,
  );
  await expect({ from: DEV_ADDRS[1], to: DEV_ADDRS[0], gas: '0x5207' }, 'err: intrinsic gas too low: have 20999, want 21000 (supplied gas 20999)');
  // An argument error (geth's ToMessage) is not wrapped.
  await expect({ to: DEV_ADDRS[0], gasPrice: '0x1', maxFeePerGas: '0x1' }, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  // A second time (the call-result cache) the answer is the same.
  const e = await rpcError(rpc('eth_call', [{ from: STRANGER, to: DEV_ADDRS[0], value: '0x1', gas: '0x7a120' }, 'latest']));
  assert.match(e.message, /^err: insufficient funds for gas \* price \+ value: .* \(supplied gas 500000\)$/);
});

test('debug_traceCall: a failed pre-check is geth\'s `tracing failed: <error>`', async () => {
  const e = await rpcError(rpc('debug_traceCall', [{ from: STRANGER, to: DEV_ADDRS[0], value: '0x1', gas: '0x7a120' }, 'latest', { tracer: 'callTracer' }]));
  assert.deepEqual([e.code, e.message], [-32000, `tracing failed: insufficient funds for gas * price + value: address ${getAddress(STRANGER)} have 0 want 1`]);
});

test('eth_estimateGas: a value above the balance fails the balance check (gas × price + value)', async () => {
  const e = await rpcError(rpc('eth_estimateGas', [{ from: STRANGER, to: DEV_ADDRS[0], value: '0x1' }]));
  assert.equal(e.code, -32000);
  assert.match(e.message, new RegExp(`insufficient funds for gas \\* price \\+ value: address ${getAddress(STRANGER)} have 0 want 1`));
});

test('eth_estimateGas with a fee cap: a value of the whole balance leaves nothing for gas (geth: value >= balance)', async () => {
  const balance = BigInt(await rpc('eth_getBalance', [DEV_ADDRS[2], 'latest']));
  const e = await rpcError(rpc('eth_estimateGas', [{ from: DEV_ADDRS[2], to: DEV_ADDRS[0], value: hexQ(balance), maxFeePerGas: '0xe8d4a51000' }]));
  assert.deepEqual([e.code, e.message], [-32000, 'insufficient funds for transfer']);
  // Without `from` the sender is the zero address (no balance here).
  const z = await rpcError(rpc('eth_estimateGas', [{ to: DEV_ADDRS[0], value: '0x0', maxFeePerGas: '0xe8d4a51000' }]));
  assert.deepEqual([z.code, z.message], [-32000, 'insufficient funds for transfer']);
});

test('a creation with initcode over 49,152 bytes (Durango): geth\'s TransitionDb text', async () => {
  const data = '0x' + '00'.repeat(49153);
  const text = 'max initcode size exceeded: code size 49153 limit 49152';
  for (const method of ['eth_call', 'eth_callDetailed']) {
    const e = await rpcError(rpc(method, [{ data, gas: '0x1000000' }, 'latest']));
    assert.deepEqual([e.code, e.message], [-32000, `err: ${text} (supplied gas 16777216)`], method);
  }
  const e = await rpcError(rpc('eth_estimateGas', [{ data }]));
  assert.deepEqual([e.code, e.message], [-32000, text]);
  // At the limit it runs (an empty contract: 49,152 zero bytes are STOPs).
  assert.equal(await rpc('eth_call', [{ data: '0x' + '00'.repeat(49152), gas: '0x1000000' }, 'latest']), '0x');
});
