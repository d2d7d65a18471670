// Anvil's anvil_rollback [depth?]: the last `depth` blocks (default 1) removed, the head back to
// the block before them with the state it had as the head (its state edits included). Rewound as
// evm_revert and anvil_reset rewind (Blockchain.rewindTo: one LMDB transaction, so a crash leaves
// the old head or the new one). As on Anvil, the pool is kept and the removed blocks' transactions
// are not put back in it: its txs are checked again against the new head's nonces. The clock is
// kept too. Snapshots taken above the new head are dropped (their blocks are gone).
import { invalidArg } from './args.js';
import { num, withArity, type ControlContext } from './controlContext.js';
import { createAddressFromString } from '@ethereumjs/util';

export function rollbackMethods({ be, m, snapshots }: ControlContext): void {
  const chain = be.chain;
  m.set(
    'anvil_rollback',
    withArity(1, async (p) => {
      const depth = p[0] == null ? 1n : num(p[0], 0);
      const release = await be.miner.lock.acquire();
      try {
        const height = chain.head.header.number;
        // Anvil's check and words; the genesis stays.
        if (depth > height) throw invalidArg(0, `Rollback depth must not exceed current chain height: current height ${height}, depth ${depth}`);
        if (depth === 0n) return null;
        const target = chain.blockByNumber(height - depth)!;
        await chain.rewindTo(target.header.number, chain.stateRootOf(target));
        for (const [id, s] of snapshots) if (s.number > target.header.number) snapshots.delete(id);
      } finally {
        release();
      }
      await be.pool.reset(async (from) => (await chain.accountAt(chain.head, createAddressFromString(from))).nonce);
      return null;
    }),
  );
}
