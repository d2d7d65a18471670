// Integration API of Subnet-EVM's stateful precompiles (see README.md beside this file).
import type { StateManagerInterface } from '@ethereumjs/common';
import type { EVM, PrecompileFunc } from '@ethereumjs/evm';
import { Account, Address } from '@ethereumjs/util';
import { checksum, fromHex } from './abi.js';
import {
  BLACKHOLE_ADDRESS,
  DEPLOYER_ALLOW_LIST_ADDRESS,
  FEE_MANAGER_ADDRESS,
  NATIVE_MINTER_ADDRESS,
  PRECOMPILE_ADDRESSES,
  REWARD_MANAGER_ADDRESS,
  TX_ALLOW_LIST_ADDRESS,
  WARP_ADDRESS,
  type PrecompileKey,
} from './addresses.js';
import { allowListFunctions, configureAllowList, isEnabledRole, readRole } from './allowlist.js';
import type { PrecompileConfig } from '../config/precompileConfigs.js';
import type { FeeConfig } from '../fees/feeConfig.js';
import { feeManagerPrecompile, readLastChangedAt, readStoredFeeConfig, storeFeeConfig } from './feeManager.js';
import { creditBalance, nativeMinterPrecompile } from './nativeMinter.js';
import {
  disableFeeRewards,
  enableAllowFeeRecipients,
  readRewardSlot,
  rewardManagerPrecompile,
  storeRewardAddress,
} from './rewardManager.js';
import { statefulPrecompile, wireEVM, type PrecompileEnv, type PrecompileRules } from './runtime.js';
import { warpPrecompile } from './warp.js';

export * from './addresses.js';
export { Role, roleName, readRole } from './allowlist.js';
export type { PrecompileEnv, PrecompileRules } from './runtime.js';
export { activePrecompileAddresses, txInvalidation } from './runtime.js';
export { addressedCallBytes, unsignedMessageBytes, warpMessageID, SEND_WARP_MESSAGE_TOPIC } from './warp.js';

const IMPLEMENTATIONS: ReadonlyMap<string, PrecompileFunc> = new Map([
  [DEPLOYER_ALLOW_LIST_ADDRESS, statefulPrecompile(DEPLOYER_ALLOW_LIST_ADDRESS, allowListFunctions())],
  [NATIVE_MINTER_ADDRESS, nativeMinterPrecompile],
  [TX_ALLOW_LIST_ADDRESS, statefulPrecompile(TX_ALLOW_LIST_ADDRESS, allowListFunctions())],
  [FEE_MANAGER_ADDRESS, feeManagerPrecompile],
  [REWARD_MANAGER_ADDRESS, rewardManagerPrecompile],
  [WARP_ADDRESS, warpPrecompile],
]);

function enabled(rules: PrecompileRules, address: string): boolean {
  return rules.precompiles.has(address);
}

const byRules = new WeakMap<PrecompileRules, ReadonlyMap<string, PrecompileFunc>>();

/** The stateful precompiles enabled under `rules` (lower-case address → ethereumjs function), cached per rules object. */
export function precompilesFor(rules: PrecompileRules): ReadonlyMap<string, PrecompileFunc> {
  let m = byRules.get(rules);
  if (!m) {
    const built = new Map<string, PrecompileFunc>();
    for (const [address, fn] of IMPLEMENTATIONS) if (enabled(rules, address)) built.set(address, fn);
    m = built;
    byRules.set(rules, m);
  }
  return m;
}

/**
 * Makes `evm` run Subnet-EVM's precompiles under `rules`: the enabled stateful precompiles, the
 * ContractDeployerAllowList gate on every CREATE/CREATE2, and P256Verify from Granite. Call it
 * once per EVM and again whenever the rules change (block start, eth_call at another block).
 */
export function configureEVM(evm: EVM, rules: PrecompileRules, env: PrecompileEnv): void {
  wireEVM(evm, rules, env, precompilesFor(rules), async (e, ctx, origin) =>
    checkDeployAllowed(e.stateManager, ctx.rules, origin),
  );
}

/** What activation needs from the chain config. */
export interface ActivationContext {
  blockNumber: bigint;
  /** genesis `config.feeConfig` (FeeManager stores it when `initialFeeConfig` is absent) */
  feeConfig: FeeConfig;
  /** chain `allowFeeRecipients` (RewardManager's default mode) */
  allowFeeRecipients: boolean;
}

/**
 * Enables one precompile in `state`: nonce 1, code 0x01, then its Configure (§8.1).
 * `cfg` is the parsed config of src/evm/config/precompileConfigs.ts (validated there).
 */
export async function activatePrecompile(state: StateManagerInterface, cfg: PrecompileConfig, ctx: ActivationContext): Promise<void> {
  const address = PRECOMPILE_ADDRESSES.get(cfg.key)!;
  const a = new Address(fromHex(address));
  const acc = (await state.getAccount(a)) ?? new Account();
  acc.nonce = 1n;
  await state.putAccount(a, acc);
  await state.putCode(a, new Uint8Array([1]));
  switch (cfg.key) {
    case 'warpConfig':
      return;
    case 'contractDeployerAllowListConfig':
    case 'txAllowListConfig':
      await configureAllowList(state, address, cfg);
      return;
    case 'contractNativeMinterConfig':
      for (const [to, amount] of cfg.initialMint ?? []) if (amount !== null && amount > 0n) await creditBalance(state, to, amount);
      await configureAllowList(state, address, cfg);
      return;
    case 'feeManagerConfig':
      // initialFeeConfig was validated with the config, so every field is present
      await storeFeeConfig(state, (cfg.initialFeeConfig as FeeConfig | undefined) ?? ctx.feeConfig, ctx.blockNumber);
      await configureAllowList(state, address, cfg);
      return;
    case 'rewardManagerConfig': {
      const init = cfg.initialRewardConfig;
      if (init) {
        if (init.allowFeeRecipients) await enableAllowFeeRecipients(state);
        else if (/^0x0{40}$/.test(init.rewardAddress)) await disableFeeRewards(state);
        else await storeRewardAddress(state, init.rewardAddress);
      } else if (ctx.allowFeeRecipients) await enableAllowFeeRecipients(state);
      else await disableFeeRewards(state);
      await configureAllowList(state, address, cfg);
      return;
    }
  }
}

/** Disables a precompile: its account is wiped like a self-destruct (code, nonce, balance, storage). */
export async function deactivatePrecompile(state: StateManagerInterface, key: PrecompileKey): Promise<void> {
  const a = new Address(fromHex(PRECOMPILE_ADDRESSES.get(key)!));
  await state.clearStorage(a);
  await state.deleteAccount(a);
}

/**
 * Applies every precompile config (genesis configs first, then upgrade.json's in array order)
 * whose `blockTimestamp` is in (parentTime, blockTime] — genesis: parentTime undefined —
 * by ascending precompile address (§6.4). Returns the configs applied. (Equivalent to running
 * `precompileActivations(cfg, parentTime, blockTime)` of src/evm/config through
 * activatePrecompile / deactivatePrecompile.)
 */
export async function applyPrecompileActivations(
  state: StateManagerInterface,
  configs: readonly PrecompileConfig[],
  parentTime: bigint | undefined,
  blockTime: bigint,
  ctx: ActivationContext,
): Promise<PrecompileConfig[]> {
  const due = configs.filter((c) => {
    const ts = c.blockTimestamp;
    return ts !== undefined && (parentTime === undefined || ts > parentTime) && ts <= blockTime;
  });
  const order = [...PRECOMPILE_ADDRESSES.keys()];
  due.sort((x, y) => order.indexOf(x.key) - order.indexOf(y.key)); // stable: keeps array order within a key
  for (const c of due) {
    await applyPrecompileConfig(state, c, ctx);
  }
  return due;
}

/** Activation or disable of one config, whichever it is. */
export async function applyPrecompileConfig(state: StateManagerInterface, cfg: PrecompileConfig, ctx: ActivationContext): Promise<void> {
  if (cfg.disable) await deactivatePrecompile(state, cfg.key);
  else await activatePrecompile(state, cfg, ctx);
}

/**
 * A state to read, or how to get it when a read is needed (a head's read view costs a trie and a
 * state manager to make; most blocks and pool checks never read precompile storage).
 */
export type StateSource = StateManagerInterface | (() => StateManagerInterface);
const stateOf = (src: StateSource): StateManagerInterface => (typeof src === 'function' ? src() : src);

/** TxAllowList check for the pool and block building (§8.4); undefined = allowed. */
export async function checkTxAllowed(state: StateSource, rules: PrecompileRules, from: string): Promise<string | undefined> {
  if (!enabled(rules, TX_ALLOW_LIST_ADDRESS)) return undefined;
  if (isEnabledRole(await readRole(stateOf(state), TX_ALLOW_LIST_ADDRESS, from))) return undefined;
  return `cannot issue transaction from non-allow listed address: ${checksum(from)}`;
}

/** ContractDeployerAllowList check of tx.origin (§8.3); undefined = allowed. configureEVM applies it to every CREATE. */
export async function checkDeployAllowed(state: StateManagerInterface, rules: PrecompileRules, origin: string): Promise<string | undefined> {
  if (!enabled(rules, DEPLOYER_ALLOW_LIST_ADDRESS)) return undefined;
  if (isEnabledRole(await readRole(state, DEPLOYER_ALLOW_LIST_ADDRESS, origin))) return undefined;
  return `tx.origin ${checksum(origin)} is not authorized to deploy a contract`;
}

/** The fee config stored by an enabled FeeManager and the block it last changed at (§2.1, §7.3). */
export async function readFeeConfig(state: StateManagerInterface): Promise<{ feeConfig: FeeConfig; lastChangedAt: bigint }> {
  return { feeConfig: await readStoredFeeConfig(state), lastChangedAt: await readLastChangedAt(state) };
}

/** GetCoinbaseAt(parent): `anyAllowed` = builders pick the coinbase, otherwise it must be `required`. */
export interface CoinbaseRule {
  anyAllowed: boolean;
  required: string;
}

/**
 * The coinbase rule for a block, from its PARENT's rules and post-state (§8.7).
 * `allowFeeRecipients` is the chain config's flag.
 */
export async function coinbaseRule(
  parentState: StateSource,
  parentRules: PrecompileRules,
  allowFeeRecipients: boolean,
): Promise<CoinbaseRule> {
  if (!enabled(parentRules, REWARD_MANAGER_ADDRESS)) {
    return allowFeeRecipients ? { anyAllowed: true, required: BLACKHOLE_ADDRESS } : { anyAllowed: false, required: BLACKHOLE_ADDRESS };
  }
  const r = await readRewardSlot(stateOf(parentState));
  return { anyAllowed: r.allowFeeRecipients, required: r.address };
}

/** The coinbase a builder uses: the node's `feeRecipient` (VM config, default blackhole) when allowed. */
export function builderCoinbase(rule: CoinbaseRule, feeRecipient: string | undefined): string {
  return rule.anyAllowed ? (feeRecipient ?? BLACKHOLE_ADDRESS).toLowerCase() : rule.required;
}

/** Block verification: undefined if `coinbase` is valid, else the reference's error text. */
export function verifyCoinbase(rule: CoinbaseRule, coinbase: string): string | undefined {
  if (rule.anyAllowed || coinbase.toLowerCase() === rule.required) return undefined;
  return `invalid coinbase: ${checksum(coinbase)} does not match required coinbase address ${checksum(rule.required)}`;
}

