// Reads that answer at once: what a state manager holds or reaches through its synchronous node
// store (Powder's TrieNodeDB and OverlayDB read synchronously; ethereumjs's API wraps every read
// in a promise). The JavaScript tracers' `db` reads the state this way (src/evm/tracers/jsTracer.ts):
// its engine calls back synchronously. NOT_NOW: this state cannot tell without waiting.
import type { Account, Address } from '@ethereumjs/util';

export const NOT_NOW: unique symbol = Symbol('not now');
export type NotNow = typeof NOT_NOW;

export interface ReadsNow {
  /** The account (undefined: none), as getAccount would answer. */
  accountNow(address: Address): Account | undefined | NotNow;
  /** A storage slot's value (unpadded, empty when unset), as getStorage would answer. */
  storageNow(address: Address, key: Uint8Array): Uint8Array | NotNow;
  /** The account's code (empty for none), as getCode would answer. */
  codeNow(address: Address): Uint8Array | NotNow;
}

/** `state`'s synchronous reads, when it has them. */
export function readsNow(state: unknown): ReadsNow | undefined {
  const s = state as Partial<ReadsNow> | undefined;
  return typeof s?.accountNow === 'function' && typeof s.storageNow === 'function' && typeof s.codeNow === 'function' ? (s as ReadsNow) : undefined;
}

/**
 * What a call state's `getAccount` / `getCode` would resolve to, when it can tell at once
 * (CallState's getAccountNow / getCodeNow: the same copy, the same code), else NOT_NOW. The
 * bundles' @ethereumjs/evm asks this first where a call's message reads the accounts and code
 * (scripts/bundle.mjs): getAccount's promise, and the await of it, cost two promises and a
 * microtask turn each (docs/performance.md, session 41). Any other state manager answers NOT_NOW
 * and is awaited as before.
 */
export function accountNowFor(state: unknown, address: Address): Account | undefined | NotNow {
  const s = state as { getAccountNow?: (a: Address) => Account | undefined | NotNow };
  return typeof s.getAccountNow === 'function' ? s.getAccountNow(address) : NOT_NOW;
}
export function codeNowFor(state: unknown, address: Address): Uint8Array | NotNow {
  const s = state as { getCodeNow?: (a: Address) => Uint8Array | NotNow };
  return typeof s.getCodeNow === 'function' ? s.getCodeNow(address) : NOT_NOW;
}
