// @ethereumjs creates a `debug` logger for every trie and state manager it constructs (a head
// view per block, a storage trie per account read), and the `debug` package decides each logger's
// colours by calling `tty.isatty(process.stderr.fd)` every time unless DEBUG_COLORS settled it:
// ~1 % of a transfer block's CPU. The answer cannot change while the process runs, so it is asked
// once here and stored where `debug` looks first; DEBUG_COLORS, when set, still wins.
import createDebug from 'debug';
import { isatty } from 'node:tty';

const opts = (createDebug as unknown as { inspectOpts: { colors?: unknown } }).inspectOpts;
if (!('colors' in opts)) opts.colors = isatty(process.stderr.fd);
