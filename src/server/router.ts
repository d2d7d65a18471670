// The /ext route table with AvalancheGo's alias semantics (reference: avalanchego-node.md §3.2):
// routes[base][suffix] = handler; aliases[base] = alias URLs; alias URLs are "reserved".
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiCallMetrics } from './metrics.js';

export interface RouteHandler {
  http(req: IncomingMessage, res: ServerResponse): void | Promise<void>;
  /**
   * WebSocket (or other) upgrade requests on this route that passed the front door. Returns false
   * to decline one (a handshake the endpoint refuses): the request then gets `http`'s answer, on
   * a connection that stays open.
   */
  upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /**
   * POST requests this route answers from their body alone, offered to the fast HTTP path
   * (fastHttp.ts). `http` must give the very same answer for such a request: routes build both
   * from one `answer`.
   */
  post?: PostAnswer;
}

/** An HTTP answer as data: status, header name/value pairs in wire order, body. */
export interface Reply {
  status: number;
  headers: string[];
  body: string;
}

export interface PostAnswer {
  /** Bodies longer than this take the node:http path (which gives the route's own limit error). */
  readonly bodyLimit: number;
  /** Whether a POST with this Content-Type is answered by `answer` (others take the node:http path). */
  accepts(contentType: string | undefined): boolean;
  /** `url` is the request target as sent (for logging). */
  answer(body: Buffer, url: string): Reply | Promise<Reply>;
}

/** Writes a Reply through node:http (the slow path's twin of the fast path's write). */
export function writeReply(res: ServerResponse, r: Reply): void {
  if (res.destroyed) return;
  res.writeHead(r.status, r.headers);
  res.end(r.body);
}

export class Router {
  /** Calls served per route (the HTTP server records them; /ext/metrics shows them). */
  readonly calls = new ApiCallMetrics();
  private readonly routes = new Map<string, Map<string, RouteHandler>>();
  private readonly aliases = new Map<string, string[]>();
  private readonly reserved = new Set<string>();
  /** Flattened full path → handler, for dispatch. */
  private readonly table = new Map<string, RouteHandler>();

  lookup(path: string): RouteHandler | undefined {
    return this.table.get(path);
  }

  addRoute(base: string, suffix: string, handler: RouteHandler): void {
    if (this.reserved.has(base)) {
      throw new Error(`route is either already aliased or already maps to a handle: ${base}`);
    }
    const err = this.forceAddRoute(base, suffix, handler);
    if (err) throw err;
  }

  private forceAddRoute(base: string, suffix: string, handler: RouteHandler): Error | undefined {
    let first: Error | undefined;
    const full = base + suffix;
    let endpoints = this.routes.get(base);
    if (!endpoints) this.routes.set(base, (endpoints = new Map()));
    // Only this base's own routes collide (AvalancheGo checks routes[base][suffix]). The same full
    // path under another base is accepted, and gorilla/mux keeps serving the route added first.
    if (endpoints.has(suffix)) {
      return new Error(`failed to create endpoint as ${full} already exists`);
    }
    endpoints.set(suffix, handler);
    if (!this.table.has(full)) this.table.set(full, handler);
    for (const alias of this.aliases.get(base) ?? []) {
      const e = this.forceAddRoute(alias, suffix, handler);
      first ??= e;
    }
    return first;
  }

  /** admin.alias: endpoint and aliases are paths after /ext/. */
  addAliases(endpoint: string, ...aliases: string[]): void {
    const base = extPath(endpoint);
    const urls = aliases.map(extPath);
    for (const url of urls) {
      if (this.reserved.has(url)) throw new Error(`route is either already aliased or already maps to a handle: ${url}`);
    }
    let first: Error | undefined;
    for (const url of urls) {
      this.reserved.add(url);
      const list = this.aliases.get(base);
      if (list) list.push(url);
      else this.aliases.set(base, [url]);
      for (const [suffix, handler] of this.routes.get(base) ?? []) {
        const e = this.forceAddRoute(url, suffix, handler);
        first ??= e;
      }
    }
    if (first) throw first;
  }

  /** Removes every route under a base and its aliases (a chain or VM that shut down). */
  removeBase(base: string): void {
    for (const [suffix, handler] of this.routes.get(base) ?? []) {
      if (this.table.get(base + suffix) === handler) this.table.delete(base + suffix);
    }
    this.routes.delete(base);
    for (const alias of this.aliases.get(base) ?? []) this.removeBase(alias);
  }
}

/**
 * `/ext/` + the path exactly as given (AvalancheGo's AddAliases: `fmt.Sprintf("%s/%s", baseURL,
 * endpoint)`): an alias `x/` is the route `/ext/x/`, an empty one reserves `/ext/`, and one that is
 * not a clean path (`../x`, `a//b`) reserves a URL no request reaches (requests are cleaned first).
 * Chain aliases are joined and cleaned before they get here (`joinPath('bc', alias)`).
 */
export function extPath(p: string): string {
  return '/ext/' + p;
}

/** Go's path.Join: the non-empty elements joined with `/`, then cleaned (`bc` + `../../x` → `../x`). */
export function joinPath(...elems: string[]): string {
  const joined = elems.filter((e) => e !== '').join('/');
  return joined === '' ? '' : goClean(joined);
}

/** Go's path.Clean, for absolute paths. */
export function cleanPath(p: string): string {
  return goClean('/' + p);
}

/** Go's path.Clean: `.` dropped, `..` removes the element before it (kept at the start of a relative path). */
function goClean(p: string): string {
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg !== '..') out.push(seg);
    else if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else if (!rooted) out.push('..');
  }
  const body = out.join('/');
  return rooted ? '/' + body : body || '.';
}
