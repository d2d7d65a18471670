// geth echoes a request's `id` byte for byte (a json.RawMessage); JSON.parse turns a numeric id
// into a double, which loses digits past 2^53. For the rare body whose numeric id is not a safe
// integer, this scanner finds the id members' source texts so they can be echoed as sent.

/** An id echoed as its source text (a number JSON.parse could not hold exactly). */
export class RawNumber {
  constructor(readonly text: string) {}
}

/** Index just past the JSON value starting at `i` (the text is valid JSON: JSON.parse took it). */
function skipValue(t: string, i: number): number {
  const c = t[i];
  if (c === '"') return skipString(t, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (; i < t.length; i++) {
      const d = t[i];
      if (d === '"') i = skipString(t, i) - 1;
      else if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return i;
  }
  while (i < t.length && !/[\s,\]}]/.test(t[i])) i++; // number, true, false, null
  return i;
}

function skipString(t: string, i: number): number {
  for (i++; i < t.length; i++) {
    if (t[i] === '\\') i++;
    else if (t[i] === '"') return i + 1;
  }
  return i;
}

function skipWs(t: string, i: number): number {
  while (i < t.length && (t[i] === ' ' || t[i] === '\t' || t[i] === '\n' || t[i] === '\r')) i++;
  return i;
}

/** The source text of the object's last member named `id` (any case, as Go matches it) at `i`. */
function idOf(t: string, i: number): string | undefined {
  if (t[i] !== '{') return undefined;
  let found: string | undefined;
  i = skipWs(t, i + 1);
  while (i < t.length && t[i] !== '}') {
    const keyEnd = skipString(t, i);
    const key = JSON.parse(t.slice(i, keyEnd)) as string;
    i = skipWs(t, keyEnd) + 1; // past ':'
    i = skipWs(t, i);
    const end = skipValue(t, i);
    if (key.toLowerCase() === 'id') found = t.slice(i, end);
    i = skipWs(t, end);
    if (t[i] === ',') i = skipWs(t, i + 1);
  }
  return found;
}

/**
 * The id source texts of a request body already accepted by JSON.parse: for an object, `[text]`;
 * for a batch, one entry per element (undefined where the element has no id or is no object).
 */
export function rawIds(text: string): (string | undefined)[] {
  let i = skipWs(text, 0);
  if (text[i] === '{') return [idOf(text, i)];
  if (text[i] !== '[') return [];
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
