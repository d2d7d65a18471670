// eth_simulateV1 (execution-apis; geth ≥ 1.14.9's internal/ethapi/simulate.go, Anvil's
// simulate): calls run in a series of simulated blocks on top of a block's state, each block
// seeing what the ones before it left. Subnet-EVM's node does not serve it, so Powder serves it
// with the test controls (like Otterscan's ots_*). The wire reference and the choices made where
// geth and Subnet-EVM differ are in simulate.md.
//
// Nothing is written: the blocks run on a disposable view of the base block's state (its trie
// nodes go to an in-memory overlay), so the state roots are real but the chain, the pool and the
// stored state stay as they were. The work is bounded as in geth: at most 256 blocks, the calls'
// gas together within rpc-gas-cap, and the whole run within api-max-duration when one is set.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Account, createAddressFromString, type Address } from '@ethereumjs/util';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { RunTxResult, VM } from '@ethereumjs/vm';
import { RpcError } from '../rpc/server.js';
import type { Block } from '../chain/blockchain.js';
import { orderedTrieRoot } from '../chain/blockchain.js';
import type { EvmFork } from '../chain/common.js';
import { checksumAddress } from '../chain/devAccounts.js';
import { blockHashSource, execBlock, makeVM, runTxSubnetEVM, withSender } from '../chain/exec.js';
import { ZERO_HASH, encodeHeader, headerToJSON, type ChainHeader } from '../chain/header.js';
import { feeCapBelowBaseFee, initcodeTooLarge, insufficientFunds, intrinsicGasTooLow, tipAboveFeeCap } from '../chain/precheckErrors.js';
import { keccak256 } from '../crypto.js';
import { blockGasCost, childExtraData, childMinDelayExcess, nextBaseFee, type FeeConfig } from '../fees/index.js';
import { childHeader, recordReceipt } from '../miner/builder.js';
import type { StoredReceipt } from '../chain/store.js';
import { MAX_INITCODE_SIZE } from '../txpool/pool.js';
import { CallTimeoutError, withDeadline } from '../callDeadline.js';
import { goDuration } from '../admin/vmConfigJson.js';
import { warpOf, warpPrepareTx } from '../../warp/chain.js';
import { revertMessage } from '../tracers/errors.js';
import type { TracedEVM } from '../tracers/types.js';
import { blockNumberOrHash, required } from './args.js';
import { ZERO_ADDRESS_HEX, type CallArgs, type EvmBackend } from './backend.js';
import { withArity, MAX_TIMESTAMP_S } from './controlContext.js';
import { gethEvmError } from './errors.js';
import { blockRLP, type MethodTable } from './eth.js';
import { hexD, hexQ, logJSON, txJSON } from './format.js';
import { createGethTx } from './gethTx.js';
import { skipEOACheck } from '../chain/skipAccountChecks.js';
import { parseSimOpts, type SimBlock, type SimBlockOverrides, type SimOpts } from './simulateArgs.js';
import { TransferTracer, type SimLog } from './simulateLogs.js';

/** geth's maxSimulateBlocks: the span of block numbers one request may simulate. */
export const MAX_SIMULATE_BLOCKS = 256n;
/** geth's timestampIncrement: a block without a time is this many seconds after its parent. */
export const TIMESTAMP_INCREMENT = 12n;

/** The execution-apis error codes of eth_simulateV1 (geth's internal/ethapi/errors.go). */
export const SIM_ERRORS = {
  nonceTooLow: -38010,
  nonceTooHigh: -38011,
  feeCapTooLow: -38012,
  intrinsicGas: -38013,
  insufficientFunds: -38014,
  blockGasLimitReached: -38015,
  blockNumberInvalid: -38020,
  blockTimestampInvalid: -38021,
  maxInitCodeSizeExceeded: -38025,
  clientLimitExceeded: -38026,
  invalidParams: -32602,
  /** A call's EVM failure other than a revert (in the call's result, not the request's). */
  vmError: -32015,
  /** A reverted call (in the call's result). */
  reverted: 3,
} as const;

const MAX_UINT64 = (1n << 64n) - 1n;

/** A block to simulate, its number and time settled (sanitizeChain). */
interface PlannedBlock {
  number: bigint;
  time: bigint;
  block: SimBlock;
}

/** What a call's result and its block's receipts need of a simulated tx. */
interface SimTx {
  tx: TypedTransaction;
  hash: Uint8Array;
  from: string;
}

/** A call's outcome before its block's hash is known (its logs are written with it). */
interface CallOutcome {
  result: RunTxResult;
  logs: SimLog[];
  firstLogIndex: number;
}

// ---------------------------------------------------------------------------------------------
// The chain of blocks

/**
 * geth's sanitizeChain: numbers and times strictly increasing, defaults parent + 1 and parent +
 * 12 s, gaps in the numbers filled with empty blocks, at most 256 numbers past the base.
 */
export function planBlocks(base: ChainHeader, blocks: SimBlock[]): PlannedBlock[] {
  const out: PlannedBlock[] = [];
  let prevNumber = base.number;
  let prevTime = base.timestamp;
  for (const block of blocks) {
    const number = block.overrides.number ?? prevNumber + 1n;
    if (number <= prevNumber) throw new RpcError(SIM_ERRORS.blockNumberInvalid, `block numbers must be in order: ${number} <= ${prevNumber}`);
    if (number - base.number > MAX_SIMULATE_BLOCKS) throw new RpcError(SIM_ERRORS.clientLimitExceeded, 'too many blocks');
    for (let n = prevNumber + 1n; n < number; n++) {
      prevTime = checkedTime(prevTime + TIMESTAMP_INCREMENT);
      out.push({ number: n, time: prevTime, block: { overrides: {}, calls: [] } });
    }
    const time = block.overrides.time ?? prevTime + TIMESTAMP_INCREMENT;
    if (block.overrides.time !== undefined && time <= prevTime) {
      throw new RpcError(SIM_ERRORS.blockTimestampInvalid, `block timestamps must be in order: ${time} <= ${prevTime}`);
    }
    prevNumber = number;
    prevTime = checkedTime(time);
    out.push({ number, time: prevTime, block });
  }
  return out;
}

/** Headers carry the time in milliseconds too (Granite): a later second would not fit a uint64. */
function checkedTime(t: bigint): bigint {
  if (t > MAX_TIMESTAMP_S) {
    throw new RpcError(SIM_ERRORS.blockTimestampInvalid, `block timestamp ${t} out of range: block times are uint64 milliseconds (at most ${MAX_TIMESTAMP_S} s)`);
  }
  return t;
}

// ---------------------------------------------------------------------------------------------
// The simulation

class Simulation {
  private readonly chain;
  /** The base block's state, written by every simulated block in turn (an in-memory overlay). */
  private readonly sm: MerkleStateManager;
  private readonly vms = new Map<EvmFork, VM>();
  /** Simulated block number → hash, for BLOCKHASH. */
  private readonly hashes = new Map<bigint, Uint8Array>();
  /** geth's gas pool: what the calls may still use together (rpc-gas-cap; 0 = no cap). */
  private gasPool: bigint;
  /** Date.now() past which the run is aborted (api-max-duration), if set. */
  private readonly deadline: number | undefined;

  constructor(
    private readonly be: EvmBackend,
    private readonly base: Block,
    private readonly opts: SimOpts,
    private readonly feeConfig: FeeConfig,
  ) {
    this.chain = be.chain;
    this.sm = be.chain.stateView(base);
    const cap = be.config.rpcGasCap;
    this.gasPool = cap > 0n ? cap : MAX_UINT64;
    const ms = be.config.apiMaxDurationMs;
    this.deadline = ms > 0 ? Date.now() + ms : undefined;
  }

  async run(plan: PlannedBlock[]): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    let parent = { hash: this.base.hash, header: this.base.header };
    for (const p of plan) {
      this.checkDeadline();
      const { block, json } = await this.block(p, parent);
      out.push(json);
      parent = block;
      await nextTurn(); // a long simulation lets other requests in between its blocks
    }
    return out;
  }

  private checkDeadline(): number {
    if (this.deadline === undefined) return 0;
    const left = this.deadline - Date.now();
    if (left <= 0) throw this.timeoutError();
    return left;
  }

  /** geth's text; geth answers it -32603, Powder as eth_call answers its timeout (-32000). */
  private timeoutError(): RpcError {
    return new RpcError(-32000, `execution aborted (timeout = ${goDuration(this.be.config.apiMaxDurationMs)})`);
  }

  private async vmFor(fork: EvmFork): Promise<VM> {
    let vm = this.vms.get(fork);
    if (!vm) {
      const base = this.base.header.number;
      const lookup = (n: bigint) => this.hashes.get(n) ?? (n <= base ? this.chain.store.canonicalHash(n) : undefined);
      vm = await makeVM(this.chain.commons.get(fork), this.sm, blockHashSource(lookup));
      this.vms.set(fork, vm);
    }
    return vm;
  }

  /**
   * The header before execution: the parent's gas limit and fee recipient unless overridden (geth
   * carries them block to block), Subnet-EVM's derived fields (fee window in extraData, block gas
   * cost, Granite's milliseconds and min-delay excess) from the simulated parent; the base fee
   * overridden, else with `validation` the fee rules' next base fee, else 0.
   */
  private header(p: PlannedBlock, parent: { hash: Uint8Array; header: ChainHeader }): ChainHeader {
    const o: SimBlockOverrides = p.block.overrides;
    const rules = this.chain.rules.rulesAt(p.time);
    let fees;
    try {
      fees = nextBaseFee(this.chain.rules, this.feeConfig, parent.header, p.time);
    } catch (e) {
      throw new RpcError(-32000, (e as Error).message);
    }
    const baseFee = o.baseFee ?? (fees ? (this.opts.validation ? fees.baseFee : 0n) : undefined);
    const header = childHeader(parent as Block, {
      timestamp: p.time,
      timestampMilliseconds: rules.isGranite ? p.time * 1000n : undefined,
      minDelayExcess: rules.isGranite ? childMinDelayExcess(parent.header.minDelayExcess, this.chain.rules.desiredMinDelayExcess) : undefined,
      baseFee,
      gasLimit: o.gasLimit ?? parent.header.gasLimit,
      coinbase: o.feeRecipient ? Buffer.from(o.feeRecipient.slice(2), 'hex') : parent.header.coinbase,
      feeConfig: this.feeConfig,
      window: fees?.window ?? null,
    }, rules.isEtna);
    header.number = p.number;
    header.blockGasCost = blockGasCost(this.chain.rules, this.feeConfig, parent.header, p.time) ?? undefined;
    header.extraData = childExtraData(this.chain.rules, fees?.window ?? null, p.time);
    if (rules.isEtna) header.parentBeaconRoot = o.beaconRoot ?? ZERO_HASH;
    return header;
  }

  /** One simulated block: its start-of-block changes, its state overrides, its calls, its roots and hash. */
  private async block(p: PlannedBlock, parent: { hash: Uint8Array; header: ChainHeader }): Promise<{ block: Block; json: Record<string, unknown> }> {
    const chain = this.chain;
    const header = this.header(p, parent);
    const fork = chain.forkAt(header.timestamp);
    const common = chain.commons.get(fork);
    const vm = await this.vmFor(fork);
    // Precompile activations, state upgrades, the EVM's rules and EIP-4788 (as a mined block);
    // then the block's state overrides, so an override wins over an upgrade.
    await this.be.consensus.onBlockStart(vm, this.sm, parent as Block, header, this.feeConfig);
    if (p.block.stateOverrides?.size) await this.be.applyOverrides(this.sm, p.block.stateOverrides);
    warpOf(chain)?.startCall(vm, header.timestamp); // warp predicates read as valid, as in eth_call
    const txs: SimTx[] = [];
    const outcomes: CallOutcome[] = [];
    const receipts: StoredReceipt[] = [];
    const receiptBytes: Uint8Array[] = [];
    const bloom = new Uint8Array(256);
    let gasUsed = 0n;
    let logIndex = 0;
    for (const call of p.block.calls) {
      const { tx, from, result, logs } = await this.call(vm, header, gasUsed, call, common);
      gasUsed += result.totalGasSpent;
      recordReceipt(tx.tx, from, result, gasUsed, receiptBytes, bloom, receipts);
      txs.push(tx);
      outcomes.push({ result, logs, firstLogIndex: logIndex });
      logIndex += logs.length;
    }
    header.gasUsed = gasUsed;
    header.logsBloom = bloom;
    header.stateRoot = await this.sm.getStateRoot();
    header.transactionsRoot = await orderedTrieRoot(txs.map((t) => t.tx.serialize()));
    header.receiptsRoot = await orderedTrieRoot(receiptBytes);
    const hash = keccak256(encodeHeader(header));
    const block: Block = {
      hash,
      hashHex: hexD(hash),
      header,
      rawTxs: txs.map((t) => t.tx.serialize()),
      senders: txs.map((t) => Buffer.from(t.from.slice(2), 'hex')),
      _txs: txs.map((t) => t.tx),
    };
    this.hashes.set(header.number, hash);
    return { block, json: this.blockJSON(block, txs, outcomes) };
  }

  /** eth_getBlockByNumber's block, plus `calls`. */
  private blockJSON(block: Block, txs: SimTx[], outcomes: CallOutcome[]): Record<string, unknown> {
    const transactions = this.opts.fullTx ? txs.map((t, i) => txJSON(t.tx, t.from, { block, index: i }, t.hash)) : txs.map((t) => hexD(t.hash));
    const json = headerToJSON(block.header, block.hash, { size: hexQ(blockRLP(block).length), transactions, uncles: [] });
    json.calls = outcomes.map((o, i) => callJSON(o, block, hexD(txs[i].hash), i));
    return json;
  }

  /**
   * One call: geth's sanitizeCall and CallDefaults (nonce, gas, fees), its tx, the state
   * transition's checks (simulate's error codes; nonce and base fee only with `validation`), then
   * the run on the simulation's state.
   */
  private async call(vm: VM, header: ChainHeader, gasUsed: bigint, call: CallArgs, common: TypedTransaction['common']) {
    const from = (call.from ?? ZERO_ADDRESS_HEX).toLowerCase();
    const sender = createAddressFromString(from);
    const acc = (await this.sm.getAccount(sender)) ?? new Account();
    const m = this.message(call, header, gasUsed, acc.nonce);
    this.preCheck(acc, m, header, sender);
    const tx = this.transaction(call, m, common);
    const runnable = warpPrepareTx(this.chain, this.runnableTx(call, m, common, sender), header.timestamp); // warp predicates' gas
    this.gasCheck(tx.tx, runnable.getIntrinsicGas(), acc, m, sender);
    // geth's NoBaseFee (no validation): a call without fees runs with BASEFEE 0.
    const baseFee = this.opts.validation || !m.zeroFees ? (header.baseFee ?? 0n) : 0n;
    const tracer = this.opts.traceTransfers ? new TransferTracer(vm.evm as unknown as TracedEVM) : undefined;
    // Calls skip the EOA check in geth's simulate, validation or not; the nonce was checked above.
    const unmask = skipEOACheck(this.sm, sender);
    let result: RunTxResult;
    try {
      const ms = this.checkDeadline();
      ({ result } = await withDeadline(vm.evm, ms, () => runTxSubnetEVM(vm, runnable, execBlock(header, common, { baseFee }), gasUsed, { skipNonce: true })));
    } catch (e) {
      if (e instanceof CallTimeoutError) throw this.timeoutError();
      throw new RpcError(-32000, this.be.consensus.invalidTxReason(vm) ?? (e as Error).message);
    } finally {
      unmask();
      tracer?.detach();
    }
    const invalid = this.be.consensus.invalidTxReason(vm);
    if (invalid) throw new RpcError(-32000, invalid);
    this.gasPool -= result.totalGasSpent;
    const failed = result.execResult.exceptionError !== undefined;
    const logs = failed ? [] : (tracer?.logs() ?? (result.execResult.logs ?? []).map(([address, topics, data]) => ({ address, topics, data })));
    return { tx, from: sender, result, logs };
  }

  /** geth's sanitizeCall + CallDefaults: the message's nonce, gas and fees. */
  private message(call: CallArgs, header: ChainHeader, gasUsed: bigint, stateNonce: bigint) {
    let gas = call.gas ?? header.gasLimit - gasUsed;
    if (gasUsed + gas > header.gasLimit) {
      throw new RpcError(SIM_ERRORS.blockGasLimitReached, `block gas limit reached: ${gasUsed} >= ${header.gasLimit}`);
    }
    if (call.gasPrice !== undefined && (call.maxFeePerGas !== undefined || call.maxPriorityFeePerGas !== undefined)) {
      throw new RpcError(-32000, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
    }
    const chainId = this.be.chainId;
    if (call.chainId !== undefined && call.chainId !== chainId) throw new RpcError(-32000, `chainId does not match node's (have=${call.chainId}, want=${chainId})`);
    if (gas > this.gasPool) gas = this.gasPool; // geth caps each call at what the gas pool has left
    // A gas price makes a legacy tx; otherwise a dynamic-fee one, its absent fees 0 (geth's ToTransaction).
    const legacy = call.gasPrice !== undefined || header.baseFee === undefined;
    const feeCap = legacy ? (call.gasPrice ?? 0n) : (call.maxFeePerGas ?? 0n);
    const tip = legacy ? feeCap : (call.maxPriorityFeePerGas ?? 0n);
    const zeroFees = feeCap === 0n && tip === 0n;
    const baseFee = header.baseFee ?? 0n;
    let price = feeCap;
    if (!legacy) price = zeroFees ? 0n : tip + baseFee < feeCap ? tip + baseFee : feeCap;
    return { nonce: call.nonce ?? stateNonce, gas, value: call.value ?? 0n, legacy, feeCap, tip, zeroFees, price };
  }

  /** The tx the block lists (unsigned, as geth's args.ToTransaction; its hash is over V, R, S = 0). */
  private transaction(call: CallArgs, m: ReturnType<Simulation['message']>, common: TypedTransaction['common']): SimTx {
    const tx = createGethTx(this.txData(call, m), { common, freeze: false, allowUnlimitedInitCodeSize: true });
    return { tx, hash: keccak256(tx.serialize()), from: (call.from ?? ZERO_ADDRESS_HEX).toLowerCase() };
  }

  /** The same tx with the sender given (a fake signature, as eth_call's) for the VM to run. */
  private runnableTx(call: CallArgs, m: ReturnType<Simulation['message']>, common: TypedTransaction['common'], sender: Address): TypedTransaction {
    const data = { ...this.txData(call, m), v: m.legacy && !call.accessList ? 27n : 0n, r: BigInt(sender.toString()) || 1n, s: 1n };
    return withSender(createGethTx(data, { common, freeze: false, allowUnlimitedInitCodeSize: true }), sender);
  }

  private txData(call: CallArgs, m: ReturnType<Simulation['message']>): Record<string, unknown> {
    const base = { nonce: m.nonce, gasLimit: m.gas, to: call.to, value: m.value, data: call.data ?? new Uint8Array() };
    const chainId = this.be.chainId;
    if (!m.legacy) return { type: 2, maxFeePerGas: m.feeCap, maxPriorityFeePerGas: m.tip, accessList: call.accessList ?? [], chainId, ...base };
    // An access list with a gas price: an access-list tx (geth would list a legacy tx without it).
    if (call.accessList) return { type: 1, gasPrice: m.feeCap, accessList: call.accessList, chainId, ...base };
    return { type: 0, gasPrice: m.feeCap, ...base };
  }

  /**
   * geth's state-transition checks before the gas (preCheck, buyGas), in its order and words, with
   * simulate's codes: the nonce (with `validation`), the fee caps (with `validation`, or when fees
   * are given), the balance for gas × fee cap + value. Each fails the request.
   */
  private preCheck(acc: Account, m: ReturnType<Simulation['message']>, header: ChainHeader, sender: Address): void {
    const from = checksumAddress(sender.toString());
    if (this.opts.validation) {
      if (acc.nonce < m.nonce) throw new RpcError(SIM_ERRORS.nonceTooHigh, `nonce too high: address ${from}, tx: ${m.nonce} state: ${acc.nonce}`);
      if (acc.nonce > m.nonce) throw new RpcError(SIM_ERRORS.nonceTooLow, `nonce too low: address ${from}, tx: ${m.nonce} state: ${acc.nonce}`);
      if (acc.nonce === MAX_UINT64) throw new RpcError(-32000, `nonce has max value: address ${from}, nonce: ${acc.nonce}`);
    }
    // A tip above the fee cap is never "no fees", so this is checked with or without validation.
    if (this.opts.validation || !m.zeroFees) {
      if (m.feeCap < m.tip) throw new RpcError(SIM_ERRORS.invalidParams, tipAboveFeeCap(from, m.tip, m.feeCap));
      if (header.baseFee !== undefined && m.feeCap < header.baseFee) throw new RpcError(SIM_ERRORS.feeCapTooLow, feeCapBelowBaseFee(from, m.feeCap, header.baseFee));
    }
    const want = m.gas * m.feeCap + m.value;
    if (acc.balance < want) throw new RpcError(SIM_ERRORS.insufficientFunds, insufficientFunds(from, acc.balance, want));
  }

  /** The checks after buying the gas (TransitionDb): intrinsic gas, the value, the initcode size. */
  private gasCheck(tx: TypedTransaction, intrinsic: bigint, acc: Account, m: ReturnType<Simulation['message']>, sender: Address): void {
    if (m.gas < intrinsic) throw new RpcError(SIM_ERRORS.intrinsicGas, intrinsicGasTooLow(m.gas, intrinsic));
    if (acc.balance - m.gas * m.price < m.value) {
      throw new RpcError(SIM_ERRORS.insufficientFunds, `insufficient funds for transfer: address ${checksumAddress(sender.toString())}`);
    }
    if (tx.to === undefined && tx.data.length > MAX_INITCODE_SIZE && tx.common.isActivatedEIP(3860)) {
      throw new RpcError(SIM_ERRORS.maxInitCodeSizeExceeded, initcodeTooLarge(tx.data.length));
    }
    if (tx.to === undefined && acc.nonce >= MAX_UINT64) throw new RpcError(-32000, 'nonce uint64 overflow');
  }
}

/** geth's simCallResult: returnData, logs, gasUsed, status, and for a failed call its error. */
function callJSON(o: CallOutcome, block: Block, txHash: string, index: number): Record<string, unknown> {
  const ex = o.result.execResult.exceptionError;
  const rv = o.result.execResult.returnValue;
  const out: Record<string, unknown> = {
    returnData: ex ? '0x' : hexD(rv),
    logs: o.logs.map((l, k) => logJSON(l, block, txHash, index, o.firstLogIndex + k)),
    gasUsed: hexQ(o.result.totalGasSpent),
    status: ex ? '0x0' : '0x1',
  };
  if (ex?.error === 'revert') out.error = { code: SIM_ERRORS.reverted, message: revertMessage(rv), data: hexD(rv) };
  else if (ex) out.error = { code: SIM_ERRORS.vmError, message: gethEvmError(ex, (o.result.execResult.runState as { opCode?: number } | undefined)?.opCode) };
  return out;
}

// ---------------------------------------------------------------------------------------------
// The method

/** The fee config the simulated blocks follow: the one after the base block (a FeeManager change made in the simulation is not followed). */
async function feeConfigOf(be: EvmBackend, base: Block): Promise<FeeConfig> {
  try {
    return (await be.consensus.feeConfigAfter(base)).feeConfig;
  } catch (e) {
    throw new RpcError(-32000, (e as Error).message);
  }
}

export async function simulate(be: EvmBackend, base: Block, opts: SimOpts): Promise<Record<string, unknown>[]> {
  const plan = planBlocks(base.header, opts.blocks);
  const sim = new Simulation(be, base, opts, await feeConfigOf(be, base));
  return sim.run(plan);
}

export function simulateMethods(be: EvmBackend): MethodTable {
  const m: MethodTable = new Map();
  m.set(
    'eth_simulateV1',
    withArity(2, (p) => {
      const opts = parseSimOpts(required(p, 0));
      const spec = p[1] === undefined || p[1] === null ? undefined : blockNumberOrHash(p[1], 1);
      // geth's SimulateV1 checks the count before it looks the base block up.
      if (opts.blocks.length === 0) throw new RpcError(SIM_ERRORS.invalidParams, 'empty input');
      if (BigInt(opts.blocks.length) > MAX_SIMULATE_BLOCKS) throw new RpcError(SIM_ERRORS.clientLimitExceeded, 'too many blocks');
      return simulate(be, be.resolveForState(spec), opts);
    }),
  );
  return m;
}
