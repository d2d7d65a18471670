// The "admin" service (geth 1.13 eth/api_admin.go, see chainAdmin.md): admin_exportChain writes
// blocks RLP-encoded back to back (the debug_getRawBlock encoding), gzip-compressed when the file
// name ends in ".gz"; admin_importChain reads such a file and accepts its blocks on top of the
// head, each re-executed here and checked to be the very block of the file.
import { open, readFile, stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { RpcError } from '../rpc/server.js';
import { optUint64NumberArg } from '../rpc/params.js';
import type { Block } from '../chain/blockchain.js';
import type { EvmBackend } from './backend.js';
import type { MethodTable } from './eth.js';
import { blockRLP } from './eth.js';
import { BlockDecodeError, decodeBlock } from './blockFile.js';
import { goPathError } from '../../goPathError.js';
import { fileName } from './fileTracer.js';
import { ImportError, importBlock } from './importBlock.js';
import { dynamicImport } from '../../dynamicImport.js';

/** geth's importBatchSize for admin_importChain: blocks are parsed, then inserted, 2500 at a time. */
const IMPORT_BATCH = 2500;

const fail = (msg: string) => new RpcError(-32000, msg);

/** Writes `chunk`, waiting when the stream asks to (large chains do not pile up in memory). */
function write(w: Writable, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    w.once('error', onError);
    const ok = w.write(chunk, (e) => {
      if (e) return;
      if (ok) {
        w.off('error', onError);
        resolve();
      }
    });
    if (!ok)
      w.once('drain', () => {
        w.off('error', onError);
        resolve();
      });
  });
}

function end(w: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    w.once('error', reject);
    w.end(() => resolve());
  });
}

/** geth's BlockChain.ExportN: blocks first..last of the canonical chain, checked to link up. */
async function exportN(be: EvmBackend, w: Writable, first: bigint, last: bigint): Promise<void> {
  if (first > last) throw fail(`export failed: first (${first}) is greater than last (${last})`);
  let parentHash: Uint8Array | undefined;
  for (let n = first; n <= last; n++) {
    const b = be.chain.blockByNumber(n);
    if (!b) throw fail(`export failed on #${n}: not found`);
    if (n > first && parentHash && Buffer.compare(b.header.parentHash, parentHash) !== 0) throw fail('export failed: chain reorg during export');
    parentHash = b.hash;
    await write(w, blockRLP(b));
  }
}

async function exportChain(be: EvmBackend, file: string, first: bigint | undefined, last: bigint | undefined): Promise<boolean> {
  if (first === undefined && last !== undefined) throw fail('last cannot be specified without first');
  if (first !== undefined && last === undefined) last = be.chain.head.header.number;
  try {
    await stat(file);
    // Allowing an overwrite could be a DoS vector: 'file' may point anywhere on the drive.
    throw fail('location would overwrite an existing file');
  } catch (e) {
    if (e instanceof RpcError) throw e;
  }
  let fh;
  try {
    fh = await open(file, 'w', 0o777);
  } catch (e) {
    throw fail(goPathError('open', file, e));
  }
  const out = fh.createWriteStream();
  let w: Writable = out;
  const gz = file.endsWith('.gz') ? (await zlib()).createGzip() : undefined;
  if (gz) {
    gz.pipe(out);
    w = gz;
  }
  const done = new Promise<void>((resolve, reject) => {
    out.once('close', resolve);
    out.once('error', reject);
  });
  try {
    // geth: the file is created first, then filled; a failed export leaves what was written
    if (first !== undefined) await exportN(be, w, first, last!);
    else await exportN(be, w, 0n, be.chain.head.header.number);
  } finally {
    await end(w);
    await done;
  }
  return true;
}

/** node:zlib, loaded with the first gzip file rather than at every start (~1.5 ms). */
const zlib = () => dynamicImport<typeof import('node:zlib')>('node:zlib');

/**
 * The file's bytes, gunzipped when its name ends in ".gz" (geth's gzip.NewReader). geth decodes
 * blocks while it reads, so a gzip file cut short gives the blocks before the cut: here the bytes
 * inflated up to it, which then end like a plain file's (a block cut in two is `unexpected EOF`,
 * a cut between blocks ends the import as a clean end would: rlp.Stream takes
 * io.ErrUnexpectedEOF before a value for the end of its input).
 */
async function readChainFile(file: string): Promise<Uint8Array> {
  let raw: Uint8Array;
  try {
    raw = await readFile(file);
  } catch (e) {
    throw fail(goPathError('open', file, e));
  }
  if (!file.endsWith('.gz')) return raw;
  if (raw.length === 0) throw fail('EOF');
  if (raw.length < 10 || raw[0] !== 0x1f || raw[1] !== 0x8b || raw[2] !== 8) throw fail('gzip: invalid header');
  const z = await zlib();
  try {
    return z.gunzipSync(raw);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // Cut short: what inflates before the end (the sync flush hands it out instead of failing).
    if (code === 'Z_BUF_ERROR') return z.gunzipSync(raw, { finishFlush: z.constants.Z_SYNC_FLUSH });
    throw fail(code === 'Z_DATA_ERROR' ? 'gzip: invalid checksum' : (e as Error).message);
  }
}

async function importChain(be: EvmBackend, file: string): Promise<boolean> {
  const chain = be.chain;
  let input = await readChainFile(file);
  let index = 0;
  for (let batch = 0; ; batch++) {
    const blocks: Block[] = [];
    while (blocks.length < IMPORT_BATCH && input.length > 0) {
      try {
        const d = decodeBlock(chain, input, 'stream');
        blocks.push(d.block);
        input = d.rest;
      } catch (e) {
        if (e instanceof BlockDecodeError) throw fail(`block ${index}: failed to parse: ${e.message}`);
        throw e;
      }
      index++;
    }
    if (blocks.length === 0) break;
    const known = (b: Block) => chain.blockByNumber(b.header.number)?.hashHex === b.hashHex;
    if (blocks.every(known)) continue;
    // One batch under the mining lock: the automine and the test controls wait for it.
    const release = await be.miner.lock.acquire();
    try {
      for (const b of blocks) {
        if (known(b)) continue; // geth skips the blocks it already has
        try {
          await importBlock(be, b);
        } catch (e) {
          if (e instanceof ImportError) throw fail(`batch ${batch}: failed to insert: ${e.message}`);
          throw e;
        }
      }
    } finally {
      release();
    }
  }
  return true;
}

export function chainAdminMethods(be: EvmBackend): MethodTable {
  const m: MethodTable = new Map();
  m.set('admin_exportChain', (p) => {
    const file = fileName(p, 0);
    const first = optUint64NumberArg(p, 1);
    const last = optUint64NumberArg(p, 2);
    return exportChain(be, file, first, last);
  });
  m.set('admin_importChain', (p) => importChain(be, fileName(p, 0)));
  return m;
}
