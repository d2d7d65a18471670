// The RPC error of a failed call (graft/evm/rpc error shapes, reference §1.5). geth's texts for EVM
// failures and revert data have one home, shared with the tracers: ../tracers/errors.ts.
import { RpcError } from '../rpc/server.js';
import { gethErrorText, revertMessage } from '../tracers/errors.js';
import { hexD } from './format.js';

/**
 * geth's text for an @ethereumjs/evm error (unknown texts pass through); `opCode` is the
 * opcode the failing frame stopped at, for `invalid opcode: …`.
 */
export function gethEvmError(err: { error: string }, opCode?: number): string {
  const op = opCode === undefined ? undefined : { name: opCode === 0xfe ? 'INVALID' : 'undefined', code: opCode };
  return gethErrorText(err, op) ?? err.error;
}

/** The RPC error for a reverted call: code 3, data = revert bytes. */
export function revertError(data: Uint8Array): RpcError {
  // geth: only a non-empty revert becomes a revertError (code 3 with data).
  if (data.length === 0) return new RpcError(-32000, 'execution reverted');
  return new RpcError(3, revertMessage(data), hexD(data));
}
