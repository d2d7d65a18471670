// Go's encoding/json refuses input nested more than 10,000 arrays/objects deep with the syntax
// error "exceeded max depth" (its scanner's maxNestingDepth); V8's JSON.parse takes any depth. The
// parsers that stand in for Go's (JSON-RPC bodies, Gorilla services, config files) ask this first.

export const GO_MAX_JSON_DEPTH = 10_000;
export const GO_MAX_DEPTH_ERROR = 'exceeded max depth';

/**
 * Whether `text` opens more than 10,000 arrays/objects at once before its end (strings skipped).
 * A text of at most 10,000 characters cannot, so ordinary requests cost one length check; longer
 * ones one pass, with string contents (most of a big body: hex data) skipped by indexOf.
 */
export function exceedsGoJsonDepth(text: string): boolean {
  if (text.length <= GO_MAX_JSON_DEPTH) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(text, i);
      if (i < 0) return false; // unterminated: the parser reports it
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > GO_MAX_JSON_DEPTH) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** Index of the quote closing the string that opens at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return q;
    from = q + 1;
  }
}
