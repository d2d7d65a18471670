// hash-wasm's stand-alone keccak build (11 KB, the WebAssembly inline): importing it instead of the
// package's index keeps its ~30 other algorithms out of the CLI bundle. A UMD file, so Node's ESM
// loader sees only its default export (module.exports).
declare module 'hash-wasm/dist/keccak.umd.min.js' {
  import type { createKeccak } from 'hash-wasm';
  const hashWasmKeccak: { createKeccak: typeof createKeccak };
  export default hashWasmKeccak;
}
