// Transaction execution with @ethereumjs/vm under Subnet-EVM's rules (reference §9.3): the whole
// fee (base + tip) goes to the coinbase, no refunds (VM params, see common.ts), DIFFICULTY and
// PREVRANDAO read 1, BLOBBASEFEE 1 wei, GASLIMIT the fee-config gas limit.
import type { Common } from '@ethereumjs/common';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Account, Address, bytesToBigInt, createAddressFromString } from '@ethereumjs/util';
import { createVM, runTx, type RunTxResult, type VM } from '@ethereumjs/vm';
import type { StateManagerInterface } from '@ethereumjs/common';
import type { ChainHeader } from './header.js';
import { txInvalidation } from '../precompiles/runtime.js';
import { skipEOACheck } from './skipAccountChecks.js';
// Exact interpreter speed-ups (jump-destination analysis memoised per code); see the module.
import '../vmTuning.js';
import { tuneJournal } from '../journalTuning.js';
import { listening, type Emitter } from '../listening.js';
import { SETTLED } from '../settled.js';

const ONE_32 = (() => {
  const b = new Uint8Array(32);
  b[31] = 1;
  return b;
})();

/** The block fields the EVM reads, as the duck-typed Block runTx expects. */
export function execBlock(h: ChainHeader, common: Common, opts: { baseFee?: bigint } = {}): never {
  const header = {
    number: h.number,
    timestamp: h.timestamp,
    gasLimit: h.gasLimit,
    gasUsed: 0n,
    baseFeePerGas: opts.baseFee ?? h.baseFee ?? 0n,
    coinbase: new Address(h.coinbase),
    prevRandao: ONE_32,
    mixHash: ONE_32,
    difficulty: 1n,
    excessBlobGas: 0n,
    slotNumber: 0n,
    getBlobGasPrice: () => 1n,
  };
  return { header, common, transactions: [] } as never;
}

/**
 * execBlock for the calls of one block, the last one made kept: eth_calls on `latest` ran one
 * after another on the same header, each making the block, its header and its coinbase Address
 * again (and, through the Address, the coinbase's hex for the warm set). Kept while the header is
 * the same object with the same fields the block copies, on the same Common and base fee.
 */
let lastExec: { h: ChainHeader; number: bigint; timestamp: bigint; gasLimit: bigint; coinbase: Uint8Array; common: Common; baseFee: bigint; block: never } | undefined;
export function execBlockOfCall(h: ChainHeader, common: Common, baseFee: bigint): never {
  const l = lastExec;
  if (l !== undefined && l.h === h && l.number === h.number && l.timestamp === h.timestamp && l.gasLimit === h.gasLimit && l.coinbase === h.coinbase && l.common === common && l.baseFee === baseFee) {
    return l.block;
  }
  const block = execBlock(h, common, { baseFee });
  lastExec = { h, number: h.number, timestamp: h.timestamp, gasLimit: h.gasLimit, coinbase: h.coinbase, common, baseFee, block };
  return block;
}

/** BLOCKHASH source: canonical hashes by number. */
export function blockHashSource(lookup: (n: bigint) => Uint8Array | undefined): EVMMockBlockchainInterface {
  const bc: EVMMockBlockchainInterface = {
    async getBlock(n: number) {
      const h = lookup(BigInt(n));
      if (!h) throw new Error('block not found');
      return { hash: () => h } as never;
    },
    async putBlock() {},
    shallowCopy: () => bc,
  };
  return bc;
}

/**
 * A VM on `common` (one of the chain's Commons, one per fork, shared by every VM of that fork).
 * Each @ethereumjs EVM subscribes to its Common's `hardforkChanged` event for as long as the
 * Common lives, so every VM made for one eth_call, estimate, trace or import stayed reachable from
 * the chain's Common: ~54 KB of heap per eth_estimateGas, for ever (4,000 estimates: +230 MB). A
 * Powder Common never changes its hardfork (src/evm/chain/common.ts: a Common per fork), so the
 * subscriptions the new VM made are removed and the VM goes when its run is done.
 */
export async function makeVM(common: Common, stateManager: StateManagerInterface, blockchain: EVMMockBlockchainInterface): Promise<VM> {
  const before = new Set(common.events.listeners('hardforkChanged'));
  const vm = await createVM({
    common,
    stateManager: stateManager as never,
    blockchain: blockchain as never,
    evmOpts: {},
  });
  for (const fn of common.events.listeners('hardforkChanged')) if (!before.has(fn)) common.events.off('hardforkChanged', fn);
  tuneJournal(vm.evm.journal);
  quietEmit(vm as unknown as Emitting);
  quietEmit(vm.evm as unknown as Emitting);
  return vm;
}

interface Emitting {
  events: Emitter;
  _emit(topic: string, data: unknown): Promise<void>;
}
/**
 * The VM's and the EVM's `_emit` (beforeTx, beforeMessage, afterMessage, newContract, step …) is
 * an async function that calls the topic's listeners: a promise per message even when nobody
 * listens, as in every eth_call. With no listener it does nothing, so a settled promise is the
 * same answer; listeners are counted when emitting, so a tracer added later is still told.
 */
function quietEmit(owner: Emitting): void {
  const emit = owner._emit;
  owner._emit = (topic, data) => (listening(owner.events, topic) ? emit(topic, data) : SETTLED);
}

export interface TxOutcome {
  result: RunTxResult;
  gasUsed: bigint;
}

/**
 * Runs one tx in a block and credits the base-fee part of the fee to the coinbase as well
 * (ethereumjs pays only the tip and burns the base fee; Subnet-EVM pays everything).
 */
export async function runTxSubnetEVM(
  vm: VM,
  tx: TypedTransaction,
  block: never,
  blockGasUsed: bigint,
  opts: { skipNonce?: boolean; skipBalance?: boolean } = {},
): Promise<TxOutcome> {
  const unmask = isImpersonated(tx) ? skipEOACheck(vm.stateManager, tx.getSenderAddress()) : undefined;
  let result: RunTxResult;
  try {
    result = await runTx(vm, {
      tx,
      block,
      blockGasUsed,
      skipHardForkValidation: true,
      skipBlockGasLimitValidation: true,
      skipNonce: opts.skipNonce,
      skipBalance: opts.skipBalance,
    });
  } finally {
    unmask?.();
  }
  // A DELEGATECALL/CALLCODE into a stateful precompile between InvalidateDelegateUnix and Granite
  // invalidates the whole tx (reference §8.1): it cannot be included, and eth_call answers the text.
  const invalid = txInvalidation(vm.evm as never);
  if (invalid !== undefined) throw new Error(invalid);
  const header = (block as { header: { baseFeePerGas: bigint; coinbase: Address } }).header;
  const basePart = result.totalGasSpent * header.baseFeePerGas;
  if (basePart > 0n) {
    const sm = vm.stateManager;
    const acc = (await sm.getAccount(header.coinbase)) ?? new Account();
    acc.balance += basePart;
    await sm.putAccount(header.coinbase, acc);
  }
  return { result, gasUsed: result.totalGasSpent };
}

/**
 * A tx sent by impersonation (anvil_impersonateAccount and the like): its fake signature is
 * r = the sender's address, s = 1 (EvmBackend.signAs). No key signs so: s = 1 with r an address
 * would need a discrete log. Such a tx may come from an address with code, as on Anvil and Hardhat.
 */
export function isImpersonated(tx: TypedTransaction): boolean {
  return tx.s === 1n && tx.r === bytesToBigInt(tx.getSenderAddress().bytes);
}

/**
 * A tx whose sender is given rather than recovered (eth_call, impersonated accounts). It carries
 * a fake signature (r = sender) so it has a stable, distinct hash.
 */
export function withSender<T extends TypedTransaction>(tx: T, from: Address): T {
  const t = tx as unknown as { getSenderAddress(): Address; getSenderPublicKey(): Uint8Array; isSigned(): boolean };
  Object.defineProperty(t, 'getSenderAddress', { value: () => from, configurable: true });
  Object.defineProperty(t, 'isSigned', { value: () => true, configurable: true });
  return tx;
}

export const ZERO_ADDRESS = createAddressFromString('0x0000000000000000000000000000000000000000');
