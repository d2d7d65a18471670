// One block from outside (admin_importChain) executed on top of the head and accepted, if and
// only if re-building it here gives the very same block: the header fields the chain's rules
// derive (gas limit, base fee, coinbase, block gas cost, extraData, Granite times), the txs'
// results (gas used, bloom, receipts root), the state root and so the hash. It runs what the
// block builder runs (src/evm/miner/builder.ts), with the block's txs instead of the pool's, and
// is written and accepted like a mined block (src/evm/miner/miner.ts `mine`). The caller holds
// the chain's mining lock.
import { Account, Address, KECCAK256_NULL } from '@ethereumjs/util';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { checksumAddress } from '../chain/devAccounts.js';
import { txFeeCap, txTipCap, MAX_INITCODE_SIZE } from '../txpool/pool.js';
import { feeCapBelowBaseFee, initcodeTooLarge, insufficientFunds, intrinsicGasTooLow, tipAboveFeeCap } from '../chain/precheckErrors.js';
import type { Block } from '../chain/blockchain.js';
import { orderedTrieRoot } from '../chain/blockchain.js';
import { blockHashSource, execBlock, makeVM, runTxSubnetEVM } from '../chain/exec.js';
import { encodeHeader, timeMs, type ChainHeader } from '../chain/header.js';
import { childHeader, recordReceipt } from '../miner/builder.js';
import type { StoredReceipt } from '../chain/store.js';
import { keccak256 } from '../crypto.js';
import { warpOf, warpPrepareTx } from '../../warp/chain.js';
import type { EvmBackend } from './backend.js';

const hx = (b: Uint8Array) => Buffer.from(b).toString('hex');
const eq = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

/** Why a block cannot be imported (geth's texts where geth has one). */
export class ImportError extends Error {}

/** Executes `file` (a block whose parent is the head) and accepts it; throws ImportError otherwise. */
export async function importBlock(be: EvmBackend, file: Block): Promise<void> {
  const chain = be.chain;
  const parent = chain.head;
  const fh = file.header;
  if (!eq(fh.parentHash, parent.hash)) {
    if (!chain.blockByHash(fh.parentHash)) throw new ImportError('unknown ancestor');
    throw new ImportError(
      `block #${fh.number} [${file.hashHex}] is not a child of the head #${parent.header.number} [${parent.hashHex}]: this node accepts blocks on top of its head only`,
    );
  }
  if (fh.number !== parent.header.number + 1n) throw new ImportError(`invalid block number: have ${fh.number}, want ${parent.header.number + 1n}`);
  const tMs = timeMs(fh);
  const minMs = be.consensus.minChildMs(parent);
  if (tMs < minMs) throw new ImportError(`invalid timestamp: block time ${tMs} ms is before the earliest child time ${minMs} ms of its parent`);

  const fields = await be.consensus.childFields(parent, tMs);
  const rules = chain.rules.rulesAt(fields.timestamp);
  const fork = chain.forkAt(fields.timestamp);
  const common = chain.commons.get(fork);
  const header = childHeader(parent, fields, rules.isEtna);
  const sm = chain.state.live(chain.commons.get('cancun'), chain.headStateRoot);
  const vm = await makeVM(common, sm, blockHashSource((n) => chain.store.canonicalHash(n) ?? undefined));
  const execCtx = execBlock(header, common);
  let written = false;
  await sm.checkpoint();
  try {
    await be.consensus.onBlockStart(vm, sm, parent, header, fields.feeConfig);
    warpOf(chain)?.startBlock(vm, header.timestamp);
    // Warp predicates cost their intrinsic gas here as in the pool (src/warp/predicates.ts).
    const txs: TypedTransaction[] = chain.txsOf(file).map((tx) => warpPrepareTx(chain, tx, header.timestamp));
    const receipts: StoredReceipt[] = [];
    const receiptBytes: Uint8Array[] = [];
    const bloom = new Uint8Array(256);
    let gasUsed = 0n;
    for (let i = 0; i < txs.length; i++) {
      const tx = txs[i];
      try {
        const from = new Address(file.senders[i]);
        await preCheck(be, sm, tx, from, header, header.gasLimit - gasUsed, rules.isDurango);
        const { result } = await runTxSubnetEVM(vm, tx, execCtx, gasUsed);
        gasUsed += result.totalGasSpent;
        recordReceipt(tx, from, result, gasUsed, receiptBytes, bloom, receipts);
      } catch (e) {
        // geth's core.ApplyTransaction failure inside the state processor
        throw new ImportError(`could not apply tx ${i} [0x${hx(tx.hash())}]: ${(e as Error).message}`);
      }
    }
    header.gasUsed = gasUsed;
    header.logsBloom = bloom;
    let finish;
    try {
      finish = be.consensus.finishHeader(parent, header, fields.feeConfig, txs, receipts);
    } catch (e) {
      throw new ImportError((e as Error).message);
    }
    header.blockGasCost = finish.blockGasCost;
    header.extraData = be.consensus.extraData(fields.window, header.timestamp, warpOf(chain)?.predicateResults(vm, txs));
    await sm.commit();
    const stateRoot = await sm.getStateRoot();
    header.stateRoot = stateRoot;
    header.transactionsRoot = await orderedTrieRoot(file.rawTxs);
    header.receiptsRoot = await orderedTrieRoot(receiptBytes);
    compare(fh, header);
    const headerRLP = encodeHeader(header);
    const hash = keccak256(headerRLP);
    if (!eq(hash, file.hash)) throw new ImportError(`block hash mismatch (remote: ${file.hashHex} local: 0x${hx(hash)})`);
    const block: Block = { hash, hashHex: file.hashHex, header, rawTxs: file.rawTxs, senders: file.senders, _txs: txs };
    const ops = [...chain.state.nodes.takeBatch(), ...chain.blockOps(block, receipts, headerRLP), ...(warpOf(chain)?.acceptOps(receipts) ?? [])];
    written = true;
    await chain.store.write(ops);
    chain.state.nodes.settle();
    chain.accepted(block, receipts, stateRoot);
    await be.pool.reset(be.builder.poolResetHead());
    be.miner.announce({ block, receipts });
  } catch (e) {
    if (!written) chain.state.nodes.discard(); // abandon the block's state: the head's stays
    throw e;
  }
}

/** The file's header against the one re-built here: geth's validator texts first. */
function compare(remote: ChainHeader, local: ChainHeader): void {
  if (!eq(remote.transactionsRoot, local.transactionsRoot)) {
    throw new ImportError(`transaction root hash mismatch (header value ${hx(remote.transactionsRoot)}, calculated ${hx(local.transactionsRoot)})`);
  }
  if (remote.gasUsed !== local.gasUsed) throw new ImportError(`invalid gas used (remote: ${remote.gasUsed} local: ${local.gasUsed})`);
  if (!eq(remote.logsBloom, local.logsBloom)) throw new ImportError(`invalid bloom (remote: ${hx(remote.logsBloom)}  local: ${hx(local.logsBloom)})`);
  if (!eq(remote.receiptsRoot, local.receiptsRoot)) throw new ImportError(`invalid receipt root hash (remote: ${hx(remote.receiptsRoot)} local: ${hx(local.receiptsRoot)})`);
  if (!eq(remote.stateRoot, local.stateRoot)) throw new ImportError(`invalid merkle root (remote: ${hx(remote.stateRoot)} local: ${hx(local.stateRoot)})`);
  const fields: (keyof ChainHeader)[] = [
    'coinbase', 'gasLimit', 'baseFee', 'blockGasCost', 'extraData', 'timestamp', 'timestampMilliseconds', 'minDelayExcess',
    'difficulty', 'mixHash', 'nonce', 'uncleHash', 'blobGasUsed', 'excessBlobGas', 'parentBeaconRoot',
  ];
  for (const f of fields) {
    const a = show(remote[f]);
    const b = show(local[f]);
    if (a !== b) throw new ImportError(`invalid ${f} (remote: ${a} local: ${b})`);
  }
}

function show(v: unknown): string {
  if (v === undefined) return 'nil';
  if (v instanceof Uint8Array) return '0x' + hx(v);
  return String(v);
}

/**
 * geth's checks before a tx of a block runs (state_transition.go preCheck, buyGas, TransitionDb),
 * in its order and words, with Subnet-EVM's TxAllowList after the EOA check (reference §9.3):
 * nonce, sender is an EOA, TxAllowList, fee caps, balance (gas × fee cap + value), the block's gas
 * left, intrinsic gas (warp predicate gas included), Durango's initcode limit. ethereumjs' runTx
 * checks the same things afterwards, in its own words.
 */
async function preCheck(be: EvmBackend, sm: MerkleStateManager, tx: TypedTransaction, sender: Address, header: ChainHeader, gasLeft: bigint, isDurango: boolean): Promise<void> {
  const acc = (await sm.getAccount(sender)) ?? new Account();
  const from = checksumAddress(sender.toString());
  if (acc.nonce < tx.nonce) throw new Error(`nonce too high: address ${from}, tx: ${tx.nonce} state: ${acc.nonce}`);
  if (acc.nonce > tx.nonce) throw new Error(`nonce too low: address ${from}, tx: ${tx.nonce} state: ${acc.nonce}`);
  if (acc.nonce === 2n ** 64n - 1n) throw new Error(`nonce has max value: address ${from}, nonce: ${acc.nonce}`);
  if (acc.codeHash.length === 32 && !eq(acc.codeHash, KECCAK256_NULL) && acc.codeHash.some((x) => x !== 0)) {
    throw new Error(`sender not an eoa: address ${from}, codehash: 0x${hx(acc.codeHash)}`);
  }
  await be.consensus.checkTxAllowed(sm, sender, header);
  const feeCap = txFeeCap(tx);
  const tip = txTipCap(tx);
  if (feeCap < tip) throw new Error(tipAboveFeeCap(from, tip, feeCap));
  const baseFee = header.baseFee ?? 0n;
  if (header.baseFee !== undefined && feeCap < baseFee) throw new Error(feeCapBelowBaseFee(from, feeCap, baseFee));
  const want = tx.gasLimit * feeCap + tx.value;
  if (acc.balance < want) throw new Error(insufficientFunds(from, acc.balance, want));
  if (tx.gasLimit > gasLeft) throw new Error('gas limit reached');
  const intrinsic = tx.getIntrinsicGas();
  if (tx.gasLimit < intrinsic) throw new Error(intrinsicGasTooLow(tx.gasLimit, intrinsic));
  if (isDurango && tx.to === undefined && tx.data.length > MAX_INITCODE_SIZE) {
    throw new Error(initcodeTooLarge(tx.data.length));
  }
}
