// Named loggers, each with a log level (its file in --log-dir) and a display level (stdout).
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Levels, levelName, type Level } from './levels.js';

export type Fields = Record<string, unknown>;

export interface Logger {
  readonly name: string;
  verbo(msg: string, fields?: Fields): void;
  debug(msg: string, fields?: Fields): void;
  trace(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  fatal(msg: string, fields?: Fields): void;
  /** True when an entry at this level would be written anywhere (skip building costly fields). */
  enabled(level: Level): boolean;
}

export interface LogFactoryConfig {
  dir: string;
  logLevel: Level;
  displayLevel: Level;
  format: 'plain' | 'colors' | 'json';
  /** lumberjack-style rotation (--log-rotater-*). */
  rotation?: { maxSizeMB: number; maxFiles: number; maxAgeDays: number; compress: boolean };
  /** Write display output here (default process.stdout). */
  display?: (line: string) => void;
}

export class NamedLogger implements Logger {
  private fd: number | undefined;
  constructor(
    readonly name: string,
    /** `<X Chain>`-style prefix for chain loggers, else undefined. */
    readonly prefix: string | undefined,
    public logLevel: Level,
    public displayLevel: Level,
    private readonly factory: LogFactory,
  ) {}

  enabled(level: Level): boolean {
    return level >= this.logLevel || level >= this.displayLevel;
  }

  verbo(m: string, f?: Fields) { this.log(Levels.Verbo, m, f); }
  debug(m: string, f?: Fields) { this.log(Levels.Debug, m, f); }
  trace(m: string, f?: Fields) { this.log(Levels.Trace, m, f); }
  info(m: string, f?: Fields) { this.log(Levels.Info, m, f); }
  warn(m: string, f?: Fields) { this.log(Levels.Warn, m, f); }
  error(m: string, f?: Fields) { this.log(Levels.Error, m, f); }
  fatal(m: string, f?: Fields) { this.log(Levels.Fatal, m, f); }

  private log(level: Level, msg: string, fields?: Fields): void {
    if (level >= Levels.Off) return;
    const toFile = level >= this.logLevel;
    const toDisplay = level >= this.displayLevel;
    if (!toFile && !toDisplay) return;
    const now = new Date();
    if (toFile) this.writeFile(this.factory.format(now, level, this, msg, fields, false));
    if (toDisplay) this.factory.writeDisplay(this.factory.format(now, level, this, msg, fields, this.factory.config.format === 'colors'));
  }

  private writeFile(line: string): void {
    if (this.fd === undefined) {
      mkdirSync(this.factory.config.dir, { recursive: true });
      this.fd = openSync(join(this.factory.config.dir, `${this.name}.log`), 'a');
    }
    writeSync(this.fd, line + '\n');
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

const COLORS: Record<string, string> = { VERBO: '\x1b[90m', DEBUG: '\x1b[36m', TRACE: '\x1b[34m', INFO: '\x1b[32m', WARN: '\x1b[33m', ERROR: '\x1b[31m', FATAL: '\x1b[35m' };

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

export class LogFactory {
  private readonly loggers = new Map<string, NamedLogger>();
  constructor(readonly config: LogFactoryConfig) {}

  /** Creates the named logger; chain loggers pass `prefix` (e.g. `C Chain`). */
  make(name: string, prefix?: string): NamedLogger {
    if (this.loggers.has(name)) throw new Error(`logger with name "${name}" already exists`);
    const l = new NamedLogger(name, prefix, this.config.logLevel, this.config.displayLevel, this);
    this.loggers.set(name, l);
    return l;
  }

  get(name: string): NamedLogger {
    const l = this.loggers.get(name);
    if (!l) throw new Error(`logger with name "${name}" not found`);
    return l;
  }

  names(): string[] {
    return [...this.loggers.keys()];
  }

  format(now: Date, level: Level, l: NamedLogger, msg: string, fields: Fields | undefined, color: boolean): string {
    const name = levelName(level);
    if (this.config.format === 'json') {
      const o: Fields = { level: name.toLowerCase(), timestamp: now.toISOString() };
      if (l.prefix) o.logger = l.prefix;
      o.msg = msg;
      return JSON.stringify({ ...o, ...fields }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
    }
    const ts = `[${pad(now.getMonth() + 1)}-${pad(now.getDate())}|${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}.${pad(now.getMilliseconds(), 3)}]`;
    const lvl = color ? `${COLORS[name] ?? ''}${name}\x1b[0m` : name;
    const prefix = l.prefix ? ` <${l.prefix}>` : '';
    const f = fields && Object.keys(fields).length ? ' ' + JSON.stringify(fields, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) : '';
    return `${ts} ${lvl}${prefix} ${msg}${f}`;
  }

  writeDisplay(line: string): void {
    if (this.config.display) this.config.display(line);
    else process.stdout.write(line + '\n');
  }

  close(): void {
    for (const l of this.loggers.values()) l.close();
  }
}

