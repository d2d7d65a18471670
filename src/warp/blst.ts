// The native BLS library (@chainsafe/blst). Its own loader asks `process.report.getReport()`
// whether libc is musl before picking a binary: ~7 ms of a ~150 ms cold start (requiring the
// binary's package directly: ~1.5 ms). On Linux x64 the glibc binary's package is required
// directly; if it is missing or does not load (musl), or elsewhere, the package's loader decides.
// Loaded on first use (warp signing and checks, validators given BLS keys): a start needs none of it.
import { createRequire } from 'node:module';

type Blst = typeof import('@chainsafe/blst');

function load(): Blst {
  const require = createRequire(import.meta.url);
  if (process.platform === 'linux' && process.arch === 'x64') {
    try {
      return require('@chainsafe/blst-linux-x64-gnu') as Blst;
    } catch {
      // not installed here, or a musl system: the package's own loader below
    }
  }
  return require('@chainsafe/blst') as Blst;
}

let loaded: Blst | undefined;

/** The BLS library, loaded by the first call. */
export function blst(): Blst {
  return (loaded ??= load());
}
export type PublicKey = import('@chainsafe/blst').PublicKey;
export type Signature = import('@chainsafe/blst').Signature;
