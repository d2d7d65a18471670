// Fees over real HTTP (reference subnet-evm.md §7, §8.6): a FeeManager change shows in the next
// block's gas limit and base fee and in eth_feeConfig's lastChangedAt; base fees, fee windows
// (extraData) and block gas costs of blocks mined at controlled timestamps equal the reference's
// formulas (§7.4, §7.6) and worked examples (§7.11). The expected numbers are computed here from
// the reference's pseudo-code, independently of src/evm/fees, and the key ones are literals.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFunctionData, parseAbi, toFunctionSelector } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startTestNode, type TestNode } from '../../../test/helpers.js';

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027' as const;
const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const ADDR1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const FEE_MANAGER = '0x0200000000000000000000000000000000000003';
/** INVALID (0xfe): consumes all the gas it is given, so a tx's gasUsed = its gas limit. */
const BURNER = '0x000000000000000000000000000000000000b0b0';
const G0 = 1607144400; // genesis timestamp (0x5FCB13D0), local-network Durango/Etna/Granite time

const DEFAULT_FEES = { gasLimit: 8_000_000n, targetBlockRate: 2n, minBaseFee: 25_000_000_000n, targetGas: 15_000_000n, baseFeeChangeDenominator: 36n, minBlockGasCost: 0n, maxBlockGasCost: 1_000_000n, blockGasCostStep: 200_000n };
const feeJSON = (f: typeof DEFAULT_FEES) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, Number(v)]));

function genesis(chainId: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    config: { chainId, feeConfig: feeJSON(DEFAULT_FEES), ...extra },
    alloc: { [EWOQ]: { balance: '0x52B7D2DCC80CD2E4000000' }, [BURNER]: { balance: '0x0', code: '0xfe' } },
    timestamp: '0x5FCB13D0', gasLimit: '0x7A1200', difficulty: '0x0', extraData: '0x00',
  };
}

let node: TestNode;
async function call(alias: string, method: string, params: unknown[] = []): Promise<{ text: string; body: any }> {
  const res = await fetch(`${node.url}/ext/bc/${alias}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const text = await res.text();
  return { text, body: JSON.parse(text) };
}
async function result(alias: string, method: string, params: unknown[] = []): Promise<any> {
  const { body } = await call(alias, method, params);
  assert.equal(body.error, undefined, `${method} ${JSON.stringify(params)}: ${JSON.stringify(body.error)}`);
  return body.result;
}
async function rawResult(alias: string, method: string, params: unknown[] = []): Promise<string> {
  const { text, body } = await call(alias, method, params);
  assert.equal(body.error, undefined, text);
  return text.trimEnd().slice('{"jsonrpc":"2.0","id":1,"result":'.length, -1);
}

const ewoq = privateKeyToAccount(EWOQ_KEY);
const nonces = new Map<string, number>();
async function signed(alias: string, tx: { to: string; data?: `0x${string}`; gas: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint; value?: bigint }): Promise<string> {
  const chainId = Number(await result(alias, 'eth_chainId'));
  const nonce = nonces.get(alias) ?? Number(await result(alias, 'eth_getTransactionCount', [EWOQ, 'latest']));
  nonces.set(alias, nonce + 1);
  return ewoq.signTransaction({
    type: 'eip1559', chainId, nonce, to: tx.to as `0x${string}`, data: tx.data, value: tx.value ?? 0n, gas: tx.gas,
    maxFeePerGas: tx.maxFeePerGas ?? 5_000_000_000_000n, maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? 0n,
  });
}
/** Sends a tx that automine puts in a block at `ts` (seconds); returns [block, receipt]. */
async function txBlockAt(alias: string, ts: number, tx: Parameters<typeof signed>[1]): Promise<[any, any]> {
  await result(alias, 'evm_setNextBlockTimestamp', [ts]);
  const h = await result(alias, 'eth_sendRawTransaction', [await signed(alias, tx)]);
  const r = await result(alias, 'eth_getTransactionReceipt', [h]);
  assert.ok(r, 'automined');
  const b = await result(alias, 'eth_getBlockByHash', [r.blockHash, false]);
  assert.equal(Number(b.timestamp), ts);
  return [b, r];
}
async function emptyBlockAt(alias: string, ts: number): Promise<any> {
  await result(alias, 'evm_setNextBlockTimestamp', [ts]);
  await result(alias, 'evm_mine');
  const b = await result(alias, 'eth_getBlockByNumber', ['latest', false]);
  assert.equal(Number(b.timestamp), ts);
  return b;
}

// --- the reference's formulas (§7.4, §7.6), written out here ----------------------------------
const U64 = (1n << 64n) - 1n;
interface ParentView { number: bigint; time: bigint; baseFee: bigint; gasUsed: bigint; window: bigint[]; blockGasCost: bigint | null }
function decodeWindow(extraData: string): bigint[] {
  const b = extraData.slice(2);
  assert.ok(b.length >= 160, 'extraData holds an 80-byte window');
  return Array.from({ length: 10 }, (_, i) => BigInt('0x' + b.slice(i * 16, i * 16 + 16)));
}
const encodeWindow = (w: bigint[]) => '0x' + w.map((x) => x.toString(16).padStart(16, '0')).join('');
function parentView(b: any): ParentView {
  return { number: BigInt(b.number), time: BigInt(b.timestamp), baseFee: BigInt(b.baseFeePerGas), gasUsed: BigInt(b.gasUsed), window: b.number === '0x0' ? [] : decodeWindow(b.extraData), blockGasCost: b.blockGasCost === undefined ? null : BigInt(b.blockGasCost) };
}
function expectedBaseFee(cfg: typeof DEFAULT_FEES, p: ParentView, childTime: bigint): { baseFee: bigint; window: bigint[] } {
  if (p.number === 0n) return { baseFee: cfg.minBaseFee, window: Array(10).fill(0n) };
  let w = [...p.window];
  w[9] = w[9] + p.gasUsed > U64 ? U64 : w[9] + p.gasUsed;
  const n = childTime - p.time;
  w = n >= 10n ? Array(10).fill(0n) : [...w.slice(Number(n)), ...Array(Number(n)).fill(0n)];
  const total = w.reduce((a, x) => (a + x > U64 ? U64 : a + x), 0n);
  const T = cfg.targetGas, D = cfg.baseFeeChangeDenominator, B = p.baseFee;
  let bf: bigint;
  if (total === T) return { baseFee: B, window: w };
  if (total > T) {
    let delta = ((total - T) * B) / T / D;
    if (delta < 1n) delta = 1n;
    bf = B + delta;
  } else {
    let delta = ((T - total) * B) / T / D;
    if (delta < 1n) delta = 1n;
    const k = n / 10n;
    if (k > 1n) delta *= k;
    bf = B - delta;
  }
  return { baseFee: bf < cfg.minBaseFee ? cfg.minBaseFee : bf, window: w };
}
function expectedBlockGasCost(cfg: typeof DEFAULT_FEES, p: ParentView, childTime: bigint): bigint {
  if (p.blockGasCost === null) return cfg.minBlockGasCost;
  const elapsed = p.time <= childTime ? childTime - p.time : 0n;
  const diff = cfg.targetBlockRate > elapsed ? cfg.targetBlockRate - elapsed : elapsed - cfg.targetBlockRate;
  const change = cfg.blockGasCostStep * diff > U64 ? U64 : cfg.blockGasCostStep * diff;
  let cost: bigint;
  if (elapsed > cfg.targetBlockRate) cost = p.blockGasCost - change < 0n ? cfg.minBlockGasCost : p.blockGasCost - change;
  else cost = p.blockGasCost + change > U64 ? cfg.maxBlockGasCost : p.blockGasCost + change;
  return cost < cfg.minBlockGasCost ? cfg.minBlockGasCost : cost > cfg.maxBlockGasCost ? cfg.maxBlockGasCost : cost;
}
/** Checks a mined block's base fee and fee window against the formula; returns the base fee. */
function checkFees(child: any, parent: any, cfg = DEFAULT_FEES): bigint {
  const want = expectedBaseFee(cfg, parentView(parent), BigInt(child.timestamp));
  assert.equal(BigInt(child.baseFeePerGas), want.baseFee, `block ${BigInt(child.number)} baseFee`);
  // Durango+: window ‖ empty predicate results.
  assert.equal(child.extraData, encodeWindow(want.window) + '000000000000', `block ${BigInt(child.number)} extraData`);
  return want.baseFee;
}

// The formulas above reproduce the reference's worked examples (§7.11 A–D), so they are checked
// against fixed numbers and not only against the node.
test('the test\'s fee formulas give the reference\'s worked-example numbers (§7.11)', () => {
  const parent = (p: Partial<ParentView>): ParentView => ({ number: 5n, time: 1000n, baseFee: 25_000_000_000n, gasUsed: 0n, window: Array(10).fill(0n), blockGasCost: 0n, ...p });
  // A: idle chain, child 2 s after a 21,000-gas parent.
  assert.deepEqual(expectedBaseFee(DEFAULT_FEES, parent({ gasUsed: 21_000n }), 1002n), { baseFee: 25_000_000_000n, window: [0n, 0n, 0n, 0n, 0n, 0n, 0n, 21_000n, 0n, 0n] });
  // B: busy chain, child 1 s later.
  const busy = parent({ gasUsed: 8_000_000n, window: [0n, 0n, 0n, 0n, 0n, 0n, 0n, 8_000_000n, 7_000_000n, 7_000_000n] });
  assert.deepEqual(expectedBaseFee(DEFAULT_FEES, busy, 1001n), { baseFee: 25_694_444_444n, window: [0n, 0n, 0n, 0n, 0n, 0n, 8_000_000n, 7_000_000n, 15_000_000n, 0n] });
  // C: decay after 35 s (k = 3) and after 12 s (k = 1).
  assert.equal(expectedBaseFee(DEFAULT_FEES, parent({ baseFee: 50_000_000_000n }), 1035n).baseFee, 45_833_333_336n);
  assert.equal(expectedBaseFee(DEFAULT_FEES, parent({ baseFee: 50_000_000_000n }), 1012n).baseFee, 48_611_111_112n);
  // D: block gas cost by parent cost and elapsed seconds.
  const cost = (parentCost: bigint, elapsed: bigint) => expectedBlockGasCost(DEFAULT_FEES, parent({ blockGasCost: parentCost }), 1000n + elapsed);
  assert.deepEqual([cost(0n, 0n), cost(0n, 1n), cost(0n, 2n), cost(0n, 3n), cost(1_000_000n, 0n), cost(600_000n, 4n)], [400_000n, 200_000n, 0n, 0n, 1_000_000n, 200_000n]);
});

/** FeeManager enabled by upgrade.json (with an initialFeeConfig) at FM_AT, disabled at FM_AT + 100. */
const FM_AT = G0 + 1000;
let cfgDir: string;

before(async () => {
  cfgDir = mkdtempSync(join(tmpdir(), 'powder-fees-'));
  mkdirSync(join(cfgDir, 'fmu'));
  writeFileSync(
    join(cfgDir, 'fmu', 'upgrade.json'),
    JSON.stringify({
      precompileUpgrades: [
        { feeManagerConfig: { blockTimestamp: FM_AT, adminAddresses: [EWOQ], initialFeeConfig: { ...feeJSON(DEFAULT_FEES), gasLimit: 9_000_000, minBaseFee: 30_000_000_000 } } },
        { feeManagerConfig: { blockTimestamp: FM_AT + 100, disable: true } },
      ],
    }),
  );
  node = await startTestNode({
    'chain-config-dir': cfgDir,
    chains: [
      { name: 'fmu', aliases: ['fmu'], genesis: genesis(99914, { initialMinDelayMS: 1 }) },
      { name: 'fm', aliases: ['fm'], genesis: genesis(99911, { initialMinDelayMS: 1, feeManagerConfig: { blockTimestamp: 0, adminAddresses: [EWOQ] } }) },
      // Granite chain (block gas cost 0, 1 ms min delay) for base-fee vectors.
      { name: 'bf', aliases: ['bf'], genesis: genesis(99912, { initialMinDelayMS: 1 }) },
      // Granite postponed: block gas costs and required tips apply (§7.6).
      { name: 'bgc', aliases: ['bgc'], genesis: genesis(99913, { graniteTimestamp: 2000000000 }) },
    ],
  });
});
after(async () => {
  await node?.stop();
  rmSync(cfgDir, { recursive: true, force: true });
});

const feeAbi = parseAbi([
  'function setFeeConfig(uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep)',
  'function getFeeConfig() view returns (uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep)',
  'function getFeeConfigLastChangedAt() view returns (uint256 blockNumber)',
]);

test('FeeManager: setFeeConfig changes the next block\'s gas limit and base fee floor, and eth_feeConfig\'s lastChangedAt', async () => {
  assert.equal(toFunctionSelector(feeAbi[0]), '0x8f10b586');
  const oldJSON = '{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000}';
  // Activated at genesis: the genesis config is stored, lastChangedAt = 0 (the activation block).
  assert.equal(await rawResult('fm', 'eth_feeConfig'), `{"feeConfig":${oldJSON},"lastChangedAt":0}`);
  await emptyBlockAt('fm', G0 + 10);

  const next = { ...DEFAULT_FEES, gasLimit: 12_000_000n, minBaseFee: 50_000_000_000n };
  const data = encodeFunctionData({ abi: feeAbi, functionName: 'setFeeConfig', args: [next.gasLimit, next.targetBlockRate, next.minBaseFee, next.targetGas, next.baseFeeChangeDenominator, next.minBlockGasCost, next.maxBlockGasCost, next.blockGasCostStep] });
  const [changed, receipt] = await txBlockAt('fm', G0 + 12, { to: FEE_MANAGER, data, gas: 400_000n });
  assert.equal(receipt.status, '0x1');
  const N = BigInt(changed.number);
  // The block with the tx still runs on the old config.
  assert.equal(changed.gasLimit, '0x7a1200');
  // FeeConfigChanged(address indexed sender, old, new) — topic0 of §8.6.
  assert.equal(receipt.logs[0].topics[0], '0x4c98e43adb5962c18f3f0e6dd066e2a2de258d3b4f695b317b77c8f27cd044fc');

  const newJSON = '{"gasLimit":12000000,"targetBlockRate":2,"minBaseFee":50000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000}';
  assert.equal(await rawResult('fm', 'eth_feeConfig'), `{"feeConfig":${newJSON},"lastChangedAt":${N}}`);
  assert.equal(await rawResult('fm', 'eth_feeConfig', [changed.number]), `{"feeConfig":${newJSON},"lastChangedAt":${N}}`);
  assert.equal(await rawResult('fm', 'eth_feeConfig', [changed.hash]), `{"feeConfig":${newJSON},"lastChangedAt":${N}}`);
  // The earlier block still shows the old config.
  assert.equal(await rawResult('fm', 'eth_feeConfig', ['0x' + (N - 1n).toString(16)]), `{"feeConfig":${oldJSON},"lastChangedAt":0}`);
  assert.equal(BigInt(await result('fm', 'eth_call', [{ to: FEE_MANAGER, data: encodeFunctionData({ abi: feeAbi, functionName: 'getFeeConfigLastChangedAt' }) }, 'latest'])), N);

  // The pool's fee-cap floor follows the new minBaseFee (§9.2).
  const cheap = await signed('fm', { to: ADDR1, gas: 21_000n, maxFeePerGas: 30_000_000_000n, value: 1n });
  const refused = await call('fm', 'eth_sendRawTransaction', [cheap]);
  nonces.delete('fm');
  assert.equal(refused.body.error?.code, -32000);
  assert.match(refused.body.error.message, new RegExp(`^transaction underpriced: address ${EWOQ} have gas fee cap \\(30000000000\\) < pool minimum fee cap \\(50000000000\\)$`, 'i'));

  // The NEXT block: new gas limit, base fee clamped up to the new minimum.
  const [after] = await txBlockAt('fm', G0 + 14, { to: ADDR1, gas: 21_000n, maxFeePerGas: 60_000_000_000n, value: 1n });
  assert.equal(BigInt(after.number), N + 1n);
  assert.equal(after.gasLimit, '0xb71b00'); // 12,000,000
  assert.equal(after.baseFeePerGas, '0xba43b7400'); // 50 gwei
  checkFees(after, changed, next);
  // Unchanged since: lastChangedAt stays N.
  assert.equal(JSON.parse(await rawResult('fm', 'eth_feeConfig')).lastChangedAt, Number(N));
});

test('base fee: the 10-second window algorithm block by block (§7.4, examples A and C)', async () => {
  const chain: any[] = [await result('bf', 'eth_getBlockByNumber', ['0x0', false])];
  const burn = (gas: bigint) => ({ to: BURNER, gas });
  let t = G0 + 100;
  // Child of genesis: minBaseFee and an all-zero window.
  let [b] = await txBlockAt('bf', t, burn(8_000_000n));
  assert.equal(b.gasUsed, '0x7a1200');
  assert.equal(b.baseFeePerGas, '0x5d21dba00');
  assert.equal(b.extraData, '0x' + '00'.repeat(80) + '000000000000');
  chain.push(b);
  // 1 s later, 8M in the window (< 15M target): decrease clamped at the minimum.
  [b] = await txBlockAt('bf', ++t, burn(7_000_000n));
  assert.equal(BigInt(b.baseFeePerGas), 25_000_000_000n);
  checkFees(b, chain.at(-1));
  chain.push(b);
  // 8M + 7M = exactly the target: unchanged.
  [b] = await txBlockAt('bf', ++t, burn(7_000_000n));
  assert.equal(BigInt(b.baseFeePerGas), 25_000_000_000n);
  assert.deepEqual(decodeWindow(b.extraData), [0n, 0n, 0n, 0n, 0n, 0n, 0n, 8_000_000n, 7_000_000n, 0n]);
  checkFees(b, chain.at(-1));
  chain.push(b);
  // 22M > 15M: delta = ⌊⌊7M × 25e9 / 15M⌋ / 36⌋ = 324,074,074.
  [b] = await txBlockAt('bf', ++t, burn(8_000_000n));
  assert.equal(BigInt(b.baseFeePerGas), 25_324_074_074n);
  checkFees(b, chain.at(-1));
  chain.push(b);
  // Full blocks every second push it further up; also twice in the same second (n = 0).
  for (const dt of [1, 1, 0, 1, 1, 2, 1]) {
    t += dt;
    [b] = await txBlockAt('bf', t, burn(8_000_000n));
    checkFees(b, chain.at(-1));
    assert.ok(BigInt(b.baseFeePerGas) > BigInt(chain.at(-1).baseFeePerGas), 'rising');
    chain.push(b);
  }
  const high = BigInt(b.baseFeePerGas);
  // The multiplier k = ⌊35/10⌋ = 3 must be visible above the floor.
  assert.ok(high - 3n * (high / 36n) > 25_000_000_000n, `base fee ${high} high enough for example C`);
  // Example C: 35 s of silence → window reset, delta = ⌊B/36⌋ × 3.
  t += 35;
  [b] = await txBlockAt('bf', t, { to: ADDR1, gas: 21_000n, value: 1n });
  assert.equal(BigInt(b.baseFeePerGas), high - 3n * (high / 36n));
  assert.equal(b.extraData, '0x' + '00'.repeat(80) + '000000000000');
  checkFees(b, chain.at(-1));
  chain.push(b);
  // 12 s: window reset, k = 1 → not multiplied.
  const prev = BigInt(b.baseFeePerGas);
  t += 12;
  [b] = await txBlockAt('bf', t, { to: ADDR1, gas: 21_000n, value: 1n });
  assert.equal(BigInt(b.baseFeePerGas), prev - prev / 36n < 25_000_000_000n ? 25_000_000_000n : prev - prev / 36n);
  checkFees(b, chain.at(-1));
  chain.push(b);
  // Example A: parent at 25 gwei with an all-zero window and 21,000 gas used, child 2 s later.
  while (BigInt(b.baseFeePerGas) !== 25_000_000_000n || decodeWindow(b.extraData).some((x) => x !== 0n)) {
    t += 20;
    [b] = await txBlockAt('bf', t, { to: ADDR1, gas: 21_000n, value: 1n });
    checkFees(b, chain.at(-1));
    chain.push(b);
  }
  assert.equal(b.gasUsed, '0x5208');
  t += 2;
  b = await emptyBlockAt('bf', t);
  assert.equal(b.baseFeePerGas, '0x5d21dba00');
  assert.equal(b.extraData, '0x' + '00'.repeat(56) + '0000000000005208' + '00'.repeat(16) + '000000000000');
  // Granite: no block gas cost.
  assert.equal(b.blockGasCost, '0x0');
});

test('block gas cost and required tips before Granite (§7.6, examples D and E)', async () => {
  const parent0 = await result('bgc', 'eth_getBlockByNumber', ['0x0', false]);
  assert.equal(parent0.blockGasCost, '0x0'); // Etna genesis
  const bigTip = { maxFeePerGas: 5_000_000_000_000n, maxPriorityFeePerGas: 2_000_000_000_000n };
  const transfer = { to: ADDR1, gas: 21_000n, value: 1n };
  let t = G0 + 100;
  let [b] = await txBlockAt('bgc', t, { ...transfer, ...bigTip });
  assert.equal(b.blockGasCost, '0x0'); // elapsed ≫ 2 s → cost falls to the minimum
  assert.equal(b.timestampMilliseconds, undefined); // pre-Granite
  let parent = b;
  const step = async (dt: number, want: bigint, tip = bigTip): Promise<any> => {
    t += dt;
    const [blk, r] = await txBlockAt('bgc', t, { ...transfer, ...tip });
    assert.equal(r.status, '0x1');
    assert.equal(BigInt(blk.blockGasCost), want, `elapsed ${dt}`);
    assert.equal(BigInt(blk.blockGasCost), expectedBlockGasCost(DEFAULT_FEES, parentView(parent), BigInt(blk.timestamp)));
    checkFees(blk, parent);
    parent = blk;
    return blk;
  };
  await step(2, 0n); // elapsed 2 → unchanged
  // Example D/E: parent cost 0, elapsed 0 → 400,000; with one 21,000-gas transfer at 25 gwei the
  // tip must be ≥ 476,190,476,191 wei — exactly that is enough.
  const e = await step(0, 400_000n, { maxFeePerGas: 1_000_000_000_000n, maxPriorityFeePerGas: 476_190_476_191n });
  assert.equal(e.baseFeePerGas, '0x5d21dba00');
  await step(1, 600_000n); // +200,000
  await step(0, 1_000_000n); // +400,000
  await step(0, 1_000_000n); // 1,400,000 → clamped to max
  await step(4, 600_000n); // −400,000
  await step(4, 200_000n); // example D: 600,000 & elapsed 4 → 200,000
  await step(3, 0n); // −200,000 → 0
});

test('block gas cost: a block whose tips do not cover it is not built; the tx waits', async () => {
  await result('bgc', 'evm_setAutomine', [false]);
  try {
    const head = await result('bgc', 'eth_getBlockByNumber', ['latest', false]);
    const t = Number(head.timestamp);
    // Same second as the parent → block gas cost 400,000 (parent 0); one wei short of the tip.
    await result('bgc', 'evm_setNextBlockTimestamp', [t]);
    const h = await result('bgc', 'eth_sendRawTransaction', [await signed('bgc', { to: ADDR1, gas: 21_000n, value: 1n, maxFeePerGas: 1_000_000_000_000n, maxPriorityFeePerGas: 476_190_476_190n })]);
    // The builder's block-fee check refuses it with the reference's text: ⌊476,190,476,190 × 21,000 / 25e9⌋ = 399,999.
    const mined = await call('bgc', 'evm_mine');
    assert.deepEqual(mined.body.error, { code: -32000, message: 'insufficient gas to cover the block cost: expected 400000 but got 399999' });
    assert.equal(await result('bgc', 'eth_getTransactionReceipt', [h]), null);
    assert.equal(await result('bgc', 'eth_blockNumber'), head.number);
    assert.equal((await result('bgc', 'eth_getTransactionByHash', [h])).blockHash, null);
  } finally {
    await result('bgc', 'evm_setAutomine', [true]);
  }
});

test('FeeManager from upgrade.json: activation stores initialFeeConfig (lastChangedAt = activation block); disabling restores the genesis config', async () => {
  const genesisFees = `{"feeConfig":${JSON.stringify(feeJSON(DEFAULT_FEES))},"lastChangedAt":0}`;
  assert.equal(await rawResult('fmu', 'eth_feeConfig'), genesisFees);
  const before = await emptyBlockAt('fmu', FM_AT - 1);
  const act = await emptyBlockAt('fmu', FM_AT);
  const A = BigInt(act.number);
  assert.equal(act.gasLimit, '0x7a1200'); // the activation block itself runs on its parent's config
  const initial = '{"gasLimit":9000000,"targetBlockRate":2,"minBaseFee":30000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000}';
  assert.equal(await rawResult('fmu', 'eth_feeConfig', [act.number]), `{"feeConfig":${initial},"lastChangedAt":${A}}`);
  assert.equal(await rawResult('fmu', 'eth_feeConfig', [before.number]), genesisFees);
  const next = await emptyBlockAt('fmu', FM_AT + 2);
  assert.equal(next.gasLimit, '0x895440'); // 9,000,000
  assert.equal(next.baseFeePerGas, '0x6fc23ac00'); // 30 gwei floor
  // Disabled: back to the genesis config, lastChangedAt 0, from the block after the disable.
  const off = await emptyBlockAt('fmu', FM_AT + 100);
  assert.equal(off.gasLimit, '0x895440');
  assert.equal(await rawResult('fmu', 'eth_feeConfig', [off.number]), genesisFees);
  const later = await emptyBlockAt('fmu', FM_AT + 102);
  assert.equal(later.gasLimit, '0x7a1200');
  checkFees(later, off);
});
