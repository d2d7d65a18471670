// The chain backend behind every RPC method: block resolution (§1.3), calls and gas estimation,
// transaction submission, and the state at a block.
import { RLP } from '@ethereumjs/rlp';
import { decodeTxFields, txRlpErrorText, txTypeName } from './txFields.js';
import {
  create1559FeeMarketTxFromBytesArray,
  createAccessList2930TxFromBytesArray,
  createLegacyTxFromBytesArray,
  createTx,
  createTxFromRLP,
  type TxOptions,
  type TypedTransaction,
} from '@ethereumjs/tx';
import { Account, Address, bigIntToUnpaddedBytes, bytesToBigInt, createAddressFromString, generateAddress } from '@ethereumjs/util';
import type { StateManagerInterface } from '@ethereumjs/common';
import { CallState } from '../state/callState.js';
import { CallTimeoutError, withDeadline } from '../callDeadline.js';
import { goDuration } from '../admin/vmConfigJson.js';
import { skipEOACheck } from '../chain/skipAccountChecks.js';
import { canRunPlainCall, isPlainCallTx, plainCallTx, runPlainCall } from './plainCall.js';
import type { RunTxResult, VM } from '@ethereumjs/vm';
import type { Logger } from '../../logging/logger.js';
import { Levels } from '../../logging/levels.js';
import type { Block, Blockchain, TxIndexConfig } from '../chain/blockchain.js';
import type { Consensus } from '../chain/consensus.js';
import { ZERO_ADDRESS, blockHashSource, execBlockOfCall, makeVM, runTxSubnetEVM, withSender } from '../chain/exec.js';
import type { ChainHeader } from '../chain/header.js';
import type { Miner } from '../miner/miner.js';
import { MAX_INITCODE_SIZE, PoolHeadMovedError, TxPoolError, type TxPool, type PoolTx } from '../txpool/pool.js';
import { feeCapBelowBaseFee, initcodeTooLarge, insufficientFunds, intrinsicGasTooLow, tipAboveFeeCap } from '../chain/precheckErrors.js';
import { JsonText, RpcError, toJSON } from '../rpc/server.js';
import { address as parseAddress, invalidArg, quantity, type BlockSpec } from './args.js';
import { checkDataInput, checkOverride, optStateOverrideArg, transactionArgsArg, type TransactionArgs } from '../rpc/params.js';
import { gethEvmError, revertError } from './errors.js';
import { CallResultCache, callCacheKey } from './callCache.js';
import { ConsoleSink, logConsole, setConsole } from '../consoleLog.js';
import { checksumAddress, type DevAccount } from '../chain/devAccounts.js';
import { isProtected, type BlockBuilder } from '../miner/builder.js';
import { DEFAULT_FEE_CONFIG, GasPriceOracle, feeConfigJSON } from '../fees/index.js';
import type { OracleBlock } from '../fees/oracle.js';
import { BoundedMap } from '../../boundedMap.js';
import { activePrecompilesJSON, activeRulesJSON, chainConfigJSON, type Genesis } from '../config/index.js';
import type { ChainContext } from '../../vms/types.js';
import { effectiveTip } from '../txpool/pool.js';
import { keccak256 } from '../crypto.js';
import { warpOf, warpPrepareTx } from '../../warp/chain.js';
import { KeyStore } from '../keystore/keystore.js';
import { AccountManager, type Wallet } from '../keystore/manager.js';
import { KeystoreError } from '../keystore/keyfile.js';
import { createGethTx, gethTxFromValues } from './gethTx.js';
import { hex0x } from '../../hexOf.js';
import { SETTLED } from '../settled.js';
import { beginYielding, endYielding } from '../callYield.js';
import { accountNowFor, NOT_NOW } from '../state/readsNow.js';

/**
 * geth's SubmitTransaction log line (internal/ethapi), which Subnet-EVM writes at INFO for every
 * transaction the RPC accepts: the created contract's address for a creation.
 */
function logSubmitted(log: Logger, p: PoolTx): void {
  if (!log.enabled(Levels.Info)) return;
  const to = p.tx.to;
  const from = checksumAddress(p.from);
  const nonce = Number(p.nonce);
  const value = p.tx.value.toString();
  if (to === undefined) {
    const contract = checksumAddress('0x' + Buffer.from(generateAddress(Buffer.from(p.from.slice(2), 'hex'), bigIntToUnpaddedBytes(p.nonce))).toString('hex'));
    log.info('Submitted contract creation', { hash: p.hash, from, nonce, contract, value });
  } else log.info('Submitted transaction', { hash: p.hash, from, nonce, recipient: checksumAddress(to.toString()), value });
}

/** The log fields of an eth_call's console.log lines. */
const CALL_FIELDS = { method: 'eth_call' };

/** The sender geth's TransactionArgs.from() gives when `from` is absent. */
export const ZERO_ADDRESS_HEX = '0x0000000000000000000000000000000000000000';

export interface VmConfig {
  ethApis: string[];
  rpcGasCap: bigint;
  rpcTxFeeCap: number;
  allowUnprotectedTxs: boolean;
  allowUnprotectedTxHashes: Set<string>;
  allowUnfinalizedQueries: boolean;
  testControls: boolean;
  batchRequestLimit: number;
  batchResponseMaxSize: number;
  txPoolPriceLimit: bigint;
  apiMaxBlocksPerRequest: number;
  /** api-max-duration in ms: eth_call runs longer than this are aborted (0 = no limit). */
  apiMaxDurationMs: number;
  /** historical-proof-query-window: eth_getProof only this many blocks behind the last accepted (0 = any). */
  historicalProofQueryWindow: bigint;
  /** transaction-history / skip-tx-indexing: which mined txs keep a hash lookup. */
  txIndex: TxIndexConfig;
  feeRecipient?: string;
  /** keystore-directory, made absolute (undefined: an ephemeral directory, as Subnet-EVM's ""). */
  keystoreDirectory?: string;
  /** keystore-insecure-unlock-allowed (no effect: Subnet-EVM's ExtRPCEnabled() is always false). */
  keystoreInsecureUnlockAllowed?: boolean;
}

/** ethapi.TransactionArgs with lower-case addresses; `data` is the call data (`input` ?? `data`). */
export interface CallArgs extends Omit<TransactionArgs, 'input' | 'maxFeePerBlobGas' | 'blobVersionedHashes'> {
  type?: bigint;
  /** As sent, for geth's data/input consistency check on the send paths. */
  rawData?: Uint8Array;
  rawInput?: Uint8Array;
}

/** CallArgs after geth's setDefaults: the fields its toTransaction() reads are all set. */
export type FilledArgs = CallArgs & Required<Pick<CallArgs, 'from' | 'nonce' | 'gas' | 'value' | 'data' | 'chainId'>>;

export function parseCallArgs(v: unknown, i: number): CallArgs {
  const t = transactionArgsArg(v, i);
  return {
    from: t.from?.toLowerCase(),
    to: t.to?.toLowerCase(),
    gas: t.gas,
    gasPrice: t.gasPrice,
    maxFeePerGas: t.maxFeePerGas,
    maxPriorityFeePerGas: t.maxPriorityFeePerGas,
    value: t.value,
    nonce: t.nonce,
    data: t.input ?? t.data,
    accessList: t.accessList?.map((e) => ({ address: e.address.toLowerCase(), storageKeys: e.storageKeys.map((k) => k.toLowerCase()) })),
    chainId: t.chainId,
    rawData: t.data,
    rawInput: t.input,
  };
}

export interface StateOverride {
  balance?: bigint;
  nonce?: bigint;
  code?: Uint8Array;
  state?: Map<string, Uint8Array>;
  stateDiff?: Map<string, Uint8Array>;
}

/** The overrides of a call that has none (most): one shared map, which refuses to be written. */
class NoOverrides extends Map<string, StateOverride> {
  override set(): this {
    throw new Error('parseStateOverrides: a write into the shared empty overrides');
  }
}
const NO_OVERRIDES: Map<string, StateOverride> = new NoOverrides();

export function parseStateOverrides(v: unknown, i: number): Map<string, StateOverride> {
  const m = optStateOverrideArg(v, i);
  if (!m) return NO_OVERRIDES;
  const out = new Map<string, StateOverride>();
  const slots = (x?: Map<string, string>) => (x ? new Map([...x].map(([k, val]) => [k.toLowerCase(), Buffer.from(val.slice(2), 'hex') as Uint8Array])) : undefined);
  for (const [addr, o] of m) {
    checkOverride(checksumAddress(addr), o);
    out.set(addr.toLowerCase(), { balance: o.balance, nonce: o.nonce, code: o.code, state: slots(o.state), stateDiff: slots(o.stateDiff) });
  }
  return out;
}

export interface BlockOverrides {
  number?: bigint;
  time?: bigint;
  gasLimit?: bigint;
  coinbase?: string;
  baseFee?: bigint;
}

export function parseBlockOverrides(v: unknown, i: number): BlockOverrides | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidArg(i, 'json: cannot unmarshal array into Go value of type ethapi.BlockOverrides');
  const o = v as Record<string, unknown>;
  const q = (k: string) => (o[k] == null ? undefined : quantity(o[k], i));
  return { number: q('number'), time: q('time'), gasLimit: q('gasLimit'), coinbase: o.coinbase == null ? undefined : parseAddress(o.coinbase, i), baseFee: q('baseFee') };
}

/** Call sessions made (a VM each) and handed from one call to the next, since start (for tests). */
export const callSessionStats = { made: 0, handedOver: 0 };

export interface CallSession {
  sm: StateManagerInterface;
  vm: VM;
}

export interface CallOutcome {
  /** runTx's result; absent when the message ran on the plain-call path (plainCall.ts). */
  result?: RunTxResult;
  returnValue: Uint8Array;
  gasUsed: bigint;
  /** EVM failure text (geth's), undefined on success. */
  error?: string;
  reverted: boolean;
}

const hex = hex0x;

/** A call error that may not be a function of the call's inputs (never cached). */
class UnexpectedCallError extends RpcError {}

/**
 * A check geth's state transition makes before the message runs (preCheck, buyGas, TransitionDb):
 * eth_call / eth_callDetailed answer it wrapped as geth's doCall does (doCallError), the gas
 * estimate and traces otherwise. `gas` is the message's gas limit.
 */
export class CallPrecheckError extends RpcError {
  constructor(
    message: string,
    readonly gas: bigint,
  ) {
    super(-32000, message);
  }
}

/** geth's doCall: an error out of ApplyMessage is answered as `err: <error> (supplied gas <gas>)`. */
export function doCallError(e: unknown): unknown {
  return e instanceof CallPrecheckError ? new RpcError(-32000, `err: ${e.message} (supplied gas ${e.gas})`) : e;
}

/** The largest account nonce (geth's uint64). */
const MAX_NONCE = 0xffffffffffffffffn;

/** eth_call's answer for a call outcome: the hex return data, or the revert / EVM error thrown. */
/**
 * A hex result ('0x' and hex digits) as the JSON text it is: quoted, nothing to escape, so the
 * answer skips toJSON's stringify and escape check (~0.5 µs of an eth_call).
 */
function hexJson(hexResult: string): JsonText {
  return new JsonText('"' + hexResult + '"');
}

function callOutcomeResult(out: CallOutcome): string {
  if (out.reverted) throw revertError(out.returnValue);
  if (out.error) throw new RpcError(-32000, out.error);
  return hex(out.returnValue);
}

/** ethereumjs' tx value names → geth's field and Go type, for rlp decoding errors. */
const GETH_TX_FIELDS: Record<string, [string, string]> = {
  nonce: ['Nonce', 'uint64'],
  gasLimit: ['Gas', 'uint64'],
  gasPrice: ['GasPrice', '*big.Int'],
  maxPriorityFeePerGas: ['GasTipCap', '*big.Int'],
  maxFeePerGas: ['GasFeeCap', '*big.Int'],
  value: ['Value', '*big.Int'],
  chainId: ['ChainID', '*big.Int'],
  v: ['V', '*big.Int'],
  r: ['R', '*big.Int'],
  s: ['S', '*big.Int'],
};

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** geth's isProtectedV: a legacy tx's V other than 0, 1, 27 and 28 claims EIP-155 protection. */
function isProtectedV(v: bigint): boolean {
  return v !== 0n && v !== 1n && v !== 27n && v !== 28n;
}

/**
 * Whether geth's signer takes a decoded tx's signature (types.Sender: the chain id of a typed tx
 * or of a protected V, then recoverPlain's ValidateSignatureValues with EIP-2's low s). Values
 * that are not canonical byte strings are left for the decoder to word (undefined).
 */
function gethSignatureOK(type: number, values: unknown[], chainId: bigint): boolean | undefined {
  const sig = values.slice(-3);
  if (!sig.every((x) => x instanceof Uint8Array && x[0] !== 0)) return undefined;
  const [v, r, s] = (sig as Uint8Array[]).map((b) => bytesToBigInt(b));
  let recId: bigint;
  if (type === 0) recId = isProtectedV(v) ? v - 35n - 2n * chainId : v - 27n;
  else {
    const id = values[0];
    if (!(id instanceof Uint8Array) || bytesToBigInt(id) !== chainId) return false;
    recId = v;
  }
  return (recId === 0n || recId === 1n) && r >= 1n && s >= 1n && r < SECP256K1_N && s <= SECP256K1_N >> 1n;
}

/** ethereumjs' constructor from decoded fields, by type byte (what createTxFromRLP calls after decoding). */
const TX_FROM_VALUES: Record<number, (values: never, opts: TxOptions) => TypedTransaction> = {
  0: createLegacyTxFromBytesArray,
  1: createAccessList2930TxFromBytesArray,
  2: create1559FeeMarketTxFromBytesArray,
};

export class EvmBackend {
  /** Dev accounts that eth_sendTransaction can sign for: lower-case address → key. */
  readonly signers = new Map<string, Uint8Array>();
  readonly impersonated = new Set<string>();
  /** anvil_autoImpersonateAccount: every sender of eth_sendTransaction impersonated. */
  autoImpersonate = false;
  /** geth's account manager: the dev accounts and the key directory (src/evm/keystore). */
  readonly accountManager: AccountManager;
  /** geth's AddrLocker: one nonce assignment per sender at a time on the signing send paths. */
  private readonly nonceLocks = new Map<string, Promise<unknown>>();

  constructor(
    readonly chain: Blockchain,
    readonly pool: TxPool,
    readonly miner: Miner,
    readonly consensus: Consensus,
    readonly config: VmConfig,
    readonly accounts: DevAccount[],
    readonly log: Logger,
    readonly clientVersion: string,
    readonly builder: BlockBuilder,
    readonly genesis: Genesis,
    readonly ctx: ChainContext,
  ) {
    this.oracle = new GasPriceOracle(config.txPoolPriceLimit);
    for (const a of accounts) this.signers.set(a.address.toLowerCase(), Buffer.from(a.privateKey.slice(2), 'hex'));
    this.accountManager = new AccountManager(this.signers, new KeyStore({ dir: config.keystoreDirectory }));
  }

  /** Drops unlocked keys and removes an ephemeral key directory (chain shutdown). */
  close(): void {
    this.accountManager.keystore.close();
  }

  /**
   * Runs `f` holding the sender's nonce lock when the nonce is left to the node (geth's
   * AddrLocker around setDefaults, signing and submission), so two sends never take one nonce.
   */
  async withNonceLock<T>(from: string, hold: boolean, f: () => Promise<T>): Promise<T> {
    if (!hold) return f();
    const prev = this.nonceLocks.get(from) ?? Promise.resolve();
    const run = prev.then(f, f);
    const tail = run.catch(() => undefined);
    this.nonceLocks.set(from, tail);
    void tail.then(() => {
      if (this.nonceLocks.get(from) === tail) this.nonceLocks.delete(from);
    });
    return run;
  }

  get chainId(): bigint {
    return this.chain.rules.chainId;
  }

  // --- blocks -------------------------------------------------------------------------------

  /** Resolves a block spec (§1.3); `null` when a hash is unknown. */
  resolve(spec: BlockSpec | undefined): Block | null {
    const chain = this.chain;
    if (!spec) return chain.head;
    if (spec.kind === 'tag') return spec.tag === 'earliest' ? chain.blockByNumber(0n)! : chain.head;
    if (spec.kind === 'number') {
      if (spec.number > chain.head.header.number) {
        // With allow-unfinalized-queries the real node looks the number up and finds no header.
        if (this.config.allowUnfinalizedQueries) return null;
        throw new RpcError(-32000, 'cannot query unfinalized data');
      }
      return chain.blockByNumber(spec.number) ?? null;
    }
    const b = chain.blockByHash(Buffer.from(spec.hash.slice(2), 'hex'));
    if (!b || !chain.isCanonical(b)) {
      if (spec.requireCanonical && b) throw new RpcError(-32000, 'hash is not currently canonical');
      return null;
    }
    return b;
  }

  /** For state methods: an unknown block is an error. */
  resolveForState(spec: BlockSpec | undefined): Block {
    const b = this.resolve(spec);
    if (!b) throw new RpcError(-32000, spec?.kind === 'hash' ? 'header for hash not found' : 'header not found');
    return b;
  }

  // --- state --------------------------------------------------------------------------------

  async account(b: Block, addr: string): Promise<Account> {
    return this.chain.accountAt(b, createAddressFromString(addr));
  }

  // --- execution ----------------------------------------------------------------------------

  /** Writes eth_call's state overrides into `sm` (also eth_simulateV1's, at the start of their block). */
  async applyOverrides(sm: StateManagerInterface, overrides: Map<string, StateOverride>): Promise<void> {
    for (const [addr, o] of overrides) {
      const a = createAddressFromString(addr);
      const acc = (await sm.getAccount(a)) ?? new Account();
      if (o.balance !== undefined) acc.balance = o.balance;
      if (o.nonce !== undefined) acc.nonce = o.nonce;
      await sm.putAccount(a, acc);
      if (o.code !== undefined) await sm.putCode(a, o.code);
      if (o.state) {
        await sm.clearStorage(a);
        for (const [k, v] of o.state) await sm.putStorage(a, Buffer.from(k.slice(2), 'hex'), stripZeros(v));
      }
      if (o.stateDiff) for (const [k, v] of o.stateDiff) await sm.putStorage(a, Buffer.from(k.slice(2), 'hex'), stripZeros(v));
    }
  }

  /**
   * Runs a message like geth's DoCall: on a throw-away copy of the state at `block`, with the
   * block's own header (number = that block), NoBaseFee semantics, and the gas cap.
   */
  async call(
    args: CallArgs,
    block: Block,
    opts: {
      overrides?: Map<string, StateOverride>;
      blockOverrides?: BlockOverrides;
      gasCapDefault?: bigint;
      trace?: (vm: any) => void;
      /** Reuse a prepared state + VM (overrides already applied); the run is reverted afterwards. */
      session?: CallSession;
      /** api-max-duration: abort the run after this long (eth_call only; 0 = none). */
      timeoutMs?: number;
      /** The error a run aborted at `timeoutMs` throws (default: api-max-duration's). */
      timeoutError?: () => Error;
      /** A plain eth_call: may run without runTx when plainCall.ts can run it. */
      plain?: boolean;
      /** `trace` can answer for a run that never starts a frame (eth_createAccessList's tracer). */
      framelessTrace?: boolean;
      /** Receives the run's console.log lines (consoleLog.ts). */
      console?: ConsoleSink;
    } = {},
  ): Promise<CallOutcome> {
    const chain = this.chain;
    const bo = opts.blockOverrides;
    // (Read only below: a copy only when overrides change it.)
    const header: ChainHeader = bo ? { ...block.header } : block.header;
    if (bo) {
      if (bo.number !== undefined) header.number = bo.number;
      if (bo.time !== undefined) header.timestamp = bo.time;
      if (bo.gasLimit !== undefined) header.gasLimit = bo.gasLimit;
      if (bo.coinbase !== undefined) header.coinbase = Buffer.from(bo.coinbase.slice(2), 'hex');
      if (bo.baseFee !== undefined) header.baseFee = bo.baseFee;
    }
    const fork = chain.forkAt(header.timestamp);
    const common = chain.commons.get(fork);
    const session = opts.session;
    const sm: StateManagerInterface = session?.sm ?? chain.stateView(block);
    if (!session && opts.overrides) await this.applyOverrides(sm, opts.overrides);
    const from = args.from === undefined ? ZERO_ADDRESS : createAddressFromString(args.from);
    const cap = this.config.rpcGasCap;
    // geth's ToMessage: without a gas cap (0) a call without gas gets MaxUint64 / 2.
    let gas = args.gas ?? opts.gasCapDefault ?? (cap > 0n ? cap : 0x7fffffffffffffffn);
    if (cap > 0n && gas > cap) gas = cap;
    const value = args.value ?? 0n;
    const zeroFees = !args.gasPrice && !args.maxFeePerGas && !args.maxPriorityFeePerGas;
    const baseFee = header.baseFee ?? 0n;
    const ctxBaseFee = zeroFees ? 0n : baseFee;
    let held = accountNowFor(sm, from); // (a call state's, without getAccount's promise: readsNow.ts)
    if (held === NOT_NOW) held = await sm.getAccount(from);
    const acc = held ?? new Account();
    // The initcode limit is checked below, in geth's place and words (ethereumjs checks it on construction).
    const common2 = { common, freeze: false, allowUnlimitedInitCodeSize: true };
    if (args.gasPrice !== undefined && (args.maxFeePerGas !== undefined || args.maxPriorityFeePerGas !== undefined)) {
      throw new RpcError(-32000, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
    }
    let feeCap: bigint;
    let tx: TypedTransaction;
    const data = args.data ?? new Uint8Array();
    const type = args.maxFeePerGas !== undefined || args.maxPriorityFeePerGas !== undefined || (args.type === 2n && args.gasPrice === undefined) ? 2 : args.accessList !== undefined ? 1 : 0;
    // geth's ToMessage: an absent fee field is 0 (a tip alone fails the tip-above-fee-cap check).
    const tip = args.maxPriorityFeePerGas ?? 0n;
    if (type === 2) {
      const maxFee = args.maxFeePerGas ?? 0n;
      if (maxFee < tip) throw new CallPrecheckError(tipAboveFeeCap(checksumAddress(from.toString()), tip, maxFee), gas);
      feeCap = maxFee;
    } else {
      feeCap = args.gasPrice ?? 0n;
    }
    // The transaction's fields, for the calls that build a real one (the plain path reads five).
    // `base` is spread last: on Node 20 each new key after a spread costs V8 ~0.7 µs (performance.md, session 9).
    const txData = (): Record<string, unknown> => {
      const base = { nonce: acc.nonce, gasLimit: gas, to: args.to, value, data, r: BigInt(from.toString()) || 1n, s: 1n };
      if (type === 2) return { type: 2, maxFeePerGas: feeCap, maxPriorityFeePerGas: tip, accessList: args.accessList ?? [], v: 0n, chainId: this.chainId, ...base };
      if (type === 1) return { type: 1, gasPrice: feeCap, accessList: args.accessList, v: 0n, chainId: this.chainId, ...base };
      return { type: 0, gasPrice: feeCap, v: 27n, ...base };
    };
    if (!zeroFees && feeCap < baseFee) {
      throw new CallPrecheckError(feeCapBelowBaseFee(checksumAddress(from.toString()), feeCap, baseFee), gas);
    }
    const price = zeroFees ? 0n : feeCap;
    const mgval = gas * price;
    // geth's buyGas: the balance must cover gas × fee cap plus the value, zero fees included.
    // Checked before the tx is made: ethereumjs refuses a gas × price above 2^256 - 1 in its own
    // words, where geth (with no such limit) finds the balance short.
    if (acc.balance < mgval + value) {
      throw new CallPrecheckError(insufficientFunds(checksumAddress(from.toString()), acc.balance, mgval + value), gas);
    }
    const realTx = () => {
      let t: TypedTransaction;
      try {
        t = withSender(createGethTx(txData(), common2), from); // also an account nonce of 2^64-1 (gethTx.ts)
      } catch (e) {
        throw new RpcError(-32000, (e as Error).message);
      }
      return warpPrepareTx(chain, t, header.timestamp); // warp predicate gas (src/warp)
    };
    // A call the plain path will run (most eth_calls) reads five fields of its transaction:
    // plainCallTx makes just those (no access list: no warp predicate gas either).
    const light = opts.plain === true && !opts.trace && type === 0 && feeCap === 0n && args.to !== undefined;
    tx = (light && plainCallTx(common, { nonce: acc.nonce, gasLimit: gas, to: args.to!, value, data })) || realTx();
    const intrinsic = tx.getIntrinsicGas();
    if (gas < intrinsic) throw new CallPrecheckError(intrinsicGasTooLow(gas, intrinsic), gas);
    if (acc.balance - mgval < value) throw new CallPrecheckError(`insufficient funds for transfer: address ${checksumAddress(from.toString())}`, gas);
    if (args.to === undefined && tx.data.length > MAX_INITCODE_SIZE && common.isActivatedEIP(3860)) {
      throw new CallPrecheckError(initcodeTooLarge(tx.data.length), gas);
    }
    if (args.to === undefined && acc.nonce >= MAX_NONCE && (!opts.trace || opts.framelessTrace)) {
      // geth's evm.create: a creator at nonce 2^64-1 fails with ErrNonceUintOverflow, its gas
      // returned (calls skip the nonce checks that would refuse such a transaction first), before
      // any tracer hears of a frame. ethereumjs would create at nonce 2^64.
      return { result: undefined, returnValue: new Uint8Array(), gasUsed: intrinsic, error: 'nonce uint64 overflow', reverted: false };
    }
    let vm = session?.vm;
    if (!vm) {
      vm = await makeVM(common, sm, blockHashSource((n) => chain.store.canonicalHash(n)));
      await this.consensus.prepareVM(vm, header, block);
    }
    warpOf(chain)?.startCall(vm, header.timestamp); // the call's warp predicates for the precompile
    if (opts.trace) opts.trace(vm);
    const execCtx = execBlockOfCall(header, common, ctxBaseFee);
    let result: RunTxResult | undefined;
    let run: { execResult: RunTxResult['execResult']; totalGasSpent: bigint };
    // (A call state's checkpoint and revert hand back SETTLED: no await, no microtask turn.)
    if (session) {
      const p = sm.checkpoint();
      if (p !== SETTLED) await p;
    }
    const plainRun = opts.plain === true && !opts.trace && canRunPlainCall(vm, tx);
    if (!plainRun && isPlainCallTx(tx)) tx = realTx(); // (a VM with DEBUG, or a fork's rules this path does not run)
    // The plain path skips the EOA check itself; runTx needs the sender's code hash masked.
    const unmask = plainRun ? undefined : skipEOACheck(sm, from);
    try {
      setConsole(vm.evm, opts.console);
      const timeoutMs = opts.timeoutMs ?? 0;
      if (plainRun && timeoutMs <= 0) {
        // withDeadline without a deadline is withYielding: its halves here, around the run's await.
        const registered = beginYielding(vm.evm);
        try {
          run = await runPlainCall(vm, tx, execCtx, from, intrinsic);
        } finally {
          if (registered) endYielding(vm.evm);
        }
      } else if (plainRun) run = await withDeadline(vm.evm, timeoutMs, () => runPlainCall(vm, tx, execCtx, from, intrinsic));
      else run = result = (await withDeadline(vm.evm, opts.timeoutMs ?? 0, () => runTxSubnetEVM(vm, tx, execCtx, 0n, { skipNonce: true }))).result;
    } catch (e) {
      if (e instanceof CallTimeoutError) throw opts.timeoutError?.() ?? new UnexpectedCallError(-32000, `execution aborted (timeout = ${goDuration(opts.timeoutMs!)})`);
      const invalid = this.consensus.invalidTxReason(vm);
      // An exception out of runTx may be a rule of the tx or an internal failure (e.g. a database
      // read): same answer on the wire, but ethCall must not remember the latter.
      if (invalid) throw new RpcError(-32000, invalid);
      throw new UnexpectedCallError(-32000, (e as Error).message);
    } finally {
      setConsole(vm.evm, undefined);
      unmask?.();
      if (session) {
        const p = sm.revert();
        if (p !== SETTLED) await p;
      }
    }
    const invalid = this.consensus.invalidTxReason(vm);
    if (invalid) throw new RpcError(-32000, invalid);
    const ex = run.execResult.exceptionError;
    const reverted = ex?.error === 'revert';
    return {
      result,
      returnValue: run.execResult.returnValue,
      gasUsed: run.totalGasSpent,
      error: ex ? (reverted ? 'execution reverted' : gethEvmError(ex, (run.execResult.runState as { opCode?: number } | undefined)?.opCode)) : undefined,
      reverted,
    };
  }

  /** State + VM at `block` for several runs (estimateGas): built once, each run reverted. */
  async callSession(block: Block, overrides?: Map<string, StateOverride>): Promise<CallSession> {
    return this.sessionAt(block, this.chain.stateRootOf(block), overrides);
  }

  /**
   * Idle call sessions (state view + VM, each run reverted) per block state: creating a VM and a
   * trie view costs more than a typical eth_call, so plain calls reuse them. A session serves
   * one call at a time; at most a few states and a few sessions per state are kept.
   */
  private readonly idleSessions = new Map<string, CallSession[]>();
  /** Calls waiting for a session of their state to be handed over (see nextSession), per state. */
  private readonly sessionWaiters = new Map<string, ((s: CallSession) => boolean)[]>();
  /** Sessions in use, per state. */
  private readonly busySessions = new Map<string, number>();

  /**
   * A session another call of the same state hands over when it ends, or undefined once the
   * microtask queue has run out first. Calls that arrive together (a busy turn of many
   * connections) then run one after another on one session, where each used to make a session
   * of its own beyond the eight kept (a VM each) and all of them ran interleaved, alive together
   * through every scavenge: at 32 connections ~114 µs of the node's CPU per new-holder call
   * against ~98 this way (docs/performance.md, session 38). A call that waits for more than
   * microtasks (a long call gives the event loop turns, callYield.ts) holds nobody back: a tick
   * queued from a microtask runs once the microtask queue is empty (Node runs the ticks queued
   * meanwhile after it), and the waiter then makes its own session, as before.
   */
  private nextSession(key: string): Promise<CallSession | undefined> {
    return new Promise((resolve) => {
      let waiting = true;
      const take = (s: CallSession | undefined) => {
        if (!waiting) return false;
        waiting = false;
        resolve(s);
        return true;
      };
      let list = this.sessionWaiters.get(key);
      if (!list) this.sessionWaiters.set(key, (list = []));
      list.push(take);
      queueMicrotask(() =>
        process.nextTick(() => {
          if (!take(undefined)) return;
          const l = this.sessionWaiters.get(key);
          if (l === undefined) return;
          l.splice(l.indexOf(take), 1);
          if (l.length === 0) this.sessionWaiters.delete(key);
        }),
      );
    });
  }

  /** Gives `session` to the first call still waiting for one of its state; false if none is. */
  private handOver(key: string, session: CallSession): boolean {
    const list = this.sessionWaiters.get(key);
    if (list === undefined) return false;
    let given = false;
    while (!given && list.length > 0) given = list.shift()!(session);
    if (list.length === 0) this.sessionWaiters.delete(key);
    if (given) callSessionStats.handedOver++;
    return given;
  }

  private async withCallSession<T>(block: Block, root: Uint8Array, key: string, fn: (s: CallSession) => Promise<T>): Promise<T> {
    let session = this.idleSessions.get(key)?.pop();
    if (session === undefined && (this.busySessions.get(key) ?? 0) > 0) session = await this.nextSession(key);
    this.busySessions.set(key, (this.busySessions.get(key) ?? 0) + 1);
    let reusable = false;
    try {
      session ??= await this.sessionAt(block, root);
      const r = await fn(session);
      reusable = true;
      return r;
    } catch (e) {
      // Errors of the call itself leave the session reverted; anything else (a failing read, an
      // aborted run) discards it.
      reusable = e instanceof RpcError && !(e instanceof UnexpectedCallError);
      throw e;
    } finally {
      const busy = this.busySessions.get(key)! - 1;
      if (busy > 0) this.busySessions.set(key, busy);
      else this.busySessions.delete(key);
      if (reusable && session !== undefined && !this.handOver(key, session)) {
        let list = this.idleSessions.get(key);
        if (!list) {
          if (this.idleSessions.size >= 4) this.idleSessions.delete(this.idleSessions.keys().next().value!);
          this.idleSessions.set(key, (list = []));
        }
        if (list.length < 8) list.push(session);
      }
    }
  }

  /** A call session on exactly the state `root` (the one its cache keys name) at `block`. */
  private async sessionAt(block: Block, root: Uint8Array, overrides?: Map<string, StateOverride>): Promise<CallSession> {
    callSessionStats.made++;
    const chain = this.chain;
    const common = chain.commons.get(chain.forkAt(block.header.timestamp));
    // The state root's content is read once per root (StateReader); the session's writes are an overlay.
    const sm = new CallState(chain.state.reader(common, root));
    if (overrides) await this.applyOverrides(sm, overrides);
    const vm = await makeVM(common, sm, blockHashSource((n) => chain.store.canonicalHash(n)));
    await this.consensus.prepareVM(vm, block.header, block);
    return { sm, vm };
  }

  /**
   * Outcomes of plain eth_calls (no overrides), exact: keyed by block hash, the state root the
   * call runs on, the fork and every argument (see callCache.ts). Per chain backend.
   */
  readonly callResults = new CallResultCache();

  /**
   * eth_call result: return data, or the revert / EVM error. A remembered outcome is answered at
   * once (no await: a cached call costs what eth_chainId does); anything else runs.
   */
  ethCall(args: CallArgs, block: Block, overrides?: Map<string, StateOverride>, blockOverrides?: BlockOverrides): JsonText | Promise<JsonText> {
    const plain = (!overrides || overrides.size === 0) && !blockOverrides;
    const timeoutMs = this.config.apiMaxDurationMs;
    if (!plain) {
      const sink = new ConsoleSink();
      return this.call(args, block, { overrides, blockOverrides, timeoutMs, console: sink })
        .finally(() => logConsole(this.log, sink, CALL_FIELDS))
        .then(
          (out) => hexJson(callOutcomeResult(out)),
          (e) => {
            throw doCallError(e);
          },
        );
    }
    // The state root is read once: the session and the cache key both name exactly this state.
    const root = this.chain.stateRootOf(block);
    const stateKey = this.stateKeyOf(block, root);
    const cacheKey = callCacheKey(stateKey, this.chain.forkAt(block.header.timestamp), args);
    const memo = cacheKey === undefined ? undefined : this.callResults.get(cacheKey);
    if (memo) {
      if ('result' in memo) return hexJson(memo.result);
      throw new RpcError(memo.error.code, memo.error.message, memo.error.data);
    }
    return this.runEthCall(args, block, root, stateKey, cacheKey, timeoutMs);
  }

  /** The last state key made (see stateKeyOf). */
  private lastStateKey: { block: Block | undefined; root: Uint8Array | undefined; key: string } = { block: undefined, root: undefined, key: '' };
  /** Short keys of the states calls ran on, by their block's hash and root (see stateKeyOf). */
  private readonly stateKeys = new Map<string, string>();
  private stateKeyCount = 0;

  /**
   * A short key of the state a call runs on (its block's hash and the root it reads), for the call
   * cache's and the call sessions' maps: `s<n>`, one per distinct state, never reused. The call
   * cache's key starts with it, where it began with the 130 characters of the hash and the root,
   * which V8 flattened and hashed for every lookup and the cache's admission hashed again (with
   * the root's hex and the concatenation, ~4 % of a new-holder eth_call; docs/performance.md
   * session 40). A run of calls on one state reuses the last key without a lookup (roots are
   * replaced, never written in place). Forgetting the map (bounded) only costs the old states'
   * cached outcomes their hits: their new key is a new number.
   */
  private stateKeyOf(block: Block, root: Uint8Array): string {
    const last = this.lastStateKey;
    if (last.block !== block || last.root !== root) {
      const full = block.hashHex + hex(root);
      let key = this.stateKeys.get(full);
      if (key === undefined) {
        if (this.stateKeys.size >= 4096) this.stateKeys.clear();
        key = 's' + ++this.stateKeyCount;
        this.stateKeys.set(full, key);
      }
      last.block = block;
      last.root = root;
      last.key = key;
    }
    return last.key;
  }

  private async runEthCall(args: CallArgs, block: Block, root: Uint8Array, stateKey: string, cacheKey: string | undefined, timeoutMs: number): Promise<JsonText> {
    let result: string;
    const sink = new ConsoleSink();
    try {
      result = callOutcomeResult(await this.withCallSession(block, root, stateKey, (session) => this.call(args, block, { session, timeoutMs, plain: true, console: sink })));
    } catch (err) {
      const e = doCallError(err);
      logConsole(this.log, sink, CALL_FIELDS);
      // The call's own errors (argument checks, reverts, EVM errors) are as deterministic as its
      // results; anything else (e.g. a failing database read) is not remembered. Nor is a call
      // that printed: the same call again prints again, as it runs again.
      if (cacheKey !== undefined && sink.lines.length === 0 && e instanceof RpcError && !(e instanceof UnexpectedCallError)) {
        this.callResults.set(cacheKey, { error: { code: e.code, message: e.message, data: e.data } });
      }
      throw e;
    }
    logConsole(this.log, sink, CALL_FIELDS);
    if (cacheKey !== undefined && sink.lines.length === 0) this.callResults.set(cacheKey, { result });
    return hexJson(result);
  }

  /** geth's estimateGas: binary search between the used gas and the cap. */
  async estimateGas(args: CallArgs, block: Block, overrides?: Map<string, StateOverride>): Promise<bigint> {
    let hi = args.gas !== undefined && args.gas >= 21000n ? args.gas : block.header.gasLimit;
    const cap = this.config.rpcGasCap;
    const feeCap = args.gasPrice ?? args.maxFeePerGas ?? 0n;
    if (feeCap > 0n) {
      // geth: the sender (the zero address without `from`) must keep something after a given value.
      const acc = await this.account(block, args.from ?? ZERO_ADDRESS_HEX);
      const value = args.value ?? 0n;
      if (args.value !== undefined && value >= acc.balance) throw new RpcError(-32000, 'insufficient funds for transfer');
      const allowance = (acc.balance - value) / feeCap;
      if (hi > allowance) hi = allowance;
    }
    if (cap > 0n && hi > cap) hi = cap;
    if (overrides?.size) return this.estimateOn(await this.callSession(block, overrides), args, block, hi, overrides);
    // Without overrides, on an idle session of eth_call's for that state (a VM and a state view
    // cost more than an ETH transfer's estimate) when there is one.
    const root = this.chain.stateRootOf(block);
    return this.withCallSession(block, root, this.stateKeyOf(block, root), (session) => this.estimateOn(session, args, block, hi));
  }

  /** estimateGas's runs on `session` (each reverted), between the used gas and `hi`. */
  private async estimateOn(session: CallSession, args: CallArgs, block: Block, hi: bigint, overrides?: Map<string, StateOverride>): Promise<bigint> {
    // Without overrides each run may take the plain-call path (plainCall.ts: same gas, less work).
    const run = (gas: bigint) => this.call({ ...args, gas }, block, { session, plain: !overrides?.size });
    // geth: a plain value transfer is tried at 21000 first.
    if (args.to && (!args.data || args.data.length === 0) && !overrides?.size) {
      const code = await this.chain.readView(block).getCode(createAddressFromString(args.to));
      if (code.length === 0 && hi >= 21000n) {
        const r = await run(21000n).catch(() => undefined);
        if (r && !r.error) return 21000n;
      }
    }
    const first = await run(hi).catch((e) => {
      if (e instanceof RpcError && /^intrinsic gas too low/.test(e.message)) throw new RpcError(-32000, `gas required exceeds allowance (${hi})`);
      throw e;
    });
    if (first.error) {
      if (first.reverted) throw revertError(first.returnValue);
      if (first.error === 'out of gas') throw new RpcError(-32000, `gas required exceeds allowance (${hi})`);
      throw new RpcError(-32000, first.error);
    }
    let lo = first.gasUsed - 1n;
    const ok = async (gas: bigint) => {
      try {
        const r = await run(gas);
        return !r.error;
      } catch (e) {
        if (e instanceof RpcError && /^intrinsic gas too low/.test(e.message)) return false;
        throw e;
      }
    };
    // Optimistic guess like geth 1.13: used gas * 64/63 usually succeeds.
    const optimistic = ((first.gasUsed + 2300n) * 64n) / 63n;
    if (optimistic < hi) {
      if (await ok(optimistic)) hi = optimistic;
      else lo = optimistic;
    }
    while (lo + 1n < hi) {
      if ((hi - lo) * 1000n < hi * 15n) break; // within 1.5 %, as geth
      let mid = (hi + lo) / 2n;
      if (mid > lo * 2n) mid = lo * 2n;
      if (await ok(mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  // --- submission ---------------------------------------------------------------------------

  /**
   * A signed tx's bytes decoded as geth's types.Transaction.UnmarshalBinary decodes them (its
   * checks, in its order and words), on the head's rules; `sent` is the decoded fields.
   */
  decodeRawTransaction(raw: Uint8Array): { tx: TypedTransaction; sent: ReturnType<typeof decodeTxFields>['values'] } {
    const chain = this.chain;
    const head = chain.head;
    const common = chain.commons.get(chain.forkAt(head.header.timestamp));
    // geth's types.Transaction.UnmarshalBinary checks, in its order and words.
    if (raw.length === 0 || (raw[0] <= 0x7f && raw.length <= 1)) throw new RpcError(-32000, 'typed transaction too short');
    // Typed envelopes other than 0x01 and 0x02 (blob, set-code, unknown): Subnet-EVM takes none.
    if (raw[0] <= 0x7f && raw[0] !== 1 && raw[0] !== 2) throw new RpcError(-32000, 'transaction type not supported');
    // Decoded here, not by ethereumjs: it takes shapes geth's decoder refuses (a 6-field unsigned
    // legacy tx), so the shape is checked first and the decoded fields are handed on.
    const fields = decodeTxFields(raw);
    if (fields.error) throw new RpcError(-32000, txRlpErrorText(fields.error));
    const type = raw[0] > 0x7f ? 0 : raw[0];
    let values = fields.values;
    // geth decodes any V, R and S (big.Ints) and finds a bad signature only at types.Sender, in
    // the pool after the fee cap, replay-protection and pool checks: `invalid sender`. ethereumjs
    // refuses such values in its constructor with its own texts, so the tx goes on unsigned (as
    // one with empty signature fields does) and fails in the pool at the sender as geth's does.
    const sigOK = values && gethSignatureOK(type, values, this.chainId);
    if (values && sigOK === false) {
      values = [...values.slice(0, -3), new Uint8Array(), new Uint8Array(), new Uint8Array()];
      if (type !== 0) values[0] = bigIntToUnpaddedBytes(this.chainId);
    }
    let tx: TypedTransaction;
    try {
      // Also a nonce of 2^64-1 and a gas × fee cap past 2^256, which geth decodes (gethTx.ts).
      // The initcode limit is the pool's check (its text), not the decoder's (ethereumjs checks it in the constructor).
      const opts = { common, allowUnlimitedInitCodeSize: true };
      tx = values ? gethTxFromValues(type, values, TX_FROM_VALUES[type], opts) : createTxFromRLP(raw, opts);
    } catch (e) {
      // ethereumjs' texts end with a description of the tx, "(tx type=2 hash=… …)".
      const m = (e as Error).message.replace(/\s*\(tx type=.*$/s, '');
      // ethereumjs validates in the constructor what geth checks in the pool.
      if (m.startsWith('maxFeePerGas cannot be less than maxPriorityFeePerGas')) throw new RpcError(-32000, 'max priority fee per gas higher than max fee per gas');
      const zeros = /^(\w+) cannot have leading zeroes/.exec(m);
      const field = zeros && GETH_TX_FIELDS[zeros[1]];
      if (field) {
        const tx = txTypeName(raw[0] > 0x7f ? 0 : raw[0]) ?? 'LegacyTx';
        throw new RpcError(-32000, `rlp: non-canonical integer (leading zero bytes) for ${field[1]}, decoding into (types.${tx}).${field[0]}`);
      }
      if (/type|unknown transaction/i.test(m) && raw[0] < 0x7f) throw new RpcError(-32000, 'transaction type not supported');
      // geth: types.Sender fails (wrong chain id, bad signature values) → ErrInvalidSender.
      if (/chain ?id|signature|Invalid Signature|v value|s-value|s value/i.test(m)) throw new RpcError(-32000, 'invalid sender');
      throw new RpcError(-32000, m.includes('Invalid Signature') ? 'invalid sender' : `rlp: ${m.replace(/\s*\(.*$/s, '')}`);
    }
    // The tx hash is the keccak of its serialization, and the bytes it was decoded from are that
    // serialization: the decoder takes canonical RLP only, and every integer is checked for
    // leading zeros (above and by ethereumjs). The frozen tx keeps the hash, as its hash() would.
    (tx as unknown as { cache: { hash?: Uint8Array } }).cache.hash = keccak256(raw);
    return { tx, sent: fields.values };
  }

  /** eth_sendRawTransaction: decode, check, admit; in automine mode wait for the block. */
  async sendRawTransaction(raw: Uint8Array): Promise<string> {
    const { tx, sent } = this.decodeRawTransaction(raw);
    const type = tx.type;
    // geth's SubmitTransaction: the fee cap (rpc-tx-fee-cap) first, then the replay protection.
    this.checkFeeCap(tx);
    // geth's tx.Protected(): a typed tx always, a legacy one by its V alone (geth decodes empty
    // signature fields as zeros: V = 0 is not protected).
    const protectedTx = sent ? type !== 0 || isProtectedV(bytesToBigInt(sent[6] as Uint8Array)) : isProtected(tx) && (tx.type !== 0 || tx.isSigned());
    if (!protectedTx) {
      const h = hex(keccak256(raw));
      const [r, s] = sent ? [bytesToBigInt(sent[7] as Uint8Array), bytesToBigInt(sent[8] as Uint8Array)] : [tx.r ?? 0n, tx.s ?? 0n];
      const nick = tx.nonce === 0n && r === s;
      if (!this.config.allowUnprotectedTxs && !this.config.allowUnprotectedTxHashes.has(h) && !nick) {
        throw new RpcError(-32000, 'only replay-protected (EIP-155) transactions allowed over RPC');
      }
    } else if (tx.type === 0 && tx.common.chainId() !== this.chainId) {
      throw new RpcError(-32000, 'invalid sender');
    }
    return this.submit(tx, raw, true);
  }

  async submit(tx: TypedTransaction, raw: Uint8Array, feeChecked = false): Promise<string> {
    if (!feeChecked) this.checkFeeCap(tx);
    let added;
    for (let attempt = 0; ; attempt++) {
      const head = this.chain.head;
      try {
        const poolHead = await this.consensus.poolHead(head);
        // A block accepted meanwhile makes the nonce read stale: validate again on the new head.
        if (attempt < 20) poolHead.superseded = () => this.chain.head !== head;
        added = await this.pool.add(warpPrepareTx(this.chain, tx, head.header.timestamp), raw, poolHead);
        break;
      } catch (e) {
        if (e instanceof PoolHeadMovedError) continue;
        if (e instanceof TxPoolError || e instanceof Error) throw new RpcError(-32000, e.message);
        throw e;
      }
    }
    logSubmitted(this.log, added);
    // Automine: the block is built right after this answer, and every later request on this
    // chain waits for it first (Miner.settled, api/methods.ts), so whoever asks next sees the tx
    // mined, as after Hardhat's and Anvil's answer; the client's turn-around overlaps the build.
    this.miner.txAdded();
    return added.hash;
  }

  private checkFeeCap(tx: TypedTransaction): void {
    const price = 'maxFeePerGas' in tx ? (tx as { maxFeePerGas: bigint }).maxFeePerGas : (tx as unknown as { gasPrice: bigint }).gasPrice;
    this.checkTxFee(price, tx.gasLimit);
  }

  /** geth's checkTxFee: price × gas against rpc-tx-fee-cap (in ether; 0 = no cap). */
  checkTxFee(price: bigint, gas: bigint): void {
    const capEth = this.config.rpcTxFeeCap;
    if (capEth === 0) return;
    // big.Float's price × gas / 1e18 to a float64: scaled so the integer quotient keeps the bits.
    const feeEth = Number(((price * gas) << 128n) / 10n ** 18n) / 2 ** 128;
    if (feeEth > capEth) throw new RpcError(-32000, `tx fee (${goFixed2(feeEth)} ether) exceeds the configured cap (${goFixed2(capEth)} ether)`);
  }

  /**
   * eth_sendTransaction: fill in defaults and sign with the wallet's key — a dev key or an unlocked
   * keystore key (`authentication needed: password or unlock` for a locked one) — or impersonate.
   * `unsigned` (Anvil's eth_sendUnsignedTransaction): sent as impersonated, whoever `from` is.
   */
  async sendTransaction(args: CallArgs, { unsigned = false } = {}): Promise<string> {
    // geth's args.from(): no `from` is the zero address, which no wallet holds (`unknown account`).
    const from = (args.from ?? ZERO_ADDRESS_HEX).toLowerCase();
    const signer = unsigned ? { wallet: undefined, impersonating: true } : this.signerOf(from);
    return this.withNonceLock(from, args.nonce === undefined, async () => {
      // geth signs first and checks the fee cap in SubmitTransaction (submit() below).
      const signed = this.signAs(from, signer, await this.fillTransaction({ ...args, from }));
      return this.submit(signed, signed.serialize());
    });
  }

  /**
   * anvil_reorg's tx from a request: filled as eth_sendTransaction fills it, with `nonce`, and
   * signed as it signs (or impersonated), not sent. A missing gas is estimated on the head; if the
   * estimate fails (the tx may need the reorg's earlier txs) the head's gas limit is used, as
   * Anvil falls back to its block gas limit.
   */
  async signedForReorg(args: CallArgs, from: string, nonce: bigint): Promise<TypedTransaction> {
    const signer = this.signerOf(from);
    let gas = args.gas;
    if (gas === undefined) {
      try {
        gas = await this.estimateGas({ ...args, from, nonce, gasPrice: undefined, maxFeePerGas: undefined, maxPriorityFeePerGas: undefined }, this.chain.head);
      } catch {
        gas = this.chain.head.header.gasLimit;
      }
    }
    return this.signAs(from, signer, await this.fillTransaction({ ...args, from, nonce, gas }));
  }

  /** Who signs for `from`: its wallet (a dev or keystore key) and/or impersonation; else geth's `unknown account`. */
  private signerOf(from: string): { wallet: Wallet | undefined; impersonating: boolean } {
    const wallet = this.accountManager.lookup(from);
    const impersonating = this.config.testControls && (this.autoImpersonate || this.impersonated.has(from));
    if (!wallet && !impersonating) throw new RpcError(-32000, 'unknown account');
    return { wallet, impersonating };
  }

  /**
   * `tx` signed as `from` with its wallet's key (a locked keystore key: `authentication needed:
   * password or unlock`), or impersonated (a locked keystore account that is also impersonated is
   * sent as impersonated). Its sender is set: neither the pool nor the block's run recovers it.
   */
  private signAs(from: string, { wallet, impersonating }: { wallet: Wallet | undefined; impersonating: boolean }, tx: TypedTransaction): TypedTransaction {
    const lockedButImpersonated = wallet?.kind === 'keystore' && impersonating && !this.accountManager.keystore.isUnlocked(from);
    const key = wallet && !lockedButImpersonated ? accountsCall(() => this.accountManager.unlockedKey(wallet)) : undefined;
    if (key) {
      const signed = tx.sign(key);
      // Signed here with `from`'s key, so its sender is `from` (~100 µs of recovery saved twice).
      // Frozen as a decoded raw tx is, it keeps its hash once computed.
      if (!Object.isFrozen(signed)) Object.freeze(withSender(signed, createAddressFromString(from)));
      return signed;
    }
    // Impersonated: a fake signature keeps the hash unique; the sender is stored with the block.
    const signedFake = (tx as unknown as { addSignature(v: bigint, r: bigint, s: bigint, convertV?: boolean): TypedTransaction }).addSignature(0n, BigInt(from), 1n, true);
    return withSender(signedFake, createAddressFromString(from));
  }

  /**
   * geth's TransactionAPI.Resend: the pending tx of `from` that `args` (filled as eth_sendTransaction
   * fills them, nonce required) describes — same signing hash — is signed again with `gasPrice` and
   * `gasLimit` when given (non-zero; as in geth, a new gas price changes only a legacy or
   * access-list tx) and sent, which the pool takes as a replacement (its price bump rule applies).
   * The new price × gas is checked against rpc-tx-fee-cap first. No match:
   * `transaction <hash of the unsigned tx> not found`.
   */
  async resend(args: CallArgs, gasPrice: bigint | undefined, gasLimit: bigint | undefined): Promise<string> {
    if (args.nonce === undefined) throw new RpcError(-32000, 'missing transaction nonce in transaction spec');
    const from = (args.from ?? ZERO_ADDRESS_HEX).toLowerCase();
    const filled = await this.setDefaults({ ...args, from });
    const match = this.toTransaction(filled);
    // geth's matchTx.GasPrice(): the fee cap of a dynamic-fee tx.
    this.checkTxFee(gasPrice ?? filled.maxFeePerGas ?? filled.gasPrice!, gasLimit ?? filled.gas);
    const want = Buffer.from(match.getHashedMessageToSign());
    for (const p of this.pool.split(from).pending) {
      if (!want.equals(p.tx.getHashedMessageToSign())) continue;
      const again: FilledArgs = { ...filled };
      if (gasPrice !== undefined && gasPrice !== 0n) again.gasPrice = gasPrice;
      if (gasLimit !== undefined && gasLimit !== 0n) again.gas = gasLimit;
      const signed = this.signAs(from, this.signerOf(from), this.toTransaction(again));
      return this.submit(signed, signed.serialize());
    }
    // The hash of the unsigned tx (no signature: empty V, R, S), as geth's matchTx.Hash().
    throw new RpcError(-32000, `transaction 0x${Buffer.from(keccak256(match.serialize())).toString('hex')} not found`);
  }

  /**
   * geth's setDefaults: nonce (pending), gas (estimate), fees (1559 with suggested tip), value and
   * chain id; the args as geth's toTransaction() reads them.
   */
  async setDefaults(args: CallArgs): Promise<FilledArgs> {
    checkDataInput({ data: args.rawData, input: args.rawInput });
    const head = this.chain.head;
    const from = args.from ?? ZERO_ADDRESS_HEX;
    if (args.chainId !== undefined && args.chainId !== this.chainId) throw new RpcError(-32000, `chainId does not match node's (have=${args.chainId}, want=${this.chainId})`);
    const stateNonce = (await this.account(head, from)).nonce;
    const nonce = args.nonce ?? this.pool.pendingNonce(from, stateNonce);
    const data = args.data ?? new Uint8Array();
    if (args.to === undefined && data.length === 0) throw new RpcError(-32000, 'contract creation without any data provided');
    let fees: Pick<FilledArgs, 'gasPrice' | 'maxFeePerGas' | 'maxPriorityFeePerGas'>;
    if (args.gasPrice !== undefined && (args.maxFeePerGas !== undefined || args.maxPriorityFeePerGas !== undefined)) {
      throw new RpcError(-32000, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
    }
    if (args.gasPrice !== undefined || args.type === 0n || args.type === 1n) {
      fees = { gasPrice: args.gasPrice ?? (await this.gasPrice()), maxFeePerGas: undefined, maxPriorityFeePerGas: undefined };
    } else {
      const tip = args.maxPriorityFeePerGas ?? (await this.suggestTip());
      // The base fee is estimated only for a missing fee cap (an invalid stored fee config fails it).
      const maxFee = args.maxFeePerGas ?? tip + ((await this.consensus.estimateNextBaseFee(head, this.miner.clock.nowMs())) ?? 0n) * 2n;
      // geth formats the two *hexutil.Big with %v: hex.
      if (maxFee < tip) throw new RpcError(-32000, `maxFeePerGas (0x${maxFee.toString(16)}) < maxPriorityFeePerGas (0x${tip.toString(16)})`);
      fees = { maxFeePerGas: maxFee, maxPriorityFeePerGas: tip };
    }
    let gas = args.gas;
    if (gas === undefined) {
      gas = await this.estimateGas({ ...args, from, nonce, gasPrice: undefined, maxFeePerGas: undefined, maxPriorityFeePerGas: undefined }, head);
    }
    return { ...args, ...fees, from, nonce, gas, value: args.value ?? 0n, data, chainId: this.chainId };
  }

  /**
   * geth's args.toTransaction() (unsigned): a dynamic-fee tx with maxFeePerGas, else an access-list
   * tx with an access list, else legacy. Built by gethTx.ts, which takes geth's value ranges; the
   * initcode size is left to the pool and the state transition, as in geth.
   */
  toTransaction(a: FilledArgs): TypedTransaction {
    const common = this.chain.commons.get(this.chain.forkAt(this.chain.head.header.timestamp));
    const base = { nonce: a.nonce, gasLimit: a.gas, to: a.to, value: a.value, data: a.data, chainId: a.chainId };
    const txData =
      a.maxFeePerGas !== undefined
        ? { type: 2, maxFeePerGas: a.maxFeePerGas, maxPriorityFeePerGas: a.maxPriorityFeePerGas, accessList: a.accessList ?? [], ...base }
        : { type: a.accessList ? 1 : 0, gasPrice: a.gasPrice, accessList: a.accessList, ...base };
    return createGethTx(txData, { common, freeze: false, allowUnlimitedInitCodeSize: true });
  }

  /**
   * geth's setDefaults and toTransaction. `checkFee`: geth's checkTxFee (rpc-tx-fee-cap) on the
   * filled price and gas, for eth_signTransaction, which checks it before signing;
   * eth_fillTransaction checks no fee cap, and the send paths meet it when they submit.
   */
  async fillTransaction(args: CallArgs, checkFee = false): Promise<TypedTransaction> {
    const filled = await this.setDefaults(args);
    if (checkFee) this.checkTxFee(filled.maxFeePerGas ?? filled.gasPrice!, filled.gas);
    return this.toTransaction(filled);
  }

  // --- gas price oracle (§7.9) --------------------------------------------------------------

  private readonly oracle: GasPriceOracle;
  /** The oracle's view of recent blocks (time, tips) by hash: a new head adds one block to read. */
  private readonly oracleBlocks = new BoundedMap<string, OracleBlock>(64);

  async suggestTip(): Promise<bigint> {
    const head = this.chain.head;
    return this.oracle.suggestTip(
      { hash: head.hashHex, number: head.header.number },
      (n) => {
        const b = this.chain.blockByNumber(n);
        if (!b) return undefined;
        let o = this.oracleBlocks.get(b.hashHex);
        if (!o) {
          const bf = b.header.baseFee ?? 0n;
          this.oracleBlocks.set(b.hashHex, (o = { timestamp: b.header.timestamp, tips: this.chain.txsOf(b).map((tx) => effectiveTip(tx, bf)) }));
        }
        return o;
      },
      this.miner.clock.nowMs() / 1000n,
    );
  }

  // --- Subnet-EVM extensions (§2) --------------------------------------------------------------

  /**
   * Answers that are pure functions of the chain config (and, for eth_feeConfig, of one block's
   * state), encoded once: the Subnet-EVM extension methods then cost what eth_chainId does.
   */
  private readonly encoded = new Map<string, JsonText>();

  private remember(key: string, value: unknown): JsonText {
    if (this.encoded.size >= 256) this.encoded.clear();
    const t = new JsonText(toJSON(value));
    this.encoded.set(key, t);
    return t;
  }

  /** eth_feeConfig's answer at `b` (at once when this block state was asked before). */
  feeConfigAnswer(b: Block): JsonText | Promise<JsonText> {
    const key = 'fee:' + b.hashHex + hex(this.chain.stateRootOf(b));
    return this.encoded.get(key) ?? this.feeConfigJSON(b).then((v) => this.remember(key, v));
  }

  async feeConfigJSON(b: Block): Promise<Record<string, unknown>> {
    const r = this.consensus.rulesAt(b.header.timestamp);
    if (!r.isSubnetEVM) return { feeConfig: feeConfigJSON(DEFAULT_FEE_CONFIG) };
    const { feeConfig, lastChangedAt } = await this.consensus.feeConfigAfter(b);
    const out: Record<string, unknown> = { feeConfig: feeConfigJSON(feeConfig) };
    if (lastChangedAt !== undefined && lastChangedAt !== 0n) out.lastChangedAt = lastChangedAt;
    else if (lastChangedAt === 0n) out.lastChangedAt = 0n;
    return out;
  }

  chainConfigJSON(): JsonText {
    return this.encoded.get('chainConfig') ?? this.remember('chainConfig', chainConfigJSON(this.genesis.config));
  }
  activeRulesJSON(ts: bigint): JsonText {
    const key = 'rules:' + ts;
    return this.encoded.get(key) ?? this.remember(key, activeRulesJSON(this.genesis.config, ts));
  }
  activePrecompilesJSON(ts: bigint): JsonText {
    const key = 'precompiles:' + ts;
    return this.encoded.get(key) ?? this.remember(key, activePrecompilesJSON(this.genesis.config, ts));
  }

  async gasPrice(): Promise<bigint> {
    const tip = await this.suggestTip();
    const bf = await this.consensus.estimateNextBaseFee(this.chain.head, this.miner.clock.nowMs());
    return bf === undefined ? tip : tip + bf;
  }
}

/** Go's `%.2f` of a float64: every digit of a large value (JavaScript's toFixed turns exponential from 1e21), `+Inf`. */
function goFixed2(x: number): string {
  if (x === Infinity) return '+Inf';
  return Math.abs(x) < 1e21 ? x.toFixed(2) : BigInt(x).toString() + '.00';
}

/** Runs an account-manager call with geth's errors (unknown account, authentication needed, …) as -32000 RPC errors. */
export function accountsCall<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof KeystoreError) throw new RpcError(-32000, e.message);
    throw e;
  }
}

function stripZeros(v: Uint8Array): Uint8Array {
  let i = 0;
  while (i < v.length && v[i] === 0) i++;
  return v.subarray(i);
}

export { Address };
