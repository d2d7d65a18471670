// The WebSocket handshake as a chain's /ws endpoint judges it: gorilla/websocket's Upgrader, as
// Subnet-EVM's rpc package configures it (origins `*`, no subprotocols, no compression). Its checks
// run in this order, and a refusal is `http.Error(w, StatusText(status), status)` with
// `Sec-Websocket-Version: 13`, written through the node's front door (node-id, Vary, CORS headers)
// on a connection that stays open. The `ws` package, which does the handshake once these checks
// pass, refuses with its own texts and closes, and accepts what gorilla does not (version 8, a
// subprotocol it picks for the client): the checks here come first, so its own never decide.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Every value of a header (node:http joins some repeated headers; gorilla reads each line). */
function headerValues(req: IncomingMessage, name: string): string[] {
  const out: string[] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === name.length && raw[i].toLowerCase() === name) out.push(raw[i + 1]);
  return out;
}

const TOKEN_AT_START = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]*/;
const SPACE_AT_START = /^[ \t]*/;

/** gorilla's tokenListContainsValue: a comma-separated token list in any of the values holds `value` (ASCII case-folded). */
export function tokenListContains(values: string[], value: string): boolean {
  for (const v of values) {
    let s = v;
    for (;;) {
      s = s.slice(SPACE_AT_START.exec(s)![0].length);
      const t = TOKEN_AT_START.exec(s)![0];
      if (t === '') break;
      s = s.slice(t.length);
      s = s.slice(SPACE_AT_START.exec(s)![0].length);
      if (s !== '' && s[0] !== ',') break;
      if (t.toLowerCase() === value) return true;
      if (s === '') break;
      s = s.slice(1);
    }
  }
  return false;
}

/** isValidChallengeKey: standard base64 of 16 bytes. */
const CHALLENGE_KEY = /^[A-Za-z0-9+/]{22}==$/;

/** The status gorilla's Upgrader refuses this handshake with, or undefined if it upgrades. */
export function websocketRefusal(req: IncomingMessage): 400 | 405 | undefined {
  if (!tokenListContains(headerValues(req, 'connection'), 'upgrade')) return 400;
  if (!tokenListContains(headerValues(req, 'upgrade'), 'websocket')) return 400;
  if (req.method !== 'GET') return 405;
  if (!tokenListContains(headerValues(req, 'sec-websocket-version'), '13')) return 400;
  // CheckOrigin allows every origin (Subnet-EVM passes `*`); then the key (Header.Get: the first value).
  const key = headerValues(req, 'sec-websocket-key')[0];
  if (key === undefined || !CHALLENGE_KEY.test(key)) return 400;
  return undefined;
}

/**
 * The request in the form the `ws` package upgrades exactly as gorilla would: one `websocket`
 * Upgrade, version 13, and no subprotocol or extension offers (gorilla, given no subprotocols,
 * answers none; `ws` would pick the client's first). Call after `websocketRefusal` passed.
 */
export function normalizeForWs(req: IncomingMessage): void {
  req.headers.upgrade = 'websocket';
  req.headers['sec-websocket-version'] = '13';
  req.headers['sec-websocket-key'] = headerValues(req, 'sec-websocket-key')[0];
  delete req.headers['sec-websocket-protocol'];
  delete req.headers['sec-websocket-extensions'];
}

const STATUS_TEXT = { 400: 'Bad Request', 405: 'Method Not Allowed', 500: 'Internal Server Error' } as const;

/**
 * gorilla's answer on the WebSocket endpoint to a request that is not upgraded here: its refusal,
 * or — for a handshake it would take but that cannot be taken over (HTTP/2 has no upgrade) —
 * `500`, as gorilla answers when the connection cannot be hijacked.
 */
export function refuseWebSocket(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const status = websocketRefusal(req) ?? 500;
  const body = STATUS_TEXT[status] + '\n';
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Sec-Websocket-Version': '13',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
