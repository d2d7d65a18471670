// Log levels in AvalancheGo's order: Verbo < Debug < Trace < Info < Warn < Error < Fatal < Off.
import { goQuote } from '../rpc/goQuote.js';
export const LEVEL_NAMES = ['VERBO', 'DEBUG', 'TRACE', 'INFO', 'WARN', 'ERROR', 'FATAL', 'OFF'] as const;
export type LevelName = (typeof LEVEL_NAMES)[number];
/** Numeric rank: higher is more severe; a logger at L writes entries with rank >= rank(L). */
export type Level = number;

export const Levels = { Verbo: 0, Debug: 1, Trace: 2, Info: 3, Warn: 4, Error: 5, Fatal: 6, Off: 7 } as const;

/**
 * Go's strings.ToUpper: each character to its one-character upper case (unicode.ToUpper). JS's
 * toUpperCase maps some to several (`ﬀ` → `FF`, `ß` → `SS`): those stay as they are, so `oﬀ` is
 * no level, as on AvalancheGo.
 */
export function goToUpper(s: string): string {
  let out = '';
  for (const ch of s) {
    const up = ch.toUpperCase();
    out += [...up].length === 1 ? up : ch;
  }
  return out;
}

/** logging.ToLevel: the name in any case (Go's upper-casing); else `unknown log level: "<input>"` (%q). */
export function parseLevel(s: string): Level {
  const i = (LEVEL_NAMES as readonly string[]).indexOf(goToUpper(s));
  if (i < 0) throw new Error(`unknown log level: ${goQuote(s)}`);
  return i;
}

export function levelName(l: Level): LevelName | 'UNKNO' {
  return LEVEL_NAMES[l] ?? 'UNKNO';
}
