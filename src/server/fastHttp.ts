// The fast HTTP/1.1 path: the requests nearly every client sends — a keep-alive POST with a
// Content-Length body, no Origin, to a route that answers from the body alone (`post` in
// router.ts: the chains' JSON-RPC, the node's own gorilla services) — are parsed and answered
// straight on the socket. node:http costs ~30–40 µs of CPU per request more (its
// IncomingMessage/ServerResponse streams and their events), which on a local node is most of a
// cheap call's time (docs/performance.md, "HTTP fast path").
//
// Answers are written at the end of the event loop's I/O phase (the outbox below), after every
// request that arrived in it has been answered, not each as soon as it is ready: a write is a
// system call whose kernel path runs cold after a request's JavaScript (an eth_call's ~100 µs of
// it), ~25–35 µs against ~7 µs when writes follow one another. With many connections the
// writes of one turn then run warm (new-holder eth_calls over 32 connections ~28 % more per
// second, docs/performance.md session 37); one connection's pipelined answers go out in one write.
// For the same reason a turn's requests from a second connection on wait for its check phase
// (the inbox): the turn's reads, then its calls, then its writes each follow one another (another
// ~17 %); the first connection of a turn is answered at once, so a lone client waits for nothing.
//
// A `Connection: close` request is answered here too, as node:http answers it (`Connection: close`,
// then the connection ends). Bytes pipelined after it are never read, as Go's server leaves them
// (llhttp would refuse them, and the request before them, with a 400).
// Anything else — another method, chunked or Expect bodies, upgrades, Origin (CORS), HTTP/1.0,
// another Connection value, a path to clean or decode, a route without `post`, a header llhttp might
// judge differently, a body over the route's limit — hands the connection, with every byte not
// yet answered put back, to node:http for the rest of its life. So the fast path only ever
// answers requests whose answer node:http would give byte for byte (the handlers build both from
// one Reply; header order and Date as node:http writes them; Connection on both paths as Go's
// net/http writes it: none on a kept-alive HTTP/1.1 answer, `close` on the last), and node:http
// stays the judge of everything unusual, malformed input included. A connection that opens with
// HTTP/2's preface goes to the HTTP/2 sessions instead (h2c.ts).
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { busyPoll } from './busyPoll.js';
import { validHostHeader } from './goRequestErrors.js';
import { http2Preface } from './h2c.js';
import type { PostAnswer, Reply, Router } from './router.js';

export interface FastHttpOptions {
  router: Router;
  /** The node's own headers (node-id, Vary) as wire lines, each ending in CRLF. */
  nodeHeaderLines: string;
  /** The Host filter (undefined: no Host header). */
  hostAllowed(host: string | undefined): boolean;
  timeouts: HttpTimeouts;
  /** Gives the socket to node:http (its own connection listener). */
  handOff(socket: Socket): void;
  /** Gives the socket, which opened with HTTP/2's preface, to the HTTP/2 sessions (h2c.ts). */
  handOffH2(socket: Socket): void;
  /** A handler that threw or rejected (the answer is a plain 500, as on the node:http path). */
  onHandlerError(err: unknown, url: string): void;
  /** The server is shutting down: each answer says `Connection: close` and ends its connection. */
  draining(): boolean;
}

/** What the server's shutdown needs of a fast-path connection. */
export interface FastConnectionHandle {
  /**
   * Closes the connection if Go's http.Server.Shutdown would: idle between requests, or new with no
   * request for 5 s. False while a request is being received or answered, or once node:http has it.
   */
  closeIfIdle(): boolean;
}

/** Go's Shutdown waits this long for a new connection's first request before treating it as idle. */
const NEW_CONN_GRACE_MS = 5000;

/**
 * AvalancheGo's http-idle-timeout, http-read-timeout, http-read-header-timeout and
 * http-write-timeout, with Go's http.Server meaning (0 = none): an idle keep-alive connection
 * closes after `idleMs` (`readMs` when 0); a request must arrive whole within `readMs` of its first
 * byte, its head within `readHeaderMs` (`readMs` when 0), else the connection closes unanswered;
 * an answer ready later than `writeMs` after its request was read is not written, the connection
 * closes instead (Go's write deadline).
 */
export interface HttpTimeouts {
  idleMs: number;
  readMs: number;
  readHeaderMs: number;
  writeMs: number;
}

export const idleTimeout = (t: HttpTimeouts): number => t.idleMs || t.readMs;
export const headerTimeout = (t: HttpTimeouts): number => t.readHeaderMs || t.readMs;

/** node:http's maxHeaderSize: a longer head is node:http's to refuse (431). */
const MAX_HEAD = 16 * 1024;
/** Request line and header lines as llhttp surely accepts them; anything else is node:http's call. */
const HEAD_RE = /^POST \/[!-~]* HTTP\/1\.1\r\n(?:[!#$%&'*+\-.^_`|~0-9A-Za-z]+:[\t\x20-\x7e\x80-\xff]*\r\n)*$/;
const INTERNAL_ERROR: Reply = {
  status: 500,
  headers: ['Content-Type', 'text/plain; charset=utf-8', 'X-Content-Type-Options', 'nosniff', 'Content-Length', '22'],
  body: 'internal server error\n',
};

/** The last Host found well-formed: a client sends the same one with every request. */
let lastWellFormedHost: string | undefined;

/** httpguts.ValidHostHeader, remembered for the last Host seen. */
function wellFormedHost(host: string): boolean {
  if (host === lastWellFormedHost) return true;
  if (!validHostHeader(host)) return false;
  lastWellFormedHost = host;
  return true;
}

/** A parsed request the fast path answers. */
interface FastRequest {
  url: string;
  path: string;
  post: PostAnswer;
  bodyStart: number;
  bodyLength: number;
  /** The client sent `Connection: close`: this answer is the connection's last. */
  close: boolean;
  /** performance.now() after which the answer is not written (0: no write timeout). */
  writeDeadline: number;
}

/**
 * Requests answered here, connections given to node:http, and times a connection's requests waited
 * for the check phase (the inbox), since start (for tests).
 */
export const fastHttpStats = { answered: 0, handedOff: 0, waited: 0 };

/**
 * Connections with answers not yet written. The flush is an immediate, which runs in the check
 * phase right after the poll phase whose socket callbacks (and the microtasks after each) answered
 * the requests, so the answers wait for the other requests of the same turn. It is queued when a
 * request starts to be answered, so it runs before any immediate the handler queues (the automine's
 * block, miner.ts): an answer does not wait for work that came after it.
 */
const outbox: FastConnection[] = [];
let outboxScheduled = false;

function scheduleOutbox(): void {
  if (outboxScheduled) return;
  outboxScheduled = true;
  setImmediate(flushOutbox);
}

/**
 * Connections whose bytes arrived after another connection's in the same poll phase: they are
 * answered in the check phase, after the outbox's flush, so that a busy turn reads all its
 * sockets, then answers their requests, then (in the next turn's check phase) writes the answers,
 * each back to back. The first connection of a turn is answered at once, so a lone client's
 * requests cost nothing more.
 */
const inbox: FastConnection[] = [];
let turnBegun = false;
let inboxScheduled = false;

function answerInbox(): void {
  inboxScheduled = false;
  turnBegun = false;
  for (let i = 0; i < inbox.length; i++) inbox[i]!.answerWaiting();
  inbox.length = 0;
}

function flushOutbox(): void {
  turnBegun = false;
  outboxScheduled = false;
  // (Writing calls nothing back synchronously: a socket reports errors and drains later.)
  for (let i = 0; i < outbox.length; i++) outbox[i]!.flushOut();
  outbox.length = 0;
}

/** Serves one accepted socket until it closes or is handed to node:http. */
export function serveFast(socket: Socket, opts: FastHttpOptions): FastConnectionHandle {
  return new FastConnection(socket, opts);
}

class FastConnection implements FastConnectionHandle {
  /** Received bytes not yet answered (the head of the next request first). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Total bytes the request being received needs (head + body), once its head is parsed. */
  private need = 0;
  private request: FastRequest | undefined;
  /** An answer is being computed or the socket's write buffer is full: parse nothing more yet
   *  (`resume` clears it). */
  private busy = false;
  private ended = false;
  /** The last answer said `Connection: close` (shutdown): nothing more is read. */
  private closing = false;
  private handedOff = false;
  /** Answers waiting in the outbox, in order; written by flushOut. */
  private out = '';
  /** In the inbox: its requests are answered in this turn's check phase. */
  private inInbox = false;
  /** performance.now() at accept until the first request arrives (0 after). */
  private newSince = performance.now();
  /** performance.now() when the request being received was first seen incomplete (0: none is). */
  private partialSince = 0;
  private deadline: NodeJS.Timeout | undefined;
  private readonly onDeadline = () => this.socket.destroy();
  private readonly onClose = () => clearTimeout(this.deadline);
  private readonly onData = (d: Buffer) => this.received(d);
  private readonly onEnd = () => {
    this.ended = true;
    if (!this.busy) {
      this.flushOut();
      this.socket.end();
    }
  };
  /** Inactivity: closes an idle connection (a partial request has its own deadline). */
  private readonly onTimeout = () => {
    if (!this.busy && this.partialSince === 0 && this.out === '') this.socket.destroy();
  };
  private readonly onError = () => this.socket.destroy();

  constructor(
    private readonly socket: Socket,
    private readonly opts: FastHttpOptions,
  ) {
    socket.on('data', this.onData);
    readAhead(socket, false);
    socket.on('end', this.onEnd);
    socket.on('error', this.onError);
    socket.on('timeout', this.onTimeout);
    socket.on('close', this.onClose);
    const idle = idleTimeout(opts.timeouts);
    if (idle > 0) socket.setTimeout(idle);
  }

  closeIfIdle(): boolean {
    if (this.handedOff || this.busy || this.pendingBytes > 0 || this.out !== '') return false;
    if (this.newSince !== 0 && performance.now() - this.newSince < NEW_CONN_GRACE_MS) return false;
    this.socket.destroy();
    return true;
  }

  private received(d: Buffer): void {
    this.newSince = 0;
    busyPoll.arrived();
    this.pending.push(d);
    this.pendingBytes += d.length;
    if (this.busy) return;
    if (!turnBegun) {
      turnBegun = true; // until this turn's check phase (the outbox's flush or the inbox)
      this.pump();
    } else if (!this.inInbox) {
      this.inInbox = true;
      fastHttpStats.waited++;
      inbox.push(this);
      if (!inboxScheduled) {
        inboxScheduled = true;
        setImmediate(answerInbox);
      }
    }
  }

  /** The inbox's turn: answers what arrived (nothing if the connection was answered or closed meanwhile). */
  answerWaiting(): void {
    this.inInbox = false;
    if (!this.busy && !this.handedOff && !this.socket.destroyed) this.pump();
  }

  /** Answers every complete request received, in order, until one is pending or needs node:http. */
  private pump(): void {
    while (this.pendingBytes > 0 && !this.busy && !this.closing) {
      if (this.request === undefined) {
        const buf = this.joined();
        // `PR…`: perhaps HTTP/2 with prior knowledge, whose preface looks like a request head.
        if (buf[0] === 0x50 && buf[1] !== 0x4f) {
          const h2 = http2Preface(buf);
          if (h2 === 'maybe') return this.waitFor(headerTimeout(this.opts.timeouts));
          if (h2 === 'yes') return this.handOff(this.opts.handOffH2);
        }
        const headEnd = buf.indexOf('\r\n\r\n');
        if (headEnd < 0) {
          if (buf.length > MAX_HEAD) return this.handOff();
          return this.waitFor(headerTimeout(this.opts.timeouts)); // the head is not complete yet
        }
        const req = headEnd + 4 <= MAX_HEAD ? this.parse(buf, headEnd) : undefined;
        if (req === undefined) return this.handOff();
        this.request = req;
        this.need = req.bodyStart + req.bodyLength;
      }
      if (this.pendingBytes < this.need) return this.waitFor(this.opts.timeouts.readMs); // the body is not complete yet
      if (this.partialSince !== 0) {
        this.partialSince = 0;
        clearTimeout(this.deadline);
      }
      const buf = this.joined();
      const req = this.request;
      this.request = undefined;
      const body = buf.subarray(req.bodyStart, this.need);
      const rest = buf.subarray(this.need);
      this.pending = rest.length ? [rest] : [];
      this.pendingBytes = rest.length;
      this.answer(req, body);
    }
  }

  /** A request is incomplete: it must be whole within `limitMs` of when it was first seen so. */
  private waitFor(limitMs: number): void {
    const now = performance.now();
    if (this.partialSince === 0) this.partialSince = now;
    clearTimeout(this.deadline);
    if (limitMs > 0) this.deadline = setTimeout(this.onDeadline, Math.max(0, this.partialSince + limitMs - now));
  }

  /** The pending bytes as one buffer (kept joined, so a body in many packets is copied once). */
  private joined(): Buffer {
    if (this.pending.length > 1) this.pending = [Buffer.concat(this.pending, this.pendingBytes)];
    return this.pending[0]!;
  }

  /** The request whose head ends at `headEnd`, if the fast path answers it. */
  private parse(buf: Buffer, headEnd: number): FastRequest | undefined {
    const head = buf.toString('latin1', 0, headEnd + 2);
    if (!HEAD_RE.test(head)) return undefined;
    const lineEnd = head.indexOf('\r\n');
    const url = head.slice(5, lineEnd - 9);
    let host: string | undefined;
    let contentType: string | undefined;
    let contentLength: string | undefined;
    let close = false;
    for (let at = lineEnd + 2; at < head.length; ) {
      const end = head.indexOf('\r\n', at);
      const colon = head.indexOf(':', at);
      const nameLength = colon - at;
      // Only these names change what the fast path does; every other header is passed over.
      if (nameLength === 4 || nameLength === 6 || nameLength === 7 || nameLength === 10 || nameLength === 12 || nameLength === 14 || nameLength === 17 || nameLength === 19) {
        const name = head.slice(at, colon).toLowerCase();
        const value = head.slice(colon + 1, end).trim();
        switch (name) {
          case 'host':
            if (host !== undefined) return undefined;
            host = value;
            break;
          case 'content-type':
            if (contentType !== undefined) return undefined;
            contentType = value;
            break;
          case 'content-length':
            if (contentLength !== undefined || !/^\d{1,15}$/.test(value)) return undefined;
            contentLength = value;
            break;
          case 'connection': {
            // keep-alive is the default; close ends the connection after the answer; a second
            // Connection line, upgrade or any other value is node:http's.
            const v = value.toLowerCase();
            if (v === 'close' && !close) close = true;
            else if (v !== 'keep-alive') return undefined;
            break;
          }
          case 'origin': // CORS
          case 'avalanche-api-route': // header routing (http.ts)
          case 'expect':
          case 'upgrade':
          case 'transfer-encoding':
            return undefined;
        }
      }
      at = end + 2;
    }
    // The path as gorilla/mux matches it: only one that needs no decoding and is already clean.
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (path.includes('%') || path.includes('//') || path.includes('/.')) return undefined;
    // Go refuses a request without a Host, or with a malformed one, before any handler: node:http's
    // path answers it (goRequestErrors.ts).
    if (host === undefined || !wellFormedHost(host) || !this.opts.hostAllowed(host)) return undefined;
    const post = this.opts.router.lookup(path)?.post;
    if (post === undefined || !post.accepts(contentType)) return undefined;
    const bodyLength = contentLength === undefined ? 0 : Number(contentLength);
    if (bodyLength > post.bodyLimit) return undefined;
    const writeMs = this.opts.timeouts.writeMs;
    return { url, path, post, bodyStart: headEnd + 4, bodyLength, close, writeDeadline: writeMs > 0 ? performance.now() + writeMs : 0 };
  }

  private answer(req: FastRequest, body: Buffer): void {
    fastHttpStats.answered++;
    scheduleOutbox();
    const calls = this.opts.router.calls.entry(req.path);
    const start = calls.begin();
    let r: Reply | Promise<Reply>;
    try {
      r = req.post.answer(body, req.url);
    } catch (e) {
      this.opts.onHandlerError(e, req.url);
      r = INTERNAL_ERROR;
    }
    if (!(r instanceof Promise)) {
      this.write(r, req.writeDeadline, req.close);
      calls.finish(start);
      // A full write buffer: read no more requests until it drains (resume waits for 'drain').
      if (this.socket.writableNeedDrain) {
        this.busy = true;
        this.resume();
      }
      return;
    }
    this.busy = true;
    r.then(
      (reply) => this.write(reply, req.writeDeadline, req.close),
      (e) => {
        this.opts.onHandlerError(e, req.url);
        this.write(INTERNAL_ERROR, req.writeDeadline, req.close);
      },
    ).finally(() => {
      calls.finish(start);
      this.resume();
    });
  }

  /** Continues after an answer: more requests, or the end the client asked for. */
  private resume(): void {
    if (this.socket.destroyed) return;
    if (this.socket.writableNeedDrain) {
      this.socket.once('drain', () => this.resume());
      return;
    }
    this.busy = false;
    if (this.closing) return;
    this.pump();
    // The client has sent its last byte (a FIN): once every request it sent before it is
    // answered, the connection ends, as Go's server answers what it has read before the EOF.
    if (this.ended && !this.busy && !this.closing && !this.handedOff) {
      this.flushOut();
      this.socket.end();
    }
  }

  private write(r: Reply, writeDeadline: number, close: boolean): void {
    if (this.socket.destroyed) return;
    if (writeDeadline !== 0 && performance.now() > writeDeadline) {
      this.socket.destroy(); // past Go's write deadline: the client sees the connection close
      return;
    }
    let head = `HTTP/1.1 ${r.status} ${STATUS_CODES[r.status] ?? 'unknown'}\r\n${this.opts.nodeHeaderLines}`;
    const h = r.headers;
    for (let i = 0; i < h.length; i += 2) head += `${h[i]}: ${h[i + 1]}\r\n`;
    if (close || this.opts.draining()) {
      // The last answer on this connection: the client asked for it, or the server is shutting
      // down (as Go's server in Shutdown, and node:http with shouldKeepAlive off).
      this.closing = true;
      // Answers still in the outbox go first, in the same write.
      const last = this.out + head + dateAndConnection(true) + r.body;
      this.out = '';
      // node:http ends such a connection with destroySoon: a FIN, then the socket closed once written.
      if (close) this.socket.end(last, () => this.socket.destroy());
      else this.socket.end(last);
      return;
    }
    if (this.out === '') {
      outbox.push(this);
      scheduleOutbox(); // an answer that took longer than its turn (queued at once otherwise)
    }
    this.out += head + dateAndConnection(false) + r.body;
    // Pipelined answers past the socket's buffer size are written at once, so that `answer` sees
    // the socket's backpressure (writableNeedDrain) and stops reading, as it did before the outbox.
    if (this.out.length >= this.socket.writableHighWaterMark) this.flushOut();
    busyPoll.answered();
  }

  /** Writes the answers waiting in the outbox (nothing once the socket is destroyed). */
  flushOut(): void {
    const text = this.out;
    if (text === '') return;
    this.out = '';
    if (!this.socket.destroyed) this.socket.write(text);
  }

  /** Gives the connection, with the bytes not yet answered, to node:http (or `to`). */
  private handOff(to: (s: Socket) => void = this.opts.handOff): void {
    const s = this.socket;
    // Answers given so far are written before node:http's own, in order.
    this.flushOut();
    this.handedOff = true;
    fastHttpStats.handedOff++;
    s.removeListener('data', this.onData);
    s.removeListener('end', this.onEnd);
    s.removeListener('error', this.onError);
    s.removeListener('timeout', this.onTimeout);
    s.removeListener('close', this.onClose);
    s.setTimeout(0);
    clearTimeout(this.deadline);
    readAhead(s, true);
    const rest = this.pendingBytes ? this.joined() : undefined;
    this.pending = [];
    this.pendingBytes = 0;
    // Still flowing with no 'data' listener: the bytes wait in the stream's buffer until
    // node:http's listener resumes it (on the next tick, before any new read is delivered).
    if (rest) s.unshift(rest);
    to(s);
  }
}

/**
 * Whether a socket's stream reads ahead after each chunk it delivers. Node's Readable schedules a
 * tick after every chunk (maybeReadMore) to read more into a stream whose consumer is slower, and
 * does not when `readingMore` says such a read is already on its way. A socket on the fast path
 * flows, and its handle reads by itself whenever bytes arrive: the tick read nothing, and it cost
 * a tick of every request — the tick queue's run, and with it Node's promise-rejection pass, which
 * makes a Map each time (docs/performance.md, session 41). So the flag is set while the fast path
 * owns the socket, and put back when it hands the socket to node:http or HTTP/2. (In Node.js 20
 * `readingMore` is read nowhere else; where the stream has no such field, setting it does nothing.)
 */
function readAhead(socket: Socket, on: boolean): void {
  const state = (socket as unknown as { _readableState?: { readingMore?: boolean } })._readableState;
  if (state !== undefined) state.readingMore = !on;
}

let dateSecond = -1;
let dateLines = '';
let closeLines = '';

/**
 * The Date line (node:http's format, computed once a second) and the blank line; `close`: with
 * `Connection: close` between them. A kept-alive HTTP/1.1 answer names no Connection (nor
 * Keep-Alive), as Go's net/http writes it; node:http's path leaves them out too (http.ts).
 */
function dateAndConnection(close: boolean): string {
  const sec = Math.floor(Date.now() / 1000);
  if (sec !== dateSecond) {
    dateSecond = sec;
    const date = `Date: ${new Date(sec * 1000).toUTCString()}\r\n`;
    dateLines = `${date}\r\n`;
    closeLines = `${date}Connection: close\r\n\r\n`;
  }
  return close ? closeLines : dateLines;
}
