// Turns of the event loop for long EVM runs. The interpreter runs a frame's opcodes back to back
// (its awaits are microtasks), so one long eth_call — a loop with 50,000,000 gas runs ~1 s here —
// held every other request of the node until it ended, where geth serves each request in its own
// goroutine. A run registered here (eth_call, eth_estimateGas, the traces: each on a VM and state
// of its own, reverted or dropped after) gives the event loop a turn once it has run YIELD_MS since
// its last one; the interpreter loop (interpreterSteps.ts) asks every 1,024 steps of a frame.
// Block building is never registered: it owns the chain's live state and pool while it runs.

/** How long a registered run computes between turns of the event loop. */
export const YIELD_MS = 10;

/** EVM instance → performance.now() of its run's last turn (registered while it runs). */
const lastTurn = new WeakMap<object, number>();

/** Runs `fn` (one run on `evm`) letting it yield; re-entrant (a trace's tx inside a replay). */
export async function withYielding<T>(evm: object, fn: () => Promise<T>): Promise<T> {
  if (lastTurn.has(evm)) return fn();
  lastTurn.set(evm, performance.now());
  try {
    return await fn();
  } finally {
    lastTurn.delete(evm);
  }
}

/** Whether the run on `evm` is registered and has computed YIELD_MS since its last turn. */
export function turnDue(evm: object): boolean {
  const t = lastTurn.get(evm);
  return t !== undefined && performance.now() - t >= YIELD_MS;
}

/** Lets the event loop serve what waits (I/O included: setImmediate runs after the poll phase). */
export function takeTurn(evm: object): Promise<void> {
  return new Promise((resolve) =>
    setImmediate(() => {
      if (lastTurn.has(evm)) lastTurn.set(evm, performance.now());
      resolve();
    }),
  );
}
