// The last genesis state this process computed (its trie nodes and root), for the next chain
// whose genesis state has the same inputs. Computing it — every alloc account through
// ethereumjs's state manager, the precompiles' activations, the trie and its hashes — was ~6–8 ms
// of a start on a host with slow page faults (docs/performance.md, session 44). The start-up
// snapshot's rehearsal computes the default dev chain's, so a default start only writes it; a test
// suite that starts node after node with one genesis computes it once.
//
// The key names everything the state depends on: the genesis bytes, the network (its defaults),
// upgrade.json's bytes and config.json's airdrop addresses (the parsed genesis), the precompile
// activations at the genesis time (which upgrades are active depends on that time, and the dev
// chain's is the time of its first start), and whether preimages are recorded beside the nodes.
import type { Op } from './store.js';

let last: { key: string; nodes: Op[]; root: Uint8Array } | undefined;
let hits = 0;

/** Own copies: a memdb store keeps the arrays it is given, and a snapshot must not hold Buffer pool slabs. */
const copy = (nodes: Op[]): Op[] => nodes.map(([k, v]) => [Uint8Array.from(k), v === null ? null : Uint8Array.from(v)]);

export interface GenesisStateInputs {
  genesis: Uint8Array;
  networkID: number;
  upgrade: Uint8Array | undefined;
  airdrop: readonly string[];
  /** The precompile activations at the genesis time, as the genesis state runs them. */
  activations: readonly { key: string; config: unknown }[];
  recordPreimages: boolean;
}

export function genesisStateKey(i: GenesisStateInputs): string {
  const plain = (_k: string, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v);
  return JSON.stringify([Buffer.from(i.genesis).toString('latin1'), i.networkID, i.upgrade === undefined ? null : i.upgrade, i.airdrop, i.activations, i.recordPreimages], plain);
}

/** The nodes and root remembered for `key` (copies), or undefined. */
export function recallGenesisState(key: string): { nodes: Op[]; root: Uint8Array } | undefined {
  if (last?.key !== key) return undefined;
  hits++;
  return { nodes: copy(last.nodes), root: Uint8Array.from(last.root) };
}

/** Kept for the life of the process: a genesis with a large alloc is not kept (the default dev genesis is ~20 KB). */
const MAX_KEPT_BYTES = 1 << 20;

export function rememberGenesisState(key: string, nodes: Op[], root: Uint8Array): void {
  let bytes = key.length;
  for (const [k, v] of nodes) bytes += k.length + (v?.length ?? 0);
  last = bytes <= MAX_KEPT_BYTES ? { key, nodes: copy(nodes), root: Uint8Array.from(root) } : undefined;
}

/** How many chains took their genesis state from here (the tests ask). */
export const genesisStateRecalls = (): number => hits;
