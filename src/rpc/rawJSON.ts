// Go's encoding/json reads a request member by member, keeps json.RawMessage values as the bytes
// sent, and replaces lone UTF-16 surrogates (`"\ud800"`) with U+FFFD. JSON.parse keeps only the
// last of duplicate keys, reformats numbers (`1.0` → 1, `1e400` → Infinity, digits past 2^53 lost)
// and keeps lone surrogates. These helpers read a text JSON.parse already accepted the way Go's
// decoder does: members in order with duplicates, raw values compacted as Go re-emits them.
// All of them are iterative (no recursion), so any nesting the parser allows is safe.

/** Index of the quote closing the string that opens at `open` (the text is valid JSON). */
function closingQuote(t: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const q = t.indexOf('"', from);
    if (q < 0) return t.length - 1;
    let backslashes = 0;
    while (t.charCodeAt(q - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return q;
    from = q + 1;
  }
}

const STRUCTURAL = /["[\]{}]/g;

/** Index just past the JSON value starting at `i`. */
export function skipValue(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === 0x22) return closingQuote(t, i) + 1;
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    STRUCTURAL.lastIndex = i;
    for (;;) {
      const m = STRUCTURAL.exec(t);
      if (m === null) return t.length;
      const at = m.index;
      const d = t.charCodeAt(at);
      if (d === 0x22) STRUCTURAL.lastIndex = closingQuote(t, at) + 1;
      else if (d === 0x7b || d === 0x5b) depth++;
      else if (--depth === 0) return at + 1;
    }
  }
  // number, true, false, null
  let j = i;
  for (; j < t.length; j++) {
    const d = t.charCodeAt(j);
    if (d === 0x2c || d === 0x5d || d === 0x7d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) break;
  }
  return j;
}

export function skipWs(t: string, i: number): number {
  for (; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
  }
  return i;
}

/** One object member: its key (decoded, as Go decodes it) and its value's source span. */
export interface Member {
  key: string;
  start: number;
  end: number;
}

/** The members of the object opening at `open`, in source order, duplicates included. */
export function objectMembers(t: string, open: number): Member[] {
  const out: Member[] = [];
  let i = skipWs(t, open + 1);
  while (i < t.length && t.charCodeAt(i) !== 0x7d) {
    const keyEnd = closingQuote(t, i) + 1;
    const rawKey = t.slice(i + 1, keyEnd - 1);
    // Most keys have no escape: no need to parse them.
    const key = rawKey.includes('\\') ? wellFormed(JSON.parse(t.slice(i, keyEnd)) as string) : rawKey;
    i = skipWs(t, skipWs(t, keyEnd) + 1); // past ':'
    const end = skipValue(t, i);
    out.push({ key, start: i, end });
    i = skipWs(t, end);
    if (t.charCodeAt(i) === 0x2c) i = skipWs(t, i + 1);
  }
  return out;
}

/** The span of the first element of the array opening at `open`, or undefined if it is empty. */
export function firstElement(t: string, open: number): { start: number; end: number } | undefined {
  const i = skipWs(t, open + 1);
  if (i >= t.length || t.charCodeAt(i) === 0x5d) return undefined;
  return { start: i, end: skipValue(t, i) };
}

const HTML_OR_LS = /[<>&\u2028\u2029]/g;
const GO_ESCAPED: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };
const escapeHTML = (s: string) => s.replace(HTML_OR_LS, (c) => GO_ESCAPED[c]);
const NEEDS_COMPACT = /[\s<>&\u2028\u2029]/;

/**
 * A json.RawMessage as Go's encoder writes it (json.Compact with HTML escaping): whitespace
 * outside strings dropped, `<`, `>`, `&`, U+2028 and U+2029 escaped, everything else as sent
 * (numbers keep their digits, escapes stay escapes).
 */
export function compactRaw(t: string, start: number, end: number): string {
  const src = t.slice(start, end);
  if (!NEEDS_COMPACT.test(src)) return src;
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src.charCodeAt(i);
    if (c === 0x22) {
      const close = closingQuote(src, i);
      out += escapeHTML(src.slice(i, close + 1));
      i = close + 1;
    } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      i++;
    } else {
      // Up to the next string or whitespace, verbatim (no string here: no HTML characters).
      let j = i + 1;
      for (; j < src.length; j++) {
        const d = src.charCodeAt(j);
        if (d === 0x22 || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) break;
      }
      out += src.slice(i, j);
      i = j;
    }
  }
  return out;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const HAS_LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const isWellFormed = (s: string) => !HAS_LONE_SURROGATE.test(s);
/** A `\u` escape of a surrogate in JSON text: only then can a parsed string hold a lone one. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** A string as Go decodes it: each lone surrogate is U+FFFD. */
export function wellFormed(s: string): string {
  return isWellFormed(s) ? s : s.replace(LONE_SURROGATE, '\ufffd');
}

/** JSON.parse of a JSON text (valid), with Go's strings: lone surrogates become U+FFFD. */
export function goParse(text: string): unknown {
  // A string without escapes is its own text (the common case: no parse).
  if (text.charCodeAt(0) === 0x22 && !text.includes('\\', 1)) return text.slice(1, -1);
  const v = JSON.parse(text) as unknown;
  return SURROGATE_ESCAPE.test(text) ? fixStrings(v) : v;
}

/** Replaces lone surrogates in every string and key of a parsed value (iteratively). */
function fixStrings(root: unknown): unknown {
  if (typeof root === 'string') return wellFormed(root);
  if (typeof root !== 'object' || root === null) return root;
  const stack: object[] = [root];
  while (stack.length) {
    const o = stack.pop()!;
    if (Array.isArray(o)) {
      for (let i = 0; i < o.length; i++) {
        const v = o[i];
        if (typeof v === 'string') o[i] = wellFormed(v);
        else if (typeof v === 'object' && v !== null) stack.push(v);
      }
      continue;
    }
    const rec = o as Record<string, unknown>;
    const keys = Object.keys(rec);
    const rename = keys.some((k) => !isWellFormed(k));
    const entries = keys.map((k) => [k, rec[k]] as const);
    if (rename) for (const k of keys) delete rec[k];
    for (const [k, v] of entries) {
      const key = rename ? wellFormed(k) : k;
      if (typeof v === 'string') rec[key] = wellFormed(v);
      else {
        if (rename) rec[key] = v;
        if (typeof v === 'object' && v !== null) stack.push(v);
      }
    }
  }
  return root;
}

/**
 * Go's key matching (encoding/json foldName): ASCII letters case-insensitively, plus the two
 * non-ASCII runes whose simple case folding reaches an ASCII letter: ſ (U+017F) ~ s, K (U+212A) ~ k.
 */
export function goFoldKey(k: string): string {
  return k.replace(/[a-z\u017f\u212a]/g, (c) => (c === '\u017f' ? 'S' : c === '\u212a' ? 'K' : c.toUpperCase()));
}

/** JSON.stringify of a parsed JSON value, iteratively: the same text, at any nesting depth. */
export function stringifyParsed(root: unknown): string {
  const out: string[] = [];
  // A work list of values to write and literal texts (`,`, `]`, `}`, `"key":`) between them.
  const work: unknown[] = [root];
  const LITERAL = Symbol('literal');
  type Lit = { [LITERAL]: string };
  while (work.length) {
    const v = work.pop();
    if (typeof v === 'object' && v !== null && LITERAL in v) {
      out.push((v as Lit)[LITERAL]);
      continue;
    }
    if (typeof v !== 'object' || v === null) {
      out.push(JSON.stringify(v) ?? 'null');
      continue;
    }
    const items: unknown[] = [];
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        if (i > 0) items.push({ [LITERAL]: ',' });
        items.push(x);
      });
      out.push('[');
      work.push({ [LITERAL]: ']' });
    } else {
      Object.keys(v).forEach((k, i) => items.push({ [LITERAL]: (i > 0 ? ',' : '') + JSON.stringify(k) + ':' }, (v as Record<string, unknown>)[k]));
      out.push('{');
      work.push({ [LITERAL]: '}' });
    }
    for (let i = items.length - 1; i >= 0; i--) work.push(items[i]);
  }
  return out.join('');
}
