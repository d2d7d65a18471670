// Unit tests for the fee rules: every worked example of reference subnet-evm.md §7.11, §7.2 errors, §7.7 values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_FEE_CONFIG,
  GasPriceOracle,
  blockGasCost,
  childExtraData,
  childMinDelayExcess,
  delayMsFromExcess,
  desiredMinDelayExcess,
  effectiveTip,
  encodeWindow,
  estimateNextBaseFee,
  feeConfigJSON,
  INITIAL_MIN_DELAY_EXCESS,
  minTipForBlock,
  nextBaseFee,
  parseWindow,
  resolveFeeHistoryRange,
  rewardsForBlock,
  validateRewardPercentiles,
  goFloat,
  verifyBlockFee,
  verifyExtraData,
  verifyFeeConfig,
  verifyHeaderTime,
  type FeeConfig,
  type FeeParent,
} from './index.js';

const fc = DEFAULT_FEE_CONFIG;
/** Local network schedule: everything through Granite active since 1607144400. */
const local = {
  networkUpgrades: { subnetEVMTimestamp: 0n, durangoTimestamp: 1607144400n, etnaTimestamp: 1607144400n, graniteTimestamp: 1607144400n },
};
/** Pre-Granite (only SubnetEVM + Durango) for block gas cost examples. */
const preGranite = { networkUpgrades: { subnetEVMTimestamp: 0n, durangoTimestamp: 0n } };
const T0 = 1_700_000_000n;

function parent(over: Partial<FeeParent> & { window?: bigint[] }): FeeParent {
  const w = over.window ?? new Array<bigint>(10).fill(0n);
  return { number: 5n, timestamp: T0, extraData: encodeWindow(w), gasUsed: 0n, baseFee: 25_000_000_000n, ...over };
}

test('§7.11 A: idle chain, child 2 s later stays at minBaseFee; extraData window', () => {
  const p = parent({ gasUsed: 21_000n });
  const r = nextBaseFee(local, fc, p, T0 + 2n)!;
  assert.equal(r.baseFee, 25_000_000_000n);
  assert.equal('0x' + r.baseFee.toString(16), '0x5d21dba00');
  assert.deepEqual(r.window, [0n, 0n, 0n, 0n, 0n, 0n, 0n, 21_000n, 0n, 0n]);
  const extra = childExtraData(local, r.window, T0 + 2n);
  assert.equal(Buffer.from(extra).toString('hex'), '00'.repeat(56) + '0000000000005208' + '00'.repeat(16) + '000000000000');
  // Pre-Durango: exactly the 80-byte window.
  assert.equal(childExtraData({ networkUpgrades: { subnetEVMTimestamp: 0n } }, r.window, T0 + 2n).length, 80);
  // Unclamped value would be 24,306,527,778: check with a lower floor.
  const low: FeeConfig = { ...fc, minBaseFee: 1n };
  assert.equal(nextBaseFee(local, low, p, T0 + 2n)!.baseFee, 24_306_527_778n);
});

test('§7.11 B: busy chain, child 1 s later', () => {
  const p = parent({ gasUsed: 8_000_000n, window: [0n, 0n, 0n, 0n, 0n, 0n, 0n, 8_000_000n, 7_000_000n, 7_000_000n] });
  const r = nextBaseFee(local, fc, p, T0 + 1n)!;
  assert.deepEqual(r.window, [0n, 0n, 0n, 0n, 0n, 0n, 8_000_000n, 7_000_000n, 15_000_000n, 0n]);
  assert.equal(r.baseFee, 25_694_444_444n);
});

test('§7.11 C: decay after silence (35 s → ×3, 12 s → ×1)', () => {
  const p = parent({ baseFee: 50_000_000_000n, gasUsed: 1_000_000n, window: [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n] });
  const r35 = nextBaseFee(local, fc, p, T0 + 35n)!;
  assert.equal(r35.baseFee, 45_833_333_336n);
  assert.deepEqual(r35.window, new Array(10).fill(0n));
  assert.equal(nextBaseFee(local, fc, p, T0 + 12n)!.baseFee, 48_611_111_112n);
});

test('base fee: total == target returns parent base fee unclamped; first dynamic block; errors', () => {
  const p = parent({ baseFee: 1n, gasUsed: 0n, window: [0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n, 15_000_000n] });
  // n = 0: window unchanged, total = target → parent fee (1 wei) even below minBaseFee.
  assert.equal(nextBaseFee(local, fc, p, T0)!.baseFee, 1n);
  // child of genesis → minBaseFee
  assert.equal(nextBaseFee(local, fc, { ...p, number: 0n }, T0 + 5n)!.baseFee, fc.minBaseFee);
  assert.equal(nextBaseFee({ networkUpgrades: { subnetEVMTimestamp: T0 + 100n } }, fc, p, T0), null);
  assert.throws(() => nextBaseFee(local, fc, p, T0 - 1n), { message: `invalid timestamp: timestamp ${T0 - 1n} prior to parent timestamp ${T0}` });
  assert.throws(() => nextBaseFee(local, fc, { ...p, extraData: new Uint8Array(10) }, T0 + 1n), {
    message: 'insufficient length for window: expected at least 80 bytes but got 10 bytes',
  });
  // saturating add in the newest slot
  const sat = parent({ gasUsed: 5n, window: [0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n, (1n << 64n) - 2n] });
  assert.equal(parseWindow(encodeWindow(nextBaseFee(local, fc, sat, T0)!.window))[9], (1n << 64n) - 1n);
});

test('verifyExtraData: lengths by era and prefix', () => {
  const w = new Array<bigint>(10).fill(0n);
  assert.throws(() => verifyExtraData({ networkUpgrades: { subnetEVMTimestamp: 0n } }, new Uint8Array(86), T0), {
    message: 'invalid header.Extra length: expected 80 but got 86',
  });
  assert.throws(() => verifyExtraData(local, new Uint8Array(79), T0), { message: 'invalid header.Extra length: expected >= 80 but got 79' });
  verifyExtraData(local, new Uint8Array(86), T0, w);
  const bad = new Uint8Array(86);
  bad[7] = 1;
  assert.throws(() => verifyExtraData(local, bad, T0, w), /^Error: invalid header.Extra prefix: expected 0{160} as prefix, found 0{14}01/);
});

test('estimateNextBaseFee and §7.11 F (fresh idle chain answers)', () => {
  const genesis: FeeParent = { number: 0n, timestamp: 1607144400n, extraData: new Uint8Array(0), gasUsed: 0n, baseFee: fc.minBaseFee };
  const now = 1_800_000_000_000n;
  const baseFee = estimateNextBaseFee(local, fc, genesis, genesis.timestamp * 1000n, now)!;
  assert.equal('0x' + baseFee.toString(16), '0x5d21dba00');
  const oracle = new GasPriceOracle();
  const tip = oracle.suggestTip({ hash: '0xg', number: 0n }, () => undefined, now / 1000n);
  assert.equal('0x' + tip.toString(16), '0x1');
  assert.equal('0x' + (tip + baseFee).toString(16), '0x5d21dba01');
});

test('§7.11 D: block gas cost before Granite', () => {
  const at = (cost: bigint | undefined, elapsed: bigint) =>
    blockGasCost(preGranite, fc, parent({ blockGasCost: cost }), T0 + elapsed);
  assert.equal(at(0n, 0n), 400_000n);
  assert.equal(at(0n, 1n), 200_000n);
  assert.equal(at(0n, 2n), 0n);
  assert.equal(at(300_000n, 2n), 300_000n);
  assert.equal(at(0n, 3n), 0n);
  assert.equal(at(1_000_000n, 0n), 1_000_000n);
  assert.equal(at(600_000n, 4n), 200_000n);
  assert.equal(at(undefined, 0n), fc.minBlockGasCost);
  // Granite: always 0; pre-SubnetEVM: null
  assert.equal(blockGasCost(local, fc, parent({ blockGasCost: 600_000n }), T0), 0n);
  assert.equal(blockGasCost({ networkUpgrades: {} }, fc, parent({}), T0), null);
  // saturating step
  const huge: FeeConfig = { ...fc, blockGasCostStep: 1n << 63n, maxBlockGasCost: (1n << 64n) - 1n };
  assert.equal(blockGasCost(preGranite, huge, parent({ blockGasCost: 5n }), T0), (1n << 64n) - 1n);
});

test('§7.11 E: required tip before Granite', () => {
  const baseFee = 25_000_000_000n;
  assert.equal(minTipForBlock(400_000n, baseFee, 21_000n), 476_190_476_191n);
  assert.equal(minTipForBlock(200_000n, baseFee, 21_000n), 238_095_238_096n);
  verifyBlockFee(baseFee, 400_000n, [{ effectiveTip: 476_190_476_191n, gasUsed: 21_000n }]);
  assert.throws(() => verifyBlockFee(baseFee, 400_000n, [{ effectiveTip: 476_190_476_190n, gasUsed: 21_000n }]), {
    message: 'insufficient gas to cover the block cost: expected 400000 but got 399999',
  });
  verifyBlockFee(baseFee, 0n, []); // Granite: no tip needed
  assert.throws(() => verifyBlockFee(0n, 0n, []), { message: 'invalid base fee: 0' });
  const tip = effectiveTip({ maxFeePerGas: 501_190_476_191n, maxPriorityFeePerGas: 10n ** 15n }, baseFee);
  assert.equal(tip, 476_190_476_191n);
  assert.equal(effectiveTip({ gasPrice: 30_000_000_000n }, baseFee), 5_000_000_000n);
});

test('§7.2 verifyFeeConfig errors in order', () => {
  const ok: FeeConfig = { ...fc };
  verifyFeeConfig(ok);
  const cases: [Partial<Record<keyof FeeConfig, bigint | undefined>>, string][] = [
    [{ gasLimit: undefined }, 'gasLimit cannot be nil'],
    [{ minBaseFee: undefined, targetGas: undefined }, 'minBaseFee cannot be nil'],
    [{ blockGasCostStep: undefined }, 'blockGasCostStep cannot be nil'],
    [{ gasLimit: 0n }, 'gasLimit cannot be less than or equal to 0: gasLimit = 0'],
    [{ targetBlockRate: 0n }, 'targetBlockRate cannot be less than or equal to 0: targetBlockRate = 0'],
    [{ minBaseFee: -1n }, 'minBaseFee cannot be less than 0: minBaseFee = -1'],
    [{ targetGas: 0n }, 'targetGas cannot be less than or equal to 0: targetGas = 0'],
    [{ baseFeeChangeDenominator: -5n }, 'baseFeeChangeDenominator cannot be less than or equal to 0: baseFeeChangeDenominator = -5'],
    [{ minBlockGasCost: -1n }, 'minBlockGasCost cannot be less than 0: minBlockGasCost = -1'],
    [{ minBlockGasCost: 5n, maxBlockGasCost: 4n }, 'minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = 5, maxBlockGasCost = 4'],
    [{ blockGasCostStep: -1n }, 'blockGasCostStep cannot be less than 0: blockGasCostStep = -1'],
    [{ maxBlockGasCost: 1n << 64n }, `maxBlockGasCost is not a valid uint64: maxBlockGasCost = ${1n << 64n}`],
    [{ gasLimit: 1n << 256n }, 'gasLimit exceeds hash length: 32 bytes'],
    [{ minBaseFee: 1n << 256n }, 'minBaseFee exceeds hash length: 32 bytes'],
  ];
  for (const [over, msg] of cases) {
    const c = { ...ok, ...over } as Record<string, bigint | undefined>;
    for (const k of Object.keys(over)) if (over[k as keyof FeeConfig] === undefined) delete c[k];
    assert.throws(() => verifyFeeConfig(c), { message: msg }, msg);
  }
  verifyFeeConfig({ ...ok, minBaseFee: 0n }); // allowed
});

test('feeConfigJSON: struct order, omitempty, bigint values', () => {
  assert.equal(
    JSON.stringify(feeConfigJSON(fc), (_k, v) => (typeof v === 'bigint' ? Number(v) : v)),
    '{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000}',
  );
  assert.deepEqual(Object.keys(feeConfigJSON({ gasLimit: 1n, targetBlockRate: 0n })), ['gasLimit']);
  assert.equal(typeof feeConfigJSON(fc).minBaseFee, 'bigint');
});

test('§7.7 ACP-226 values', () => {
  assert.equal(delayMsFromExcess(INITIAL_MIN_DELAY_EXCESS), 2000n);
  assert.equal(desiredMinDelayExcess(1000n), 7_243_307n);
  assert.equal(desiredMinDelayExcess(500n), 6_516_490n);
  assert.equal(desiredMinDelayExcess(250n), 5_789_672n);
  assert.equal(desiredMinDelayExcess(100n), 4_828_872n);
  assert.equal(desiredMinDelayExcess(1n), 0n);
  assert.equal(desiredMinDelayExcess(0n), 0n);
  assert.equal(desiredMinDelayExcess(2000n), INITIAL_MIN_DELAY_EXCESS);
  // 2000 ms → 1000 ms takes ceil(726,817 / 200) = 3,635 blocks
  let e = INITIAL_MIN_DELAY_EXCESS;
  let blocks = 0;
  const want = desiredMinDelayExcess(1000n);
  while (e !== want) {
    e = childMinDelayExcess(e, want);
    blocks++;
  }
  assert.equal(blocks, 3635);
  assert.equal(childMinDelayExcess(undefined, null), INITIAL_MIN_DELAY_EXCESS);
  assert.equal(childMinDelayExcess(100n, null), 100n);
  assert.equal(childMinDelayExcess(100n, 0n), 0n);
  assert.equal(childMinDelayExcess(1000n, 0n), 800n);
});

test('§7.7 verifyHeaderTime', () => {
  const pMs = 1_700_000_000_000n;
  const p = { timestamp: pMs / 1000n, timestampMilliseconds: pMs, minDelayExcess: INITIAL_MIN_DELAY_EXCESS };
  const ok = { timestamp: (pMs + 2000n) / 1000n, timestampMilliseconds: pMs + 2000n, minDelayExcess: INITIAL_MIN_DELAY_EXCESS - 200n };
  verifyHeaderTime(local, ok, p, pMs + 2000n);
  assert.throws(() => verifyHeaderTime(local, { ...ok, timestampMilliseconds: pMs + 1999n, timestamp: (pMs + 1999n) / 1000n }, p, pMs + 5000n), {
    message: 'minimum block delay not met: actual delay 1999ms < required 2000ms',
  });
  assert.throws(() => verifyHeaderTime(local, { ...ok, minDelayExcess: INITIAL_MIN_DELAY_EXCESS - 201n }, p, pMs + 5000n), {
    message: `incorrect min delay excess: expected ${INITIAL_MIN_DELAY_EXCESS - 200n}, found ${INITIAL_MIN_DELAY_EXCESS - 201n}`,
  });
  assert.throws(() => verifyHeaderTime(local, { ...ok, timestamp: ok.timestamp + 1n }, p, pMs + 5000n), {
    message: `TimeMilliseconds does not match header.Time: header.Time (${ok.timestamp + 1n}) != TimeMilliseconds/1000 = (${ok.timestamp})`,
  });
  assert.throws(() => verifyHeaderTime(local, ok, p, pMs - 9000n), {
    message: `block timestamp is too far in the future: ${pMs + 2000n} > allowed ${pMs + 1000n}`,
  });
  assert.throws(() => verifyHeaderTime(local, { timestamp: ok.timestamp }, p, pMs + 5000n), { message: 'TimeMilliseconds is required after Granite activation' });
  assert.throws(() => verifyHeaderTime(preGranite, ok, p, pMs + 5000n), { message: 'TimeMilliseconds should be nil before Granite activation' });
});

test('§7.9 oracle: percentile, clamp, cache, lookback', () => {
  const o = new GasPriceOracle();
  const now = 1000n;
  const blocks = new Map<bigint, { timestamp: bigint; tips: bigint[] }>([
    [3n, { timestamp: 990n, tips: [5n, 1n] }],
    [2n, { timestamp: 985n, tips: [3n, 10n, 7n] }],
    [1n, { timestamp: 900n, tips: [1000n] }], // older than 80 s: not sampled
  ]);
  // tips [1,3,5,7,10] → index floor(4*40/100)=1 → 3
  assert.equal(o.suggestTip({ hash: 'a', number: 3n }, (n) => blocks.get(n), now), 3n);
  assert.equal(o.suggestTip({ hash: 'a', number: 3n }, () => { throw new Error('cached'); }, now), 3n);
  // no tips → keeps the last price
  assert.equal(o.suggestTip({ hash: 'b', number: 4n }, () => ({ timestamp: 0n, tips: [] }), now), 3n);
  assert.equal(new GasPriceOracle().suggestTip({ hash: 'c', number: 1n }, () => ({ timestamp: now, tips: [10n ** 12n] }), now), 150_000_000_000n);
});

test('§7.10 feeHistory helpers', () => {
  validateRewardPercentiles([0, 50, 100]);
  // geth formats them with Go's %f.
  assert.throws(() => validateRewardPercentiles([101]), { message: 'invalid reward percentile: 101.000000' });
  assert.throws(() => validateRewardPercentiles([-0.5]), { message: 'invalid reward percentile: -0.500000' });
  assert.throws(() => validateRewardPercentiles([10, 5]), { message: 'invalid reward percentile: #0:10.000000 >= #1:5.000000' });
  assert.throws(() => validateRewardPercentiles([10.25, 10.25]), { message: 'invalid reward percentile: #0:10.250000 >= #1:10.250000' });
  assert.throws(() => validateRewardPercentiles(new Array(101).fill(0)), { message: 'invalid reward percentile: over the query limit 100' });
  assert.equal(resolveFeeHistoryRange(0n, 5n, 5n), null);
  assert.deepEqual(resolveFeeHistoryRange(10n, 5n, 9n), { first: 0n, count: 6n });
  assert.deepEqual(resolveFeeHistoryRange(5000n, 10000n, 10000n), { first: 7953n, count: 2048n });
  assert.throws(() => resolveFeeHistoryRange(1n, 11n, 10n), { message: 'request beyond head block: requested 11, head 10' });
  assert.throws(() => resolveFeeHistoryRange(1n, 1n, 30_000n), { message: 'request beyond historical limit: requested 1, head 30000' });
  const txs = [
    { tip: 5n, gasUsed: 21_000n },
    { tip: 1n, gasUsed: 100_000n },
    { tip: 9n, gasUsed: 79_000n },
  ];
  assert.deepEqual(rewardsForBlock(txs, 200_000n, [0, 50, 60, 100]), [1n, 1n, 5n, 9n]);
  assert.deepEqual(rewardsForBlock([], 0n, [10, 90]), [0n, 0n]);
});

test("Go's %f: exact binary value, half-to-even at 6 decimals, no exponent", () => {
  assert.equal(goFloat(0), '0.000000');
  assert.equal(goFloat(100), '100.000000');
  assert.equal(goFloat(33.3333333), '33.333333');
  assert.equal(goFloat(0.0000005), '0.000000'); // just below 5e-7 in binary
  assert.equal(goFloat(0.0000015), '0.000002'); // just above 1.5e-6 in binary
  assert.equal(goFloat(0.0078125), '0.007812'); // 2^-7: an exact tie, to even
  assert.equal(goFloat(0.0234375), '0.023438'); // 3 × 2^-7: a tie, to even
  assert.equal(goFloat(1e-300), '0.000000');
  assert.equal(goFloat(-2.5), '-2.500000');
  assert.equal(goFloat(1e21), '1000000000000000000000.000000');
  assert.equal(goFloat(1e300), `${BigInt(1e300)}.000000`);
  assert.equal(goFloat(5e-324), '0.000000');
});
