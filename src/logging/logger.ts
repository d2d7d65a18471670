// Named loggers, each with a log level (its file <log-dir>/<name>.log, rotated) and a display
// level (stdout), as AvalancheGo's log factory (reference: avalanchego-node.md §5).
// Level changes take effect at the next entry: levels are plain fields read on every call.
import { basename, dirname } from 'node:path';
import { Levels, levelName, type Level } from './levels.js';
import { RotatingFile, policyFromMB, type RotationPolicy } from './rotating.js';
import { goQuote } from '../rpc/goQuote.js';

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
  /**
   * The source's own filter, applied before the log and display levels: entries below it are
   * dropped (a VM's own log level, e.g. Subnet-EVM's `log-level`). Default: everything passes.
   */
  sourceLevel?: Level;
  /** anvil_setLoggingEnabled(false): entries below WARN are not displayed (the log file keeps them). */
  muted?: boolean;
}

export type LogFormat = 'plain' | 'colors' | 'json';

export interface LogFactoryConfig {
  dir: string;
  logLevel: Level;
  displayLevel: Level;
  /** `colors` colours stdout only; files never get colours. */
  format: LogFormat;
  /**
   * lumberjack-style rotation (--log-rotater-*). `maxSizeBytes`, when given, overrides
   * `maxSizeMB` (the flag takes whole MB; tests and library users may want less).
   */
  rotation?: { maxSizeMB: number; maxFiles: number; maxAgeDays: number; compress: boolean; maxSizeBytes?: number };
  /**
   * AvalancheGo's DisableWriterDisplaying (--log-disable-display-plugin-logs): on a chain logger,
   * what the chain's VM writes (on the real node, a plugin process's own output) goes to the file
   * only; the node's entries on that logger display as usual.
   */
  disableWriterDisplaying?: boolean;
  /** Write display output here (default process.stdout). */
  display?: (line: string) => void;
}

type LevelMethod = (msg: string, fields?: Fields) => void;

export class NamedLogger implements Logger {
  private file: RotatingFile | undefined;
  private reportedFileError = false;
  sourceLevel: Level = Levels.Verbo;
  muted = false;

  constructor(
    readonly name: string,
    /** `<X Chain>`-style prefix for chain loggers, else undefined. */
    readonly prefix: string | undefined,
    public logLevel: Level,
    public displayLevel: Level,
    private readonly factory: LogFactory,
  ) {}

  enabled(level: Level): boolean {
    return level >= this.sourceLevel && this.nodeEnabled(level);
  }

  /** As enabled(), for the node's own entries on this logger, which the source level doesn't filter. */
  nodeEnabled(level: Level): boolean {
    return level < Levels.Off && (level >= this.logLevel || (level >= this.displayLevel && !(this.muted && level < Levels.Warn)));
  }

  /** A DEBUG entry the node writes on this logger (e.g. a chain's request log): not subject to sourceLevel. */
  nodeDebug(m: string, f?: Fields) { this.log(Levels.Debug, m, f, this.nodeDebug, false); }

  verbo(m: string, f?: Fields) { this.log(Levels.Verbo, m, f, this.verbo); }
  debug(m: string, f?: Fields) { this.log(Levels.Debug, m, f, this.debug); }
  trace(m: string, f?: Fields) { this.log(Levels.Trace, m, f, this.trace); }
  info(m: string, f?: Fields) { this.log(Levels.Info, m, f, this.info); }
  warn(m: string, f?: Fields) { this.log(Levels.Warn, m, f, this.warn); }
  error(m: string, f?: Fields) { this.log(Levels.Error, m, f, this.error); }
  fatal(m: string, f?: Fields) { this.log(Levels.Fatal, m, f, this.fatal); }

  private log(level: Level, msg: string, fields: Fields | undefined, method: LevelMethod, fromSource = true): void {
    if (level >= Levels.Off || (fromSource && level < this.sourceLevel)) return;
    const toFile = level >= this.logLevel;
    const toDisplay =
      level >= this.displayLevel &&
      !(this.muted && level < Levels.Warn) &&
      !(fromSource && this.prefix !== undefined && this.factory.config.disableWriterDisplaying);
    if (!toFile && !toDisplay) return;
    const entry: Entry = { time: new Date(), level, logger: this, caller: callerOf(method), msg, fields };
    const f = this.factory;
    if (toFile) this.writeFile(f.format(entry, false) + '\n');
    if (toDisplay) f.writeDisplay(f.format(entry, f.config.format === 'colors'));
  }

  private writeFile(line: string): void {
    try {
      this.file ??= new RotatingFile(this.factory.config.dir, this.name, this.factory.policy);
      this.file.write(line);
    } catch (e) {
      // A log file that cannot be written must not take requests down with it: the entry is
      // dropped, and the first failure is reported on stderr.
      if (this.reportedFileError) return;
      this.reportedFileError = true;
      process.stderr.write(`powder: cannot write log file for logger "${this.name}": ${(e as Error).message}\n`);
    }
  }

  /** The rotating file behind this logger (created at its first file entry). */
  get rotatingFile(): RotatingFile | undefined {
    return this.file;
  }

  close(): void {
    this.file?.close();
  }
}

interface Entry {
  time: Date;
  level: Level;
  logger: NamedLogger;
  caller: string;
  msg: string;
  fields: Fields | undefined;
}

/**
 * The bundles' log call sites (scripts/bundle.mjs appends the table to each bundle): the call's
 * offset in the bundle's text → `dir/file.ts:line` of the source, and `shift`, what V8's positions
 * in the bundle's script add to a text offset (the loader's CommonJS wrapper before the text).
 */
const bundleCallers = (): { sites: Record<string, string>; shift: number } | undefined =>
  (globalThis as { __powderLogCallers?: { sites: Record<string, string>; shift: number } }).__powderLogCallers;
const BUNDLE = /(^|[\\/])dist[\\/]powder(\.lib)?\.cjs$/;

interface CallSite {
  getFileName(): string | null | undefined;
  getPosition?(): number;
}
const callSites = (_: Error, sites: CallSite[]): CallSite[] => sites;

/**
 * `dir/file:line` of the code that called the logger (zap's short caller), or ''. In a bundle it
 * is looked up by the call's offset, which V8 gives without a line number: a first line number
 * makes V8 find every line end of the script, ~1.5 ms of a start for the 1.5 MB bundle
 * (docs/performance.md, session 43).
 */
function callerOf(method: LevelMethod): string {
  // No bundle loaded in this process (tests, dist/src): the formatted stack, at once.
  const table = bundleCallers();
  if (table === undefined) return callerFromStack(method);
  const site = callSiteOf(method);
  const file = site?.getFileName()?.replace(/^file:\/\//, '');
  const at = file !== undefined && BUNDLE.test(file) ? site?.getPosition?.() : undefined;
  return (at !== undefined ? table.sites[at - table.shift] : undefined) ?? callerFromStack(method);
}

/** The call site that called `method`, as V8 gives it to Error.prepareStackTrace. */
function callSiteOf(method: LevelMethod): CallSite | undefined {
  const E = Error as ErrorConstructor & { prepareStackTrace?: unknown };
  const savedLimit = E.stackTraceLimit;
  const savedPrepare = E.prepareStackTrace;
  E.stackTraceLimit = 1;
  E.prepareStackTrace = callSites;
  try {
    const holder: { stack?: CallSite[] } = {};
    Error.captureStackTrace(holder, method);
    // Read now: V8 calls prepareStackTrace when the stack is first read.
    return Array.isArray(holder.stack) ? holder.stack[0] : undefined;
  } finally {
    E.stackTraceLimit = savedLimit;
    E.prepareStackTrace = savedPrepare;
  }
}

/** The caller from the formatted stack (with source maps applied where Node applies them). */
function callerFromStack(method: LevelMethod): string {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = 1;
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, method);
  Error.stackTraceLimit = saved;
  const frame = holder.stack?.split('\n')[1] ?? '';
  const m = /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?$/.exec(frame);
  if (!m) return '';
  const file = m[1].replace(/^file:\/\//, '');
  return `${basename(dirname(file))}/${basename(file)}:${m[2]}`;
}

const COLORS: Record<string, string> = {
  VERBO: '\x1b[90m', DEBUG: '\x1b[36m', TRACE: '\x1b[34m', INFO: '\x1b[32m', WARN: '\x1b[33m', ERROR: '\x1b[31m', FATAL: '\x1b[35m',
};

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

/** A field value as JSON: bigint as a number, bytes as 0x-hex, errors as their message. */
function fieldJSON(v: unknown): string {
  return (
    JSON.stringify(v, (_k, x) => {
      if (typeof x === 'bigint') return `__bigint:${x}`;
      if (x instanceof Error) return x.message;
      if (x instanceof Uint8Array) return '0x' + Buffer.from(x).toString('hex');
      return x;
    }) ?? 'null'
  ).replace(/"__bigint:(-?\d+)"/g, '$1');
}

export class LogFactory {
  private readonly loggers = new Map<string, NamedLogger>();
  readonly policy: RotationPolicy;

  constructor(readonly config: LogFactoryConfig) {
    const r = config.rotation ?? { maxSizeMB: 8, maxFiles: 7, maxAgeDays: 0, compress: false };
    this.policy = policyFromMB(r);
    if (r.maxSizeBytes !== undefined) this.policy.maxSizeBytes = r.maxSizeBytes;
  }

  /** Creates the named logger; chain loggers pass `prefix` (e.g. `C Chain`). */
  make(name: string, prefix?: string): NamedLogger {
    if (this.loggers.has(name)) throw new Error(`logger with name ${goQuote(name)} already exists`);
    const l = new NamedLogger(name, prefix, this.config.logLevel, this.config.displayLevel, this);
    this.loggers.set(name, l);
    return l;
  }

  get(name: string): NamedLogger {
    const l = this.loggers.get(name);
    if (!l) throw new Error(`logger with name ${goQuote(name)} not found`);
    return l;
  }

  names(): string[] {
    return [...this.loggers.keys()];
  }

  /** One line, without the newline: plain/colors `[MM-DD|HH:MM:SS.mmm] LEVEL <Prefix> caller msg {fields}`, or JSON. */
  format(e: Entry, color: boolean): string {
    const name = levelName(e.level);
    const fields = e.fields && Object.keys(e.fields).length ? e.fields : undefined;
    if (this.config.format === 'json') {
      let s = `{"level":"${name.toLowerCase()}","timestamp":"${e.time.toISOString()}"`;
      if (e.logger.prefix) s += `,"logger":${JSON.stringify(e.logger.prefix)}`;
      if (e.caller) s += `,"caller":${JSON.stringify(e.caller)}`;
      s += `,"msg":${JSON.stringify(e.msg)}`;
      for (const [k, v] of Object.entries(fields ?? {})) s += `,${JSON.stringify(k)}:${fieldJSON(v)}`;
      return s + '}';
    }
    const t = e.time;
    const ts = `[${pad(t.getMonth() + 1)}-${pad(t.getDate())}|${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}.${pad(t.getMilliseconds(), 3)}]`;
    const parts = [ts, color ? `${COLORS[name] ?? ''}${name}\x1b[0m` : name];
    if (e.logger.prefix) parts.push(`<${e.logger.prefix}>`);
    if (e.caller) parts.push(e.caller);
    parts.push(e.msg);
    if (fields) parts.push('{' + Object.entries(fields).map(([k, v]) => `${JSON.stringify(k)}: ${fieldJSON(v)}`).join(', ') + '}');
    return parts.join(' ');
  }

  writeDisplay(line: string): void {
    if (this.config.display) this.config.display(line);
    else process.stdout.write(line + '\n');
  }

  /** Resolves when background work (compression of rotated files) is done. */
  async settled(): Promise<void> {
    await Promise.all([...this.loggers.values()].map((l) => l.rotatingFile?.settled()));
  }

  close(): void {
    for (const l of this.loggers.values()) l.close();
  }
}
