// geth's texts for EVM failures and revert data: the one home, shared by the tracers and the
// chain's eth_call / eth_estimateGas / eth_callDetailed errors (src/evm/api/errors.ts); and
// Anvil's revert reasons (evm_mine_detailed).
import type { EVMError } from '@ethereumjs/evm';
import { GAS_UINT64_OVERFLOW, invalidOpcodeText } from '../gethHalts.js';

const GETH_ERRORS: Record<string, string> = {
  'out of gas': 'out of gas',
  revert: 'execution reverted',
  'invalid JUMP': 'invalid jump destination',
  'static state change': 'write protection',
  'code store out of gas': 'contract creation code storage out of gas',
  'code size to deposit exceeds maximum code size': 'max code size exceeded',
  'create collision': 'contract address collision',
  'insufficient balance': 'insufficient balance for transfer',
  'invalid bytecode deployed': 'invalid code: must not begin with 0xef',
  'initcode exceeds max initcode size': 'max initcode size exceeded',
  'value out of range': 'return data out of bounds',
  'stack overflow': 'stack limit reached 1024 (1023)',
};

/**
 * geth's error text for an @ethereumjs/evm exceptional halt: the one the interpreter loop worked
 * out at the failure if it did (src/evm/interpreterSteps.ts), else from the message. `op` is the
 * opcode that failed (its byte names it in `invalid opcode: …`). Unknown texts (e.g. a stateful precompile's
 * own error) pass through unchanged.
 */
export function gethErrorText(err: EVMError | { error: string } | undefined, op?: { name: string; code: number }): string | undefined {
  if (!err) return undefined;
  // A text the interpreter loop worked out at the failure (src/evm/interpreterSteps.ts).
  const known = (err as { gethText?: unknown }).gethText;
  if (typeof known === 'string') return known;
  const msg = err.error;
  if (msg === 'invalid opcode') return op ? invalidOpcodeText(op.code) : 'invalid opcode';
  // @ethereumjs appends where it happened: `invalid JUMP at <address>/<code hash>:<pc>`.
  if (msg.startsWith('invalid JUMP')) return 'invalid jump destination';
  return GETH_ERRORS[msg] ?? msg;
}

/**
 * Failures geth's interpreter meets before it logs the step (the stack checks, the constant gas,
 * the memory size and the dynamic gas): its loggers show the error on the step itself. Others
 * happen while the opcode runs (REVERT, a bad jump, a write in a static call, return data out of
 * bounds, an undefined opcode: geth's opUndefined), after the step is logged; geth then reports
 * them through CaptureFault. `msg` is the @ethereumjs/evm error.
 */
export function failsBeforeStep(msg: string): boolean {
  return msg === 'out of gas' || msg === GAS_UINT64_OVERFLOW || msg === 'stack underflow' || msg === 'stack overflow';
}

/** The other side of failsBeforeStep: failures in the opcode's own run (see there). */
export function failsInStep(msg: string): boolean {
  return msg === 'revert' || msg.startsWith('invalid JUMP') || msg === 'static state change' || msg === 'value out of range' || msg === 'invalid opcode';
}

const PANIC_REASONS: Record<number, string> = {
  0x00: 'generic panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'invalid encoded storage byte array accessed',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'out-of-bounds access of an array or bytesN', // geth accounts/abi panicReasons
  0x41: 'out of memory',
  0x51: 'uninitialized function',
};

/**
 * geth's abi.UnpackRevert: the reason of `Error(string)` or `Panic(uint256)` revert data, or
 * undefined when the data is neither (custom errors, empty data).
 */
export function unpackRevert(data: Uint8Array): string | undefined {
  const reason = errorString(data);
  if (reason !== undefined) return reason;
  const code = panicCode(data);
  if (code === undefined) return undefined;
  return (code <= 0xffn ? PANIC_REASONS[Number(code)] : undefined) ?? `unknown panic code: 0x${code.toString(16)}`;
}

/** alloy-sol-types' PanicKind texts, which Anvil's revert reasons use. */
const ALLOY_PANIC_KINDS: Record<number, string> = {
  0x00: 'generic/unspecified error',
  0x01: 'assertion failed',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'failed to convert value into enum type',
  0x22: 'storage byte array incorrectly encoded',
  0x31: 'called `.pop()` on an empty array',
  0x32: 'array out-of-bounds access',
  0x41: 'memory allocation error',
  0x51: 'called an invalid internal function',
};

/**
 * Anvil's `revertReason` of a failed tx (evm_mine_detailed), in the order of foundry's
 * RevertDecoder.maybe_decode: none for empty data; `custom error bytes 0x…` for data shorter than a
 * selector; the string of `Error(string)`; alloy's Panic text for `Panic(uint256)` (`panic:
 * arithmetic underflow or overflow (0x11)`, `panic: unknown code (0x…)`); the data read as a
 * non-empty ABI-encoded string, then as non-empty UTF-8 text; else `custom error 0x<selector>`,
 * followed by `: ` and the rest as UTF-8 text, or as hex when it is not UTF-8.
 */
export function anvilRevertReason(data: Uint8Array): string | undefined {
  if (data.length === 0) return undefined;
  const b = asBuffer(data);
  if (b.length < 4) return `custom error bytes 0x${b.toString('hex')}`;
  const reason = errorString(data);
  if (reason !== undefined) return reason;
  const code = panicCode(data);
  if (code !== undefined) {
    const kind = (code <= 0xffn ? ALLOY_PANIC_KINDS[Number(code)] : undefined) ?? 'unknown code';
    return `panic: ${kind} (0x${code.toString(16)})`;
  }
  const text = abiString(b, 0) || utf8Text(b);
  if (text) return text;
  const rest = b.subarray(4);
  const restText = rest.length > 0 ? (utf8Text(rest) ?? rest.toString('hex')) : undefined;
  return `custom error 0x${b.subarray(0, 4).toString('hex')}` + (restText === undefined ? '' : `: ${restText}`);
}

/** `b` as UTF-8 text, or undefined when it is not valid UTF-8. */
function utf8Text(b: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return undefined;
  }
}

/** The string of `Error(string)` revert data (offset, length, bytes), or undefined. */
function errorString(data: Uint8Array): string | undefined {
  const b = asBuffer(data);
  return b.length >= 4 && b.readUInt32BE(0) === 0x08c379a0 ? abiString(b, 4) : undefined;
}

/** An ABI-encoded `string` starting at `at` (offset, length, bytes), or undefined. */
function abiString(b: Buffer, at: number): string | undefined {
  if (b.length < at + 64) return undefined;
  const offset = word(b, at);
  if (offset === undefined || at + offset + 32 > b.length) return undefined;
  const len = word(b, at + offset);
  if (len === undefined || at + offset + 32 + len > b.length) return undefined;
  return b.subarray(at + offset + 32, at + offset + 32 + len).toString('utf8');
}

/** The code of `Panic(uint256)` revert data, or undefined. */
function panicCode(data: Uint8Array): bigint | undefined {
  const b = asBuffer(data);
  if (b.length < 36 || b.readUInt32BE(0) !== 0x4e487b71) return undefined;
  return BigInt('0x' + b.subarray(4, 36).toString('hex'));
}

function asBuffer(data: Uint8Array): Buffer {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

function word(b: Buffer, at: number): number | undefined {
  if (at + 32 > b.length) return undefined;
  const v = BigInt('0x' + b.subarray(at, at + 32).toString('hex'));
  return v > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(v);
}

/** geth's eth_call / eth_estimateGas revert message: `execution reverted[: reason]`. */
export function revertMessage(data: Uint8Array): string {
  const reason = unpackRevert(data);
  return reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`;
}
