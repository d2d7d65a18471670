// geth's AccessListTracer (eth/tracers/logger/access_list_tracer.go, go-ethereum 1.13.15) for
// eth_createAccessList. geth's CaptureState sees every opcode before it runs (also one that then
// fails); the tracer records
// - SLOAD / SSTORE: (the running contract's storage address, the slot on top of the stack),
//   whatever the address (also `from`, `to` and precompiles, as geth's addSlot);
// - BALANCE, EXTCODESIZE, EXTCODECOPY, EXTCODEHASH, SELFDESTRUCT: the address on top of the stack;
// - CALL, CALLCODE, DELEGATECALL, STATICCALL: the address second on the stack (with ≥ 5 items);
// an address alone is skipped when excluded (the sender, the recipient or created address, and
// the active precompiles). geth keeps Go maps, so its JSON order is random; here addresses and
// their slots keep the order of first touch, after the list the tracer started from.
//
// It listens through src/evm/opcodeHooks.ts (not `step` events, which made a 5,000,000-gas loop
// take ~11 s instead of ~0.2 s): the stack is read before each recorded opcode's gas is computed.
//
// (runTx's `reportAccessList` is not geth's list: it reports the journal's warm set, which also
// holds the sender, the recipient, the coinbase, every precompile, addresses created and the
// list given, and it does not know which opcode touched what.)
import { hookOpcodes, type HookedRunState } from '../opcodeHooks.js';

export interface AccessTupleJSON {
  address: string;
  storageKeys: string[];
}

const SLOAD = 0x54;
const SSTORE = 0x55;
const BALANCE = 0x31;
const EXTCODESIZE = 0x3b;
const EXTCODECOPY = 0x3c;
const EXTCODEHASH = 0x3f;
const SELFDESTRUCT = 0xff;
const CALL = 0xf1;
const CALLCODE = 0xf2;
const DELEGATECALL = 0xf4;
const STATICCALL = 0xfa;
const RECORDED = [SLOAD, SSTORE, BALANCE, EXTCODESIZE, EXTCODECOPY, EXTCODEHASH, SELFDESTRUCT, CALL, CALLCODE, DELEGATECALL, STATICCALL];

const addressOf = (v: bigint) => '0x' + (v & ((1n << 160n) - 1n)).toString(16).padStart(40, '0');
const wordOf = (v: bigint) => '0x' + v.toString(16).padStart(64, '0');

export class AccessListTracer {
  /** address (lower-case 0x hex) → its slots (0x + 64 hex), both in order of first touch */
  private readonly list = new Map<string, Set<string>>();
  private stop?: () => void;

  /**
   * geth's NewAccessListTracer(acl, from, to, precompiles): the given tuples, merged per address,
   * an excluded address only when it names slots. `excluded` holds lower-case 0x addresses.
   */
  constructor(
    start: readonly AccessTupleJSON[],
    private readonly excluded: ReadonlySet<string>,
  ) {
    for (const e of start) {
      const address = e.address.toLowerCase();
      if (!excluded.has(address)) this.addAddress(address);
      for (const k of e.storageKeys) this.addSlot(address, k.toLowerCase());
    }
  }

  private addAddress(address: string): Set<string> {
    let slots = this.list.get(address);
    if (!slots) this.list.set(address, (slots = new Set()));
    return slots;
  }

  private addSlot(address: string, slot: string): void {
    this.addAddress(address).add(slot);
  }

  /** What the opcode `code` records, from the stack before it runs. */
  private record(code: number, rs: HookedRunState): void {
    const n = rs.stack.length;
    switch (code) {
      case SLOAD:
      case SSTORE:
        if (n >= 1) this.addSlot(rs.interpreter.getAddress().toString().toLowerCase(), wordOf(rs.stack.peek(1)[0]));
        break;
      case BALANCE:
      case EXTCODESIZE:
      case EXTCODECOPY:
      case EXTCODEHASH:
      case SELFDESTRUCT:
        if (n >= 1) this.touch(addressOf(rs.stack.peek(1)[0]));
        break;
      default: // the CALL family
        if (n >= 5) this.touch(addressOf(rs.stack.peek(2)[1]));
    }
  }

  private touch(address: string): void {
    if (!this.excluded.has(address)) this.addAddress(address);
  }

  /** Starts recording the runs of `evm` (the VM's EVM; see the top of the file). */
  attach(evm: object): void {
    this.detach();
    this.stop = hookOpcodes(evm, RECORDED, { before: (code, rs) => this.record(code, rs) });
  }

  /** Stops recording (the opcode table's own handlers again). */
  detach(): void {
    this.stop?.();
    this.stop = undefined;
  }

  /** geth's AccessList(): every address with its slots (`storageKeys: []` when it has none). */
  accessList(): AccessTupleJSON[] {
    return [...this.list].map(([address, slots]) => ({ address, storageKeys: [...slots] }));
  }

  /** geth's Equal: the same addresses, each with the same set of slots (order aside). */
  equal(other: AccessListTracer): boolean {
    if (this.list.size !== other.list.size) return false;
    for (const [address, slots] of this.list) {
      const o = other.list.get(address);
      if (!o || o.size !== slots.size) return false;
      for (const k of slots) if (!o.has(k)) return false;
    }
    return true;
  }
}
