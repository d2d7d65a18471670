// A plain eth_call's message run without @ethereumjs/vm's runTx. runTx is written for every kind
// of transaction and fork (blobs, EIP-7702 authorizations, EIP-7623/8037 gas dimensions, block
// access lists, receipts, fee payments); around a read-only call it costs ~40 µs of the ~170 µs a
// new-holder balanceOf takes in process (docs/performance.md, session 12). For the one case most
// calls are — no fee fields (so the gas price is 0), no access list, a `to` — in eth_call, and in
// eth_estimateGas and eth_callDetailed without state overrides, this runs the same steps runTx
// runs that a call can observe, in runTx's order:
//   - the journal cleaned up and checkpointed, `beforeTx` emitted (warp sets or clears the call's
//     predicates there);
//   - the EIP-2929 warm set: every active precompile, the sender, `to`, and the coinbase under
//     EIP-3651;
//   - the gas limit less the intrinsic gas;
//   - the sender's nonce bumped and its account written (a sender that did not exist now does:
//     BALANCE and EXTCODEHASH of it see that); with a gas price of 0 nothing is bought;
//   - evm.runCall, in its own checkpoint, committed (or reverted as runTx does);
//   - the gas used after refunds, as runTx counts it (Subnet-EVM's chains allow no refund:
//     src/evm/chain/common.ts caps it at 0, here as in runTx).
// What runTx does after that (the sender's refund of 0, the coinbase's fee of 0, self-destructs,
// EIP-158 clean-up, the receipt) changes state the caller reverts anyway. The EOA check is not
// made (eth_call skips it, src/evm/chain/skipAccountChecks.ts). Anything else — another fork's
// rules, DEBUG, the profiler — goes through runTx. plainCall.test.ts compares both paths.
import type { Common } from '@ethereumjs/common';
import type { EVMResult } from '@ethereumjs/evm';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Account, Address } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { addressHex } from '../addressHex.js';
import { SETTLED } from '../settled.js';
import { accountNowFor, NOT_NOW } from '../state/readsNow.js';

/** EIPs whose rules runTx applies and this path does not: with any of them active, runTx runs. */
const UNSUPPORTED_EIPS = [2780, 7623, 7702, 7778, 7864, 7928, 8037];

interface JournalLike {
  cleanup(): Promise<void>;
  checkpoint(): Promise<void>;
  commit(): Promise<void>;
  revert(): Promise<void>;
  cleanJournal(): void;
  /** Unprefixed address hex → its always-warm slots (what addAlwaysWarmAddress fills). */
  alwaysWarmJournal: Map<string, Set<string>>;
  putAccount(address: Address, account: Account): Promise<void>;
}

interface EvmLike {
  journal: JournalLike;
  precompiles: Map<string, unknown>;
  runCall(opts: Record<string, unknown>): Promise<EVMResult>;
}

/**
 * What this path reads of a call's transaction (a real one, or plainCallTx's): it runs a legacy
 * transaction with a `to` and a gas price of 0 (the `beforeTx` listeners read its absent access list).
 */
export interface PlainTx {
  readonly type: number;
  readonly to?: Address;
  readonly gasLimit: bigint;
  readonly value: bigint;
  readonly data: Uint8Array;
  readonly gasPrice?: bigint;
  getIntrinsicGas(): bigint;
}

const TWO_POW_64 = 2n ** 64n;
const TWO_POW_256 = 2n ** 256n;

/** The intrinsic-gas parameters of a Common (its hardfork never changes: common.ts). */
const intrinsicParams = new WeakMap<Common, { txGas: bigint; zero: bigint; nonZero: bigint }>();

/**
 * A plain call's transaction without @ethereumjs/tx: the call's legacy transaction there is built,
 * validated and given its sender for every call (~20 µs of a new-holder balanceOf's ~200 over
 * HTTP; docs/performance.md, session 21), while this path reads five fields and the intrinsic gas.
 * The intrinsic gas is ethereumjs' for a legacy transaction with a `to` (the base fee and the data
 * fee; EIP-2780's recipient gas and EIP-7702's are off wherever this path runs). (A class, so that
 * a call makes no closure for getIntrinsicGas and isPlainCallTx needs no WeakSet entry.)
 */
class PlainCallTx implements PlainTx {
  readonly type = 0;
  readonly gasPrice = 0n;
  constructor(
    readonly to: Address,
    readonly gasLimit: bigint,
    readonly value: bigint,
    readonly data: Uint8Array,
    private readonly params: { txGas: bigint; zero: bigint; nonZero: bigint },
  ) {}
  getIntrinsicGas(): bigint {
    const data = this.data;
    let zeros = 0;
    for (let i = 0; i < data.length; i++) if (data[i] === 0) zeros++;
    const { txGas, zero, nonZero } = this.params;
    return txGas + BigInt(zeros) * zero + BigInt(data.length - zeros) * nonZero;
  }
}

/**
 * plainCallTx's transaction for a call, or undefined where the transaction's constructor could
 * refuse a value (the caller then builds the real one, whose error is the answer): a nonce or gas
 * limit from 2^64 - 1 up, a value from 2^256.
 */
export function plainCallTx(common: Common, f: { nonce: bigint; gasLimit: bigint; to: string; value: bigint; data: Uint8Array }): (PlainTx & TypedTransaction) | undefined {
  if (f.nonce >= TWO_POW_64 - 1n || f.gasLimit >= TWO_POW_64 - 1n || f.value >= TWO_POW_256) return undefined;
  let p = intrinsicParams.get(common);
  if (!p) intrinsicParams.set(common, (p = { txGas: common.param('txGas'), zero: common.param('txDataZeroGas'), nonZero: common.param('txDataNonZeroGas') }));
  return new PlainCallTx(new Address(Buffer.from(f.to.slice(2), 'hex')), f.gasLimit, f.value, f.data, p) as unknown as PlainTx & TypedTransaction;
}

/** Whether `tx` was made by plainCallTx (runTx needs a real transaction). */
export function isPlainCallTx(tx: object): boolean {
  return tx instanceof PlainCallTx;
}

/** The always-warm entry of a precompile: no slot is ever added to it (this path has no access list). */
class NoWarmSlots extends Set<string> {
  override add(): this {
    throw new Error('plainCall: a slot added to a precompile\'s always-warm entry');
  }
}
const NO_WARM_SLOTS = new NoWarmSlots();
/** Per precompiles map (an EVM's, replaced whole when its fork changes): its addresses, each with no slots. */
const precompileWarmth = new WeakMap<Map<string, unknown>, Map<string, Set<string>>>();
function precompilesWarm(precompiles: Map<string, unknown>): Map<string, Set<string>> {
  let warm = precompileWarmth.get(precompiles);
  if (warm === undefined || warm.size !== precompiles.size) {
    warm = new Map();
    for (const address of precompiles.keys()) warm.set(address, NO_WARM_SLOTS);
    precompileWarmth.set(precompiles, warm);
  }
  return warm;
}

/**
 * A call's always-warm addresses (the journal's alwaysWarmJournal, of which the journal uses has,
 * get and set): its own entries over the precompiles' shared ones. The journal replaces it with a
 * new Map when it is cleaned up, as it did the Map this one starts from.
 */
class WarmAddresses {
  constructor(
    private readonly shared: Map<string, Set<string>>,
    private readonly own: Map<string, Set<string>>,
  ) {}
  has(address: string): boolean {
    return this.own.has(address) || this.shared.has(address);
  }
  get(address: string): Set<string> | undefined {
    return this.own.get(address) ?? this.shared.get(address);
  }
  set(address: string, slots: Set<string>): this {
    this.own.set(address, slots);
    return this;
  }
}

/** How many messages ran on this path (the tests check that it is taken). */
export const plainCallStats = { runs: 0 };

/** Can `vm` run `tx` (a legacy tx with a `to`, gas price 0, built by backend.call) on this path? */
export function canRunPlainCall(vm: VM, tx: PlainTx): boolean {
  const v = vm as unknown as { DEBUG?: boolean; _opts?: { profilerOpts?: { reportAfterTx?: boolean } } };
  if (v.DEBUG || v._opts?.profilerOpts?.reportAfterTx) return false;
  if (tx.type !== 0 || tx.to === undefined || tx.gasPrice !== 0n) return false;
  const common = vm.common;
  if (!common.isActivatedEIP(2929)) return false;
  for (const eip of UNSUPPORTED_EIPS) if (common.isActivatedEIP(eip)) return false;
  return true;
}

/**
 * The message of `tx` from `caller` in `block` (execBlock), as runTx would run it; see above.
 * `intrinsicGas` is the tx's, which the caller has already checked against its gas limit.
 */
export async function runPlainCall(vm: VM, tx: PlainTx, block: never, caller: Address, intrinsicGas: bigint): Promise<{ execResult: EVMResult['execResult']; totalGasSpent: bigint }> {
  plainCallStats.runs++;
  const evm = vm.evm as unknown as EvmLike;
  const journal = evm.journal;
  const common = vm.common;
  // The journal's steps and an unheard event hand back SETTLED (settled.ts): nothing to wait for,
  // so they are not awaited (an await of a settled promise still takes a microtask turn, ~0.1 µs).
  let step = journal.cleanup();
  if (step !== SETTLED) await step;
  step = journal.checkpoint();
  if (step !== SETTLED) await step;
  try {
    step = (vm as unknown as { _emit(topic: string, data: unknown): Promise<void> })._emit('beforeTx', tx);
    if (step !== SETTLED) await step;
    // journal.addAlwaysWarmAddress(a) for each, without its hex-prefix regular expression: the
    // keys here are unprefixed already, which stripHexPrefix leaves as they are, and cleanup()
    // above stopped any access-list reporting it would also feed. The ~25 precompiles are warm
    // through a map shared by the EVM's calls (WarmAddresses), not ~25 entries and sets a call.
    const warm = new WarmAddresses(precompilesWarm(evm.precompiles), journal.alwaysWarmJournal);
    journal.alwaysWarmJournal = warm as unknown as Map<string, Set<string>>;
    const warmUp = (address: string) => {
      if (!warm.has(address)) warm.set(address, new Set());
    };
    warmUp(addressHex(caller));
    warmUp(addressHex(tx.to!));
    if (common.isActivatedEIP(3651)) warmUp(addressHex((block as { header: { coinbase: Address } }).header.coinbase));
    let held = accountNowFor(vm.stateManager, caller);
    if (held === NOT_NOW) held = await vm.stateManager.getAccount(caller);
    const sender = held ?? new Account();
    sender.nonce += 1n;
    step = journal.putAccount(caller, sender);
    if (step !== SETTLED) await step;
    step = journal.checkpoint();
    if (step !== SETTLED) await step;
    let results: EVMResult;
    try {
      results = await evm.runCall({
        block,
        gasPrice: 0n,
        caller,
        gasLimit: tx.gasLimit - intrinsicGas,
        to: tx.to,
        value: tx.value,
        data: tx.data,
        skipNonceIncrement: true,
      });
    } catch (e) {
      await journal.revert();
      throw e;
    }
    // (runTx reverts here instead after an EIP-2780/8037 preparation out-of-gas, and resets those
    // EIPs' and EIP-7928's flags on the EVM: none of them is active on this path.)
    step = journal.commit();
    if (step !== SETTLED) await step;
    let totalGasSpent = results.execResult.executionGasUsed + intrinsicGas;
    const refund = results.execResult.gasRefund ?? 0n;
    if (refund !== 0n) {
      const maxRefund = totalGasSpent / common.param('maxRefundQuotient');
      totalGasSpent -= refund < maxRefund ? refund : maxRefund;
    }
    step = journal.commit();
    if (step !== SETTLED) await step;
    return { execResult: results.execResult, totalGasSpent };
  } catch (e) {
    await journal.revert();
    throw e;
  } finally {
    journal.cleanJournal();
    // (Only when it holds something: its clear() makes a new Map even for an empty one.)
    const originals = (vm.stateManager as unknown as { originalStorageCache: { clear(): void; map?: unknown } }).originalStorageCache;
    if (!(originals.map instanceof Map) || originals.map.size > 0) originals.clear();
  }
}
