// Network upgrade timestamps (reference subnet-evm.md §0, §4.2, §4.3).
//   NetworkUpgrades, UPGRADE_NAMES, defaultNetworkUpgrades(networkID), setUpgradeDefaults(u, networkID),
//   applyUpgradeOverrides(u, overrides), verifyNetworkUpgrades(u, networkID), checkForkOrder(u),
//   isForkActive(ts | undefined, time).
// A timestamp is `undefined` for Go's nil (never active).

export interface NetworkUpgrades {
  subnetEVMTimestamp?: bigint;
  durangoTimestamp?: bigint;
  etnaTimestamp?: bigint;
  fortunaTimestamp?: bigint;
  graniteTimestamp?: bigint;
  heliconTimestamp?: bigint;
}

export type UpgradeKey = keyof NetworkUpgrades;

/** JSON key → short name used in error texts, in fork order. */
export const UPGRADE_NAMES: readonly (readonly [UpgradeKey, string])[] = [
  ['subnetEVMTimestamp', 'subnetEVM'],
  ['durangoTimestamp', 'durango'],
  ['etnaTimestamp', 'etna'],
  ['fortunaTimestamp', 'fortuna'],
  ['graniteTimestamp', 'granite'],
  ['heliconTimestamp', 'helicon'],
];

export const MAINNET_ID = 1;
export const FUJI_ID = 5;
/** 2020-12-05T05:00:00Z: "initially active" on every non-public network. */
export const INITIALLY_ACTIVE_TIME = 1607144400n;
/** 9999-12-01: "unscheduled". */
export const UNSCHEDULED_ACTIVATION_TIME = 253399622400n;

const MAINNET: NetworkUpgrades = Object.freeze({
  subnetEVMTimestamp: 0n,
  durangoTimestamp: 1709740800n,
  etnaTimestamp: 1734368400n,
  graniteTimestamp: 1763568000n,
  heliconTimestamp: UNSCHEDULED_ACTIVATION_TIME,
});
const FUJI: NetworkUpgrades = Object.freeze({
  subnetEVMTimestamp: 0n,
  durangoTimestamp: 1707840000n,
  etnaTimestamp: 1732550400n,
  graniteTimestamp: 1761750000n,
  heliconTimestamp: UNSCHEDULED_ACTIVATION_TIME,
});
const LOCAL: NetworkUpgrades = Object.freeze({
  subnetEVMTimestamp: 0n,
  durangoTimestamp: INITIALLY_ACTIVE_TIME,
  etnaTimestamp: INITIALLY_ACTIVE_TIME,
  graniteTimestamp: INITIALLY_ACTIVE_TIME,
  heliconTimestamp: UNSCHEDULED_ACTIVATION_TIME,
});

/** The network's default upgrade times (fortuna is nil everywhere: it has no effect in Subnet-EVM). */
export function defaultNetworkUpgrades(networkID: number): Readonly<NetworkUpgrades> {
  return networkID === MAINNET_ID ? MAINNET : networkID === FUJI_ID ? FUJI : LOCAL;
}

export function isForkActive(forkTime: bigint | undefined, time: bigint): boolean {
  return forkTime !== undefined && forkTime <= time;
}

/** SetDefaults: absent or 0 → network default (before upgrade.json overrides). */
export function setUpgradeDefaults(u: NetworkUpgrades, networkID: number): NetworkUpgrades {
  const d = defaultNetworkUpgrades(networkID);
  const out: NetworkUpgrades = { ...u };
  for (const [k] of UPGRADE_NAMES) {
    if (out[k] === undefined || out[k] === 0n) {
      if (d[k] === undefined) delete out[k];
      else out[k] = d[k];
    }
  }
  return out;
}

/** networkUpgradeOverrides: each non-nil value overwrites (0 is kept). */
export function applyUpgradeOverrides(u: NetworkUpgrades, overrides: NetworkUpgrades | undefined): NetworkUpgrades {
  const out: NetworkUpgrades = { ...u };
  if (overrides) for (const [k] of UPGRADE_NAMES) if (overrides[k] !== undefined) out[k] = overrides[k];
  return out;
}

/** verifyNetworkUpgrades: throws `<name> fork block timestamp is invalid: <reason>` (unprefixed). */
export function verifyNetworkUpgrades(u: NetworkUpgrades, networkID: number): void {
  const d = defaultNetworkUpgrades(networkID);
  for (const [k, name] of UPGRADE_NAMES) {
    const reason = verifyOne(u[k], d[k]);
    if (reason) throw new Error(`${name} fork block timestamp is invalid: ${reason}`);
  }
}

function verifyOne(v: bigint | undefined, d: bigint | undefined): string | undefined {
  if (d === undefined) return undefined;
  if (v === undefined) return d >= UNSCHEDULED_ACTIVATION_TIME ? undefined : 'timestamp cannot be nil';
  if (v === 0n && d <= INITIALLY_ACTIVE_TIME) return undefined;
  if (v < d)
    return `provided timestamp must be greater than or equal to the default timestamp: provided timestamp ${v}, default timestamp ${d}`;
  return undefined;
}

/**
 * CheckConfigForkOrder for the Avalanche upgrades (fortuna optional). Throws
 * `unsupported fork ordering: …`. The real node prints Go pointers (memory addresses) for the
 * timestamps here; we print the numbers, which is the only meaningful rendering.
 */
export function checkForkOrder(u: NetworkUpgrades): void {
  let last: { name: string; ts: bigint | undefined } | undefined;
  for (const [k] of UPGRADE_NAMES) {
    const ts = u[k];
    if (k === 'fortunaTimestamp' && ts === undefined) continue;
    if (last) {
      if (last.ts === undefined && ts !== undefined)
        throw new Error(`unsupported fork ordering: ${last.name} not enabled, but ${k} enabled at timestamp ${ts}`);
      if (last.ts !== undefined && ts !== undefined && last.ts > ts)
        throw new Error(`unsupported fork ordering: ${last.name} enabled at timestamp ${last.ts}, but ${k} enabled at timestamp ${ts}`);
    }
    last = { name: k, ts }; // optional forks that are unset were skipped above
  }
}
