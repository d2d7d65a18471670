// Bad transactions through eth_sendRawTransaction get the real node's errors; nonce gaps queue;
// replacement needs a 10 % bump.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDevNode, signTx, rpcError, DEV_ADDRS } from '../chain/testkit.js';

const { rpc } = useDevNode();

const nonceOf = async (i: number) => BigInt(await rpc('eth_getTransactionCount', [DEV_ADDRS[i], 'latest']));

async function sendErr(raw: string) {
  const e = await rpcError(rpc('eth_sendRawTransaction', [raw]));
  assert.equal(e.code, -32000);
  return e.message;
}

test('nonce too low', async () => {
  await rpc('eth_sendRawTransaction', [signTx(0, { nonce: await nonceOf(0), to: DEV_ADDRS[1] })]);
  assert.equal(await sendErr(signTx(0, { nonce: 0n, to: DEV_ADDRS[1], value: 7n })), `nonce too low: next nonce ${await nonceOf(0)}, tx nonce 0`);
});

test('insufficient funds', async () => {
  const msg = await sendErr(signTx(1, { nonce: await nonceOf(1), to: DEV_ADDRS[0], value: 10n ** 30n }));
  assert.match(msg, /^insufficient funds for gas \* price \+ value: balance \d+, tx cost \d+, overshot \d+$/);
});

test('underpriced: fee cap below the minimum base fee', async () => {
  const msg = await sendErr(signTx(1, { nonce: await nonceOf(1), to: DEV_ADDRS[0], maxFeePerGas: 1_000_000_000n }));
  assert.equal(msg, 'transaction underpriced: address 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 have gas fee cap (1000000000) < pool minimum fee cap (25000000000)');
});

test('exceeds block gas limit, intrinsic gas too low, oversized data, tip above cap', async () => {
  const n = await nonceOf(1);
  assert.equal(await sendErr(signTx(1, { nonce: n, to: DEV_ADDRS[0], gasLimit: 30_000_001n })), 'exceeds block gas limit: tx gas (30000001) > current max gas (30000000)');
  assert.equal(
    await sendErr(signTx(1, { nonce: n, to: DEV_ADDRS[0], gasLimit: 21000n, data: new Uint8Array(10).fill(1) })),
    'intrinsic gas too low: address 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 tx gas (21000), minimum needed 21160',
  );
  assert.match(await sendErr(signTx(1, { nonce: n, to: DEV_ADDRS[0], gasLimit: 7_000_000n, data: new Uint8Array(140_000).fill(1) })), /^oversized data: transaction size \d+, limit 131072$/);
  // Hand-made type-2 envelope with tip > cap (libraries refuse to build one).
  const { RLP } = await import('@ethereumjs/rlp');
  const big = (x: bigint) => (x === 0n ? new Uint8Array() : Buffer.from(x.toString(16).padStart(Math.ceil(x.toString(16).length / 2) * 2, '0'), 'hex'));
  const body = RLP.encode([big(43210n), big(n), big(31_000_000_000n), big(30_000_000_000n), big(21000n), Buffer.from(DEV_ADDRS[0].slice(2), 'hex'), big(0n), new Uint8Array(), [], big(0n), big(1n), big(1n)]);
  assert.equal(await sendErr('0x02' + Buffer.from(body).toString('hex')), 'max priority fee per gas higher than max fee per gas');
});

test('raw bytes that are no transaction: geth\'s decoding errors, the node unchanged', async () => {
  const head = await rpc('eth_blockNumber');
  for (const raw of ['0x', '0x01', '0x7f', '0x03']) assert.equal(await sendErr(raw), 'typed transaction too short', raw);
  assert.equal(await sendErr('0xc0'), 'rlp: too few elements for types.LegacyTx');
  assert.equal(await sendErr('0x01c0'), 'rlp: too few elements for types.AccessListTx');
  assert.equal(await sendErr('0x02c0'), 'rlp: too few elements for types.DynamicFeeTx');
  assert.equal(await sendErr('0x02' + 'cd' + '01'.repeat(13)), 'rlp: input list has too many elements for types.DynamicFeeTx');
  assert.equal(await sendErr('0x0201'), 'rlp: expected input list for types.DynamicFeeTx');
  for (const type of ['00', '05', '7f']) assert.equal(await sendErr('0x' + type + 'c0'), 'transaction type not supported', type);
  // Integers with leading zero bytes, named as geth's decoder names them.
  const { RLP } = await import('@ethereumjs/rlp');
  const b = (hex: string) => Buffer.from(hex, 'hex');
  const to = b('00'.repeat(19) + '01');
  const legacy = RLP.encode([b('0001'), b('05'), b('5208'), to, b(''), b(''), b('1b'), b('01'), b('01')]);
  assert.equal(await sendErr('0x' + Buffer.from(legacy).toString('hex')), 'rlp: non-canonical integer (leading zero bytes) for uint64, decoding into (types.LegacyTx).Nonce');
  const dynamic = RLP.encode([b('a8ca'), b(''), b('01'), b('0005'), b('5208'), to, b(''), b(''), [], b(''), b('01'), b('01')]);
  assert.equal(await sendErr('0x02' + Buffer.from(dynamic).toString('hex')), 'rlp: non-canonical integer (leading zero bytes) for *big.Int, decoding into (types.DynamicFeeTx).GasFeeCap');
  // ethereumjs does not check a typed tx's chain id for leading zeros; geth does, and names it
  // before any later field.
  const zeroChain = RLP.encode([b('00a8ca'), b('0001'), b('01'), b('05'), b('5208'), to, b(''), b(''), [], b(''), b('01'), b('01')]);
  assert.equal(await sendErr('0x02' + Buffer.from(zeroChain).toString('hex')), 'rlp: non-canonical integer (leading zero bytes) for *big.Int, decoding into (types.DynamicFeeTx).ChainID');
  const zeroChain2930 = RLP.encode([b('00a8ca'), b(''), b('05'), b('5208'), to, b(''), b(''), [], b(''), b('01'), b('01')]);
  assert.equal(await sendErr('0x01' + Buffer.from(zeroChain2930).toString('hex')), 'rlp: non-canonical integer (leading zero bytes) for *big.Int, decoding into (types.AccessListTx).ChainID');
  // Fields of the wrong RLP kind or size, and malformed access lists (an entry that was a byte
  // string made ethereumjs fail with "Cannot read properties of undefined"): geth's decoder texts.
  const dyn = (over: Record<number, unknown>) => {
    const f: unknown[] = [b('a8ca'), b(''), b('01'), b('05'), b('5208'), to, b(''), b(''), [], b(''), b('01'), b('01')];
    for (const [i, v] of Object.entries(over)) f[Number(i)] = v;
    return '0x02' + Buffer.from(RLP.encode(f as never)).toString('hex');
  };
  const key = b('33'.repeat(32));
  const cases: [Record<number, unknown>, string][] = [
    [{ 8: [b('2b')] }, 'expected input list for types.AccessTuple, decoding into (types.DynamicFeeTx).AccessList[0]'],
    [{ 8: b('01') }, 'expected input list for types.AccessList, decoding into (types.DynamicFeeTx).AccessList'],
    [{ 8: [[]] }, 'too few elements for types.AccessTuple, decoding into (types.DynamicFeeTx).AccessList[0]'],
    [{ 8: [[to, [], b('')]] }, 'input list has too many elements for types.AccessTuple, decoding into (types.DynamicFeeTx).AccessList[0]'],
    [{ 8: [[to, []], [b('01'), []]] }, 'input string too short for common.Address, decoding into (types.DynamicFeeTx).AccessList[1].Address'],
    [{ 8: [[[to], []]] }, 'expected input string or byte for common.Address, decoding into (types.DynamicFeeTx).AccessList[0].Address'],
    [{ 8: [[to, key]] }, 'expected input list for []common.Hash, decoding into (types.DynamicFeeTx).AccessList[0].StorageKeys'],
    [{ 8: [[to, [key, b('33'.repeat(33))]]] }, 'input string too long for common.Hash, decoding into (types.DynamicFeeTx).AccessList[0].StorageKeys[1]'],
    [{ 1: [] }, 'expected input string or byte for uint64, decoding into (types.DynamicFeeTx).Nonce'],
    [{ 1: b('01'.repeat(9)) }, 'input string too long for uint64, decoding into (types.DynamicFeeTx).Nonce'],
    [{ 3: [b('01')] }, 'expected input string or byte for *big.Int, decoding into (types.DynamicFeeTx).GasFeeCap'],
    [{ 5: b('01'.repeat(21)) }, 'input string too long for common.Address, decoding into (types.DynamicFeeTx).To'],
    [{ 7: [] }, 'expected input string or byte for []uint8, decoding into (types.DynamicFeeTx).Data'],
  ];
  for (const [over, text] of cases) assert.equal(await sendErr(dyn(over)), `rlp: ${text}`, JSON.stringify(over));
  // A valid signed tx with a byte after it.
  const good = signTx(1, { nonce: await nonceOf(1), to: DEV_ADDRS[0], value: 1n });
  assert.equal(await sendErr(good + '00'), 'rlp: input contains more than one value');
  assert.equal(await rpc('eth_blockNumber'), head, 'nothing mined');
});

test('the hash answered for each tx type is the one ethereumjs computes from the decoded tx', async () => {
  // The node takes the hash from the raw bytes (they are the canonical serialization); the
  // package's own hash re-serializes the decoded tx.
  const { createTxFromRLP } = await import('@ethereumjs/tx');
  const { Mainnet, createCustomCommon } = await import('@ethereumjs/common');
  const common = createCustomCommon({ chainId: '43210' }, Mainnet, { hardfork: 'cancun' });
  const n = await nonceOf(2);
  const accessList = [{ address: '0x' + '5a'.repeat(20), storageKeys: ['0x' + '00'.repeat(31) + '07', '0x' + 'ff'.repeat(32)] }];
  const raws = [
    signTx(2, { type: 0, nonce: n, to: DEV_ADDRS[0], value: 1n }),
    signTx(2, { type: 1, nonce: n + 1n, to: DEV_ADDRS[0], value: 2n, gasLimit: 30_000n, accessList }),
    signTx(2, { type: 2, nonce: n + 2n, to: DEV_ADDRS[0], value: 3n, gasLimit: 30_000n, accessList, data: '0xdeadbeef' }),
    signTx(2, { type: 2, nonce: n + 3n, data: '0x600160005260206000f3', gasLimit: 100_000n }), // contract creation (no `to`)
  ];
  for (const raw of raws) {
    const expected = '0x' + Buffer.from(createTxFromRLP(Buffer.from(raw.slice(2), 'hex'), { common, freeze: false }).hash()).toString('hex');
    assert.equal(await rpc('eth_sendRawTransaction', [raw]), expected);
    const rc = await rpc('eth_getTransactionReceipt', [expected]);
    assert.equal(rc?.transactionHash, expected);
    assert.equal((await rpc('eth_getTransactionByHash', [expected]))?.hash, expected);
  }
});

test('transaction type not supported (blob tx), unprotected legacy tx refused', async () => {
  // A type-3 envelope: the pool refuses the type before decoding the rest.
  assert.equal(await sendErr('0x03' + 'c0'), 'transaction type not supported');
  const { createTx } = await import('@ethereumjs/tx');
  const { Mainnet, createCustomCommon } = await import('@ethereumjs/common');
  const common = createCustomCommon({ chainId: '43210' }, Mainnet, { hardfork: 'cancun' });
  const tx = createTx({ type: 0, nonce: await nonceOf(1), gasLimit: 21000n, gasPrice: 30_000_000_000n, to: DEV_ADDRS[0] as `0x${string}` }, { common });
  // Sign without EIP-155 (v = 27/28) by using a pre-Spurious-Dragon common.
  const old = createCustomCommon({ chainId: '43210' }, Mainnet, { hardfork: 'tangerineWhistle' });
  const unprotected = createTx({ ...tx.toJSON(), type: 0 } as never, { common: old }).sign(Buffer.from('59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d', 'hex'));
  assert.equal(await sendErr('0x' + Buffer.from(unprotected.serialize()).toString('hex')), 'only replay-protected (EIP-155) transactions allowed over RPC');
  // geth's SubmitTransaction checks the fee cap (rpc-tx-fee-cap) before the replay protection.
  const costly = createTx({ type: 0, nonce: 0n, gasLimit: 21000n, gasPrice: 10n ** 16n, to: DEV_ADDRS[0] as `0x${string}` }, { common: old }).sign(Buffer.from('59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d', 'hex'));
  assert.equal(await sendErr('0x' + Buffer.from(costly.serialize()).toString('hex')), 'tx fee (210.00 ether) exceeds the configured cap (100.00 ether)');
});

test('nonce gaps queue; replacement needs a 10 % bump; already known; filling the gap mines both', async () => {
  await rpc('evm_setAutomine', [false]);
  try {
    const n = await nonceOf(2);
    const queued = signTx(2, { nonce: n + 1n, to: DEV_ADDRS[0], value: 2n });
    const qh = await rpc('eth_sendRawTransaction', [queued]);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x0', queued: '0x1' });
    assert.equal(await sendErr(queued), 'already known');
    const first = signTx(2, { nonce: n, to: DEV_ADDRS[0], value: 1n, maxFeePerGas: 30_000_000_000n });
    await rpc('eth_sendRawTransaction', [first]);
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x2', queued: '0x0' });
    assert.equal(await sendErr(signTx(2, { nonce: n, to: DEV_ADDRS[0], value: 5n, maxFeePerGas: 32_000_000_000n })), 'replacement transaction underpriced');
    const repl = await rpc('eth_sendRawTransaction', [signTx(2, { nonce: n, to: DEV_ADDRS[0], value: 5n, maxFeePerGas: 33_000_000_000n, maxPriorityFeePerGas: 1n })]);
    const content = await rpc('txpool_content');
    const mine = content.pending['0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'];
    assert.equal(mine[n.toString()].hash, repl);
    assert.equal(await rpc('eth_getTransactionCount', [DEV_ADDRS[2], 'pending']), '0x' + (n + 2n).toString(16));
    await rpc('evm_mine');
    assert.deepEqual(await rpc('txpool_status'), { pending: '0x0', queued: '0x0' });
    const r1 = await rpc('eth_getTransactionReceipt', [repl]);
    const r2 = await rpc('eth_getTransactionReceipt', [qh]);
    assert.equal(r1.blockNumber, r2.blockNumber, 'both in one block');
    assert.equal(r1.transactionIndex, '0x0');
    assert.equal(r2.transactionIndex, '0x1');
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
});

test('replacement thresholds are geth\'s: old × 110 / 100 rounded down, for the fee cap and the tip', async () => {
  // A gapped nonce stays queued, so it can be replaced at leisure; filling the gap mines it.
  const n = await nonceOf(2);
  const tx = (cap: bigint, tip: bigint) => signTx(2, { nonce: n + 1n, to: DEV_ADDRS[0], maxFeePerGas: cap, maxPriorityFeePerGas: tip });
  await rpc('eth_sendRawTransaction', [tx(25_000_000_015n, 15n)]);
  // Thresholds: ⌊25,000,000,015 × 110 / 100⌋ = 27,500,000,016 and ⌊15 × 110 / 100⌋ = 16.
  assert.equal(await sendErr(tx(27_500_000_015n, 16n)), 'replacement transaction underpriced');
  assert.equal(await sendErr(tx(27_500_000_016n, 15n)), 'replacement transaction underpriced');
  const h = await rpc('eth_sendRawTransaction', [tx(27_500_000_016n, 16n)]);
  const queued = (await rpc('txpool_content')).queued['0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'];
  assert.equal(queued[(n + 1n).toString()].hash, h);
  await rpc('eth_sendRawTransaction', [signTx(2, { nonce: n, to: DEV_ADDRS[0] })]);
  assert.equal((await rpc('eth_getTransactionReceipt', [h])).status, '0x1');
  assert.deepEqual(await rpc('txpool_status'), { pending: '0x0', queued: '0x0' });
});

test('many concurrent txs from several senders all land, several per block', async () => {
  const nonces = await Promise.all([0, 1, 2].map(nonceOf));
  const raws: string[] = [];
  for (let k = 0; k < 20; k++) for (let i = 0; i < 3; i++) raws.push(signTx(i, { nonce: nonces[i] + BigInt(k), to: DEV_ADDRS[(i + 1) % 3], value: 1n }));
  const start = BigInt(await rpc('eth_blockNumber'));
  // Per sender in nonce order; senders interleaved and concurrent.
  const bySender = [0, 1, 2].map((i) => raws.filter((_, j) => j % 3 === i));
  const hashes = (await Promise.all(bySender.map(async (list) => { const out = []; for (const r of list) out.push(await rpc('eth_sendRawTransaction', [r])); return out; }))).flat();
  for (const h of hashes) assert.equal((await rpc('eth_getTransactionReceipt', [h])).status, '0x1');
  for (let i = 0; i < 3; i++) assert.equal(await nonceOf(i), nonces[i] + 20n);
  const end = BigInt(await rpc('eth_blockNumber'));
  assert.ok(end - start <= 60n);
});

test('automine: a gapped tx is answered at once and mined when the gap is filled', async () => {
  const n = await nonceOf(0);
  const later = await rpc('eth_sendRawTransaction', [signTx(0, { nonce: n + 1n, to: DEV_ADDRS[1], value: 3n })]);
  assert.equal(await rpc('eth_getTransactionReceipt', [later]), null);
  assert.deepEqual(await rpc('txpool_status'), { pending: '0x0', queued: '0x1' });
  const first = await rpc('eth_sendRawTransaction', [signTx(0, { nonce: n, to: DEV_ADDRS[1], value: 3n })]);
  assert.equal((await rpc('eth_getTransactionReceipt', [first])).status, '0x1');
  assert.equal((await rpc('eth_getTransactionReceipt', [later])).status, '0x1');
  assert.equal(await nonceOf(0), n + 2n);
});

test('insufficient funds counting the sender\'s executable txs in the pool (geth\'s queued cost); a replacement counts its extra cost only', async () => {
  const who = DEV_ADDRS[2];
  const before = await rpc('eth_getBalance', [who, 'latest']);
  await rpc('anvil_setBalance', [who, '0x' + (10n ** 15n).toString(16)]);
  await rpc('evm_setAutomine', [false]);
  try {
    const nonce = await nonceOf(2);
    const cost = 21000n * 30_000_000_000n; // gas × the default max fee of signTx
    await rpc('eth_sendRawTransaction', [signTx(2, { nonce, to: DEV_ADDRS[1] })]);
    assert.equal(
      await sendErr(signTx(2, { nonce: nonce + 1n, to: DEV_ADDRS[1] })),
      `insufficient funds for gas * price + value: balance ${10n ** 15n}, queued cost ${cost}, tx cost ${cost}, overshot ${2n * cost - 10n ** 15n}`,
    );
    // Replacing the pending tx with a 20 % higher fee cap needs only the difference.
    const bumped = signTx(2, { nonce, to: DEV_ADDRS[1], maxFeePerGas: 36_000_000_000n, maxPriorityFeePerGas: 1n });
    assert.match(await rpc('eth_sendRawTransaction', [bumped]), /^0x[0-9a-f]{64}$/);
  } finally {
    await rpc('evm_setAutomine', [true]);
    await rpc('evm_mine', []);
    await rpc('anvil_setBalance', [who, before]);
  }
});

test('a queued tx is announced (pending-tx filter) only once its gap is filled, as geth announces promoted txs', async () => {
  await rpc('evm_setAutomine', [false]);
  try {
    const id = await rpc('eth_newPendingTransactionFilter');
    const n = await nonceOf(1);
    const later = await rpc('eth_sendRawTransaction', [signTx(1, { nonce: n + 1n, to: DEV_ADDRS[0] })]);
    assert.deepEqual(await rpc('eth_getFilterChanges', [id]), [], 'queued: not announced');
    const first = await rpc('eth_sendRawTransaction', [signTx(1, { nonce: n, to: DEV_ADDRS[0] })]);
    assert.deepEqual(await rpc('eth_getFilterChanges', [id]), [first, later], 'both once executable, in nonce order');
    // A replacement of an executable tx is announced at once.
    const repl = await rpc('eth_sendRawTransaction', [signTx(1, { nonce: n + 1n, to: DEV_ADDRS[0], maxFeePerGas: 40_000_000_000n, maxPriorityFeePerGas: 1n })]);
    assert.deepEqual(await rpc('eth_getFilterChanges', [id]), [repl]);
    await rpc('eth_uninstallFilter', [id]);
  } finally {
    await rpc('evm_setAutomine', [true]);
    await rpc('evm_mine', []);
  }
});
