// Addresses and config keys of Subnet-EVM's precompiles (reference subnet-evm.md §0).

export const BLACKHOLE_ADDRESS = '0x0100000000000000000000000000000000000000';

export const DEPLOYER_ALLOW_LIST_ADDRESS = '0x0200000000000000000000000000000000000000';
export const NATIVE_MINTER_ADDRESS = '0x0200000000000000000000000000000000000001';
export const TX_ALLOW_LIST_ADDRESS = '0x0200000000000000000000000000000000000002';
export const FEE_MANAGER_ADDRESS = '0x0200000000000000000000000000000000000003';
export const REWARD_MANAGER_ADDRESS = '0x0200000000000000000000000000000000000004';
export const WARP_ADDRESS = '0x0200000000000000000000000000000000000005';
export const P256_VERIFY_ADDRESS = '0x0000000000000000000000000000000000000100';

export type PrecompileKey =
  | 'contractDeployerAllowListConfig'
  | 'contractNativeMinterConfig'
  | 'txAllowListConfig'
  | 'feeManagerConfig'
  | 'rewardManagerConfig'
  | 'warpConfig';

/** Registered stateful precompiles, by ascending address (the activation order of §6.4). */
export const PRECOMPILE_ADDRESSES: ReadonlyMap<PrecompileKey, string> = new Map<PrecompileKey, string>([
  ['contractDeployerAllowListConfig', DEPLOYER_ALLOW_LIST_ADDRESS],
  ['contractNativeMinterConfig', NATIVE_MINTER_ADDRESS],
  ['txAllowListConfig', TX_ALLOW_LIST_ADDRESS],
  ['feeManagerConfig', FEE_MANAGER_ADDRESS],
  ['rewardManagerConfig', REWARD_MANAGER_ADDRESS],
  ['warpConfig', WARP_ADDRESS],
]);

export const PRECOMPILE_KEYS: ReadonlyMap<string, PrecompileKey> = new Map(
  [...PRECOMPILE_ADDRESSES].map(([k, a]) => [a, k] as [string, PrecompileKey]),
);

export function isPrecompileKey(key: string): key is PrecompileKey {
  return PRECOMPILE_ADDRESSES.has(key as PrecompileKey);
}

/** Timestamp from which DELEGATECALL/CALLCODE into a stateful precompile invalidates the tx (until Granite). */
export const INVALIDATE_DELEGATE_UNIX = 1754107200n;
