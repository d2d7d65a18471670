// Go's url.ParseQuery, as `r.URL.Query()` uses it: pairs split on `&`, a pair holding `;` is
// dropped (Go 1.17+ refuses the old separator), `+` is a space, and a pair with a malformed `%`
// escape is dropped whole. (URLSearchParams keeps both kinds, and reads `;` as text.)

const HEX = /^[0-9A-Fa-f]{2}$/;

/** url.QueryUnescape, or undefined where Go returns an error (a `%` not followed by two hex digits). */
function queryUnescape(s: string): string | undefined {
  if (!s.includes('%')) return s.replaceAll('+', ' ');
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!HEX.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (c === '+') bytes.push(0x20);
    else for (const b of Buffer.from(c, 'utf8')) bytes.push(b);
  }
  // Go strings are bytes; invalid UTF-8 is kept as such (here: U+FFFD, the closest JS can hold).
  return Buffer.from(bytes).toString('utf8');
}

/** The values of `key` in a request target's query, as Go's `r.URL.Query()[key]`. */
export function goQueryValues(url: string, key: string): string[] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  // (A request target has no fragment: url.ParseRequestURI keeps a `#` in the query.)
  const query = url.slice(q + 1);
  const out: string[] = [];
  for (const pair of query.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const k = queryUnescape(eq < 0 ? pair : pair.slice(0, eq));
    const v = queryUnescape(eq < 0 ? '' : pair.slice(eq + 1));
    if (k === undefined || v === undefined) continue;
    if (k === key) out.push(v);
  }
  return out;
}
