// The "debug-file-tracer" service (geth 1.13 eth/tracers/api.go, see fileTracer.md):
// debug_traceBlockFromFile, debug_standardTraceBlockToFile, debug_standardTraceBadBlockToFile.
import { open, readFile } from 'node:fs/promises';
import { writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { RpcError } from '../rpc/server.js';
import { arg, decodeHash, fieldOf, jsonKind } from '../rpc/params.js';
import { validateTracer } from '../tracers/index.js';
import type { Block } from '../chain/blockchain.js';
import type { EvmBackend } from './backend.js';
import type { MethodTable } from './eth.js';
import { hash32, invalidArg, required } from './args.js';
import { LOGGER_CONFIG_FIELDS, checkLoggerField, traceBlockWithConfig, traceConfig } from './debug.js';
import { replayBlock } from './replay.js';
import { hexD } from './format.js';
import { BlockDecodeError, decodeBlock } from './blockFile.js';
import { goPathError } from '../../goPathError.js';
import { JsonLogger } from './jsonLogger.js';
import { memberLiteral } from '../rpc/rawNumbers.js';

/** geth's StdTraceConfig: logger.Config (embedded), Reexec, TxHash. */
interface StdTraceConfig {
  enableMemory: boolean;
  disableStack: boolean;
  enableReturnData: boolean;
  txHash?: string;
}

const STD_FIELDS: Record<string, readonly [goName: string, type: 'bool' | 'int' | 'uint64' | 'object' | 'hash']> = {
  ...LOGGER_CONFIG_FIELDS,
  reexec: ['Reexec', 'uint64'],
  txhash: ['TxHash', 'hash'],
};

const ZERO_HASH = '0x' + '0'.repeat(64);

/** Decodes param `i` as a *tracers.StdTraceConfig, with Go's errors (keys match without case). */
function stdTraceConfig(p: unknown[], i: number): StdTraceConfig {
  const out: StdTraceConfig = { enableMemory: false, disableStack: false, enableReturnData: false };
  const v = p[i];
  if (v === undefined || v === null) return out;
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidArg(i, `json: cannot unmarshal ${jsonKind(v)} into Go value of type tracers.StdTraceConfig`);
  for (const [k, value] of Object.entries(v as Record<string, unknown>)) {
    const f = fieldOf(STD_FIELDS, k);
    if (!f || value === null) continue;
    const [goName, type] = f;
    const bad = (what: string, goType: string) => invalidArg(i, `json: cannot unmarshal ${what} into Go struct field StdTraceConfig.${goName} of type ${goType}`);
    if (type === 'hash') {
      // common.Hash decodes itself: its errors are not wrapped with the field name
      out.txHash = arg(i, () => decodeHash(value)).toLowerCase();
      if (out.txHash === ZERO_HASH) out.txHash = undefined; // geth: the zero hash means "all"
      continue;
    }
    checkLoggerField(type, value, bad, memberLiteral(v, k));
    if (goName === 'EnableMemory') out.enableMemory = value as boolean;
    if (goName === 'DisableStack') out.disableStack = value as boolean;
    if (goName === 'EnableReturnData') out.enableReturnData = value as boolean;
  }
  return out;
}

/** geth's api.blockByNumberAndHash for a block's parent, with its error texts. */
function parentOf(be: EvmBackend, block: Block): Block {
  const chain = be.chain;
  if (block.header.number === 0n) throw new RpcError(-32000, 'genesis is not traceable');
  const n = block.header.number - 1n;
  const byNumber = chain.blockByNumber(n);
  if (!byNumber) throw new RpcError(-32000, `block #${n} not found`);
  if (Buffer.compare(byNumber.hash, block.header.parentHash) === 0) return byNumber;
  const byHash = chain.blockByHash(block.header.parentHash);
  if (!byHash) throw new RpcError(-32000, `block ${hexD(block.header.parentHash)} not found`);
  return byHash;
}

/** os.CreateTemp(os.TempDir(), prefix): prefix + a random decimal, created exclusively (0600). */
async function createTemp(prefix: string): Promise<{ path: string; writeSync(text: string): void; close(): Promise<void> }> {
  const dir = tmpdir();
  for (let tries = 0; ; tries++) {
    const path = join(dir, prefix + randomInt(0, 2 ** 32 - 1).toString());
    try {
      const fh = await open(path, 'wx', 0o600);
      // Written synchronously while the tx runs: the EVM holds the event loop meanwhile, so queued
      // asynchronous writes would only pile up in memory.
      return { path, writeSync: (t) => void writeSync(fh.fd, t), close: () => fh.close() };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && tries < 10000) continue;
      throw new RpcError(-32000, goPathError('open', path, e));
    }
  }
}

/** geth's standardTraceBlockToFile: one EIP-3155 trace file per traced tx; returns the paths. */
async function standardTraceBlockToFile(be: EvmBackend, block: Block, cfg: StdTraceConfig): Promise<string[]> {
  const chain = be.chain;
  const txs = chain.txsOf(block);
  const hashes = txs.map((tx) => hexD(tx.hash()));
  if (cfg.txHash !== undefined && !hashes.includes(cfg.txHash)) throw new RpcError(-32000, `transaction ${cfg.txHash} not found in block`);
  parentOf(be, block);
  const { vm, run } = await replayBlock(be, block);
  const dumps: string[] = [];
  const blockPrefix = block.hashHex.slice(0, 10);
  for (let i = 0; i < txs.length; i++) {
    const traced = cfg.txHash === undefined || cfg.txHash === hashes[i];
    let logger: JsonLogger | undefined;
    let file: Awaited<ReturnType<typeof createTemp>> | undefined;
    if (traced) {
      file = await createTemp(`block_${blockPrefix}-${i}-${hashes[i].slice(0, 10)}-`);
      dumps.push(file.path);
      const out = file;
      logger = new JsonLogger(cfg, (text) => out.writeSync(text));
      logger.attach(vm.evm as never);
    }
    try {
      await run(i);
    } catch (e) {
      throw new RpcError(-32000, (e as Error).message);
    } finally {
      logger?.detach();
      if (file) {
        try {
          logger?.finish();
        } finally {
          await file.close();
        }
      }
    }
    if (cfg.txHash === hashes[i]) break;
  }
  return dumps;
}

export function fileTracerMethods(be: EvmBackend): MethodTable {
  const m: MethodTable = new Map();
  const chain = be.chain;

  m.set('debug_traceBlockFromFile', async (p) => {
    const file = fileName(p, 0);
    const { name, cfg } = traceConfig(p, 1);
    let blob: Uint8Array;
    try {
      blob = await readFile(file);
    } catch (e) {
      throw new RpcError(-32000, `could not read file: ${goPathError('open', file, e)}`);
    }
    let block: Block;
    try {
      block = decodeBlock(chain, blob).block;
    } catch (e) {
      if (e instanceof BlockDecodeError) throw new RpcError(-32000, `could not decode block: ${e.message}`);
      throw e;
    }
    parentOf(be, block);
    await validateTracer(name, cfg); // a bad tracer name fails before any tx runs
    return traceBlockWithConfig(be, block, name, cfg);
  });

  m.set('debug_standardTraceBlockToFile', async (p) => {
    const h = hash32(required(p, 0), 0);
    const cfg = stdTraceConfig(p, 1);
    const block = chain.blockByHash(Buffer.from(h.slice(2), 'hex'));
    if (!block) throw new RpcError(-32000, `block ${h} not found`);
    return standardTraceBlockToFile(be, block, cfg);
  });

  // geth traces a block it stored when its import failed; Powder builds every block itself and
  // has none (debug_getBadBlocks is []).
  m.set('debug_standardTraceBadBlockToFile', (p) => {
    const h = hash32(required(p, 0), 0);
    stdTraceConfig(p, 1);
    throw new RpcError(-32000, `bad block ${h} not found`);
  });
  return m;
}

/** A Go `string` param: absent → missing; null → "" (Go leaves the zero value). */
export function fileName(p: unknown[], i: number): string {
  const v = required(p, i);
  if (v === null) return '';
  if (typeof v !== 'string') throw invalidArg(i, `json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
  return v;
}
