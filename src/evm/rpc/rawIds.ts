// geth echoes a request's `id` byte for byte (a json.RawMessage); JSON.parse turns a numeric id
// into a double, which loses digits past 2^53. For the rare body whose numeric id is not a safe
// integer, this finds the id members' source texts (with the node APIs' raw JSON reader,
// src/rpc/rawJSON.ts) so they can be echoed as sent.
import { goFoldKey, objectMembers, skipValue, skipWs } from '../../rpc/rawJSON.js';

/** An id echoed as its source text (a number JSON.parse could not hold exactly). */
export class RawNumber {
  constructor(readonly text: string) {}
}

/** The source text of the object's last member named `id` (any case, as Go matches it) at `i`. */
function idOf(t: string, i: number): string | undefined {
  if (t.charCodeAt(i) !== 0x7b) return undefined;
  let found: string | undefined;
  for (const m of objectMembers(t, i)) if (goFoldKey(m.key) === 'ID') found = t.slice(m.start, m.end);
  return found;
}

/**
 * The id source texts of a request body already accepted by JSON.parse: for an object, `[text]`;
 * for a batch, one entry per element (undefined where the element has no id or is no object).
 */
export function rawIds(text: string): (string | undefined)[] {
  let i = skipWs(text, 0);
  if (text.charCodeAt(i) === 0x7b) return [idOf(text, i)];
  if (text.charCodeAt(i) !== 0x5b) return [];
  const out: (string | undefined)[] = [];
  i = skipWs(text, i + 1);
  while (i < text.length && text[i] !== ']') {
    out.push(idOf(text, i));
    i = skipWs(text, skipValue(text, i));
    if (text[i] === ',') i = skipWs(text, i + 1);
  }
  return out;
}

/** A numeric id that JSON.parse could not keep exactly (past 2^53, fractional, -0). */
export function lossyNumber(id: unknown): boolean {
  return typeof id === 'number' && (!Number.isSafeInteger(id) || Object.is(id, -0));
}
