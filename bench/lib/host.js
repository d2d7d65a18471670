// What this host charges every Node.js program, measured beside the cold starts so their absolute
// figures can be read: Node.js's own start (`node -e 0`, the floor under any Node-based node's
// cold start) and the cost of a first touch of a 4 KiB page (a VM whose page faults are slow,
// ~16 µs each on the host of session 22 against well under 1 µs on bare metal, charges every
// megabyte a process fills at start). Context only: no ratio is computed from them.
import { execFileSync, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { childEnv } from './nodes.js';

/** Milliseconds from spawn to exit of `node -e 0` (this Node.js binary). */
export function nodeStartMs({ keepEnv = false } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore', env: childEnv(keepEnv) });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`node -e 0 exited ${code}`))));
  });
}

// Fills 64 MiB of fresh memory one byte per 4 KiB page (each write faults a page in), in a child
// process so this process's own heap is left alone; reports µs per page, the best of three.
const FAULT_PROBE = `
const n = 64 << 20; let best = Infinity;
for (let r = 0; r < 3; r++) {
  const b = Buffer.allocUnsafeSlow(n); const t0 = performance.now();
  for (let i = 0; i < n; i += 4096) b[i] = 1;
  best = Math.min(best, ((performance.now() - t0) * 1000) / (n / 4096));
}
process.stdout.write(String(best));`;

/** Microseconds per first touch of a 4 KiB page of fresh memory; undefined if it cannot be measured. */
export function pageFaultMicros({ keepEnv = false } = {}) {
  try {
    const us = Number(execFileSync(process.execPath, ['-e', FAULT_PROBE], { encoding: 'utf8', env: childEnv(keepEnv), timeout: 30_000 }));
    return Number.isFinite(us) ? +us.toFixed(2) : undefined;
  } catch {
    return undefined;
  }
}
