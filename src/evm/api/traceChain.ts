// geth's TraceChain (service `debug-tracer`): `debug_subscribe` ["traceChain", start, end, config?]
// over WebSocket. The blocks after `start` up to `end` are traced as debug_traceBlockByNumber
// traces them, and each is sent as `{"block", "hash", "traces"}` in order — blocks without
// transactions are left out, except `end`. As in geth's traceChain, a transaction whose trace
// fails ends its block's list: its entry has the `error`, the later ones are `null`.
import { RpcError } from '../rpc/server.js';
import type { Block } from '../chain/blockchain.js';
import { validateTracer } from '../tracers/index.js';
import { blockNumber, blockNumberCode, required, type BlockSpec } from './args.js';
import type { EvmBackend } from './backend.js';
import { traceBlockWithConfig, traceConfig, traceTimeoutMs } from './debug.js';
import { hexD, hexQ } from './format.js';

/** geth's tracers API blockByNumber: the backend's errors, or `block #N not found`. */
function blockOf(be: EvmBackend, spec: BlockSpec): Block {
  const b = be.resolve(spec);
  if (!b) throw new RpcError(-32000, `block #${blockNumberCode(spec)} not found`);
  return b;
}

/** One block's trace list as traceChain makes it: entries after a failed one are null. */
async function chainBlockTraces(be: EvmBackend, block: Block, name: string | undefined, cfg: unknown, configError: string | undefined): Promise<unknown[]> {
  const txs = be.chain.txsOf(block);
  if (configError !== undefined) return txs.map((tx, i) => (i === 0 ? { txHash: hexD(tx.hash()), error: configError } : null));
  const traces = await traceBlockWithConfig(be, block, name, cfg);
  const failed = traces.findIndex((t) => t !== null && typeof t === 'object' && 'error' in t);
  return failed < 0 ? traces : traces.map((t, i) => (i > failed ? null : t));
}

/**
 * Starts the subscription: checks the arguments and the range (errors are the subscribe call's
 * answer), then traces in the background, sending each block's result with `emit`. Returns the
 * function that stops it (unsubscribe, or the connection closed).
 */
export function subscribeTraceChain(be: EvmBackend, params: unknown[], emit: (result: unknown) => void, onError: (e: unknown) => void): () => void {
  if (params.length > 4) throw new RpcError(-32602, 'too many arguments, want at most 4');
  const start = blockNumber(required(params, 1), 1);
  const end = blockNumber(required(params, 2), 2);
  const { name, cfg } = traceConfig(params, 3);
  const from = blockOf(be, start);
  const to = blockOf(be, end);
  if (from.header.number >= to.header.number) {
    throw new RpcError(-32000, `end block (#${blockNumberCode(end)}) needs to come after start block (#${blockNumberCode(start)})`);
  }
  // geth makes the tracer (and reads its timeout) for each transaction: a bad tracer or timeout
  // fails each block's first transaction.
  let timeoutError: string | undefined;
  try {
    traceTimeoutMs(cfg);
  } catch (e) {
    timeoutError = (e as Error).message;
  }
  let stopped = false;
  (async () => {
    // The tracer first, then the timeout (a JavaScript tracer is known good once its code has run).
    let configError: string | undefined;
    await validateTracer(name, cfg).then(
      () => (configError = timeoutError),
      (e: Error) => (configError = e.message),
    );
    for (let n = from.header.number + 1n; n <= to.header.number && !stopped; n++) {
      const block = be.chain.blockByNumber(n);
      if (!block) return; // the chain was rewound (evm_revert) meanwhile
      const traces = await chainBlockTraces(be, block, name, cfg, configError);
      if (stopped) return;
      if (traces.length > 0 || n === to.header.number) emit({ block: hexQ(n), hash: block.hashHex, traces });
    }
  })().catch(onError);
  return () => {
    stopped = true;
  };
}
