// EIP-7966's eth_sendRawTransactionSync [rawTx, timeoutMs?] and eth_sendTransactionSync [txArgs,
// timeoutMs?] (viem's sendRawTransactionSync / sendTransactionSync; Anvil serves both): the tx is
// sent as eth_sendRawTransaction / eth_sendTransaction send it, then the answer is its receipt,
// as eth_getTransactionReceipt gives it, once its block is on disk. Served with the test controls
// (the Subnet-EVM of the reference has neither).
//
// The wait ends at the timeout — the param (milliseconds, a JSON number or a hex quantity), else
// 2 s, at most 1 min (geth's default and cap as we remember them; Anvil 1.7 takes no timeout and
// waits as long as it takes) — with geth's txSyncTimeoutError: code 4, the tx hash as its data.
// The tx stays in the pool: a later block may still include it.
import { RpcError } from '../rpc/server.js';
import { goDuration } from '../admin/vmConfigJson.js';
import { bytes, invalidArg, quantity, required } from './args.js';
import { parseCallArgs, type EvmBackend } from './backend.js';
import { transactionReceipt, type MethodTable } from './eth.js';
import { withArity } from './controlContext.js';

export const SYNC_DEFAULT_TIMEOUT_MS = 2_000;
export const SYNC_MAX_TIMEOUT_MS = 60_000;
/** EIP-7966's error code for a tx not processed in time. */
export const SYNC_TIMEOUT_CODE = 4;

/** The timeout param: absent or null is the default; more than the cap is the cap. */
function timeoutArg(p: unknown[], i: number): number {
  const v = p[i];
  if (v === undefined || v === null) return SYNC_DEFAULT_TIMEOUT_MS;
  let ms: bigint;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0) throw invalidArg(i, `timeout ${v} is not a whole number of milliseconds`);
    ms = BigInt(v);
  } else {
    ms = quantity(v, i);
  }
  return ms > BigInt(SYNC_MAX_TIMEOUT_MS) ? SYNC_MAX_TIMEOUT_MS : Number(ms);
}

/** The receipt of `hash` once its block is on disk, or the timeout error. */
async function receiptWithin(be: EvmBackend, hash: string, timeoutMs: number): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A block the automine is building or writing is read only once it is on disk (as requests are).
    if (be.miner.busy) await be.miner.settled();
    const receipt = transactionReceipt(be, hash);
    if (receipt) return receipt;
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new RpcError(SYNC_TIMEOUT_CODE, `The transaction was added to the transaction pool but wasn't processed in ${goDuration(timeoutMs)}.`, hash);
    }
    // Until the next block (announced after it is written) or the deadline. Nothing is awaited
    // between the receipt's check and the listener, so no block is missed.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, left);
      const off = be.miner.onBlock(done);
      function done() {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  }
}

export function syncSendMethods(be: EvmBackend): MethodTable {
  const m: MethodTable = new Map();
  m.set(
    'eth_sendRawTransactionSync',
    withArity(2, async (p) => {
      const raw = bytes(required(p, 0), 0);
      const timeout = timeoutArg(p, 1);
      return receiptWithin(be, await be.sendRawTransaction(raw), timeout);
    }),
  );
  m.set(
    'eth_sendTransactionSync',
    withArity(2, async (p) => {
      const args = parseCallArgs(required(p, 0), 0);
      const timeout = timeoutArg(p, 1);
      return receiptWithin(be, await be.sendTransaction(args), timeout);
    }),
  );
  return m;
}
