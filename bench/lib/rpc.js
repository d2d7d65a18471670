// A keep-alive JSON-RPC client over node:http (no library in the measured path) and the
// closed-loop load generator: N connections, each sending its next request when the last answered.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { percentile } from './stats.js';

export class RpcError extends Error {
  constructor(message, kind = 'error') {
    super(message);
    this.kind = kind; // 'error' (an answer we did not want) or 'stall' (no answer in time)
  }
}

export class RpcClient {
  /**
   * @param {string} url  e.g. http://127.0.0.1:9650/ext/bc/dev/rpc
   * @param {{connections?: number, timeoutMs?: number}} opts
   */
  constructor(url, { connections = 1, timeoutMs = 30_000 } = {}) {
    this.url = new URL(url);
    this.timeoutMs = timeoutMs;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
    this.nextId = 1;
  }

  /** POSTs a prepared body; resolves with the response text. Rejects with RpcError on stall/HTTP error. */
  post(body, path = this.url.pathname) {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          agent: this.agent,
          host: this.url.hostname,
          port: this.url.port,
          path,
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Length': body.length },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            if (res.statusCode !== 200) reject(new RpcError(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
            else resolve(text);
          });
          res.on('error', (e) => reject(new RpcError(`response: ${e.message}`)));
        },
      );
      req.setTimeout(this.timeoutMs, () => req.destroy(new RpcError(`no answer within ${this.timeoutMs} ms`, 'stall')));
      req.on('error', (e) => reject(e instanceof RpcError ? e : new RpcError(`request: ${e.message}`)));
      req.end(body);
    });
  }

  /** One JSON-RPC call; returns `result`, throws RpcError on a JSON-RPC error. */
  async call(method, params = [], path) {
    const text = await this.post(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params })), path);
    return resultOf(text, method);
  }

  close() {
    this.agent.destroy();
  }
}

export function resultOf(text, method) {
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    throw new RpcError(`${method}: unparsable answer ${text.slice(0, 120)}`);
  }
  if (msg.error) throw new RpcError(`${method}: ${msg.error.code} ${msg.error.message}`);
  if (!('result' in msg)) throw new RpcError(`${method}: answer without result ${text.slice(0, 120)}`);
  return msg.result;
}

/**
 * Closed-loop load: `connections` workers send the same prepared request (`method`, `params`), or,
 * with `nextBody`, the next body it returns (called once per request, before the clock starts
 * for it), until `durationMs` has passed. Every answer is parsed and must carry a result. A stall
 * stops the run.
 * @returns {{ok:number, errors:number, firstError?:string, stalled:boolean, seconds:number, rps:number, p50:number, p99:number}}
 */
export async function runLoad({ url, method, params = [], nextBody, connections, durationMs, timeoutMs = 10_000 }) {
  const client = new RpcClient(url, { connections, timeoutMs });
  const fixed = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  const latencies = [];
  let errors = 0;
  let firstError;
  let stalled = false;
  const start = performance.now();
  const end = start + durationMs;
  const worker = async () => {
    while (!stalled && performance.now() < end) {
      const body = nextBody ? nextBody() : fixed;
      const t0 = performance.now();
      try {
        resultOf(await client.post(body), method);
        latencies.push(performance.now() - t0);
      } catch (e) {
        errors++;
        firstError ??= e.message;
        if (e.kind === 'stall') stalled = true;
        else if (errors > 1000) break; // a node that only errors: the run is an error, stop spinning
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = (performance.now() - start) / 1000;
  client.close();
  latencies.sort((a, b) => a - b);
  return {
    ok: latencies.length,
    errors,
    firstError,
    stalled,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}
