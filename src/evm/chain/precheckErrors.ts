// The texts of geth's state-transition pre-checks (core/state_transition.go preCheck, buyGas,
// TransitionDb; reference subnet-evm.md §9.3), shared by eth_call's checks (src/evm/api/backend.ts)
// and admin_importChain's (src/evm/api/importBlock.ts). `from` is the checksummed sender. (The pool
// words its own admission errors as geth's txpool does: src/evm/txpool/pool.ts.)
import { MAX_INITCODE_SIZE } from '../txpool/pool.js';

export const tipAboveFeeCap = (from: string, tip: bigint, feeCap: bigint): string =>
  `max priority fee per gas higher than max fee per gas: address ${from}, maxPriorityFeePerGas: ${tip}, maxFeePerGas: ${feeCap}`;

export const feeCapBelowBaseFee = (from: string, feeCap: bigint, baseFee: bigint): string =>
  `max fee per gas less than block base fee: address ${from}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`;

export const insufficientFunds = (from: string, have: bigint, want: bigint): string =>
  `insufficient funds for gas * price + value: address ${from} have ${have} want ${want}`;

export const intrinsicGasTooLow = (have: bigint, want: bigint): string => `intrinsic gas too low: have ${have}, want ${want}`;

export const initcodeTooLarge = (size: number): string => `max initcode size exceeded: code size ${size} limit ${MAX_INITCODE_SIZE}`;
