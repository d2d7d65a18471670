// One ethereumjs Common per (chain, hardfork), built once: Subnet-EVM maps its upgrades onto
// geth forks (Durango = Shanghai, Etna = Cancun; never Prague), and native crypto is plugged in.
import { Common, Mainnet, createCustomCommon, type CustomCrypto } from '@ethereumjs/common';
import { paramsVM } from '@ethereumjs/vm';
import { keccak256 } from '../crypto.js';
import { nativeEcrecover, nativeEcsign, nativeSecp } from './secp.js';

export type EvmFork = 'london' | 'shanghai' | 'cancun';

export function forkFor(rules: { isDurango: boolean; isEtna: boolean }): EvmFork {
  return rules.isEtna ? 'cancun' : rules.isDurango ? 'shanghai' : 'london';
}

export function customCrypto(): CustomCrypto {
  const c: CustomCrypto = { keccak256 };
  if (nativeSecp) {
    c.ecrecover = nativeEcrecover;
    c.ecsign = nativeEcsign as unknown as CustomCrypto['ecsign'];
  }
  return c;
}

/** VM params with gas refunds disabled: Subnet-EVM never applies refunds (reference §7.8). */
export function subnetEvmVmParams(): typeof paramsVM {
  const p = structuredClone(paramsVM) as typeof paramsVM;
  const huge = 2 ** 60;
  (p as Record<number, Record<string, unknown>>)[1].maxRefundQuotient = huge;
  (p as Record<number, Record<string, unknown>>)[3529].maxRefundQuotient = huge;
  return p;
}

/** Commons of one chain, one per fork, created lazily and shared. */
export class Commons {
  private readonly byFork = new Map<EvmFork, Common>();
  private readonly crypto = customCrypto();
  constructor(readonly chainId: bigint) {}

  get(fork: EvmFork): Common {
    let c = this.byFork.get(fork);
    if (!c) {
      c = createCustomCommon({ chainId: this.chainId.toString(), name: 'subnet-evm' }, Mainnet, {
        hardfork: fork,
        customCrypto: this.crypto,
      });
      this.byFork.set(fork, c);
    }
    return c;
  }
}
