// Storage keys as geth 1.13's eth_getStorageAt and eth_getProof take them: a Go string decoded by
// decodeHash (hex up to 32 bytes, 0x optional); its errors are plain errors (-32000), after the
// state lookup for eth_getStorageAt and before it for eth_getProof; eth_getProof answers a key
// given as 32 bytes as such and any other as a QUANTITY.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDevNode, DEV_ADDRS } from '../chain/testkit.js';

const { rpc } = useDevNode();
const error = async (method: string, params: unknown[]) => (await rpc.raw(method, params)).error;
const A = DEV_ADDRS[0];

test('eth_getStorageAt: a key that is no hex is a plain error, after the block lookup', async () => {
  assert.deepEqual(await error('eth_getStorageAt', [A, '0xzz', 'latest']), { code: -32000, message: 'unable to decode storage key: hex string invalid' });
  assert.deepEqual(await error('eth_getStorageAt', [A, '0x' + '01'.repeat(33), 'latest']), { code: -32000, message: 'unable to decode storage key: hex string too long, want at most 32 bytes' });
  const far = '0x' + (BigInt(await rpc('eth_blockNumber')) + 10n).toString(16);
  assert.deepEqual(await error('eth_getStorageAt', [A, '0xzz', far]), { code: -32000, message: 'cannot query unfinalized data' });
  assert.deepEqual(await error('eth_getStorageAt', [A, 1, 'latest']), { code: -32602, message: 'invalid argument 1: json: cannot unmarshal number into Go value of type string' });
  assert.equal(await rpc('eth_getStorageAt', [A, 'abc', 'latest']), '0x' + '00'.repeat(32), 'no 0x and odd length are fine');
});

test('eth_getProof: keys decoded first (plain errors); answered as 32 bytes or as a QUANTITY', async () => {
  const far = '0x' + (BigInt(await rpc('eth_blockNumber')) + 10n).toString(16);
  assert.deepEqual(await error('eth_getProof', [A, ['0x01', '0xzz'], far]), { code: -32000, message: 'hex string invalid' });
  assert.deepEqual(await error('eth_getProof', [A, ['0x' + '01'.repeat(33)], 'latest']), { code: -32000, message: 'hex string too long, want at most 32 bytes' });
  const full = '0x' + '00'.repeat(31) + '01';
  const upper = '0x' + 'AB'.repeat(32);
  const proof = await rpc('eth_getProof', [A, ['0x01', full, null, '0X0A', upper, '0x', '0x0001'], 'latest']);
  assert.deepEqual(
    proof.storageProof.map((s: { key: string }) => s.key),
    ['0x1', full, '0x0', '0xa', upper.toLowerCase(), '0x0', '0x1'],
  );
});
