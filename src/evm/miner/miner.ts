// Mining modes: automine (default: a block as soon as txs arrive; txs that arrive while a block
// is being written go together into the next one), interval mining (a block every blockTime ms,
// empty ones included, like Anvil's --block-time), and manual (evm_mine only). Block building
// and the block's durable write run under one Mutex (it shows up in admin.lockProfile).
import { Mutex } from '../../profiler/locks.js';
import type { Logger } from '../../logging/logger.js';
import type { Blockchain, Block } from '../chain/blockchain.js';
import type { StoredReceipt } from '../chain/store.js';
import type { PoolTx, TxPool } from '../txpool/pool.js';
import { listedTxs, type BlockBuilder, type Built, type TxSource } from './builder.js';
import { timeMs } from '../chain/header.js';
import { MAX_FUTURE_BLOCK_MS } from '../fees/minDelay.js';
import { logConsole } from '../consoleLog.js';

/** The latest block time a header can carry (uint64 milliseconds). */
export const MAX_BLOCK_TIME_MS = 2n ** 64n - 1n;

/** The next block would be later than a header can say (the test controls moved time to the end). */
export class BlockTimeExhaustedError extends Error {
  constructor(readonly timestampMs: bigint) {
    super(`cannot build a block at ${timestampMs} ms: block times end at ${MAX_BLOCK_TIME_MS} ms (uint64)`);
  }
}

/** Subnet-EVM's builder: a retry on the same parent after a failed build (reference §9.1). */
const RETRY_MS = 100;

/** The longest wait for the block delay that requests wait out with the automine (Granite's default delay). */
const MAX_HELD_WAIT_MS = 2000;

/** Blocks of one mineBlocks call written per database transaction. */
export const RUN_BLOCKS = 256n;

/** The longest delay Node's timers keep. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface MinedBlock {
  block: Block;
  receipts: StoredReceipt[];
}

/** The chain's clock: node time plus the evm_increaseTime offset, and one-shot next timestamps. */
export class ChainClock {
  offsetMs = 0n;
  nextTimestampMs?: bigint;
  /** anvil_setBlockTimestampInterval: each new block this long after its parent, whatever the time. */
  blockIntervalMs?: bigint;
  constructor(private readonly nodeNow: () => number) {}
  nowMs(): bigint {
    return BigInt(Math.floor(this.nodeNow())) + this.offsetMs;
  }
  /** The time of a block on `parent` when an interval is set (undefined: the clock's time). */
  intervalTimeAfter(parent: Block): bigint | undefined {
    return this.blockIntervalMs === undefined ? undefined : timeMs(parent.header) + this.blockIntervalMs;
  }
}

export class Miner {
  readonly lock: Mutex;
  automine = true;
  private intervalMs = 0;
  private timer?: NodeJS.Timeout;
  private scheduled = false;
  private draining = false;
  /** Count of txAdded calls, to tell whether txs arrived during a block build. */
  private arrivals = 0;
  private closed = false;
  private readonly listeners: ((m: MinedBlock) => void)[] = [];
  /** Told of blocks taken off the chain by anvil_rollback and anvil_reorg (for their removed logs). */
  private readonly removedListeners: ((blocks: Block[]) => void)[] = [];
  /** Callers of settled() waiting for the automine to go idle. */
  private idleWaiters: (() => void)[] = [];
  /** A block is being built (from the lock's request until its ops go to the database). */
  private building = false;
  /** A run of mineBlocks is being built or written. */
  private running = false;
  /** Submissions waiting for the build in progress to end (admissionOpen). */
  private admitWaiters: (() => void)[] = [];
  /** The automine's next try after a block that could not be built (Subnet-EVM retries in 100 ms). */
  private retryTimer?: NodeJS.Timeout;
  /** The last automine failure's text (logged once at WARN, its repeats at DEBUG). */
  private lastFailure?: string;
  /** The automine's wait for the minimum block delay (ended early by close). */
  private delayWait?: { timer: NodeJS.Timeout; done: () => void };

  constructor(
    private readonly chain: Blockchain,
    private readonly pool: TxPool,
    private readonly builder: BlockBuilder,
    readonly clock: ChainClock,
    /** Minimum child time for a parent (Granite min delay, pre-Granite same second allowed). */
    private readonly minChildMs: (parent: Block) => bigint,
    private readonly log: Logger,
    lockName: string,
  ) {
    this.lock = new Mutex(lockName);
  }

  onBlock(fn: (m: MinedBlock) => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** `fn` is told of the blocks a rollback or a reorg took off the chain, lowest first. */
  onRemoved(fn: (blocks: Block[]) => void): () => void {
    this.removedListeners.push(fn);
    return () => {
      const i = this.removedListeners.indexOf(fn);
      if (i >= 0) this.removedListeners.splice(i, 1);
    };
  }

  get interval(): number {
    return this.intervalMs;
  }

  setIntervalMining(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.intervalMs = ms;
    if (ms > 0 && !this.closed) this.scheduleInterval(Date.now() + ms, ms);
  }

  /**
   * The next interval block at `due`. Node's timers take at most 2^31-1 ms (a longer delay fires
   * after 1 ms), so a longer wait is a chain of shorter timers.
   */
  private scheduleInterval(due: number, ms: number): void {
    const wait = due - Date.now();
    this.timer = setTimeout(() => {
      if (this.closed) return;
      if (Date.now() < due) return this.scheduleInterval(due, ms);
      // An interval shorter than the chain's minimum block delay: a tick whose block would be
      // more than 10 s ahead of the clock is skipped (a block is never made that far ahead).
      if (this.delayAheadMs() > 0) return this.scheduleInterval(due + ms, ms);
      this.mine({ allowEmpty: true }).catch((e) => {
        this.log.warn('interval mining failed', { error: (e as Error).message });
        if (e instanceof BlockTimeExhaustedError) this.setIntervalMining(0); // it would fail forever
      });
      this.scheduleInterval(due + ms > Date.now() ? due + ms : Date.now() + ms, ms);
    }, Math.min(Math.max(wait, 0), MAX_TIMER_MS));
    this.timer.unref?.();
  }

  /** A tx entered the pool. In automine mode, build soon (coalescing concurrent arrivals). */
  txAdded(): void {
    if (!this.automine || this.closed) return;
    this.arrivals++;
    // A running drain picks the tx up in its next block.
    if (this.draining || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
      this.releaseAdmission();
    });
  }

  /** True from a tx's arrival (automine) until the drain it starts has mined what it can. */
  get busy(): boolean {
    return this.scheduled || this.draining || this.running;
  }

  /**
   * True while a block is about to be built or is being built. A transaction submitted now waits
   * (admissionOpen), so that the pool checks it against the block's outcome; one submitted while
   * a block is only being written to disk is checked against the head and the pool (which still
   * holds that block's txs) at once, and goes into the next block. So a sender's back-to-back
   * submissions do not each wait for a disk sync (docs/dev-chain.md, "automine"). Once another
   * request waits for the automine to go idle, submissions wait too: the drain then ends with the
   * txs it has, and a steady sender cannot keep readers waiting.
   */
  get admissionBlocked(): boolean {
    return this.scheduled || this.building || this.idleWaiters.length > 0;
  }

  /** Resolves once no block is about to be or being built (see admissionBlocked). */
  admissionOpen(): Promise<void> {
    if (!this.admissionBlocked) return Promise.resolve();
    return new Promise((resolve) => this.admitWaiters.push(resolve));
  }

  private releaseAdmission(): void {
    if (this.admissionBlocked || this.admitWaiters.length === 0) return;
    const list = this.admitWaiters;
    this.admitWaiters = [];
    for (const r of list) r();
  }

  /**
   * Resolves once the automine is idle: the txs that arrived before this call are in blocks (or
   * could not be included now). The chain's RPC methods wait for it (api/methods.ts), so a
   * request sent after eth_sendRawTransaction's answer sees the tx mined.
   */
  settled(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private releaseIdle(): void {
    const list = this.idleWaiters;
    this.idleWaiters = [];
    for (const r of list) r();
    this.releaseAdmission();
  }

  /**
   * One drain at a time: it builds blocks while executable txs remain, so txs arriving during a
   * block's build and write go together into the next block. Concurrent drains would release
   * each other's waiters before their blocks exist.
   */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.automine && !this.closed && this.pool.hasExecutable()) {
        const ahead = this.delayAheadMs();
        if (ahead > MAX_HELD_WAIT_MS) {
          // A chain with a longer delay: requests do not wait that long (a receipt is null until
          // the block exists, as on a real node).
          this.retrySoon(ahead);
          break;
        }
        if (ahead > 0) {
          // The requests meanwhile wait for the block (busy), as for any automined block, and
          // the txs that arrive meanwhile go into it.
          await this.waitForDelay(ahead);
          continue;
        }
        const seen = this.arrivals;
        const m = await this.mine({ allowEmpty: false, acceptBeforeWrite: true });
        // Nothing includable, and nothing new arrived while trying: the rest is stuck for now.
        if (!m && this.arrivals === seen) break;
      }
      this.lastFailure = undefined;
    } catch (e) {
      const error = (e as Error).message;
      if (error !== this.lastFailure) this.log.warn('automine failed', { error });
      else this.log.debug('automine failed again', { error });
      this.lastFailure = error;
      this.retrySoon();
    } finally {
      this.draining = false;
      if (!this.busy) this.releaseIdle();
    }
  }

  /**
   * How long (ms) until the next block may be built at its earliest time: Granite's minimum delay
   * after the head (2 s unless the genesis or min-delay-target lowers it) may put that time after
   * the clock's. A block is built up to 10 s ahead of the clock — what Subnet-EVM's verification
   * allows (MAX_FUTURE_BLOCK_MS) — so a short burst still gets one block per transaction at once,
   * and a longer one then one block per delay, never further ahead. (Subnet-EVM's own builder
   * waits the whole delay; docs/dev-chain.md, "Block timing".) 0 with a timestamp set by
   * evm_setNextBlockTimestamp or an anvil_setBlockTimestampInterval: blocks are made as asked. 0 too when the head is more than a
   * delay ahead: the test controls moved the clock back (evm_setTime) or made blocks ahead on
   * purpose, and no wait would end soon — the block is made at the delay after its parent.
   */
  private delayAheadMs(): number {
    if (this.clock.nextTimestampMs !== undefined || this.clock.blockIntervalMs !== undefined) return 0;
    const head = this.chain.head;
    const earliest = this.minChildMs(head);
    const ahead = earliest - this.clock.nowMs() - MAX_FUTURE_BLOCK_MS;
    return ahead > 0n && ahead <= earliest - timeMs(head.header) ? Number(ahead) : 0;
  }

  private waitForDelay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.delayWait = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.min(ms, MAX_TIMER_MS));
      this.delayWait = { timer, done };
    });
  }

  /**
   * A block that could not be built is tried again 100 ms later, as Subnet-EVM's builder does: its
   * block gas cost (before Granite) falls as time passes, so the txs fit later. Requests do not
   * wait for the retry (the automine is idle meanwhile); `txAdded` tries at once anyway.
   */
  private retrySoon(ms = RETRY_MS): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.automine && !this.closed && !this.busy && this.pool.hasExecutable()) void this.drain();
    }, Math.min(ms, MAX_TIMER_MS));
    this.retryTimer.unref?.();
  }

  /**
   * Builds, writes (durably) and accepts one block. With `acceptBeforeWrite` (the automine's
   * drain, during which every request but a submission waits: `busy`) the block is the head in
   * memory while it is written, so submissions go on meanwhile (admissionOpen); otherwise (evm_mine,
   * interval mining, which requests do not wait for) the head moves once the block is on disk.
   */
  async mine(opts: { allowEmpty: boolean; timestampMs?: bigint; acceptBeforeWrite?: boolean }): Promise<MinedBlock | undefined> {
    this.building = true;
    const release = await this.lock.acquire();
    let mined: MinedBlock | undefined;
    try {
      this.building = true; // (another mine() may have ended its build while this one waited)
      if (this.closed) return undefined;
      const parent = this.chain.head;
      const built = await this.buildNext(opts.allowEmpty, opts.timestampMs);
      if (!built) return undefined;
      const durable = this.chain.store.write(built.ops);
      if (opts.acceptBeforeWrite) {
        // The block is the head in memory while it is written, and the pool is reset on it, so a
        // submission meanwhile (admissionOpen) is checked as after the block. Every other request
        // waits until the drain is done (busy): a client reads the block only once it is on disk.
        const before = { head: parent, root: this.chain.headStateRoot, nextTimestampMs: this.clock.nextTimestampMs };
        this.accept(built, opts);
        await this.pool.reset(this.builder.poolResetHead());
        this.building = false;
        this.releaseAdmission();
        try {
          await durable;
        } catch (e) {
          // Not written: the head, the clock and the pool go back to before the block.
          this.chain.unaccept(built.block, before.head, before.root);
          this.clock.nextTimestampMs = before.nextTimestampMs;
          this.pool.restore(built.included);
          throw e;
        }
        this.chain.state.nodes.settle();
      } else {
        await durable;
        this.chain.state.nodes.settle();
        this.accept(built, opts);
        await this.pool.reset(this.builder.poolResetHead());
      }
      mined = { block: built.block, receipts: built.receipts };
    } finally {
      this.building = false;
      release();
      this.releaseAdmission();
    }
    this.announce(mined);
    return mined;
  }

  /** The next block on the head at `timestampMs` (or the clock's time), at least the rules' delay after it. */
  private buildNext(allowEmpty: boolean, timestampMs?: bigint, source?: TxSource): Promise<Built | undefined> {
    let t = timestampMs ?? this.clock.nextTimestampMs ?? this.clock.intervalTimeAfter(this.chain.head) ?? this.clock.nowMs();
    const min = this.minChildMs(this.chain.head);
    if (t < min) t = min;
    // Granite headers carry the time in uint64 milliseconds: past that, no block can be made.
    if (t > MAX_BLOCK_TIME_MS) throw new BlockTimeExhaustedError(t);
    return this.builder.build(t, allowEmpty, source);
  }

  /**
   * The chain rewound to `targetOf()` (read under the lock; anvil_rollback, anvil_reorg), then, for anvil_reorg, one new block
   * per entry of `blocks`, of exactly those txs in that order (one that cannot run is left out;
   * the pool's txs are not taken),
   * at the clock's time, each written before the next is built. All under one hold of the lock, so
   * no other block comes between. `rewound` runs right after the rewind, under the lock. The
   * removed blocks' listeners are told first, then the new blocks' (as geth sends a reorg's removed
   * logs before the new chain's). A failed build or write leaves the blocks made before it.
   */
  async rewind(targetOf: () => Block, blocks: readonly (readonly PoolTx[])[], rewound: (target: Block) => void): Promise<MinedBlock[]> {
    this.building = true;
    const release = await this.lock.acquire();
    const removed: Block[] = [];
    const mined: MinedBlock[] = [];
    try {
      this.building = true;
      const target = targetOf();
      const above: Block[] = [];
      for (let n = target.header.number + 1n; n <= this.chain.head.header.number; n++) above.push(this.chain.blockByNumber(n)!);
      await this.chain.rewindTo(target.header.number, this.chain.stateRootOf(target));
      removed.push(...above); // (told only once the rewind is written)
      rewound(target);
      for (const txs of blocks) {
        if (this.closed) break;
        const built = (await this.buildNext(true, undefined, listedTxs(txs)))!;
        await this.chain.store.write(built.ops);
        this.chain.state.nodes.settle();
        this.accept(built, {});
        mined.push({ block: built.block, receipts: built.receipts });
        this.log.info('mined reorg block', { number: Number(built.block.header.number), valid: built.included.length, invalid: txs.length - built.included.length });
      }
    } finally {
      this.building = false;
      release();
      this.releaseAdmission();
      if (removed.length) this.announceRemoved(removed);
      for (const m of mined) this.announce(m);
    }
    return mined;
  }

  /**
   * Mines `count` blocks, empty ones included (hardhat_mine, anvil_mine, evm_mine with `blocks`):
   * each a block built as by mine(), `intervalMs` after its parent when given (the first block at
   * the clock's time). They are written RUN_BLOCKS at a time, each run as one database transaction:
   * on LMDB a commit per block was ~1.3 ms, most of an empty block's cost (performance.md, session
   * 21). While a run is built and written every request that waits for the automine waits for it
   * too (busy), so no one reads a block before it is on disk; between runs the event loop serves
   * requests (and a SIGTERM). A run whose write fails is taken back: head, clock and pool as before it.
   */
  async mineBlocks(count: bigint, intervalMs?: bigint): Promise<void> {
    for (let done = 0n; done < count && !this.closed; ) {
      const n = count - done < RUN_BLOCKS ? count - done : RUN_BLOCKS;
      await this.mineRun(Number(n), intervalMs, done === 0n);
      done += n;
      if (done < count) await new Promise((r) => setImmediate(r));
    }
  }

  private async mineRun(n: number, intervalMs: bigint | undefined, firstAtClock: boolean): Promise<void> {
    this.building = true;
    this.running = true;
    const release = await this.lock.acquire();
    const mined: MinedBlock[] = [];
    try {
      this.building = true;
      if (this.closed) return;
      const before = { head: this.chain.head, root: this.chain.headStateRoot, nextTimestampMs: this.clock.nextTimestampMs };
      const included: PoolTx[] = [];
      let buildError: unknown;
      try {
        for (let i = 0; i < n; i++) {
          const ts = intervalMs !== undefined && (i > 0 || !firstAtClock) ? timeMs(this.chain.head.header) + intervalMs : undefined;
          const built = (await this.buildNext(true, ts))!;
          this.chain.store.stage(built.ops);
          this.accept(built, { timestampMs: ts });
          if (built.included.length) {
            included.push(...built.included);
            await this.pool.reset(this.builder.poolResetHead());
          }
          mined.push({ block: built.block, receipts: built.receipts });
        }
      } catch (e) {
        buildError = e; // the blocks built before it are still written, as when mined one by one
      }
      try {
        await this.chain.store.flush();
      } catch (e) {
        this.chain.unacceptRun(mined.map((m) => m.block), before.head, before.root);
        this.clock.nextTimestampMs = before.nextTimestampMs;
        this.pool.restore(included);
        mined.length = 0;
        throw e;
      } finally {
        this.chain.state.nodes.settle();
      }
      if (buildError !== undefined) throw buildError;
    } finally {
      this.building = false;
      this.running = false;
      release();
      if (!this.busy) this.releaseIdle();
      this.releaseAdmission();
      for (const m of mined) this.announce(m);
    }
  }

  /** The built block becomes the chain's head (in memory); a one-shot next timestamp is used up. */
  private accept(built: Built, opts: { timestampMs?: bigint }): void {
    this.chain.accepted(built.block, built.receipts, built.stateRoot);
    for (const { tx, sink } of built.consoleLogs) logConsole(this.log, sink, { tx });
    if (opts.timestampMs === undefined) this.clock.nextTimestampMs = undefined;
  }

  /** Tells the block listeners about an accepted block (also one accepted by admin_importChain). */
  announce(m: MinedBlock): void {
    for (const l of this.listeners) {
      try {
        l(m);
      } catch (e) {
        this.log.warn('block listener failed', { error: (e as Error).message });
      }
    }
  }

  private announceRemoved(blocks: Block[]): void {
    for (const l of this.removedListeners) {
      try {
        l(blocks);
      } catch (e) {
        this.log.warn('removed-block listener failed', { error: (e as Error).message });
      }
    }
  }

  /** Time of the parent, for evm_setNextBlockTimestamp checks. */
  headTimeMs(): bigint {
    return timeMs(this.chain.head.header);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.delayWait?.done();
    this.building = false;
    this.scheduled = false;
    this.releaseAdmission();
    this.releaseIdle();
  }
}

