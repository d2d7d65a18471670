// For the state tests: the smallest KVStore (a Map by hex key) under a StateStore.
import type { KVStore } from '../../db/database.js';

export function memStore(): KVStore {
  const m = new Map<string, Uint8Array>();
  return {
    get: (k: Uint8Array) => m.get(Buffer.from(k).toString('hex')),
    write: async (ops: [Uint8Array, Uint8Array | null][]) => {
      for (const [k, v] of ops) v === null ? m.delete(Buffer.from(k).toString('hex')) : m.set(Buffer.from(k).toString('hex'), v);
    },
  } as unknown as KVStore;
}
