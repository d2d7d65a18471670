// geth's (Subnet-EVM's) error texts where ethereumjs' own used to reach the client: each test
// pins one place the seeded fuzz (fuzz.test.ts) found, over real HTTP against a dev node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RLP } from '@ethereumjs/rlp';
import { hexToBytes, keccak256, toHex, type Hex } from 'viem';
import { privateKeyToAccount, sign } from 'viem/accounts';
import { startDevNode, rawRpc, KEY0, ADDR0, KEY1, ADDR1, type DevNode } from './setup.js';

let dev: DevNode;
let configDir: string;

const call = (method: string, params: unknown[] = []) => rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 1, method, params });

async function expectError(method: string, params: unknown[], message: string | RegExp, code = -32000): Promise<void> {
  const r = await call(method, params);
  assert.ok(r.error, `${method} ${JSON.stringify(params).slice(0, 200)} answered ${JSON.stringify(r.result)}`);
  assert.equal(r.error.code, code, r.error.message);
  if (typeof message === 'string') assert.equal(r.error.message, message);
  else assert.match(r.error.message, message);
}

const APIS = ['eth', 'eth-filter', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction', 'internal-account', 'internal-tx-pool', 'debug-tracer'];

before(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'powder-chaincfg-'));
  mkdirSync(join(configDir, 'dev'));
  writeFileSync(join(configDir, 'dev', 'config.json'), JSON.stringify({ 'eth-apis': APIS }));
  dev = await startDevNode({ 'chain-config-dir': configDir, 'db-type': 'memdb' });
});

after(async () => {
  await dev?.stop();
  rmSync(configDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// 1. Raw transactions with signature values geth's signer refuses

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const int = (n: bigint) => (n === 0n ? new Uint8Array() : hexToBytes(toHex(n)));
const num = (b: Uint8Array) => (b.length ? BigInt(toHex(b)) : 0n);

/** A signed raw tx of `type` with its last three fields (V/yParity, R, S) replaced by `sig`. */
async function withSignature(type: 'legacy' | 'eip2930' | 'eip1559', sig: (v: bigint, r: bigint, s: bigint) => [Uint8Array, Uint8Array, Uint8Array], fee = 10n ** 11n): Promise<Hex> {
  const base = { chainId: dev.chainId, nonce: 0, to: ADDR1, value: 1n, gas: 21000n } as const;
  const account = privateKeyToAccount(KEY0);
  const signed =
    type === 'eip1559'
      ? await account.signTransaction({ ...base, type, maxFeePerGas: fee, maxPriorityFeePerGas: 1n })
      : await account.signTransaction({ ...base, type, gasPrice: fee });
  const bytes = hexToBytes(signed);
  const typed = bytes[0] <= 0x7f;
  const fields = RLP.decode(typed ? bytes.subarray(1) : bytes) as Uint8Array[];
  const [v, r, s] = fields.slice(-3).map(num);
  const body = RLP.encode([...fields.slice(0, -3), ...sig(v, r, s)]);
  return toHex(typed ? new Uint8Array([bytes[0], ...body]) : body);
}

test('eth_sendRawTransaction: signature values geth refuses are `invalid sender` (the pool\'s types.Sender), not ethereumjs texts', async () => {
  const bad: [string, 'legacy' | 'eip2930' | 'eip1559', (v: bigint, r: bigint, s: bigint) => [Uint8Array, Uint8Array, Uint8Array]][] = [];
  for (const type of ['legacy', 'eip2930', 'eip1559'] as const) {
    bad.push(
      [`${type} r = 0`, type, (v, _r, s) => [int(v), int(0n), int(s)]],
      [`${type} s = 0`, type, (v, r) => [int(v), int(r), int(0n)]],
      [`${type} s = N`, type, (v, r) => [int(v), int(r), int(N)]],
      [`${type} r = N`, type, (v, _r, s) => [int(v), int(N), int(s)]],
      [`${type} r = 2^256-1`, type, (v, _r, s) => [int(v), int(2n ** 256n - 1n), int(s)]],
      [`${type} high s (EIP-2)`, type, (v, r, s) => [int(v), int(r), int(N - s)]],
      [`${type} r of 33 bytes`, type, (v, _r, s) => [int(v), new Uint8Array(33).fill(1), int(s)]],
      [`${type} s of 33 bytes`, type, (v, r) => [int(v), int(r), new Uint8Array(33).fill(1)]],
    );
  }
  for (const type of ['eip2930', 'eip1559'] as const) {
    bad.push(
      [`${type} yParity 2`, type, (_v, r, s) => [int(2n), int(r), int(s)]],
      [`${type} yParity 27`, type, (_v, r, s) => [int(27n), int(r), int(s)]],
      [`${type} yParity of 33 bytes`, type, (_v, r, s) => [new Uint8Array(33).fill(1), int(r), int(s)]],
    );
  }
  // Legacy V values geth takes as EIP-155 protected (any but 0, 1, 27, 28) for another chain id.
  for (const v of [29n, 35n, 36n, 2n ** 70n]) bad.push([`legacy v = ${v}`, 'legacy', (_v, r, s) => [int(v), int(r), int(s)]]);
  bad.push(['legacy v + 2 (the next chain id)', 'legacy', (v, r, s) => [int(v + 2n), int(r), int(s)]]);
  for (const [name, type, sig] of bad) {
    const r = await call('eth_sendRawTransaction', [await withSignature(type, sig)]);
    assert.deepEqual(r.error, { code: -32000, message: 'invalid sender' }, name);
  }
});

test('eth_sendRawTransaction: legacy V 0, 1, 27, 28 is unprotected, refused before any signature check', async () => {
  for (const v of [0n, 1n, 27n, 28n]) {
    const raw = await withSignature('legacy', (_v, r, s) => [int(v), int(r), int(s)]);
    await expectError('eth_sendRawTransaction', [raw], 'only replay-protected (EIP-155) transactions allowed over RPC');
  }
});

test('eth_sendRawTransaction: a bad signature is found after the fee cap check, as geth\'s SubmitTransaction does', async () => {
  const raw = await withSignature('eip1559', (v, r) => [int(v), int(r), int(N)], 10n ** 16n); // 210 ether of fees
  await expectError('eth_sendRawTransaction', [raw], 'tx fee (210.00 ether) exceeds the configured cap (100.00 ether)');
});

test('eth_sendRawTransaction: a good signature still goes through', async () => {
  const raw = await withSignature('eip1559', (v, r, s) => [int(v), int(r), int(s)]);
  const r = await call('eth_sendRawTransaction', [raw]);
  assert.match(r.result, /^0x[0-9a-f]{64}$/, JSON.stringify(r.error));
});

// ---------------------------------------------------------------------------------------------
// 4. Tracer names that are JavaScript globals or Object.prototype members

test('debug_traceCall / debug_traceTransaction: a tracer name goja\'s global scope defines is a value without result(), not an unknown name', async () => {
  const msg = { from: ADDR0, to: ADDR1, value: '0x1' };
  const hash = (await call('eth_sendTransaction', [msg])).result as string;
  assert.match(hash, /^0x[0-9a-f]{64}$/);
  for (const tracer of ['constructor', 'toString', '__proto__', 'Object', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'Array', 'eval', 'NaN', 'toHex']) {
    await expectError('debug_traceCall', [msg, 'latest', { tracer }], 'trace object must expose a function result()');
    await expectError('debug_traceTransaction', [hash, { tracer }], 'trace object must expose a function result()');
  }
  // null and undefined make goja's ToObject panic: the RPC server's panic guard answers.
  for (const tracer of ['undefined', 'null']) await expectError('debug_traceCall', [msg, 'latest', { tracer }], 'method handler crashed', -32603);
  // Unknown names (not defined in the JS engine) answer as before; the native tracers work.
  for (const tracer of ['nosuchTracer', 'hasOwn', 'process', 'require']) {
    await expectError('debug_traceCall', [msg, 'latest', { tracer }], `ReferenceError: ${tracer} is not defined at <eval>:1:1(0)`);
    await expectError('debug_traceTransaction', [hash, { tracer }], `ReferenceError: ${tracer} is not defined at <eval>:1:1(0)`);
  }
  const r = await call('debug_traceCall', [msg, 'latest', { tracer: 'callTracer' }]);
  assert.equal(r.result?.type, 'CALL', JSON.stringify(r.error));
});

// ---------------------------------------------------------------------------------------------
// 2. Huge gas × price on the signing paths

/** Go's `%.2f` of the float64 nearest price × gas / 1e18 (for fees far above 1e21 ether). */
const bigFee = (price: bigint, gas: bigint) => BigInt(Number((price * gas) / 10n ** 18n)).toString() + '.00';

test('eth_sendTransaction: a gas × price past 2^256 meets geth\'s fee cap check (not ethereumjs\' MAX_INTEGER text), every digit as Go prints it', async () => {
  const gas = 2n ** 64n - 1n;
  for (const [price, fees] of [
    [2n ** 200n, { gasPrice: toHex(2n ** 200n) }],
    [2n ** 200n, { maxFeePerGas: toHex(2n ** 200n), maxPriorityFeePerGas: '0x1' }],
    [2n ** 255n, { gasPrice: toHex(2n ** 255n) }],
  ] as const) {
    const r = await call('eth_sendTransaction', [{ from: ADDR0, to: ADDR1, gas: toHex(gas), ...fees }]);
    assert.deepEqual(r.error, { code: -32000, message: `tx fee (${bigFee(price, gas)} ether) exceeds the configured cap (100.00 ether)` });
  }
  // Below 2^256 but above 1e21 ether: Go's %.2f, not JavaScript's exponent.
  const price = 2n ** 130n;
  await expectError('eth_sendTransaction', [{ from: ADDR0, to: ADDR1, gas: '0x5208', gasPrice: toHex(price) }], `tx fee (${bigFee(price, 21000n)} ether) exceeds the configured cap (100.00 ether)`);
  assert.match(bigFee(price, 21000n), /^\d{26,}\.00$/);
  // eth_signTransaction checks the cap on the filled tx before signing, as eth_sendTransaction does.
  const huge = { from: ADDR0, to: ADDR1, gas: toHex(gas), gasPrice: toHex(2n ** 200n), nonce: '0x0' };
  await expectError('eth_signTransaction', [huge], `tx fee (${bigFee(2n ** 200n, gas)} ether) exceeds the configured cap (100.00 ether)`);
  // A small fee over the cap keeps its two decimals.
  await expectError('eth_sendTransaction', [{ from: ADDR0, to: ADDR1, gas: '0x5208', gasPrice: toHex(5n * 10n ** 15n + 1n) }], 'tx fee (105.00 ether) exceeds the configured cap (100.00 ether)');
});

// ---------------------------------------------------------------------------------------------
// 5. A nonce of 2^64-1 and a gas × price past 2^256: values geth's types hold, ethereumjs' refuse

const MAX_NONCE = 2n ** 64n - 1n;
const bytes = (h: string) => hexToBytes(h as Hex);

/** A raw tx signed with `key`, encoded by hand (viem and ethereumjs refuse these values). */
async function handSigned(key: Hex, chainId: number, f: { type: 0 | 2; nonce: bigint; gas: bigint; price: bigint; tip?: bigint; to: string; value?: bigint }): Promise<Hex> {
  const id = BigInt(chainId);
  if (f.type === 2) {
    const body = [int(id), int(f.nonce), int(f.tip ?? 0n), int(f.price), int(f.gas), bytes(f.to), int(f.value ?? 0n), new Uint8Array(), []];
    const sig = await sign({ hash: keccak256(new Uint8Array([2, ...RLP.encode(body)])), privateKey: key });
    return toHex(new Uint8Array([2, ...RLP.encode([...body, int(BigInt(sig.yParity!)), int(BigInt(sig.r)), int(BigInt(sig.s))])]));
  }
  const body = [int(f.nonce), int(f.price), int(f.gas), bytes(f.to), int(f.value ?? 0n), new Uint8Array()];
  const sig = await sign({ hash: keccak256(RLP.encode([...body, int(id), int(0n), int(0n)])), privateKey: key });
  return toHex(RLP.encode([...body, int(BigInt(sig.yParity!) + 35n + 2n * id), int(BigInt(sig.r)), int(BigInt(sig.s))]));
}

test('eth_sendRawTransaction / eth_sendTransaction: a nonce of 2^64-1 is queued behind the sender\'s nonce, as geth\'s pool does (not ethereumjs\' MAX_UINT64 text)', async () => {
  const raw = await handSigned(KEY1, dev.chainId, { type: 2, nonce: MAX_NONCE, gas: 21000n, price: 10n ** 11n, tip: 1n, to: ADDR0, value: 1n });
  const r = await call('eth_sendRawTransaction', [raw]);
  assert.equal(r.result, keccak256(raw), JSON.stringify(r.error));
  const queued = (await call('txpool_contentFrom', [ADDR1])).result.queued;
  assert.equal(queued['18446744073709551615']?.hash, r.result);
  assert.equal(queued['18446744073709551615'].nonce, '0xffffffffffffffff');
  assert.equal((await call('eth_getTransactionByHash', [r.result])).result?.blockHash, null);
  // The sender's next tx is mined; the gapped one stays queued.
  const next = (await call('eth_sendTransaction', [{ from: ADDR1, to: ADDR0, value: '0x1' }])).result;
  assert.equal((await call('eth_getTransactionReceipt', [next])).result?.status, '0x1');
  assert.equal((await call('eth_getTransactionReceipt', [r.result])).result, null);
  assert.ok((await call('txpool_contentFrom', [ADDR1])).result.queued['18446744073709551615']);
  // Signed by the node: eth_signTransaction and eth_sendTransaction take the nonce too.
  const from = (await call('eth_accounts')).result[2] as string;
  const args = { from, to: ADDR0, value: '0x1', nonce: '0xffffffffffffffff', gas: '0x5208', gasPrice: toHex(10n ** 11n) };
  const signed = (await call('eth_signTransaction', [args])).result;
  assert.equal(signed?.tx.nonce, '0xffffffffffffffff');
  const sent = await call('eth_sendTransaction', [args]);
  assert.equal(sent.result, signed.tx.hash, JSON.stringify(sent.error));
  const status = (await call('txpool_status')).result;
  assert.equal(status.queued, '0x2');
  assert.equal((await call('eth_fillTransaction', [args])).result?.tx.nonce, '0xffffffffffffffff');
  // A second tx at that nonce is a replacement, with geth's price-bump rule.
  await expectError('eth_sendRawTransaction', [await handSigned(KEY1, dev.chainId, { type: 0, nonce: MAX_NONCE, gas: 21000n, price: 10n ** 11n, to: ADDR0 })], 'replacement transaction underpriced');
  // Calls ignore the nonce (geth's SkipAccountChecks).
  const msg = { from: ADDR1, to: ADDR0, value: '0x1', nonce: '0xffffffffffffffff' };
  assert.equal((await call('eth_call', [msg])).result, '0x');
  assert.equal((await call('eth_estimateGas', [msg])).result, '0x5208');
  assert.deepEqual((await call('eth_createAccessList', [msg])).result, { accessList: [], gasUsed: '0x5208' });
});

test('an account whose own nonce is 2^64-1: calls run (SkipAccountChecks), its tx is taken but never mined (geth\'s ErrNonceMax), the pending nonce wraps to 0', async () => {
  const from = (await call('eth_accounts')).result[3] as string;
  assert.equal((await call('anvil_setNonce', [from, '0xffffffffffffffff'])).result, null);
  const msg = { from, to: ADDR0, value: '0x1' };
  assert.equal((await call('eth_call', [msg])).result, '0x');
  assert.equal((await call('eth_estimateGas', [msg])).result, '0x5208');
  // A creation from it: geth's evm.create refuses the nonce overflow (ErrNonceUintOverflow),
  // returning the gas, so only the intrinsic gas is used (53,000 + 2 zero bytes + 1 initcode word).
  const create = { from, data: '0x0000' };
  await expectError('eth_call', [create], 'nonce uint64 overflow');
  await expectError('eth_estimateGas', [create], 'nonce uint64 overflow');
  assert.deepEqual((await call('eth_createAccessList', [create])).result, { accessList: [], error: 'nonce uint64 overflow', gasUsed: toHex(53_000n + 8n + 2n) });
  const hash = (await call('eth_sendTransaction', [msg])).result;
  assert.match(hash, /^0x[0-9a-f]{64}$/);
  // Another sender's tx is mined; this one stays pending (the builder skips it, as geth's miner).
  const other = (await call('eth_sendTransaction', [{ from: ADDR0, to: ADDR1, value: '0x1' }])).result;
  assert.equal((await call('eth_getTransactionReceipt', [other])).result?.status, '0x1');
  assert.equal((await call('eth_getTransactionReceipt', [hash])).result, null);
  assert.equal((await call('txpool_contentFrom', [from])).result.pending['18446744073709551615']?.hash, hash);
  assert.equal((await call('eth_getTransactionCount', [from, 'latest'])).result, '0xffffffffffffffff');
  // geth's pool counts the next nonce in a uint64: 2^64-1 + 1 is 0.
  assert.equal((await call('eth_getTransactionCount', [from, 'pending'])).result, '0x0');
  await expectError('eth_sendTransaction', [msg], 'nonce too low: next nonce 18446744073709551615, tx nonce 0');
});

test('eth_sendRawTransaction: a gas × price past 2^256 meets the fee cap (geth decodes it), not ethereumjs\' MAX_INTEGER text', async () => {
  for (const type of [0, 2] as const) {
    const raw = await handSigned(KEY1, dev.chainId, { type, nonce: 5n, gas: 21000n, price: 2n ** 250n, to: ADDR0 });
    await expectError('eth_sendRawTransaction', [raw], `tx fee (${bigFee(2n ** 250n, 21000n)} ether) exceeds the configured cap (100.00 ether)`);
  }
});

/** geth's hash of the unsigned tx (V, R, S zero) its args.toTransaction() builds for eth_createAccessList. */
function unsignedHash(f: { type: 1 | 2; nonce: bigint; gas: bigint; price: bigint; tip?: bigint; to: string; value?: bigint; accessList?: [string, string[]][] }): Hex {
  const fees = f.type === 2 ? [int(f.tip ?? 0n), int(f.price)] : [int(f.price)];
  const al = (f.accessList ?? []).map(([a, keys]) => [bytes(a), keys.map(bytes)]);
  const body = [int(BigInt(dev.chainId)), int(f.nonce), ...fees, int(f.gas), bytes(f.to), int(f.value ?? 0n), new Uint8Array(), al, int(0n), int(0n), int(0n)];
  return keccak256(new Uint8Array([f.type, ...RLP.encode(body)]));
}

test('eth_createAccessList: a failed state-transition check is `failed to apply transaction: <hash> err: <error>` with the hash of geth\'s unsigned tx', async () => {
  const poor = '0x000000000000000000000000000000000000dEaD';
  const gas = 50_000_000n; // rpc-gas-cap: geth's default gas for eth_createAccessList
  const baseFee = BigInt((await call('eth_getBlockByNumber', ['latest', false])).result.baseFeePerGas);
  // Zero fees: buyGas wants the value alone.
  let h = unsignedHash({ type: 2, nonce: 0n, gas, price: 0n, to: ADDR1, value: 1000n });
  await expectError('eth_createAccessList', [{ from: poor, to: ADDR1, value: '0x3e8', maxFeePerGas: '0x0', maxPriorityFeePerGas: '0x0' }], `failed to apply transaction: ${h} err: insufficient funds for gas * price + value: address ${poor} have 0 want 1000`);
  // No fees: setDefaults fills the suggested tip and tip + 2 × the next base fee, so a poor sender
  // cannot pay for the gas cap; the hash is of the dynamic-fee tx with those fees.
  const r = await call('eth_createAccessList', [{ from: poor, to: ADDR1, value: '0x3e8' }]);
  const want = BigInt(/ have 0 want (\d+)$/.exec(r.error?.message ?? '')?.[1] ?? '-1');
  const tip = BigInt((await call('eth_maxPriorityFeePerGas')).result);
  h = unsignedHash({ type: 2, nonce: 0n, gas, price: (want - 1000n) / gas, tip, to: ADDR1, value: 1000n });
  assert.equal(r.error?.message, `failed to apply transaction: ${h} err: insufficient funds for gas * price + value: address ${poor} have 0 want ${want}`);
  assert.ok((want - 1000n) / gas >= 2n * baseFee);
  // A gas price: an access-list tx (geth's args carry the list by then), fee cap below the base fee.
  h = unsignedHash({ type: 1, nonce: 0n, gas, price: 1n, to: ADDR1 });
  await expectError('eth_createAccessList', [{ from: poor, to: ADDR1, gasPrice: '0x1' }], `failed to apply transaction: ${h} err: max fee per gas less than block base fee: address ${poor}, maxFeePerGas: 1, baseFee: ${baseFee}`);
  // Intrinsic gas, from a sender with a pending nonce; the given list without `from` (no slots).
  const nonce = BigInt((await call('eth_getTransactionCount', [ADDR0, 'pending'])).result);
  const slot = toHex(0n, { size: 32 });
  const fees = { maxFeePerGas: toHex(10n ** 11n), maxPriorityFeePerGas: '0x2' };
  h = unsignedHash({ type: 2, nonce, gas: 256n, price: 10n ** 11n, tip: 2n, to: ADDR1 });
  await expectError('eth_createAccessList', [{ from: ADDR0, to: ADDR1, gas: '0x100', ...fees }], `failed to apply transaction: ${h} err: intrinsic gas too low: have 256, want 21000`);
  const accessList = [{ address: ADDR0, storageKeys: [] }, { address: poor, storageKeys: [slot] }];
  h = unsignedHash({ type: 2, nonce, gas: 21000n, price: 10n ** 11n, tip: 2n, to: ADDR1, accessList: [[poor, [slot]]] });
  await expectError('eth_createAccessList', [{ from: ADDR0, to: ADDR1, gas: '0x5208', ...fees, accessList }], `failed to apply transaction: ${h} err: intrinsic gas too low: have 21000, want 25300`);
  // setDefaults' own errors are answered as they are (geth formats the *hexutil.Big in hex).
  await expectError('eth_createAccessList', [{ from: poor, to: ADDR1, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }], 'maxFeePerGas (0x1) < maxPriorityFeePerGas (0x2)');
  // No nonce check (ToMessage's SkipAccountChecks): any nonce gives the list.
  for (const n of ['0x0', '0x100']) assert.deepEqual((await call('eth_createAccessList', [{ from: ADDR0, to: ADDR1, nonce: n }])).result, { accessList: [], gasUsed: '0x5208' });
});

test('rpc-tx-fee-cap 0: a gas × price past 2^256 is filled and signed (geth\'s big.Int), then refused by the pool in its words', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-chaincfg-'));
  mkdirSync(join(dir, 'dev'));
  writeFileSync(join(dir, 'dev', 'config.json'), JSON.stringify({ 'eth-apis': APIS, 'rpc-tx-fee-cap': 0 }));
  const node = await startDevNode({ 'chain-config-dir': dir, 'db-type': 'memdb' });
  const ask = (method: string, params: unknown[]) => rawRpc(node.rpcURL, { jsonrpc: '2.0', id: 1, method, params });
  try {
    const gas = MAX_NONCE; // 2^64-1
    const price = 2n ** 200n;
    const nonce = BigInt((await ask('eth_getTransactionCount', [ADDR0, 'pending'])).result);
    const args = { from: ADDR0, to: ADDR1, gas: toHex(gas), gasPrice: toHex(price) };
    // eth_fillTransaction: the unsigned legacy tx (geth's FillTransaction checks no fee cap).
    const filled = await ask('eth_fillTransaction', [args]);
    const raw = toHex(RLP.encode([int(nonce), int(price), int(gas), bytes(ADDR1), int(0n), new Uint8Array(), int(0n), int(0n), int(0n)]));
    assert.equal(filled.result?.raw, raw, JSON.stringify(filled.error));
    assert.equal(filled.result.tx.hash, keccak256(raw));
    assert.equal(filled.result.tx.gas, '0xffffffffffffffff');
    assert.equal(filled.result.tx.gasPrice, toHex(price));
    const dyn = await ask('eth_fillTransaction', [{ from: ADDR0, to: ADDR1, gas: toHex(gas), maxFeePerGas: toHex(price), maxPriorityFeePerGas: '0x1' }]);
    assert.equal(dyn.result?.tx.maxFeePerGas, toHex(price), JSON.stringify(dyn.error));
    // eth_signTransaction signs it; the pool checks the sender, then finds the balance short.
    const small = { ...args, gas: '0x5208', gasPrice: toHex(2n ** 250n), nonce: toHex(nonce) };
    const signed = await ask('eth_signTransaction', [small]);
    assert.equal(signed.result?.tx.gasPrice, toHex(2n ** 250n), JSON.stringify(signed.error));
    const balance = BigInt((await ask('eth_getBalance', [ADDR0, 'latest'])).result);
    const cost = 21000n * 2n ** 250n;
    const short = `insufficient funds for gas * price + value: balance ${balance}, tx cost ${cost}, overshot ${cost - balance}`;
    assert.deepEqual((await ask('eth_sendRawTransaction', [signed.result.raw])).error, { code: -32000, message: short });
    assert.deepEqual((await ask('eth_sendTransaction', [small])).error, { code: -32000, message: short });
    const limit = BigInt((await ask('eth_getBlockByNumber', ['latest', false])).result.gasLimit);
    assert.deepEqual((await ask('eth_sendTransaction', [args])).error, { code: -32000, message: `exceeds block gas limit: tx gas (${gas}) > current max gas (${limit})` });
  } finally {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('eth_fillTransaction checks no fee cap (as geth\'s FillTransaction): a gas × price past 2^256 is filled with the default cap too', async () => {
  const r = await call('eth_fillTransaction', [{ from: ADDR0, to: ADDR1, gas: '0xffffffffffffffff', gasPrice: toHex(2n ** 200n) }]);
  assert.equal(r.result?.tx.gas, '0xffffffffffffffff', JSON.stringify(r.error));
  assert.equal(r.result.tx.hash, keccak256(r.result.raw));
});

test('eth_sendRawTransaction: a creation with initcode over 49,152 bytes meets the pool\'s check in geth\'s words (not the decoder\'s)', async () => {
  const account = privateKeyToAccount(KEY1);
  const nonce = BigInt((await call('eth_getTransactionCount', [ADDR1, 'pending'])).result);
  const data = toHex(new Uint8Array(49_153));
  const raw = await account.signTransaction({ chainId: dev.chainId, type: 'eip1559', nonce: Number(nonce), gas: 7_000_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, data });
  await expectError('eth_sendRawTransaction', [raw], 'max initcode size exceeded: code size 49153, limit 49152');
  // eth_sendTransaction reaches the same check.
  const r = await call('eth_sendTransaction', [{ from: ADDR1, data, gas: '0x6acfc0' }]);
  assert.equal(r.error?.message, 'max initcode size exceeded: code size 49153, limit 49152');
});
