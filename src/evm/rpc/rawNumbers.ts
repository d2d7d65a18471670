// geth decodes each positional param with Go's encoding/json, which reads a number literal into an
// integer type from its text (strconv.ParseUint / ParseInt): `18446744073709551615` is a uint64,
// while `1.0`, `1e2` or `-0` (for a uint64) are refused, the literal quoted as sent. JSON.parse
// turns every literal into a double first (digits past 2^53 lost, 1e400 → Infinity, 1.0 → 1).
//
// So for a message whose params hold a bare number (rare: most params are hex strings), the
// server records here the source text of each number param the double does not spell the same
// way, in a side table keyed by the params array. The parsed values stay as they are, so every
// other decoder sees exactly what it saw before; the integer decoders (params.ts) read the text.
import { objectMembers, skipValue, skipWs, type Member } from '../../rpc/rawJSON.js';

const kept = new WeakMap<readonly unknown[], Map<number, string>>();
const keptMembers = new WeakMap<object, Map<string, string>>();

/** The JSON text of `arr[i]` (a number of the params, or of an array in them): as sent when the server kept it, else the value's. */
export function numberLiteral(arr: readonly unknown[], i: number): string {
  return kept.get(arr)?.get(i) ?? String(arr[i]);
}

/** The JSON text of the number `obj[key]` (a member of an object directly in the params, e.g. a TraceConfig) as sent, when the server kept it. */
export function memberLiteral(obj: object, key: string): string | undefined {
  return keptMembers.get(obj)?.get(key);
}

const hasNumber = (arr: unknown): arr is unknown[] => Array.isArray(arr) && arr.some((v) => typeof v === 'number');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** (Asked of every object param, e.g. each eth_call's call object: no array built.) */
function hasNumberMember(v: unknown): v is Record<string, unknown> {
  if (!isObject(v)) return false;
  for (const k in v) if (typeof v[k] === 'number') return true;
  return false;
}
/** A params array with a number in it, or in an array or object directly inside it. */
const hasParamNumber = (params: unknown): params is unknown[] =>
  Array.isArray(params) && params.some((v) => typeof v === 'number' || hasNumber(v) || hasNumberMember(v));

/**
 * Keeps the number params' source texts of the messages of a request body already accepted by
 * JSON.parse: `params[k]` is the params value the server read from message k (the body itself,
 * or the k-th element of a batch). One pass over the body at most, and none when no message has a
 * number param.
 */
export function keepParamNumbers(text: string, params: readonly unknown[], batch: boolean): void {
  if (!params.some(hasParamNumber)) return;
  let i = skipWs(text, 0);
  if (!batch) return keepFrom(text, i, params[0]);
  i = skipWs(text, i + 1); // past '['
  for (let k = 0; k < params.length && i < text.length && text.charCodeAt(i) !== 0x5d; k++) {
    if (hasParamNumber(params[k])) keepFrom(text, i, params[k]);
    i = skipWs(text, skipValue(text, i));
    if (text.charCodeAt(i) === 0x2c) i = skipWs(text, i + 1);
  }
}

/** Records the number texts of `params`, the params array of the message object at `open`. */
function keepFrom(text: string, open: number, params: unknown): void {
  if (!hasParamNumber(params) || text.charCodeAt(open) !== 0x7b) return;
  const member = paramsMember(objectMembers(text, open));
  if (!member || text.charCodeAt(member.start) !== 0x5b) return;
  keepElements(text, member.start, params, true);
}

/**
 * Records the number texts of `arr`, the array whose text opens at `open`; with `nested`, also those
 * of the arrays (eth_feeHistory's percentiles) and objects (a TraceConfig's `limit`) directly
 * inside it, one level deep.
 */
function keepElements(text: string, open: number, arr: readonly unknown[], nested: boolean): void {
  const texts = new Map<number, string>();
  let i = skipWs(text, open + 1);
  let k = 0;
  for (; i < text.length && text.charCodeAt(i) !== 0x5d; k++) {
    const end = skipValue(text, i);
    const v = arr[k];
    if (typeof v === 'number') {
      const literal = text.slice(i, end);
      if (literal !== String(v)) texts.set(k, literal);
    } else if (nested && Array.isArray(v) && text.charCodeAt(i) === 0x5b && hasNumber(v)) keepElements(text, i, v, false);
    else if (nested && text.charCodeAt(i) === 0x7b && hasNumberMember(v)) keepMembers(text, i, v);
    i = skipWs(text, end);
    if (text.charCodeAt(i) === 0x2c) i = skipWs(text, i + 1);
  }
  // Defensive: the text read must be the array the server holds.
  if (k === arr.length && texts.size > 0) kept.set(arr, texts);
}

/**
 * The `params` member the server's readMsg took from a JSON.parse'd object: JSON.parse keeps
 * each exact key's last value at the place of its first occurrence, and readMsg, walking keys in
 * that order, takes the last key equal to "params" ignoring case.
 */
function paramsMember(members: Member[]): Member | undefined {
  const firstAt = new Map<string, number>();
  const last = new Map<string, Member>();
  members.forEach((m, idx) => {
    if (m.key.toLowerCase() !== 'params') return;
    if (!firstAt.has(m.key)) firstAt.set(m.key, idx);
    last.set(m.key, m);
  });
  let best: string | undefined;
  for (const [key, at] of firstAt) if (best === undefined || at > firstAt.get(best)!) best = key;
  return best === undefined ? undefined : last.get(best);
}

/** Records the number texts of the members of `obj`, the object whose text opens at `open`. */
function keepMembers(text: string, open: number, obj: Record<string, unknown>): void {
  const texts = new Map<string, string>();
  // JSON.parse keeps a duplicated key's last value: the last literal of each key is the one.
  for (const m of objectMembers(text, open)) if (typeof obj[m.key] === 'number') texts.set(m.key, text.slice(m.start, m.end));
  // Defensive: each kept text must spell the value the server holds.
  for (const [key, literal] of texts) if (literal === String(obj[key]) || Number(literal) !== obj[key]) texts.delete(key);
  if (texts.size > 0) keptMembers.set(obj, texts);
}
