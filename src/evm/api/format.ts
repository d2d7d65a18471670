// Wire encodings of blocks, transactions, receipts and logs (geth's RPCMarshal* field sets).
import type { TypedTransaction } from '@ethereumjs/tx';
import { hex0x } from '../../hexOf.js';
import type { Block } from '../chain/blockchain.js';
import type { StoredLog, StoredReceipt } from '../chain/store.js';
import { effectiveTip, txFeeCap } from '../txpool/pool.js';

export const hexQ = (n: bigint | number): string => '0x' + n.toString(16);
export const hexD: (b: Uint8Array) => string = hex0x;
export const hexAddr = (b: Uint8Array): string => hexD(b);

export interface TxLocation {
  block: Block;
  index: number;
}

/**
 * geth RPCTransaction. `loc` absent for pool txs (blockHash etc. null). `hash`: the hash of an
 * unsigned tx (geth's, over its encoding with zero V, R, S), which ethereumjs does not give.
 */
export function txJSON(tx: TypedTransaction, from: string, loc?: TxLocation, hash?: Uint8Array): Record<string, unknown> {
  const out: Record<string, unknown> = {
    blockHash: loc ? loc.block.hashHex : null,
    blockNumber: loc ? hexQ(loc.block.header.number) : null,
    from,
    gas: hexQ(tx.gasLimit),
  };
  const t = tx as unknown as Record<string, unknown>;
  if (tx.type === 0 || tx.type === 1) {
    out.gasPrice = hexQ(t.gasPrice as bigint);
  } else {
    const baseFee = loc?.block.header.baseFee;
    const price = baseFee !== undefined ? baseFee + effectiveTip(tx, baseFee) : txFeeCap(tx);
    out.gasPrice = hexQ(price);
    out.maxFeePerGas = hexQ(t.maxFeePerGas as bigint);
    out.maxPriorityFeePerGas = hexQ(t.maxPriorityFeePerGas as bigint);
  }
  out.hash = hexD(hash ?? tx.hash());
  out.input = hexD(tx.data);
  out.nonce = hexQ(tx.nonce);
  out.to = tx.to ? tx.to.toString() : null;
  out.transactionIndex = loc ? hexQ(loc.index) : null;
  out.value = hexQ(tx.value);
  out.type = hexQ(tx.type);
  if (tx.type !== 0) {
    out.accessList = accessListJSON(tx);
    out.chainId = hexQ(tx.common.chainId());
  } else if (tx.v !== undefined && tx.v >= 35n) {
    out.chainId = hexQ((tx.v - 35n) / 2n);
  }
  out.v = hexQ(tx.v ?? 0n);
  out.r = hexQ(tx.r ?? 0n);
  out.s = hexQ(tx.s ?? 0n);
  if (tx.type !== 0) out.yParity = hexQ(tx.v ?? 0n);
  return out;
}

/**
 * geth's types.Transaction JSON (core/types/transaction_marshalling.go `txJSON`): the `tx` of
 * eth_signTransaction, personal_signTransaction and eth_fillTransaction (SignTransactionResult),
 * unlike RPCTransaction with no `from` or block fields. Go writes the struct's fields in their
 * order; `gasPrice`, `maxPriorityFeePerGas` and `maxFeePerGas` have no omitempty, so the ones a
 * type lacks are null; a legacy tx has `chainId` only when replay-protected (V other than 0, 1,
 * 27, 28). `hash`: as for txJSON.
 */
export function gethTxJSON(tx: TypedTransaction, hash?: Uint8Array): Record<string, unknown> {
  const t = tx as unknown as Record<string, unknown>;
  const v = tx.v ?? 0n;
  const legacy = tx.type === 0;
  const out: Record<string, unknown> = { type: hexQ(tx.type) };
  if (!legacy) out.chainId = hexQ(tx.common.chainId());
  else if (v > 255n || (v !== 0n && v !== 1n && v !== 27n && v !== 28n)) out.chainId = hexQ(v < 1n << 64n ? ((v - 35n) & 0xffffffffffffffffn) / 2n : (v - 35n) / 2n); // deriveChainId, in uint64 below 2^64
  out.nonce = hexQ(tx.nonce);
  out.to = tx.to ? tx.to.toString() : null;
  out.gas = hexQ(tx.gasLimit);
  out.gasPrice = tx.type === 0 || tx.type === 1 ? hexQ(t.gasPrice as bigint) : null;
  out.maxPriorityFeePerGas = tx.type === 2 ? hexQ(t.maxPriorityFeePerGas as bigint) : null;
  out.maxFeePerGas = tx.type === 2 ? hexQ(t.maxFeePerGas as bigint) : null;
  out.value = hexQ(tx.value);
  out.input = hexD(tx.data);
  if (!legacy) out.accessList = accessListJSON(tx);
  out.v = hexQ(v);
  out.r = hexQ(tx.r ?? 0n);
  out.s = hexQ(tx.s ?? 0n);
  if (!legacy) out.yParity = hexQ(v);
  out.hash = hexD(hash ?? tx.hash());
  return out;
}

export function accessListJSON(tx: TypedTransaction): { address: string; storageKeys: string[] }[] {
  const al = (tx as unknown as { accessList?: [Uint8Array, Uint8Array[]][] }).accessList ?? [];
  return al.map(([a, keys]) => ({ address: hexD(a), storageKeys: keys.map(hexD) }));
}

export function logJSON(l: StoredLog, block: Block, txHash: string, txIndex: number, logIndex: number): Record<string, unknown> {
  return {
    address: hexD(l.address),
    topics: l.topics.map(hexD),
    data: hexD(l.data),
    blockNumber: hexQ(block.header.number),
    transactionHash: txHash,
    transactionIndex: hexQ(txIndex),
    blockHash: block.hashHex,
    logIndex: hexQ(logIndex),
    removed: false,
  };
}

/** Bloom of one receipt's logs (geth types.Bloom). */
export function logsBloom(logs: StoredLog[], keccak: (b: Uint8Array) => Uint8Array): Uint8Array {
  const bloom = new Uint8Array(256);
  const add = (v: Uint8Array) => {
    const h = keccak(v);
    for (let i = 0; i < 6; i += 2) {
      const bit = ((h[i] << 8) | h[i + 1]) & 2047;
      bloom[256 - 1 - (bit >> 3)] |= 1 << (bit & 7);
    }
  };
  for (const l of logs) {
    add(l.address);
    for (const t of l.topics) add(t);
  }
  return bloom;
}

export function receiptJSON(
  tx: TypedTransaction,
  from: string,
  r: StoredReceipt,
  block: Block,
  index: number,
  firstLogIndex: number,
  keccak: (b: Uint8Array) => Uint8Array,
): Record<string, unknown> {
  const txHash = hexD(tx.hash());
  const baseFee = block.header.baseFee ?? 0n;
  const price = tx.type === 2 ? baseFee + effectiveTip(tx, baseFee) : ((tx as unknown as { gasPrice: bigint }).gasPrice ?? 0n);
  return {
    blockHash: block.hashHex,
    blockNumber: hexQ(block.header.number),
    contractAddress: r.contractAddress ? hexD(r.contractAddress) : null,
    cumulativeGasUsed: hexQ(r.cumulativeGasUsed),
    effectiveGasPrice: hexQ(price),
    from,
    gasUsed: hexQ(r.gasUsed),
    logs: r.logs.map((l, i) => logJSON(l, block, txHash, index, firstLogIndex + i)),
    logsBloom: hexD(logsBloom(r.logs, keccak)),
    status: hexQ(r.status),
    to: tx.to ? tx.to.toString() : null,
    transactionHash: txHash,
    transactionIndex: hexQ(index),
    type: hexQ(tx.type),
  };
}
