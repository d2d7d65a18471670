// Go's %q (strconv.Quote / strconv.QuoteRune): the quoting AvalancheGo and gorilla use for names
// in error texts (`rpc: can't find method %q`, `logger with name %q not found`, `invalid vmID: %q`,
// base58's `Invalid base58 digit (%q)`), so those texts match byte for byte.

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const ESCAPES: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v' };

/** Characters that may need escaping: anything but printable ASCII other than the quotes and `\\`. */
const SPECIAL = /[^\x20\x21\x23-\x26\x28-\x5b\x5d-\x7e]/gu;

function quoteWith(s: string, quote: '"' | "'"): string {
  // Per special character only (a name may be megabytes long: no per-character test of the rest).
  return quote + s.replace(SPECIAL, (ch) => quoteChar(ch, quote)) + quote;
}

function quoteChar(ch: string, quote: '"' | "'"): string {
  if (ch === '"' || ch === "'") return ch === quote ? '\\' + ch : ch;
  if (ch === '\\') return '\\\\';
  if (PRINTABLE.test(ch)) return ch;
  if (ESCAPES[ch] !== undefined) return ESCAPES[ch];
  const c = ch.codePointAt(0)!;
  if (c < 0x20 || c === 0x7f) return '\\x' + c.toString(16).padStart(2, '0');
  // A lone surrogate: what Go would have read as invalid UTF-8, decoded to U+FFFD.
  if (c >= 0xd800 && c <= 0xdfff) return '\ufffd';
  if (c < 0x10000) return '\\u' + c.toString(16).padStart(4, '0');
  return '\\U' + c.toString(16).padStart(8, '0');
}

/** strconv.Quote: `"…"`. */
export const goQuote = (s: string): string => quoteWith(s, '"');

/** strconv.QuoteRune (%q of a rune): `'…'`. */
export const goQuoteRune = (r: string): string => quoteWith(r, "'");
