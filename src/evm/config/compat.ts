// Config compatibility across restarts (reference subnet-evm.md §4.4).
//   checkConfigCompatible(stored, next, lastAcceptedHeight, lastAcceptedTime) → string | null
//   (the error text to fail start-up with, or null). Skip it when the VM config has skip-upgrade-check.
import type { ChainConfig } from './chainConfig.js';
import { UPGRADE_NAMES } from './networkUpgrades.js';
import { PRECOMPILE_KEY_LIST, precompileConfigJSON, type PrecompileConfig } from './precompileConfigs.js';
import { upgradeConfigJSON, type StateUpgrade } from './upgradeTypes.js';

interface CompatError {
  what: string;
  stored: bigint | undefined;
  next: bigint | undefined;
  rewindTo: bigint;
}

const WHAT: Record<string, string> = {
  subnetEVM: 'SubnetEVM',
  durango: 'Durango',
  etna: 'Etna',
  fortuna: 'Fortuna',
  granite: 'Granite',
  helicon: 'Helicon',
};

function compatError(what: string, stored: bigint | undefined, next: bigint | undefined): CompatError {
  const rew = stored === undefined ? next : next === undefined || stored < next ? stored : next;
  return { what, stored, next, rewindTo: rew !== undefined && rew !== 0n ? rew - 1n : 0n };
}

const forked = (t: bigint | undefined, head: bigint) => t !== undefined && t <= head;

function activating<T extends { blockTimestamp?: bigint }>(list: readonly T[], head: bigint): T[] {
  return list.filter((x) => x.blockTimestamp !== undefined && x.blockTimestamp <= head);
}

const wire = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));

function sameList<T extends { blockTimestamp?: bigint }>(
  label: string,
  a: readonly T[],
  b: readonly T[],
  head: bigint,
  json: (x: T) => unknown,
): CompatError | undefined {
  const act = activating(a, head);
  const nxt = activating(b, head);
  for (let i = 0; i < act.length; i++) {
    if (nxt.length <= i) return compatError(`missing ${label}[${i}]`, act[i]!.blockTimestamp, undefined);
    if (wire(json(act[i]!)) !== wire(json(nxt[i]!))) return compatError(`${label}[${i}]`, act[i]!.blockTimestamp, nxt[i]!.blockTimestamp);
  }
  if (nxt.length > act.length) return compatError(`cannot retroactively enable ${label}[${act.length}]`, undefined, nxt[act.length]!.blockTimestamp);
  return undefined;
}

function checkOnce(stored: ChainConfig, next: ChainConfig, head: bigint): CompatError | undefined {
  for (const [k, name] of UPGRADE_NAMES) {
    const s = stored.networkUpgrades[k];
    const n = next.networkUpgrades[k];
    if ((forked(s, head) || forked(n, head)) && s !== n) return compatError(`${WHAT[name]} fork block timestamp`, s, n);
  }
  for (const key of PRECOMPILE_KEY_LIST) {
    const e = sameList<PrecompileConfig>('PrecompileUpgrade', stored.timeline.get(key) ?? [], next.timeline.get(key) ?? [], head, precompileConfigJSON);
    if (e) return e;
  }
  const stateJSON = (s: StateUpgrade) => upgradeConfigJSON({ stateUpgrades: [s], precompileUpgrades: [] });
  return sameList<StateUpgrade>('StateUpgrade', stored.upgrade.stateUpgrades, next.upgrade.stateUpgrades, head, stateJSON);
}

const ts = (v: bigint | undefined) => (v === undefined ? 'nil' : v.toString());

/** The start-up compatibility check; returns the real node's error text or null. */
export function checkConfigCompatible(
  stored: ChainConfig,
  next: ChainConfig,
  lastAcceptedHeight: bigint,
  lastAcceptedTime: bigint,
): string | null {
  let head = lastAcceptedTime;
  let last: CompatError | undefined;
  for (;;) {
    const e = checkOnce(stored, next, head);
    if (!e || (last && e.rewindTo === last.rewindTo)) break;
    last = e;
    if (e.rewindTo > 0n) head = e.rewindTo;
    else break;
  }
  if (!last) return null;
  void lastAcceptedHeight; // timestamp errors have rewind block 0, so only the time condition applies
  if (!(lastAcceptedTime !== 0n && last.rewindTo !== 0n)) return null;
  return `mismatching ${last.what} in database (have timestamp ${ts(last.stored)}, want timestamp ${ts(last.next)}, rewindto timestamp ${last.rewindTo})`;
}
