// The HTTP front door (reference: avalanchego-node.md §3.1, §3.3): node-id header, CORS,
// Host filter, canonical-path redirects, exact-path dispatch through the Router, 404s.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { plain } from '../rpc/gorilla.js';
import { cleanPath, type Router } from './router.js';

export interface HttpServerOptions {
  host: string;
  port: number;
  nodeID: string;
  allowedHosts: string[];
  allowedOrigins: string[];
  idleTimeoutMs: number;
  onHandlerError: (err: unknown, req: IncomingMessage) => void;
}

export class HttpServer {
  readonly server: http.Server;
  private readonly sockets = new Set<Socket>();
  /** --http-allowed-origins, lower-cased as rs/cors keeps them. */
  private readonly allowedOrigins: string[];

  constructor(
    private readonly router: Router,
    private readonly opts: HttpServerOptions,
  ) {
    this.allowedOrigins = opts.allowedOrigins.map((o) => o.toLowerCase());
    this.server = http.createServer({ keepAlive: true }, (req, res) => this.onRequest(req, res));
    this.server.keepAliveTimeout = opts.idleTimeoutMs;
    this.server.headersTimeout = Math.max(opts.idleTimeoutMs + 1000, 31_000);
    this.server.on('upgrade', (req, socket, head) => this.onUpgrade(req, socket, head));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    this.server.on('clientError', (_err, socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      else socket.destroy();
    });
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

  async close(): Promise<void> {
    const done = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    for (const s of this.sockets) s.destroy();
    await done;
  }

  private hostAllowed(req: IncomingMessage): boolean {
    if (this.opts.allowedHosts.includes('*')) return true;
    const hostHeader = req.headers.host ?? '';
    if (hostHeader === '') return true;
    let host = hostHeader;
    if (host.startsWith('[')) host = host.slice(1, host.indexOf(']'));
    else if (host.includes(':')) host = host.slice(0, host.lastIndexOf(':'));
    if (isIP(host)) return true;
    return this.opts.allowedHosts.includes(host.toLowerCase());
  }

  /** rs/cors v1.7 with AvalancheGo's options: returns true when the request was a preflight and has been answered. */
  private cors(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    const allowAll = this.opts.allowedOrigins.includes('*');
    const originAllowed = origin !== undefined && origin !== '' && (allowAll || originMatches(this.allowedOrigins, origin));
    const requestMethod = req.headers['access-control-request-method'];
    if (req.method === 'OPTIONS' && requestMethod !== undefined && requestMethod !== '') {
      res.setHeader('Vary', ['Origin', 'Access-Control-Request-Method', 'Access-Control-Request-Headers']);
      const method = String(requestMethod).toUpperCase();
      const wanted = headerList(req.headers['access-control-request-headers']);
      if (originAllowed && CORS_METHODS.has(method) && wanted.every((h) => CORS_HEADERS.has(h))) {
        res.setHeader('Access-Control-Allow-Origin', allowAll ? '*' : origin!);
        res.setHeader('Access-Control-Allow-Methods', method);
        if (wanted.length) res.setHeader('Access-Control-Allow-Headers', wanted.join(', '));
        res.setHeader('Access-Control-Allow-Credentials', 'true');
      }
      req.resume();
      res.writeHead(200, { 'Content-Length': 0 });
      res.end();
      return true;
    }
    res.setHeader('Vary', 'Origin');
    if (originAllowed && CORS_METHODS.has(req.method ?? '')) {
      res.setHeader('Access-Control-Allow-Origin', allowAll ? '*' : origin!);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
    }
    return false;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    res.setHeader('node-id', this.opts.nodeID);
    if (this.cors(req, res)) return;
    if (!this.hostAllowed(req)) {
      req.resume();
      return plain(res, 403, 'invalid host specified\n');
    }
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    // gorilla/mux matches the decoded path (url.URL.Path).
    const path = decodePath(q >= 0 ? url.slice(0, q) : url);
    const clean = canonical(path);
    if (clean !== path) {
      req.resume();
      res.writeHead(301, { Location: clean + (q >= 0 ? url.slice(q) : '') });
      res.end();
      return;
    }
    const handler = this.router.lookup(path);
    if (!handler) {
      req.resume();
      return plain(res, 404, '404 page not found\n');
    }
    const finished = this.router.calls.start(path);
    res.once('close', finished);
    let p: void | Promise<void>;
    try {
      p = handler.http(req, res);
    } catch (e) {
      return this.fail(e, req, res);
    }
    if (p) p.catch((e) => this.fail(e, req, res));
  }

  private fail(e: unknown, req: IncomingMessage, res: ServerResponse): void {
    this.opts.onHandlerError(e, req);
    if (!res.headersSent) plain(res, 500, 'internal server error\n');
    else res.destroy();
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '/').split('?')[0];
    const handler = this.hostAllowed(req) ? this.router.lookup(path) : undefined;
    if (!handler?.upgrade) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n404 page not found\n');
      return;
    }
    try {
      handler.upgrade(req, socket, head);
    } catch (e) {
      this.opts.onHandlerError(e, req);
      socket.destroy();
    }
  }
}

const CORS_METHODS = new Set(['GET', 'POST', 'HEAD']);
/** rs/cors default allowed request headers, canonical form. */
const CORS_HEADERS = new Set(['Origin', 'Accept', 'Content-Type', 'X-Requested-With']);

/** Access-Control-Request-Headers → canonical header names (Go's http.CanonicalHeaderKey). */
function headerList(v: string | string[] | undefined): string[] {
  const text = Array.isArray(v) ? v.join(',') : (v ?? '');
  return text
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '')
    .map((h) => h.toLowerCase().replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase()));
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
  if (p === '') return '/';
  let c = cleanPath(p);
  if (p.endsWith('/') && c !== '/') c += '/';
  return c;
}
