// JSON with integers past 2^53. A genesis holds such numbers as bare JSON numbers (balances, fee
// config fields: reference subnet-evm.md, "big-num"), which JSON.parse rounds to doubles
// (1000000000000000000000001 → 1e+24). A chain definition's genesis given inline (--chains,
// --chains-file, a config file's "chains") is read here so those integers arrive as bigints, and
// written back as the same bare digits; a library caller may put bigints in a genesis object too.
import { objectMembers, skipValue, skipWs } from '../rpc/rawJSON.js';
import { parseJsonGoErrors } from '../evm/config/json.js';

/** JSON.parse, except that an integer literal a double cannot hold exactly becomes a bigint. */
export function parseJSONKeepingIntegers(text: string): unknown {
  // With Go's syntax texts and depth limit: keepIntegers recurses once per level, and a file of
  // 200,000 nested arrays failed with V8's "Maximum call stack size exceeded".
  const value = parseJsonGoErrors(text);
  return keepIntegers(text, skipWs(text, 0), value);
}

const INTEGER = /^-?\d+$/;

/**
 * `value` is what JSON.parse made of the text at `start`: its rounded integers replaced. A loop, not
 * a recursion: Go takes values 10,000 levels deep, deeper than a recursion here could go.
 */
function keepIntegers(text: string, start: number, value: unknown): unknown {
  // Only an integer literal of 16 digits or more can be past 2^53: without one there is nothing to do.
  if (!LONG_DIGITS.test(text)) return value;
  const root: Record<string, unknown> = { value };
  const work: [holder: Record<string | number, unknown>, key: string | number, at: number][] = [[root, 'value', start]];
  for (let w = work.pop(); w !== undefined; w = work.pop()) {
    const [holder, key, at] = w;
    const v = holder[key];
    if (typeof v === 'number') {
      const literal = text.slice(at, skipValue(text, at));
      if (INTEGER.test(literal) && !Number.isSafeInteger(v)) holder[key] = BigInt(literal);
    } else if (Array.isArray(v)) {
      let i = skipWs(text, at + 1);
      for (let k = 0; k < v.length; k++) {
        work.push([v as unknown as Record<number, unknown>, k, i]);
        i = skipWs(text, skipValue(text, i));
        if (text.charCodeAt(i) === 0x2c) i = skipWs(text, i + 1);
      }
    } else if (typeof v === 'object' && v !== null) {
      // JSON.parse keeps the last of duplicate keys: its value is the one to walk.
      const last = new Map<string, number>();
      for (const m of objectMembers(text, at)) last.set(m.key, m.start);
      for (const [k, a] of last) work.push([v as Record<string, unknown>, k, a]);
    }
  }
  return root.value;
}

const LONG_DIGITS = /\d{16}/;

const MARK = '\u0000bigint:';

/** JSON.stringify, with every bigint written as its bare digits (no other value changes). */
export function stringifyWithBigInts(value: unknown): string {
  let found = false;
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    found = true;
    return MARK + v.toString();
  });
  // The marker starts with U+0000, which JSON.stringify writes as \u0000: only a string of the
  // input that is exactly U+0000 "bigint:" and digits could look like one.
  return found ? text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1') : text;
}
