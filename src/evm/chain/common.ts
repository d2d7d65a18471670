// One ethereumjs Common per (chain, hardfork), built once: Subnet-EVM maps its upgrades onto
// geth forks (Durango = Shanghai, Etna = Cancun; never Prague), and native crypto is plugged in.
import { Common, Mainnet, createCustomCommon, type CustomCrypto, type ParamsDict } from '@ethereumjs/common';
import { paramsVM } from '@ethereumjs/vm';
import { paramsEVM } from '@ethereumjs/evm';
import { paramsTx } from '@ethereumjs/tx';
import { keccak256 } from '../crypto.js';
import { nativeEcrecover, nativeEcsign, nativeSecpAvailable } from './secp.js';

export type EvmFork = 'london' | 'shanghai' | 'cancun';

export function forkFor(rules: { isDurango: boolean; isEtna: boolean }): EvmFork {
  return rules.isEtna ? 'cancun' : rules.isDurango ? 'shanghai' : 'london';
}

export function customCrypto(): CustomCrypto {
  const c: CustomCrypto = { keccak256 };
  if (nativeSecpAvailable) {
    c.ecrecover = nativeEcrecover;
    c.ecsign = nativeEcsign as unknown as CustomCrypto['ecsign'];
  }
  return c;
}

/** Gas refunds disabled: Subnet-EVM never applies refunds (reference §7.8). max refund = used / 2^60 = 0. */
const NO_REFUNDS = { 1: { maxRefundQuotient: 2 ** 60 }, 3529: { maxRefundQuotient: 2 ** 60 } };

/**
 * The sets, merged per EIP in order, as `updateParams` applied one after another would merge
 * them (later values win; keys keep their first-seen order).
 */
export function mergeParams(sets: ParamsDict[]): ParamsDict {
  const out: ParamsDict = {};
  for (const set of sets) for (const [eip, values] of Object.entries(set)) out[eip] = { ...out[eip], ...values };
  return out;
}

/** What the tx, EVM and VM constructors would merge in, then our overrides. */
const CHAIN_PARAMS = mergeParams([paramsTx, paramsEVM, paramsVM, NO_REFUNDS]);

/**
 * Applies every params set the tx, EVM and VM constructors would merge in, then our overrides, and
 * makes later `updateParams` calls no-ops: ethereumjs re-merges (and rebuilds its params cache) in
 * every tx/EVM constructor, which is slow and would re-enable refunds (the EVM's params set them).
 * One `updateParams` of the merged sets: each call rebuilds the whole params cache (~0.8 ms).
 */
export function freezeParams(c: Common): void {
  c.updateParams(CHAIN_PARAMS);
  c.updateParams = () => {};
}

/**
 * Per fork, the one Common the process builds (the start-up snapshot holds the ones its rehearsal
 * built); a chain's is a copy of it. Building one runs ethereumjs's hardfork and params tables
 * (~1.6 ms of a start, in code that runs once); its `copy()`, ethereumjs's own, shares those
 * tables, which nothing changes in place once freezeParams has run (a hardfork or EIP change builds
 * new ones; ours never change).
 */
const templates = new Map<EvmFork, Common>();

function templateFor(fork: EvmFork): Common {
  let t = templates.get(fork);
  if (!t) {
    t = createCustomCommon({ chainId: '1', name: 'subnet-evm' }, Mainnet, { hardfork: fork });
    freezeParams(t);
    templates.set(fork, t);
  }
  return t;
}

/** Commons of one chain, one per fork, created lazily and shared. */
export class Commons {
  private readonly byFork = new Map<EvmFork, Common>();
  private readonly crypto = customCrypto();
  constructor(readonly chainId: bigint) {}

  get(fork: EvmFork): Common {
    let c = this.byFork.get(fork);
    if (!c) {
      c = templateFor(fork).copy();
      // The chain's own parameters (the chain id is the only one that differs) and crypto (a
      // template in the snapshot predates the restore, which picks the native secp256k1).
      const own = c as unknown as { _chainParams: Record<string, unknown>; customCrypto: CustomCrypto };
      own._chainParams = { ...own._chainParams, chainId: this.chainId.toString() };
      own.customCrypto = this.crypto;
      this.byFork.set(fork, c);
    }
    return c;
  }
}
