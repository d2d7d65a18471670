// Promises handed back without an async function (the hot paths of eth_call: the state
// manager's reads and checkpoints, the journal's steps, events nobody listens to). An async
// function makes a promise of its own and its awaits take microtask turns (~110 ns a call, ~15 on
// every eth_call's path; docs/performance.md, sessions 19 and 39).

/** The one settled `Promise<void>` these paths return when they have nothing to wait for. */
export const SETTLED: Promise<void> = Promise.resolve();

/**
 * What `f` returns, as a promise (SETTLED for undefined); a throw becomes a rejection, as from an
 * async function.
 */
export function settle<T>(f: () => T | Promise<T>): Promise<T> {
  try {
    return settledOf(f());
  } catch (e) {
    return Promise.reject(e);
  }
}

/**
 * What a step returned, as settle hands it back (SETTLED for undefined). The hot methods write
 * settle's `try { return settledOf(…) } catch (e) { return Promise.reject(e) }` out in their own
 * body: a closure made per call for settle allocated its context and entered V8's lazy-compile
 * stub at its first call (~12 per eth_call; docs/performance.md, session 41).
 */
export function settledOf<T>(r: T | Promise<T>): Promise<T> {
  return r === undefined ? (SETTLED as Promise<T>) : r instanceof Promise ? r : Promise.resolve(r);
}
