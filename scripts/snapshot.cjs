// Builds Powder's start-up snapshot, run by scripts/bundle.mjs as
//   node --snapshot-blob dist/powder.snapshot.blob --build-snapshot scripts/snapshot.cjs
// and again, for the single executable dist/powder-node (scripts/singleExecutable.mjs), as the
// `main` of `node --experimental-sea-config` with `"useSnapshot": true`.
// A V8 start-up snapshot is the heap of a process, written to a file, that a later `node
// --snapshot-blob <file>` starts from instead of an empty one. Here the heap holds the CLI bundle
// (dist/powder.cjs) with its module bodies run, and — because a node is started and stopped once
// while it is built (cli.ts `rehearseStart`) — the bytecode of every function a start runs. A
// start from it skips reading, deserialising and running the bundle and most of compiling
// (docs/performance.md, session 17). bin/powder uses it when it matches the Node.js binary.
//
// Node 20 cannot put node:http (nor https, tls) in a snapshot (V8 aborts), so while building, the
// bundle gets a stand-in: `createServer` gives a server that never opens a socket, and the one
// class the bundle derives from http.ServerResponse derives from a placeholder, which is
// re-parented onto the real ServerResponse when the snapshot is restored. Native objects (addons,
// WebAssembly, node:crypto keys) cannot be in a snapshot either: the modules that make them do so
// only after a restore (src/snapshot.ts); if one is reachable anyway, V8 refuses to write the
// snapshot and the build goes on without one.
'use strict';
const { readFileSync, rmSync, mkdtempSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { tmpdir } = require('node:os');
const vm = require('node:vm');
const v8 = require('node:v8');
const EventEmitter = require('node:events');

const bundleFile = join(__dirname, '..', 'dist', 'powder.cjs');
/** scripts/singleExecutable.mjs's SEA_NODE_OPTIONS: bin/powder starts dist/powder-node with it. */
const SEA_NODE_OPTIONS = '--max-semi-space-size=8';

let realHttp; // node:http, once restored
class ServerResponsePlaceholder extends Object {}
const standInServers = [];
class StandInServer extends EventEmitter {
  constructor() {
    super();
    standInServers.push(this);
    this.ownListener = () => {};
    this.on('connection', this.ownListener); // http.Server's own listener, which the fast path takes over
  }
  listen(...args) {
    const cb = args.find((a) => typeof a === 'function');
    setImmediate(() => cb?.());
    return this;
  }
  address() {
    return { address: '127.0.0.1', family: 'IPv4', port: 9650 };
  }
  close(cb) {
    setImmediate(() => cb?.());
    return this;
  }
  closeIdleConnections() {}
  closeAllConnections() {}
}
const httpStandIn = new Proxy(
  {},
  {
    get(_target, key) {
      if (realHttp) return realHttp[key];
      if (key === 'default') return httpStandIn;
      if (key === '__esModule' || key === 'then') return undefined;
      if (key === 'ServerResponse') return ServerResponsePlaceholder;
      if (key === 'createServer') return () => new StandInServer();
      // The fast path's status line for the rehearsal's answers (the real table after the restore).
      if (key === 'STATUS_CODES') return { 200: 'OK' };
      throw new Error(`snapshot: the bundle used node:http's ${String(key)} while the snapshot was built`);
    },
  },
);

/** Runs a CommonJS file as Node's loader would (its five names), with `requireFn` as its require. */
function runCommonJS(file, requireFn) {
  const module = { exports: {} };
  const wrapper = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`, { filename: file });
  wrapper(module.exports, requireFn, module, file, dirname(file));
  return module;
}

// bin/loadBundle.cjs, which the bundle requires at the first open of an LMDB database (to load
// dist/lmdb.cjs through its code cache): run here, it is in the snapshot, and an LMDB start skips
// the CommonJS loader's resolve, read and compile of it. It requires built-in modules only.
const loadBundleModule = runCommonJS(join(__dirname, '..', 'bin', 'loadBundle.cjs'), require);

let requireFromBundle; // a full require beside the bundle, once restored
function bundleRequire(id) {
  if (id === 'node:http' || id === 'http') return httpStandIn;
  if (id === '../bin/loadBundle.cjs') return loadBundleModule.exports;
  const builtin = id.startsWith('node:') || require('node:module').isBuiltin(id);
  if (builtin) {
    if (!realHttp && /^(node:)?(https|tls|_tls_wrap|_http_\w+)$/.test(id)) throw new Error(`snapshot: ${id} cannot be in a snapshot`);
    return require(id);
  }
  // The snapshot builder's require knows only built-in modules; packages the bundle requires by
  // name (optional ones, in try/catch) load with a normal require after the restore.
  if (!requireFromBundle) throw new Error(`snapshot: ${id} required while the snapshot was built`);
  return requireFromBundle(id);
}
bundleRequire.resolve = (id, options) => {
  if (!requireFromBundle) throw new Error(`snapshot: require.resolve(${id}) while the snapshot was built`);
  return requireFromBundle.resolve(id, options);
};

// net.Server#listen loads node:cluster (and with it child_process) in every process, ~7–10 ms of a
// start: loaded here, it is in the snapshot. (It picks its primary or worker half from
// NODE_UNIQUE_ID when it loads; Powder never runs as a cluster worker.)
require('node:cluster');
// node:sea, which the restore requires first (setUpSingleExecutable): held here, a start does not
// compile it from its source (~1 ms in profiles; the trimmed blob keeps no code cache for it). A
// Node.js without it has nothing to hold.
try {
  require('node:sea');
} catch {}

const bundle = runCommonJS(bundleFile, bundleRequire);

/**
 * Requests as clients send them — keep-alive ones, then a `Connection: close` one (the bench's
 * start probe) — on real loopback connections that a plain net.Server accepts and hands to the
 * stand-in server, whose listener is the node's fast path (src/server/fastHttp.ts). So the fast
 * path's code and Node's own socket code (accepting, reading, writing, closing) are compiled into
 * the snapshot: without it a start's first request took ~5 ms longer (docs/performance.md,
 * session 33). Every socket and the server are closed before the snapshot is written.
 */
async function rehearseRequests() {
  const server = standInServers.find((s) => s.listeners('connection').some((l) => l !== s.ownListener));
  standInServers.length = 0; // the node's objects must not outlive its rehearsal in the snapshot
  if (!server) throw new Error('snapshot: no stand-in server took connections');
  const net = require('node:net');
  const front = net.createServer({ allowHalfOpen: true }, (socket) => server.emit('connection', socket));
  await new Promise((resolve, reject) => front.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = front.address();
  const request = (method, params, extra = '') => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`;
    return `POST /ext/bc/dev/rpc HTTP/1.1\r\nContent-Type: application/json\r\nHost: 127.0.0.1:${port}\r\n${extra}Content-Length: ${body.length}\r\n\r\n${body}`;
  };
  const answered = (read) => (read.match(/HTTP\/1\.1 200 OK/g) ?? []).length;
  /** Sends each request once the previous one is answered; resolves with everything read when the connection closes. */
  const exchange = (requests) =>
    new Promise((resolve, reject) => {
      const client = net.connect(port, '127.0.0.1');
      let read = '';
      let sent = 0;
      const next = () => (sent < requests.length ? client.write(requests[sent++]) : client.end());
      client.on('connect', next);
      client.on('data', (d) => {
        read += d.toString('latin1');
        if (answered(read) === sent) next();
      });
      client.on('error', reject);
      client.on('close', () => resolve(read));
    });
  const reads = [['eth_chainId', '[]'], ['eth_blockNumber', '[]'], ['eth_getBalance', '["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","latest"]']];
  const answers = [await exchange(reads.map((r) => request(...r))), await exchange([request('eth_chainId', '[]', 'Connection: close\r\n')])];
  await new Promise((resolve) => front.close(resolve));
  for (const [i, want] of [[0, reads.length], [1, 1]]) {
    if (answered(answers[i]) !== want) throw new Error(`snapshot: a rehearsal connection read ${JSON.stringify(answers[i].slice(0, 300))}`);
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'powder-snapshot-'));
bundle.exports.rehearseStart(dataDir, rehearseRequests).then(
  () => rmSync(dataDir, { recursive: true, force: true }),
  (e) => {
    rmSync(dataDir, { recursive: true, force: true });
    process.stderr.write(`snapshot: the rehearsal start failed: ${e?.stack ?? e}\n`);
    process.exitCode = 1;
  },
);

// The built-in modules the snapshot holds, for scripts/bundle.mjs, which drops their code cache
// from the blob: a restored process never compiles them again (scripts/snapshotCodeCache.mjs).
if (process.env.POWDER_SNAPSHOT_BUILTINS) {
  const file = process.env.POWDER_SNAPSHOT_BUILTINS;
  v8.startupSnapshot.addSerializeCallback(() => {
    const held = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
    writeFileSync(file, JSON.stringify(held));
  });
}

v8.startupSnapshot.setDeserializeMainFunction(() => {
  const singleExecutable = setUpSingleExecutable(); // first: its V8 flags apply to all that follows
  realHttp = require('node:http');
  Object.setPrototypeOf(ServerResponsePlaceholder, realHttp.ServerResponse);
  Object.setPrototypeOf(ServerResponsePlaceholder.prototype, realHttp.ServerResponse.prototype);
  requireFromBundle = require('node:module').createRequire(bundleFile);
  globalThis.__powderImport = restoredImport();
  bundle.exports.main(process.argv.slice(singleExecutable ? 2 : 1)).catch((e) => {
    process.stderr.write(`powder: ${e?.stack ?? e}\n`);
    process.exit(1);
  });
});

/**
 * Whether this process is dist/powder-node, the single executable with this snapshot inside
 * (scripts/singleExecutable.mjs), and if so its set-up: its argv repeats the executable's path
 * before the arguments; the V8 flags bin/powder gives `node --snapshot-blob` on its command line,
 * which a single executable cannot take, are set here as bin/powder.js sets them (V8 reads both at
 * each collection); and the NODE_OPTIONS bin/powder gave it for its heap's size is not passed on to
 * the processes the node starts, nor shown in its process.env.
 */
function setUpSingleExecutable() {
  let sea;
  try {
    sea = require('node:sea');
  } catch {
    return false; // a Node.js without single executables
  }
  if (!sea.isSea()) return false;
  v8.setFlagsFromString('--heap-growing-percent=50');
  v8.setFlagsFromString('--no-parallel-scavenge');
  if (process.env.NODE_OPTIONS === SEA_NODE_OPTIONS) delete process.env.NODE_OPTIONS;
  return true;
}

/**
 * import() for the bundle (src/dynamicImport.ts): functions restored from a snapshot have no
 * import() callback, so one is compiled now with Node's default loader. That loader resolves a
 * package name from the working directory, so it only loads bin/importer.js (an absolute URL),
 * whose own import() resolves from Powder's install. Node marks the loader option experimental and
 * warns on its first use; the warning is not the user's concern.
 */
function restoredImport() {
  const importer = new vm.Script('(specifier) => import(specifier)', {
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  }).runInThisContext();
  let own;
  return (specifier) => {
    if (!own) {
      const emitWarning = process.emitWarning;
      process.emitWarning = function (warning, ...rest) {
        if (String(warning).includes('USE_MAIN_CONTEXT_DEFAULT_LOADER')) return;
        return emitWarning.call(this, warning, ...rest);
      };
      try {
        own = importer(pathToFileURL(join(__dirname, '..', 'bin', 'importer.js')).href).then((m) => m.importFromPowder);
      } finally {
        process.emitWarning = emitWarning;
      }
    }
    return own.then((importFromPowder) => importFromPowder(specifier));
  };
}
