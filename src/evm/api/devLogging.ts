// anvil_setLoggingEnabled / hardhat_setLoggingEnabled: Anvil's toggle silences its user-facing
// console output (the per-request method lines, the per-tx and per-block summaries, console.log)
// and leaves warnings and errors. Powder's per-request output is the chain logger's
// `API request` line (DEBUG) and the chain's own entries below WARN; muting the chain's logger
// keeps every entry below WARN, the node's request lines included, off the display. The log file
// still gets them: it is the node's record, not the test's console. Warnings and errors (a
// failing automine, a crashed handler) still show.
import { bool, required } from './args.js';
import { withArity, type ControlContext } from './controlContext.js';

export function devLoggingMethods({ be, m }: ControlContext): void {
  const set = (p: unknown[]) => {
    be.log.muted = !bool(required(p, 0), 0);
  };
  m.set(
    'anvil_setLoggingEnabled',
    withArity(1, (p) => {
      set(p);
      return null;
    }),
  );
  m.set(
    'hardhat_setLoggingEnabled',
    withArity(1, (p) => {
      set(p);
      return true;
    }),
  );
}
