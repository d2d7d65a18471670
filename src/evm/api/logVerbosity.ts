// debug_verbosity / debug_vmodule: geth's glog handler levels applied to the chain's logger.
// The chain's own level (Subnet-EVM's log-level, the logger's `sourceLevel`) is geth's verbosity
// ceiling; vmodule rules raise it for the entries written from matching source files. Powder's
// sources are TypeScript: a caller's file is matched with its extension read as `.go`
// (src/evm/api/eth.ts is matched as src/evm/api/eth.go), by geth's own patterns.
import { Levels, type Level } from '../../logging/levels.js';
import type { Logger } from '../../logging/logger.js';

/** log.FromLegacyLevel: 0 crit, 1 error, 2 warn, 3 info, 4 debug, 5 trace; above 5 trace, below 0 crit. */
export function legacyLevel(l: number): Level {
  if (l <= 0) return Levels.Fatal;
  switch (l) {
    case 1:
      return Levels.Error;
    case 2:
      return Levels.Warn;
    case 3:
      return Levels.Info;
    case 4:
      return Levels.Debug;
  }
  return Levels.Verbo;
}

export const ERR_VMODULE_SYNTAX = 'expect comma-separated list of filename=N';

interface Rule {
  re: RegExp;
  level: Level;
}

/** GlogHandler.Vmodule's parsing; throws geth's errVmoduleSyntax. */
export function parseVmodule(ruleset: string): Rule[] {
  const out: Rule[] = [];
  for (const rule of ruleset.split(',')) {
    if (rule.length === 0) continue;
    const parts = rule.split('=');
    if (parts.length !== 2) throw new Error(ERR_VMODULE_SYNTAX);
    const [pat, lvl] = parts.map((p) => p.trim());
    if (pat.length === 0 || lvl.length === 0) throw new Error(ERR_VMODULE_SYNTAX);
    // strconv.Atoi: optional sign, decimal digits, int64 range.
    if (!/^[+-]?\d+$/.test(lvl) || Math.abs(Number(lvl)) >= 2 ** 63) throw new Error(ERR_VMODULE_SYNTAX);
    const legacy = Number(lvl);
    if (legacy <= 0) continue; // crit: ignored, as geth does
    let matcher = '.*';
    for (const comp of pat.split('/')) {
      if (comp === '*') matcher += '(/.*)?';
      else if (comp !== '') matcher += '/' + comp.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    }
    if (!pat.endsWith('.go')) matcher += '/[^/]+\\.go';
    out.push({ re: new RegExp(matcher + '$'), level: legacyLevel(legacy) });
  }
  return out;
}

interface State {
  base: Level;
  rules: Rule[];
  /** Caller frame → its level (geth caches per program counter). */
  sites: Map<string, Level>;
}

const states = new WeakMap<Logger, State>();
const MAX_SITES = 4096;

/** The file of the code that called the logger, from a V8 stack (logger frames skipped). */
function callerSite(): { site: string; file: string } | undefined {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = 8;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = saved;
  // The frames above the logger's own (NamedLogger.log / .info / .enabled …) are its caller's.
  const frames: { fn: string; file: string; line: string; col: string }[] = [];
  for (const line of stack.split('\n').slice(1)) {
    const m = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/.exec(line);
    if (m) frames.push({ fn: m[1] ?? '', file: m[2].replace(/^file:\/\//, ''), line: m[3], col: m[4] });
  }
  let last = -1;
  frames.forEach((f, i) => {
    if (/^NamedLogger\d*\./.test(f.fn)) last = i;
  });
  const c = last >= 0 ? frames[last + 1] : undefined;
  if (c) return { site: `${c.file}:${c.line}:${c.col}`, file: c.file };
  return undefined;
}

function levelFor(st: State): Level {
  const c = callerSite();
  if (!c) return st.base;
  let l = st.sites.get(c.site);
  if (l === undefined) {
    l = st.base;
    const goFile = c.file.replace(/\.(ts|js|mjs|cjs|mts|cts)$/, '.go');
    for (const r of st.rules) {
      if (r.re.test(goFile)) {
        l = r.level;
        break;
      }
    }
    if (st.sites.size >= MAX_SITES) st.sites.clear();
    st.sites.set(c.site, l);
  }
  // A rule only raises verbosity (glog: the global level passes first).
  return Math.min(st.base, l);
}

/** debug_verbosity: the chain's level ceiling (kept under any vmodule rules). */
export function setVerbosity(log: Logger, level: Level): void {
  const st = states.get(log);
  if (st) st.base = level;
  else log.sourceLevel = level;
}

/** debug_vmodule: replaces the rules (an empty ruleset removes them). */
export function setVmodule(log: Logger, ruleset: string): void {
  const rules = parseVmodule(ruleset);
  let st = states.get(log);
  if (rules.length === 0) {
    if (st) {
      states.delete(log);
      Object.defineProperty(log, 'sourceLevel', { value: st.base, writable: true, enumerable: true, configurable: true });
    }
    return;
  }
  if (!st) {
    const s: State = { base: log.sourceLevel ?? Levels.Verbo, rules, sites: new Map() };
    st = s;
    states.set(log, s);
    // The logger reads its sourceLevel at every entry: with rules, the level depends on the caller.
    Object.defineProperty(log, 'sourceLevel', {
      get: () => levelFor(s),
      set: (v: Level) => {
        s.base = v;
      },
      enumerable: true,
      configurable: true,
    });
  }
  st.rules = rules;
  st.sites.clear();
}

/** The rules in force for a logger (for tests and the doc's examples). */
export function vmoduleRules(log: Logger): readonly Rule[] {
  return states.get(log)?.rules ?? [];
}
