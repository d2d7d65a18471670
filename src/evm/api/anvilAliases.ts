// Anvil's (and Hardhat's) own names for controls Powder serves under other names, and the small
// controls that go with them: anvil_snapshot / anvil_revert, anvil_setTime, evm_mine_detailed /
// anvil_mine_detailed, anvil_getIntervalMining, hardhat_intervalMine, anvil_addBalance and
// anvil_autoImpersonateAccount.
import { Account, createAddressFromString } from '@ethereumjs/util';
import { address, bool, invalidArg, quantity, required } from './args.js';
import { blockJSON } from './eth.js';
import { hexD } from './format.js';
import { timestampArg, withArity, type ControlContext } from './controlContext.js';
import type { EvmBackend } from './backend.js';
import type { Block } from '../chain/blockchain.js';
import type { TxOutputs } from '../miner/builder.js';
import { anvilRevertReason } from '../tracers/errors.js';

const MAX_UINT256 = (1n << 256n) - 1n;

export function anvilAliasMethods(
  { be, m, editState }: ControlContext,
  mining: { evmMine(p: unknown[]): Promise<void> },
): void {
  const chain = be.chain;
  const miner = be.miner;

  // Anvil serves evm_snapshot / evm_revert under these names too: one set of snapshots.
  m.set('anvil_snapshot', withArity(0, m.get('evm_snapshot')! as (p: unknown[]) => unknown));
  m.set('anvil_revert', withArity(1, m.get('evm_revert')! as (p: unknown[]) => unknown));

  // Anvil's anvil_setTime takes seconds (Ganache's evm_setTime milliseconds): the clock moves to
  // that time, backwards too (the next block is still after its parent), the one-shot next
  // timestamp is dropped, and the answer is how many seconds ahead of the clock's time it moved
  // (0 when backwards), a number.
  m.set(
    'anvil_setTime',
    withArity(1, (p) => {
      const ts = timestampArg(required(p, 0), 0);
      const nowMs = miner.clock.nowMs();
      miner.clock.offsetMs = ts * 1000n - BigInt(Math.floor(be.ctx.node.now()));
      miner.clock.nextTimestampMs = undefined;
      const ahead = ts - nowMs / 1000n;
      return ahead > 0n ? Number(ahead) : 0;
    }),
  );

  // Anvil's evm_mine_detailed: evm_mine's params; the blocks it mined, with full transactions and
  // each tx's return data. (The request ran once the automine was idle, methods.ts: the blocks
  // after `from` are this call's.)
  const mineDetailed = withArity(1, async (p) => {
    const from = chain.head.header.number;
    const outputs = await be.builder.collectOutputs(() => mining.evmMine(p));
    const blocks: Record<string, unknown>[] = [];
    for (let n = from + 1n; n <= chain.head.header.number; n++) {
      const b = chain.blockByNumber(n);
      if (b) blocks.push(detailedBlockJSON(be, b, outputs));
    }
    return blocks;
  });
  m.set('evm_mine_detailed', mineDetailed);
  m.set('anvil_mine_detailed', mineDetailed);

  // Anvil answers its interval in whole seconds, or null when it is not interval mining.
  m.set(
    'anvil_getIntervalMining',
    withArity(0, () => (miner.interval > 0 ? Math.floor(miner.interval / 1000) : null)),
  );
  // Hardhat's interval miner's tick on demand: one block (empty if the pool is), `true`.
  m.set(
    'hardhat_intervalMine',
    withArity(0, async () => {
      await miner.mine({ allowEmpty: true });
      return true;
    }),
  );

  m.set(
    'anvil_addBalance',
    withArity(2, async (p) => {
      const a = createAddressFromString(address(required(p, 0), 0));
      const amount = quantity(required(p, 1), 1);
      await editState(async (sm) => {
        const acc = (await sm.getAccount(a)) ?? new Account();
        const balance = acc.balance + amount;
        if (balance > MAX_UINT256) throw invalidArg(1, `the balance ${acc.balance} plus ${amount} would pass 2^256-1`);
        acc.balance = balance;
        await sm.putAccount(a, acc);
      });
      return null;
    }),
  );
  // Every sender of eth_sendTransaction impersonated (no key needed), until turned off or reset.
  m.set(
    'anvil_autoImpersonateAccount',
    withArity(1, (p) => {
      be.autoImpersonate = bool(required(p, 0), 0);
      return null;
    }),
  );
}

/**
 * A block as eth_getBlockByNumber(n, true) answers it, each tx with Anvil's extra fields: `output`,
 * its return data (none for a tx that halted), and for a failed tx whose data reads as Error(string)
 * or Panic(uint256), `revertReason`.
 */
function detailedBlockJSON(be: EvmBackend, b: Block, outputs: TxOutputs): Record<string, unknown> {
  const json = blockJSON(be, b, true);
  const receipts = be.chain.receipts(b);
  (json.transactions as Record<string, unknown>[]).forEach((tx, i) => {
    const output = outputs.get(tx.hash as string);
    if (output === undefined) return;
    tx.output = hexD(output);
    const reason = receipts[i].status === 0 ? anvilRevertReason(output) : undefined;
    if (reason !== undefined) tx.revertReason = reason;
  });
  return json;
}
