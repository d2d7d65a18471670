// geth's texts for EVM failures and revert data: the one home, shared by the tracers and the
// chain's eth_call / eth_estimateGas / eth_callDetailed errors (src/evm/api/errors.ts).
import type { EVMError } from '@ethereumjs/evm';

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
 * geth's error text for an @ethereumjs/evm exceptional halt. `op` is the opcode that failed
 * (name and byte), used for `invalid opcode: …`. Unknown texts (e.g. a stateful precompile's
 * own error) pass through unchanged.
 */
export function gethErrorText(err: EVMError | { error: string } | undefined, op?: { name: string; code: number }): string | undefined {
  if (!err) return undefined;
  const msg = err.error;
  if (msg === 'invalid opcode') {
    if (!op) return 'invalid opcode';
    return op.name === 'INVALID' ? 'invalid opcode: INVALID' : `invalid opcode: opcode 0x${op.code.toString(16)} not defined`;
  }
  // @ethereumjs appends where it happened: `invalid JUMP at <address>/<code hash>:<pc>`.
  if (msg.startsWith('invalid JUMP')) return 'invalid jump destination';
  return GETH_ERRORS[msg] ?? msg;
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
  if (data.length < 4) return undefined;
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const selector = b.readUInt32BE(0);
  if (selector === 0x08c379a0) {
    // Error(string): offset, length, bytes
    if (b.length < 4 + 64) return undefined;
    const offset = word(b, 4);
    if (offset === undefined || 4 + offset + 32 > b.length) return undefined;
    const len = word(b, 4 + offset);
    if (len === undefined || 4 + offset + 32 + len > b.length) return undefined;
    return b.subarray(4 + offset + 32, 4 + offset + 32 + len).toString('utf8');
  }
  if (selector === 0x4e487b71) {
    if (b.length < 36) return undefined;
    const code = BigInt('0x' + b.subarray(4, 36).toString('hex'));
    const known = code <= 0xffn ? PANIC_REASONS[Number(code)] : undefined;
    return known ?? `unknown panic code: 0x${code.toString(16)}`;
  }
  return undefined;
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
