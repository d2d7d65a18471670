// A `ws` client for tests: collects every message, hands them out in order or by predicate.
import WebSocket from 'ws';

export interface WsTestClient {
  ws: WebSocket;
  /** Sends a value as JSON (a string is sent as is). */
  send(v: unknown): void;
  /** The next message matching `pred` (default: the oldest); the others stay queued. */
  next(pred?: (m: any) => boolean): Promise<any>;
  /** Sends a JSON-RPC request with a fresh id and returns its response. */
  request(method: string, params?: unknown[]): Promise<any>;
  /** The next eth_subscription notification of subscription `sub`. */
  notification(sub: string): Promise<any>;
  /** The close code, once the connection closes. */
  closed: Promise<number>;
  close(): void;
}

export async function wsClient(url: string): Promise<WsTestClient> {
  const ws = new WebSocket(url);
  const inbox: any[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (d) => {
    inbox.push(JSON.parse(d.toString()));
    waiters.splice(0).forEach((w) => w());
  });
  const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  const next = async (pred: (m: any) => boolean = () => true): Promise<any> => {
    for (;;) {
      const i = inbox.findIndex(pred);
      if (i >= 0) return inbox.splice(i, 1)[0];
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  const send = (v: unknown) => ws.send(typeof v === 'string' ? v : JSON.stringify(v));
  let nextID = 1;
  const request = async (method: string, params: unknown[] = []) => {
    const id = nextID++;
    send({ jsonrpc: '2.0', id, method, params });
    return next((m) => m.id === id);
  };
  const notification = (sub: string) => next((m) => m.method === 'eth_subscription' && m.params.subscription === sub);
  return { ws, send, next, request, notification, closed, close: () => ws.close() };
}
