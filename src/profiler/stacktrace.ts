// admin.stacktrace: the JavaScript counterpart of Go's all-goroutine dump. A Node.js process has
// one JS stack (the caller's), so the file shows that, every active libuv handle and request,
// the async resources keeping the process alive, and the full diagnostic report.
import { renameSync, writeFileSync, unlinkSync } from 'node:fs';
import { resolve } from 'node:path';

export const STACKTRACE_FILE = 'stacktrace.txt';

interface Report {
  header?: Record<string, unknown>;
  javascriptStack?: { message?: string; stack?: string[] };
  libuv?: { type: string; is_active?: boolean; is_referenced?: boolean; [k: string]: unknown }[];
  [k: string]: unknown;
}

export function stacktraceText(): string {
  const now = new Date();
  const report = (process.report?.getReport(new Error('admin.stacktrace')) ?? {}) as Report;
  const lines: string[] = [];
  lines.push(`Powder stack dump at ${now.toISOString()} (pid ${process.pid}, node ${process.version})`, '');
  lines.push('== JavaScript stack (the thread that served admin.stacktrace) ==');
  lines.push(...(new Error().stack ?? '').split('\n').slice(1).map((l) => l.trim()));
  lines.push('');
  const resources = process.getActiveResourcesInfo();
  const counts = new Map<string, number>();
  for (const r of resources) counts.set(r, (counts.get(r) ?? 0) + 1);
  lines.push(`== Active async resources (${resources.length}) ==`);
  for (const [k, n] of [...counts].sort()) lines.push(`${k} x${n}`);
  lines.push('');
  const uv = report.libuv ?? [];
  lines.push(`== libuv handles and requests (${uv.length}) ==`);
  for (const h of uv) {
    const { type, is_active, is_referenced, ...rest } = h;
    const extra = Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
    lines.push(`${type}${is_active ? ' active' : ''}${is_referenced ? ' referenced' : ''}${extra.length ? ' ' + extra.join(' ') : ''}`);
  }
  lines.push('');
  lines.push('== Diagnostic report (process.report.getReport()) ==');
  lines.push(JSON.stringify(report, null, 2));
  return lines.join('\n') + '\n';
}

/** Writes the dump to `stacktrace.txt` in the process's working directory, replaced atomically (0640). */
export function writeStacktrace(cwd = process.cwd()): string {
  const path = resolve(cwd, STACKTRACE_FILE);
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(tmp, stacktraceText(), { mode: 0o640 });
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* nothing to clean */
    }
    throw e;
  }
  return path;
}
