// A mined block re-executed on its parent's state, tx by tx: what the tracers, debug_intermediateRoots
// and debug_storageRangeAt look at (geth's stateAtBlock / stateAtTransaction).
import { RpcError } from '../rpc/server.js';
import type { Block } from '../chain/blockchain.js';
import { blockHashSource, execBlock, makeVM, runTxSubnetEVM } from '../chain/exec.js';
import type { EvmBackend } from './backend.js';
import { hexD } from './format.js';
import { warpOf, warpPrepareTx } from '../../warp/chain.js';
import { withYielding } from '../callYield.js';

/**
 * `block` re-executed on its parent's state: `run(i)` executes its txs in order (each after the
 * ones before it), on `sm`, with the block's start-of-block changes (precompile upgrades, fee
 * config) already applied.
 */
export async function replayBlock(be: EvmBackend, block: Block) {
  const chain = be.chain;
  if (block.header.number === 0n) throw new RpcError(-32000, 'genesis is not traceable');
  const parent = chain.blockByHash(block.header.parentHash);
  if (!parent) throw new RpcError(-32000, `parent ${hexD(block.header.parentHash)} not found`);
  const fork = chain.forkAt(block.header.timestamp);
  const common = chain.commons.get(fork);
  const sm = chain.stateView(parent);
  const vm = await makeVM(common, sm, blockHashSource((n) => chain.store.canonicalHash(n)));
  await sm.checkpoint();
  const fc = await be.consensus.feeConfigAfter(parent);
  await be.consensus.onBlockStart(vm, sm, parent, block.header, fc.feeConfig);
  // Warp: the predicates' intrinsic gas, and their results as the block recorded them.
  warpOf(chain)?.startReplay(vm, block.header.timestamp, block.header.extraData);
  const ctx = execBlock(block.header, common);
  const txs = chain.txsOf(block).map((tx) => warpPrepareTx(chain, tx, block.header.timestamp));
  let gasUsed = 0n;
  const run = async (i: number) => {
    // A replay runs on a state of its own: it may give the event loop turns (callYield.ts).
    const { result } = await withYielding(vm.evm, () => runTxSubnetEVM(vm, txs[i], ctx, gasUsed));
    gasUsed += result.totalGasSpent;
    return result;
  };
  return { vm, sm, txs, run };
}
