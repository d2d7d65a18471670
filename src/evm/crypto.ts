// keccak256 for the EVM code (header hashes, tx hashes, state tries).
// hash-wasm's WebAssembly keccak hashes: a trie hashes many small inputs, and one WebAssembly call
// costs far less than the native binding's three N-API calls and Buffer per hash (measured: 0.8 vs
// 2.1 µs for 32–110 bytes, 2.4 vs 4.0 µs for a 532-byte branch node). hash-wasm's own API compiles
// the module asynchronously, too late for the genesis a start hashes, so the module (4 KB) is
// compiled synchronously here (~0.6 ms, where loading the native binding took 1.7–4.2 ms of a
// profiled start; docs/performance.md, session 34) and driven through the exports hash-wasm's build uses.
// Where it cannot load, the `keccak` package's native binding hashes (that package falls back to
// its own JS build when the binding cannot load), and if the package itself is missing
// @noble/hashes (pulled in by @ethereumjs/*). Every path gives the same digests (crypto.test.ts).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
// Already loaded by @ethereumjs/util; a static import keeps this module free of top-level await.
import { keccak_256 as nobleKeccak256 } from '@noble/hashes/sha3.js';
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
    return empty === EMPTY_DIGEST ? st : undefined;
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

// The part of the WebAssembly global used here (the project's type libraries do not declare it).
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
};

/** The exports of hash-wasm's keccak module (its lib/WASMInterface.ts drives the same ones). */
interface KeccakExports {
  memory: { buffer: ArrayBuffer };
  Hash_GetBuffer(): number;
  Hash_Init(bits: number): void;
  Hash_Update(length: number): void;
  Hash_Final(padding: number): void;
  Hash_Calculate(length: number, bits: number, padding: number): void;
}
/** The module's input buffer (hash-wasm's MAX_HEAP); the digest is written at its start. */
const WASM_BUFFER = 16 * 1024;
/** The padding byte that makes hash-wasm's sponge keccak, not SHA-3 (its createKeccak's 0x01). */
const KECCAK_PADDING = 0x01;

/**
 * The WebAssembly binary of hash-wasm's keccak, from its stand-alone build (the base64 literal
 * rollup inlined there; the package exports no other way to it). Read when this module loads, so a
 * start-up snapshot carries the bytes and a start only compiles them.
 */
function readKeccakWasm(): Uint8Array | undefined {
  try {
    const file = createRequire(import.meta.url).resolve('hash-wasm/dist/keccak.umd.min.js');
    const data = /\{name:"sha3",data:"([A-Za-z0-9+/]+=*)"/.exec(readFileSync(file, 'latin1'))?.[1];
    return data ? new Uint8Array(Buffer.from(data, 'base64')) : undefined;
  } catch {
    return undefined;
  }
}
const keccakWasm = readKeccakWasm();

const EMPTY_DIGEST = 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';
const ABC_DIGEST = '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45';

/** hash-wasm's keccak-256, compiled and instantiated synchronously; undefined where it cannot run. */
function loadWasm(): ((bytes: Uint8Array) => Uint8Array) | undefined {
  if (!keccakWasm || typeof WebAssembly !== 'object') return undefined;
  try {
    const x = new WebAssembly.Instance(new WebAssembly.Module(keccakWasm), {}).exports as unknown as KeccakExports;
    const at = x.Hash_GetBuffer();
    let view = new Uint8Array(x.memory.buffer, at, WASM_BUFFER);
    const hash = (bytes: Uint8Array): Uint8Array => {
      if (view.byteLength === 0) view = new Uint8Array(x.memory.buffer, at, WASM_BUFFER); // the memory grew (detached)
      if (bytes.length < WASM_BUFFER) {
        view.set(bytes);
        x.Hash_Calculate(bytes.length, 256, KECCAK_PADDING);
      } else {
        x.Hash_Init(256);
        for (let i = 0; i < bytes.length; i += WASM_BUFFER) {
          const chunk = bytes.subarray(i, i + WASM_BUFFER);
          view.set(chunk);
          x.Hash_Update(chunk.length);
        }
        x.Hash_Final(KECCAK_PADDING);
      }
      return view.slice(0, 32);
    };
    // Trusted only if it gives keccak's digests (a hash-wasm update could change its exports).
    // Known digests, not @noble/hashes': its first, uncompiled hashes would cost ~3 ms of a start.
    const digest = (text: string) => Buffer.from(hash(Buffer.from(text))).toString('hex');
    return digest('') === EMPTY_DIGEST && digest('abc') === ABC_DIGEST ? hash : undefined;
  } catch {
    return undefined;
  }
}

let wasm: ((bytes: Uint8Array) => Uint8Array) | undefined;
let sponge: KeccakState | undefined;
let native: KeccakFactory | undefined;
let noble: typeof nobleKeccak256 | undefined = nobleKeccak256;
let fallbackLoaded = false;
let hashersLoaded = false; // false while a snapshot is built: @noble/hashes hashes then

/** The native binding (or noble): loaded at start only where the WebAssembly keccak cannot run. */
function loadFallback(): void {
  fallbackLoaded = true;
  sponge = loadSponge();
  native = sponge ? undefined : loadNative();
  noble = native || sponge ? undefined : nobleKeccak256;
}

function loadHashers(): void {
  hashersLoaded = true;
  wasm = loadWasm();
  if (!wasm) loadFallback();
}
// A WebAssembly instance or a native binding cannot be part of a start-up snapshot: while one is
// built, @noble/hashes hashes, and a process started from it loads them first thing.
if (buildingSnapshot) afterRestore(loadHashers);
else loadHashers();

/** keccak-256 of `bytes` (32 bytes). */
export function keccak256(bytes: Uint8Array): Uint8Array {
  return wasm ? wasm(bytes) : keccak256WithoutWasm(bytes);
}

/** keccak-256 by the native binding (or JS where it cannot load): the path where WebAssembly cannot run. */
export function keccak256WithoutWasm(bytes: Uint8Array): Uint8Array {
  if (!fallbackLoaded && hashersLoaded) loadFallback();
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
  return wasm ? 'wasm' : fallbackImplementation();
}

/** Which implementation keccak256WithoutWasm has loaded. */
export function fallbackImplementation(): 'native' | 'js' {
  return sponge || native ? 'native' : 'js';
}
