// Log levels in AvalancheGo's order: Verbo < Debug < Trace < Info < Warn < Error < Fatal < Off.
export const LEVEL_NAMES = ['VERBO', 'DEBUG', 'TRACE', 'INFO', 'WARN', 'ERROR', 'FATAL', 'OFF'] as const;
export type LevelName = (typeof LEVEL_NAMES)[number];
/** Numeric rank: higher is more severe; a logger at L writes entries with rank >= rank(L). */
export type Level = number;

export const Levels = { Verbo: 0, Debug: 1, Trace: 2, Info: 3, Warn: 4, Error: 5, Fatal: 6, Off: 7 } as const;

export function parseLevel(s: string): Level {
  const i = (LEVEL_NAMES as readonly string[]).indexOf(s.toUpperCase());
  if (i < 0) throw new Error(`unknown log level: ${JSON.stringify(s)}`);
  return i;
}

export function levelName(l: Level): LevelName | 'UNKNO' {
  return LEVEL_NAMES[l] ?? 'UNKNO';
}
