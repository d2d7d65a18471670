// Giving a request back to node:http in a form its parser (llhttp) serves as a plain request, and
// putting back, on the request it then parses, what was changed. Three kinds of request need it,
// each served by Go's net/http like any other:
// - an Upgrade request the route does not take (a WebSocket handshake refused, `Upgrade: h2c`):
//   node:http has detached its parser, so the request goes back without the Upgrade header;
// - a CONNECT request: node:http hands it over as a tunnel, where Go routes it (authority-form
//   `CONNECT host:port` has the empty path, which gorilla/mux redirects to `//host:port/`);
// - a method llhttp does not know (`FOO`, a lower-case `post`; unknownMethods.ts finds it).
// The bytes carry a stand-in method and target node:http parses as usual; the front door (http.ts)
// calls `takeReparsed` first thing for each request and sees the request as sent.
import http, { type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/** What was changed in the bytes of the next request node:http parses on a connection. */
export interface Reparsed {
  /** The method as sent. */
  method: string;
  /** CONNECT's authority-form target (`host:port`), sent as `/`. */
  authority?: string;
  /** The Upgrade header lines taken out. */
  upgrade?: string[];
}

const pending = new WeakMap<Duplex, Reparsed>();

/**
 * Methods llhttp parses as HTTP/1.x requests, less CONNECT (a tunnel to node:http). Made on first
 * use: node:http is not in the start-up snapshot (scripts/snapshot.cjs), so nothing may read it
 * while the bundle's modules are first run.
 */
let parsedAsSentSet: Set<string> | undefined;
/** A method llhttp knows that node:http gives no meaning of its own (HEAD and CONNECT it does). */
export const STAND_IN_METHOD = 'PROPFIND';

/** Whether llhttp parses a request with this method as a plain request. */
export const parsedAsSent = (method: string): boolean => (parsedAsSentSet ??= new Set(http.METHODS.filter((m) => m !== 'CONNECT'))).has(method);

/**
 * Puts back on a request what was changed in its bytes (its method, CONNECT's target, the Upgrade
 * header), once: the first request node:http parses after `handBack` is the one handed back.
 */
export function takeReparsed(req: IncomingMessage): Reparsed | undefined {
  const r = pending.get(req.socket);
  if (r === undefined) return undefined;
  pending.delete(req.socket);
  req.method = r.method;
  if (r.authority !== undefined) req.url = r.authority;
  if (r.upgrade !== undefined) {
    req.headers.upgrade = r.upgrade.join(', ');
    for (const v of r.upgrade) req.rawHeaders.push('Upgrade', v);
  }
  return r;
}

/** Remembers, for the next request parsed on `socket`, what its bytes do not say. */
export function expectReparsed(socket: Duplex, r: Reparsed): void {
  pending.set(socket, r);
}

/**
 * The head of a request node:http has parsed, as node:http parses it as a plain request: the
 * method llhttp does not take replaced by the stand-in, an authority-form target by `/`, and
 * (with `dropUpgrade`) the Upgrade header left out. What was changed is remembered on `socket`.
 */
export function plainRequestHead(req: IncomingMessage, socket: Duplex, dropUpgrade: boolean, authority?: string): Buffer {
  const method = req.method ?? 'GET';
  const upgrade: string[] = [];
  const target = authority !== undefined ? '/' : req.url;
  let head = `${parsedAsSent(method) ? method : STAND_IN_METHOD} ${target} HTTP/${req.httpVersion}\r\n`;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (dropUpgrade && raw[i].length === 7 && raw[i].toLowerCase() === 'upgrade') upgrade.push(raw[i + 1]);
    else head += `${raw[i]}: ${raw[i + 1]}\r\n`;
  }
  expectReparsed(socket, { method, authority, upgrade: upgrade.length ? upgrade : undefined });
  return Buffer.from(head + '\r\n', 'latin1');
}
