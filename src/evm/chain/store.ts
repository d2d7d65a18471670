// Block, receipt and index storage in the chain's LMDB store. One block = one LMDB transaction
// (block, receipts, tx lookups, canonical index, head pointer, and the state trie nodes), so a
// crash leaves either the whole block or none of it. A run of blocks mined by one call
// (hardhat_mine & co.) is staged here and written as one transaction (Miner.mineRun).
import { RLP } from '@ethereumjs/rlp';
import { encodeRlp } from '../state/nodeRlp.js';
import type { KVStore } from '../../db/database.js';
import { hex0x } from '../../hexOf.js';

const enc = (s: string) => Buffer.from(s, 'latin1');
const K_HEAD = enc('head');
const K_CHAIN_META = enc('meta');
/** transaction-history: the lowest block whose tx lookups may still exist (geth's TxIndexTail). */
const K_TX_TAIL = enc('txIndexTail');
const P_CANON = 0x4e; // 'N' + u64 number → hash
const P_BLOCK = 0x42; // 'B' + hash → rlp([headerRLP, [raw tx], [sender]])
const P_RECEIPTS = 0x52; // 'R' + hash → rlp([[type, status, cumGas, [logs], gasUsed]])
const P_TXLOOKUP = 0x54; // 'T' + tx hash → u64 number ‖ u32 index
const P_STATE_OVERRIDE = 0x4f; // 'O' + block hash → state root after test-control edits

export type Op = [Uint8Array, Uint8Array | null];

function key(prefix: number, body: Uint8Array): Uint8Array {
  const k = Buffer.allocUnsafe(1 + body.length);
  k[0] = prefix;
  k.set(body, 1);
  return k;
}
function u64(n: bigint): Uint8Array {
  const b = Buffer.allocUnsafe(8);
  b.writeBigUInt64BE(n);
  return b;
}

export interface StoredLog {
  address: Uint8Array;
  topics: Uint8Array[];
  data: Uint8Array;
}
export interface StoredReceipt {
  type: number;
  status: 0 | 1;
  cumulativeGasUsed: bigint;
  gasUsed: bigint;
  logs: StoredLog[];
  /** Contract created by this tx, if any. */
  contractAddress?: Uint8Array;
}
export interface StoredBody {
  headerRLP: Uint8Array;
  txs: Uint8Array[];
  senders: Uint8Array[];
}

/** A key as a Map key. */
function keyString(k: Uint8Array): string {
  return Buffer.from(k.buffer, k.byteOffset, k.byteLength).toString('latin1');
}

function bigToBytes(n: bigint): Uint8Array {
  if (n === 0n) return new Uint8Array();
  let h = n.toString(16);
  if (h.length % 2) h = '0' + h;
  return Buffer.from(h, 'hex');
}
function bytesToBig(b: Uint8Array): bigint {
  return b.length === 0 ? 0n : BigInt(hex0x(b));
}

export class ChainStore {
  /** Staged writes by key (as latin1), the last per key, not yet handed to the database; reads see them. */
  private staged?: Map<string, Op>;

  constructor(readonly db: KVStore) {}

  private get(k: Uint8Array): Uint8Array | undefined {
    const op = this.staged?.get(keyString(k));
    if (op) return op[1] ?? undefined;
    return this.db.get(k);
  }

  head(): Uint8Array | undefined {
    return this.get(K_HEAD);
  }
  meta(): Uint8Array | undefined {
    return this.get(K_CHAIN_META);
  }
  metaOp(v: Uint8Array): Op {
    return [K_CHAIN_META, v];
  }
  headOp(hash: Uint8Array): Op {
    return [K_HEAD, hash];
  }
  /** Undefined while no lookups were ever removed for transaction-history. */
  txIndexTail(): bigint | undefined {
    const v = this.get(K_TX_TAIL);
    return v ? Buffer.from(v).readBigUInt64BE(0) : undefined;
  }
  txIndexTailOp(n: bigint): Op {
    return [K_TX_TAIL, u64(n)];
  }

  canonicalHash(n: bigint): Uint8Array | undefined {
    return this.get(key(P_CANON, u64(n)));
  }
  canonOp(n: bigint, hash: Uint8Array | null): Op {
    return [key(P_CANON, u64(n)), hash];
  }

  body(hash: Uint8Array): StoredBody | undefined {
    const v = this.get(key(P_BLOCK, hash));
    if (!v) return undefined;
    const [h, txs, senders] = RLP.decode(v) as [Uint8Array, Uint8Array[], Uint8Array[]];
    return { headerRLP: h, txs, senders };
  }
  bodyOp(hash: Uint8Array, b: StoredBody): Op {
    return [key(P_BLOCK, hash), encodeRlp([b.headerRLP, b.txs, b.senders])];
  }

  receipts(hash: Uint8Array): StoredReceipt[] | undefined {
    const v = this.get(key(P_RECEIPTS, hash));
    if (!v) return undefined;
    return (RLP.decode(v) as unknown as Uint8Array[][]).map((r) => {
      const [type, status, cum, logs, gasUsed, contract] = r as unknown as [Uint8Array, Uint8Array, Uint8Array, Uint8Array[][][], Uint8Array, Uint8Array];
      return {
        type: Number(bytesToBig(type)),
        status: bytesToBig(status) === 1n ? 1 : 0,
        cumulativeGasUsed: bytesToBig(cum),
        gasUsed: bytesToBig(gasUsed),
        logs: (logs as unknown as [Uint8Array, Uint8Array[], Uint8Array][]).map(([address, topics, data]) => ({ address, topics, data })),
        contractAddress: contract.length ? contract : undefined,
      } satisfies StoredReceipt;
    });
  }
  receiptsOp(hash: Uint8Array, rs: StoredReceipt[]): Op {
    const list = rs.map((r) => [
      bigToBytes(BigInt(r.type)),
      bigToBytes(BigInt(r.status)),
      bigToBytes(r.cumulativeGasUsed),
      r.logs.map((l) => [l.address, l.topics, l.data]),
      bigToBytes(r.gasUsed),
      r.contractAddress ?? new Uint8Array(),
    ]);
    return [key(P_RECEIPTS, hash), encodeRlp(list)];
  }

  txLookup(txHash: Uint8Array): { number: bigint; index: number } | undefined {
    const v = this.get(key(P_TXLOOKUP, txHash));
    if (!v) return undefined;
    const b = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    return { number: b.readBigUInt64BE(0), index: b.readUInt32BE(8) };
  }
  txLookupOp(txHash: Uint8Array, number: bigint, index: number | null): Op {
    if (index === null) return [key(P_TXLOOKUP, txHash), null];
    const b = Buffer.allocUnsafe(12);
    b.writeBigUInt64BE(number, 0);
    b.writeUInt32BE(index, 8);
    return [key(P_TXLOOKUP, txHash), b];
  }

  stateOverride(blockHash: Uint8Array): Uint8Array | undefined {
    return this.get(key(P_STATE_OVERRIDE, blockHash));
  }
  stateOverrideOp(blockHash: Uint8Array, root: Uint8Array | null): Op {
    return [key(P_STATE_OVERRIDE, blockHash), root];
  }

  /** Writes handed to the database and not yet committed (their promises not settled). */
  private inFlight = 0;

  write(ops: Op[]): Promise<void> {
    if (this.staged) throw new Error('chain store: a write while a run of blocks is staged');
    return this.track(this.db.write(ops));
  }

  private track(written: Promise<void>): Promise<void> {
    this.inFlight++;
    return written.finally(() => this.inFlight--);
  }

  /**
   * Writes `ops` committed on return when no other write is in flight, else after those (a queued
   * write, as write()). A test control's state edit is one small write that a test suite waits for,
   * often hundreds in a row: LMDB commits it synchronously in ~0.6 ms against ~1.8 ms through
   * lmdb-js's write thread (docs/performance.md, session 27). A block the automine still has on its
   * way to the disk must not be overtaken, hence the queued write then.
   */
  writeNow(ops: Op[]): Promise<void> {
    if (this.staged || this.inFlight > 0) return this.write(ops);
    this.db.writeSync(ops);
    return Promise.resolve();
  }

  /** Keeps `ops` in memory, visible to this store's reads, until flush() writes them. */
  stage(ops: Op[]): void {
    const m = (this.staged ??= new Map());
    for (const op of ops) m.set(keyString(op[0]), op);
  }

  /** Writes the staged ops (the last one per key) as one transaction; written or not, they are dropped from memory. */
  async flush(): Promise<void> {
    try {
      if (this.staged?.size) await this.track(this.db.write(this.staged.values()));
    } finally {
      this.staged = undefined;
    }
  }
}
