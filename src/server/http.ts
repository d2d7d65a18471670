// The HTTP front door (reference: avalanchego-node.md §3.1, §3.3): node-id header, CORS,
// Host filter, canonical-path redirects, exact-path dispatch through the Router, 404s. Requests
// node:http would not hand to a handler as Go does — an unknown method, CONNECT, an Upgrade the
// route declines — are given back to it in a form it parses (reparse.ts, unknownMethods.ts), and
// Expect is answered as Go answers it (expectContinue.ts).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { isIP, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { plain } from '../rpc/gorilla.js';
import { cleanPath, type RouteHandler, type Router } from './router.js';
import { headerTimeout, idleTimeout, serveFast, type FastConnectionHandle, type FastHttpOptions, type HttpTimeouts } from './fastHttp.js';
import type { RouteCalls } from './metrics.js';
import { BAD_REQUEST, goParseError, goRequestError, MAX_HEADER_BYTES } from './goRequestErrors.js';
import { H2cSessions, type H2Response } from './h2c.js';
import { plainRequestHead, takeReparsed, expectReparsed } from './reparse.js';
import { continueOnBodyRead, expectationFailed } from './expectContinue.js';
import { takeBackFromNodeHttp, unknownMethodRequest } from './unknownMethods.js';
import { escapePath, pathBytes } from './goUrlPath.js';
import { busyPoll } from './busyPoll.js';

export interface HttpServerOptions {
  host: string;
  port: number;
  nodeID: string;
  allowedHosts: string[];
  allowedOrigins: string[];
  timeouts: HttpTimeouts;
  /**
   * PEM key and certificate: serve HTTPS (every connection through node:https; no fast path).
   * `https` is node:https, loaded by the caller only when TLS is on.
   */
  tls?: { key: Buffer; cert: Buffer; https: typeof import('node:https') };
  /** A handler threw or rejected; `url` is the request target. */
  onHandlerError: (err: unknown, url: string | undefined) => void;
}

/**
 * A response that holds the node's own headers (node-id, Vary, CORS) and sends them, first, in the
 * handler's writeHead (also the implicit one of a bare `end`): one header block built once, instead
 * of a validated setHeader per header per request. The header order on the wire is unchanged.
 */
export class NodeResponse extends http.ServerResponse {
  /** [name, value, ...] to send before the handler's headers; undefined once sent. */
  nodeHeaders: unknown[] | undefined = undefined;
  /** The route's call counters, closed when the response closes. */
  call: RouteCalls | undefined = undefined;
  callStart = 0;
  /** performance.now() after which the answer is not written, the connection closes (Go's write deadline; 0: none). */
  writeDeadline = 0;
  /** The server's shutdown state: an answer written while it drains closes its connection. */
  drain: { draining: boolean } | undefined = undefined;

  override end(chunk?: unknown, encoding?: unknown, cb?: unknown): this {
    if (this.writeDeadline !== 0 && performance.now() > this.writeDeadline) {
      this.socket?.destroy();
      return this;
    }
    return super.end(chunk as never, encoding as never, cb as never);
  }

  override writeHead(statusCode: number, reason?: unknown, obj?: unknown): this {
    if (this.drain?.draining) this.shouldKeepAlive = false;
    // Go's net/http names no Connection on an HTTP/1.1 answer that keeps the connection (and sends
    // no Keep-Alive); node:http would write `Connection: keep-alive` and `Keep-Alive: timeout=…`.
    // Removing the header tells node:http so; a Connection the handler gives still wins, and a
    // closing answer still says `Connection: close`. node:http decides to close in its writeHead in
    // one more case — a 100 Continue expected and never sent (expectContinue.ts) — so that case is
    // read here from the same fields; the server sets no maxRequestsPerSocket, the other one.
    const expect = this as unknown as { _expect_continue?: boolean; _sent100?: boolean };
    const closesUnread = expect._expect_continue === true && expect._sent100 !== true;
    if (this.shouldKeepAlive && !closesUnread && this.req.httpVersionMajor === 1 && this.req.httpVersionMinor === 1 && !this.hasHeader('connection')) {
      this.removeHeader('connection');
    }
    const pre = this.nodeHeaders;
    if (pre === undefined) return super.writeHead(statusCode, reason as string, obj as http.OutgoingHttpHeaders);
    const headers = typeof reason === 'string' ? obj : (obj ?? reason);
    const merged = this.getHeaderNames().length === 0 ? flatHeaders(pre, headers) : undefined;
    if (merged !== undefined) {
      // Fast path: no setHeader was used; one array, validated once while the head is stored.
      if (typeof reason === 'string') super.writeHead(statusCode, reason, merged as http.OutgoingHttpHeader[]);
      else super.writeHead(statusCode, merged as http.OutgoingHttpHeader[]);
    } else {
      // The handler used setHeader (or repeats one of ours): put ours first, as setHeader order would.
      const names = (this as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames();
      const values = names.map((n) => this.getHeader(n)!);
      for (const n of names) this.removeHeader(n);
      for (let i = 0; i < pre.length; i += 2) this.setHeader(pre[i] as string, pre[i + 1] as string);
      for (let i = 0; i < names.length; i++) this.setHeader(names[i], values[i]);
      super.writeHead(statusCode, reason as string, obj as http.OutgoingHttpHeaders);
    }
    this.nodeHeaders = undefined;
    return this;
  }
}

/** Our header pairs followed by the handler's, or undefined when a handler header repeats one of
 *  ours (setHeader would replace ours in place; the slow path does that). */
function flatHeaders(pre: unknown[], headers: unknown): unknown[] | undefined {
  if (headers === undefined || headers === null) return pre;
  const out = pre.slice();
  if (Array.isArray(headers)) {
    if (headers.length && Array.isArray(headers[0])) return undefined;
    for (let i = 0; i < headers.length; i += 2) {
      if (ownsHeader(pre, headers[i])) return undefined;
      out.push(headers[i], headers[i + 1]);
    }
    return out;
  }
  for (const k in headers as Record<string, unknown>) {
    if (!Object.hasOwn(headers as object, k)) continue;
    if (ownsHeader(pre, k)) return undefined;
    out.push(k, (headers as Record<string, unknown>)[k]);
  }
  return out;
}

function ownsHeader(pre: unknown[], name: unknown): boolean {
  if (typeof name !== 'string') return true; // let node's own path deal with it
  const l = name.toLowerCase();
  for (let i = 0; i < pre.length; i += 2) if ((pre[i] as string).toLowerCase() === l) return true;
  return false;
}

/** A request and its response, HTTP/1.1 (node:http) or HTTP/2 (h2c.ts). */
type FrontRequest = IncomingMessage | Http2ServerRequest;
type FrontResponse = NodeResponse | H2Response;

/** RST_STREAM's PROTOCOL_ERROR (RFC 9113 §7). */
const H2_PROTOCOL_ERROR = 1;

/** 'close' listener shared by every response (no closure per request). */
function closeCall(this: FrontResponse): void {
  const c = this.call;
  if (c === undefined) return;
  this.call = undefined;
  c.finish(this.callStart);
  busyPoll.answered();
}

export class HttpServer {
  readonly server: http.Server;
  private readonly sockets = new Set<Socket>();
  /** Connections still on the fast path (shutdown closes the idle ones). */
  private readonly fastConns = new Map<Socket, FastConnectionHandle>();
  /** WebSocket connections: Go's Shutdown neither waits for nor closes hijacked connections. */
  private readonly upgraded = new Set<Duplex>();
  private readonly drain = { draining: false };
  /** --http-allowed-origins, lower-cased as rs/cors keeps them. */
  private readonly allowedOrigins: string[];
  private readonly allowAllOrigins: boolean;
  private readonly allowAllHosts: boolean;
  /** The last Host header seen and whether it passed: clients repeat the same one. */
  private lastHost: string | undefined;
  private lastHostOK = false;
  /** node:http's own connection listener (a connection handed to it is parsed as HTTP/1.1). */
  private readonly httpConnection: (s: Duplex) => void;
  /** Connections that opened with HTTP/2's preface (h2c; plain HTTP only). */
  private readonly h2: H2cSessions | undefined;

  constructor(
    private readonly router: Router,
    private readonly opts: HttpServerOptions,
  ) {
    this.allowedOrigins = opts.allowedOrigins.map((o) => o.toLowerCase());
    // rs/cors: an empty list allows every origin, as `*` does.
    this.allowAllOrigins = opts.allowedOrigins.length === 0 || opts.allowedOrigins.includes('*');
    this.allowAllHosts = opts.allowedHosts.includes('*');
    // Go's timeouts (HttpTimeouts) as node:http has them; node checks its request deadlines every
    // connectionsCheckingInterval (30 s by default, a second here).
    const t = opts.timeouts;
    // Go's head limit instead of node:http's 16 KiB, and its own Host checks (goRequestErrors.ts)
    // instead of node:http's bodiless 400.
    const serverOpts = { keepAlive: true, ServerResponse: NodeResponse, connectionsCheckingInterval: 1000, maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false };
    const onRequest = (req: IncomingMessage, res: NodeResponse) => this.onRequest(req, res);
    this.server = (opts.tls ? opts.tls.https.createServer({ ...serverOpts, key: opts.tls.key, cert: opts.tls.cert }, onRequest as never) : http.createServer(serverOpts, onRequest as never)) as unknown as http.Server;
    // Go counts no header lines (only the head's bytes, MAX_HEADER_BYTES); node:http would drop
    // those past 2000, a Host among them.
    this.server.maxHeadersCount = 0;
    this.server.keepAliveTimeout = idleTimeout(t);
    this.server.requestTimeout = t.readMs;
    this.server.headersTimeout = t.readMs > 0 ? Math.min(headerTimeout(t), t.readMs) : headerTimeout(t);
    this.server.on('upgrade', (req, socket, head) => this.onUpgrade(req, socket, head));
    // Expect as Go's server has it (expectContinue.ts); node:http would send every 100 at once.
    this.server.on('checkContinue', (req: IncomingMessage, res: NodeResponse) => {
      continueOnBodyRead(req, res);
      this.onRequest(req, res);
    });
    this.server.on('checkExpectation', (req: IncomingMessage, res: NodeResponse) => {
      // Go's Header.get("Expect") != "": an empty value is no expectation.
      if (req.headers.expect === '') this.onRequest(req, res);
      else expectationFailed(req, res);
    });
    // node:http would close a CONNECT request (a tunnel); Go's server routes it like any other.
    this.server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const authority = req.url?.charCodeAt(0) === 47 ? undefined : req.url;
      this.guarded(socket, () => this.handBack(socket, Buffer.concat([plainRequestHead(req, socket, false, authority), head])));
    });
    this.server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
      // A read deadline passed: Go closes the connection without an answer (node:http would 408).
      if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') socket.destroy();
      else if (this.serveUnknownMethod(err, socket)) return;
      else if (socket.writable) socket.end(goParseError(err));
      else socket.destroy();
    });
    if (opts.tls) {
      const [httpConnection] = this.server.listeners('secureConnection') as ((s: Duplex) => void)[];
      this.httpConnection = httpConnection;
      // TLS sockets reach node:http after the handshake; the fast path reads plain sockets only.
      this.server.on('secureConnection', (s: Socket) => {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
      });
      this.server.on('tlsClientError', (_err, s: Socket) => s.destroy());
      return;
    }
    // Every connection starts on the fast path (fastHttp.ts), which gives it to node:http's own
    // connection listener at the first request it does not answer itself.
    const [httpConnection] = this.server.listeners('connection') as ((s: Socket) => void)[];
    this.server.removeListener('connection', httpConnection);
    this.httpConnection = httpConnection as (s: Duplex) => void;
    const h2 = new H2cSessions((req, res) => this.onH2Request(req, res), idleTimeout(t));
    this.h2 = h2;
    const fast: FastHttpOptions = {
      router,
      nodeHeaderLines: `node-id: ${opts.nodeID}\r\nVary: Origin\r\n`,
      hostAllowed: (host) => this.hostAllowed(host),
      timeouts: t,
      handOff: (s) => httpConnection.call(this.server, s),
      handOffH2: (s) => h2.accept(s),
      onHandlerError: opts.onHandlerError,
      draining: () => this.drain.draining,
    };
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', this.onSocketClose);
      this.fastConns.set(s, serveFast(s, fast));
    });
  }

  /** A plain connection closed (one listener for all: the only one a connection taken back from node:http keeps). */
  private readonly onSocketClose = ((server: HttpServer) =>
    function (this: Socket) {
      server.sockets.delete(this);
      server.fastConns.delete(this);
    })(this);

  /** Gives node:http the connection again, `bytes` first (a request it had refused or tunnelled, in a form it parses). */
  private handBack(socket: Duplex, bytes: Buffer): void {
    socket.unshift(bytes);
    // Neither paused nor flowing: node:http's 'data' listener starts the flow (as after an upgrade).
    (socket as { readableFlowing: boolean | null }).readableFlowing = null;
    this.httpConnection.call(this.server, socket);
  }

  /**
   * A request llhttp refused for a method it does not know: served as Go serves it (unknownMethods.ts).
   * Plain connections only: a TLS socket's own listeners are not node:http's to drop.
   */
  private serveUnknownMethod(err: NodeJS.ErrnoException, socket: Duplex): boolean {
    if (this.opts.tls) return false;
    const found = unknownMethodRequest(err);
    if (found === undefined) return false;
    return this.guarded(socket, () =>
      takeBackFromNodeHttp(socket as Socket, this.onSocketClose, () =>
        this.guarded(socket, () => {
          expectReparsed(socket, { method: found.method });
          this.handBack(socket, found.bytes);
        }),
      ),
    );
  }

  /**
   * Runs a step that reaches into node:http's connection (its events give no way to report an
   * error): if it throws, the connection is closed and the error logged; the node goes on.
   */
  private guarded(socket: Duplex, step: () => boolean | void): boolean {
    try {
      return step() !== false;
    } catch (e) {
      this.opts.onHandlerError(e, undefined);
      socket.destroy();
      return true;
    }
  }

  listen(): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.opts.port, this.opts.host || undefined, () => {
        this.server.off('error', reject);
        resolve(this.server.address() as AddressInfo);
      });
    });
  }

  /**
   * AvalancheGo's shutdown (Go's http.Server.Shutdown with --http-shutdown-timeout, then Close): no
   * new connections; idle ones close at once; a request being received or answered is finished, its
   * answer says `Connection: close`; after `timeoutMs` (0: at once) whatever is left is closed, and
   * WebSocket connections, which Go's Shutdown leaves alone, are closed last.
   */
  async close(timeoutMs = 0): Promise<void> {
    const done = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.drain.draining = true;
    this.h2?.close();
    const deadline = performance.now() + timeoutMs;
    // Go polls from 1 ms, doubling (with jitter) up to 500 ms; 100 ms keeps a stop prompt.
    for (let pollMs = 1; ; pollMs = Math.min(pollMs * 2, 100)) {
      this.server.closeIdleConnections();
      for (const c of this.fastConns.values()) c.closeIfIdle();
      let active = false;
      for (const s of this.sockets) if (!this.upgraded.has(s)) active = true;
      if (!active || performance.now() >= deadline) break;
      await new Promise((r) => setTimeout(r, Math.min(pollMs, deadline - performance.now())));
    }
    this.server.closeAllConnections();
    for (const s of this.sockets) s.destroy();
    for (const s of this.upgraded) s.destroy();
    await done;
  }

  private hostAllowed(host: string | undefined): boolean {
    if (this.allowAllHosts) return true;
    const hostHeader = host ?? '';
    if (hostHeader === '') return true;
    if (hostHeader === this.lastHost) return this.lastHostOK;
    const ok = this.checkHost(hostHeader);
    this.lastHost = hostHeader;
    this.lastHostOK = ok;
    return ok;
  }

  /**
   * AvalancheGo's allowed_hosts: the host part of net.SplitHostPort(Host), or — when that fails
   * (no port, too many colons: `::1`, `[::1]`) — the whole value; an IP (net.ParseIP) passes, a
   * name must be in the list.
   */
  private checkHost(hostHeader: string): boolean {
    const host = splitHostPort(hostHeader) ?? hostHeader;
    // The list first: isIP compiles Node's IPv6 pattern on first use (~5 ms) for a name like localhost.
    if (this.opts.allowedHosts.includes(host.toLowerCase())) return true;
    // net.ParseIP takes no IPv6 zone (`fe80::1%eth0`).
    return !host.includes('%') && isIP(host) !== 0;
  }

  /**
   * rs/cors v1.7 with AvalancheGo's options. Answers a preflight (returns true); otherwise leaves the
   * node's headers (node-id, Vary, CORS) on the response for its writeHead.
   */
  private cors(req: FrontRequest, res: FrontResponse): boolean {
    const origin = req.headers.origin;
    const allowAll = this.allowAllOrigins;
    const originAllowed = origin !== undefined && origin !== '' && (allowAll || originMatches(this.allowedOrigins, origin));
    const requestMethod = req.headers['access-control-request-method'];
    if (req.method === 'OPTIONS' && requestMethod !== undefined && requestMethod !== '') {
      const h: unknown[] = ['node-id', this.opts.nodeID, 'Vary', ['Origin', 'Access-Control-Request-Method', 'Access-Control-Request-Headers']];
      const method = String(requestMethod).toUpperCase();
      const wanted = parseHeaderList(firstHeader(req, 'access-control-request-headers'));
      if (originAllowed && corsMethodAllowed(method) && wanted.every((h) => CORS_HEADERS.has(h))) {
        h.push('Access-Control-Allow-Origin', allowAll ? '*' : origin!);
        h.push('Access-Control-Allow-Methods', method);
        if (wanted.length) h.push('Access-Control-Allow-Headers', wanted.join(', '));
        h.push('Access-Control-Allow-Credentials', 'true');
      }
      req.resume();
      h.push('Content-Length', 0);
      (res as NodeResponse).writeHead(200, h as http.OutgoingHttpHeader[]);
      res.end();
      return true;
    }
    if (originAllowed && corsMethodAllowed(req.method ?? '')) {
      res.nodeHeaders = ['node-id', this.opts.nodeID, 'Vary', 'Origin', 'Access-Control-Allow-Origin', allowAll ? '*' : origin!, 'Access-Control-Allow-Credentials', 'true'];
    } else {
      res.nodeHeaders = ['node-id', this.opts.nodeID, 'Vary', 'Origin'];
    }
    return false;
  }

  private onRequest(req: IncomingMessage, res: NodeResponse): void {
    busyPoll.arrived();
    res.drain = this.drain;
    const reparsed = takeReparsed(req);
    const refused = goRequestError(req);
    if (refused !== undefined) {
      req.socket.end(refused);
      return;
    }
    if (optionsStar(req, res)) return;
    const url = req.url ?? '/';
    // Go's server refuses a target whose path has a malformed escape (url.ParseRequestURI: `%zz`)
    // while reading the request, before any handler: 400, and the connection closes.
    if (badEscape(url)) {
      req.socket.end(BAD_REQUEST);
      return;
    }
    if (this.cors(req, res)) return;
    // `CONNECT host:port`: Go's request has that host and the empty path, which gorilla/mux
    // redirects to the clean one, written as a URL with that host: `//host:port/`.
    const authority = reparsed?.authority;
    if (authority !== undefined) return this.route(req, res, '', authority, '//' + authority);
    const target = requestTarget(url, req.headers.host);
    this.route(req, res, target.url, target.host);
  }

  /** An HTTP/2 request (h2c.ts): Go's HTTP/2 server takes the host from `:authority`. */
  private onH2Request(req: Http2ServerRequest, res: H2Response): void {
    if (optionsStar(req, res)) return;
    const url = req.url;
    // Go's HTTP/2 server resets the stream of a :path that does not parse (url.ParseRequestURI).
    if (badEscape(url)) {
      req.stream.close(H2_PROTOCOL_ERROR);
      return;
    }
    if (this.cors(req, res)) return;
    this.route(req, res, url, req.headers[':authority'] ?? req.headers.host);
  }

  /** The Host filter, canonical paths and the router: what both protocols share. */
  private route(req: FrontRequest, res: FrontResponse, url: string, host: string | undefined, locationPrefix = ''): void {
    if (!this.hostAllowed(host)) {
      req.resume();
      return plain(res as ServerResponse, 403, 'invalid host specified\n');
    }
    // AvalancheGo's header routing: with `Avalanche-Api-Route` the path is not looked at; the value
    // names a chain whose VM serves requests by header (the ProposerVM's Connect-RPC service).
    // Powder's chains serve none: 404 with no body, as for an unknown chain.
    if (req.headers['avalanche-api-route'] !== undefined) {
      req.resume();
      (res as NodeResponse).writeHead(404, { 'Content-Length': 0 });
      res.end();
      return;
    }
    const q = url.indexOf('?');
    const rawPath = q >= 0 ? url.slice(0, q) : url;
    // gorilla/mux matches the decoded path (url.URL.Path).
    const path = decodePath(rawPath);
    const bytes = pathBytes(rawPath);
    const clean = canonical(bytes);
    if (clean !== bytes) {
      req.resume();
      // gorilla/mux writes Location (the cleaned URL.Path, escaped again) and the status only; Go's
      // server then sends Content-Length: 0.
      (res as NodeResponse).writeHead(301, { Location: locationPrefix + escapePath(clean) + (q >= 0 ? url.slice(q) : ''), 'Content-Length': 0 });
      res.end();
      return;
    }
    const handler = this.router.lookup(path);
    if (!handler) {
      req.resume();
      return plain(res as ServerResponse, 404, '404 page not found\n');
    }
    const call = this.router.calls.entry(path);
    res.call = call;
    res.callStart = call.begin();
    if (this.opts.timeouts.writeMs > 0) res.writeDeadline = res.callStart + this.opts.timeouts.writeMs;
    (res as NodeResponse).on('close', closeCall);
    let p: void | Promise<void>;
    try {
      p = handler.http(req as IncomingMessage, res as ServerResponse);
    } catch (e) {
      return this.fail(e, req, res);
    }
    if (p) p.catch((e) => this.fail(e, req, res));
  }

  private fail(e: unknown, req: FrontRequest, res: FrontResponse): void {
    this.opts.onHandlerError(e, req.url);
    if (!res.headersSent) plain(res as ServerResponse, 500, 'internal server error\n');
    else res.destroy();
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const reparsed = takeReparsed(req);
    socket.on('error', () => socket.destroy());
    this.upgraded.add(socket);
    socket.on('close', () => this.upgraded.delete(socket));
    const refused = goRequestError(req);
    if (refused !== undefined) {
      socket.end(refused);
      return;
    }
    const handler = reparsed?.authority === undefined ? this.upgradeRoute(req) : undefined;
    try {
      if (handler?.upgrade!(req, socket, head)) return;
    } catch (e) {
      this.opts.onHandlerError(e, req.url);
      socket.destroy();
      return;
    }
    // Go's server sees an Upgrade header the handler does not take as a plain header: the
    // request is answered as usual (curl --http2's `Upgrade: h2c`, a WebSocket handshake on a
    // JSON-RPC route or one the endpoint refuses, a bad Host: 403, a preflight, a path to clean).
    // node:http has detached its parser, so the request goes back to it without the header (put
    // back on the request it parses), followed by the bytes read after it.
    this.upgraded.delete(socket);
    socket.removeAllListeners('error');
    this.handBack(socket, Buffer.concat([plainRequestHead(req, socket, true, reparsed?.authority), head]));
  }

  /**
   * The route an Upgrade request reaches unchanged through the front door — no preflight, header
   * route, Host refusal or redirect of its own to answer first — if that route takes upgrades.
   */
  private upgradeRoute(req: IncomingMessage): RouteHandler | undefined {
    const acrm = req.headers['access-control-request-method'];
    if (req.method === 'OPTIONS' && acrm !== undefined && acrm !== '') return undefined;
    if (req.headers['avalanche-api-route'] !== undefined) return undefined;
    const { url, host } = requestTarget(req.url ?? '/', req.headers.host);
    if (!this.hostAllowed(host) || badEscape(url)) return undefined;
    const q = url.indexOf('?');
    const rawPath = q >= 0 ? url.slice(0, q) : url;
    const bytes = pathBytes(rawPath);
    if (canonical(bytes) !== bytes) return undefined;
    const handler = this.router.lookup(decodePath(rawPath));
    return handler?.upgrade ? handler : undefined;
  }
}

/**
 * The path-and-query and host Go routes a request target by: an absolute-form target
 * (`POST http://host/ext/info`) gives both (net/http's readRequest); otherwise the Host header.
 */
function requestTarget(url: string, hostHeader: string | undefined): { url: string; host: string | undefined } {
  if (url.charCodeAt(0) !== 47) {
    const abs = ABSOLUTE_FORM.exec(url);
    if (abs) return { url: abs[2], host: abs[1].slice(abs[1].lastIndexOf('@') + 1) };
  }
  return { url, host: hostHeader };
}

/** A `%` not followed by two hex digits. */
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

/** Whether the path of a request target has a malformed escape (`%zz`). */
function badEscape(url: string): boolean {
  if (!url.includes('%')) return false;
  const pathEnd = url.indexOf('?');
  return BAD_ESCAPE.test(pathEnd >= 0 ? url.slice(0, pathEnd) : url);
}

/** `OPTIONS *`: Go's server answers it itself (globalOptionsHandler), before any handler. */
function optionsStar(req: FrontRequest, res: FrontResponse): boolean {
  if (req.url !== '*' || req.method !== 'OPTIONS') return false;
  req.resume();
  (res as NodeResponse).writeHead(200, { 'Content-Length': 0 });
  res.end();
  return true;
}

/** scheme://authority then the rest (path and query) of an absolute-form request target. */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)(.*)$/s;

/** Go's net.SplitHostPort: the host, or undefined where it returns an error. */
export function splitHostPort(hostport: string): string | undefined {
  const i = hostport.lastIndexOf(':');
  if (i < 0) return undefined; // missing port
  let host: string;
  let j = 0;
  let k = 0;
  if (hostport[0] === '[') {
    const end = hostport.indexOf(']');
    if (end < 0 || end + 1 !== i) return undefined; // missing ']', missing port, too many colons
    host = hostport.slice(1, end);
    j = 1;
    k = end + 1;
  } else {
    host = hostport.slice(0, i);
    if (host.includes(':')) return undefined; // too many colons
  }
  if (hostport.indexOf('[', j) >= 0 || hostport.indexOf(']', k) >= 0) return undefined;
  return host;
}

const CORS_METHODS = new Set(['GET', 'POST', 'HEAD']);
/** rs/cors default allowed request headers, canonical form. */
const CORS_HEADERS = new Set(['Origin', 'Accept', 'Content-Type', 'X-Requested-With']);

/** rs/cors v1.7 isMethodAllowed: case-insensitive, and OPTIONS (a preflight's own method) always. */
function corsMethodAllowed(method: string): boolean {
  if (CORS_METHODS.has(method)) return true;
  const m = method.toUpperCase();
  return m === 'OPTIONS' || CORS_METHODS.has(m);
}

/** Go's Header.Get: the first value of a header (node:http joins repeated ones). */
function firstHeader(req: FrontRequest, name: string): string {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === name) return raw[i + 1];
  return '';
}

/**
 * rs/cors v1.7 parseHeaderList: names split at commas and spaces, in canonical case (upper after
 * the start and each `-`); bytes other than letters, digits, `-`, `_` and `.` are dropped.
 */
function parseHeaderList(list: string): string[] {
  const out: string[] = [];
  let h = '';
  let upper = true;
  for (let i = 0; i < list.length; i++) {
    const b = list[i];
    if (b >= 'a' && b <= 'z') h += upper ? b.toUpperCase() : b;
    else if (b >= 'A' && b <= 'Z') h += upper ? b : b.toLowerCase();
    else if (b === '-' || b === '_' || b === '.' || (b >= '0' && b <= '9')) h += b;
    if (b === ' ' || b === ',' || i === list.length - 1) {
      if (h !== '') {
        out.push(h);
        h = '';
        upper = true;
      }
    } else {
      upper = b === '-';
    }
  }
  return out;
}

/** rs/cors origin match: exact (case-insensitive) or one `*` wildcard (`http://*.example.com`). */
function originMatches(allowed: string[], origin: string): boolean {
  const o = origin.toLowerCase();
  return allowed.some((a) => {
    const star = a.indexOf('*');
    if (star < 0) return a === o;
    const prefix = a.slice(0, star);
    const suffix = a.slice(star + 1);
    return o.length >= prefix.length + suffix.length && o.startsWith(prefix) && o.endsWith(suffix);
  });
}

function decodePath(p: string): string {
  if (!p.includes('%')) return p;
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

/** gorilla/mux's cleanPath: clean, but keep a trailing slash. */
function canonical(p: string): string {
  // Already clean (the usual case): absolute, no empty, `.` or `..` segment.
  if (p.charCodeAt(0) === 47 && !p.includes('//') && !p.includes('/.')) return p;
  if (p === '') return '/';
  let c = cleanPath(p);
  if (p.endsWith('/') && c !== '/') c += '/';
  return c;
}
