// Subnet-EVM configuration: genesis (§5), chain config and rules (§2.2–2.4, §4), upgrade.json (§6).
export * from './genesis.js';
export * from './chainConfig.js';
export * from './upgrade.js';
export * from './networkUpgrades.js';
export * from './precompileConfigs.js';
export { parseJson, parseJsonBytes, type JsonValue, type JsonObject } from './json.js';
export { checksumAddress } from './decode.js';
export * from './compat.js';
