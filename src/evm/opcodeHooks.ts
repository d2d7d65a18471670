// Hooks on chosen opcodes of one EVM, for tracers that need a few opcodes' stacks, not every step.
// ethereumjs builds a `step` event for every opcode once anything listens (copies of the stack and
// memory) and leaves the interpreter's fast path (interpreterSteps.ts): a 5,000,000-gas loop took
// ~11 s traced that way against ~0.2 s as an `eth_call`. Every opcode these tracers care about
// has a gas handler (from Berlin on; no Subnet-EVM fork is older), which the interpreter runs first
// in the opcode's step, before any gas is charged. So while hooked, the EVM runs on a copy of its
// opcode table (the table is shared by every EVM of its Common, opcodeTables.ts) in which those
// opcodes' entries are copies with a gas handler that calls the hooks around the original;
// `restore` gives the EVM its shared table back. Other EVMs never see the copy (its jump analyses
// are cached with it, vmTuning.ts).
import { memoryWords } from './evmMemory.js';

/** What of an @ethereumjs/evm run state the hooks read. */
export interface HookedRunState {
  stack: { length: number; peek(n: number): bigint[] };
  interpreter: { getAddress(): { toString(): string; bytes: Uint8Array } };
  gasLeft: bigint;
  memoryWordCount: bigint;
  memory: { _store: Uint8Array };
}

export interface OpcodeHooks {
  /** Before the opcode's gas is known (geth's CaptureState also sees an opcode that then fails). */
  before?(code: number, rs: HookedRunState): void;
  /** Once its gas is known and there is gas to pay it (the step then runs it); may wait. */
  paid?(code: number, rs: HookedRunState): void | Promise<void>;
}

interface OpEntry {
  opcodeInfo: { code: number; dynamicGas: boolean };
  gasHandler?: (rs: HookedRunState, gas: bigint, common: unknown) => bigint | Promise<bigint>;
}

/** Installs `hooks` on `codes` in `evm`'s opcode table; returns the function that removes them. */
export function hookOpcodes(evm: object, codes: readonly number[], hooks: OpcodeHooks): () => void {
  const owner = evm as { _opcodeMap?: (OpEntry | undefined)[] };
  const shared = owner._opcodeMap;
  if (!Array.isArray(shared)) throw new Error('the EVM has no opcode table to hook');
  const table = shared.slice();
  for (const code of codes) {
    const entry = table[code];
    // An opcode the fork does not define has INVALID's entry.
    if (!entry || entry.opcodeInfo.code !== code || !entry.opcodeInfo.dynamicGas || !entry.gasHandler) continue;
    const original = entry.gasHandler;
    const { before, paid } = hooks;
    const afterGas = (rs: HookedRunState, gas: bigint): bigint | Promise<bigint> => {
      if (!paid || rs.gasLeft < gas) return gas;
      const waiting = paid(code, rs);
      return waiting ? waiting.then(() => gas) : gas;
    };
    const gasHandler = function (this: unknown, rs: HookedRunState, gas: bigint, common: unknown) {
      before?.(code, rs);
      const g = original.call(this, rs, gas, common);
      return g instanceof Promise ? g.then((v) => afterGas(rs, v)) : afterGas(rs, g);
    };
    table[code] = Object.assign(Object.create(Object.getPrototypeOf(entry) as object) as OpEntry, entry, { gasHandler });
  }
  owner._opcodeMap = table;
  return () => {
    if (owner._opcodeMap === table) owner._opcodeMap = shared;
  };
}

/** The memory as the EVM sees it (its size is the highest word touched, not the store's). */
export function visibleMemory(rs: HookedRunState): Uint8Array {
  return memoryWords(rs.memory._store, rs.memoryWordCount);
}
