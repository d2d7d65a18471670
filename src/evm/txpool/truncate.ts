// geth legacypool's trimming at each reorg (promoteExecutables' per-sender queue cap,
// truncatePending, truncateQueue): a tx over a limit is taken and answered, and the pool trims
// itself afterwards, never by refusing the tx. Locals are never trimmed. These functions only pick
// the txs to drop; TxPool removes them. Also the price order geth evicts by when the pool is full.
import type { TypedTransaction } from '@ethereumjs/tx';
import type { PoolTx } from './pool.js';
import { feeCap, tipCap } from './txFees.js';

/** promoteExecutables' `list.Cap(AccountQueue)`: a sender's queued txs past the limit, highest nonces. */
export function queueCapOverflow(queued: readonly PoolTx[], accountQueue: number): PoolTx[] {
  return queued.length > accountQueue ? queued.slice(accountQueue) : [];
}

/**
 * truncatePending: while more than globalSlots txs are executable, the senders with more than
 * accountSlots of them ("spammers", largest first) lose their highest nonces, first evened out
 * down to the next largest offender, then all together down to accountSlots. `pending` holds the
 * remote senders' executable txs in nonce order; `total` counts every sender's, locals included.
 */
export function pendingOverflow(pending: ReadonlyMap<string, readonly PoolTx[]>, total: number, accountSlots: number, globalSlots: number): PoolTx[] {
  if (total <= globalSlots) return [];
  const lists = new Map<string, PoolTx[]>();
  for (const [from, list] of pending) if (list.length > accountSlots) lists.set(from, [...list]);
  // geth's priority queue pops the largest first (ties in no set order; here the first seen).
  const spammers = [...lists.keys()].sort((a, b) => lists.get(b)!.length - lists.get(a)!.length);
  const dropped: PoolTx[] = [];
  const dropLast = (from: string) => {
    dropped.push(lists.get(from)!.pop()!);
    total--;
  };
  const offenders: string[] = [];
  for (const offender of spammers) {
    if (total <= globalSlots) break;
    offenders.push(offender);
    if (offenders.length < 2) continue;
    // Even the earlier offenders out down to this one's count.
    const threshold = lists.get(offender)!.length;
    while (total > globalSlots && lists.get(offenders[offenders.length - 2])!.length > threshold) {
      for (let i = 0; i < offenders.length - 1; i++) dropLast(offenders[i]);
    }
  }
  // Still over: every offender down together, at most to accountSlots.
  if (total > globalSlots && offenders.length > 0) {
    while (total > globalSlots && lists.get(offenders[offenders.length - 1])!.length > accountSlots) {
      for (const from of offenders) dropLast(from);
    }
  }
  return dropped;
}

/**
 * truncateQueue: while more than globalQueue txs are queued, the remote senders with the oldest
 * heartbeat lose theirs — a sender's whole queue when it is not more than the excess, else its
 * highest nonces. `queued` holds each remote sender's queued txs in nonce order; `total` counts
 * every sender's, locals included.
 */
export function queueOverflow(queued: readonly { beat: number; list: readonly PoolTx[] }[], total: number, globalQueue: number): PoolTx[] {
  if (total <= globalQueue) return [];
  // Oldest heartbeat first (a stable sort: equal beats in the order given).
  const senders = [...queued].sort((a, b) => a.beat - b.beat);
  const dropped: PoolTx[] = [];
  let drop = total - globalQueue;
  for (const { list } of senders) {
    if (drop <= 0) break;
    const n = Math.min(list.length, drop);
    dropped.push(...list.slice(list.length - n));
    drop -= n;
  }
  return dropped;
}

/** geth's txSlotSize: a tx takes one slot per started 32 KiB of its encoding (numSlots). */
export function txSlots(raw: Uint8Array): number {
  return Math.max(1, Math.ceil(raw.length / 32768));
}

/**
 * geth's price heap order without a base fee (the "floating" heap, which eviction pops): fee cap,
 * then tip cap; equal prices: the higher nonce is the cheaper.
 */
function priceCmp(a: TypedTransaction, b: TypedTransaction): number {
  const c = feeCap(a) - feeCap(b) || tipCap(a) - tipCap(b);
  return c === 0n ? 0 : c < 0n ? -1 : 1;
}

/** The remote txs in the order geth evicts them when the pool is full. */
export function cheapestFirst(txs: readonly PoolTx[]): PoolTx[] {
  return [...txs].sort((a, b) => priceCmp(a.tx, b.tx) || (a.nonce > b.nonce ? -1 : a.nonce < b.nonce ? 1 : 0));
}

/** geth's Underpriced() negated: `tx` is priced strictly above `cheapest`. */
export function pricedAbove(tx: TypedTransaction, cheapest: TypedTransaction): boolean {
  return priceCmp(tx, cheapest) > 0;
}
