// EVM failures named as geth (Subnet-EVM's libevm, geth 1.13's core/vm) names them, where
// @ethereumjs/evm's differ. Either way the frame fails and all its gas is spent, so blocks and
// receipts are the same; what differs is the text eth_call, eth_estimateGas, eth_callDetailed and
// the tracers show, and the step a trace reports it on.
//
// - **`gas uint64 overflow`** (vm.ErrGasUintOverflow). Before an opcode's dynamic gas, geth's
//   interpreter works out the memory the opcode needs from its stack (`memorySize`): an offset or
//   length that does not fit in 64 bits, or an end past 2^64 - 32 (rounded up to a word), fails
//   the step there, after the constant gas and before the step is logged. ethereumjs prices that
//   memory in big integers and runs out of gas instead.
// - **`return data out of bounds`** (vm.ErrReturnDataOutOfBounds). geth's RETURNDATACOPY charges
//   its gas (memory and copy), the step is logged, and the opcode itself then fails when the copy
//   would read past the return data. ethereumjs traps in the gas handler with `out of gas`. Here
//   the gas handler is CALLDATACOPY's (the same price), and the opcode fails with the package's
//   OUT_OF_RANGE error, which src/evm/tracers/errors.ts names as geth does.
// - **An undefined opcode** is named by its byte (`opcode 0xc not defined`), not as INVALID (0xfe),
//   whose table entry the package gives it.
// - **`stack underflow (1 <=> 2)`** names the stack's length and the opcode's need; the
//   interpreter loop (interpreterSteps.ts) attaches this text and the undefined opcode's to the
//   package's error.
//
// The table changes are made on each opcode table when it is built (opcodeTables.ts), so every
// EVM — calls, blocks, traces — runs them.
import { EVMError } from '@ethereumjs/evm';

/** geth's vm.ErrGasUintOverflow text. */
export const GAS_UINT64_OVERFLOW = 'gas uint64 overflow';

interface StackLike {
  _store: bigint[];
  _len: number;
  popN(n: number): bigint[];
}

interface RunStateLike {
  stack: StackLike;
  gasLeft: bigint;
  env: { eof?: unknown };
  interpreter: { getReturnDataSize(): bigint };
}

type GasHandler = (rs: RunStateLike, gas: bigint, common: unknown) => bigint | Promise<bigint>;
type OpHandler = (rs: RunStateLike, common: unknown) => unknown;

export interface OpEntryLike {
  opcodeInfo: { code: number; dynamicGas: boolean };
  opHandler: OpHandler;
  gasHandler?: GasHandler;
}

/** The largest memory end geth's word rounding keeps in 64 bits (toWordSize, then × 32). */
const MAX_MEMORY_END = 2n ** 64n - 32n;

/**
 * geth's memory-size functions (core/vm/memory_table.go), by opcode: the stack positions (0 = the
 * top) of each offset/length pair the opcode touches memory with; a number instead of a length
 * position is a fixed length. MCOPY's offset is the larger of its two.
 */
type Region = readonly [offset: number | readonly [number, number], length: number | { fixed: bigint }];
const REGIONS = new Map<number, readonly Region[]>([
  [0x20, [[0, 1]]], // KECCAK256
  [0x37, [[0, 2]]], // CALLDATACOPY
  [0x39, [[0, 2]]], // CODECOPY
  [0x3c, [[1, 3]]], // EXTCODECOPY
  [0x3e, [[0, 2]]], // RETURNDATACOPY
  [0x51, [[0, { fixed: 32n }]]], // MLOAD
  [0x52, [[0, { fixed: 32n }]]], // MSTORE
  [0x53, [[0, { fixed: 1n }]]], // MSTORE8
  [0x5e, [[[0, 1], 2]]], // MCOPY
  [0xa0, [[0, 1]]], // LOG0 … LOG4
  [0xa1, [[0, 1]]],
  [0xa2, [[0, 1]]],
  [0xa3, [[0, 1]]],
  [0xa4, [[0, 1]]],
  [0xf0, [[1, 2]]], // CREATE
  [0xf1, [[5, 6], [3, 4]]], // CALL
  [0xf2, [[5, 6], [3, 4]]], // CALLCODE
  [0xf3, [[0, 1]]], // RETURN
  [0xf4, [[4, 5], [2, 3]]], // DELEGATECALL
  [0xf5, [[1, 2]]], // CREATE2
  [0xfa, [[4, 5], [2, 3]]], // STATICCALL
  [0xfd, [[0, 1]]], // REVERT
]);

/** The opcodes whose table entries applyGethHalts replaces. */
export const GETH_HALT_OPCODES: ReadonlySet<number> = new Set(REGIONS.keys());

/** How many stack words a region list reads (a shorter stack is the package's stack underflow). */
function depthOf(regions: readonly Region[]): number {
  let d = 0;
  for (const [o, l] of regions) {
    for (const i of [...(typeof o === 'number' ? [o] : o), ...(typeof l === 'number' ? [l] : [])]) d = Math.max(d, i + 1);
  }
  return d;
}

/** Half of MAX_MEMORY_END: an offset and a length both up to this cannot end past it. */
const HALF = MAX_MEMORY_END / 2n;

/** Whether a region from `offset`, `length` bytes long, ends past geth's 64-bit memory size. */
function endsPast64Bits(offset: bigint, length: bigint): boolean {
  // Compared first, so that a step adds no bigint (an allocation) unless a word is that large.
  if (offset <= HALF && length <= HALF) return false;
  return length !== 0n && offset + length > MAX_MEMORY_END; // an empty region needs no memory
}

/** One region's check on the stack's words (`top` is the top word's index). */
type RegionCheck = (store: bigint[], top: number) => boolean;

function regionCheck([o, l]: Region): RegionCheck {
  if (typeof l !== 'number') {
    const length = l.fixed;
    const at = o as number;
    return (s, top) => endsPast64Bits(s[top - at]!, length);
  }
  if (typeof o === 'number') return (s, top) => endsPast64Bits(s[top - o]!, s[top - l]!);
  const [a, b] = o;
  return (s, top) => {
    const x = s[top - a]!;
    const y = s[top - b]!;
    return endsPast64Bits(x > y ? x : y, s[top - l]!);
  };
}

/**
 * Whether geth's memorySize of opcode `code` overflows 64 bits on `stack` (bottom first, holding
 * every word the opcode reads); false for an opcode that touches no memory.
 */
export function memorySizeOverflows(code: number, stack: bigint[]): boolean {
  return (REGIONS.get(code) ?? []).some((r) => regionCheck(r)(stack, stack.length - 1));
}

function withOverflowCheck(code: number, original: GasHandler): GasHandler {
  const regions = REGIONS.get(code)!;
  const depth = depthOf(regions);
  const [first, second] = regions.map(regionCheck);
  const overflows: RegionCheck = second === undefined ? first! : (s, top) => first!(s, top) || second(s, top);
  return function (this: unknown, rs, fee, common) {
    const st = rs.stack;
    // Without the constant gas geth fails with out of gas first; with too short a stack the
    // package's handler throws its stack underflow: both are the original's to report.
    if (st._len >= depth && overflows(st._store, st._len - 1) && rs.gasLeft >= fee) {
      throw new EVMError(GAS_UINT64_OVERFLOW as never);
    }
    return original.call(this, rs, fee, common);
  };
}

/** geth's opReturnDataCopy: the words popped, then the bounds checked (EOF code pads instead). */
function returnDataCopy(original: OpHandler): OpHandler {
  return function (this: unknown, rs, common) {
    if (rs.env.eof === undefined) {
      const st = rs.stack;
      const n = st._len;
      if (n >= 3 && st._store[n - 2]! + st._store[n - 3]! > rs.interpreter.getReturnDataSize()) {
        st.popN(3);
        throw new EVMError(EVMError.errorMessages.OUT_OF_RANGE);
      }
    }
    return original.call(this, rs, common);
  };
}

/**
 * Gives a freshly built opcode table (@ethereumjs/evm's getOpcodesForHF `opcodeMap`, and its
 * `dynamicGasHandlers` and `handlers` maps) geth's halts and undefined opcodes. Entries are
 * replaced, not changed: a table's entries may be shared (every undefined opcode has INVALID's).
 */
export function applyGethHalts(opcodeMap: (OpEntryLike | undefined)[], dynamicGasHandlers?: Map<number, unknown>, handlers?: Map<number, unknown>): void {
  ownUndefinedEntries(opcodeMap);
  const calldataCopy = opcodeMap[0x37];
  for (const code of REGIONS.keys()) {
    const entry = opcodeMap[code];
    if (!entry || entry.opcodeInfo.code !== code || !entry.gasHandler) continue;
    let gasHandler = entry.gasHandler;
    let opHandler = entry.opHandler;
    if (code === 0x3e) {
      if (!calldataCopy?.gasHandler || calldataCopy.opcodeInfo.code !== 0x37) continue;
      gasHandler = calldataCopy.gasHandler;
      opHandler = returnDataCopy(opHandler);
    }
    gasHandler = withOverflowCheck(code, gasHandler);
    opcodeMap[code] = Object.assign(Object.create(Object.getPrototypeOf(entry) as object) as OpEntryLike, entry, { gasHandler, opHandler });
    dynamicGasHandlers?.set(code, gasHandler);
    handlers?.set(code, opHandler);
  }
}

/**
 * Every undefined opcode gets an entry of its own: INVALID's, with the opcode's own byte as its
 * `code`. The package gives them all INVALID's entry, so its step events, the step loggers and the
 * interpreter loop (which reads the byte back from the entry once it has analysed the jumps) saw
 * 0xfe where geth names the byte: `opcode 0xc not defined`, `invalid opcode: opcode 0xc not
 * defined`.
 */
function ownUndefinedEntries(opcodeMap: (OpEntryLike | undefined)[]): void {
  for (let code = 0; code < opcodeMap.length; code++) {
    const entry = opcodeMap[code];
    if (entry === undefined || code === 0xfe || entry.opcodeInfo.code === code) continue;
    const info = Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(entry.opcodeInfo) as object) as object, entry.opcodeInfo, { code }));
    opcodeMap[code] = Object.assign(Object.create(Object.getPrototypeOf(entry) as object) as OpEntryLike, entry, { opcodeInfo: info });
  }
}

/** geth's ErrInvalidOpCode text for `opCode` (OpCode.String() of an undefined byte). */
export function invalidOpcodeText(opCode: number): string {
  return `invalid opcode: ${opCode === 0xfe ? 'INVALID' : `opcode 0x${opCode.toString(16)} not defined`}`;
}

/**
 * geth's minStack per opcode (what it pops): its stack check runs before anything else in a step,
 * and its error names the stack's length and this, `stack underflow (1 <=> 2)`. Opcodes missing
 * here pop nothing (undefined ones included: geth's opUndefined has no minimum).
 */
const POPS = new Map<number, number>([
  ...[0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0a, 0x0b].map((c) => [c, 2] as const),
  [0x08, 3], [0x09, 3], // ADDMOD, MULMOD
  ...[0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x18, 0x1a, 0x1b, 0x1c, 0x1d].map((c) => [c, 2] as const),
  [0x15, 1], [0x19, 1], // ISZERO, NOT
  [0x20, 2], // KECCAK256
  [0x31, 1], [0x35, 1], [0x37, 3], [0x39, 3], [0x3b, 1], [0x3c, 4], [0x3e, 3], [0x3f, 1],
  [0x40, 1], [0x49, 1], // BLOCKHASH, BLOBHASH
  [0x50, 1], [0x51, 1], [0x52, 2], [0x53, 2], [0x54, 1], [0x55, 2], [0x56, 1], [0x57, 2],
  [0x5c, 1], [0x5d, 2], [0x5e, 3], // TLOAD, TSTORE, MCOPY
  ...Array.from({ length: 16 }, (_, i) => [0x80 + i, i + 1] as const), // DUP1 … DUP16
  ...Array.from({ length: 16 }, (_, i) => [0x90 + i, i + 2] as const), // SWAP1 … SWAP16
  ...Array.from({ length: 5 }, (_, i) => [0xa0 + i, i + 2] as const), // LOG0 … LOG4
  [0xf0, 3], [0xf1, 7], [0xf2, 7], [0xf3, 2], [0xf4, 6], [0xf5, 4], [0xfa, 6], [0xfd, 2], [0xff, 1],
]);

/**
 * geth's ErrStackUnderflow text for `opCode` failing with `stackLength` words. ethereumjs' handlers
 * check the stack before they pop (popN, peek, one pop for one-word opcodes), so the length when
 * the step fails is the length it began with, the one geth names.
 */
export function stackUnderflowText(stackLength: number, opCode: number): string {
  return `stack underflow (${stackLength} <=> ${stackNeed(opCode)})`;
}

/** The words geth's `opCode` needs on the stack (its minStack). */
export function stackNeed(opCode: number): number {
  return POPS.get(opCode) ?? 0;
}

/**
 * Whether geth's stack check fails `opCode` with a stack of `stackLength` words for the limit
 * (its maxStack): only opcodes that leave one word more than they take can, on a full stack
 * (PUSH0 … PUSH32, DUP1 … DUP16 and the environment reads that take none); geth's text is then
 * `stack limit reached 1024 (1023)`.
 */
export function overflowsStack(stackLength: number, opCode: number): boolean {
  return stackLength >= 1024 && PUSHES_ONE_MORE.has(opCode);
}
const PUSHES_ONE_MORE = new Set<number>([
  0x30, 0x32, 0x33, 0x34, 0x36, 0x38, 0x3a, 0x3d, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x4a, 0x58, 0x59, 0x5a,
  ...Array.from({ length: 33 }, (_, i) => 0x5f + i), // PUSH0 … PUSH32
  ...Array.from({ length: 16 }, (_, i) => 0x80 + i), // DUP1 … DUP16
]);
