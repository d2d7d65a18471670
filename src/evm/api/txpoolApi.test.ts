// txpool_* as geth's TxPoolAPI answers them: Go maps written with sorted keys (senders in byte
// order, nonces as decimal strings), and txpool_inspect's lines with EIP-55 recipients.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDevNode, signTx, DEV_ADDRS } from '../chain/testkit.js';

const { rpc } = useDevNode();
const CHECKSUMMED = ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'];

async function rawResult(method: string, params: unknown[] = []): Promise<string> {
  const res = await fetch(rpc.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const text = await res.text();
  return text.slice(text.indexOf('"result":') + 9, text.lastIndexOf('}'));
}

/** The keys of the JSON object at `path`, in the order they appear in `text`. */
function keyOrder(text: string, path: string[]): string[] {
  // JSON.parse would put integer-like keys first in numeric order: walk the text instead.
  const order: string[] = [];
  let depth = 0;
  let want = 0;
  const re = /"((?:[^"\\]|\\.)*)"\s*:|[{}\[\]]/g;
  for (let m; (m = re.exec(text)); ) {
    const tok = m[0];
    if (tok === '{' || tok === '[') depth++;
    else if (tok === '}' || tok === ']') {
      depth--;
      if (want === path.length && depth <= want) break; // the object at `path` closed
    } else if (m[1] !== undefined) {
      if (want < path.length && depth === want + 1 && m[1] === path[want]) want++;
      else if (want === path.length && depth === want + 1) order.push(m[1]);
    }
  }
  return order;
}

test('txpool_content / contentFrom / inspect write Go maps: nonces sorted as strings, senders in byte order', async () => {
  await rpc('evm_setAutomine', [false]);
  try {
    const nonces = await Promise.all([0, 1, 2].map(async (i) => BigInt(await rpc('eth_getTransactionCount', [DEV_ADDRS[i], 'latest']))));
    // Sender 0 (0xf3…) before sender 2 (0x3C…): the answer is not in arrival order.
    for (let k = 0n; k < 11n; k++) await rpc('eth_sendRawTransaction', [signTx(0, { nonce: nonces[0] + k, to: DEV_ADDRS[1], value: k })]);
    await rpc('eth_sendRawTransaction', [signTx(2, { nonce: nonces[2], to: DEV_ADDRS[0] })]);
    await rpc('eth_sendRawTransaction', [signTx(1, { nonce: nonces[1] + 2n, to: DEV_ADDRS[0] })]);
    const expectedNonces = Array.from({ length: 11 }, (_, k) => String(nonces[0] + BigInt(k))).sort();
    assert.notDeepEqual(expectedNonces, Array.from({ length: 11 }, (_, k) => String(nonces[0] + BigInt(k))), 'string order differs from numeric order');
    const content = await rawResult('txpool_content');
    assert.deepEqual(keyOrder(content, []), ['pending', 'queued']);
    assert.deepEqual(keyOrder(content, ['pending']), [CHECKSUMMED[2], CHECKSUMMED[0]], '0x3C… before 0xf3…');
    assert.deepEqual(keyOrder(content, ['pending', CHECKSUMMED[0]]), expectedNonces);
    assert.deepEqual(keyOrder(content, ['queued']), [CHECKSUMMED[1]]);
    const from = await rawResult('txpool_contentFrom', [DEV_ADDRS[0]]);
    assert.deepEqual(keyOrder(from, ['pending']), expectedNonces);
    assert.deepEqual(JSON.parse(from).queued, {});
    const inspect = await rawResult('txpool_inspect');
    assert.deepEqual(keyOrder(inspect, ['pending', CHECKSUMMED[0]]), expectedNonces);
    // The recipient as Go's Address.Hex() prints it (EIP-55), the price is the fee cap.
    assert.equal(JSON.parse(inspect).pending[CHECKSUMMED[0]][String(nonces[0] + 3n)], `${CHECKSUMMED[1]}: 3 wei + 21000 gas × 30000000000 wei`);
    assert.equal(JSON.parse(inspect).queued[CHECKSUMMED[1]][String(nonces[1] + 2n)], `${CHECKSUMMED[0]}: 0 wei + 21000 gas × 30000000000 wei`);
  } finally {
    await rpc('evm_setAutomine', [true]);
    await rpc('evm_mine', []);
  }
});

test('txpool_inspect names a creation "contract creation"', async () => {
  await rpc('evm_setAutomine', [false]);
  try {
    const n = BigInt(await rpc('eth_getTransactionCount', [DEV_ADDRS[1], 'latest']));
    await rpc('eth_sendRawTransaction', [signTx(1, { nonce: n + 1n, data: '0x00', gasLimit: 60_000n, maxFeePerGas: 26_000_000_000n })]);
    const inspect = await rpc('txpool_inspect');
    assert.equal(inspect.queued[CHECKSUMMED[1]][String(n + 1n)], 'contract creation: 0 wei + 60000 gas × 26000000000 wei');
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
});

test('a transaction index is a hexutil.Uint: its decoding errors name that type', async () => {
  for (const method of ['eth_getTransactionByBlockNumberAndIndex', 'eth_getRawTransactionByBlockNumberAndIndex', 'eth_getUncleByBlockNumberAndIndex']) {
    const e = (await rpc.raw(method, ['latest', '0'])).error;
    assert.deepEqual(e, { code: -32602, message: 'invalid argument 1: json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Uint' }, method);
    assert.equal((await rpc.raw(method, ['latest', 0])).error.message, 'invalid argument 1: json: cannot unmarshal non-string into Go value of type hexutil.Uint');
    assert.equal((await rpc.raw(method, ['latest', '0x10000000000000000'])).error.message, 'invalid argument 1: json: cannot unmarshal hex number > 64 bits into Go value of type hexutil.Uint');
  }
  const hash = (await rpc('eth_getBlockByNumber', ['latest', false])).hash;
  for (const method of ['eth_getTransactionByBlockHashAndIndex', 'eth_getRawTransactionByBlockHashAndIndex', 'eth_getUncleByBlockHashAndIndex']) {
    assert.equal((await rpc.raw(method, [hash, '0x1x'])).error.message, 'invalid argument 1: json: cannot unmarshal invalid hex string into Go value of type hexutil.Uint', method);
  }
  // In range: a missing index is null (raw: empty bytes).
  assert.equal(await rpc('eth_getTransactionByBlockNumberAndIndex', ['latest', '0xffffffffffffffff']), null);
  assert.equal(await rpc('eth_getRawTransactionByBlockNumberAndIndex', ['latest', '0xffffffffffffffff']), '0x');
});
