// A log file that rotates like gopkg.in/natefinch/lumberjack.v2 (what AvalancheGo uses):
// when a write would take the file past maxSize bytes, the file is renamed to
// `<name>-<UTC 2006-01-02T15-04-05.000>.log` and a new one is started; then old backups beyond
// maxFiles or older than maxAgeDays are removed, and the rest are gzipped (`.log.gz`) if compress.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipAsync } from './gzip.js';

export interface RotationPolicy {
  /** Bytes per file before rotation (lumberjack MaxSize is in MB: MB × 1024 × 1024). 0 = never. */
  maxSizeBytes: number;
  /** Rotated files kept (0 = all). */
  maxFiles: number;
  /** Days rotated files are kept (0 = forever). */
  maxAgeDays: number;
  /** gzip rotated files. */
  compress: boolean;
}

const MB = 1024 * 1024;

/** lumberjack's MaxSize when it is 0 (what `--log-rotater-max-size=0` gives AvalancheGo): 100 MB. */
export const LUMBERJACK_DEFAULT_MAX_SIZE_MB = 100;

export function policyFromMB(o: { maxSizeMB: number; maxFiles: number; maxAgeDays: number; compress: boolean }): RotationPolicy {
  const mb = o.maxSizeMB === 0 ? LUMBERJACK_DEFAULT_MAX_SIZE_MB : o.maxSizeMB;
  return { maxSizeBytes: mb * MB, maxFiles: o.maxFiles, maxAgeDays: o.maxAgeDays, compress: o.compress };
}

/** `2006-01-02T15-04-05.000` in UTC, lumberjack's backup time format. */
export function backupTimestamp(d: Date): string {
  return d.toISOString().replace(/:/g, '-').replace(/Z$/, '');
}

const BACKUP_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2}\.\d{3})$/;

function parseBackupTimestamp(s: string): number | undefined {
  const m = BACKUP_TIME.exec(s);
  if (!m) return undefined;
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`);
  return Number.isNaN(t) ? undefined : t;
}

export class RotatingFile {
  private fd: number | undefined;
  private size = 0;
  /** Background gzip work; settled() waits for it. */
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    /** Logger name: the file is `<dir>/<name>.log`. */
    private readonly name: string,
    private readonly policy: RotationPolicy,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get path(): string {
    return join(this.dir, `${this.name}.log`);
  }

  write(text: string): void {
    const buf = Buffer.from(text);
    const max = this.policy.maxSizeBytes;
    if (max > 0 && buf.length > max) {
      throw new Error(`write length ${buf.length} exceeds maximum file size ${max}`);
    }
    if (this.fd === undefined) this.open(buf.length);
    else if (max > 0 && this.size + buf.length > max) this.rotate();
    writeSync(this.fd!, buf);
    this.size += buf.length;
  }

  /** Opens the existing file for appending, rotating first if this write would not fit. */
  private open(writeLen: number): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o755 });
    if (existsSync(this.path)) {
      const size = statSync(this.path).size;
      if (this.policy.maxSizeBytes > 0 && size + writeLen >= this.policy.maxSizeBytes) {
        this.rotate();
        return;
      }
    }
    this.fd = openSync(this.path, 'a', 0o644);
    this.size = fstatSync(this.fd).size;
  }

  /** Closes the current file, renames it to a backup name, starts a new one, then mills. */
  rotate(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (existsSync(this.path)) renameSync(this.path, this.freeBackupName());
    this.fd = openSync(this.path, 'w', 0o644);
    this.size = 0;
    this.mill();
  }

  /** A backup name not in use (two rotations in one millisecond would otherwise collide). */
  private freeBackupName(): string {
    let t = this.now().getTime();
    for (;;) {
      const base = join(this.dir, `${this.name}-${backupTimestamp(new Date(t))}.log`);
      if (!existsSync(base) && !existsSync(base + '.gz')) return base;
      t++;
    }
  }

  /** The rotated files of this logger, newest first. */
  backups(): { file: string; time: number }[] {
    const prefix = `${this.name}-`;
    const out: { file: string; time: number }[] = [];
    for (const f of existsSync(this.dir) ? readdirSync(this.dir) : []) {
      if (!f.startsWith(prefix)) continue;
      const rest = f.slice(prefix.length);
      const stamp = rest.endsWith('.log.gz') ? rest.slice(0, -7) : rest.endsWith('.log') ? rest.slice(0, -4) : undefined;
      const time = stamp === undefined ? undefined : parseBackupTimestamp(stamp);
      if (time !== undefined) out.push({ file: f, time });
    }
    return out.sort((a, b) => b.time - a.time);
  }

  /** lumberjack's millRunOnce: remove extra/old backups, compress the rest. */
  private mill(): void {
    let files = this.backups();
    const remove: string[] = [];
    if (this.policy.maxFiles > 0 && files.length > this.policy.maxFiles) {
      // A file and its compressed twin count once (lumberjack's "preserved" set).
      const kept = new Set<string>();
      const keep: typeof files = [];
      for (const f of files) {
        const key = f.file.replace(/\.gz$/, '');
        if (kept.has(key)) keep.push(f);
        else if (kept.size < this.policy.maxFiles) {
          kept.add(key);
          keep.push(f);
        } else remove.push(f.file);
      }
      files = keep;
    }
    if (this.policy.maxAgeDays > 0) {
      const cutoff = this.now().getTime() - this.policy.maxAgeDays * 24 * 3600 * 1000;
      const keep: typeof files = [];
      for (const f of files) {
        if (f.time < cutoff) remove.push(f.file);
        else keep.push(f);
      }
      files = keep;
    }
    for (const f of new Set(remove)) {
      try {
        unlinkSync(join(this.dir, f));
      } catch {
        /* already gone */
      }
    }
    if (this.policy.compress) {
      for (const f of files) {
        if (f.file.endsWith('.gz')) continue;
        const src = join(this.dir, f.file);
        this.pending = this.pending.then(() => compressFile(src));
      }
    }
  }

  /** Resolves when background compression is done. */
  settled(): Promise<void> {
    return this.pending;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Gzips src to src.gz (keeping its mode) and removes src. Failures leave src for the next mill. */
async function compressFile(src: string): Promise<void> {
  try {
    if (!existsSync(src)) return;
    const mode = statSync(src).mode & 0o777;
    const data = await gzipAsync(readFileSync(src));
    writeFileSync(src + '.gz', data, { mode });
    unlinkSync(src);
  } catch {
    /* retried at the next rotation */
  }
}
