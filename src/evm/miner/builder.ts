// Block building (reference §9.1): header fields from the parent and the fee rules, txs from the
// pool in price-and-nonce order, execution on the live state, roots, and the block's LMDB ops.
import { Capability, type TypedTransaction } from '@ethereumjs/tx';
import { Address, bigIntToUnpaddedBytes, generateAddress, type Account } from '@ethereumjs/util';
import { encodeReceipt, type RunTxResult, type VM } from '@ethereumjs/vm';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { Blockchain, Block } from '../chain/blockchain.js';
import { orderedTrieRoot } from '../chain/blockchain.js';
import type { ChildFields, Consensus } from '../chain/consensus.js';
import { blockHashSource, execBlock, makeVM, runTxSubnetEVM } from '../chain/exec.js';
import { ConsoleSink, setConsole } from '../consoleLog.js';
import { EMPTY_UNCLE_HASH, ZERO_HASH, encodeHeader, type ChainHeader } from '../chain/header.js';
import { keccak256 } from '../crypto.js';
import type { Op, StoredReceipt } from '../chain/store.js';
import type { EvmFork } from '../chain/common.js';
import type { PoolResetHead, PoolTx, TxPool } from '../txpool/pool.js';
import { warpOf } from '../../warp/chain.js';
import { hex0x } from '../../hexOf.js';
import { INVALIDATE_DELEGATE_UNIX } from '../precompiles/addresses.js';
import type { Logger } from '../../logging/logger.js';

const hex = hex0x;
const MIN_TX_GAS = 21000n;
/** A sender at nonce 2^64-1 can send nothing more (geth's core.ErrNonceMax). */
const MAX_NONCE = 2n ** 64n - 1n;
const MAX_BLOCK_TX_BYTES = 1800 * 1024;

export interface Built {
  block: Block;
  receipts: StoredReceipt[];
  ops: Op[];
  stateRoot: Uint8Array;
  included: PoolTx[];
  /** What the included txs printed with console.log (consoleLog.ts), by tx hash; only txs that did. */
  consoleLogs: { tx: string; sink: ConsoleSink }[];
}

/** Txs for a block, in order; `next(true)` asks to skip the rest of the last one's sender (TxPool.ordered does). */
export type TxSource = Iterator<PoolTx, void, boolean | undefined>;

/**
 * The txs of `txs` in their order, each tried on its own (as Anvil's executor tries a reorg
 * block's): one that cannot run does not take its sender's later ones with it, which then run or
 * fail on their own nonces.
 */
export function* listedTxs(txs: readonly PoolTx[]): TxSource {
  for (const p of txs) yield p;
}

/** Included txs' return data by tx hash (0x lower-case), kept for a caller that asked (collectOutputs). */
export type TxOutputs = Map<string, Uint8Array>;

export class BlockBuilder {
  private sm?: MerkleStateManager;
  private smRoot?: string;
  private readonly vms = new Map<EvmFork, VM>();
  /** The collectOutputs calls in progress; while there are none, no return data is kept. */
  private readonly outputCollectors = new Set<TxOutputs>();

  constructor(
    private readonly chain: Blockchain,
    private readonly consensus: Consensus,
    private readonly pool: TxPool,
    private readonly log?: Logger,
  ) {}

  /** The live state manager positioned at the head state (recreated after rewinds/edits). */
  private liveState(): MerkleStateManager {
    const root = hex(this.chain.headStateRoot);
    if (!this.sm || this.smRoot !== root) {
      this.sm = this.chain.state.live(this.chain.commons.get('cancun'), this.chain.headStateRoot);
      this.smRoot = root;
      this.vms.clear();
    }
    return this.sm;
  }

  private async vmFor(fork: EvmFork): Promise<VM> {
    let vm = this.vms.get(fork);
    if (!vm) {
      const sm = this.liveState();
      vm = await makeVM(this.chain.commons.get(fork), sm, blockHashSource((n) => this.chain.store.canonicalHash(n) ?? undefined));
      this.vms.set(fork, vm);
    }
    return vm;
  }

  /**
   * A sender's nonce at the head state, read through the live state manager: right after a block
   * it already holds every account the block touched, where a fresh head view would be built and
   * read through the tries.
   */
  async headNonce(from: Address): Promise<bigint> {
    return (await this.liveState().getAccount(from))?.nonce ?? 0n;
  }

  /** The head facts the pool resets on (nonces, balances, gas limit), read as headNonce reads. */
  poolResetHead(): PoolResetHead {
    // One account read per sender for both facts.
    const state = this.liveState();
    let last: { from: string; account: Promise<Account | undefined> } | undefined;
    const account = (from: string) => {
      if (last?.from !== from) last = { from, account: state.getAccount(new Address(Buffer.from(from.slice(2), 'hex'))) };
      return last.account;
    };
    return {
      nonce: async (from) => (await account(from))?.nonce ?? 0n,
      balance: async (from) => (await account(from))?.balance ?? 0n,
      gasLimit: this.chain.head.header.gasLimit,
    };
  }

  /** Applies a test-control edit to the head state; returns the new root (not yet written). */
  async editHeadState(fn: (sm: MerkleStateManager) => Promise<void>): Promise<Uint8Array> {
    const sm = this.liveState();
    await sm.checkpoint();
    try {
      await fn(sm);
      await sm.commit();
    } catch (e) {
      await sm.revert();
      throw e;
    }
    const root = await sm.getStateRoot();
    this.smRoot = hex(root);
    return root;
  }

  /**
   * Runs `mine` and answers the return data of every tx included in a block built meanwhile
   * (evm_mine_detailed), as Anvil keeps a mined tx's `out`: the call's return data, a creation's
   * deployed code, a revert's data. A tx that halted (out of gas, an invalid opcode…) has none.
   */
  async collectOutputs(mine: () => Promise<void>): Promise<TxOutputs> {
    const outputs: TxOutputs = new Map();
    this.outputCollectors.add(outputs);
    try {
      await mine();
    } finally {
      this.outputCollectors.delete(outputs);
    }
    return outputs;
  }

  /** A tx's output for the collectors: its return (or revert) data; none after a halt, as on Anvil. */
  private keepOutput(hash: string, result: RunTxResult): void {
    const { exceptionError, returnValue } = result.execResult;
    if (exceptionError && exceptionError.error !== 'revert') return;
    for (const outputs of this.outputCollectors) outputs.set(hash, returnValue);
  }

  /**
   * Builds the next block at `timeMs`. Returns undefined when no tx could be included and
   * `allowEmpty` is false (Subnet-EVM never builds empty blocks on its own). The txs come from the
   * pool in its price-and-nonce order, or from `source` (anvil_reorg's blocks of given txs), which
   * is told, as the pool's order is, when a sender's later txs are to be skipped.
   */
  async build(timeMs: bigint, allowEmpty: boolean, source?: TxSource): Promise<Built | undefined> {
    const chain = this.chain;
    const parent = chain.head;
    const sm = this.liveState();
    const fields = await this.consensus.childFields(parent, timeMs);
    const rules = chain.rules.rulesAt(fields.timestamp);
    const fork = chain.forkAt(fields.timestamp);
    const vm = await this.vmFor(fork);
    const common = this.chain.commons.get(fork);
    const header = childHeader(parent, fields, rules.isEtna);
    const baseFee = fields.baseFee ?? 0n;
    const execCtx = execBlock(header, common);

    // A tx can be invalidated after it ran (a DELEGATECALL into a stateful precompile, reference
    // §8.1): in that window each tx runs in a checkpoint of its own, so it can be left out.
    const mayInvalidate = !rules.isGranite && fields.timestamp >= INVALIDATE_DELEGATE_UNIX && rules.precompiles.size > 0;
    await sm.checkpoint();
    try {
      await this.consensus.onBlockStart(vm, sm, parent, header, fields.feeConfig);
      warpOf(chain)?.startBlock(vm, header.timestamp); // warp predicates verified before each tx
      const included: PoolTx[] = [];
      const txs: TypedTransaction[] = [];
      const receipts: StoredReceipt[] = [];
      const receiptBytes: Uint8Array[] = [];
      const consoleLogs: Built['consoleLogs'] = [];
      const bloom = new Uint8Array(256);
      let gasUsed = 0n;
      let bytes = 0;
      const it = source ?? this.pool.ordered(baseFee);
      let next = it.next();
      while (!next.done) {
        const p = next.value;
        let skipSender = false;
        const gasLeft = header.gasLimit - gasUsed;
        if (gasLeft < MIN_TX_GAS) break;
        const tx = p.tx;
        if (tx.gasLimit > gasLeft || bytes + p.raw.length > MAX_BLOCK_TX_BYTES) {
          next = it.next(true);
          continue;
        }
        const from = new Address(Buffer.from(p.from.slice(2), 'hex'));
        try {
          await this.consensus.checkTxAllowed(sm, from, header);
          const acc = await sm.getAccount(from);
          const nonce = acc?.nonce ?? 0n;
          if (tx.nonce < nonce) {
            this.pool.remove(p.hash);
            next = it.next(false);
            continue;
          }
          if (tx.nonce > nonce) throw new Error('nonce gap');
          // geth's state transition refuses it (ErrNonceMax); the tx stays in the pool.
          if (nonce === MAX_NONCE) throw new Error('nonce has max value');
          const depth = checkpointDepth(sm);
          if (mayInvalidate) await sm.checkpoint();
          let result: RunTxResult;
          const sink = new ConsoleSink();
          setConsole(vm.evm, sink);
          try {
            ({ result } = await runTxSubnetEVM(vm, tx, execCtx, gasUsed));
          } catch (e) {
            // runTx undoes a tx it refuses; an exception thrown out of the EVM mid-run (a failing
            // module load in a precompile, a bug) leaves the frames' checkpoints open, with the
            // nonce and the fee already taken. Every level the tx opened is undone here.
            const broken = checkpointDepth(sm) > depth + (mayInvalidate ? 1 : 0) || isProgramError(e);
            while (checkpointDepth(sm) > depth) await sm.revert();
            throw broken ? new TxFault(e) : e;
          } finally {
            setConsole(vm.evm, undefined);
          }
          if (mayInvalidate) await sm.commit();
          gasUsed += result.totalGasSpent;
          bytes += p.raw.length;
          recordReceipt(tx, from, result, gasUsed, receiptBytes, bloom, receipts);
          if (this.outputCollectors.size > 0) this.keepOutput(p.hash, result);
          if (sink.lines.length > 0) consoleLogs.push({ tx: p.hash, sink });
          txs.push(tx);
          included.push(p);
        } catch (e) {
          if (e instanceof TxFault) {
            // Not the tx's fault but the node's: it would fail the same way in every block, and
            // hold back its sender's later txs, so it leaves the pool, and the log says why.
            this.pool.remove(p.hash);
            this.log?.error('transaction dropped: it failed inside the block builder', { hash: p.hash, error: e.cause instanceof Error ? (e.cause.stack ?? e.cause.message) : String(e.cause) });
          }
          skipSender = true;
        }
        next = it.next(skipSender);
      }
      if (txs.length === 0 && !allowEmpty) {
        await sm.revert();
        this.chain.state.nodes.discard();
        return undefined;
      }
      header.gasUsed = gasUsed;
      header.logsBloom = bloom;
      const finish = this.consensus.finishHeader(parent, header, fields.feeConfig, txs, receipts);
      header.blockGasCost = finish.blockGasCost;
      header.extraData = this.consensus.extraData(fields.window, header.timestamp, warpOf(chain)?.predicateResults(vm, txs));
      await sm.commit();
      const stateRoot = await sm.getStateRoot();
      this.smRoot = hex(stateRoot);
      header.stateRoot = stateRoot;
      header.transactionsRoot = await orderedTrieRoot(included.map((p) => p.raw));
      header.receiptsRoot = await orderedTrieRoot(receiptBytes);
      const headerRLP = encodeHeader(header);
      const hash = keccak256(headerRLP);
      const block: Block = {
        hash,
        hashHex: hex(hash),
        header,
        rawTxs: included.map((p) => p.raw),
        senders: included.map((p) => Buffer.from(p.from.slice(2), 'hex')),
        _txs: txs,
      };
      const ops = [...this.chain.state.nodes.takeBatch(), ...this.chain.blockOps(block, receipts, headerRLP), ...(warpOf(chain)?.acceptOps(receipts) ?? [])];
      return { block, receipts, ops, stateRoot, included, consoleLogs };
    } catch (e) {
      // Abandon the block: state back to the parent's.
      this.sm = undefined;
      this.chain.state.nodes.discard();
      throw e;
    }
  }
}

/** A tx whose run threw out of the EVM (see build): its state undone, it is dropped from the pool. */
class TxFault extends Error {
  constructor(cause: unknown) {
    super(`the transaction's run failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** How many state checkpoints are open (MerkleStateManager's own count). */
function checkpointDepth(sm: MerkleStateManager): number {
  return (sm as unknown as { _checkpointCount: number })._checkpointCount;
}

/** A JavaScript fault rather than a refusal of the tx (which runTx and the checks above throw as plain errors). */
function isProgramError(e: unknown): boolean {
  return e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError || e instanceof SyntaxError;
}

export function isProtected(tx: TypedTransaction): boolean {
  return tx.type !== 0 || tx.supports(Capability.EIP155ReplayProtection);
}

/** The header of `parent`'s child before execution: the derived fields, roots and gas used still empty. */
export function childHeader(parent: Block, fields: ChildFields, isEtna: boolean): ChainHeader {
  const header: ChainHeader = {
    parentHash: parent.hash,
    uncleHash: EMPTY_UNCLE_HASH,
    coinbase: fields.coinbase,
    stateRoot: ZERO_HASH,
    transactionsRoot: ZERO_HASH,
    receiptsRoot: ZERO_HASH,
    logsBloom: new Uint8Array(256),
    difficulty: 1n,
    number: parent.header.number + 1n,
    gasLimit: fields.gasLimit,
    gasUsed: 0n,
    timestamp: fields.timestamp,
    extraData: new Uint8Array(),
    mixHash: ZERO_HASH,
    nonce: new Uint8Array(8),
    baseFee: fields.baseFee,
    blockGasCost: undefined,
    timestampMilliseconds: fields.timestampMilliseconds,
    minDelayExcess: fields.minDelayExcess,
  };
  if (isEtna) {
    header.blobGasUsed = 0n;
    header.excessBlobGas = 0n;
    header.parentBeaconRoot = ZERO_HASH;
  }
  return header;
}

/** Appends a tx's receipt (consensus encoding and stored form) and ORs its bloom into the block's. */
export function recordReceipt(
  tx: TypedTransaction,
  from: Address,
  result: RunTxResult,
  cumulativeGasUsed: bigint,
  receiptBytes: Uint8Array[],
  bloom: Uint8Array,
  receipts: StoredReceipt[],
): void {
  const logs = result.execResult.logs ?? [];
  const status = result.execResult.exceptionError ? 0 : 1;
  receiptBytes.push(encodeReceipt({ status, cumulativeBlockGasUsed: cumulativeGasUsed, bitvector: result.bloom.bitvector, logs }, tx.type));
  for (let k = 0; k < 256; k++) bloom[k] |= result.bloom.bitvector[k];
  receipts.push({
    type: tx.type,
    status,
    cumulativeGasUsed,
    gasUsed: result.totalGasSpent,
    logs: logs.map(([address, topics, data]) => ({ address, topics, data })),
    // geth's receipt: every creation tx names the address it was to create, also when the
    // creation failed or never ran (ContractDeployerAllowList's refusal, an initcode too large).
    contractAddress: tx.to === undefined ? generateAddress(from.bytes, bigIntToUnpaddedBytes(tx.nonce)) : undefined,
  });
}
