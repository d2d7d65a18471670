import type { IncomingMessage } from 'node:http';

export class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`request body too large (limit ${limit} bytes)`);
  }
}

/** Reads a request body, refusing more than `limit` bytes without buffering the excess. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(new BodyTooLargeError(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => failed || resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on('error', (e) => failed || reject(e));
    // A client that goes away mid-body must not leave the read pending forever.
    req.on('close', () => {
      if (!req.complete && !failed) {
        failed = true;
        reject(new Error('request aborted'));
      }
    });
  });
}
