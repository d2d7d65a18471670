// keccak256 for the EVM code (header hashes, tx hashes, state tries).
// Uses the `keccak` package's native binding (much faster than JS for the many small inputs of a
// trie); that package falls back to its own JS build when the binding cannot load, and if the package
// itself is missing we fall back to @noble/hashes (pulled in by @ethereumjs/*).
import { createRequire } from 'node:module';

type KeccakFactory = (alg: 'keccak256') => { update(b: Buffer): { digest(): Buffer } };

function loadNative(): KeccakFactory | undefined {
  try {
    return createRequire(import.meta.url)('keccak') as KeccakFactory;
  } catch {
    return undefined;
  }
}

const native = loadNative();
const noble = native
  ? undefined
  : ((await import('@noble/hashes/sha3.js')) as { keccak_256: (b: Uint8Array) => Uint8Array }).keccak_256;

/** keccak-256 of `bytes` (32 bytes). */
export function keccak256(bytes: Uint8Array): Uint8Array {
  if (native) {
    const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const out = native('keccak256').update(b).digest();
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  }
  return noble!(bytes);
}

/** Which implementation is in use ('native' or 'js'), for diagnostics. */
export const keccakImplementation: 'native' | 'js' = native ? 'native' : 'js';
