// Validator sets of the node's subnets/L1s and this node's own uptime measurement.
// A Powder node is the whole network, so the "P-chain" view of each subnet is its configuration:
// by default the node itself is the one validator of every chain's subnet.
import type { KVStore } from '../db/database.js';
import { idFromContent, parseNodeID } from '../ids/ids.js';
import { publicKeyOf } from '../warp/signer.js';

/** One validator as declared in a chain definition's `validators` array (docs/validators.md). */
export interface ValidatorDefinition {
  nodeID: string;
  weight?: number | string;
  /** 0x-hex compressed BLS public key (48 bytes). */
  blsPublicKey?: string;
  /** 0x-hex BLS secret key (32 bytes): this node then signs warp messages as this validator too. */
  blsSecretKey?: string;
  /** Unix seconds; default: when the subnet was first seen by this node. */
  startTime?: number;
  isL1Validator?: boolean;
  isActive?: boolean;
  validationID?: string;
}

export interface Validator {
  validationID: string;
  nodeID: string;
  weight: bigint;
  blsPublicKey?: Uint8Array;
  startTime: number;
  /** Start in ms (the default start, when this node first saw the subnet, is kept to the ms). */
  startMs: number;
  isL1Validator: boolean;
  isActive: boolean;
}

interface UptimeRecord {
  /** Milliseconds this node has measured the validator as up, up to `lastUpdated`. */
  upMs: number;
  /** When `upMs` was last brought up to date (ms since epoch). */
  lastUpdated: number;
}

/** How often the uptimes are written while the node runs (and once more at stop). */
const CHECKPOINT_MS = 5_000;

export class ValidatorManager {
  private readonly sets = new Map<string, Validator[]>();
  private readonly uptime = new Map<string, UptimeRecord>();
  /** BLS secret keys this node holds, by NodeID (its own, and any configured). */
  private readonly secretKeys = new Map<string, Uint8Array>();
  /** The moment this process started tracking (uptime before it was measured while down = offline). */
  private timer: NodeJS.Timeout | undefined;
  /** When this process started measuring (ms since epoch). */
  private readonly startedMs: number;
  /** The periodic checkpoint's write while the store still has it (checkpointLater). */
  private pending: Promise<void> | undefined;

  /**
   * `onCheckpointError`: a periodic checkpoint's write failed (the node logs it; the next one, or
   * the one at stop, writes the records again).
   */
  constructor(
    private readonly store: KVStore,
    private readonly self: { nodeID: string; blsSecretKey: Uint8Array },
    private readonly now: () => number,
    private readonly onCheckpointError: (e: unknown) => void = () => {},
    checkpointMs = CHECKPOINT_MS,
  ) {
    this.startedMs = now();
    this.secretKeys.set(self.nodeID, self.blsSecretKey);
    this.timer = setInterval(() => this.checkpointLater(), checkpointMs);
    this.timer.unref();
  }

  /** Declares a subnet's validator set (from its chain definition, or the default: this node). */
  setSubnet(subnetID: string, defs: ValidatorDefinition[] | undefined): Validator[] {
    const existing = this.sets.get(subnetID);
    if (existing) return existing;
    const firstSeen = this.firstSeen(subnetID);
    const list = (defs ?? [{ nodeID: this.self.nodeID }]).map((d, i) => this.fromDefinition(subnetID, d, i, firstSeen));
    const seen = new Set<string>();
    for (const v of list) {
      if (seen.has(v.nodeID)) throw new Error(`validators of subnet ${subnetID}: ${v.nodeID} is listed twice`);
      seen.add(v.nodeID);
    }
    this.sets.set(subnetID, list);
    for (const v of list) this.loadUptime(v);
    return list;
  }

  current(subnetID: string): Validator[] {
    const set = this.sets.get(subnetID);
    if (!set) throw new Error(`failed to get current validator set: subnet ${subnetID} not found`);
    return set;
  }

  hasSubnet(subnetID: string): boolean {
    return this.sets.has(subnetID);
  }

  private selfKey: Uint8Array | undefined;
  /** The node's own BLS public key, computed when first needed (it loads the BLS library). */
  private get selfPublicKey(): Uint8Array {
    return (this.selfKey ??= publicKeyOf(this.self.blsSecretKey));
  }

  get selfSecretKey(): Uint8Array {
    return this.self.blsSecretKey;
  }

  secretKeyOf(nodeID: string): Uint8Array | undefined {
    return this.secretKeys.get(nodeID);
  }

  /** The node itself is always connected; other configured validators have no peer here. */
  isConnected(v: Validator): boolean {
    return v.nodeID === this.self.nodeID;
  }

  /** (upDuration, lastUpdated) as the uptime tracker reports them, brought up to now. */
  uptimeOf(v: Validator): { upMs: number; lastUpdated: number } {
    const r = this.uptime.get(v.validationID);
    if (!r) throw new Error(`failed to get uptime for validation ID ${v.validationID}: validationID not found: ${v.validationID}`);
    const now = this.now();
    if (this.isConnected(v) && v.isActive) r.upMs += Math.max(0, now - r.lastUpdated);
    r.lastUpdated = Math.max(r.lastUpdated, now);
    return { upMs: r.upMs, lastUpdated: r.lastUpdated };
  }

  /** Every uptime record, brought up to now, as store writes. */
  private uptimeOps(): [Uint8Array, Uint8Array][] {
    const ops: [Uint8Array, Uint8Array][] = [];
    for (const set of this.sets.values()) {
      for (const v of set) {
        const { upMs, lastUpdated } = this.uptimeOf(v);
        ops.push([key('uptime/', v.validationID), Buffer.from(JSON.stringify({ upMs, lastUpdated }))]);
      }
    }
    return ops;
  }

  /**
   * The periodic checkpoint: every uptime record through the store's asynchronous write. On LMDB a
   * synchronous commit waits for its fdatasync on the main thread, and every request with it (~1
   * ms on this project's VM, tens of ms on a busy disk), every CHECKPOINT_MS; lmdb-js's write
   * thread waits instead. One at a time: while one is on its way, the next tick is skipped.
   */
  checkpointLater(): void {
    if (this.pending) return;
    const ops = this.uptimeOps();
    if (ops.length === 0) return;
    this.pending = this.store.write(ops).then(
      () => {
        this.pending = undefined;
      },
      (e) => {
        this.pending = undefined;
        this.onCheckpointError(e);
      },
    );
  }

  /** Every uptime record, committed on return (at stop). */
  private checkpoint(): void {
    const ops = this.uptimeOps();
    if (ops.length) this.store.writeSync(ops);
  }

  /**
   * Stops measuring and writes the last uptimes, once a periodic write still on its way has
   * settled: it holds older records (lmdb-js commits queued writes before a synchronous one, and
   * the node closes the database right after this).
   */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.pending;
    this.checkpoint();
  }

  private loadUptime(v: Validator): void {
    const raw = this.store.get(key('uptime/', v.validationID));
    const now = this.now();
    if (raw) {
      const r = JSON.parse(Buffer.from(raw).toString()) as UptimeRecord;
      // The time since the last checkpoint, while this node was down, counts as offline.
      this.uptime.set(v.validationID, { upMs: r.upMs, lastUpdated: now });
    } else {
      // Measured from the validator's start, or from this process's start if the validator began
      // before it: before this node first ran, nobody measured the validator, so that span counts
      // as offline. (A default start is the moment this run first saw the subnet, so a node that
      // has been up since is at 100 %, not short by the milliseconds the chain took to set up.)
      this.uptime.set(v.validationID, { upMs: 0, lastUpdated: Math.max(v.startMs, this.startedMs) });
    }
  }

  private firstSeen(subnetID: string): number {
    const k = key('firstSeen/', subnetID);
    const raw = this.store.get(k);
    if (raw) return Number(Buffer.from(raw).toString());
    const t = this.now();
    this.store.writeSync([[k, Buffer.from(String(t))]]);
    return t;
  }

  private fromDefinition(subnetID: string, d: ValidatorDefinition, index: number, firstSeenMs: number): Validator {
    const where = `validators of subnet ${subnetID}, entry ${index}`;
    if (!d || typeof d !== 'object') throw new Error(`${where}: must be an object`);
    try {
      parseNodeID(String(d.nodeID));
    } catch (e) {
      throw new Error(`${where}: nodeID: ${(e as Error).message}`);
    }
    let weight: bigint;
    try {
      weight = BigInt(d.weight ?? 100);
    } catch {
      throw new Error(`${where}: weight must be a whole number`);
    }
    if (weight <= 0n || weight >= 2n ** 64n) throw new Error(`${where}: weight must be between 1 and 2^64-1`);
    let bls: Uint8Array | undefined;
    let self = false;
    if (d.blsSecretKey !== undefined) {
      if (!/^0x[0-9a-fA-F]{64}$/.test(d.blsSecretKey)) throw new Error(`${where}: blsSecretKey must be 0x + 32 bytes of hex`);
      const sk = Buffer.from(d.blsSecretKey.slice(2), 'hex');
      try {
        bls = publicKeyOf(sk);
      } catch {
        throw new Error(`${where}: blsSecretKey is not a valid BLS secret key`);
      }
      this.secretKeys.set(d.nodeID, sk);
    } else if (d.nodeID === this.self.nodeID && d.blsPublicKey === undefined) self = true;
    else if (d.blsPublicKey !== undefined) {
      if (!/^0x[0-9a-fA-F]{96}$/.test(d.blsPublicKey)) throw new Error(`${where}: blsPublicKey must be 0x + 48 bytes of hex`);
      bls = Buffer.from(d.blsPublicKey.slice(2), 'hex');
    }
    // The real node reports every legacy (non-L1) subnet validator as active (reference §3.1).
    if (d.isL1Validator === false && d.isActive === false) {
      throw new Error(`${where}: isActive false needs isL1Validator true (a subnet validator that is not an L1 validator is always active)`);
    }
    const startTime = d.startTime ?? Math.floor(firstSeenMs / 1000);
    if (!Number.isInteger(startTime) || startTime < 0) throw new Error(`${where}: startTime must be unix seconds`);
    const startMs = d.startTime === undefined ? firstSeenMs : startTime * 1000;
    const v: Validator = {
      validationID: d.validationID ?? idFromContent('powder-validation', subnetID, String(d.nodeID)),
      nodeID: d.nodeID,
      weight,
      blsPublicKey: bls,
      startTime,
      startMs,
      isL1Validator: d.isL1Validator ?? true,
      isActive: d.isActive ?? true,
    };
    // The node's own key is derived when first read (it loads the BLS library): a start reads none.
    if (self) Object.defineProperty(v, 'blsPublicKey', { get: () => this.selfPublicKey, enumerable: true, configurable: true });
    return v;
  }
}

function key(prefix: string, id: string): Uint8Array {
  return Buffer.from(prefix + id);
}

/** Go's float32 JSON form: the shortest decimal that reads back as the same float32. */
export function float32JSON(x: number): number {
  const f = Math.fround(x);
  // A whole float32 below 2^24 prints the same digits either way (the usual 100 % uptime).
  if (Number.isInteger(f) && Math.abs(f) < 2 ** 24) return f;
  // The fewest digits that read back: if p digits do, p + 1 do too (the closest (p+1)-digit decimal
  // is at least as close as the p-digit one), so a binary search over 1..9 finds the same p.
  let lo = 1;
  let hi = 9;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (Math.fround(Number(f.toPrecision(mid))) === f) hi = mid;
    else lo = mid + 1;
  }
  const s = Number(f.toPrecision(lo));
  return Math.fround(s) === f ? s : f;
}
