// Anvil's anvil_rollback [depth?] and anvil_reorg [depth, txBlockPairs].
//
// anvil_rollback: the last `depth` blocks (default 1) removed, the head back to the block before
// them with the state it had as the head (its state edits included). anvil_reorg: the same
// rollback, then `depth` new blocks on the common block, block i holding the txs paired with i —
// a chain reorganisation of the same height, as an indexer or a relayer meets it.
//
// Rewound as evm_revert and anvil_reset rewind (Blockchain.rewindTo: one LMDB transaction, so a
// crash leaves the old head or the new one). As on Anvil, the pool is kept and the removed blocks'
// transactions are not put back in it: its txs are checked again against the new head's nonces.
// The clock is kept too. Snapshots taken above the new head are dropped (their blocks are gone).
// The removed blocks' logs go to log filters and `logs` subscriptions with `removed: true`, as
// geth's filter system sends a reorg's (filters.ts removedLogs).
import type { TypedTransaction } from '@ethereumjs/tx';
import { createAddressFromString } from '@ethereumjs/util';
import { invalidArg } from './args.js';
import { num, withArity, type ControlContext } from './controlContext.js';
import { parseCallArgs, type EvmBackend } from './backend.js';
import type { Block } from '../chain/blockchain.js';
import type { PoolTx } from '../txpool/pool.js';
import { RpcError } from '../rpc/server.js';
import { hex0x } from '../../hexOf.js';
import { timeMs } from '../chain/header.js';
import { MAX_BLOCK_TIME_MS } from '../miner/miner.js';
import { warpPrepareTx } from '../../warp/chain.js';

const U64 = 2n ** 64n - 1n;

/** A reorg tx as sent: signed bytes, or a request the node fills and signs (eth_sendTransaction's). */
type TxData = { raw: Uint8Array } | { request: ReturnType<typeof parseCallArgs> };

export function rollbackMethods({ be, m, snapshots }: ControlContext): void {
  const chain = be.chain;

  /** The chain back to `targetOf()`, then (anvil_reorg) a block per entry of `blocks`; the pool re-checked. */
  const rewind = async (targetOf: () => Block, blocks: PoolTx[][]) => {
    await be.miner.rewind(targetOf, blocks, (target) => {
      for (const [id, s] of snapshots) if (s.number > target.header.number) snapshots.delete(id);
    });
    await be.pool.reset(async (from) => (await chain.accountAt(chain.head, createAddressFromString(from))).nonce);
  };

  m.set(
    'anvil_rollback',
    withArity(1, async (p) => {
      const depth = p[0] == null ? 1n : num(p[0], 0);
      // Anvil's check and words; the genesis stays. Checked again under the lock, where the depth
      // counts from the head (a block mined meanwhile is the first to go).
      const target = () => {
        const height = chain.head.header.number;
        if (depth > height) throw invalidArg(0, `Rollback depth must not exceed current chain height: current height ${height}, depth ${depth}`);
        return chain.blockByNumber(height - depth)!;
      };
      target();
      if (depth === 0n) return null;
      await rewind(target, []);
      return null;
    }),
  );

  m.set(
    'anvil_reorg',
    withArity(2, async (p) => {
      const { depth, pairs } = reorgArgs(p);
      const height = chain.head.header.number;
      if (depth > height) throw invalidArg(0, `Reorg depth must not exceed current chain height: current height ${height}, depth ${depth}`);
      const late = pairs.find((x) => x.block >= depth);
      // Anvil's words; its depth-1 is a u64, so 0 - 1 wraps.
      if (late) throw invalidArg(1, `Block number for reorg tx will exceed the reorged chain height. Block number ${late.block} must not exceed (depth-1) ${(depth - 1n) & U64}`);
      const common = chain.blockByNumber(height - depth)!;
      // The new blocks come at the clock's time, each at least 1 ms after its parent: refused
      // before anything changes if the last would pass the largest block time (as mineBlocks is).
      const clock = be.miner.clock.nowMs();
      const from = clock > timeMs(common.header) ? clock : timeMs(common.header);
      if (depth > 0n && from + depth > MAX_BLOCK_TIME_MS) {
        throw invalidArg(0, `${depth} new blocks from the clock's time would pass the largest block time (${MAX_BLOCK_TIME_MS} ms)`);
      }
      // Anvil sorts the pairs by block (a stable sort) and counts each signer's nonces from the
      // common block on, in that order.
      const sorted = [...pairs].sort((a, b) => (a.block < b.block ? -1 : a.block > b.block ? 1 : 0));
      const blocks: PoolTx[][] = Array.from({ length: Number(depth) }, () => []);
      const nonces = new Map<string, bigint>();
      let seq = 0;
      for (const { data, block } of sorted) {
        const tx = 'raw' in data ? be.decodeRawTransaction(data.raw).tx : await signedRequest(be, common, data.request, nonces);
        blocks[Number(block)].push(poolTx(be, tx, 'raw' in data ? data.raw : tx.serialize(), seq++));
      }
      // As on Anvil, the common block was read before the lock: a block mined meanwhile goes too.
      await rewind(() => common, blocks);
      return null;
    }),
  );
}

/**
 * anvil_reorg's params: Anvil's ReorgOptions, as a sequence `[depth, [[tx, block], …]]` or as an
 * object `[{"depth": …, "txBlockPairs": […]}]` (`tx_block_pairs` also taken). A tx is signed bytes
 * (hex) or a transaction request; its block is the index of a new block, 0 … depth-1.
 */
function reorgArgs(p: unknown[]): { depth: bigint; pairs: { data: TxData; block: bigint }[] } {
  let depthArg: unknown = p[0];
  let pairsArg: unknown = p[1];
  if (p.length === 1 && p[0] !== null && typeof p[0] === 'object' && !Array.isArray(p[0])) {
    const o = p[0] as Record<string, unknown>;
    depthArg = o.depth;
    pairsArg = o.txBlockPairs ?? o.tx_block_pairs;
  }
  if (depthArg === undefined) throw invalidArg(0, 'missing depth');
  const depth = num(depthArg, 0);
  if (pairsArg == null) return { depth, pairs: [] };
  if (!Array.isArray(pairsArg)) throw invalidArg(1, 'txBlockPairs: want an array of [transaction, block] pairs');
  const pairs = pairsArg.map((pair, k) => {
    if (!Array.isArray(pair) || pair.length !== 2) throw invalidArg(1, `txBlockPairs[${k}]: want a [transaction, block] pair`);
    const [tx, block] = pair;
    let data: TxData;
    if (typeof tx === 'string') {
      if (!/^0x([0-9a-fA-F]{2})+$/.test(tx)) throw invalidArg(1, `txBlockPairs[${k}][0]: want signed transaction bytes (0x hex) or a transaction request`);
      data = { raw: Buffer.from(tx.slice(2), 'hex') };
    } else if (tx !== null && typeof tx === 'object' && !Array.isArray(tx)) {
      data = { request: parseCallArgs(tx, 1) };
    } else {
      throw invalidArg(1, `txBlockPairs[${k}][0]: want signed transaction bytes (0x hex) or a transaction request`);
    }
    let n: bigint;
    try {
      n = num(block, 1);
    } catch {
      throw invalidArg(1, `txBlockPairs[${k}][1]: want a block index (a non-negative whole number)`);
    }
    return { data, block: n };
  });
  return { depth, pairs };
}

/**
 * A request's tx, signed by its `from` (Anvil: the first account when none) with the next nonce
 * counted from the common block.
 */
async function signedRequest(be: EvmBackend, common: Block, request: ReturnType<typeof parseCallArgs>, nonces: Map<string, bigint>): Promise<TypedTransaction> {
  const from = request.from ?? be.accountManager.accounts()[0];
  if (from === undefined) throw new RpcError(-32000, 'no signer available: the request has no `from` and the node has no accounts');
  const nonce = nonces.get(from) ?? (await be.account(common, from)).nonce;
  nonces.set(from, nonce + 1n);
  return be.signedForReorg(request, from, nonce);
}

/** A tx as a block's tx source takes it (the pool's record of it, without the pool). */
function poolTx(be: EvmBackend, tx: TypedTransaction, raw: Uint8Array, seq: number): PoolTx {
  let sender: string;
  try {
    sender = tx.getSenderAddress().toString();
  } catch {
    throw new RpcError(-32000, 'invalid sender');
  }
  const prepared = warpPrepareTx(be.chain, tx, be.chain.head.header.timestamp);
  return { tx: prepared, hash: hex0x(prepared.hash()), from: sender.toLowerCase(), nonce: tx.nonce, seq, raw };
}
