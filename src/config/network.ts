// Network names and IDs (reference: avalanchego-node.md §8.3).
import { ConfigError } from './flags.js';

const NAMES: Record<string, number> = {
  mainnet: 1,
  cascade: 2,
  denali: 3,
  everest: 4,
  fuji: 5,
  testnet: 5,
  testing: 10,
  local: 12345,
};
const BY_ID: Record<number, string> = { 1: 'mainnet', 2: 'cascade', 3: 'denali', 4: 'everest', 5: 'fuji', 10: 'testing', 12345: 'local' };

export function parseNetworkID(input: string): number {
  const s = input.toLowerCase();
  if (s in NAMES) return NAMES[s];
  const m = /^(?:network-)?([0-9]+)$/.exec(s);
  if (m && Number(m[1]) <= 0xffffffff) return Number(m[1]);
  throw new ConfigError(`failed to parse network name: "${s}"`);
}

export function networkName(id: number): string {
  return BY_ID[id] ?? `network-${id}`;
}
