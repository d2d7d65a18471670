// The transactions the tracers' golden tests run (structLogger.golden.test.ts,
// jsonLogger.golden.test.ts): solc fixtures and an ERC-20 transfer, and raw code for every frame
// kind, the failures of a step (before it runs and while it runs), storage, memory and return data.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEVM, type EVM } from '@ethereumjs/evm';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { Account, Address, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { Interface } from 'ethers';
import { compileContract, type Compiled } from './solc.js';

/**
 * A file of the source tree, by its path from the repository root (a test also runs compiled,
 * from dist/…, where tsc copies no JSON).
 */
export function sourcePath(path: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'bin/powder.js'))) dir = dirname(dir);
  return join(dir, path);
}

export const sender = createAddressFromString('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
export const at = (n: number) => createAddressFromString('0x' + n.toString(16).padStart(40, '0'));

// A small assembler: a name is an opcode, a number or bigint a PUSH of its minimal width (PUSH1
// for 0), an Address a PUSH20, `raw:<hex>` bytes as they are.
const OPS: Record<string, number> = {
  STOP: 0x00, ADD: 0x01, MUL: 0x02, SUB: 0x03, LT: 0x10, GT: 0x11, EQ: 0x14, ISZERO: 0x15, KECCAK256: 0x20,
  ADDRESS: 0x30, BALANCE: 0x31, CALLER: 0x33, CALLVALUE: 0x34, CALLDATALOAD: 0x35, CALLDATASIZE: 0x36, CALLDATACOPY: 0x37,
  CODESIZE: 0x38, CODECOPY: 0x39, RETURNDATASIZE: 0x3d, RETURNDATACOPY: 0x3e, EXTCODEHASH: 0x3f, SELFBALANCE: 0x47,
  POP: 0x50, MLOAD: 0x51, MSTORE: 0x52, MSTORE8: 0x53, SLOAD: 0x54, SSTORE: 0x55, JUMP: 0x56, JUMPI: 0x57, PC: 0x58,
  MSIZE: 0x59, GAS: 0x5a, JUMPDEST: 0x5b, TLOAD: 0x5c, TSTORE: 0x5d, MCOPY: 0x5e, PUSH0: 0x5f, DUP1: 0x80, DUP2: 0x81,
  SWAP1: 0x90, LOG0: 0xa0, LOG2: 0xa2, CREATE: 0xf0, CALL: 0xf1, CALLCODE: 0xf2, RETURN: 0xf3, DELEGATECALL: 0xf4,
  CREATE2: 0xf5, STATICCALL: 0xfa, REVERT: 0xfd, INVALID: 0xfe, SELFDESTRUCT: 0xff,
};
export type Tok = string | number | bigint | Address;
export function asm(...toks: Tok[]): string {
  let out = '';
  for (const t of toks) {
    if (t instanceof Address) out += '73' + t.toString().slice(2);
    else if (typeof t === 'number' || typeof t === 'bigint') {
      let h = BigInt(t).toString(16);
      if (h.length % 2) h = '0' + h;
      out += (0x5f + h.length / 2).toString(16) + h;
    } else if (t.startsWith('raw:')) out += t.slice(4);
    else {
      const op = OPS[t];
      if (op === undefined) throw new Error(`asm: ${t}`);
      out += op.toString(16).padStart(2, '0');
    }
  }
  return out;
}
/** CALL-family arguments: gas, address, [value,] argsOffset, argsSize, retOffset, retSize (pushed in reverse). */
export const call = (op: string, gas: number, to: Address, args: [number, number, number, number], value?: number | bigint): Tok[] => [
  args[3], args[2], args[1], args[0], ...(value === undefined ? [] : [value]), to, gas, op,
];
/** Init code that returns `runtime` (hex) as the deployed code. */
export const initReturning = (runtime: string): string => {
  const n = runtime.length / 2;
  const head = (off: number) => asm(n, off, 0, 'CODECOPY', n, 0, 'RETURN');
  const len = head(0).length / 2;
  return head(len) + runtime;
};

export const A = {
  undef: at(0xaa), invalid: at(0xbb), kinds: at(0xcc), store: at(0x5101), delegated: at(0x5102), other: at(0x5103),
  mem: at(0x3301), ret: at(0x3302), returner: at(0x3303), reverts: at(0x3304), loop: at(0x0901), bigMem: at(0x0902),
  sstoreLow: at(0x0903), sstoreChild: at(0x0904), addEmpty: at(0x0905), mstoreEmpty: at(0x0906), badJump: at(0x0907),
  static: at(0x0908), creates: at(0x0909), deep: at(0x090a), precompiles: at(0x090b), offEnd: at(0x090c), destruct: at(0x090d),
  loadLast: at(0x090e), transient: at(0x090f),
};

export function rawCode(): [Address, string][] {
  return [
    [A.undef, '0c'],
    [A.invalid, 'fe'],
    // Every frame kind (the callTracer test's code).
    [A.kinds, asm(
      ...call('CALLCODE', 0xffff, A.undef, [0, 0, 0, 0], 0), 'POP',
      ...call('STATICCALL', 0xffff, A.invalid, [0, 0, 0, 0]), 'POP',
      ...call('CALL', 0xffff, at(2), [0, 0, 0, 0], 0), 'POP',
      ...call('DELEGATECALL', 0xffff, A.undef, [0, 0, 0, 0]), 'POP',
      0, 0, 0, 0, 'CREATE2', 'POP',
      0xfe, 0, 'MSTORE8', 1, 0, 0, 'CREATE', 'POP', 'STOP')],
    // Storage: loads of a preset, a new and an empty slot, a store that clears (a refund), a
    // delegated frame that reads and writes this contract's slots, a call whose frame writes its own.
    [A.store, asm(
      1, 'SLOAD', 'POP', 5, 2, 'SSTORE', 2, 'SLOAD', 0, 'MSTORE', 0, 1, 'SSTORE', 3, 'SLOAD', 'POP',
      ...call('DELEGATECALL', 100_000, A.delegated, [0, 0, 0x40, 0x20]), 'POP',
      ...call('CALL', 100_000, A.other, [0, 0, 0x60, 0x20], 0), 'POP',
      4, 'SLOAD', 7, 4, 'SSTORE', 4, 'SLOAD', 'POP', 0x40, 'MLOAD', 'STOP')],
    [A.delegated, asm(1, 'SLOAD', 'POP', 9, 4, 'SSTORE', 4, 'SLOAD', 0, 'MSTORE', 0x20, 0, 'RETURN')],
    [A.other, asm(4, 'SLOAD', 'POP', 0x77, 4, 'SSTORE', 4, 'SLOAD', 'DUP1', 0, 'MSTORE', 0x20, 0, 'RETURN')],
    // A load that is the frame's last opcode (no step follows it in the frame), then one in a child.
    [A.loadLast, asm(...call('CALL', 50_000, A.other, [0, 0, 0, 0], 0), 1, 'SLOAD')],
    // Memory growth: words, a byte, calldata, a hash, MCOPY, a load past the end, a return.
    [A.mem, asm(
      0x1122, 0, 'MSTORE', 0xabcdef, 0x40, 'MSTORE', 0x99, 0x85, 'MSTORE8', 40, 0, 0x100, 'CALLDATACOPY',
      0x60, 0, 'KECCAK256', 0xa0, 'MSTORE', 0x30, 0, 0x200, 'MCOPY', 0x300, 'MLOAD', 'POP', 'MSIZE', 0x20, 'MSTORE', 0x40, 0, 'RETURN')],
    // Return data: the identity precompile, a contract's return, a revert's data, a call that fails
    // before its frame (too much value: the last return data stays), a precompile out of gas.
    [A.ret, asm(
      0x1234, 0, 'MSTORE', ...call('CALL', 0xffff, at(4), [0, 0x40, 0x80, 0x40], 0), 'POP', 'RETURNDATASIZE', 0, 0, 'RETURNDATACOPY',
      ...call('STATICCALL', 0xffff, A.returner, [0, 0, 0, 0]), 'POP',
      ...call('CALL', 0xffff, A.reverts, [0, 0, 0, 0], 0), 'POP', 'RETURNDATASIZE', 0, 0x20, 'RETURNDATACOPY',
      ...call('CALL', 0xffff, A.returner, [0, 0, 0, 0], 10n ** 30n), 'POP', 'RETURNDATASIZE', 'POP',
      ...call('CALL', 10, at(2), [0, 0x40, 0, 0x20], 0), 'POP', 'RETURNDATASIZE',
      ...call('STATICCALL', 0xffff, A.returner, [0, 0, 0, 0]), 'POP', 'RETURNDATASIZE', 0, 0, 'RETURNDATACOPY', 'RETURNDATASIZE', 0, 'RETURN')],
    [A.returner, asm(0xbeef, 0, 'MSTORE', 0xcafe, 0x20, 'MSTORE', 0x3f, 0, 'RETURN')],
    [A.reverts, asm(0xdead, 0, 'MSTORE', 0x21, 0, 'REVERT')],
    // Out of gas in a constant-gas step (a loop), in a gas handler (memory expansion), in SSTORE's
    // 2300 sentry (a child called with 2,000 gas).
    [A.loop, asm('JUMPDEST', 1, 'SLOAD', 1, 'ADD', 1, 'SSTORE', 0, 'JUMP')],
    [A.bigMem, asm(1, 0xffffffff, 'MSTORE')],
    [A.sstoreLow, asm(...call('CALL', 2000, A.sstoreChild, [0, 0, 0, 0], 0), 0, 'MSTORE', 0x20, 0, 'RETURN')],
    [A.sstoreChild, asm(1, 0, 'SSTORE')],
    // Stack underflow in a constant-gas opcode and in a gas handler; a jump to no JUMPDEST.
    [A.addEmpty, asm('ADD')],
    [A.mstoreEmpty, asm('MSTORE')],
    [A.badJump, asm(3, 'JUMP', 'STOP')],
    // A static frame that writes: SSTORE and LOG0 each fail there.
    [A.static, asm(
      ...call('STATICCALL', 50_000, A.sstoreChild, [0, 0, 0, 0]), 'POP',
      ...call('STATICCALL', 50_000, A.offEnd, [0, 0, 0, 0]), 'POP', 1, 'raw:00')],
    // CREATE that deploys, CREATE2 whose init code reverts with data, the same CREATE2 twice (a
    // collision), CREATE of init code out of gas (memory expansion).
    [A.creates, (() => {
      const deployed = initReturning(asm(0x2a, 0, 'MSTORE', 0x20, 0, 'RETURN'));
      const reverting = asm(0xbad, 0, 'MSTORE', 0x20, 0, 'REVERT');
      const oog = asm(1, 0xffffffff, 'MSTORE');
      const put = (hex: string, off: number): Tok[] => {
        const toks: Tok[] = [];
        for (let i = 0; i < hex.length; i += 64) toks.push(BigInt('0x' + hex.slice(i, i + 64).padEnd(64, '0')), off + i / 2, 'MSTORE');
        return toks;
      };
      return asm(
        ...put(deployed, 0), deployed.length / 2, 0, 0, 'CREATE', 0, 'SSTORE',
        ...put(reverting, 0x100), 7, reverting.length / 2, 0x100, 0, 'CREATE2', 'POP', 'RETURNDATASIZE', 'POP',
        ...put(deployed, 0x200), 8, deployed.length / 2, 0x200, 0, 'CREATE2', 'POP', 8, deployed.length / 2, 0x200, 0, 'CREATE2', 'POP',
        ...put(oog, 0x300), oog.length / 2, 0x300, 0, 'CREATE', 'POP', 'STOP');
    })()],
    // Recursion: calls itself with calldata - 1 until it is 0 (five frames deep), returning depth.
    [A.deep, (() => {
      const head = (target: number) => asm(
        0, 'CALLDATALOAD', 'DUP1', 'ISZERO', target, 'JUMPI', 1, 'SWAP1', 'SUB', 0, 'MSTORE',
        ...call('CALL', 0xfffff, A.deep, [0, 0x20, 0x40, 0x20], 0), 'POP', 0x40, 'MLOAD', 1, 'ADD', 0, 'MSTORE', 0x20, 0, 'RETURN');
      return head(head(0xff).length / 2) + asm('JUMPDEST', 0x20, 0, 'RETURN');
    })()],
    // Precompiles: ecrecover of junk, modexp, ecAdd of zeros, blake2f with a wrong length.
    [A.precompiles, asm(
      ...call('STATICCALL', 0xffff, at(1), [0, 0x80, 0x100, 0x20]), 'POP',
      1, 0, 'MSTORE', 1, 0x20, 'MSTORE', 1, 0x40, 'MSTORE', 3, 0x60, 'MSTORE', 5, 0x80, 'MSTORE', 7, 0xa0, 'MSTORE',
      ...call('STATICCALL', 0xffff, at(5), [0, 0xc0, 0x100, 0x20]), 'POP',
      ...call('STATICCALL', 0xffff, at(6), [0x200, 0x80, 0x100, 0x40]), 'POP',
      ...call('STATICCALL', 0xffff, at(9), [0, 0x10, 0x100, 0x40]), 'POP', 'RETURNDATASIZE', 0x100, 'RETURN')],
    // Code that ends without STOP.
    [A.offEnd, asm(1, 2, 'ADD', 0, 0, 'LOG0')],
    [A.destruct, asm(0x1111, 'SELFDESTRUCT')],
    [A.transient, asm(5, 1, 'TSTORE', 1, 'TLOAD', 1, 'SSTORE', 1, 'SLOAD', 'STOP')],
  ];
}

export interface Case {
  name: string;
  to: Address;
  data?: string;
  gasLimit?: bigint;
  value?: bigint;
  txEnd?: bigint;
}

let compiled: { storage: Compiled; reverter: Compiled; caller: Compiled; erc20: Compiled } | undefined;
const iface = (c: Compiled) => new Interface(c.abi);
const deployed: Record<string, Address> = {};

/** Compiles the solc fixtures (once per process; call in the test's `before`). */
export function compileFixtures(): void {
  compiled ??= {
    storage: compileContract('Storage', 'Fixtures.sol'),
    reverter: compileContract('Reverter', 'Fixtures.sol'),
    caller: compileContract('Caller', 'Fixtures.sol'),
    erc20: compileContract('ERC20'),
  };
}

const fixtures = () => {
  if (compiled === undefined) throw new Error('compileFixtures() first');
  return compiled;
};

/**
 * An EVM with the fixtures deployed and the raw code of rawCode() (and `extraCode`) in place.
 * The fixtures' addresses, which cases() reads, are known once it has run.
 */
export async function fresh(extraCode: [Address, string][] = []): Promise<EVM> {
  const C = fixtures();
  const e = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Cancun }) });
  await e.stateManager.putAccount(sender, new Account(0n, 10n ** 21n));
  const deploy = async (c: Compiled, args: unknown[]) => {
    const r = await e.runCall({ caller: sender, data: hexToBytes((c.bytecode + iface(c).encodeDeploy(args).slice(2)) as `0x${string}`), gasLimit: 5_000_000n });
    assert.equal(r.execResult.exceptionError, undefined);
    return r.createdAddress!;
  };
  deployed.storage = await deploy(C.storage, [7]);
  deployed.reverter = await deploy(C.reverter, []);
  deployed.caller = await deploy(C.caller, []);
  deployed.erc20 = await deploy(C.erc20, ['Token', 'TKN', 10n ** 24n]);
  await e.stateManager.putAccount(A.destruct, new Account(0n, 12345n));
  for (const [a, code] of [...rawCode(), ...extraCode]) await e.stateManager.putCode(a, hexToBytes(`0x${code}`));
  const word = (n: number) => hexToBytes(`0x${n.toString(16).padStart(64, '0')}`);
  await e.stateManager.putStorage(A.store, word(1), word(0x1234));
  await e.stateManager.putStorage(A.store, word(4), word(0x44));
  await e.stateManager.putStorage(A.other, word(4), word(0x55));
  return e;
}

export function cases(): Case[] {
  const C = fixtures();
  const fn = (c: Compiled, name: string, args: unknown[] = []) => iface(c).encodeFunctionData(name, args);
  const d = deployed;
  return [
    { name: 'storage.set', to: d.storage, data: fn(C.storage, 'set', [99]) },
    { name: 'storage.get (gas past 2^53, txEnd)', to: d.storage, data: fn(C.storage, 'get'), gasLimit: 2n ** 63n - 1n, txEnd: 23_456n },
    { name: 'caller.callSet (CALL, STATICCALL)', to: d.caller, data: fn(C.caller, 'callSet', [d.storage.toString(), 42]) },
    { name: 'caller.callRevert (a caught revert, a log)', to: d.caller, data: fn(C.caller, 'callRevert', [d.reverter.toString()]) },
    { name: 'caller.callRevertHard', to: d.caller, data: fn(C.caller, 'callRevertHard', [d.reverter.toString()]) },
    { name: 'caller.delegate', to: d.caller, data: fn(C.caller, 'delegate', [d.storage.toString(), 5]) },
    { name: 'caller.create', to: d.caller, data: fn(C.caller, 'create', [9]) },
    { name: 'caller.pay (value to a contract that refuses it)', to: d.caller, data: fn(C.caller, 'pay', [d.reverter.toString()]), value: 5n },
    { name: 'reverter.panicDivide', to: d.reverter, data: fn(C.reverter, 'panicDivide', [0]) },
    { name: 'reverter.revertWithReason', to: d.reverter, data: fn(C.reverter, 'revertWithReason') },
    { name: 'reverter.revertWithCustom', to: d.reverter, data: fn(C.reverter, 'revertWithCustom') },
    { name: 'reverter.requireBig(500)', to: d.reverter, data: fn(C.reverter, 'requireBig', [500]) },
    { name: 'reverter.outOfGas', to: d.reverter, data: fn(C.reverter, 'outOfGas'), gasLimit: 25_000n },
    { name: 'erc20.transfer', to: d.erc20, data: fn(C.erc20, 'transfer', ['0x' + '12'.repeat(20), 1000]), txEnd: 51_234n },
    { name: 'frame kinds', to: A.kinds },
    { name: 'storage ops', to: A.store },
    { name: 'SLOAD last', to: A.loadLast },
    { name: 'memory', to: A.mem, data: '0x' + 'a1b2c3d4'.repeat(12) },
    { name: 'return data', to: A.ret },
    { name: 'out of gas: loop', to: A.loop, gasLimit: 30_000n },
    { name: 'out of gas: memory expansion', to: A.bigMem },
    { name: 'out of gas: SSTORE sentry', to: A.sstoreLow },
    { name: 'undefined opcode', to: A.undef },
    { name: 'INVALID', to: A.invalid },
    { name: 'stack underflow: ADD', to: A.addEmpty },
    { name: 'stack underflow: MSTORE', to: A.mstoreEmpty },
    { name: 'bad jump', to: A.badJump },
    { name: 'static violations', to: A.static },
    { name: 'creates', to: A.creates, gasLimit: 3_000_000n },
    { name: 'recursion', to: A.deep, data: '0x' + (4).toString(16).padStart(64, '0') },
    { name: 'precompiles', to: A.precompiles },
    { name: 'off the end', to: A.offEnd },
    { name: 'selfdestruct', to: A.destruct },
    { name: 'transient storage', to: A.transient },
  ];
}

/** Runs `c` as a call on `e` (as the traced transactions run: one message from the sender). */
export function runCase(e: EVM, c: Case): ReturnType<EVM['runCall']> {
  return e.runCall({ caller: sender, to: c.to, data: hexToBytes((c.data ?? '0x') as `0x${string}`), gasLimit: c.gasLimit ?? 1_000_000n, value: c.value });
}

export const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** Fails with where the texts part (assert's diff of two long strings takes minutes). */
export function same(text: string, want: string, label: string): void {
  if (text === want) return;
  let i = 0;
  while (i < text.length && text[i] === want[i]) i++;
  assert.fail(`${label}: differs at ${i} of ${want.length}:\n got  …${text.slice(Math.max(0, i - 200), i + 200)}\n want …${want.slice(Math.max(0, i - 200), i + 200)}`);
}
