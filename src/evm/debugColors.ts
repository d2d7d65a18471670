// @ethereumjs creates a `debug` logger for every trie and state manager it constructs (a head
// view per block, a storage trie per account read), and the `debug` package decides each logger's
// colours by calling `tty.isatty(process.stderr.fd)` every time unless DEBUG_COLORS settled it:
// ~1 % of a transfer block's CPU. The answer cannot change while the process runs, so it is asked
// once here and stored where `debug` looks first; DEBUG_COLORS, when set, still wins.
import createDebug from 'debug';
import { isatty } from 'node:tty';
import { afterRestore } from '../snapshot.js';

type Debug = typeof createDebug & { inspectOpts: Record<string, unknown> };
const debug = createDebug as Debug;

// fd 2 rather than process.stderr.fd: the first read of process.stderr makes the stream (~0.3 ms
// of a start), and nothing else on a start needs it. (In a worker thread, whose process.stderr has
// no fd, `debug` would say no colours; its output reaches fd 2 all the same.)
function settleColors(): void {
  if (!('colors' in debug.inspectOpts)) debug.inspectOpts.colors = isatty(2);
}
settleColors();

// In a process started from the start-up snapshot, `debug` read DEBUG and DEBUG_* when the
// snapshot was built: read them again as its module does when it loads (debug/src/node.js).
afterRestore(() => {
  const opts = debug.inspectOpts;
  for (const k of Object.keys(opts)) delete opts[k];
  for (const key of Object.keys(process.env)) {
    if (!/^debug_/i.test(key)) continue;
    const prop = key.substring(6).toLowerCase().replace(/_([a-z])/g, (_, k: string) => k.toUpperCase());
    const val = process.env[key]!;
    opts[prop] = /^(yes|on|true|enabled)$/i.test(val) ? true : /^(no|off|false|disabled)$/i.test(val) ? false : val === 'null' ? null : Number(val);
  }
  debug.enable(process.env.DEBUG ?? '');
  settleColors();
});
