// upgrade.json → chain config (reference subnet-evm.md §6).
//   parseUpgradeConfig(bytes, genesisConfig) → ChainConfig with the upgrade applied and verified.
//   Errors: `failed to parse upgrade bytes: <err>` (JSON/shape/precompile key errors) and
//   `failed to verify genesis: invalid …: <err>` (validation, §6.2/§6.3/§4.3).
import { alignEthForks, buildTimeline, verifyChainConfig, type ChainConfig } from './chainConfig.js';
import { parseJsonBytes } from './json.js';
import { applyUpgradeOverrides, checkForkOrder } from './networkUpgrades.js';
import { decodeUpgradeConfig, type UpgradeConfig } from './upgradeTypes.js';

export type { UpgradeConfig, StateUpgrade, StateUpgradeAccount } from './upgradeTypes.js';
export { decodeUpgradeConfig, upgradeConfigJSON } from './upgradeTypes.js';

/** Parse upgrade bytes only (no validation). Empty input = no upgrades. */
export function parseUpgradeBytes(bytes: Uint8Array): UpgradeConfig {
  if (bytes.length === 0) return { stateUpgrades: [], precompileUpgrades: [] };
  try {
    return decodeUpgradeConfig(parseJsonBytes(bytes));
  } catch (e) {
    throw new Error(`failed to parse upgrade bytes: ${(e as Error).message}`);
  }
}

/** Apply a decoded upgrade config to a genesis chain config (new object; input untouched). */
export function withUpgradeConfig(genesisConfig: ChainConfig, upgrade: UpgradeConfig): ChainConfig {
  const cfg: ChainConfig = {
    ...genesisConfig,
    eth: new Map(genesisConfig.eth),
    upgrade,
    networkUpgrades: applyUpgradeOverrides(genesisConfig.networkUpgrades, upgrade.networkUpgradeOverrides),
  };
  alignEthForks(cfg);
  cfg.timeline = buildTimeline(cfg);
  return cfg;
}

/**
 * upgrade.json bytes + the genesis chain config → the effective chain config (validated). The
 * resulting timeline drives rulesAt / precompileActivations, and chainConfigJSON shows `upgrades`.
 */
export function parseUpgradeConfig(bytes: Uint8Array, genesisConfig: ChainConfig): ChainConfig {
  const cfg = withUpgradeConfig(genesisConfig, parseUpgradeBytes(bytes));
  try {
    verifyChainConfig(cfg);
  } catch (e) {
    throw new Error(`failed to verify genesis: ${(e as Error).message}`);
  }
  checkForkOrder(cfg.networkUpgrades);
  return cfg;
}
