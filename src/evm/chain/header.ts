// The chain's header is the header module's type (src/evm/header: §5.3 RLP layout and hash,
// eth_getBlockBy* JSON); this file adds the chain's helpers.
import type { Header } from '../header/index.js';
export { encodeHeader, hashHeader, decodeHeader, headerNotificationJSON, EMPTY_UNCLE_HASH, EMPTY_ROOT, ZERO_HASH } from '../header/index.js';
import { headerJSON } from '../header/index.js';

export type ChainHeader = Header;

/** Header JSON (§1.4) plus block extras (size, transactions, uncles). */
export function headerToJSON(h: ChainHeader, hash: Uint8Array, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return headerJSON(h, { hash, ...extra });
}

/** Header time in milliseconds (§7.7). */
export function timeMs(h: ChainHeader): bigint {
  return h.timestampMilliseconds ?? h.timestamp * 1000n;
}
