// debug_stacks: geth answers the text dump of every goroutine's stack (pprof "goroutine", debug=2),
// optionally filtered. A Node.js process runs JavaScript on one thread (plus worker threads), so
// the dump's blank-line-separated sections are: the JavaScript stack of the call serving the
// request, the main thread's native stack, each worker's JavaScript stack, and each libuv handle
// and request (what the process is waiting on, as parked goroutines are) — all from
// process.report. Environment variables and the rest of the report are left out.

interface Report {
  nativeStack?: { pc: string; symbol: string }[];
  libuv?: { type: string; is_active?: boolean; is_referenced?: boolean; [k: string]: unknown }[];
  workers?: { header?: { threadId?: number }; javascriptStack?: { message?: string; stack?: string[] } }[];
}

export function stacksDump(): string {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = 200;
  const js = new Error().stack ?? '';
  Error.stackTraceLimit = saved;
  const report = (process.report?.getReport() ?? {}) as Report;
  const sections: string[] = [];
  sections.push(
    [`thread 1 [running, JavaScript main thread, serving debug_stacks]:`, ...js.split('\n').slice(1).map((l) => '\t' + l.trim())].join('\n'),
  );
  const native = report.nativeStack ?? [];
  if (native.length) sections.push([`thread 1 [native stack of the main thread]:`, ...native.map((f) => `\t${f.pc} ${f.symbol.trim()}`)].join('\n'));
  for (const w of report.workers ?? []) {
    const lines = w.javascriptStack?.stack ?? [];
    sections.push([`worker thread ${w.header?.threadId ?? '?'} [JavaScript]:`, ...lines.map((l) => '\t' + l.trim())].join('\n'));
  }
  for (const h of report.libuv ?? []) {
    const { type, is_active, is_referenced, ...rest } = h;
    const state = [is_active ? 'active' : 'inactive', is_referenced ? 'referenced' : 'unreferenced'].join(', ');
    const details = Object.entries(rest).map(([k, v]) => `\t${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
    sections.push([`libuv ${type} [${state}]:`, ...details].join('\n'));
  }
  return sections.join('\n\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// geth's filter: a boolean expression of substrings (`(eth || snap) && !p2p`), each section of
// the dump kept when it holds. Words are [:/.A-Za-z0-9_-]+; operators ||, &&, ! and parentheses.

type Expr = (text: string) => boolean;

const WORD = /^[:/.A-Za-z0-9_-]+/;

/** Parses a filter; undefined when it is not a valid expression (geth then answers ""). */
export function parseStacksFilter(src: string): Expr | undefined {
  const tokens: string[] = [];
  let s = src;
  while (s.length) {
    const ws = /^\s+/.exec(s);
    if (ws) {
      s = s.slice(ws[0].length);
      continue;
    }
    const w = WORD.exec(s);
    const op = /^(\|\||&&|!|\(|\))/.exec(s);
    const t = w?.[0] ?? op?.[0];
    if (!t) return undefined;
    tokens.push(t);
    s = s.slice(t.length);
  }
  let i = 0;
  const isWord = (t: string | undefined) => t !== undefined && WORD.test(t);
  const or = (): Expr | undefined => {
    let l = and();
    while (l && tokens[i] === '||') {
      i++;
      const r = and();
      if (!r) return undefined;
      const a = l;
      l = (x) => a(x) || r(x);
    }
    return l;
  };
  const and = (): Expr | undefined => {
    let l = unary();
    while (l && tokens[i] === '&&') {
      i++;
      const r = unary();
      if (!r) return undefined;
      const a = l;
      l = (x) => a(x) && r(x);
    }
    return l;
  };
  const unary = (): Expr | undefined => {
    const t = tokens[i];
    if (t === '!') {
      i++;
      const e = unary();
      return e && ((x) => !e(x));
    }
    if (t === '(') {
      i++;
      const e = or();
      if (!e || tokens[i] !== ')') return undefined;
      i++;
      return e;
    }
    if (isWord(t)) {
      i++;
      return (x) => x.includes(t!);
    }
    return undefined;
  };
  const e = or();
  return e && i === tokens.length ? e : undefined;
}

/** geth's Stacks(filter): the whole dump, or the matching sections each followed by a blank line. */
export function stacks(filter: string | undefined): string {
  const dump = stacksDump();
  if (filter === undefined || filter.length === 0) return dump;
  const expr = parseStacksFilter(filter);
  if (!expr) return '';
  let out = '';
  for (const section of dump.split('\n\n')) if (expr(section)) out += section + '\n\n';
  return out;
}
