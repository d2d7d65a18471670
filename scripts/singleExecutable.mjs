// dist/powder-node: Node.js's single executable application (SEA) of Powder with the start-up
// snapshot inside — a copy of the `node` binary that built it, the snapshot injected into it with
// postject, as Node's docs describe (https://nodejs.org/api/single-executable-applications.html).
//
// Why: `node --snapshot-blob <file>` (Node 20) reads the whole blob into a zero-filled buffer, then
// copies V8's part out of it again; every page of both is a page fault. A SEA finds the snapshot in
// its own mapped image: pages of a file already in the page cache, mapped many per fault. On a host
// whose faults cost ~10 µs each a start made 440–980 fewer faults (the fewer when the page cache
// holds only what processes read, not the whole freshly built file) and took 161 → 144 ms
// (docs/performance.md, session 45).
//
// What it cannot do in Node 20: take V8 flags on its command line (every argument is the
// application's). The one heap flag a start needs before its heap exists, --max-semi-space-size,
// comes through NODE_OPTIONS (bin/powder sets it; the snapshot is built with the same flag, since a
// snapshot loads only under its own flags), and scripts/snapshot.cjs sets the others from
// JavaScript when it runs as the SEA, as bin/powder.js does. --min-semi-space-size is not allowed
// in NODE_OPTIONS: a start from the SEA makes one young-generation collection more (~0.8 ms).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { keepBuiltinCodeCache } from './snapshotCodeCache.mjs';

/** The NODE_OPTIONS bin/powder starts the SEA with; also the SEA snapshot's build flags (scripts/snapshot.cjs removes it from process.env). */
export const SEA_NODE_OPTIONS = '--max-semi-space-size=8';
/** The fuse Node's binary carries; postject flips it so the binary looks for its SEA blob. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/*
 * The SEA preparation blob (`node --experimental-sea-config`, Node 20's SeaSerializer): a magic
 * number and flags (uint32 each), the main script's path and the main script or snapshot (each a
 * size_t length, then the bytes), then the code cache and assets when their flags are set. With a
 * snapshot neither is written, so the snapshot ends the blob, and with it the snapshot's own
 * built-in code-cache section (scripts/snapshotCodeCache.mjs).
 */
const SEA_MAGIC = 0x143da20;
const USE_SNAPSHOT = 1 << 1;
const FIELDS_AFTER_SNAPSHOT = (1 << 2) | (1 << 3); // code cache, assets

/** Where the snapshot is in a SEA preparation blob that ends with it, or undefined. */
export function seaSnapshotRange(blob) {
  if (blob.length < 24 || blob.readUInt32LE(0) !== SEA_MAGIC) return undefined;
  const flags = blob.readUInt32LE(4);
  if (!(flags & USE_SNAPSHOT) || flags & FIELDS_AFTER_SNAPSHOT) return undefined;
  const pathLength = Number(blob.readBigUInt64LE(8));
  const at = 16 + pathLength;
  if (at + 8 > blob.length) return undefined;
  const length = Number(blob.readBigUInt64LE(at));
  return at + 8 + length === blob.length ? { lengthAt: at, start: at + 8, end: blob.length } : undefined;
}

/** Trims the snapshot's built-in code cache in a SEA preparation blob as in a plain blob, and fixes the snapshot's length. */
export function keepSeaBuiltinCodeCache(file, keep) {
  const range = seaSnapshotRange(readFileSync(file));
  if (!range) return undefined;
  const trimmed = keepBuiltinCodeCache(file, keep);
  if (!trimmed) return undefined;
  const blob = readFileSync(file);
  blob.writeBigUInt64LE(BigInt(blob.length - range.start), range.lengthAt);
  writeFileSync(file, blob);
  return trimmed;
}

/**
 * Builds dist/powder-node from scripts/snapshot.cjs, or leaves none and says why (bin/powder then
 * starts from dist/powder.snapshot.blob). `keepCodeCache(heldFile)` gives the built-in modules
 * whose code cache to keep (undefined: all). Kept only once it has answered `--version`.
 */
export function makeSingleExecutable({ root, env, keepCodeCache }) {
  const exe = join(root, 'dist/powder-node');
  const config = join(root, 'dist/powder.sea.json');
  const prep = join(root, 'dist/powder.sea.blob');
  const heldFile = join(root, 'dist/powder.sea.builtins.json');
  const candidate = `${exe}.tmp`;
  const cleanUp = () => [config, prep, heldFile, candidate].forEach((f) => rmSync(f, { force: true }));
  rmSync(exe, { force: true });
  const skip = (why) => {
    cleanUp();
    console.warn(`bundle: no single executable (${why}); bin/powder starts from dist/powder.snapshot.blob`);
  };
  if (!process.versions.node.startsWith('20.')) return skip(`Node.js ${process.versions.node}: its SEA blob's layout is not the one read here`);
  // macOS needs the binary's signature removed and remade, and Windows runs bin/powder.js (start.cjs).
  if (process.platform !== 'linux') return skip(`made on Linux only, not ${process.platform}`);
  let postject;
  try {
    postject = join(createRequire(import.meta.url).resolve('postject/package.json'), '..', 'dist/cli.js');
  } catch {
    return skip('the postject package is not installed (a dev dependency)');
  }
  writeFileSync(config, JSON.stringify({ main: join(root, 'scripts/snapshot.cjs'), output: prep, useSnapshot: true, disableExperimentalSEAWarning: true }));
  const made = spawnSync(process.execPath, [SEA_NODE_OPTIONS, '--experimental-sea-config', config], { env: { ...env, POWDER_SNAPSHOT_BUILTINS: heldFile }, encoding: 'utf8', timeout: 120_000 });
  if (made.status !== 0 || !existsSync(prep)) return skip(firstLines(made));
  const keep = keepCodeCache(heldFile);
  if (keep && !keepSeaBuiltinCodeCache(prep, (id) => keep.has(id))) console.warn("bundle: the single executable keeps all built-in modules' code cache (no snapshot at the end of its blob)");
  copyFileSync(process.execPath, candidate);
  chmodSync(candidate, 0o755);
  // postject's own output (LIEF's warnings about the binary's notes) only matters when it fails.
  const injected = spawnSync(process.execPath, [postject, candidate, 'NODE_SEA_BLOB', prep, '--sentinel-fuse', SEA_FUSE], { encoding: 'utf8', timeout: 120_000 });
  if (injected.status !== 0) return skip(`postject: ${firstLines(injected)}`);
  const check = spawnSync(candidate, ['--version'], { env: { ...env, NODE_OPTIONS: SEA_NODE_OPTIONS }, encoding: 'utf8', timeout: 30_000 });
  if (check.status !== 0 || !/powder/.test(check.stdout)) return skip(`a start from it failed: ${firstLines(check)}`);
  renameSync(candidate, exe);
  cleanUp();
}

function firstLines(r) {
  const lines = `${r.error?.message ?? ''}\n${r.stderr ?? ''}\n${r.stdout ?? ''}`.split('\n').filter((l) => /\S/.test(l) && !/Warning|may still work|issue tracker|--trace-warnings|string offset/.test(l));
  return lines.slice(0, 3).join(' / ').slice(0, 400) || `exit ${r.status}`;
}
