// The chain's own log level (Subnet-EVM's SubnetEVMLogger): the VM config's `log-level`, in geth's
// names (trace, debug, info, warn, error, crit), filters the chain's entries before the node's
// logger applies its log and display levels; the chain's admin.setLogLevel changes it at run time.
import { Levels, type Level } from '../../logging/levels.js';

/** geth/Subnet-EVM level names (utils.LvlFromString) → the node's levels. */
const GETH_LEVELS: Record<string, Level> = {
  trace: Levels.Verbo,
  trce: Levels.Verbo,
  debug: Levels.Debug,
  dbug: Levels.Debug,
  info: Levels.Info,
  warn: Levels.Warn,
  error: Levels.Error,
  eror: Levels.Error,
  crit: Levels.Fatal,
};

/** Subnet-EVM's LvlFromString: case-insensitive; anything else is `unknown level: <s>`. */
export function gethLevel(s: unknown): Level {
  const l = typeof s === 'string' ? GETH_LEVELS[s.toLowerCase()] : undefined;
  if (l === undefined) throw new Error(`unknown level: ${String(s)}`);
  return l;
}
