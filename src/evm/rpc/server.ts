// The geth-style JSON-RPC 2.0 server behind a chain's /rpc and /ws endpoints
// (reference: subnet-evm.md §1.1, §1.5, §9.4; behaviour of go-ethereum's rpc package, which
// Subnet-EVM forks as graft/evm/rpc): positional params, batches with limits, notifications,
// subscriptions over WebSocket, and geth's exact error codes and texts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GO_MAX_DEPTH_ERROR, exceedsGoJsonDepth } from '../../jsonDepth.js';
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { WebSocketServer, WebSocket, RawData } from 'ws';
import type { Logger } from '../../logging/logger.js';
import { writeReply, type Reply as HttpReply, type RouteHandler } from '../../server/router.js';
import { normalizeForWs, refuseWebSocket, websocketRefusal } from '../../server/wsHandshake.js';
import { busyPoll } from '../../server/busyPoll.js';
import { RawNumber, lossyNumber, rawIds } from './rawIds.js';
import { keepParamNumbers } from './rawNumbers.js';

/**
 * An error answer (code, message, data). It is an answer, not a fault, so it is made without a
 * stack trace: capturing one costs ~6–8 µs at a handler's depth (~0.7 without), which a reverting
 * eth_call paid on every answer.
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/** One WebSocket client of /ws. Subscriptions made on it end when it closes. */
export interface WsConnection {
  readonly id: number;
  readonly remoteAddress: string | undefined;
  readonly closed: boolean;
}

export interface CallContext {
  /** present on /ws */
  connection?: WsConnection;
}

export type RpcMethod = (params: unknown[], ctx: CallContext) => unknown | Promise<unknown>;

export interface SubscriptionSource {
  /** eth_subscribe kinds (newHeads, logs, newPendingTransactions, newAcceptedTransactions):
      start delivering with `emit`; return the unsubscribe function. Throw RpcError for bad params
      (use `subscriptionNotFound(kind)` for an unknown kind). `params` are the eth_subscribe params
      as sent, so params[0] is the kind and the kind's own arguments are numbered from 1 in
      `invalid argument N` texts, as in geth. `namespace` is the method's (`eth` for eth_subscribe,
      `debug` for debug_subscribe, …): a kind the namespace lacks is `subscriptionNotFound(kind, namespace)`. */
  subscribe(kind: string, params: unknown[], emit: (result: unknown) => void, namespace: string): () => void;
}

export interface EthRpcOptions {
  methods: Map<string, RpcMethod>; // full names: 'eth_chainId', ...
  subscriptions?: SubscriptionSource;
  batchRequestLimit: number; // 1000
  batchResponseMaxSize: number; // 25_000_000
  bodyLimit: number; // 5 MiB like geth
  log: Logger;
  /** WebSocket message size limit (geth: 32 MiB). */
  wsMessageLimit?: number;
}

export interface EthRpcHandlers {
  rpc: RouteHandler;
  ws: RouteHandler;
  /** Closes every WebSocket connection (ending their subscriptions). */
  close(): void;
}

/** geth's error for an unknown subscription kind (code -32601). */
export function subscriptionNotFound(kind: string, namespace = 'eth'): RpcError {
  return new RpcError(-32601, `no ${JSON.stringify(kind)} subscription in ${namespace} namespace`);
}

export const DEFAULT_BODY_LIMIT = 5 * 1024 * 1024;
export const WS_MESSAGE_LIMIT = 32 * 1024 * 1024;
const WS_PING_INTERVAL_MS = 30_000;
const WS_MAX_BUFFERED = 256 * 1024 * 1024;
/** geth's rpc defaultWriteTimeout: how long a WebSocket write may wait for a client that does not read. */
export const WS_WRITE_TIMEOUT_MS = 10_000;
const ACCEPTED_CONTENT_TYPES = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest']);

// ---------------------------------------------------------------------------------------------
// JSON writing

const BIGINT_MARK = '\u0000bigint:';
const BIGINT_MARK_JSON = /"\\u0000bigint:(-?\d+)"/g;
const GO_ESCAPED = /[<>&\u2028\u2029]/;
const GO_ESCAPED_G = /[<>&\u2028\u2029]/g;
const GO_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

function bigintReplacer(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? BIGINT_MARK + v.toString() : v;
}

/** A method result already encoded (by toJSON): written as is, e.g. a remembered answer. */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * JSON text of a result as Go's encoding/json writes it: bigint as a bare number, <, >, & and
 * U+2028/9 escaped. The common case (no bigint) costs one JSON.stringify; a bigint makes the
 * native stringify throw, and only then do we walk with a replacer.
 */
export function toJSON(v: unknown): string {
  let s: string | undefined;
  try {
    s = JSON.stringify(v);
  } catch (e) {
    if (!(e instanceof TypeError) || !/BigInt/.test(e.message)) throw e;
    s = JSON.stringify(v, bigintReplacer).replace(BIGINT_MARK_JSON, '$1');
  }
  if (s === undefined) return 'null';
  return GO_ESCAPED.test(s) ? s.replace(GO_ESCAPED_G, (c) => GO_ESCAPES[c]) : s;
}

// ---------------------------------------------------------------------------------------------
// Messages

/** A decoded request, with Go encoding/json's view of the envelope (case-insensitive keys,
 *  wrongly typed members left empty). `id` is undefined when absent, null when `null`. */
interface Msg {
  version: string;
  id: unknown;
  method: string;
  params: unknown;
  hasParams: boolean;
  isResponse: boolean;
}

const INVALID_MSG: Msg = { version: '', id: undefined, method: '', params: undefined, hasParams: false, isResponse: false };

/** The messages' numeric ids that JSON.parse rounded, as their source text (rawIds.ts). */
function keepRawIds(msgs: Msg[], text: string): Msg[] {
  if (!msgs.some((m) => lossyNumber(m.id))) return msgs;
  const raw = rawIds(text);
  return msgs.map((m, i) => (lossyNumber(m.id) ? { ...m, id: new RawNumber(raw[i] ?? String(m.id)) } : m));
}

function readMsg(raw: unknown): Msg {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return INVALID_MSG;
  const o = raw as Record<string, unknown>;
  let version = '';
  let id: unknown;
  let method = '';
  let params: unknown;
  let hasParams = false;
  let hasResult = false;
  let hasError = false;
  for (const k in o) {
    const v = o[k];
    let key = k;
    if (k !== 'jsonrpc' && k !== 'id' && k !== 'method' && k !== 'params') key = k.toLowerCase();
    switch (key) {
      case 'jsonrpc':
        version = typeof v === 'string' ? v : '';
        break;
      case 'id':
        id = v;
        break;
      case 'method':
        method = typeof v === 'string' ? v : '';
        break;
      case 'params':
        params = v;
        hasParams = true;
        break;
      case 'result':
        hasResult = true;
        break;
      case 'error':
        hasError = v !== null && typeof v === 'object' && !Array.isArray(v);
        break;
    }
  }
  const isResponse = version === '2.0' && id !== undefined && method === '' && !hasParams && (hasResult || hasError);
  return { version, id, method, params, hasParams, isResponse };
}

/** geth's hasValidID: present and not an object or array. */
function validID(id: unknown): boolean {
  return id !== undefined && (id === null || typeof id !== 'object' || id instanceof RawNumber);
}

function idJSON(id: unknown): string {
  if (id instanceof RawNumber) return id.text;
  if (typeof id === 'number') return Number.isFinite(id) ? String(id) : 'null';
  if (id === null || id === undefined) return 'null';
  return toJSON(id);
}

function errorJSON(id: string, code: number, message: string, data?: unknown): string {
  let err = '{"code":' + code + ',"message":' + toJSON(message);
  if (data !== undefined && data !== null) err += ',"data":' + toJSON(data);
  return '{"jsonrpc":"2.0","id":' + id + ',"error":' + err + '}}';
}

function resultJSON(id: string, result: string): string {
  return '{"jsonrpc":"2.0","id":' + id + ',"result":' + result + '}';
}

const BUILTIN_BUGS = [TypeError, RangeError, ReferenceError, SyntaxError];

/** A reply: the JSON text, and the size geth counts against the batch response limit. */
interface Reply {
  json: string;
  resultSize: number;
}

// ---------------------------------------------------------------------------------------------
// The server

class Subscription {
  active = false;
  ended = false;
  queue: string[] | undefined = [];
  unsubscribe: () => void = () => {};
  constructor(readonly id: string) {}
}

class Connection implements WsConnection {
  closed = false;
  readonly subs = new Map<string, Subscription>();
  alive = true;
  /**
   * Messages not yet handed to ws, which gets one at a time: Node's socket writes whatever it has
   * buffered as one writev and calls back only when all of it is out, so with many messages in
   * ws a client reading steadily but slowly would see no callback for a long time.
   */
  private readonly queue: string[] = [];
  private queuedChars = 0;
  /** Whether ws is writing a message, and since when (geth's deadline of one write). */
  private writing = false;
  private writingSince = 0;
  /** Set by drop: end the connection once the queue is out. */
  private ending = false;
  private readonly written = (err?: Error): void => {
    this.writing = false;
    if (err) this.queue.length = 0; // the socket is closing: what is queued cannot go out
    else this.writeNext();
  };
  constructor(
    readonly id: number,
    readonly remoteAddress: string | undefined,
    readonly socket: WebSocket,
  ) {}

  send(text: string): void {
    if (this.closed) return;
    // A client that stops reading must not make the node buffer without bound. geth's writes
    // block, each for at most 10 s (WS_WRITE_TIMEOUT_MS), then the connection is closed; here
    // answers queue instead, so a connection whose current write has waited that long is dropped
    // the same way (a stalled client that kept sending requests grew the node by its answers,
    // 256 MiB each).
    if (this.queuedChars + this.socket.bufferedAmount > WS_MAX_BUFFERED || (this.writing && performance.now() - this.writingSince > WS_WRITE_TIMEOUT_MS)) {
      this.closed = true;
      this.queue.length = 0;
      this.socket.terminate();
      return;
    }
    this.queue.push(text + '\n');
    this.queuedChars += text.length + 1;
    if (!this.writing) this.writeNext();
  }

  /** Sends `last` (if any) after what is queued, then ends the connection without a close frame. */
  drop(last: string | undefined): void {
    if (this.closed) return;
    this.closed = true;
    if (last === undefined) return this.socket.terminate();
    this.queue.push(last + '\n');
    this.ending = true;
    if (!this.writing) this.writeNext();
  }

  private writeNext(): void {
    const next = this.queue.shift();
    if (next === undefined) {
      if (this.ending) this.socket.terminate();
      return;
    }
    this.queuedChars -= next.length;
    this.writing = true;
    this.writingSince = performance.now();
    try {
      this.socket.send(next, this.written);
    } catch {
      // the socket is going away; close() will clean up
      this.writing = false;
      this.queue.length = 0;
    }
  }
}

/** A subscription made during a call; activated after the call's answer is written. */
type Pending = Subscription[];

export class EthRpcServer {
  private readonly methods: Map<string, RpcMethod>;
  private wss: Promise<WebSocketServer> | undefined;
  private readonly conns = new Set<Connection>();
  private nextConnID = 1;
  private readonly noCtx: CallContext = {};

  constructor(private readonly opts: EthRpcOptions) {
    this.methods = opts.methods;
  }

  /** ws (and the https, tls and zlib modules it loads) comes with the first WebSocket, not at every start. */
  private wsServer(): Promise<WebSocketServer> {
    const maxPayload = this.opts.wsMessageLimit ?? WS_MESSAGE_LIMIT;
    // gorilla does not check that text messages are UTF-8 (ws would close with 1007); Go's JSON
    // decoder reads invalid bytes as U+FFFD, as Buffer.toString does.
    return (this.wss ??= import('ws').then(({ WebSocketServer }) => new WebSocketServer({ noServer: true, maxPayload, perMessageDeflate: false, skipUTF8Validation: true })));
  }

  handlers(): EthRpcHandlers {
    return {
      rpc: {
        http: (req, res) => this.serveHTTP(req, res),
        post: { bodyLimit: this.opts.bodyLimit, accepts: contentTypeOK, answer: (body) => this.answer(body) },
      },
      ws: {
        // gorilla/websocket's answer to a request it does not upgrade (src/server/wsHandshake.ts).
        http: refuseWebSocket,
        upgrade: (req, socket, head) => this.upgrade(req, socket, head),
      },
      close: () => this.close(),
    };
  }

  close(): void {
    for (const c of this.conns) c.socket.terminate();
  }

  // ----- HTTP

  private serveHTTP(req: IncomingMessage, res: ServerResponse): void {
    const method = req.method;
    const lengthHeader = req.headers['content-length'];
    // Permit empty GETs for remote health checks (geth rpc/http.go): no body, URL.RawQuery empty
    // (a bare `?` leaves it empty).
    if (method === 'GET' && (lengthHeader === undefined || lengthHeader === '0') && req.headers['transfer-encoding'] === undefined && emptyQuery(req.url ?? '')) {
      req.resume();
      res.writeHead(200, { 'Content-Length': 0 });
      res.end();
      return;
    }
    if (method === 'PUT' || method === 'DELETE') return httpError(req, res, 405, 'method not allowed');
    const declared = lengthHeader === undefined ? -1 : Number(lengthHeader);
    if (declared > this.opts.bodyLimit) {
      return httpError(req, res, 413, `content length too large (${declared}>${this.opts.bodyLimit})`);
    }
    if (method !== 'OPTIONS' && !contentTypeOK(req.headers['content-type'])) {
      return httpError(req, res, 415, 'invalid content type, only application/json is supported');
    }
    const limit = this.opts.bodyLimit;
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    req.on('data', (c: Buffer) => {
      if (truncated) return;
      if (size + c.length > limit) {
        // geth reads through an io.LimitReader: the body is cut at the limit.
        c = c.subarray(0, limit - size);
        truncated = true;
      }
      size += c.length;
      chunks.push(c);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const r = this.answer(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
      if (r instanceof Promise) r.then((reply) => writeReply(res, reply));
      else writeReply(res, r);
    });
  }

  /** The answer to a POST body, for both HTTP paths (node:http above, fastHttp.ts via `post`). */
  private answer(body: Buffer): HttpReply | Promise<HttpReply> {
    let parsed: unknown;
    const text = body.toString('utf8');
    try {
      parsed = parseFirstValue(text);
    } catch (e) {
      if ((e as Error).message === 'EOF') return jsonReply(undefined);
      return jsonReply(errorJSON('null', -32700, 'parse error'));
    }
    try {
      if (Array.isArray(parsed)) return new Promise((resolve) => this.serveParsed(parsed, text, undefined, (out) => resolve(jsonReply(out))));
      // A single call over HTTP (the usual request): no subscriptions, no per-request closures.
      let msg = readMsg(parsed);
      if (lossyNumber(msg.id)) [msg] = keepRawIds([msg], text);
      keepParamNumbers(text, [msg.params], false);
      if (msg.isResponse || (isNotification(msg) && msg.method.endsWith('_subscription'))) return jsonReply(undefined);
      const r = this.handleMsg(msg, undefined, undefined);
      if (r instanceof Promise) {
        return r.then(
          (reply) => jsonReply(reply?.json),
          (e) => new Promise<HttpReply>((resolve) => this.failure(e, (out) => resolve(jsonReply(out)))),
        );
      }
      return jsonReply(r?.json);
    } catch (e) {
      this.opts.log.error('rpc server failure', { error: String((e as Error)?.stack ?? e) });
      return INTERNAL_ERROR;
    }
  }

  /**
   * Answers a parsed request body (single or batch) through `write` (undefined: nothing to
   * write). Subscriptions made by the request start delivering after the answer is written.
   * `conn` is set on /ws.
   */
  private serveParsed(parsed: unknown, text: string, conn: Connection | undefined, write: (out: string | undefined) => void): void {
    const pending: Pending | undefined = conn ? [] : undefined;
    const done = (out: string | undefined) => {
      write(out);
      if (pending && pending.length) activate(conn!, pending);
    };
    if (Array.isArray(parsed)) {
      const out = this.serveBatch(parsed, text, conn, pending);
      if (out instanceof Promise) out.then(done, (e) => this.failure(e, write));
      else done(out);
      return;
    }
    let msg = readMsg(parsed);
    if (lossyNumber(msg.id)) [msg] = keepRawIds([msg], text);
    keepParamNumbers(text, [msg.params], false);
    if (msg.isResponse || (isNotification(msg) && msg.method.endsWith('_subscription'))) return write(undefined);
    const r = this.handleMsg(msg, conn, pending);
    if (r instanceof Promise) r.then((reply) => done(reply?.json), (e) => this.failure(e, write));
    else done(r?.json);
  }

  private failure(e: unknown, write: (out: string | undefined) => void): void {
    this.opts.log.error('rpc server failure', { error: String((e as Error)?.stack ?? e) });
    write(errorJSON('null', -32603, 'method handler crashed'));
  }

  private serveBatch(items: unknown[], text: string, conn: Connection | undefined, pending: Pending | undefined): string | undefined | Promise<string | undefined> {
    if (items.length === 0) return errorJSON('null', -32600, 'empty batch');
    const msgs = keepRawIds(items.map(readMsg), text);
    // Subnet-EVM applies the batch limits only when both are set.
    const limitsOn = this.opts.batchRequestLimit > 0 && this.opts.batchResponseMaxSize > 0;
    if (limitsOn && msgs.length > this.opts.batchRequestLimit) {
      const first = msgs.find(isCall);
      return '[' + errorJSON(first ? idJSON(first.id) : 'null', -32600, 'batch too large') + ']';
    }
    keepParamNumbers(text, msgs.map((m) => m.params), true);
    const calls = msgs.filter((m) => !m.isResponse && !(isNotification(m) && m.method.endsWith('_subscription')));
    if (calls.length === 0) return undefined;
    const maxSize = limitsOn ? this.opts.batchResponseMaxSize : 0;
    const out: string[] = [];
    let size = 0;
    const finish = () => (out.length ? '[' + out.join(',') + ']' : undefined);
    // Calls run one after another, as in geth's batch loop.
    const run = (i: number): string | undefined | Promise<string | undefined> => {
      for (; i < calls.length; i++) {
        const r = this.handleMsg(calls[i], conn, pending);
        if (r instanceof Promise) {
          return r.then((reply) => (take(i, reply) ? finish() : run(i + 1)));
        }
        if (take(i, r)) return finish();
      }
      return finish();
    };
    /** Records a reply; true when the response size limit was passed and the batch is done. */
    const take = (i: number, reply: Reply | undefined): boolean => {
      if (!reply) return false;
      out.push(reply.json);
      if (maxSize > 0) {
        size += reply.resultSize;
        if (size > maxSize) {
          for (let j = i + 1; j < calls.length; j++) {
            if (!isNotification(calls[j])) out.push(errorJSON(idJSON(calls[j].id), -32003, 'response too large'));
          }
          return true;
        }
      }
      return false;
    };
    return run(0);
  }

  /** geth's handleCallMsg: one message of a request. */
  private handleMsg(msg: Msg, conn: Connection | undefined, pending: Pending | undefined): Reply | undefined | Promise<Reply | undefined> {
    const notification = isNotification(msg);
    if (!notification && !isCall(msg)) {
      const id = validID(msg.id) ? idJSON(msg.id) : 'null';
      return { json: errorJSON(id, -32600, 'invalid request'), resultSize: 0 };
    }
    const id = notification ? '' : idJSON(msg.id);
    let r: Reply | Promise<Reply>;
    try {
      r = this.call(msg, id, conn, pending);
    } catch (e) {
      r = this.errorReply(id, e, msg.method);
    }
    if (notification) return r instanceof Promise ? r.then(() => undefined) : undefined;
    return r;
  }

  private call(msg: Msg, id: string, conn: Connection | undefined, pending: Pending | undefined): Reply | Promise<Reply> {
    const name = msg.method;
    const fn = this.methods.get(name);
    if (fn === undefined || name.endsWith('_subscribe') || name.endsWith('_unsubscribe')) {
      if (name.endsWith('_subscribe')) return this.subscribe(msg, id, conn, pending);
      if (name.endsWith('_unsubscribe')) return this.unsubscribe(msg, id, conn);
      return { json: errorJSON(id, -32601, `the method ${name} does not exist/is not available`), resultSize: 0 };
    }
    let params: unknown[];
    if (msg.params === undefined || msg.params === null) params = [];
    else if (Array.isArray(msg.params)) params = msg.params;
    else return { json: errorJSON(id, -32602, 'non-array args'), resultSize: 0 };
    const result = fn(params, conn ? { connection: conn } : this.noCtx);
    if (result instanceof Promise) {
      return result.then(
        (v) => this.resultReply(id, v, name),
        (e) => this.errorReply(id, e, name),
      );
    }
    return this.resultReply(id, result, name);
  }

  /**
   * The answer to a call with its result. A result that cannot be encoded is answered in the
   * call's own envelope (geth: a marshal error is the call's error), never as a failure of the
   * whole request or batch: one longer than a JavaScript string can hold as -32003 `response too
   * large` (geth's code for an answer over its size limit), anything else as a handler bug.
   */
  private resultReply(id: string, v: unknown, method: string): Reply {
    let text: string;
    try {
      text = v instanceof JsonText ? v.text : v === undefined ? 'null' : toJSON(v);
    } catch (e) {
      if (e instanceof RangeError && /Invalid string length/.test(e.message)) {
        this.opts.log.warn('RPC method ' + method + ' result too large to encode');
        return { json: errorJSON(id, -32003, 'response too large'), resultSize: 0 };
      }
      return this.errorReply(id, e, method);
    }
    return { json: resultJSON(id, text), resultSize: text.length };
  }

  private errorReply(id: string, e: unknown, method: string): Reply {
    if (e instanceof RpcError) return { json: errorJSON(id, e.code, e.message, e.data), resultSize: 0 };
    if (e instanceof Error && !BUILTIN_BUGS.some((c) => e.constructor === c)) {
      return { json: errorJSON(id, -32000, e.message), resultSize: 0 };
    }
    // geth's panic guard: a bug in a handler answers -32603 and is logged.
    this.opts.log.error('RPC method ' + method + ' crashed', { error: String((e as Error)?.stack ?? e) });
    return { json: errorJSON(id, -32603, 'method handler crashed'), resultSize: 0 };
  }

  private subscribe(msg: Msg, id: string, conn: Connection | undefined, pending: Pending | undefined): Reply {
    const fail = (code: number, message: string): Reply => ({ json: errorJSON(id, code, message), resultSize: 0 });
    if (!conn || !pending) return fail(-32601, 'notifications not supported');
    if (!Array.isArray(msg.params)) return fail(-32602, 'non-array args');
    const params = msg.params;
    const kind = params[0];
    if (typeof kind !== 'string') return fail(-32602, 'expected subscription name as first argument');
    const namespace = msg.method.slice(0, msg.method.indexOf('_'));
    const source = this.opts.subscriptions;
    if (!source) {
      const e = subscriptionNotFound(kind, namespace);
      return fail(e.code, e.message);
    }
    const subID = newSubscriptionID();
    const sub = new Subscription(subID);
    const emit = (result: unknown) => {
      if (sub.ended || conn.closed) return;
      let text: string;
      try {
        // geth's Notifier: the method is the subscribing namespace's (`debug_subscription` for debug_subscribe).
        text = '{"jsonrpc":"2.0","method":"' + namespace + '_subscription","params":{"subscription":"' + subID + '","result":' + toJSON(result) + '}}';
      } catch (e) {
        this.opts.log.error('cannot encode subscription result', { error: String(e) });
        return;
      }
      if (sub.active) conn.send(text);
      else sub.queue?.push(text);
    };
    sub.unsubscribe = source.subscribe(kind, params, emit, namespace);
    conn.subs.set(subID, sub);
    pending.push(sub);
    return this.resultReply(id, subID, msg.method);
  }

  private unsubscribe(msg: Msg, id: string, conn: Connection | undefined): Reply {
    const fail = (code: number, message: string): Reply => ({ json: errorJSON(id, code, message), resultSize: 0 });
    let params: unknown[];
    if (msg.params === undefined || msg.params === null) params = [];
    else if (Array.isArray(msg.params)) params = msg.params;
    else return fail(-32602, 'non-array args');
    if (params.length === 0) return fail(-32602, 'missing value for required argument 0');
    const subID = params[0];
    if (subID !== null && typeof subID !== 'string') {
      return fail(-32602, `invalid argument 0: json: cannot unmarshal ${goKind(subID)} into Go value of type rpc.ID`);
    }
    if (params.length > 1) return fail(-32602, 'too many arguments, want at most 1');
    const sub = typeof subID === 'string' ? conn?.subs.get(subID) : undefined;
    if (!conn || !sub) return fail(-32000, 'subscription not found');
    conn.subs.delete(sub.id);
    endSubscription(sub, this.opts.log);
    return this.resultReply(id, true, msg.method);
  }

  // ----- WebSocket

  /** Takes the handshake if gorilla's Upgrader would; false leaves the request to `http` (its refusal). */
  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    if (websocketRefusal(req) !== undefined) return false;
    normalizeForWs(req);
    // Until the handshake is answered the socket is paused: nothing the client sends is lost.
    this.wsServer().then((wss) => this.accept(wss, req, socket, head), () => socket.destroy());
    return true;
  }

  private accept(wss: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn = new Connection(this.nextConnID++, req.socket.remoteAddress, ws);
      this.conns.add(conn);
      const ping = setInterval(() => {
        if (!conn.alive) return ws.terminate();
        conn.alive = false;
        try {
          ws.ping();
        } catch {
          ws.terminate();
        }
      }, WS_PING_INTERVAL_MS);
      ping.unref();
      ws.on('pong', () => (conn.alive = true));
      ws.on('message', (data, isBinary) => this.onWsMessage(conn, data, isBinary));
      ws.on('error', () => ws.terminate());
      ws.on('close', () => {
        clearInterval(ping);
        conn.closed = true;
        this.conns.delete(conn);
        for (const sub of conn.subs.values()) endSubscription(sub, this.opts.log);
        conn.subs.clear();
      });
    });
  }

  private onWsMessage(conn: Connection, data: RawData, _isBinary: boolean): void {
    // After a parse error geth reads nothing more from the connection.
    if (conn.closed) return;
    conn.alive = true;
    busyPoll.arrived();
    const text = rawText(data);
    let parsed: unknown;
    try {
      parsed = parseFirstValue(text);
    } catch (e) {
      // geth writes a parse error for a syntax error, then drops the connection (also on an
      // empty or truncated message, without the error): gorilla's Close ends the TCP connection
      // without a close frame, so the client sees 1006 (abnormal closure).
      const msg = (e as Error).message;
      conn.drop(msg !== 'EOF' && msg !== 'unexpected EOF' ? errorJSON('null', -32700, msg) : undefined);
      return;
    }
    try {
      this.serveParsed(parsed, text, conn, (out) => {
        if (out === undefined) return;
        conn.send(out);
        busyPoll.answered(); // an answer, not a subscription's notification: the client may ask again soon
      });
    } catch (e) {
      this.opts.log.error('rpc server failure', { error: String((e as Error)?.stack ?? e) });
    }
  }
}

export function createEthRpcHandlers(opts: EthRpcOptions): EthRpcHandlers {
  return new EthRpcServer(opts).handlers();
}

// ---------------------------------------------------------------------------------------------
// helpers

function isCall(m: Msg): boolean {
  return m.version === '2.0' && validID(m.id) && m.method !== '';
}

function isNotification(m: Msg): boolean {
  return m.version === '2.0' && m.id === undefined && m.method !== '';
}

function activate(conn: Connection, subs: Subscription[]): void {
  for (const sub of subs) {
    sub.active = true;
    const q = sub.queue;
    sub.queue = undefined;
    if (q && conn.subs.has(sub.id)) for (const t of q) conn.send(t);
  }
}

function endSubscription(sub: Subscription, log: Logger): void {
  sub.ended = true;
  sub.active = false;
  sub.queue = undefined;
  try {
    sub.unsubscribe();
  } catch (e) {
    log.warn('unsubscribe failed', { error: String(e) });
  }
}

/** geth's subscription ids: 16 random bytes as a hex quantity (no leading zeros). */
function newSubscriptionID(): string {
  const hex = randomBytes(16).toString('hex').replace(/^0+/, '');
  return '0x' + (hex === '' ? '0' : hex);
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/** Go's URL.RawQuery of a request target is empty: no `?`, or nothing after it. */
function emptyQuery(url: string): boolean {
  const q = url.indexOf('?');
  return q < 0 || q === url.length - 1;
}

function contentTypeOK(header: string | undefined): boolean {
  if (header === 'application/json') return true;
  if (!header) return false;
  const semi = header.indexOf(';');
  const mt = (semi >= 0 ? header.slice(0, semi) : header).trim().toLowerCase();
  return ACCEPTED_CONTENT_TYPES.has(mt);
}

/** A JSON-RPC answer over HTTP (undefined: an empty 200, as for notifications). */
function jsonReply(out: string | undefined): HttpReply {
  if (out === undefined) return EMPTY_JSON;
  out += '\n';
  return { status: 200, headers: ['Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(out))], body: out };
}

const EMPTY_JSON: HttpReply = { status: 200, headers: ['Content-Type', 'application/json', 'Content-Length', '0'], body: '' };
const INTERNAL_ERROR: HttpReply = { status: 500, headers: ['Content-Type', 'text/plain; charset=utf-8', 'Content-Length', '22'], body: 'internal server error\n' };

function httpError(req: IncomingMessage, res: ServerResponse, status: number, text: string): void {
  req.resume();
  const body = text + '\n';
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** Go's name for a JSON value's kind in unmarshal errors. */
export function goKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

/**
 * The first JSON value of a text, like Go's json.Decoder: trailing bytes after it are ignored.
 * Throws Error('EOF') for an empty text, Error('unexpected EOF') for a truncated one, and Go's
 * syntax error text otherwise.
 */
export function parseFirstValue(text: string): unknown {
  if (exceedsGoJsonDepth(text)) throw new Error(GO_MAX_DEPTH_ERROR);
  try {
    return JSON.parse(text);
  } catch (e) {
    if (/^\s*$/.test(text)) throw new Error('EOF');
    const msg = (e as Error).message;
    const trailing = /after JSON at position (\d+)/.exec(msg);
    if (trailing) {
      const value = JSON.parse(text.slice(0, Number(trailing[1])));
      // Go's decoder stops after an object or array; a scalar needs a delimiter after it, and
      // whitespace is one (`1 x` is 1, `1x` a syntax error).
      if (value !== null && typeof value === 'object') return value;
      if (/[ \t\n\r]/.test(text[Number(trailing[1]) - 1])) return value;
      const c = text[Number(trailing[1])];
      throw new Error(`invalid character '${c}' after top-level value`);
    }
    if (/end of JSON input|Unterminated string/.test(msg)) throw new Error('unexpected EOF');
    const pos = /at position (\d+)/.exec(msg);
    const at = pos ? Number(pos[1]) : -1;
    // Stopped at the end of the text: every byte was valid so far (`{"id":1`, `1.`), which Go's
    // decoder reports as io.ErrUnexpectedEOF, not as a syntax error.
    if (at >= text.length) throw new Error('unexpected EOF');
    const c = at >= 0 && at < text.length ? text[at] : (/Unexpected token '?(.)'?/.exec(msg)?.[1] ?? '?');
    const ch = c === '\n' ? '\\n' : c === '\t' ? '\\t' : c === '\r' ? '\\r' : c === "'" ? "\\'" : c;
    let where = 'looking for beginning of value';
    if (/Expected property name/.test(msg)) where = 'looking for beginning of object key string';
    else if (/after property value/.test(msg)) where = 'after object key:value pair';
    else if (/after property name/.test(msg)) where = 'after object key';
    else if (/after array element/.test(msg)) where = 'after array element';
    else if (/control character/.test(msg)) where = 'in string literal';
    else if (/number|Exponent|fractional/i.test(msg)) where = 'in numeric literal';
    throw new Error(`invalid character '${ch}' ${where}`);
  }
}
