// Transactions geth's types.Transaction holds but @ethereumjs/tx's constructors refuse:
//   - a nonce of 2^64−1: ethereumjs applies EIP-2681 to the tx itself ("nonce cannot equal or
//     exceed MAX_UINT64"); geth only in the state transition (core.ErrNonceMax, when the account's
//     own nonce is 2^64−1), so its pool queues such a tx behind the sender's lower nonce;
//   - a gas × fee cap past 2^256−1: a big.Int product in geth, which the fee cap (rpc-tx-fee-cap)
//     or the pool's balance check refuses, not the type ("gas limit * gasPrice cannot exceed
//     MAX_INTEGER").
// Such a tx is built with in-range stand-ins and then given its real values: its encoding, hash,
// signing hash, sender recovery and JSON all read the fields. It stays unfrozen (nothing cached),
// and signing it (sign() builds a new tx through addSignature) repeats the same steps.
import { createTx, type TxOptions, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToBigInt } from '@ethereumjs/util';

const MAX_UINT64 = 2n ** 64n - 1n;
const MAX_INTEGER = 2n ** 256n - 1n;

/** The real values of the fields given stand-ins (absent: in range). */
interface OutOfRange {
  nonce?: bigint;
  gasLimit?: bigint;
}

function outOfRange(nonce: bigint, gasLimit: bigint, feeCap: bigint): OutOfRange | undefined {
  const maxNonce = nonce === MAX_UINT64;
  const overflow = gasLimit * feeCap > MAX_INTEGER;
  if (!maxNonce && !overflow) return undefined; // the common case (every eth_call): no allocation
  const real: OutOfRange = {};
  if (maxNonce) real.nonce = nonce;
  if (overflow) real.gasLimit = gasLimit;
  return real;
}

/** Zero for every field of `real`: what the constructor is given in their place. */
function standIns(real: OutOfRange): OutOfRange {
  return Object.fromEntries(Object.keys(real).map((k) => [k, 0n]));
}

/** Gives a tx built with stand-ins its real values (and its signed copies, through addSignature). */
function withRealValues<T extends TypedTransaction>(tx: T, real: OutOfRange): T {
  Object.assign(tx, real);
  const t = tx as unknown as { addSignature(...a: unknown[]): T };
  const addSignature = t.addSignature;
  Object.defineProperty(tx, 'addSignature', {
    configurable: true,
    value: (...a: unknown[]) => {
      Object.assign(tx, standIns(real));
      try {
        return withRealValues(addSignature.apply(tx, a), real);
      } finally {
        Object.assign(tx, real);
      }
    },
  });
  return tx;
}

/** ethereumjs' createTx, taking the values geth's types take (see above). */
export function createGethTx(txData: Record<string, unknown>, opts: TxOptions): TypedTransaction {
  const big = (v: unknown) => (typeof v === 'bigint' ? v : 0n);
  const real = outOfRange(big(txData.nonce), big(txData.gasLimit), big(txData.maxFeePerGas ?? txData.gasPrice));
  if (!real) return createTx(txData as never, opts);
  return withRealValues(createTx({ ...txData, ...standIns(real) } as never, { ...opts, freeze: false }), real);
}

/** Positions of nonce, gas limit and fee cap in a decoded tx's fields, by type byte. */
const FIELD_AT: Record<number, { nonce: number; gasLimit: number; feeCap: number }> = {
  0: { nonce: 0, gasLimit: 2, feeCap: 1 },
  1: { nonce: 1, gasLimit: 3, feeCap: 2 },
  2: { nonce: 1, gasLimit: 4, feeCap: 3 },
};

/** A canonical integer field (no leading zero) within `maxBytes`; otherwise the constructor words it. */
function canonical(v: unknown, maxBytes: number): bigint | undefined {
  return v instanceof Uint8Array && v[0] !== 0 && v.length <= maxBytes ? bytesToBigInt(v) : undefined;
}

/**
 * ethereumjs' constructor from a raw tx's decoded fields (`fromValues`), taking the values geth's
 * decoder takes (see above). Only canonical fields get stand-ins, so every encoding error is still
 * the constructor's to find.
 */
export function gethTxFromValues(type: number, values: unknown[], fromValues: (values: never, opts: TxOptions) => TypedTransaction, opts: TxOptions): TypedTransaction {
  const at = FIELD_AT[type];
  const nonce = canonical(values[at.nonce], 8);
  const gasLimit = canonical(values[at.gasLimit], 8);
  const feeCap = canonical(values[at.feeCap], 32);
  const real = nonce !== undefined && gasLimit !== undefined && feeCap !== undefined ? outOfRange(nonce, gasLimit, feeCap) : undefined;
  if (!real) return fromValues(values as never, opts);
  const stood = [...values];
  for (const k of Object.keys(real) as (keyof OutOfRange)[]) stood[at[k]] = new Uint8Array();
  return withRealValues(fromValues(stood as never, { ...opts, freeze: false }), real);
}
