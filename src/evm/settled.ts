// Promises handed back without an async function (the hot paths of eth_call: the state
// manager's reads and checkpoints, the journal's steps, events nobody listens to). An async
// function makes a promise of its own and its awaits take microtask turns (~110 ns a call, ~15 on
// every eth_call's path; docs/performance.md, sessions 19 and 39).

/** The one settled `Promise<void>` these paths return when they have nothing to wait for. */
export const SETTLED: Promise<void> = Promise.resolve();

/**
 * What a step returned, as a promise: SETTLED for undefined, a promise as it is, a value resolved.
 * The hot methods (journalTuning.ts, state/callState.ts) return it from a `try` whose `catch`
 * hands back `Promise.reject(e)`, so a throw arrives as a rejection, as from an async function. (A
 * helper taking the step as a closure cost each call the closure's context and V8's lazy-compile
 * stub, ~12 times per eth_call; docs/performance.md, session 41.) Callers that know SETTLED skip
 * the await of it (plainCall.ts, backend.ts, the bundle's patch of @ethereumjs/evm's runCall).
 */
export function settledOf<T>(r: T | Promise<T>): Promise<T> {
  return r === undefined ? (SETTLED as Promise<T>) : r instanceof Promise ? r : Promise.resolve(r);
}
