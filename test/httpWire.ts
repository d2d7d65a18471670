// Raw-socket HTTP/1.1 for tests of the front door: exact request bytes out, whole responses (and
// WebSocket frames) parsed back off the wire.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, afterEach, before } from 'node:test';
import { startTestNode, type TestNode } from './helpers.js';

/** One HTTP response as read off the wire. */
export interface Resp {
  /** Status line, headers, blank line and body (chunk framing included), as latin1 text. */
  raw: string;
  status: number;
  /** [name, value] in wire order, names as sent. */
  headers: [string, string][];
  /** The body (de-chunked), as UTF-8 text. */
  body: string;
}

/** Parses one complete response at the start of `buf`; undefined if more bytes are needed. */
export function parseResponse(buf: Buffer, eof: boolean): { resp: Resp; size: number } | undefined {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine, ...lines] = buf.toString('latin1', 0, headEnd).split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})(?: [^\r\n]*)?$/.exec(statusLine);
  if (!m) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
  const status = Number(m[1]);
  const headers = lines.map((l): [string, string] => {
    const colon = l.indexOf(':');
    if (colon <= 0) throw new Error(`bad header line: ${JSON.stringify(l)}`);
    return [l.slice(0, colon), l.slice(colon + 1).trim()];
  });
  const get = (name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];
  let at = headEnd + 4;
  let body: Buffer;
  const te = get('transfer-encoding');
  const cl = get('content-length');
  if (status < 200 || status === 204 || status === 304) {
    body = Buffer.alloc(0);
  } else if (te !== undefined && /chunked/i.test(te)) {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = parseInt(buf.toString('latin1', at, lineEnd).split(';')[0], 16);
      if (!Number.isFinite(size)) throw new Error('bad chunk size line');
      if (size === 0) {
        // Trailers (none expected), then the blank line.
        let p = lineEnd + 2;
        for (;;) {
          const e = buf.indexOf('\r\n', p);
          if (e < 0) return undefined;
          if (e === p) {
            at = e + 2;
            break;
          }
          p = e + 2;
        }
        break;
      }
      if (buf.length < lineEnd + 2 + size + 2) return undefined;
      parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  } else if (cl !== undefined) {
    const n = Number(cl);
    if (buf.length < at + n) return undefined;
    body = buf.subarray(at, at + n);
    at += n;
  } else {
    // No framing: the body runs to the end of the connection.
    if (!eof) return undefined;
    body = buf.subarray(at);
    at = buf.length;
  }
  return { resp: { raw: buf.toString('latin1', 0, at), status, headers, body: body.toString('utf8') }, size: at };
}

/** Every connection a test opened: destroyed after each test, so a failed one leaves none behind. */
const opened = new Set<Wire>();

/** A raw TCP connection to a node that reads whole responses (and WebSocket frames). */
export class Wire {
  readonly socket: net.Socket;
  private buf = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  /** The server half-closed (FIN). */
  ended = false;
  closed = false;
  /** Date.now() at 'close'. */
  closedAt = 0;

  private constructor(port: number) {
    opened.add(this);
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.setNoDelay(true);
    this.socket.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.wake();
    });
    this.socket.on('end', () => {
      this.ended = true;
      this.wake();
    });
    this.socket.on('error', () => {});
    this.socket.on('close', () => {
      this.closed = true;
      this.closedAt = Date.now();
      this.wake();
    });
  }

  static open(port: number): Promise<Wire> {
    const w = new Wire(port);
    return new Promise((resolve, reject) => {
      w.socket.once('connect', () => resolve(w));
      w.socket.once('error', reject);
    });
  }

  private wake(): void {
    this.waiters.splice(0).forEach((f) => f());
  }

  /** Resolves on the next data/end/close, or after `ms`. */
  private event(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Bytes received and not yet consumed by `read`/`frame`. */
  get pending(): Buffer {
    return this.buf;
  }

  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(data, (e) => (e ? reject(e) : resolve())));
  }

  /** The next `n` complete responses, in order. */
  async read(n = 1, timeoutMs = 5000): Promise<Resp[]> {
    const out: Resp[] = [];
    const deadline = Date.now() + timeoutMs;
    while (out.length < n) {
      const eof = this.ended || this.closed;
      const r = this.buf.length ? parseResponse(this.buf, eof) : undefined;
      if (r) {
        out.push(r.resp);
        this.buf = this.buf.subarray(r.size);
        continue;
      }
      if (eof) throw new Error(`connection ended after ${out.length} of ${n} responses; unparsed: ${JSON.stringify(this.buf.toString('latin1'))}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out after ${out.length} of ${n} responses; unparsed: ${JSON.stringify(this.buf.toString('latin1'))}`);
      await this.event(left);
    }
    return out;
  }

  /** The next WebSocket frame's payload (unmasked server frame). */
  async frame(timeoutMs = 5000): Promise<{ opcode: number; payload: Buffer }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const b = this.buf;
      if (b.length >= 2) {
        assert.equal(b[1] & 0x80, 0, 'server frames are not masked');
        let len = b[1] & 0x7f;
        let at = 2;
        if (len === 126 && b.length >= 4) {
          len = b.readUInt16BE(2);
          at = 4;
        }
        if (len !== 126 && len !== 127 && b.length >= at + len) {
          this.buf = b.subarray(at + len);
          return { opcode: b[0] & 0x0f, payload: b.subarray(at, at + len) };
        }
      }
      if (this.closed) throw new Error('connection closed before a whole frame arrived');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for a frame');
      await this.event(left);
    }
  }

  /** Waits until the connection closes; true if it did within `ms`. */
  async waitClose(ms = 5000): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.closed) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await this.event(left);
    }
    return true;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

const IMF_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/;

/** The raw response with the Date header's value (which must be present once, well-formed) masked. */
export function maskDate(r: Resp): string {
  const dates = r.headers.filter(([n]) => n === 'Date');
  assert.equal(dates.length, 1, `one Date header in ${JSON.stringify(r.raw)}`);
  assert.match(dates[0][1], IMF_DATE);
  return r.raw.replace(/\r\nDate: [^\r\n]*\r\n/, '\r\nDate: *\r\n');
}

/** A POST with a Content-Length body; `extra` header lines go before Content-Length. */
export function post(path: string, body: string, extra = '', version = '1.1'): string {
  return `POST ${path} HTTP/${version}\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** The same POST with the body sent as `pieces` chunks. */
export function chunkedPost(path: string, body: string, pieces = 3, extra = ''): string {
  const step = Math.ceil(body.length / pieces);
  let out = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}Transfer-Encoding: chunked\r\n\r\n`;
  for (let i = 0; i < body.length; i += step) {
    const c = body.slice(i, i + step);
    out += `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`;
  }
  return out + '0\r\n\r\n';
}

/** Destroys every connection opened since the last call (an afterEach hook: a failed test leaves none behind). */
export function destroyOpened(): void {
  for (const w of opened) w.destroy();
  opened.clear();
}

/** The node a file of wire tests shares, as `started` receives it. */
export interface WireNode {
  t: TestNode;
  port: number;
  nodeID: string;
}

/**
 * Starts the node (memdb, plus `options`) before a file's tests and stops it after them; every
 * connection a test opened is destroyed after it.
 */
export function useWireNode(options: Record<string, unknown>, started: (n: WireNode) => void): void {
  let node: TestNode | undefined;
  before(async () => {
    node = await startTestNode({ 'db-type': 'memdb', ...options });
    started({ t: node, port: Number(new URL(node.url).port), nodeID: node.node.nodeID });
  });
  after(() => node?.stop());
  afterEach(destroyOpened);
}
