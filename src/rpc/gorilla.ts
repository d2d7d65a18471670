// The node-style JSON-RPC 2.0 engine: gorilla/rpc v2 + AvalancheGo's codec wrapper, reproduced
// rule for rule (reference: avalanchego-node.md §1). Every node API (/ext/admin, /ext/info,
// POST /ext/health) and the Gorilla-style chain endpoints (/validators) use it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BoundedMap } from '../boundedMap.js';
import { GO_MAX_DEPTH_ERROR, exceedsGoJsonDepth } from '../jsonDepth.js';
import { readBody, BodyTooLargeError } from '../server/body.js';
import { writeReply, type Reply, type RouteHandler } from '../server/router.js';
import { RawNumber, lossyNumber, rawIds } from '../evm/rpc/rawIds.js';
import { goQuote, goQuoteRune } from './goQuote.js';

export const UNMARSHAL_ERROR =
  "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";

/** A field decoder: returns the decoded value or throws (any throw becomes UNMARSHAL_ERROR). */
export type FieldDecoder<T = unknown> = (v: unknown) => T;

export interface GorillaMethod {
  /** Argument fields by wire name; matched case-insensitively as Go's encoding/json does. */
  params?: Record<string, FieldDecoder>;
  handler: (args: Record<string, any>, req: IncomingMessage) => unknown | Promise<unknown>;
}

/** A service: wire method name after the dot (e.g. `alias`) → method. */
export type GorillaService = Record<string, GorillaMethod>;

// Field decoders with Go encoding/json semantics (null leaves the zero value).
export const str: FieldDecoder<string> = (v) => {
  if (v === null || v === undefined) return '';
  if (typeof v !== 'string') throw new Error('not a string');
  return v;
};
export const optStr: FieldDecoder<string | undefined> = (v) => {
  if (v === null || v === undefined) return undefined;
  if (typeof v !== 'string') throw new Error('not a string');
  return v;
};
export const bool: FieldDecoder<boolean> = (v) => {
  if (v === null || v === undefined) return false;
  if (typeof v !== 'boolean') throw new Error('not a bool');
  return v;
};
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
export const uint64: FieldDecoder<bigint> = (v) => {
  if (v === null || v === undefined) return 0n;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 2 ** 64) return BigInt(v);
  if (typeof v === 'string' && /^[0-9]+$/.test(v)) {
    const n = BigInt(v);
    if (n < 2n ** 64n) return n;
  }
  throw new Error('not a uint64');
};
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

interface Envelope {
  jsonrpc: string;
  method: string;
  params: unknown;
  id: unknown;
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
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
  if (ONLY_SPACE.test(text)) throw new Error('EOF');
  if (exceedsGoJsonDepth(text)) throw new Error(GO_MAX_DEPTH_ERROR);
  try {
    return JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const trailing = /after JSON at position (\d+)/.exec(msg);
    if (trailing) return parseGoJSON(text.slice(0, Number(trailing[1])));
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

function decodeEnvelope(raw: unknown): { env: Envelope; typeError?: string } {
  const env: Envelope = { jsonrpc: '', method: '', params: null, id: null };
  if (raw === null) return { env };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { env, typeError: `json: cannot unmarshal ${goTypeName(raw)} into Go value of type json2.serverRequest` };
  }
  let typeError: string | undefined;
  const obj = raw as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    const key = k === 'jsonrpc' || k === 'method' || k === 'params' || k === 'id' ? k : k.toLowerCase();
    if (key === 'jsonrpc' || key === 'method') {
      if (v === null) continue;
      if (typeof v !== 'string') {
        typeError ??= `json: cannot unmarshal ${goTypeName(v)} into Go struct field serverRequest.${key === 'jsonrpc' ? 'jsonrpc' : 'method'} of type string`;
        continue;
      }
      env[key] = v;
    } else if (key === 'params') env.params = v;
    else if (key === 'id') env.id = v;
  }
  return { env, typeError };
}

/** AvalancheGo's name conversion (utils/json/codec.go) then gorilla's split. */
/** Resolved method names (a node answers few distinct ones; bounded against a client sending many). */
const resolved = new BoundedMap<string, { service: string; method: string }>(256);

function resolveMethod(name: string): { service: string; method: string } {
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

function decodeStruct(spec: Record<string, FieldDecoder>, v: unknown): Record<string, any> {
  if (v === null) return decodeStruct(spec, {});
  if (typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
  const obj = v as Record<string, unknown>;
  const out: Record<string, any> = {};
  const specKeys = Object.keys(spec);
  // Go prefers an exact key match, then a case-insensitive one; last duplicate wins.
  const given = new Map<string, unknown>();
  for (const [k, val] of Object.entries(obj)) {
    const exact = specKeys.find((s) => s === k) ?? specKeys.find((s) => s.toLowerCase() === k.toLowerCase());
    if (exact !== undefined) given.set(exact, val);
  }
  for (const k of specKeys) out[k] = spec[k](given.has(k) ? given.get(k) : undefined);
  return out;
}

function decodeParams(spec: Record<string, FieldDecoder> | undefined, params: unknown): Record<string, any> {
  const s = spec ?? {};
  if (params === null || params === undefined) return decodeStruct(s, {});
  try {
    return decodeStruct(s, params);
  } catch {
    try {
      if (!Array.isArray(params)) throw new Error('not an array');
      return decodeStruct(s, params.length === 0 ? {} : params[0]);
    } catch {
      throw new RpcError(-32000, UNMARSHAL_ERROR);
    }
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
      return plain(res, 405, `rpc: POST method required, received ${req.method}`);
    }
    const ct = req.headers['content-type'];
    if (!acceptsJSON(ct)) {
      return plain(res, 415, `rpc: unrecognized Content-Type: ${(ct ?? '').split(';')[0]}`);
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
    const reply = this.handle(body.toString('utf8'), req);
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
  handle(text: string, req: IncomingMessage | undefined): string | undefined | Promise<string | undefined> {
    let raw: unknown;
    try {
      raw = parseGoJSON(text);
    } catch (e) {
      return errorEnvelope(-32700, (e as Error).message, { jsonrpc: '', method: '', params: null, id: null }, null);
    }
    const { env, typeError } = decodeEnvelope(raw);
    if (typeError) return errorEnvelope(-32700, typeError, env, env.id);
    // The id is echoed as sent (Go keeps it raw); JSON.parse rounds a number past 2^53.
    const id = lossyNumber(env.id) ? new RawNumber(rawIds(text)[0] ?? String(env.id)) : env.id;
    const notify = id === null || id === undefined;
    if (env.jsonrpc !== '2.0') {
      return notify ? undefined : errorEnvelope(-32600, 'jsonrpc must be 2.0', env, id);
    }
    const done = (result: unknown): string | undefined => {
      if (notify) return undefined;
      const resultText = result instanceof GoJSONText ? result.text : goJSON(result ?? {});
      return `{"jsonrpc":"2.0","result":${resultText},"id":${idText(id)}}`;
    };
    const failed = (e: unknown): string | undefined => {
      const err = e instanceof RpcError ? e : new RpcError(-32000, e instanceof Error ? e.message : String(e));
      if (!(e instanceof RpcError)) this.opts.onError?.(env.method, e as Error);
      return notify ? undefined : errorEnvelope(err.code, err.message, err.data, id);
    };
    let result: unknown;
    try {
      const { service, method } = resolveMethod(env.method);
      if (service !== this.opts.name) throw new RpcError(-32000, `rpc: can't find service ${goQuote(`${service}.${method}`)}`);
      const def = this.methods.get(method);
      if (!def) throw new RpcError(-32000, `rpc: can't find method ${goQuote(`${service}.${method}`)}`);
      const args = decodeParams(def.params, env.params);
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

function errorEnvelope(code: number, message: string, data: unknown, id: unknown): string {
  return `{"jsonrpc":"2.0","error":${goJSON({ code, message, data: data ?? null })},"id":${idText(id)}}`;
}

const idText = (id: unknown) => (id instanceof RawNumber ? id.text : goJSON(id ?? null));

export function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}
