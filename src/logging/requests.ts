// Chain request logging: every HTTP request to a chain route writes `API request` at DEBUG on the
// chain's logger. The level check comes first so a chain at INFO pays one comparison per request.
import type { RouteHandler } from '../server/router.js';
import { Levels } from './levels.js';
import type { Logger } from './logger.js';

export function withRequestLog(handler: RouteHandler, log: Logger): RouteHandler {
  const wrapped: RouteHandler = {
    http(req, res) {
      if (log.enabled(Levels.Debug)) log.debug('API request', { path: req.url, method: req.method });
      return handler.http(req, res);
    },
  };
  if (handler.upgrade) wrapped.upgrade = (req, socket, head) => handler.upgrade!(req, socket, head);
  return wrapped;
}
