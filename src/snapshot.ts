// Start-up snapshot support. `npm run build` also writes dist/powder.snapshot.blob
// (scripts/snapshot.cjs): the CLI bundle with its modules initialised and its start path compiled,
// which bin/powder hands to `node --snapshot-blob` so a start skips loading and compiling the
// bundle (docs/performance.md, session 17). What belongs to one process must not be frozen into
// the snapshot: native objects (V8 cannot serialise them; the build fails if one is reachable) and
// what a module reads from the environment once. Such state is made by `afterRestore` callbacks.
import v8 from 'node:v8';

interface StartupSnapshot {
  isBuildingSnapshot(): boolean;
  addDeserializeCallback(fn: () => void): void;
}
const snapshot = (v8 as unknown as { startupSnapshot?: StartupSnapshot }).startupSnapshot;

/** True while scripts/snapshot.cjs builds a snapshot (then module state is the snapshot's). */
// (Node 20 answers 1 or 0, not a boolean.)
export const buildingSnapshot = Boolean(snapshot?.isBuildingSnapshot());

/** Runs `fn` in a process started from the snapshot, before its main; never otherwise. */
export function afterRestore(fn: () => void): void {
  if (buildingSnapshot) snapshot!.addDeserializeCallback(fn);
}

