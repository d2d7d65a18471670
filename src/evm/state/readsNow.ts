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
