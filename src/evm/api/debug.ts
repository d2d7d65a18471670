// debug_* (services "debug-tracer" and "internal-debug") and txpool_* ("internal-tx-pool").
import { RLP } from '@ethereumjs/rlp';
import { RpcError, type RpcMethod } from '../rpc/server.js';
import { fieldOf, jsonKind, uint64NumberArg } from '../rpc/params.js';
import { memberLiteral } from '../rpc/rawNumbers.js';
import { createTracer, validateTracer, type Tracer } from '../tracers/index.js';
import { JsTracerError } from '../tracers/jsTracer.js';
import type { Block } from '../chain/blockchain.js';
import { encodeHeader } from '../chain/header.js';
import { replayBlock } from './replay.js';
import { CallTimeoutError, withDeadline } from '../callDeadline.js';
import { parseDuration } from '../../config/flags.js';
import { blockNumber, blockNumberOrHash, hash32, invalidArg, opt, required } from './args.js';
import { CallPrecheckError, parseBlockOverrides, parseCallArgs, parseStateOverrides, type EvmBackend } from './backend.js';
import { blockRLP } from './eth.js';
import { hexD } from './format.js';
import type { MethodTable } from './eth.js';
import { txpoolMethods } from './txpoolApi.js';

/** logger.Config's fields (embedded in TraceConfig and StdTraceConfig) with their Go names and types. */
export const LOGGER_CONFIG_FIELDS = {
  enablememory: ['EnableMemory', 'bool'],
  disablestack: ['DisableStack', 'bool'],
  disablestorage: ['DisableStorage', 'bool'],
  enablereturndata: ['EnableReturnData', 'bool'],
  debug: ['Debug', 'bool'],
  limit: ['Limit', 'int'],
  overrides: ['overrides', 'object'],
} as const;

/** TraceConfig's own fields (and logger.Config's, embedded) with their Go names and types. */
const TRACE_CONFIG_FIELDS: Record<string, readonly [goName: string, type: 'bool' | 'int' | 'string' | 'uint64' | 'raw' | 'object']> = {
  ...LOGGER_CONFIG_FIELDS,
  tracer: ['Tracer', 'string'],
  timeout: ['Timeout', 'string'],
  reexec: ['Reexec', 'uint64'],
  tracerconfig: ['TracerConfig', 'raw'],
};

/**
 * geth's tracers.TraceConfig, decoded with the params as Go does (keys match without case; a value
 * of the wrong type is -32602 naming the struct field). The tracer's own `tracerConfig` is decoded
 * later, when the tracer is made (createTracer).
 */
export function traceConfig(p: unknown[], i: number, struct = 'TraceConfig'): { name?: string; cfg: unknown } {
  const v = p[i];
  if (v === undefined || v === null) return { cfg: {} };
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidArg(i, `json: cannot unmarshal ${Array.isArray(v) ? 'array' : jsonKind(v)} into Go value of type tracers.${struct}`);
  let name: string | undefined;
  for (const [k, value] of Object.entries(v as Record<string, unknown>)) {
    const f = fieldOf(TRACE_CONFIG_FIELDS, k);
    if (!f || value === null) continue;
    const [goName, type] = f;
    const bad = (what: string, goType: string) => invalidArg(i, `json: cannot unmarshal ${what} into Go struct field ${struct}.${goName} of type ${goType}`);
    if (type === 'string') {
      if (typeof value !== 'string') throw bad(jsonKind(value), 'string');
      if (goName === 'Tracer') name = value;
    } else if (type !== 'raw') {
      checkLoggerField(type, value, bad, memberLiteral(v, k));
    }
  }
  return { name, cfg: v };
}

/**
 * Go's decoding checks for the field kinds logger.Config brings to TraceConfig and StdTraceConfig
 * (`bad(what, goType)` makes the -32602 naming the struct field).
 */
export function checkLoggerField(type: 'bool' | 'int' | 'uint64' | 'object', value: unknown, bad: (what: string, goType: string) => Error, literal?: string): void {
  const kind = jsonKind(value);
  switch (type) {
    case 'bool':
      if (typeof value !== 'boolean') throw bad(kind, 'bool');
      break;
    case 'int':
    case 'uint64':
      if (typeof value !== 'number') throw bad(kind, type);
      checkInteger(literal ?? String(value), type, bad);
      break;
    case 'object':
      if (typeof value !== 'object' || Array.isArray(value)) throw bad(kind, 'params.ChainConfig');
      break;
  }
}

const INTEGER_RANGES = { int: [-(1n << 63n), (1n << 63n) - 1n], uint64: [0n, (1n << 64n) - 1n] } as const;

/**
 * Go's encoding/json storing a number into an int (int64) or uint64 field: strconv parses the
 * literal, so a fraction, an exponent, a sign on a uint64 (`-0`) or a value out of the type's
 * range is refused, the literal quoted as sent (the server keeps the texts of numbers in objects
 * directly in the params, src/evm/rpc/rawNumbers.ts; a number spelled as JavaScript prints it has
 * its own text).
 */
function checkInteger(literal: string, type: 'int' | 'uint64', bad: (what: string, goType: string) => Error): void {
  const [min, max] = INTEGER_RANGES[type];
  const ok = /^-?(0|[1-9][0-9]*)$/.test(literal) && !(type === 'uint64' && literal.startsWith('-')) && BigInt(literal) >= min && BigInt(literal) <= max;
  if (!ok) throw bad(`number ${literal}`, type);
}

/** geth's defaultTraceTimeout: a traced transaction still running after this long is stopped. */
export const DEFAULT_TRACE_TIMEOUT_MS = 5000;

/** geth's answer for a trace stopped at its timeout. */
export class TraceTimeoutError extends RpcError {
  constructor() {
    super(-32000, 'execution timeout');
  }
}

/**
 * TraceConfig.Timeout (a Go duration, parsed as geth's traceTx does with time.ParseDuration) in
 * ms; geth's 5 s without one. A tracer runs its transaction on the event loop, so this is also
 * what keeps one trace of a long loop from holding the node for minutes.
 */
export function traceTimeoutMs(cfg: unknown): number {
  let v: unknown;
  if (cfg !== null && typeof cfg === 'object') for (const k in cfg) if (k.toLowerCase() === 'timeout') v = (cfg as Record<string, unknown>)[k];
  if (v === undefined || v === null) return DEFAULT_TRACE_TIMEOUT_MS;
  let ms: number;
  try {
    ms = parseDuration(String(v));
  } catch (e) {
    throw new RpcError(-32000, (e as Error).message);
  }
  // A deadline already passed (0 or negative) stops whatever is still running at the first check.
  return Math.max(ms, 1);
}

/**
 * Re-executes `block` on its parent state; the tracer factory is applied to tx `only` (or all).
 * Each traced tx runs under geth's trace timeout (`timeoutMs`): one that is stopped is answered as
 * geth's traceTx answers it — `execution timeout`, as the call's error for one tx, as the tx's
 * `error` in a block's list (the noop tracer, which ignores the stop, still answers `{}`).
 */
export async function traceBlock(be: EvmBackend, block: Block, make: () => Tracer | Promise<Tracer>, only?: number, timeoutMs = DEFAULT_TRACE_TIMEOUT_MS, noop = false): Promise<unknown[]> {
  let replay = await replayBlock(be, block);
  const { txs } = replay;
  const out: unknown[] = [];
  for (let i = 0; i < txs.length; i++) {
    if (only !== undefined && i > only) break;
    const traced = only === undefined || only === i;
    const tracer = traced ? await make() : undefined;
    if (!tracer) {
      await replay.run(i);
      continue;
    }
    const { vm, run } = replay;
    const txHash = hexD(txs[i].hash());
    let result;
    try {
      tracer.attach(vm.evm as never, vm as never);
      tracer.txStart(txs[i].gasLimit, { blockHash: block.hashHex, blockNumber: block.header.number, txIndex: i, txHash });
      result = await withDeadline(vm.evm, timeoutMs, () => run(i));
    } catch (e) {
      tracer.detach();
      tracer.dispose?.();
      // Stopped at the timeout, or by a JavaScript tracer's failure (geth cancels the EVM then).
      const stopped = e instanceof CallTimeoutError;
      if (!stopped && !(e instanceof JsTracerError)) throw e;
      const error = stopped ? new TraceTimeoutError() : (e as JsTracerError);
      if (only !== undefined) {
        if (stopped && noop) return [{}];
        throw error;
      }
      out.push(stopped && noop ? { txHash, result: {} } : { txHash, error: error.message });
      // The stopped run left the replay's state mid-transaction: replay again up to this tx.
      replay = await replayBlock(be, block);
      for (let j = 0; j <= i; j++) await replay.run(j);
      continue;
    }
    tracer.txEnd(result.totalGasSpent);
    tracer.detach();
    let res;
    try {
      res = await tracer.result(); // before the next tx changes the state it may read
    } catch (e) {
      // A JavaScript tracer's failure is its tx's answer (geth's txTraceResult.Error in a block).
      if (!(e instanceof JsTracerError) || only !== undefined) throw e;
      out.push({ txHash, error: e.message });
      continue;
    } finally {
      tracer.dispose?.();
    }
    out.push(only === undefined ? { txHash, result: res } : res);
  }
  return out;
}

/**
 * geth's debug_intermediateRoots: the state root after each tx of the block (the last one is the
 * block's state root). A block without txs answers null (geth's nil slice). A tx that cannot be
 * applied ends the list there, without an error, as geth does.
 */
async function intermediateRoots(be: EvmBackend, block: Block): Promise<string[] | null> {
  const { sm, txs, run } = await replayBlock(be, block);
  if (txs.length === 0) return null;
  const roots: string[] = [];
  for (let i = 0; i < txs.length; i++) {
    try {
      await run(i);
    } catch {
      break;
    }
    roots.push(hexD(await sm.getStateRoot()));
  }
  return roots;
}

/** traceBlock with a TraceConfig's tracer and timeout (debug_traceBlockBy*, debug_traceBlockFromFile). */
export function traceBlockWithConfig(be: EvmBackend, block: Block, name: string | undefined, cfg: unknown): Promise<unknown[]> {
  return traceBlock(be, block, () => createTracer(name, cfg), undefined, traceTimeoutMs(cfg), name === 'noopTracer');
}

export function debugMethods(be: EvmBackend): { 'debug-tracer': MethodTable; 'internal-debug': MethodTable; 'internal-tx-pool': MethodTable } {
  const chain = be.chain;
  const tracer: MethodTable = new Map();
  tracer.set('debug_traceTransaction', async (p) => {
    const h = hash32(required(p, 0), 0);
    const { name, cfg } = traceConfig(p, 1);
    await validateTracer(name, cfg); // before the lookup, like geth's config decoding
    const found = chain.findTx(Buffer.from(h.slice(2), 'hex'));
    if (!found) throw new RpcError(-32000, 'transaction not found');
    const [r] = await traceBlock(be, found.block, () => createTracer(name, cfg), found.index, traceTimeoutMs(cfg), name === 'noopTracer');
    return r;
  });
  const byBlock = async (b: Block | null, p: unknown[]) => {
    const { name, cfg } = traceConfig(p, 1);
    await validateTracer(name, cfg);
    if (!b) throw new RpcError(-32000, 'block not found');
    return traceBlockWithConfig(be, b, name, cfg);
  };
  tracer.set('debug_traceBlockByNumber', (p) => byBlock(be.resolve(blockNumber(required(p, 0), 0)), p));
  tracer.set('debug_traceBlockByHash', (p) => byBlock(be.resolve({ kind: 'hash', hash: hash32(required(p, 0), 0), requireCanonical: false }), p));
  tracer.set('debug_traceCall', async (p) => {
    const args = parseCallArgs(required(p, 0), 0);
    const spec = opt(p, 1, blockNumberOrHash);
    const b = be.resolveForState(spec);
    const { name, cfg } = traceConfig(p, 2, 'TraceCallConfig');
    const t = await createTracer(name, cfg);
    try {
      const c = (p[2] ?? {}) as Record<string, unknown>;
      const overrides = parseStateOverrides(c.stateOverrides, 2);
      const blockOverrides = parseBlockOverrides(c.blockOverrides, 2);
      const timeoutMs = traceTimeoutMs(cfg);
      const out = await be.call(args, b, {
        overrides,
        blockOverrides,
        timeoutMs,
        timeoutError: () => new TraceTimeoutError(),
        trace: (vm) => {
          t.attach(vm.evm, vm);
          // The message's gas, as call() sets it (geth's ToMessage: capped; MaxUint64 / 2 without a cap).
          const cap = be.config.rpcGasCap;
          const gas = args.gas ?? (cap > 0n ? cap : 0x7fffffffffffffffn);
          t.txStart(cap > 0n && gas > cap ? cap : gas);
        },
      }).catch((e) => {
        // geth's traceTx: an error out of ApplyMessage (a failed pre-check) is `tracing failed: <error>`.
        if (e instanceof TraceTimeoutError && name === 'noopTracer') return undefined;
        throw e instanceof CallPrecheckError ? new RpcError(-32000, `tracing failed: ${e.message}`) : e;
      });
      if (out === undefined) {
        t.detach();
        return {}; // stopped at the timeout: the noop tracer answers regardless
      }
      t.txEnd(out.gasUsed);
      t.detach();
      return await t.result();
    } finally {
      t.dispose?.(); // a JavaScript tracer's engine, whichever way the call ended
    }
  });
  // geth looks the hash up among the bad blocks it stored when an import failed; a local node
  // builds every block itself and never imports one, so it has none.
  tracer.set('debug_traceBadBlock', (p) => {
    const h = hash32(required(p, 0), 0);
    traceConfig(p, 1); // decoded with the params; the tracer itself is only made for a block found
    throw new RpcError(-32000, `bad block ${h} not found`);
  });
  tracer.set('debug_intermediateRoots', (p) => {
    const h = hash32(required(p, 0), 0);
    traceConfig(p, 1); // only its reexec matters to geth, and every state is kept here
    const b = chain.blockByHash(Buffer.from(h.slice(2), 'hex'));
    if (!b) throw new RpcError(-32000, `block ${h} not found`);
    return intermediateRoots(be, b);
  });

  const internal: MethodTable = new Map();
  /** What geth's RPC panic guard answers when a handler dereferences the nil block it was given. */
  const NIL_BLOCK_PANIC = new RpcError(-32603, 'method handler crashed');
  /**
   * geth's DebugAPI.GetRaw*: a number (or tag) is looked up as a block (its errors as they are;
   * one past the head with allow-unfinalized-queries is a nil block geth dereferences, answered
   * as its panic guard does); a hash is looked up directly, and not found is
   * `<what> #%d not found` with the hash printed by Go's %d: its 32 bytes in decimal, `[171 171 …]`.
   */
  const rawLookup = (p: unknown[], what: 'header' | 'block'): Block => {
    const spec = blockNumberOrHash(required(p, 0), 0);
    const b = be.resolve(spec);
    if (b) return b;
    if (spec.kind !== 'hash') throw NIL_BLOCK_PANIC;
    const bytes = [...Buffer.from(spec.hash.slice(2), 'hex')].join(' ');
    throw new RpcError(-32000, `${what} #[${bytes}] not found`);
  };
  internal.set('debug_getRawHeader', (p) => hexD(encodeHeader(rawLookup(p, 'header').header)));
  internal.set('debug_getRawBlock', (p) => hexD(blockRLP(rawLookup(p, 'block'))));
  internal.set('debug_getRawReceipts', (p) => {
    const spec = blockNumberOrHash(required(p, 0), 0);
    const b = be.resolve(spec);
    // An unknown hash has no receipts (GetReceiptsByHash answers nil): `[]`.
    if (!b && spec.kind === 'hash') return [];
    if (!b) throw NIL_BLOCK_PANIC;
    return chain.receipts(b).map((r) => {
      const body = RLP.encode([r.status === 1 ? Uint8Array.of(1) : new Uint8Array(), bigBytes(r.cumulativeGasUsed), bloomOf(be, r.logs), r.logs.map((l) => [l.address, l.topics, l.data])] as never);
      return hexD(r.type === 0 ? body : Buffer.concat([Uint8Array.of(r.type), body]));
    });
  });
  internal.set('debug_getRawTransaction', (p) => {
    const h = hash32(required(p, 0), 0);
    const found = chain.findTx(Buffer.from(h.slice(2), 'hex'));
    if (found) return hexD(found.block.rawTxs[found.index]);
    const pt = be.pool.get(h);
    return pt ? hexD(pt.raw) : '0x';
  });
  internal.set('debug_printBlock', (p) => {
    const n = uint64NumberArg(p, 0); // a bare JSON number, as Go decodes a uint64
    const b = chain.blockByNumber(n);
    if (!b) throw new RpcError(-32000, `block #${n} not found`);
    return JSON.stringify({ hash: b.hashHex, number: Number(n), txs: b.rawTxs.length });
  });

  const txpool = txpoolMethods(be);

  return { 'debug-tracer': tracer, 'internal-debug': internal, 'internal-tx-pool': txpool };
}

import { keccak256 } from '../crypto.js';
import { logsBloom } from './format.js';
function bigBytes(n: bigint): Uint8Array {
  if (n === 0n) return new Uint8Array();
  let h = n.toString(16);
  if (h.length % 2) h = '0' + h;
  return Buffer.from(h, 'hex');
}
function bloomOf(_be: EvmBackend, logs: { address: Uint8Array; topics: Uint8Array[]; data: Uint8Array }[]): Uint8Array {
  return logsBloom(logs, keccak256);
}
export type { RpcMethod };
