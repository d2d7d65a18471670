// Chain request logging: every HTTP request to a chain route writes `API request` at DEBUG on the
// chain's logger. The level check comes first so a chain at INFO pays one comparison per request.
import type { RouteHandler } from '../server/router.js';
import { Levels } from './levels.js';
import type { NamedLogger } from './logger.js';

export function withRequestLog(handler: RouteHandler, log: NamedLogger): RouteHandler {
  const wrapped: RouteHandler = {
    http(req, res) {
      // The node's entry, so the chain VM's own log level (e.g. Subnet-EVM's log-level) doesn't filter it.
      if (log.nodeEnabled(Levels.Debug)) log.nodeDebug('API request', { path: req.url, method: req.method });
      return handler.http(req, res);
    },
  };
  const post = handler.post;
  if (post) {
    wrapped.post = {
      bodyLimit: post.bodyLimit,
      accepts: (contentType) => post.accepts(contentType),
      answer(body, url) {
        if (log.nodeEnabled(Levels.Debug)) log.nodeDebug('API request', { path: url, method: 'POST' });
        return post.answer(body, url);
      },
    };
  }
  if (handler.upgrade) wrapped.upgrade = (req, socket, head) => handler.upgrade!(req, socket, head);
  return wrapped;
}
