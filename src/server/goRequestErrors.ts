// What Go's net/http server answers to a request it refuses while reading it, before any handler
// runs (net/http server.go, conn.serve and readRequest; transfer.go for Transfer-Encoding). Each
// answer is written straight to the connection, which then closes. node:http's parser (llhttp)
// finds the syntax errors and oversized heads; the checks Go makes on a parsed request are here.
import type { IncomingMessage } from 'node:http';

const ERROR_HEADERS = '\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n';

/** A request Go could not read (a malformed request line, header line or target): `400 Bad Request`. */
export const BAD_REQUEST = `HTTP/1.1 400 Bad Request${ERROR_HEADERS}400 Bad Request`;

/** A head longer than Go's limit (http.DefaultMaxHeaderBytes, plus the 4 KiB its reader allows). */
export const HEADERS_TOO_LARGE = `HTTP/1.1 431 Request Header Fields Too Large${ERROR_HEADERS}431 Request Header Fields Too Large`;

/** Go's limit on a request's head: DefaultMaxHeaderBytes (1 MiB) + 4096 (initialReadLimitSize). */
export const MAX_HEADER_BYTES = (1 << 20) + 4096;

/** Go's statusError answer: the reason in the status line and in the body. */
function statusError(status: string, text: string): string {
  return `HTTP/1.1 ${status}: ${text}${ERROR_HEADERS}${status}: ${text}`;
}

/** httpguts.ValidHostHeader's bytes: RFC 3986's host characters, `%` escapes and the port's `:`. */
const VALID_HOST = /^[0-9A-Za-z!$%&'()*+,\-.:;=[\]_~]*$/;

/** httpguts.ValidHostHeader. */
export const validHostHeader = (host: string): boolean => VALID_HOST.test(host);

const UNSUPPORTED_TE = `HTTP/1.1 501 Not Implemented${ERROR_HEADERS}Unsupported transfer encoding`;

/** transfer.go parseTransferEncoding (HTTP/1.1 only): one Transfer-Encoding field, and it is "chunked". */
const teRefused = (fields: string[]) => fields.length > 0 && (fields.length !== 1 || fields[0].toLowerCase() !== 'chunked');

/** Go's answer to a request node:http parsed but Go's server refuses, or undefined if Go reads it. */
export function goRequestError(req: IncomingMessage): string | undefined {
  // node:http keeps only the first Host and joins other repeated headers: one pass over the raw ones.
  const te: string[] = [];
  const hosts: string[] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length === 4 && name.toLowerCase() === 'host') hosts.push(raw[i + 1]);
    else if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') te.push(raw[i + 1]);
  }
  if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && teRefused(te)) return UNSUPPORTED_TE;
  // http1ServerSupportsRequest: HTTP/1.x only (HTTP/2 with prior knowledge never gets here: h2c.ts).
  if (req.httpVersionMajor !== 1) return statusError('505 HTTP Version Not Supported', 'unsupported protocol version');
  if (req.httpVersionMinor >= 1 && hosts.length === 0 && req.method !== 'CONNECT') return statusError('400 Bad Request', 'missing required Host header');
  if (hosts.length > 1) return statusError('400 Bad Request', 'too many Host headers');
  if (hosts.length === 1 && !validHostHeader(hosts[0])) return statusError('400 Bad Request', 'malformed Host header');
  return undefined;
}

/**
 * Go's answer to a request node:http's parser refused (its clientError): 431 for a head over the
 * limit; 501 for a Transfer-Encoding Go does not take (llhttp refuses some of those itself, e.g.
 * beside a Content-Length, where Go's transfer check comes first); else `400 Bad Request`.
 */
export function goParseError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): string {
  if (err.code === 'HPE_HEADER_OVERFLOW') return HEADERS_TOO_LARGE;
  const raw = err.rawPacket?.toString('latin1') ?? '';
  const head = raw.slice(0, (raw.indexOf('\r\n\r\n') + 1 || raw.length + 1) - 1);
  const lines = head.split('\r\n');
  if (/ HTTP\/1\.[1-9]$/.test(lines[0])) {
    const te = lines.slice(1).filter((l) => /^transfer-encoding:/i.test(l)).map((l) => l.slice(l.indexOf(':') + 1).trim());
    if (teRefused(te)) return UNSUPPORTED_TE;
  }
  return BAD_REQUEST;
}
