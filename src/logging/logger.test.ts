// Logging: files per logger, levels that change at once, formats, lumberjack-style rotation,
// and a chain's requests in its own log file through the admin API over real HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { LogFactory } from './logger.js';
import { Levels, parseLevel } from './levels.js';
import { backupTimestamp } from './rotating.js';
import { startTestNode, rpc } from '../../test/helpers.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'powder-log-'));
}

const BACKUP_NAME = (name: string) => new RegExp(`^${name}-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}\\.\\d{3}\\.log(\\.gz)?$`);

test('levels: order, any case in, unknown text', () => {
  assert.ok(Levels.Verbo < Levels.Debug && Levels.Debug < Levels.Trace && Levels.Trace < Levels.Info);
  assert.ok(Levels.Info < Levels.Warn && Levels.Warn < Levels.Error && Levels.Error < Levels.Fatal && Levels.Fatal < Levels.Off);
  assert.equal(parseLevel('dEbUg'), Levels.Debug);
  assert.throws(() => parseLevel('warning'), { message: 'unknown log level: "warning"' });
  assert.throws(() => parseLevel(''), { message: 'unknown log level: ""' });
});

test('a logger writes entries at or above its log level to <dir>/<name>.log; changes take effect at once', () => {
  const dir = tempDir();
  const shown: string[] = [];
  try {
    const f = new LogFactory({ dir, logLevel: Levels.Info, displayLevel: Levels.Warn, format: 'plain', display: (l) => shown.push(l) });
    const main = f.make('main');
    main.debug('hidden debug');
    main.info('first info', { n: 1n << 70n, ok: true });
    main.warn('a warning');
    assert.equal(main.enabled(Levels.Debug), false);
    main.logLevel = Levels.Verbo;
    assert.equal(main.enabled(Levels.Debug), true);
    main.verbo('now verbose');
    main.logLevel = Levels.Off;
    main.fatal('not even fatal');
    main.displayLevel = Levels.Off;
    assert.equal(main.enabled(Levels.Fatal), false);
    const lines = readFileSync(join(dir, 'main.log'), 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 3, lines.join('\n'));
    assert.match(lines[0], /^\[\d{2}-\d{2}\|\d{2}:\d{2}:\d{2}\.\d{3}\] INFO logging\/logger\.test\.[jt]s:\d+ first info \{"n": 1180591620717411303424, "ok": true\}$/);
    assert.match(lines[1], /\] WARN .* a warning$/);
    assert.match(lines[2], /\] VERBO .* now verbose$/);
    // Display: WARN and above only, until switched off.
    assert.equal(shown.length, 2);
    assert.match(shown[0], /WARN .* a warning/);
    assert.match(shown[1], /FATAL .* not even fatal/);
    assert.throws(() => f.make('main'), { message: 'logger with name "main" already exists' });
    assert.throws(() => f.get('C'), { message: 'logger with name "C" not found' });
    f.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('formats: chain prefix in plain, colours only on the display, JSON lines', () => {
  const dir = tempDir();
  try {
    const shown: string[] = [];
    const colors = new LogFactory({ dir, logLevel: Levels.Info, displayLevel: Levels.Info, format: 'colors', display: (l) => shown.push(l) });
    colors.make('C', 'C Chain').info('hello', { path: '/ext/bc/C/rpc' });
    const file = readFileSync(join(dir, 'C.log'), 'utf8');
    assert.match(file, /\] INFO <C Chain> logging\/logger\.test\.[jt]s:\d+ hello \{"path": "\/ext\/bc\/C\/rpc"\}\n$/);
    assert.doesNotMatch(file, /\x1b\[/);
    assert.match(shown[0], /\x1b\[32mINFO\x1b\[0m <C Chain> /);

    const jdir = join(dir, 'json');
    const json = new LogFactory({ dir: jdir, logLevel: Levels.Debug, displayLevel: Levels.Off, format: 'json' });
    json.make('dev', 'dev Chain').debug('block built', { height: 5n, hash: Uint8Array.from([1, 2]) });
    json.make('main').error('oops', { error: new Error('boom') });
    const dev = JSON.parse(readFileSync(join(jdir, 'dev.log'), 'utf8'));
    assert.deepEqual(Object.keys(dev), ['level', 'timestamp', 'logger', 'caller', 'msg', 'height', 'hash']);
    assert.equal(dev.level, 'debug');
    assert.equal(dev.logger, 'dev Chain');
    assert.equal(dev.height, 5);
    assert.equal(dev.hash, '0x0102');
    assert.match(dev.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const main = JSON.parse(readFileSync(join(jdir, 'main.log'), 'utf8'));
    assert.equal(main.logger, undefined);
    assert.equal(main.error, 'boom');
    colors.close();
    json.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('rotation: past max size the file moves to <name>-<UTC time>.log; max files kept', () => {
  const dir = tempDir();
  try {
    const f = new LogFactory({
      dir, logLevel: Levels.Info, displayLevel: Levels.Off, format: 'plain',
      rotation: { maxSizeMB: 8, maxFiles: 2, maxAgeDays: 0, compress: false, maxSizeBytes: 1000 },
    });
    const l = f.make('main');
    for (let i = 0; i < 60; i++) l.info(`line ${i} ${'x'.repeat(40)}`);
    const files = readdirSync(dir).sort();
    const backups = files.filter((n) => n !== 'main.log');
    assert.ok(files.includes('main.log'));
    assert.equal(backups.length, 2, files.join(' '));
    for (const b of backups) {
      assert.match(b, BACKUP_NAME('main'));
      assert.ok(statSync(join(dir, b)).size <= 1000);
    }
    assert.ok(statSync(join(dir, 'main.log')).size <= 1000);
    // Nothing is lost between the newest backup and the live file: the last line is in main.log.
    assert.match(readFileSync(join(dir, 'main.log'), 'utf8'), /line 59 /);
    // The backup name carries the UTC time of rotation in lumberjack's format.
    assert.equal(backupTimestamp(new Date(Date.UTC(2026, 7, 22, 15, 32, 36, 123))), '2026-08-22T15-32-36.123');
    f.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('rotation: an existing file that is full is rotated at open; compressed backups are gzip', async () => {
  const dir = tempDir();
  try {
    writeFileSync(join(dir, 'dev.log'), 'old content\n'.repeat(80)); // 960 bytes
    const f = new LogFactory({
      dir, logLevel: Levels.Info, displayLevel: Levels.Off, format: 'plain',
      rotation: { maxSizeMB: 8, maxFiles: 0, maxAgeDays: 0, compress: true, maxSizeBytes: 1000 },
    });
    const l = f.make('dev', 'dev Chain');
    l.info('first line after restart, long enough to overflow the old file');
    await f.settled();
    const gz = readdirSync(dir).filter((n) => n.endsWith('.gz'));
    assert.equal(gz.length, 1);
    assert.match(gz[0], BACKUP_NAME('dev'));
    assert.equal(gunzipSync(readFileSync(join(dir, gz[0]))).toString(), 'old content\n'.repeat(80));
    assert.equal(existsSync(join(dir, gz[0].slice(0, -3))), false);
    assert.match(readFileSync(join(dir, 'dev.log'), 'utf8'), /^\[.*first line after restart/);
    f.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('rotation: backups older than max age are removed', () => {
  const dir = tempDir();
  try {
    const old = `main-${backupTimestamp(new Date(Date.now() - 3 * 24 * 3600 * 1000))}.log`;
    const recent = `main-${backupTimestamp(new Date(Date.now() - 3600 * 1000))}.log`;
    writeFileSync(join(dir, old), 'old\n');
    writeFileSync(join(dir, recent), 'recent\n');
    writeFileSync(join(dir, 'other-2020-01-01T00-00-00.000.log'), 'another logger\n');
    const f = new LogFactory({
      dir, logLevel: Levels.Info, displayLevel: Levels.Off, format: 'plain',
      rotation: { maxSizeMB: 8, maxFiles: 0, maxAgeDays: 2, compress: false, maxSizeBytes: 200 },
    });
    const l = f.make('main');
    for (let i = 0; i < 5; i++) l.info(`entry ${i} ${'y'.repeat(60)}`);
    const files = readdirSync(dir);
    assert.ok(!files.includes(old), files.join(' '));
    assert.ok(files.includes(recent));
    assert.ok(files.includes('other-2020-01-01T00-00-00.000.log'), 'other loggers\' files are not touched');
    f.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a write larger than the max size is refused without crashing the caller', () => {
  const dir = tempDir();
  const saved = process.stderr.write;
  const errs: string[] = [];
  process.stderr.write = ((s: string) => (errs.push(String(s)), true)) as typeof process.stderr.write;
  try {
    const f = new LogFactory({
      dir, logLevel: Levels.Info, displayLevel: Levels.Off, format: 'plain',
      rotation: { maxSizeMB: 8, maxFiles: 0, maxAgeDays: 0, compress: false, maxSizeBytes: 100 },
    });
    const l = f.make('main');
    l.info('z'.repeat(200));
    assert.match(errs.join(''), /cannot write log file for logger "main": write length \d+ exceeds maximum file size 100/);
    // Later entries that fit are written.
    l.info('small');
    assert.match(readFileSync(join(dir, 'main.log'), 'utf8'), /INFO .* small\n$/);
    f.close();
  } finally {
    process.stderr.write = saved;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a chain\'s requests appear in <log-dir>/<chain>.log once its level is lowered, and stop when raised', async () => {
  const t = await startTestNode({ 'db-type': 'memdb', 'api-admin-enabled': true });
  const admin = `${t.url}/ext/admin`;
  const devLog = join(t.dataDir, 'logs', 'dev.log');
  const request = async (marker: string) => {
    const r = await fetch(`${t.url}/ext/bc/dev/rpc?marker=${marker}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    await r.arrayBuffer();
    assert.notEqual(r.status, 404);
  };
  const requestLines = () => (existsSync(devLog) ? readFileSync(devLog, 'utf8') : '').split('\n').filter((l) => l.includes('API request'));
  try {
    await request('at-info');
    assert.equal(requestLines().length, 0);

    const set = await rpc(admin, 'admin.setLoggerLevel', { loggerName: 'dev', logLevel: 'Debug' });
    assert.deepEqual(set.result, { loggerLevels: { dev: { logLevel: 'DEBUG', displayLevel: 'OFF' } } });
    await request('at-debug');
    const lines = requestLines();
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0], / DEBUG <dev Chain> .*API request \{"path": "\/ext\/bc\/dev\/rpc\?marker=at-debug", "method": "POST"\}$/);

    await rpc(admin, 'admin.setLoggerLevel', { loggerName: 'dev', logLevel: 'INFO' });
    await request('back-at-info');
    assert.equal(requestLines().length, 1);
    // The main log did not get the chain's lines.
    assert.doesNotMatch(readFileSync(join(t.dataDir, 'logs', 'main.log'), 'utf8'), /API request/);
  } finally {
    await t.stop();
  }
});

test('disableWriterDisplaying (--log-disable-display-plugin-logs): a chain\'s VM entries go to its file only; the node\'s own entries on it, and other loggers, still display', () => {
  const dir = tempDir();
  const shown: string[] = [];
  try {
    const f = new LogFactory({ dir, logLevel: Levels.Info, displayLevel: Levels.Info, format: 'plain', display: (l) => shown.push(l), disableWriterDisplaying: true });
    const main = f.make('main');
    const chain = f.make('dev', 'dev Chain');
    chain.logLevel = Levels.Debug;
    chain.displayLevel = Levels.Debug;
    chain.info('from the VM');
    chain.nodeDebug('from the node');
    main.info('node wide');
    assert.deepEqual(shown.map((l) => l.replace(/^.*\] /, '')).map((l) => l.replace(/ \S+:\d+ /, ' ')), ['DEBUG <dev Chain> from the node', 'INFO node wide']);
    assert.match(readFileSync(join(dir, 'dev.log'), 'utf8'), /INFO <dev Chain> .* from the VM/);
    f.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--log-rotater-max-size=0 is lumberjack\'s default of 100 MB, not "never rotate"', async () => {
  const MB = 1024 * 1024;
  for (const [sizeMB, startSize, rotated] of [
    [0, 100 * MB - 1, true], // the first entry would reach 100 MB: rotated
    [0, 9 * MB, false], // past the flag's default of 8 MB, but under 100 MB: kept
  ] as const) {
    const dataDir = tempDir();
    const logDir = join(dataDir, 'logs');
    mkdirSync(logDir, { recursive: true });
    truncateSync(openAndClose(join(logDir, 'main.log')), startSize); // sparse: no 100 MB written
    const t = await startTestNode({ 'data-dir': dataDir, 'db-type': 'memdb', chains: [], 'log-rotater-max-size': sizeMB });
    await t.stop();
    try {
      const backups = readdirSync(logDir).filter((n) => BACKUP_NAME('main').test(n));
      assert.equal(backups.length, rotated ? 1 : 0, `${startSize} bytes: ${readdirSync(logDir)}`);
      const size = statSync(join(logDir, 'main.log')).size;
      assert.ok(rotated ? size < MB : size > startSize, `main.log is ${size} bytes`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
});

function openAndClose(path: string): string {
  writeFileSync(path, '');
  return path;
}

test('--log-level / --log-display-level: Go\'s upper-casing and Go\'s %q in "unknown log level"', async () => {
  await assert.rejects(startTestNode({ 'db-type': 'memdb', chains: [], 'log-level': 'oﬀ' }), {
    message: 'invalid value "oﬀ" for option "log-level": unknown log level: "oﬀ"',
  });
  await assert.rejects(startTestNode({ 'db-type': 'memdb', chains: [], 'log-display-level': 'in\x01fo' }), {
    message: 'invalid value "in\\u0001fo" for option "log-display-level": unknown log level: "in\\x01fo"',
  });
  const t = await startTestNode({ 'db-type': 'memdb', chains: [], 'log-level': 'ınfo', 'api-admin-enabled': true });
  try {
    assert.equal((await rpc(`${t.url}/ext/admin`, 'admin.getLoggerLevel', { loggerName: 'main' })).result.loggerLevels.main.logLevel, 'INFO');
  } finally {
    await t.stop();
  }
});
