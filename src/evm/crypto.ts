// keccak256 for the EVM code (header hashes, tx hashes, state tries).
// Uses hash-wasm's WebAssembly keccak once it is compiled: a trie hashes many small inputs, and
// the WebAssembly call costs far less than the native binding's three N-API calls and Buffer per
// hash (measured: 0.8 vs 2.1 µs for 32–110 bytes, 2.4 vs 4.0 µs for a 532-byte branch node).
// WebAssembly compiles asynchronously, so until it is ready (and wherever it cannot load) the
// `keccak` package's native binding hashes; that package falls back to its own JS build when the
// binding cannot load, and if the package itself is missing we fall back to @noble/hashes (pulled
// in by @ethereumjs/*). Every path gives the same digests (crypto.test.ts).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
// Already loaded by @ethereumjs/util; a static import keeps this module free of top-level await.
import { keccak_256 as nobleKeccak256 } from '@noble/hashes/sha3.js';
import type { IHasher } from 'hash-wasm';
import hashWasmKeccak from 'hash-wasm/dist/keccak.umd.min.js';
import { afterRestore, buildingSnapshot } from '../snapshot.js';

type KeccakFactory = (alg: 'keccak256') => { update(b: Buffer): { digest(): Buffer } };

function loadNative(): KeccakFactory | undefined {
  try {
    return createRequire(import.meta.url)('keccak') as KeccakFactory;
  } catch {
    return undefined;
  }
}

interface KeccakState {
  initialize(rate: number, capacity: number): void;
  absorb(b: Buffer): void;
  squeeze(n: number): Buffer;
}

/**
 * The `keccak` package's native sponge without its stream wrapper: `keccak('keccak256')` builds a
 * readable-stream Transform per hash, which costs more than hashing a trie node. One state is
 * reused (hashing is synchronous, so it is never shared by two hashes at once).
 */
function loadSponge(): KeccakState | undefined {
  try {
    const req = createRequire(import.meta.url);
    const dir = dirname(req.resolve('keccak/package.json'));
    const State = (glibcPrebuild(req, dir) ?? createRequire(join(dir, 'package.json'))('node-gyp-build')(dir)) as new () => KeccakState;
    const st = new State();
    st.initialize(1088, 512);
    // Self-check against the empty-input digest before trusting it.
    const empty = st.squeeze(32).toString('hex');
    st.initialize(1088, 512);
    return empty === 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470' ? st : undefined;
  } catch {
    return undefined;
  }
}

/**
 * On glibc Linux the binding is the package's `prebuilds/linux-<arch>/node.napi.glibc.node`;
 * requiring it directly skips node-gyp-build's search (~3 ms of the cold start). Anything else
 * (musl, another system, a local build) goes through node-gyp-build.
 */
function glibcPrebuild(req: NodeRequire, dir: string): unknown {
  if (process.platform !== 'linux') return undefined;
  try {
    return req(join(dir, 'prebuilds', `linux-${process.arch}`, 'node.napi.glibc.node'));
  } catch {
    return undefined;
  }
}

let sponge: KeccakState | undefined;
let native: KeccakFactory | undefined;
let noble: typeof nobleKeccak256 | undefined = nobleKeccak256;
let wasm: IHasher | undefined;
const EMPTY_DIGEST = 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';

/** Resolves once the WebAssembly keccak hashes (or could not load: the other paths go on). */
export let wasmKeccakReady: Promise<boolean> = Promise.resolve(false);

function loadHashers(): void {
  sponge = loadSponge();
  native = sponge ? undefined : loadNative();
  noble = native || sponge ? undefined : nobleKeccak256;
  wasmKeccakReady = hashWasmKeccak.createKeccak(256).then(
    (h) => {
      h.init();
      if (Buffer.from(h.digest('binary')).toString('hex') !== EMPTY_DIGEST) return false;
      wasm = h;
      return true;
    },
    () => false,
  );
}
// The native sponge and the WebAssembly instance cannot be part of a start-up snapshot: while one
// is built, @noble/hashes hashes, and a process started from it loads them first thing.
if (buildingSnapshot) afterRestore(loadHashers);
else loadHashers();

/** keccak-256 of `bytes` (32 bytes). */
export function keccak256(bytes: Uint8Array): Uint8Array {
  if (wasm) {
    wasm.init();
    wasm.update(bytes);
    return wasm.digest('binary');
  }
  return keccak256WithoutWasm(bytes);
}

/** keccak-256 by the native binding (or JS where it cannot load): the path before WebAssembly is ready. */
export function keccak256WithoutWasm(bytes: Uint8Array): Uint8Array {
  if (sponge) {
    sponge.absorb(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const out = sponge.squeeze(32);
    sponge.initialize(1088, 512);
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  }
  if (native) {
    const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const out = native('keccak256').update(b).digest();
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  }
  return noble!(bytes);
}

/** Which implementation is in use, for diagnostics. */
export function keccakImplementation(): 'wasm' | 'native' | 'js' {
  return wasm ? 'wasm' : sponge || native ? 'native' : 'js';
}
