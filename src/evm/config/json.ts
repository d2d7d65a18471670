// A small JSON parser that keeps integers exact: genesis and upgrade files carry numbers beyond
// 2^53 (balances, fee config fields), which JSON.parse would round.
//   parseJson(text) → JsonValue: integer literals become bigint, other numbers a JsonFloat (the
//   literal as written: Go's decoders quote it, `number 1e3`, and refuse it in every integer field),
//   objects are null-prototype records (so keys like "__proto__" are plain data).
// Errors mimic Go's encoding/json texts where a user can see them.

import { GO_MAX_DEPTH_ERROR, exceedsGoJsonDepth } from '../../jsonDepth.js';
import { goFoldKey } from '../../rpc/rawJSON.js';
import { goSyntaxErrorOf } from '../../rpc/goScan.js';
import { goQuoteRune } from '../../rpc/goQuote.js';

export type JsonValue = null | boolean | string | bigint | JsonFloat | JsonValue[] | JsonObject;

/** A number literal with a fraction or an exponent, kept as written (`1e3`, `1.50`). */
export class JsonFloat {
  constructor(readonly text: string) {}
  toJSON(): number {
    return Number(this.text);
  }
}
export interface JsonObject {
  [key: string]: JsonValue;
}

export class JsonSyntaxError extends Error {}

/**
 * `literals`, when given, receives the source text of each scalar member of a top-level object
 * (`1.50` for {"a":1.50}): Go's decoder quotes a number as written in its type errors.
 */
export function parseJson(text: string, literals?: Map<string, string>): JsonValue {
  // Also keeps the recursive parser below far from the stack's limit.
  if (exceedsGoJsonDepth(text)) throw new JsonSyntaxError(GO_MAX_DEPTH_ERROR);
  const p = new Parser(text, literals);
  try {
    p.ws();
    const v = p.value();
    p.ws();
    if (p.i < text.length) throw new JsonSyntaxError(`invalid character '${text[p.i]}' after top-level value`);
    return v;
  } catch (e) {
    throw e instanceof JsonSyntaxError ? new JsonSyntaxError(goUnmarshalSyntaxError(text) ?? e.message) : e;
  }
}

/**
 * json.Unmarshal's syntax error for `text`, from Go's own scanner rules run on its UTF-8 bytes
 * (src/rpc/goScan.ts): Go quotes the offending byte, so a byte-order mark at the start is `'ï'` (its
 * first byte, 0xEF, read as a rune) and a control character in a string `'\n'`. Undefined when the
 * scanner finds the text valid.
 */
function goUnmarshalSyntaxError(text: string): string | undefined {
  const bytes = Buffer.from(text, 'utf8');
  const r = goSyntaxErrorOf(bytes);
  if (r === 'EOF' || r === 'unexpected EOF') return 'unexpected end of JSON input';
  if (typeof r === 'string') return r;
  let i = r;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return i < bytes.length ? `invalid character ${goQuoteRune(String.fromCharCode(bytes[i]))} after top-level value` : undefined;
}

/**
 * JSON.parse with Go's json.Unmarshal syntax error texts (`unexpected end of JSON input`,
 * `invalid character 'x' looking for beginning of object key string`, …) instead of V8's.
 */
export function parseJsonGoErrors(text: string): unknown {
  if (exceedsGoJsonDepth(text)) throw new JsonSyntaxError(GO_MAX_DEPTH_ERROR);
  try {
    return JSON.parse(text);
  } catch (e) {
    try {
      parseJson(text);
    } catch (goError) {
      if (goError instanceof JsonSyntaxError) throw goError;
    }
    throw e;
  }
}

export function parseJsonBytes(bytes: Uint8Array): JsonValue {
  return parseJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
}

export function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonFloat);
}

/**
 * A parsed value written back as compact JSON text, numbers as they were written (what Go's
 * decoders quote in their errors; whitespace inside the value is not kept).
 */
export function jsonText(v: JsonValue): string {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof JsonFloat) return v.text;
  if (Array.isArray(v)) return '[' + v.map(jsonText).join(',') + ']';
  if (isObject(v)) return '{' + Object.keys(v).map((k) => JSON.stringify(k) + ':' + jsonText(v[k]!)).join(',') + '}';
  return JSON.stringify(v);
}

/**
 * The members of a JSON object decoded into a Go struct with the JSON names `fields`: Go's
 * encoding/json matches a member to a field by its exact name or, failing that, case-insensitively
 * (`"ChainID"` sets `chainId`), the later of two matching members winning. Returns a copy where
 * each matched member is under its field's exact name; other members are kept as they are (genesis
 * `config` is also read as a map of precompile keys, matched exactly).
 */
export function goStruct(obj: JsonObject, fields: readonly string[]): JsonObject {
  const exact = new Set(fields);
  const folded = new Map(fields.map((f) => [goFoldKey(f), f]));
  const out = Object.create(null) as JsonObject;
  for (const [k, v] of Object.entries(obj)) out[exact.has(k) ? k : (folded.get(goFoldKey(k)) ?? k)] = v;
  return out;
}

/** Go-style name of a JSON value's type for "cannot unmarshal X into ..." messages. */
export function jsonTypeName(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'bigint' || v instanceof JsonFloat) return 'number';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

const NUMBER_RE = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

class Parser {
  i = 0;
  constructor(
    private readonly s: string,
    private readonly literals?: Map<string, string>,
  ) {}

  ws(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.i++;
      else break;
    }
  }

  fail(): never {
    if (this.i >= this.s.length) throw new JsonSyntaxError('unexpected end of JSON input');
    throw new JsonSyntaxError(`invalid character '${this.s[this.i]}' looking for beginning of value`);
  }

  /**
   * One value, containers included. Iterative (an explicit stack of open containers), so depth is
   * bounded by Go's limit (checked before parsing), not by the JS call stack (~4,000 levels).
   */
  value(): JsonValue {
    const s = this.s;
    const open: ({ arr: JsonValue[] } | { obj: JsonObject; key: string })[] = [];
    for (;;) {
      let v: JsonValue;
      const c = s[this.i];
      if (c === '{') {
        this.i++;
        this.ws();
        if (s[this.i] === '}') {
          this.i++;
          v = Object.create(null) as JsonObject;
        } else {
          open.push({ obj: Object.create(null) as JsonObject, key: this.key() });
          continue;
        }
      } else if (c === '[') {
        this.i++;
        this.ws();
        if (s[this.i] === ']') {
          this.i++;
          v = [];
        } else {
          open.push({ arr: [] });
          continue;
        }
      } else {
        const start = this.i;
        v = this.scalar();
        const member = open.length === 1 ? open[0] : undefined;
        if (this.literals && member && 'key' in member) this.literals.set(member.key, s.slice(start, this.i));
      }
      // Hand the value to the containers it completes; stop at one that wants another value.
      for (;;) {
        const top = open[open.length - 1];
        if (!top) return v;
        this.ws();
        const next = s[this.i];
        if ('arr' in top) {
          top.arr.push(v);
          if (next === ',') {
            this.i++;
            this.ws();
            break;
          }
          if (next !== ']') this.expect('after array element');
          this.i++;
          open.pop();
          v = top.arr;
        } else {
          top.obj[top.key] = v;
          if (next === ',') {
            this.i++;
            top.key = this.key();
            break;
          }
          if (next !== '}') this.expect('after object key:value pair');
          this.i++;
          open.pop();
          v = top.obj;
        }
      }
    }
  }

  /** An object member's key and its colon, leaving the position at the value. */
  private key(): string {
    this.ws();
    if (this.s[this.i] !== '"') this.expect('looking for beginning of object key string');
    const k = this.string();
    this.ws();
    if (this.s[this.i] !== ':') this.expect('after object key');
    this.i++;
    this.ws();
    return k;
  }

  private scalar(): JsonValue {
    const s = this.s;
    const c = s[this.i];
    if (c === '"') return this.string();
    if (c === 't' && s.startsWith('true', this.i)) return (this.i += 4), true;
    if (c === 'f' && s.startsWith('false', this.i)) return (this.i += 5), false;
    if (c === 'n' && s.startsWith('null', this.i)) return (this.i += 4), null;
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      NUMBER_RE.lastIndex = this.i;
      const m = NUMBER_RE.exec(s);
      if (!m) this.fail();
      this.i += m[0].length;
      return m[1] === undefined && m[2] === undefined ? BigInt(m[0]) : new JsonFloat(m[0]);
    }
    return this.fail();
  }

  string(): string {
    const s = this.s;
    const start = this.i;
    let j = start + 1;
    let simple = true;
    for (; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (c === 0x22) break;
      if (c === 0x5c) {
        simple = false;
        j++;
      } else if (c < 0x20) {
        this.i = j;
        throw new JsonSyntaxError('invalid character in string literal');
      }
    }
    if (j >= s.length) {
      this.i = s.length;
      this.fail();
    }
    this.i = j + 1;
    const raw = s.slice(start, j + 1);
    if (simple) return raw.slice(1, -1);
    try {
      return JSON.parse(raw) as string;
    } catch {
      throw new JsonSyntaxError('invalid escape in string literal');
    }
  }

  expect(ctx: string): never {
    if (this.i >= this.s.length) throw new JsonSyntaxError('unexpected end of JSON input');
    throw new JsonSyntaxError(`invalid character '${this.s[this.i]}' ${ctx}`);
  }
}
