// geth's texts for EVM failures and revert data (graft/evm/rpc error shapes, reference §1.5).
import { RpcError } from '../rpc/server.js';
import { hexD } from './format.js';

const GETH_TEXT: Record<string, string> = {
  'out of gas': 'out of gas',
  'code store out of gas': 'contract creation code storage out of gas',
  'code size to deposit exceeds maximum code size': 'max code size exceeded',
  'stack underflow': 'stack underflow',
  'stack overflow': 'stack limit reached 1024 (1023)',
  'invalid JUMP': 'invalid jump destination',
  'invalid opcode': 'invalid opcode',
  'static state change': 'write protection',
  'create collision': 'contract address collision',
  'insufficient balance': 'insufficient balance for transfer',
  'invalid bytecode deployed': 'invalid code: must not begin with 0xef',
  'initcode exceeds max initcode size': 'max initcode size exceeded',
  'value out of range': 'return data out of bounds',
};

export function gethEvmError(msg: string): string {
  return GETH_TEXT[msg] ?? msg;
}

const PANIC_REASONS: Record<number, string> = {
  0x00: 'generic panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'invalid encoded storage byte array accessed',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'out-of-bounds access of an array or bytesN',
  0x41: 'out of memory',
  0x51: 'uninitialized function',
};

/** geth abi.UnpackRevert: Error(string) and Panic(uint256) reasons. */
export function revertReason(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const sel = Buffer.from(data.subarray(0, 4)).toString('hex');
  try {
    if (sel === '08c379a0' && data.length >= 68) {
      const b = Buffer.from(data.subarray(4));
      const off = Number(BigInt('0x' + b.subarray(0, 32).toString('hex')));
      const len = Number(BigInt('0x' + b.subarray(off, off + 32).toString('hex')));
      if (off + 32 + len > b.length) return undefined;
      return b.subarray(off + 32, off + 32 + len).toString('utf8');
    }
    if (sel === '4e487b71' && data.length === 36) {
      const code = BigInt('0x' + Buffer.from(data.subarray(4)).toString('hex'));
      const known = code < 256n ? PANIC_REASONS[Number(code)] : undefined;
      return known ?? `unknown panic code: 0x${code.toString(16)}`;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** The RPC error for a reverted call: code 3, data = revert bytes. */
export function revertError(data: Uint8Array): RpcError {
  // geth: only a non-empty revert becomes a revertError (code 3 with data).
  if (data.length === 0) return new RpcError(-32000, 'execution reverted');
  const reason = revertReason(data);
  return new RpcError(3, reason !== undefined ? `execution reverted: ${reason}` : 'execution reverted', hexD(data));
}
