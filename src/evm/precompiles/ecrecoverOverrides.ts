// anvil_impersonateSignature: ecrecover (0x01) answering registered signatures with a chosen
// address, so that a test can "sign" as an impersonated account (a permit, an ERC-1271 check)
// without its key. Anvil's behaviour, checked against Anvil 1.7.1: the key is the input's r and s
// (bytes 64–127, the input zero-padded to 128 bytes as the precompile reads it) followed by the
// last byte of its v word (byte 63), compared byte for byte with the registered signature; the
// message hash and v's other bytes are not looked at. A match answers the address (left-padded to
// 32 bytes) for ecrecover's usual 3,000 gas; anything else is the real ecrecover. It applies
// wherever the chain's EVM runs (mined transactions, eth_call, eth_estimateGas, traces), and the
// registrations last as long as the process, through evm_revert and anvil_reset, as on Anvil.
import { getActivePrecompiles, type ExecResult, type PrecompileFunc, type PrecompileInput } from '@ethereumjs/evm';
import { hexOf } from '../../hexOf.js';

/** Registered signatures: lower-case hex of the signature bytes (no 0x) → the 20-byte address. */
export type SignatureOverrides = Map<string, Uint8Array>;

const ECRECOVER = '0000000000000000000000000000000000000001';
/** The package's ecrecover (the same at every fork), taken from its list at the first call. */
let realEcrecover: PrecompileFunc | undefined;

export const ECRECOVER_ADDRESS = '0x' + ECRECOVER;

/** The key a registered signature is kept under: its bytes as hex. */
export const signatureKey = hexOf;

/** The lookup key of an ecrecover input: r ‖ s ‖ v's last byte (the input zero-padded to 128 bytes). */
export function overrideKey(input: Uint8Array): string {
  const sig = new Uint8Array(65);
  sig.set(input.subarray(64, 128));
  sig[64] = input[63] ?? 0;
  return signatureKey(sig);
}

/** ecrecover that answers `overrides` first (read at each call, so later registrations count). */
export function ecrecoverWithOverrides(overrides: ReadonlyMap<string, Uint8Array>): PrecompileFunc {
  return (opts: PrecompileInput): ExecResult | Promise<ExecResult> => {
    if (overrides.size > 0) {
      const gas = opts.common.param('ecRecoverGas');
      const address = opts.gasLimit >= gas ? overrides.get(overrideKey(opts.data)) : undefined;
      if (address !== undefined) {
        const word = new Uint8Array(32);
        word.set(address, 12);
        return { executionGasUsed: gas, returnValue: word };
      }
    }
    realEcrecover ??= getActivePrecompiles(opts.common).get(ECRECOVER)!;
    return realEcrecover(opts);
  };
}
