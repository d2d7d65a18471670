// JSON with integers past 2^53. A genesis holds such numbers as bare JSON numbers (balances, fee
// config fields: reference subnet-evm.md, "big-num"), which JSON.parse rounds to doubles
// (1000000000000000000000001 → 1e+24). A chain definition's genesis given inline (--chains,
// --chains-file, a config file's "chains") is read here so those integers arrive as bigints, and
// written back as the same bare digits; a library caller may put bigints in a genesis object too.
import { objectMembers, skipValue, skipWs } from '../rpc/rawJSON.js';

/** JSON.parse, except that an integer literal a double cannot hold exactly becomes a bigint. */
export function parseJSONKeepingIntegers(text: string): unknown {
  const value = JSON.parse(text) as unknown;
  return keepIntegers(text, skipWs(text, 0), value);
}

const INTEGER = /^-?\d+$/;

/** `value` is what JSON.parse made of the text at `start`: its rounded integers replaced. */
function keepIntegers(text: string, start: number, value: unknown): unknown {
  if (typeof value === 'number') {
    const literal = text.slice(start, skipValue(text, start));
    return INTEGER.test(literal) && !Number.isSafeInteger(value) ? BigInt(literal) : value;
  }
  if (Array.isArray(value)) {
    let i = skipWs(text, start + 1);
    for (let k = 0; k < value.length; k++) {
      value[k] = keepIntegers(text, i, value[k]);
      i = skipWs(text, skipValue(text, i));
      if (text.charCodeAt(i) === 0x2c) i = skipWs(text, i + 1);
    }
    return value;
  }
  if (typeof value === 'object' && value !== null) {
    const obj = value as Record<string, unknown>;
    // JSON.parse keeps the last of duplicate keys: its value is the one to walk.
    const last = new Map<string, number>();
    for (const m of objectMembers(text, start)) last.set(m.key, m.start);
    for (const [key, at] of last) obj[key] = keepIntegers(text, at, obj[key]);
    return obj;
  }
  return value;
}

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
