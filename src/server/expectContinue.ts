// `Expect` as Go's net/http server handles it (server.go, conn.serve and expectContinueReader):
// - `Expect: 100-continue` (HTTP/1.1, a body announced): `100 Continue` is sent when the handler
//   first reads the body, not before. A handler that answers without reading it (a 405, a 415, a
//   404) sends no 100, and the connection closes after its answer (the client's body never came;
//   node:http closes it too when no 100 was sent);
// - any other Expect value: `417 Expectation Failed`, Connection: close, before any handler.
// node:http, left alone, sends `100 Continue` at once for every such request.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Sends `100 Continue` on `res` when a handler starts reading `req`'s body ('data' or 'readable'). */
export function continueOnBodyRead(req: IncomingMessage, res: ServerResponse): void {
  // Go wraps the body only when one is announced (ContentLength != 0; chunked counts); without
  // that, node:http must not close the connection for the 100 it did not send.
  if (req.headers['content-length'] === '0') {
    (res as { _expect_continue?: boolean })._expect_continue = false;
    return;
  }
  // A handler reads the body by listening for it ('data', or 'readable' under `for await`); the
  // body may already be buffered (pipelined after its head), so the hook is the listener, not
  // _read, which a buffered body never calls. A handler that drops the body (req.resume() with no
  // listener) is not reading it.
  const onListener = (event: string | symbol) => {
    if (event !== 'data' && event !== 'readable') return;
    req.off('newListener', onListener);
    if (!res.headersSent) res.writeContinue();
  };
  req.on('newListener', onListener);
}

/** Go's answer to an Expect other than 100-continue: 417, and the connection closes. */
export function expectationFailed(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  res.shouldKeepAlive = false;
  res.writeHead(417, { 'Content-Length': 0 });
  res.end();
}
