// A method node:http's parser (llhttp) does not know — `FOO`, a lower-case `post`, `DESCRIBE` —
// makes it refuse the request (its clientError) where Go's net/http takes any token as a method and
// hands the request to the route (a JSON-RPC route then answers `405 rpc: POST method required,
// received post`). So on that parse error the connection is taken back from node:http and given to
// it again from the refused request on, its method replaced by a stand-in it parses
// (reparse.ts), which the front door swaps back. Requests node:http had already read on the
// connection are answered first, in order, as Go answers them.
//
// This reaches into node:http's connection (its parser on `socket.parser`, the response it is
// writing on `socket._httpMessage`), which node:http itself does for upgrades; tested on Node 20.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { STAND_IN_METHOD } from './reparse.js';

/** The parts of node:http's parser and connection that taking a connection back needs. */
interface NodeHttpParser {
  _consumed?: boolean;
  socket: unknown;
  unconsume(): void;
  /** Leaves the server's list of connections whose request deadlines it checks. */
  remove?(): void;
  /** Frees the native parser (node:http's closeParserInstance). */
  close?(): void;
}
type NodeHttpSocket = Socket & { parser?: NodeHttpParser | null; _httpMessage?: ServerResponse | null };

/** What llhttp reports with a parse error (node:http's prepareError). */
export interface ParseError {
  code?: string;
  reason?: string;
  bytesParsed?: number;
  rawPacket?: Buffer;
}

/** RFC 9110 tchar: the bytes of a method (Go's validMethod). */
const TCHAR = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") TCHAR[c.charCodeAt(0)] = 1;

/**
 * The request llhttp refused for its method alone, as bytes node:http parses (the method swapped
 * for the stand-in) and the method as sent; undefined for any other parse error.
 * llhttp stops inside an unknown method (HPE_INVALID_METHOD), or — for a method it knows from
 * RTSP (`DESCRIBE`) — at the HTTP version after it. A method must be a token followed by a space;
 * what follows it llhttp judges again. (`PRI / HTTP/1.1` stays refused: node:http closes any
 * connection whose request has the method PRI, so it cannot be served as sent.)
 */
export function unknownMethodRequest(err: ParseError): { method: string; bytes: Buffer } | undefined {
  const packet = err.rawPacket;
  const at = err.bytesParsed;
  if (!Buffer.isBuffer(packet) || typeof at !== 'number' || at < 0 || at > packet.length) return undefined;
  let start: number;
  let end: number;
  if (err.code === 'HPE_INVALID_METHOD') {
    // The method runs through the byte llhttp stopped at.
    for (end = at; end < packet.length && TCHAR[packet[end]]; end++);
    for (start = at; start > 0 && TCHAR[packet[start - 1]]; start--);
  } else if (err.code === 'HPE_INVALID_CONSTANT' && err.reason === 'Invalid method for HTTP/x.x request') {
    // The request line llhttp stopped on.
    start = at > 0 ? packet.lastIndexOf(0x0a, at - 1) + 1 : 0;
    for (end = start; end < packet.length && TCHAR[packet[end]]; end++);
  } else {
    return undefined;
  }
  if (end === start || packet[end] !== 0x20) return undefined;
  return {
    method: packet.toString('latin1', start, end),
    bytes: Buffer.concat([Buffer.from(STAND_IN_METHOD, 'latin1'), packet.subarray(end)]),
  };
}

/**
 * Takes `socket` back from node:http after a parse error and calls `then` once node:http has
 * finished the answers to the requests it read before it (at once if none is pending), with its
 * parser and listeners gone (`keep` stays: the server's own 'close' listener). Not called if the
 * connection closes first.
 */
export function takeBackFromNodeHttp(socket: Socket, keep: (...args: never[]) => void, then: () => void): boolean {
  const s = socket as NodeHttpSocket;
  const parser = s.parser;
  if (!parser) return false;
  // The parser is in error: it must read nothing more. Bytes that arrive wait in the socket.
  if (parser._consumed) {
    parser.unconsume();
    parser._consumed = false;
  }
  for (const ev of ['data', 'end', 'pause', 'resume']) s.removeAllListeners(ev);
  s.pause();
  whenAnswered(s, () => {
    if (s.destroyed) return;
    for (const ev of ['timeout', 'error', 'close', 'drain']) {
      for (const l of s.rawListeners(ev)) if (l !== keep) s.removeListener(ev, l as (...args: unknown[]) => void);
    }
    s.parser = null;
    parser.socket = null;
    parser.remove?.();
    setImmediate(() => parser.close?.());
    s.setTimeout(0);
    then();
  });
  return true;
}

/** Calls `then` when no answer of node:http's is being written on the socket (answers go out in order). */
function whenAnswered(s: NodeHttpSocket, then: () => void): void {
  const res = s._httpMessage;
  if (!res) return then();
  let done = false;
  const next = () => {
    if (done) return;
    done = true;
    // node:http's own 'finish' listener has moved the next queued answer onto the socket by now.
    setImmediate(() => (s.destroyed ? undefined : whenAnswered(s, then)));
  };
  res.once('finish', next);
  res.once('close', next);
}
