// geth's prestateTracer (eth/tracers/native/prestate.go): every account the transaction touched as
// it was before the transaction; with diffMode, `{post, pre}`: what the transaction changed.
//
// geth reads an account when the transaction first touches it: the sender, the recipient (or the
// created address) and the coinbase at the start, then the accounts and storage slots opcodes
// name (SLOAD/SSTORE slots of the running contract, BALANCE, EXTCODE*, SELFDESTRUCT's beneficiary,
// CALL-family targets, CREATE/CREATE2 addresses). Its start hook runs after the gas was bought and
// the value sent, and it adds them back; here the sender and the recipient are read at runTx's
// `beforeTx`, before any of it, which gives the same pre-transaction values directly.
import { Address, bigIntToUnpaddedBytes, generateAddress, generateAddress2, setLengthLeft } from '@ethereumjs/util';
import { hookOpcodes, visibleMemory, type HookedRunState } from '../opcodeHooks.js';
import { listen, type Message, type TracedEVM, type TracedState, type TracedTx, type TracedVM, type Tracer } from './types.js';

export interface PrestateTracerConfig {
  diffMode: boolean;
}

export interface State {
  balance: bigint;
  nonce: bigint;
  code: Uint8Array;
  /** slot (0x + 64 hex) → value (0x + 64 hex) */
  storage: Map<string, string>;
}

const EMPTY = new Uint8Array(0);
const ZERO_WORD = '0x' + '0'.repeat(64);
const word = (v: bigint) => '0x' + v.toString(16).padStart(64, '0');
const bytesHex = (b: Uint8Array) => '0x' + Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const addressOf = (v: bigint) => new Address(setLengthLeft(bigIntToUnpaddedBytes(v & ((1n << 160n) - 1n)), 20));
/** A uint64 as a JSON number (a bigint, written bare by the server, past 2^53). */
const uint = (v: bigint): number | bigint => (v <= 9007199254740991n ? Number(v) : v);
/** geth's account.exists(). */
const exists = (s: State) => s.nonce > 0n || s.code.length > 0 || s.storage.size > 0 || s.balance !== 0n;
/** geth's GetMemoryCopyPadded limit: CREATE2's init code past memory is zeros, up to 1 MiB of them. */
const MEMORY_PAD_LIMIT = 1024 * 1024;

// Opcodes whose stack top names an account geth looks up.
const SLOAD = 0x54, SSTORE = 0x55, CREATE = 0xf0, CREATE2 = 0xf5, SELFDESTRUCT = 0xff;
const ACCOUNT_OPS = new Set([0x31 /* BALANCE */, 0x3b /* EXTCODESIZE */, 0x3c /* EXTCODECOPY */, 0x3f /* EXTCODEHASH */, SELFDESTRUCT]);
const CALL_OPS = new Set([0xf1 /* CALL */, 0xf2 /* CALLCODE */, 0xf4 /* DELEGATECALL */, 0xfa /* STATICCALL */]);
/** The opcodes the tracer hooks (src/evm/opcodeHooks.ts: not every step, as a `step` listener would). */
const HOOKED = [SLOAD, SSTORE, CREATE, CREATE2, ...ACCOUNT_OPS, ...CALL_OPS];

export class PrestateTracer implements Tracer {
  private readonly pre = new Map<string, State>();
  private readonly created = new Set<string>();
  private readonly deleted = new Set<string>();
  /** The address the transaction itself creates. */
  private createdByTx: string | undefined;
  private sm: TracedState | undefined;
  private evm: TracedEVM | undefined;
  private unlisten: (() => void) | undefined;
  /** A state read that failed: answered by result() (the EVM must not be left waiting). */
  private failure: unknown;

  constructor(private readonly cfg: PrestateTracerConfig) {}

  /** Runs a lookup inside an event the EVM awaits: it continues once `resolve` is called. */
  private guarded(resolve: () => void, f: () => Promise<void>): void {
    f().then(resolve, (e) => {
      this.failure ??= e;
      resolve();
    });
  }

  private readonly onBeforeTx = (tx: TracedTx, resolve: () => void) =>
    this.guarded(resolve, async () => {
      const from = tx.getSenderAddress();
      await this.lookupAccount(from);
      if (tx.to) return this.lookupAccount(tx.to);
      const to = new Address(generateAddress(from.bytes, bigIntToUnpaddedBytes(this.pre.get(from.toString())!.nonce)));
      this.createdByTx = to.toString();
      if (this.cfg.diffMode) this.created.add(this.createdByTx);
      await this.lookupAccount(to);
    });

  private readonly onBefore = (m: Message, resolve: () => void) => {
    if (m.depth !== 0) return resolve();
    this.guarded(resolve, async () => {
      // eth_call hides a sender's code hash from runTx until runTx writes the sender back (runTx
      // refuses a sender with code otherwise: skipAccountChecks.ts), so its code is read here.
      const sender = this.pre.get(m.caller.toString());
      if (sender) sender.code = await this.sm!.getCode(m.caller);
      // (Without runTx's beforeTx — a bare EVM call — the sender and recipient are read here.)
      await this.lookupAccount(m.caller);
      if (m.to) await this.lookupAccount(m.to);
      const coinbase = (this.evm as { _block?: { header?: { coinbase?: Address } } })._block?.header?.coinbase;
      if (coinbase) await this.lookupAccount(coinbase);
    });
  };

  /** An opcode of HOOKED, its gas known and payable: the lookups geth's CaptureState makes. */
  private readonly onOpcode = (op: number, rs: HookedRunState): Promise<void> | undefined => {
    const n = rs.stack.length;
    const here = rs.interpreter.getAddress() as Address;
    let lookup: (() => Promise<void>) | undefined;
    if (n >= 1 && (op === SLOAD || op === SSTORE)) lookup = () => this.lookupStorage(here, word(rs.stack.peek(1)[0]!));
    else if (n >= 1 && ACCOUNT_OPS.has(op)) {
      if (op === SELFDESTRUCT) this.deleted.add(here.toString());
      const target = addressOf(rs.stack.peek(1)[0]!);
      lookup = () => this.lookupAccount(target);
    } else if (n >= 5 && CALL_OPS.has(op)) {
      const target = addressOf(rs.stack.peek(2)[1]!);
      lookup = () => this.lookupAccount(target);
    } else if (op === CREATE) {
      lookup = async () => {
        const nonce = (await this.sm!.getAccount(here))?.nonce ?? 0n;
        await this.lookupCreated(new Address(generateAddress(here.bytes, bigIntToUnpaddedBytes(nonce))));
      };
    } else if (n >= 4 && op === CREATE2) {
      const [, offset, size, salt] = rs.stack.peek(4) as [bigint, bigint, bigint, bigint];
      const init = memoryCopyPadded(visibleMemory(rs), offset, size);
      if (init !== undefined) lookup = () => this.lookupCreated(new Address(generateAddress2(here.bytes, setLengthLeft(bigIntToUnpaddedBytes(salt), 32), init)));
    }
    // A failed read is answered by result(); the run goes on.
    return lookup?.().catch((e) => {
      this.failure ??= e;
    });
  };

  private async lookupCreated(a: Address): Promise<void> {
    await this.lookupAccount(a);
    this.created.add(a.toString());
  }

  private async lookupAccount(a: Address): Promise<void> {
    const key = a.toString();
    if (this.pre.has(key)) return;
    const acc = await this.sm!.getAccount(a);
    const code = acc ? await this.sm!.getCode(a) : EMPTY;
    if (this.pre.has(key)) return;
    this.pre.set(key, { balance: acc?.balance ?? 0n, nonce: acc?.nonce ?? 0n, code, storage: new Map() });
  }

  private async lookupStorage(a: Address, slot: string): Promise<void> {
    await this.lookupAccount(a); // (geth's frame accounts are always looked up before their storage)
    const s = this.pre.get(a.toString())!;
    if (s.storage.has(slot)) return;
    s.storage.set(slot, await this.readSlot(a, slot));
  }

  private async readSlot(a: Address, slot: string): Promise<string> {
    const v = await this.sm!.getStorage(a, Buffer.from(slot.slice(2), 'hex'));
    return v.length === 0 ? ZERO_WORD : bytesHex(setLengthLeft(v, 32));
  }

  attach(evm: TracedEVM, vm?: TracedVM): void {
    this.evm = evm;
    this.sm = evm.stateManager;
    vm?.events.on('beforeTx', this.onBeforeTx);
    const off = listen(evm, { beforeMessage: this.onBefore });
    const unhook = hookOpcodes(evm, HOOKED, { paid: this.onOpcode });
    this.unlisten = () => {
      off();
      unhook();
      vm?.events.off('beforeTx', this.onBeforeTx);
    };
  }

  detach(): void {
    this.unlisten?.();
    this.unlisten = undefined;
  }

  txStart(): void {}
  txEnd(): void {}

  /**
   * What the tracer read (Parity's stateDiff, parityTrace.ts, diffs it against the state the
   * transaction left): every account and storage slot the transaction touched, as it was before
   * the transaction (the entries are not to be changed), and the addresses it created or tried to
   * create (the transaction's own included). Call it after the run, instead of result().
   */
  touched(): { pre: ReadonlyMap<string, Readonly<State>>; created: ReadonlySet<string>; state: TracedState } {
    if (this.failure !== undefined) throw this.failure;
    const created = new Set(this.created);
    if (this.createdByTx !== undefined) created.add(this.createdByTx);
    return { pre: this.pre, created, state: this.sm! };
  }

  result(): unknown {
    if (this.failure !== undefined) throw this.failure;
    if (this.cfg.diffMode) return this.diff();
    // geth's CaptureEnd: the contract the transaction created is left out unless it existed before.
    const c = this.createdByTx === undefined ? undefined : this.pre.get(this.createdByTx);
    if (c && !exists(c)) this.pre.delete(this.createdByTx!);
    return stateJSON(this.pre);
  }

  /** geth's CaptureTxEnd in diffMode, on the state the transaction left. */
  private async diff(): Promise<unknown> {
    const sm = this.sm!;
    const post = new Map<string, Partial<State> & { storage: Map<string, string> }>();
    for (const [key, state] of this.pre) {
      if (this.deleted.has(key)) continue; // kept whole in pre, absent from post
      const a = new Address(Buffer.from(key.slice(2), 'hex'));
      const acc = await sm.getAccount(a);
      const code = acc ? await sm.getCode(a) : EMPTY;
      const p: Partial<State> & { storage: Map<string, string> } = { storage: new Map() };
      let modified = false;
      if ((acc?.balance ?? 0n) !== state.balance) {
        modified = true;
        p.balance = acc?.balance ?? 0n;
      }
      if ((acc?.nonce ?? 0n) !== state.nonce) {
        modified = true;
        p.nonce = acc?.nonce ?? 0n;
      }
      if (!Buffer.from(code).equals(Buffer.from(state.code))) {
        modified = true;
        p.code = code;
      }
      for (const [slot, value] of [...state.storage]) {
        if (value === ZERO_WORD) state.storage.delete(slot);
        const now = await this.readSlot(a, slot);
        if (now === value) state.storage.delete(slot);
        else {
          modified = true;
          if (now !== ZERO_WORD) p.storage.set(slot, now);
        }
      }
      if (modified) post.set(key, p);
      else this.pre.delete(key);
    }
    // Accounts the transaction created had no pre-state, unless one existed at the address.
    for (const a of this.created) {
      const s = this.pre.get(a);
      if (s && !exists(s)) this.pre.delete(a);
    }
    return { post: stateJSON(post), pre: stateJSON(this.pre) };
  }
}

/** A stateMap as geth writes it: addresses in order; balance, code, nonce, storage, each omitted when empty (balance only when unset). */
function stateJSON(m: Map<string, Partial<State> & { storage: Map<string, string> }>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of [...m.keys()].sort()) {
    const s = m.get(key)!;
    const o: Record<string, unknown> = {};
    if (s.balance !== undefined) o.balance = '0x' + s.balance.toString(16);
    if (s.code !== undefined && s.code.length > 0) o.code = bytesHex(s.code);
    if (s.nonce !== undefined && s.nonce !== 0n) o.nonce = uint(s.nonce);
    if (s.storage.size > 0) o.storage = Object.fromEntries([...s.storage.keys()].sort().map((k) => [k, s.storage.get(k)]));
    out[key] = o;
  }
  return out;
}

/** geth's GetMemoryCopyPadded: memory[offset, offset+size), zeros past its end; undefined past the padding limit. */
function memoryCopyPadded(mem: Uint8Array, offset: bigint, size: bigint): Uint8Array | undefined {
  if (size === 0n) return EMPTY;
  if (offset + size - BigInt(mem.length) > BigInt(MEMORY_PAD_LIMIT)) return undefined;
  const out = new Uint8Array(Number(size));
  if (offset < BigInt(mem.length)) out.set(mem.subarray(Number(offset), Math.min(mem.length, Number(offset + size))));
  return out;
}
