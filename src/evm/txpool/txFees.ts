// A tx's fee cap and tip cap as geth's GasFeeCap() / GasTipCap() answer them (a legacy or
// access-list tx: its gas price for both).
import type { TypedTransaction } from '@ethereumjs/tx';

export function feeCap(tx: TypedTransaction): bigint {
  return 'maxFeePerGas' in tx ? (tx as { maxFeePerGas: bigint }).maxFeePerGas : (tx as unknown as { gasPrice: bigint }).gasPrice;
}

export function tipCap(tx: TypedTransaction): bigint {
  return 'maxPriorityFeePerGas' in tx
    ? (tx as { maxPriorityFeePerGas: bigint }).maxPriorityFeePerGas
    : (tx as unknown as { gasPrice: bigint }).gasPrice;
}
