// The node-style JSON-RPC 2.0 engine: gorilla/rpc v2 + AvalancheGo's codec wrapper, reproduced
// rule for rule (reference: avalanchego-node.md §1). Every node API (/ext/admin, /ext/info,
// POST /ext/health) and the Gorilla-style chain endpoints (/validators) use it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BoundedMap } from '../boundedMap.js';
import { GO_MAX_DEPTH_ERROR, exceedsGoJsonDepth } from '../jsonDepth.js';
import { readBody, BodyTooLargeError } from '../server/body.js';
import { writeReply, type Reply, type RouteHandler } from '../server/router.js';
import { goQuote, goQuoteRune } from './goQuote.js';
import { goSyntaxErrorOf } from './goScan.js';
import { compactRaw, firstElement, goFoldKey, goParse, objectMembers, skipWs, wellFormed } from './rawJSON.js';

export const UNMARSHAL_ERROR =
  "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";

/**
 * A field decoder: returns the decoded value or throws (any throw becomes UNMARSHAL_ERROR). It is
 * called with each occurrence of its key in turn (Go decodes duplicate keys in order, last wins),
 * then with undefined if the key never appeared.
 */
export type FieldDecoder<T = unknown> = ((v: unknown) => T) & { [NULL_KEEPS]?: true };

/**
 * Marks a decoder of a Go non-pointer scalar (string, bool, json.Uint64): a JSON null leaves such a
 * field as it was — a duplicate `"k":null` after `"k":"x"` keeps "x" — while null resets a pointer
 * or a slice (every other decoder).
 */
export const NULL_KEEPS = Symbol('null keeps the value');
const keepsOnNull = <T>(d: (v: unknown) => T): FieldDecoder<T> => Object.assign(d, { [NULL_KEEPS]: true as const });

export interface GorillaMethod {
  /** Argument fields by wire name; matched case-insensitively as Go's encoding/json does. */
  params?: Record<string, FieldDecoder>;
  handler: (args: Record<string, any>, req: IncomingMessage) => unknown | Promise<unknown>;
}

/** A service: wire method name after the dot (e.g. `alias`) → method. */
export type GorillaService = Record<string, GorillaMethod>;

// Field decoders with Go encoding/json semantics (null leaves the zero value).
export const str: FieldDecoder<string> = keepsOnNull((v) => {
  if (v === null || v === undefined) return '';
  if (typeof v !== 'string') throw new Error('not a string');
  return v;
});
export const optStr: FieldDecoder<string | undefined> = keepsOnNull((v) => {
  if (v === null || v === undefined) return undefined;
  if (typeof v !== 'string') throw new Error('not a string');
  return v;
});
export const bool: FieldDecoder<boolean> = keepsOnNull((v) => {
  if (v === null || v === undefined) return false;
  if (typeof v !== 'boolean') throw new Error('not a bool');
  return v;
});
export const strArray: FieldDecoder<string[] | undefined> = (v) => {
  if (v === null || v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((x) => x !== null && typeof x !== 'string')) throw new Error('not a string array');
  // A null element is Go's zero string.
  return v.map((x) => x ?? '') as string[];
};
/**
 * utils/json.Uint64: a decimal string or a bare number. (A bare number past 2^53 arrives rounded by
 * JSON.parse — a string keeps every digit; one of 2^64 or more is refused, as Go refuses it.)
 */
export const uint64: FieldDecoder<bigint> = keepsOnNull((v) => {
  if (v === null || v === undefined) return 0n;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 2 ** 64) return BigInt(v);
  if (typeof v === 'string' && /^[0-9]+$/.test(v)) {
    const n = BigInt(v);
    if (n < 2n ** 64n) return n;
  }
  throw new Error('not a uint64');
});
export function custom<T>(f: (v: unknown) => T): FieldDecoder<T> {
  return f;
}

/** Keys sorted by byte order, as Go's encoding/json emits maps. */
export function sortedObject<T>(entries: Iterable<[string, T]>): Record<string, T> {
  const arr = [...entries].sort(([a], [b]) => (Buffer.compare(Buffer.from(a), Buffer.from(b))));
  const out: Record<string, T> = {};
  for (const [k, v] of arr) out[k] = v;
  return out;
}

/** The decoded request (json2.serverRequest): params and id are raw spans of the source text. */
interface Envelope {
  jsonrpc: string;
  method: string;
  /** The source text the spans index. */
  text: string;
  /** json.RawMessage members: the last occurrence's span; undefined when absent or null. */
  params: Span | undefined;
  id: Span | undefined;
}

interface Span {
  start: number;
  end: number;
}

/** A method's error with its JSON-RPC code (the answer's `data` is always null here, as in Go). */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const HTML_CHARS = /[<>&\u2028\u2029]/;
const GO_ESCAPED: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };
const ONLY_SPACE = /^\s*$/;

/**
 * Go's encoding/json escapes <, >, & and U+2028/U+2029 in strings; so do we. Without a bigint the
 * replacer is not needed, and JSON.stringify without one is ~2.5× faster (most answers have none,
 * and a bigint makes the plain call throw at once); the escapes are only searched for when there
 * are any.
 */
export function goJSON(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    s = JSON.stringify(v, bigintAsNumber).replace(/"__bigint:(\d+)"/g, '$1');
  }
  return HTML_CHARS.test(s) ? s.replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPED[c]) : s;
}

/**
 * A result already encoded as Go would encode it (a handler's hot answer built from cached parts);
 * the server writes `text` as the result without encoding it again.
 */
export class GoJSONText {
  constructor(readonly text: string) {}
}

/** bigint fields (e.g. uint64 weights) are written as bare JSON numbers, as Go writes uint64. */
function bigintAsNumber(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? `__bigint:${v}` : v;
}

export function goTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/**
 * JSON.parse with Go's tolerance (trailing bytes after the first value are ignored) and Go's
 * encoding/json error texts for the common syntax errors (V8's texts mapped by their meaning).
 */
export function parseGoJSON(text: string): unknown {
  return parseGoJSONText(text).value;
}

/**
 * parseGoJSON, with the text of the first JSON value (trailing bytes cut off). `bytes` is the text
 * as received, when there is one: Go's error texts quote the offending byte.
 */
function parseGoJSONText(text: string, bytes?: Uint8Array): { value: unknown; text: string } {
  if (ONLY_SPACE.test(text)) throw new Error('EOF');
  if (exceedsGoJsonDepth(text)) throw new Error(GO_MAX_DEPTH_ERROR);
  try {
    return { value: JSON.parse(text), text };
  } catch (e) {
    const msg = (e as Error).message;
    const trailing = /after JSON at position (\d+)/.exec(msg);
    if (trailing) return parseGoJSONText(text.slice(0, Number(trailing[1])));
    // Go's scanner on the bytes gives Go's exact text. Where it finds a whole first value that V8
    // did not (`01` is Go's 0, then ignored bytes), that value is the request.
    const b = bytes ?? Buffer.from(text, 'utf8');
    const go = goSyntaxErrorOf(b);
    if (typeof go === 'string') throw new Error(go);
    const first = Buffer.from(b.buffer, b.byteOffset, go).toString('utf8');
    if (first.length < text.length) return parseGoJSONText(first);
    throw new Error(goSyntaxError(text, msg));
  }
}

function goSyntaxError(text: string, v8: string): string {
  if (/end of JSON input|Unterminated string/.test(v8)) return 'unexpected EOF';
  const posMatch = /at position (\d+)/.exec(v8);
  let pos = posMatch ? Number(posMatch[1]) : -1;
  if (pos < 0) {
    const tok = /Unexpected token '?(.)'?/.exec(v8);
    if (tok) return `invalid character ${goQuoteChar(tok[1])} looking for beginning of value`;
    return v8;
  }
  // Whitespace up to the end of the input is an unexpected end.
  while (pos < text.length && /\s/.test(text[pos])) pos++;
  if (pos >= text.length) return 'unexpected EOF';
  const c = goQuoteChar(String.fromCodePoint(text.codePointAt(pos)!));
  if (/Expected ':' after property name/.test(v8)) return `invalid character ${c} after object key`;
  if (/Expected ',' or '}' after property value/.test(v8)) return `invalid character ${c} after object key:value pair`;
  if (/Expected ',' or ']' after array element/.test(v8)) return `invalid character ${c} after array element`;
  if (/Expected (double-quoted )?property name/.test(v8)) return `invalid character ${c} looking for beginning of object key string`;
  if (/Bad (escaped|control) character/.test(v8)) return `invalid character ${c} in string ${/escaped/.test(v8) ? 'escape code' : 'literal'}`;
  return `invalid character ${c} looking for beginning of value`;
}

/**
 * encoding/json's quoteChar: the offending BYTE (the first of a multi-byte character, read as a
 * Latin-1 rune), quoted as %q of a rune: `'x'`, `'\''`, `'"'`, `'\\'`, `'\x01'`, `'Ã'`.
 */
function goQuoteChar(c: string): string {
  return goQuoteRune(String.fromCharCode(Buffer.from(c, 'utf8')[0]));
}

const FOLDED_JSONRPC = 'JSONRPC';
const FOLDED_METHOD = 'METHOD';
const FOLDED_PARAMS = 'PARAMS';
const FOLDED_ID = 'ID';

/** The JSON type of the value whose text starts with `c`, as Go's UnmarshalTypeError names it. */
function goTypeOfText(c: number): string {
  if (c === 0x22) return 'string';
  if (c === 0x7b) return 'object';
  if (c === 0x5b) return 'array';
  if (c === 0x74 || c === 0x66) return 'bool';
  return 'number';
}

/**
 * Go's decoding of the body into json2.serverRequest: members in order (duplicates: the last
 * wins; keys matched case-insensitively), a null leaves jsonrpc/method as they were and clears
 * params/id, a wrong type is reported (the first one) after the rest has been decoded.
 */
function decodeEnvelope(raw: unknown, text: string): { env: Envelope; typeError?: string } {
  const env: Envelope = { jsonrpc: '', method: '', text, params: undefined, id: undefined };
  if (raw === null) return { env };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { env, typeError: `json: cannot unmarshal ${goTypeName(raw)} into Go value of type json2.serverRequest` };
  }
  let typeError: string | undefined;
  for (const m of objectMembers(text, skipWs(text, 0))) {
    const k = m.key;
    const key = k === 'jsonrpc' ? FOLDED_JSONRPC : k === 'method' ? FOLDED_METHOD : k === 'params' ? FOLDED_PARAMS : k === 'id' ? FOLDED_ID : goFoldKey(k);
    const c = text.charCodeAt(m.start);
    const isNull = c === 0x6e; // null
    if (key === FOLDED_JSONRPC || key === FOLDED_METHOD) {
      if (isNull) continue;
      const field = key === FOLDED_JSONRPC ? 'jsonrpc' : 'method';
      if (c !== 0x22) {
        typeError ??= `json: cannot unmarshal ${goTypeOfText(c)} into Go struct field serverRequest.${field} of type string`;
        continue;
      }
      env[field] = goParse(text.slice(m.start, m.end)) as string;
    } else if (key === FOLDED_PARAMS) env.params = isNull ? undefined : m;
    else if (key === FOLDED_ID) env.id = isNull ? undefined : m;
  }
  return { env, typeError };
}

/** The request as Go echoes it in -32700/-32600 errors: all four members, raw ones as sent. */
function echoText(env: Envelope): string {
  return `{"jsonrpc":${goJSON(env.jsonrpc)},"method":${goJSON(env.method)},"params":${rawText(env, env.params)},"id":${rawText(env, env.id)}}`;
}

const rawText = (env: Envelope, span: Span | undefined): string => (span === undefined ? 'null' : compactRaw(env.text, span.start, span.end));

const EMPTY_ECHO = '{"jsonrpc":"","method":"","params":null,"id":null}';

/** AvalancheGo's name conversion (utils/json/codec.go) then gorilla's split. */
/** Resolved method names (a node answers few distinct ones; bounded against a client sending many). */
const resolved = new BoundedMap<string, { service: string; method: string }>(256);

/** Whether the resolution cache holds a name (for tests: no client's huge string is kept). */
export function isMethodNameCached(name: string): boolean {
  return resolved.has(name);
}

/** Names longer than this are resolved each time: the cache must not hold a client's huge strings. */
const MAX_CACHED_NAME = 128;

function resolveMethod(name: string): { service: string; method: string } {
  if (name.length > MAX_CACHED_NAME) return resolveMethodName(name);
  let r = resolved.get(name);
  if (r === undefined) {
    r = resolveMethodName(name);
    resolved.set(name, r);
  }
  return r;
}

const UPPER = /^\p{Lu}$/u;

function resolveMethodName(name: string): { service: string; method: string } {
  let converted = name;
  const dot = name.indexOf('.');
  if (dot >= 0 && dot < name.length - 1) {
    // The first rune after the dot (utf8.DecodeRuneInString), tested with unicode.IsUpper and
    // mapped with unicode.ToUpper (a one-rune mapping: no `ß` → `SS`).
    const first = String.fromCodePoint(name.codePointAt(dot + 1)!);
    if (UPPER.test(first)) throw new RpcError(-32000, 'method must start with a non-uppercase letter');
    const upper = first.toUpperCase();
    converted = name.slice(0, dot + 1) + ([...upper].length === 1 ? upper : first) + name.slice(dot + 1 + first.length);
  }
  const parts = converted.split('.');
  if (parts.length !== 2) throw new RpcError(-32000, `rpc: service/method request ill-formed: ${goQuote(converted)}`);
  return { service: parts[0], method: parts[1] };
}

const NO_ARGS: Record<string, FieldDecoder> = {};

/** A spec's field names and their folded forms (computed once per spec). */
const specNames = new WeakMap<Record<string, FieldDecoder>, { keys: string[]; folded: string[] }>();

function namesOf(spec: Record<string, FieldDecoder>): { keys: string[]; folded: string[] } {
  let n = specNames.get(spec);
  if (n === undefined) {
    const keys = Object.keys(spec);
    specNames.set(spec, (n = { keys, folded: keys.map(goFoldKey) }));
  }
  return n;
}

/**
 * Decodes an object's members into the argument fields as Go's encoding/json does: keys matched
 * case-insensitively (Go's folding), unknown keys ignored (their values not even read), every
 * occurrence of a key decoded in order (a bad one fails the whole decode, the last good one wins).
 */
function decodeStruct(spec: Record<string, FieldDecoder>, text: string | undefined, open: number): Record<string, any> {
  const { keys: specKeys, folded } = namesOf(spec);
  const out: Record<string, any> = {};
  const given = new Set<string>();
  if (text !== undefined && specKeys.length > 0) {
    for (const m of objectMembers(text, open)) {
      let i = specKeys.indexOf(m.key);
      if (i < 0) i = folded.indexOf(goFoldKey(m.key));
      if (i < 0) continue;
      const k = specKeys[i];
      const decode = spec[k];
      const v = goParse(text.slice(m.start, m.end));
      if (v === null && decode[NULL_KEEPS] && given.has(k)) continue;
      out[k] = decode(v);
      given.add(k);
    }
  }
  for (const k of specKeys) if (!given.has(k)) out[k] = spec[k](undefined);
  return out;
}

/**
 * gorilla json2's ReadRequest: params into the argument struct; failing that, params as an array
 * whose first element is the struct (extra elements ignored, `[]` and `[null]` give zero values).
 */
function decodeParams(spec: Record<string, FieldDecoder> | undefined, env: Envelope): Record<string, any> {
  const s = spec ?? NO_ARGS;
  const p = env.params;
  if (p === undefined) return decodeStruct(s, undefined, 0);
  const text = env.text;
  try {
    const c = text.charCodeAt(p.start);
    if (c === 0x7b) return decodeStruct(s, text, p.start);
    if (c !== 0x5b) throw new Error('not an object or array');
    const first = firstElement(text, p.start);
    if (first === undefined || text.charCodeAt(first.start) === 0x6e) return decodeStruct(s, undefined, 0);
    if (text.charCodeAt(first.start) !== 0x7b) throw new Error('not an object');
    return decodeStruct(s, text, first.start);
  } catch {
    throw new RpcError(-32000, UNMARSHAL_ERROR);
  }
}

export interface GorillaServerOptions {
  /** Service name on the wire, e.g. `admin`. */
  name: string;
  service: GorillaService;
  maxBodyBytes: number;
  /** Called on every error a method returns (for logging). */
  onError?: (method: string, err: Error) => void;
  /** No handler reads its `req` argument: bodies may be answered without one (see `route`). */
  requestFree?: boolean;
}

const EMPTY_REPLY: Reply = { status: 200, headers: ['Content-Length', '0'], body: '' };

/** gorilla's Content-Type check: the media type before any `;`, case-insensitively. */
function acceptsJSON(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0].toLowerCase() === 'application/json';
}

/** One gorilla rpc.Server with one registered service, as each AvalancheGo endpoint is. */
export class GorillaServer {
  private readonly methods = new Map<string, GorillaMethod>();

  constructor(private readonly opts: GorillaServerOptions) {
    for (const [m, def] of Object.entries(opts.service)) {
      this.methods.set(m[0].toUpperCase() + m.slice(1), def);
    }
  }

  async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      return plain(res, 405, `rpc: POST method required, received ${req.method}`, false);
    }
    const ct = req.headers['content-type'];
    if (!acceptsJSON(ct)) {
      return plain(res, 415, `rpc: unrecognized Content-Type: ${(ct ?? '').split(';')[0]}`, false);
    }
    let body: Buffer;
    try {
      body = await readBody(req, this.opts.maxBodyBytes);
    } catch (e) {
      if (e instanceof BodyTooLargeError) {
        // The rest of the body is not read: the connection closes after the answer.
        res.setHeader('Connection', 'close');
        return plain(res, 413, e.message);
      }
      res.destroy(); // the client went away mid-body: nobody to answer
      return;
    }
    writeReply(res, await this.answer(body, req));
  }

  /**
   * The answer to a POST body (both HTTP paths; `req` is absent on the fast path). Synchronous when
   * the method's handler is (the fast path then writes it without a promise turn).
   */
  answer(body: Buffer, req?: IncomingMessage): Reply | Promise<Reply> {
    const reply = this.handle(body.toString('utf8'), req, body);
    return reply instanceof Promise ? reply.then(toReply) : toReply(reply);
  }

  /**
   * The route: node:http always; the fast HTTP path too when the service's handlers never read
   * the request (`requestFree`: the node's own services; plugin VMs' handlers get `req`).
   */
  route(): RouteHandler {
    const http = (req: IncomingMessage, res: ServerResponse) => this.serve(req, res);
    if (!this.opts.requestFree) return { http };
    return { http, post: { bodyLimit: this.opts.maxBodyBytes, accepts: acceptsJSON, answer: (body) => this.answer(body) } };
  }

  /**
   * Processes one body; returns the response JSON text, or undefined for "write nothing" — a
   * promise of it only when the method's handler returns one.
   */
  handle(text: string, req: IncomingMessage | undefined, bytes?: Uint8Array): string | undefined | Promise<string | undefined> {
    let parsed: { value: unknown; text: string };
    try {
      parsed = parseGoJSONText(text, bytes);
    } catch (e) {
      return errorEnvelope(-32700, (e as Error).message, EMPTY_ECHO, 'null');
    }
    const { env, typeError } = decodeEnvelope(parsed.value, parsed.text);
    // The id is echoed as sent (a json.RawMessage: Go re-emits it compacted).
    const id = rawText(env, env.id);
    if (typeError) return errorEnvelope(-32700, typeError, echoText(env), id);
    const notify = env.id === undefined;
    if (env.jsonrpc !== '2.0') {
      return notify ? undefined : errorEnvelope(-32600, 'jsonrpc must be 2.0', echoText(env), id);
    }
    const done = (result: unknown): string | undefined => {
      if (notify) return undefined;
      const resultText = result instanceof GoJSONText ? result.text : goJSON(result ?? {});
      return `{"jsonrpc":"2.0","result":${resultText},"id":${id}}`;
    };
    const failed = (e: unknown): string | undefined => {
      const err = e instanceof RpcError ? e : new RpcError(-32000, errorText(e));
      if (!(e instanceof RpcError)) this.opts.onError?.(env.method, e as Error);
      return notify ? undefined : errorEnvelope(err.code, err.message, 'null', id);
    };
    let result: unknown;
    try {
      const { service, method } = resolveMethod(env.method);
      if (service !== this.opts.name) throw new RpcError(-32000, `rpc: can't find service ${goQuote(`${service}.${method}`)}`);
      const def = this.methods.get(method);
      if (!def) throw new RpcError(-32000, `rpc: can't find method ${goQuote(`${service}.${method}`)}`);
      const args = decodeParams(def.params, env);
      result = def.handler(args, req as IncomingMessage);
    } catch (e) {
      return failed(e);
    }
    // A result JSON cannot encode is the method's error, as any other.
    const settle = (r: unknown) => {
      try {
        return done(r);
      } catch (e) {
        return failed(e);
      }
    };
    // Any thenable is awaited (a plugin's handler may return one that is not this realm's Promise).
    return isThenable(result) ? Promise.resolve(result).then(settle, failed) : settle(result);
  }
}

/** A method's error as its text (Go's error strings are valid UTF-8: lone surrogates become U+FFFD). */
function errorText(e: unknown): string {
  return wellFormed(e instanceof Error ? String(e.message) : String(e));
}

const isThenable = (v: unknown): v is PromiseLike<unknown> => typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';

const toReply = (reply: string | undefined): Reply => {
  if (reply === undefined) return EMPTY_REPLY;
  const text = reply + '\n';
  return {
    status: 200,
    headers: ['Content-Type', 'application/json; charset=utf-8', 'X-Content-Type-Options', 'nosniff', 'Content-Length', String(Buffer.byteLength(text))],
    body: text,
  };
};

/** An error answer; `data` and `id` are JSON texts already. */
function errorEnvelope(code: number, message: string, data: string, id: string): string {
  return `{"jsonrpc":"2.0","error":{"code":${code},"message":${goJSON(message)},"data":${data}},"id":${id}}`;
}

/**
 * A plain-text answer as Go's http.Error writes it (with `X-Content-Type-Options: nosniff`), or
 * with `nosniff` false as gorilla's own WriteError does (its 405 and 415: the Content-Type only).
 */
export function plain(res: ServerResponse, status: number, text: string, nosniff = true): void {
  const headers: Record<string, string | number> = { 'Content-Type': 'text/plain; charset=utf-8' };
  if (nosniff) headers['X-Content-Type-Options'] = 'nosniff';
  headers['Content-Length'] = Buffer.byteLength(text);
  res.writeHead(status, headers);
  res.end(text);
}
