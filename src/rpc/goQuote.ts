// Go's %q (strconv.Quote / strconv.QuoteRune): the quoting AvalancheGo and gorilla use for names
// in error texts (`rpc: can't find method %q`, `logger with name %q not found`, `invalid vmID: %q`,
// base58's `Invalid base58 digit (%q)`), so those texts match byte for byte.

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const ESCAPES: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v' };

function quoteWith(s: string, quote: '"' | "'"): string {
  let out = quote;
  for (const ch of s) {
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (PRINTABLE.test(ch)) out += ch;
    else if (ESCAPES[ch] !== undefined) out += ESCAPES[ch];
    else {
      const c = ch.codePointAt(0)!;
      if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
      // A lone surrogate: what Go would have read as invalid UTF-8, decoded to U+FFFD.
      else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd';
      else if (c < 0x10000) out += '\\u' + c.toString(16).padStart(4, '0');
      else out += '\\U' + c.toString(16).padStart(8, '0');
    }
  }
  return out + quote;
}

/** strconv.Quote: `"…"`. */
export const goQuote = (s: string): string => quoteWith(s, '"');

/** strconv.QuoteRune (%q of a rune): `'…'`. */
export const goQuoteRune = (r: string): string => quoteWith(r, "'");
