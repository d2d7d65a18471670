// Cleartext HTTP/2 with prior knowledge (h2c), beside HTTP/1.1 on the same port, as AvalancheGo's
// server serves it (its router wrapped in golang.org/x/net/http2/h2c; reference
// avalanchego-node.md §3.1). A connection whose first bytes are HTTP/2's client preface
// (`PRI * HTTP/2.0␍␊␍␊SM␍␊␍␊`) leaves the HTTP/1.1 fast path (fastHttp.ts) for a node:http2 session;
// its requests then take the same front door as node:http's (http.ts: CORS, Host filter, canonical
// paths, the router). node:http2 is loaded with the first such connection, not at every start.
//
// What Go's HTTP/2 server does and this does too: the request's host is `:authority` (else a
// `host` header); connection-specific headers a handler sets (Connection, Keep-Alive,
// Proxy-Connection, Transfer-Encoding, Upgrade) are left out of the answer; an answer later than
// --http-write-timeout resets its stream (INTERNAL_ERROR) instead of closing the connection; a
// session idle for --http-idle-timeout, and every session at shutdown, is closed with a GOAWAY after
// its open streams finish. An HTTP/1.1 `Upgrade: h2c` request is answered in HTTP/1.1 (allowed:
// the upgrade is the server's choice; docs/configuration.md).
import type * as Http2 from 'node:http2';
import type { Socket } from 'node:net';
import { dynamicImport } from '../dynamicImport.js';

/**
 * Go's HTTP/2 header list limit (x/net/http2 maxHeaderListSize): http.Server's MaxHeaderBytes
 * (1 MiB by default) padded by adjustHTTP1MaxHeaderSize for ten headers' 32-byte overhead.
 */
const GO_MAX_HEADER_LIST_SIZE = (1 << 20) + 10 * 32;

/** The client connection preface (RFC 9113 §3.4). */
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/**
 * Whether received bytes open an HTTP/2 connection: 'yes' for the whole preface, 'maybe' for a
 * beginning of it (wait for more), 'no' otherwise.
 */
export function http2Preface(buf: Buffer): 'yes' | 'maybe' | 'no' {
  if (buf.length === 0 || buf[0] !== PREFACE[0]) return 'no';
  const n = Math.min(buf.length, PREFACE.length);
  if (buf.compare(PREFACE, 0, n, 0, n) !== 0) return 'no';
  return n === PREFACE.length ? 'yes' : 'maybe';
}

/** Headers that are about one HTTP/1.1 connection; HTTP/2 forbids them and Go's server drops them. */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

/** The response fields the front door (http.ts) sets, on an HTTP/2 response. */
export interface H2ResponseFields {
  /** [name, value, ...]: the node's own headers (node-id, Vary, CORS); a handler's own value wins. */
  nodeHeaders: unknown[] | undefined;
  call: { finish(start: number): void } | undefined;
  callStart: number;
  /** performance.now() after which the answer is not written, the stream is reset (0: none). */
  writeDeadline: number;
}

export type H2Response = Http2.Http2ServerResponse & H2ResponseFields;

/** node:http2's compatibility response with the node's headers and Go's HTTP/2 answer rules. */
function responseClass(http2: typeof Http2): new (stream: Http2.ServerHttp2Stream, headers: Http2.IncomingHttpHeaders) => H2Response {
  const { NGHTTP2_INTERNAL_ERROR } = http2.constants;
  class NodeH2Response extends http2.Http2ServerResponse implements H2ResponseFields {
    nodeHeaders: unknown[] | undefined = undefined;
    call: H2ResponseFields['call'] = undefined;
    callStart = 0;
    writeDeadline = 0;

    override writeHead(statusCode: number, reason?: unknown, obj?: unknown): this {
      // HTTP/2 has no reason phrase.
      const given = typeof reason === 'string' ? obj : (obj ?? reason);
      const pre = this.nodeHeaders;
      this.nodeHeaders = undefined;
      const headers = withoutConnectionHeaders(given);
      if (pre !== undefined) {
        for (let i = 0; i < pre.length; i += 2) {
          const name = pre[i] as string;
          if (!this.hasHeader(name) && !hasName(headers, name)) this.setHeader(name, pre[i + 1] as string);
        }
      }
      for (const name of this.getHeaderNames()) if (CONNECTION_HEADERS.has(name)) this.removeHeader(name);
      return super.writeHead(statusCode, headers as Http2.OutgoingHttpHeaders);
    }

    override end(chunk?: unknown, encoding?: unknown, cb?: unknown): this {
      if (this.writeDeadline !== 0 && performance.now() > this.writeDeadline) {
        this.stream.close(NGHTTP2_INTERNAL_ERROR);
        return this;
      }
      return super.end(chunk as never, encoding as never, cb as never);
    }
  }
  return NodeH2Response as never;
}

/** A handler's headers (an object or [name, value, ...]) without the connection-specific ones. */
function withoutConnectionHeaders(headers: unknown): unknown {
  if (headers === undefined || headers === null) return undefined;
  if (Array.isArray(headers)) {
    const out: unknown[] = [];
    for (let i = 0; i < headers.length; i += 2) if (!CONNECTION_HEADERS.has(String(headers[i]).toLowerCase())) out.push(headers[i], headers[i + 1]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(headers as Record<string, unknown>)) if (!CONNECTION_HEADERS.has(k.toLowerCase())) out[k] = v;
  return out;
}

function hasName(headers: unknown, name: string): boolean {
  if (headers === undefined) return false;
  const l = name.toLowerCase();
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2) if (String(headers[i]).toLowerCase() === l) return true;
    return false;
  }
  return Object.keys(headers as object).some((k) => k.toLowerCase() === l);
}

export type H2RequestListener = (req: Http2.Http2ServerRequest, res: H2Response) => void;

/** The HTTP/2 sessions of one HTTP server: made from handed-over sockets, closed with it. */
export class H2cSessions {
  private server: Http2.Http2Server | undefined;
  private loading: Promise<Http2.Http2Server> | undefined;
  private readonly sessions = new Set<Http2.ServerHttp2Session>();
  private closing = false;

  constructor(
    private readonly onRequest: H2RequestListener,
    /** Go's IdleTimeout: a session without a frame for this long is closed (0: never). */
    private readonly idleMs: number,
  ) {}

  /** Serves HTTP/2 on `socket`, whose unread bytes (the preface first) are in its buffer. */
  accept(socket: Socket): void {
    if (this.closing) {
      socket.destroy();
      return;
    }
    // Nothing may be read and dropped while node:http2 loads: it takes the buffered bytes over.
    socket.pause();
    const serve = (server: Http2.Http2Server) => {
      if (socket.destroyed) return;
      if (this.closing) return void socket.destroy();
      server.emit('connection', socket);
    };
    if (this.server) return serve(this.server);
    this.load().then(serve, () => socket.destroy());
  }

  /** Closes every session with a GOAWAY once its open streams are done (Go's Shutdown). */
  close(): void {
    this.closing = true;
    for (const s of this.sessions) s.close();
  }

  private load(): Promise<Http2.Http2Server> {
    this.loading ??= dynamicImport<typeof Http2>('node:http2').then((mod) => {
      const http2 = (mod as { default?: typeof Http2 }).default ?? mod;
      // 250 streams at once: Go's HTTP/2 server default (x/net/http2 defaultMaxStreams), which the
      // SETTINGS frame announces; node:http2 would allow 2^32−1. Header lists up to Go's size
      // (below), with no count of their own: node:http2 would reset a stream past 128 headers or
      // 64 KiB.
      const server = http2.createServer(
        {
          Http2ServerResponse: responseClass(http2) as never,
          settings: { maxConcurrentStreams: 250, maxHeaderListSize: GO_MAX_HEADER_LIST_SIZE },
          // HPACK counts 32 bytes per header beyond its name and value: the size bounds the count.
          maxHeaderListPairs: Math.ceil(GO_MAX_HEADER_LIST_SIZE / 32),
        },
        this.onRequest as never,
      );
      server.on('session', (s: Http2.ServerHttp2Session) => {
        this.sessions.add(s);
        s.on('close', () => this.sessions.delete(s));
        // A malformed frame or a reset connection ends that session only.
        s.on('error', () => s.destroy());
        if (this.idleMs > 0) s.setTimeout(this.idleMs, () => s.close());
      });
      this.server = server;
      return server;
    });
    return this.loading;
  }
}
