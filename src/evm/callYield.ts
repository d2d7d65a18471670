// Turns of the event loop for long EVM runs. The interpreter runs a frame's opcodes back to back
// (its awaits are microtasks), so one long eth_call — a loop with 50,000,000 gas runs ~1 s here —
// held every other request of the node until it ended, where geth serves each request in its own
// goroutine. A run registered here (eth_call, eth_estimateGas, the traces: each on a VM and state
// of its own, reverted or dropped after) gives the event loop a turn once it has run YIELD_MS since
// its last one; the interpreter loop (interpreterSteps.ts) asks every 1,024 steps of a frame.
// Block building is never registered: it owns the chain's live state and pool while it runs.

/** How long a registered run computes between turns of the event loop. */
export const YIELD_MS = 10;

/**
 * performance.now() of the run's last turn, on the EVM instance while a registered run is on it
 * (undefined otherwise). A property, not a WeakMap of EVMs: a set and a delete in a WeakMap cost
 * every eth_call ~0.5 µs (docs/performance.md session 40); it is never deleted (which would turn
 * the EVM's properties into a dictionary), only set back to undefined.
 */
const LAST_TURN = Symbol('powder.lastTurn');
type Registered = { [LAST_TURN]?: number };

/** Runs `fn` (one run on `evm`) letting it yield; re-entrant (a trace's tx inside a replay). */
export async function withYielding<T>(evm: object, fn: () => Promise<T>): Promise<T> {
  if (!beginYielding(evm)) return fn();
  try {
    return await fn();
  } finally {
    endYielding(evm);
  }
}

/**
 * withYielding's two halves, for a caller that awaits the run in its own try (eth_call's: an
 * async function between them cost a promise and a microtask turn of every call). begin registers
 * a run on `evm` and says whether it did (false: one is registered already, which then ends it);
 * end, called in a `finally` only when begin did, ends it.
 */
export function beginYielding(evm: object): boolean {
  const e = evm as Registered;
  if (e[LAST_TURN] !== undefined) return false;
  e[LAST_TURN] = performance.now();
  return true;
}
export function endYielding(evm: object): void {
  (evm as Registered)[LAST_TURN] = undefined;
}

/** Whether the run on `evm` is registered and has computed YIELD_MS since its last turn. */
export function turnDue(evm: object): boolean {
  const t = (evm as Registered)[LAST_TURN];
  return t !== undefined && performance.now() - t >= YIELD_MS;
}

/** Lets the event loop serve what waits (I/O included: setImmediate runs after the poll phase). */
export function takeTurn(evm: object): Promise<void> {
  return new Promise((resolve) =>
    setImmediate(() => {
      const e = evm as Registered;
      if (e[LAST_TURN] !== undefined) e[LAST_TURN] = performance.now();
      resolve();
    }),
  );
}
