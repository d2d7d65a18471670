// Seeded robustness ("fuzz") test of the node APIs (/ext/admin, /ext/info, /ext/health,
// /ext/bc/<chain>/validators) and the HTTP layer in front of them. Every method gets a few hundred
// requests drawn from a seeded PRNG; each answer is checked against a model of what AvalancheGo's
// gorilla json2 codec would give (reference: avalanchego-node.md §1–§3, §11): the HTTP status and
// headers, the envelope byte for byte where the text is known, the id echoed as sent, no
// JavaScript internals in any message. The admin methods' effects (aliases, chain aliases, logger
// levels, the CPU profiler) are modelled too, and checked after the fuzz.
//
// POWDER_FUZZ_SEED=<n> and POWDER_FUZZ_ROUNDS=<requests per method> override the defaults; the
// seed is printed, and each mismatch is reported with its request. POWDER_FUZZ_METHODS=<a,b,...>
// fuzzes only those methods (full names, e.g. admin.alias): each has its own PRNG stream, so a
// method replays alone exactly as in the full run (the model's state from the others aside).
// The fuzz's time budget grows with the rounds; POWDER_FUZZ_TIMEOUT_MS=<ms> sets it (a loaded machine).
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestNode, type TestNode } from './helpers.js';
import { Wire, chunkedPost, destroyOpened, post as wirePost, type Resp } from './httpWire.js';
import { cb58Encode } from '../src/ids/cb58.js';
import { parseID, parseNodeID } from '../src/ids/ids.js';
import { UNMARSHAL_ERROR, isMethodNameCached } from '../src/rpc/gorilla.js';
import { parseIDArg } from '../src/rpc/idArgs.js';
import { mulberry32 } from './rng.js';

const SEED = Number(process.env.POWDER_FUZZ_SEED ?? 20260822) >>> 0;
const ROUNDS = Math.max(1, Number(process.env.POWDER_FUZZ_ROUNDS ?? 250));
const ONLY = process.env.POWDER_FUZZ_METHODS ? new Set(process.env.POWDER_FUZZ_METHODS.split(',').map((s) => s.trim())) : undefined;
/** The fuzz test's budget: 100 s per 250 rounds (~20 s of work on an idle machine, ~3 ms a request).
 *  A fixed 120 s for the whole suite was hit at 600 rounds on a loaded machine, and that looked like
 *  a node that stopped listening: see the suite's timeout below. */
const FUZZ_MS = Number(process.env.POWDER_FUZZ_TIMEOUT_MS ?? 100_000 * Math.max(1, ROUNDS / 250));
console.log(`# fuzzNodeApis: seed ${SEED}, ${ROUNDS} requests per method (POWDER_FUZZ_SEED / POWDER_FUZZ_ROUNDS), ${(FUZZ_MS / 1000).toFixed(0)} s budget`);

// ---------------------------------------------------------------------------------------------
// Draws (test/rng.ts)

let rand = mulberry32(SEED);
const int = (n: number) => Math.floor(rand() * n);
const chance = (p: number) => rand() < p;
const pick = <T>(a: readonly T[]): T => a[int(a.length)];

// ---------------------------------------------------------------------------------------------
// JSON values as the fuzzer builds them: objects keep duplicate keys, numbers keep their text,
// strings may be written with \u escapes, and deep values are pre-written text.

class Num {
  constructor(readonly text: string) {}
}
class Obj {
  constructor(readonly entries: [string, J][]) {}
}
/** Pre-serialized JSON (deep nesting). `kind` is its JSON type. */
class Raw {
  constructor(
    readonly text: string,
    readonly kind: 'array' | 'object',
  ) {}
}
/** A string written with every non-alphanumeric character as a \u escape. */
class Escaped {
  constructor(readonly value: string) {}
}
type J = null | boolean | string | Num | Obj | Raw | Escaped | J[];

function ws(): string {
  return chance(0.1) ? pick([' ', '\n', '\t ', '\r\n  ']) : '';
}

function ser(v: J): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Num) return v.text;
  if (v instanceof Raw) return v.text;
  if (v instanceof Escaped) return '"' + [...v.value].map((c) => (/[A-Za-z0-9]/.test(c) ? c : [...c].map((u) => '\\u' + u.charCodeAt(0).toString(16).padStart(4, '0')).join(''))).join('') + '"';
  if (Array.isArray(v)) return `[${ws()}${v.map(ser).join(`,${ws()}`)}${ws()}]`;
  return `{${ws()}${v.entries.map(([k, x]) => `${JSON.stringify(k)}${ws()}:${ws()}${ser(x)}`).join(`,${ws()}`)}${ws()}}`;
}

/** A lone surrogate decodes to U+FFFD in Go. */
const wellFormed = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/** The Go (encoding/json) string value of a JSON string node. */
function strOf(v: J): string | undefined {
  if (typeof v === 'string') return wellFormed(v);
  if (v instanceof Escaped) return wellFormed(v.value);
  return undefined;
}

/** JSON kind as Go's UnmarshalTypeError names it. */
function kindOf(v: J): 'null' | 'bool' | 'number' | 'string' | 'array' | 'object' {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string' || v instanceof Escaped) return 'string';
  if (v instanceof Num) return 'number';
  if (v instanceof Raw) return v.kind;
  return Array.isArray(v) ? 'array' : 'object';
}

/** Go's json.Compact with HTML escaping: what a json.RawMessage is echoed as. Written
 *  independently of the node's code: a character-level state machine. */
function goCompact(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') {
        out += c + text[++i];
        continue;
      }
      if (c === '"') inString = false;
      out += c === '<' ? '\\u003c' : c === '>' ? '\\u003e' : c === '&' ? '\\u0026' : c === '\u2028' ? '\\u2028' : c === '\u2029' ? '\\u2029' : c;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (!' \t\r\n'.includes(c)) out += c;
  }
  return out;
}

/** A Go-encoded JSON string. */
const goString = (s: string) =>
  JSON.stringify(wellFormed(s)).replace(/[<>&\u2028\u2029]/g, (c) => ({ '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' })[c]!);

/** encoding/json's foldName for matching keys to ASCII field names. */
const fold = (k: string) => k.replace(/[a-z\u017f\u212a]/g, (c) => (c === '\u017f' ? 'S' : c === '\u212a' ? 'K' : c.toUpperCase()));

// ---------------------------------------------------------------------------------------------
// Random values

const LEVELS = ['verbo', 'debug', 'trace', 'info', 'warn', 'error', 'fatal', 'off'];
const DISPLAY_LEVELS = ['off', 'OFF', 'Off', 'fatal', 'FATAL'];
const NUMBERS = ['0', '-0', '1', '-1', '1.0', '1.50', '1e3', '1E-7', '-2.5e+10', '1e400', '-1e400', '9007199254740993', '123456789012345678901234567890', '18446744073709551616', '0.1', '3.141592653589793238462643383279'];
const UNICODE = ['\ud800', '\udc00', 'a\ud83d', '\ud83d\ude00', '\u0000', '\u2028', '\u2029', '\u00e9', '\u212a', '\u017f', '\ufeff', '\u200b', '\u202e', '\u0007', '\u001f', '\u007f', '<script>&amp;</script>', '"', '\\', '/', '..', '%2e', '%00', '{id}', '\n', '\t', 'ß', 'Ω', '日本語'];

let words: string[] = [];

function randomString(): string {
  switch (int(9)) {
    case 0:
      return '';
    case 1:
    case 2:
      return pick(words);
    case 3: {
      let s = '';
      const n = 1 + int(12);
      for (let i = 0; i < n; i++) s += pick(UNICODE);
      return s;
    }
    case 4: {
      // Long: up to a few hundred kilobytes, sometimes all base58 digits (the quadratic decode).
      const n = pick([600, 5000, 70_000, 300_000]);
      const body = pick(['z', '1', 'a', '\u00e9', 'NodeID-', '0']).repeat(n).slice(0, n);
      return chance(0.3) ? 'NodeID-' + body : body;
    }
    case 5:
      return pick(words) + pick(UNICODE) + pick(words);
    case 6:
      return 'NodeID-' + pick(['', 'x', 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', '111111111111111111116DBWJs', '7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg']);
    default: {
      let s = '';
      const n = int(20);
      for (let i = 0; i < n; i++) s += String.fromCharCode(32 + int(95));
      return s;
    }
  }
}

function deepRaw(): Raw {
  const d = pick([50, 1000, 9990]);
  if (chance(0.5)) return new Raw('['.repeat(d) + ']'.repeat(d), 'array');
  return new Raw('{"x":'.repeat(d) + 'null' + '}'.repeat(d), 'object');
}

function randomValue(depth = 0): J {
  switch (int(depth > 2 ? 6 : 9)) {
    case 0:
      return null;
    case 1:
      return chance(0.5);
    case 2:
      return new Num(pick(NUMBERS));
    case 3:
    case 4:
      return randomString();
    case 5:
      return new Escaped(randomString().slice(0, 40));
    case 6:
      return Array.from({ length: int(4) }, () => randomValue(depth + 1));
    case 7:
      return new Obj(Array.from({ length: int(4) }, () => [pick(words), randomValue(depth + 1)] as [string, J]));
    default:
      return deepRaw();
  }
}

// ---------------------------------------------------------------------------------------------
// Methods: their argument fields (Go types) and the model of their answers.

type Kind = 'string' | 'level' | 'displayLevel' | 'stringArray' | 'nodeIDArray' | 'alias' | 'endpoint' | 'chain';

interface Outcome {
  /** Exact result object, or a check of it. */
  result?: unknown;
  check?: (r: any) => void;
  /** Exact error message, or a pattern. */
  error?: string | RegExp;
}

interface MethodDef {
  path: () => string;
  name: string;
  fields: Record<string, Kind>;
  /** The answer (and the model's update) for decoded arguments. */
  run: (args: Record<string, unknown>) => Outcome;
  /** Whether a successful call has an effect worth rationing (profiles, dumps). */
  costly?: boolean;
}

const fieldValue = (k: Kind): J => {
  if (chance(0.35)) return randomValue();
  switch (k) {
    case 'level':
      return chance(0.8) ? pick(LEVELS).replace(/^./, (c) => (chance(0.5) ? c.toUpperCase() : c)) : pick(['', 'warning', 'all', 'INFO ', '3']);
    case 'displayLevel':
      return chance(0.85) ? pick(DISPLAY_LEVELS) : pick(['', 'debugg', 'none']);
    case 'stringArray':
      return Array.from({ length: int(4) }, () => (chance(0.15) ? null : chance(0.8) ? randomString().slice(0, 80) : randomValue()));
    case 'nodeIDArray':
      return Array.from({ length: int(3) }, () => (chance(0.15) ? null : chance(0.4) ? pick(words.filter((w) => w.startsWith('NodeID-'))) : randomValue()));
    case 'endpoint':
      return chance(0.6) ? pick(['info', 'health', 'admin', `bc/${chainID}`, 'bc/dev', 'not-yet']) : randomString();
    case 'chain':
      return chance(0.6) ? pick(['dev', chainID, ...chainAliases.keys()]) : randomString();
    case 'alias':
      return `${chance(0.7) ? 'fz' : randomString().slice(0, 600)}${pick(['', '/', '-', '/../', '..'])}-${++uniq}`;
    default:
      return randomString();
  }
};
let uniq = 0;

/** Random params for a method: every shape gorilla may be sent. */
function randomParams(m: MethodDef): J | undefined {
  const fieldObj = (): Obj => {
    const entries: [string, J][] = [];
    for (const [f, k] of Object.entries(m.fields)) {
      if (chance(0.2)) continue;
      const key = chance(0.8) ? f : pick([f.toUpperCase(), f.toLowerCase(), f.replace(/s/g, '\u017f'), f.replace(/k/g, '\u212a'), f + 'x', ' ' + f]);
      entries.push([key, fieldValue(k)]);
      if (chance(0.1)) entries.push([pick([f, f.toUpperCase()]), fieldValue(k)]); // duplicate key
    }
    if (chance(0.3)) entries.push([pick(words), randomValue()]);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [entries[i], entries[j]] = [entries[j], entries[i]];
    }
    return new Obj(entries);
  };
  switch (int(12)) {
    case 0:
      return undefined;
    case 1:
      return null;
    case 2:
      return pick([randomString(), new Num(pick(NUMBERS)), true, false]);
    case 3:
      return [fieldObj(), ...Array.from({ length: int(3) }, () => randomValue())];
    case 4:
      return pick([[], [null], [randomValue()], [new Obj([])]]);
    case 5:
      return deepRaw();
    default:
      return fieldObj();
  }
}

type Decoded = { ok: true; args: Record<string, unknown> } | { ok: false };

/** One field value as Go decodes it into the field's type (undefined: the decode fails). */
function decodeField(k: Kind, v: J): { value: unknown } | undefined {
  const s = strOf(v);
  switch (k) {
    case 'string':
    case 'alias':
    case 'endpoint':
    case 'chain':
      if (v === null) return { value: null }; // no change
      return s === undefined ? undefined : { value: s };
    case 'level':
    case 'displayLevel':
      if (v === null) return { value: undefined };
      return s !== undefined && LEVELS.includes(s.toLowerCase()) ? { value: s.toUpperCase() } : undefined;
    case 'stringArray':
    case 'nodeIDArray': {
      if (v === null) return { value: undefined };
      if (!Array.isArray(v)) return undefined;
      const out: string[] = [];
      for (const e of v) {
        if (e === null) {
          out.push(k === 'nodeIDArray' ? ZERO_NODE_ID : '');
          continue;
        }
        const es = strOf(e);
        if (es === undefined) return undefined;
        if (k === 'nodeIDArray' && !validNodeID(es)) return undefined;
        out.push(es);
      }
      return { value: out };
    }
  }
}

const ZERO_NODE_ID = 'NodeID-111111111111111111116DBWJs';

function validNodeID(s: string): boolean {
  if (s.length > 80) return false; // 20 bytes + checksum is at most 33 CB58 characters
  try {
    parseNodeID(s);
    return true;
  } catch {
    return false;
  }
}

/** gorilla json2 ReadRequest + AvalancheGo's wrapper, on the fuzzer's values. */
function decodeArgs(fields: Record<string, Kind>, params: J | undefined): Decoded {
  const zero = (): Record<string, unknown> => Object.fromEntries(Object.keys(fields).map((f) => [f, undefined]));
  const struct = (o: J): Decoded => {
    if (o === null) return { ok: true, args: zero() };
    if (o instanceof Raw) return o.kind === 'object' ? { ok: true, args: zero() } : { ok: false };
    if (!(o instanceof Obj)) return { ok: false };
    const args = zero();
    for (const [key, v] of o.entries) {
      const f = Object.keys(fields).find((x) => x === key) ?? Object.keys(fields).find((x) => fold(x) === fold(key));
      if (f === undefined) continue;
      const d = decodeField(fields[f], v);
      if (d === undefined) return { ok: false };
      if (d.value === null) continue; // null into a Go string: no change
      args[f] = d.value;
    }
    return { ok: true, args };
  };
  if (params === undefined || params === null) return { ok: true, args: zero() };
  if (params instanceof Obj || (params instanceof Raw && params.kind === 'object')) return struct(params);
  if (params instanceof Raw) return { ok: false }; // an array of arrays
  if (Array.isArray(params)) return params.length === 0 ? { ok: true, args: zero() } : struct(params[0]);
  return { ok: false };
}

// ---------------------------------------------------------------------------------------------
// The node and the model of its state

let t: TestNode;
let chainID: string;
let cwd: string;
let cwdTemp: string;
const uncaught: unknown[] = [];
const onUncaught = (e: unknown) => uncaught.push(e);

/** Chain aliases: alias → chain ID (ids.Aliaser), and each ID's list. */
const chainAliases = new Map<string, string>();
const aliasesOf = new Map<string, string[]>();
/** Logger name → [logLevel, displayLevel]. */
const loggerLevels = new Map<string, [string, string]>();
let cpuRunning = false;
const budget = { startCPUProfiler: 2, memoryProfile: 2, lockProfile: 3, stacktrace: 2, loadVMs: 6 };

/** The HTTP router as AvalancheGo's (avalanchego-node.md §3.2): routes[base][suffix], aliases[base], reserved. */
class RouterModel {
  routes = new Map<string, Map<string, object>>();
  aliases = new Map<string, string[]>();
  reserved = new Set<string>();
  /** Path → the handler gorilla/mux serves (the route registered first). */
  table = new Map<string, object>();

  private force(base: string, suffix: string, h: object): string | undefined {
    let first: string | undefined;
    let m = this.routes.get(base);
    if (!m) this.routes.set(base, (m = new Map()));
    if (m.has(suffix)) return `failed to create endpoint as ${base + suffix} already exists`;
    m.set(suffix, h);
    if (!this.table.has(base + suffix)) this.table.set(base + suffix, h);
    // Every alias gets the route even after an error (AvalancheGo's errs.Add keeps the first).
    for (const a of this.aliases.get(base) ?? []) {
      const e = this.force(a, suffix, h);
      first ??= e;
    }
    return first;
  }

  addAliases(endpoint: string, alias: string): string | undefined {
    const base = extURL(endpoint);
    const url = extURL(alias);
    if (this.reserved.has(url)) return `route is either already aliased or already maps to a handle: ${url}`;
    this.reserved.add(url);
    this.aliases.set(base, [...(this.aliases.get(base) ?? []), url]);
    let first: string | undefined;
    for (const [suffix, h] of this.routes.get(base) ?? []) {
      const e = this.force(url, suffix, h);
      first ??= e;
    }
    return first;
  }
}
let router: RouterModel;

/** AvalancheGo's AddAliases builds `/ext/` + the path as given (fmt.Sprintf, not path.Join). */
const extURL = (p: string): string => '/ext/' + p;

/** Go's path.Clean (the test's own). */
function goClean(p: string): string {
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg !== '..') out.push(seg);
    else if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else if (!rooted) out.push('..');
  }
  const body = out.join('/');
  return rooted ? '/' + body : body || '.';
}

/** Go's path.Join("bc", alias), as admin.aliasChain makes a chain alias's path. */
const bcJoin = (alias: string): string => goClean('bc/' + alias);

/** A request reaches `url` only if gorilla/mux would not redirect it (clean, trailing slash kept). */
const reachable = (url: string): boolean => {
  let c = goClean(url);
  if (url.endsWith('/') && c !== '/') c += '/';
  return c === url;
};

/** Aliases set through the API that must still route after the fuzz. */
const liveAliases: { url: string; endpoint: string }[] = [];
const liveChainAliases: string[] = [];
const baseline: Record<string, unknown> = {};

const ok = (result: unknown): Outcome => ({ result });
const err = (error: string | RegExp): Outcome => ({ error });

function levelsOf(names: string[]): unknown {
  const out: Record<string, unknown> = {};
  for (const n of [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))) {
    const [logLevel, displayLevel] = loggerLevels.get(n)!;
    out[n] = { logLevel, displayLevel };
  }
  return { loggerLevels: out };
}
const loggerNotFound = /^logger with name ".*" not found$/s;
const str = (v: unknown) => (v === undefined ? '' : (v as string));

const reportShape = (r: any) => {
  assert.equal(typeof r.healthy, 'boolean');
  assert.equal(typeof r.checks, 'object');
};

const METHODS: MethodDef[] = [];
const info = () => `/ext/info`;
const admin = () => `/ext/admin`;
for (const m of ['getNodeID', 'getNodeIP', 'getNodeVersion', 'getNetworkID', 'getNetworkName', 'upgrades', 'uptime', 'acps', 'getTxFee', 'getVMs']) {
  METHODS.push({ path: info, name: `info.${m}`, fields: {}, run: () => ok(baseline[m]) });
}
METHODS.push(
  {
    path: info,
    name: 'info.getBlockchainID',
    fields: { alias: 'string' },
    run: ({ alias }) => {
      const id = chainAliases.get(str(alias));
      return id ? ok({ blockchainID: id }) : err(`there is no ID with alias: ${str(alias)}`);
    },
  },
  {
    path: info,
    name: 'info.isBootstrapped',
    fields: { chain: 'string' },
    run: ({ chain }) => {
      if (str(chain) === '') return err("argument 'chain' not given");
      return chainAliases.has(str(chain)) ? ok({ isBootstrapped: true }) : err(`there is no chain with alias/ID '${str(chain)}'`);
    },
  },
  { path: info, name: 'info.peers', fields: { nodeIDs: 'nodeIDArray' }, run: () => ok({ numPeers: '0', peers: [] }) },
  { path: () => '/ext/health', name: 'health.health', fields: { tags: 'stringArray' }, run: () => ({ check: reportShape }) },
  { path: () => '/ext/health', name: 'health.readiness', fields: { tags: 'stringArray' }, run: () => ({ check: reportShape }) },
  { path: () => '/ext/health', name: 'health.liveness', fields: { tags: 'stringArray' }, run: () => ok({ checks: {}, healthy: true }) },
  {
    path: () => '/ext/bc/dev/validators',
    name: 'validators.getCurrentValidators',
    fields: { nodeIDs: 'nodeIDArray' },
    run: ({ nodeIDs }) => {
      const wanted = nodeIDs as string[] | undefined;
      const n = !wanted || wanted.length === 0 || wanted.includes(t.node.nodeID) ? 1 : 0;
      return {
        check: (r) => {
          assert.equal(r.validators.length, n);
          if (n) assert.equal(r.validators[0].nodeID, t.node.nodeID);
        },
      };
    },
  },
  {
    path: admin,
    name: 'admin.alias',
    fields: { endpoint: 'endpoint', alias: 'alias' },
    run: ({ endpoint, alias }) => {
      if (Buffer.byteLength(str(alias)) > 512) return err('alias length is too long');
      const e = router.addAliases(str(endpoint), str(alias));
      if (e === undefined) liveAliases.push({ url: extURL(str(alias)), endpoint: str(endpoint) });
      return e === undefined ? ok({}) : err(e);
    },
  },
  {
    path: admin,
    name: 'admin.aliasChain',
    fields: { chain: 'chain', alias: 'alias' },
    run: ({ chain, alias }) => {
      const a = str(alias);
      if (Buffer.byteLength(a) > 512) return err('alias length is too long');
      const id = chainAliases.get(str(chain));
      if (id === undefined) return err(`there is no ID with alias: ${str(chain)}`);
      if (chainAliases.has(a)) return err(`alias already mapped to an ID: ${a}`);
      chainAliases.set(a, id);
      aliasesOf.get(id)!.push(a);
      const e = router.addAliases(`bc/${id}`, bcJoin(a));
      if (e === undefined) liveChainAliases.push(a);
      return e === undefined ? ok({}) : err(e);
    },
  },
  {
    path: admin,
    name: 'admin.getChainAliases',
    fields: { chain: 'chain' },
    run: ({ chain }) => {
      const c = str(chain);
      if (c.length <= 5000) {
        try {
          parseID(c); // the ids module's own decode is the oracle where it is quick
        } catch (e) {
          return err((e as Error).message);
        }
      } else {
        return err(/^(invalid input checksum|base58 decoding error: (Invalid base58 digit \('.+'\)|High-bit set on invalid digit)|invalid hash length: expected 32 bytes but got \d+)$/su);
      }
      return ok({ aliases: aliasesOf.get(c) ?? null });
    },
  },
  {
    path: admin,
    name: 'admin.getLoggerLevel',
    fields: { loggerName: 'string' },
    run: ({ loggerName }) => {
      const n = str(loggerName);
      if (n === '') return ok(levelsOf([...loggerLevels.keys()]));
      return loggerLevels.has(n) ? ok(levelsOf([n])) : err(loggerNotFound);
    },
  },
  {
    path: admin,
    name: 'admin.setLoggerLevel',
    fields: { loggerName: 'string', logLevel: 'level', displayLevel: 'displayLevel' },
    run: ({ loggerName, logLevel, displayLevel }) => {
      if (logLevel === undefined && displayLevel === undefined) return err('need to specify either displayLevel or logLevel');
      const n = str(loggerName);
      if (n !== '' && !loggerLevels.has(n)) return err(loggerNotFound);
      const names = n === '' ? [...loggerLevels.keys()] : [n];
      for (const x of names) {
        const l = loggerLevels.get(x)!;
        loggerLevels.set(x, [(logLevel as string) ?? l[0], (displayLevel as string) ?? l[1]]);
      }
      return ok(levelsOf(names));
    },
  },
  {
    path: admin,
    name: 'admin.startCPUProfiler',
    fields: {},
    costly: true,
    run: () => {
      if (cpuRunning) return err('cpu profiler already running');
      cpuRunning = true;
      return ok({});
    },
  },
  {
    path: admin,
    name: 'admin.stopCPUProfiler',
    fields: {},
    run: () => {
      if (!cpuRunning) return err("cpu profiler doesn't exist");
      cpuRunning = false;
      return ok({});
    },
  },
  { path: admin, name: 'admin.memoryProfile', fields: {}, costly: true, run: () => ok({}) },
  { path: admin, name: 'admin.lockProfile', fields: {}, costly: true, run: () => ok({}) },
  { path: admin, name: 'admin.stacktrace', fields: {}, costly: true, run: () => ok({}) },
  { path: admin, name: 'admin.loadVMs', fields: {}, costly: true, run: () => ok({ newVMs: {} }) },
  {
    path: admin,
    name: 'admin.getConfig',
    fields: {},
    run: () => ({ check: (r) => assert.equal(r.httpConfig.apiConfig.adminAPIEnabled, true) }),
  },
  {
    path: admin,
    name: 'admin.dbGet',
    fields: { key: 'string' },
    run: ({ key }) => {
      const k = str(key);
      if (k !== '' && !k.startsWith('0x')) return err('missing 0x prefix to hex encoding');
      if (/^0x([0-9a-fA-F]{2})*$/.test(k) || k === '') {
        return { check: (r) => assert.ok((r.errorCode === 2 && r.value === '') || (r.errorCode === 0 && /^0x[0-9a-f]*$/.test(r.value)), JSON.stringify(r)) };
      }
      return err(/^encoding\/hex: (odd length hex string|invalid byte: U\+[0-9A-F]{4}( '.')?)$/su);
    },
  },
);

// ---------------------------------------------------------------------------------------------
// HTTP

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(path: string, body: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }, method = 'POST'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(t.url + path, { method, headers: { 'content-length': String(Buffer.byteLength(body)), ...headers }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer within 30 s: ${method} ${path}`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** JavaScript internals that must never reach a client. */
const LEAK = /Cannot read propert|is not a function|is not iterable|of undefined|of null|Maximum call stack|Invalid array length|Do not know how to serialize|Cannot convert|Cannot mix BigInt|RangeError|TypeError|SyntaxError: Unexpected|at .*\.js:\d+|Unexpected token|in JSON at position/;

/** The checks every gorilla JSON answer gets: status, headers, Go's encoding, the envelope's shape. */
function checkJSONAnswer(a: Answer): any {
  assert.equal(a.status, 200);
  assert.equal(a.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(a.headers['x-content-type-options'], 'nosniff');
  assert.equal(a.headers['node-id'], t.node.nodeID);
  assert.ok(a.body.endsWith('}\n'), 'one JSON object and a newline');
  assert.doesNotMatch(a.body, /[<>&\u2028\u2029]/, 'Go escapes <, >, & and U+2028/9');
  const r = JSON.parse(a.body);
  assert.equal(r.jsonrpc, '2.0');
  if ('error' in r) {
    assert.deepEqual(Object.keys(r), ['jsonrpc', 'error', 'id']);
    assert.deepEqual(Object.keys(r.error), ['code', 'message', 'data']);
    assert.ok(Number.isInteger(r.error.code), 'integer code');
    assert.equal(typeof r.error.message, 'string');
    assert.doesNotMatch(r.error.message, LEAK);
  } else {
    assert.deepEqual(Object.keys(r), ['jsonrpc', 'result', 'id']);
    assert.notEqual(r.result, null);
  }
  return r;
}

const failures: string[] = [];
/** An answer slower than this held the event loop (the slowest legitimate one, a 300 kB ID decoded
 *  exactly, takes ~0.1 s; the quadratic decode it replaced took ~30 s). */
const SLOW_MS = 5000;
const short = (s: string) => (s.length > 400 ? `${s.slice(0, 300)}…(${s.length} chars)…${s.slice(-80)}` : s);

/** The request envelope as the fuzzer sends it: members in a random order, some twice, some odd. */
function randomRequest(m: MethodDef): { text: string } {
  const id: J | undefined = chance(0.12)
    ? undefined
    : chance(0.5)
      ? new Num(String(int(1000)))
      : pick<J>([null, new Num(pick(NUMBERS)), randomString().slice(0, 50), new Escaped('a<b>&' + randomString().slice(0, 10)), [new Num('1'), 'x', null], new Obj([['a', [true]], ['a', new Num('1')]]), true, false, new Raw('['.repeat(500) + ']'.repeat(500), 'array')]);
  const jsonrpc: J | undefined = chance(0.93) ? '2.0' : pick<J>([undefined as never, '1.0', new Num('2.0'), null, '2.00', new Escaped('2.0')]);
  const method: J | undefined = chance(0.9)
    ? chance(0.1)
      ? new Escaped(m.name)
      : m.name
    : pick<J>([m.name.replace('.', '.X'), m.name.toUpperCase(), m.name + '.x', m.name.split('.')[1], '', null, new Num('5'), [m.name], 'x'.repeat(100_000), `${m.name.split('.')[0]}.${'q'.repeat(50_000)}`]);
  const params = randomParams(m);
  const members: [string, J][] = [];
  if (jsonrpc !== undefined) members.push([chance(0.9) ? 'jsonrpc' : pick(['JSONRPC', 'JsonRpc']), jsonrpc]);
  if (method !== undefined) members.push([chance(0.9) ? 'method' : pick(['Method', 'METHOD']), method]);
  if (params !== undefined) members.push([chance(0.9) ? 'params' : pick(['Params', 'param\u017f']), params]);
  if (id !== undefined) members.push([chance(0.9) ? 'id' : 'ID', id]);
  if (chance(0.1)) members.push([pick(['extra', 'result', 'error']), randomValue()]);
  if (chance(0.05) && id !== undefined) members.unshift(['id', new Num('999')]); // a duplicate: the last one counts
  for (let i = members.length - 1; i > 0; i--) {
    if (!chance(0.3)) continue;
    const j = int(i + 1);
    [members[i], members[j]] = [members[j], members[i]];
  }
  return { text: ser(new Obj(members)) };
}

interface Expected {
  /** The exact body, when the answer does not depend on the method running. */
  body?: string;
  notify: boolean;
  /** The method runs, with these arguments. */
  def?: MethodDef;
  args?: Record<string, unknown>;
}

/** What AvalancheGo answers to a request: its exact body text, or the method to run. */
function expected(m: MethodDef, text: string): Expected {
  // Envelope (json2.serverRequest): members in order, the last of each key wins, null clears.
  const env = { jsonrpc: '', method: '', params: undefined as J | undefined, id: undefined as J | undefined, paramsText: 'null', idText: 'null' };
  let typeError: string | undefined;
  // The members as sent, duplicates included (the test's own scanner).
  const members = membersOf(text);
  for (const [key, v, raw] of members) {
    const f = fold(key);
    if (f === 'JSONRPC' || f === 'METHOD') {
      if (v === null) continue;
      const s = strOf(v);
      if (s === undefined) {
        typeError ??= `json: cannot unmarshal ${kindOf(v)} into Go struct field serverRequest.${f === 'JSONRPC' ? 'jsonrpc' : 'method'} of type string`;
        continue;
      }
      if (f === 'JSONRPC') env.jsonrpc = s;
      else env.method = s;
    } else if (f === 'PARAMS') {
      env.params = v === null ? undefined : v;
      env.paramsText = v === null ? 'null' : goCompact(raw);
    } else if (f === 'ID') {
      env.id = v === null ? undefined : v;
      env.idText = v === null ? 'null' : goCompact(raw);
    }
  }
  const echo = `{"jsonrpc":${goString(env.jsonrpc)},"method":${goString(env.method)},"params":${env.paramsText},"id":${env.idText}}`;
  const errorBody = (code: number, message: string, data = 'null') => `{"jsonrpc":"2.0","error":{"code":${code},"message":${goString(message)},"data":${data}},"id":${env.idText}}\n`;
  const notify = env.id === undefined;
  if (typeError) return { body: errorBody(-32700, typeError, echo), notify: false };
  if (env.jsonrpc !== '2.0') return { body: notify ? '' : errorBody(-32600, 'jsonrpc must be 2.0', echo), notify };
  const fail = (message: string): Expected => ({ body: notify ? '' : errorBody(-32000, message), notify });
  // Method name (utils/json codec + gorilla map).
  let name = env.method;
  const dot = name.indexOf('.');
  if (dot >= 0 && dot < name.length - 1) {
    const first = String.fromCodePoint(name.codePointAt(dot + 1)!);
    if (/^\p{Lu}$/u.test(first)) return fail('method must start with a non-uppercase letter');
    const up = first.toUpperCase();
    name = name.slice(0, dot + 1) + ([...up].length === 1 ? up : first) + name.slice(dot + 1 + first.length);
  }
  const parts = name.split('.');
  const q = (s: string) => JSON.stringify(s); // %q of the names the fuzzer sends (printable ASCII)
  if (parts.length !== 2) return fail(`rpc: service/method request ill-formed: ${q(name)}`);
  const [svc, meth] = parts;
  const target = m.name.split('.');
  if (svc !== target[0]) return fail(`rpc: can't find service ${q(name)}`);
  const wire = (x: MethodDef) => x.name.split('.')[1];
  const def = METHODS.find((x) => x.path() === m.path() && wire(x)[0].toUpperCase() + wire(x).slice(1) === meth);
  if (!def) return fail(`rpc: can't find method ${q(name)}`);
  const args = decodeArgs(def.fields, env.params);
  if (!args.ok) return fail(UNMARSHAL_ERROR);
  return { notify, def, args: args.args };
}

/** Top-level members of the request object: [key, value as built, raw text]. Recomputed from the
 *  text with a tiny scanner (the test's own, not the node's). */
function membersOf(text: string, depth = 0): [string, J, string][] {
  const out: [string, J, string][] = [];
  let i = 1;
  const skipWs = () => {
    while (' \t\r\n'.includes(text[i]) && i < text.length) i++;
  };
  const skipValue = () => {
    const start = i;
    let depth = 0;
    let inStr = false;
    for (; i < text.length; i++) {
      const c = text[i];
      if (inStr) {
        if (c === '\\') i++;
        else if (c === '"') {
          inStr = false;
          if (depth === 0) {
            i++;
            break;
          }
        }
      } else if (c === '"') inStr = true;
      else if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') {
        if (depth === 0) break;
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      } else if (depth === 0 && (c === ',' || ' \t\r\n'.includes(c))) break;
    }
    return text.slice(start, i);
  };
  skipWs();
  while (text[i] !== '}') {
    const k = skipValue();
    skipWs();
    i++; // ':'
    skipWs();
    const raw = skipValue();
    out.push([JSON.parse(k), fromText(raw, depth), raw]);
    skipWs();
    if (text[i] === ',') i++;
    skipWs();
  }
  return out;
}

/** A member's value back as a fuzzer value (objects keep their duplicates). Past the depth any
 *  decode looks at (params → element → field → element), a value is kept as text of its kind. */
function fromText(raw: string, depth = 0): J {
  const c = raw[0];
  if (c === '"') return JSON.parse(raw) as string;
  if (c === 't' || c === 'f') return raw === 'true';
  if (c === 'n') return null;
  if (c === '[' || c === '{') {
    if (depth >= 4) return new Raw(raw, c === '[' ? 'array' : 'object');
    if (c === '{') return new Obj(membersOf(raw, depth + 1).map(([k, v]) => [k, v]));
    const wrapped = `{${splitTop(raw.slice(1, -1)).map((e, i) => `"${i}":${e}`).join(',')}}`;
    return membersOf(wrapped, depth + 1).map(([, v]) => v);
  }
  return new Num(raw);
}

function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inStr = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inStr) {
      if (c === '\\') i++;
      else if (c === '"') inStr = false;
    } else if (c === '"') inStr = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  if (s.trim() !== '') out.push(s.slice(start));
  return out.map((x) => x.trim());
}

// ---------------------------------------------------------------------------------------------

// The suite's timeout is only a backstop past the fuzz test's own (+ 120 s for the other tests):
// when a suite times out, node:test runs its `after` hook (which stops the node) at once while the
// timed-out test and the next one still run, so they all see ECONNREFUSED, as if a request had
// stopped the node. The fuzz test times out alone instead, and its loop stops at the abort.
describe('node APIs under seeded fuzzing', { timeout: FUZZ_MS + 120_000 }, () => {
  before(async () => {
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUncaught);
    // admin.stacktrace writes stacktrace.txt in the working directory: a temp one.
    cwd = process.cwd();
    cwdTemp = mkdtempSync(join(tmpdir(), 'powder-fuzz-cwd-'));
    process.chdir(cwdTemp);
    t = await startTestNode({ 'api-admin-enabled': true });
    chainID = t.node.chains.aliaser.lookup('dev');
    for (const id of t.node.chains.aliaser.ids()) {
      const list = t.node.chains.aliaser.aliases(id)!;
      aliasesOf.set(id, list);
      for (const a of list) chainAliases.set(a, id);
    }
    for (const n of t.node.logs.names()) {
      const l = t.node.logs.get(n);
      const names = ['VERBO', 'DEBUG', 'TRACE', 'INFO', 'WARN', 'ERROR', 'FATAL', 'OFF'];
      loggerLevels.set(n, [names[l.logLevel], names[l.displayLevel]]);
    }
    // The router's starting state (its routes and aliases); from here on the model predicts it.
    const r = t.node.router as unknown as { routes: Map<string, Map<string, object>>; aliases: Map<string, string[]>; reserved: Set<string>; table: Map<string, object> };
    router = new RouterModel();
    for (const [b, m] of r.routes) router.routes.set(b, new Map(m));
    for (const [b, a] of r.aliases) router.aliases.set(b, [...a]);
    for (const u of r.reserved) router.reserved.add(u);
    for (const [p, h] of r.table) router.table.set(p, h);
    for (const m of ['getNodeID', 'getNodeIP', 'getNodeVersion', 'getNetworkID', 'getNetworkName', 'upgrades', 'uptime', 'acps', 'getTxFee', 'getVMs']) {
      baseline[m] = JSON.parse((await send('/ext/info', JSON.stringify({ jsonrpc: '2.0', id: 1, method: `info.${m}` }))).body).result;
    }
    words = ['dev', chainID, 'C', 'X', 'P', 'main', 'vm-factory', 'info', 'health', 'admin', 'metrics', 'bc/dev', `bc/${chainID}`, 'endpoint', 'alias', 'chain', 'loggerName', 'tags', 'nodeIDs', 'key', '0x', '0x00', '0xabc', '0xzz', '0x6865616c7468', '__proto__', 'constructor', 'toString', 'hasOwnProperty', t.node.nodeID, ZERO_NODE_ID, 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg', '11111111111111111111111111111111LpoYY', cb58Encode(new Uint8Array(40)), 'x', 'fz'];
  });

  // Raw connections a failed test left open are closed.
  afterEach(() => destroyOpened());

  after(async () => {
    try {
      await t.stop();
    } finally {
      agent.destroy();
      process.chdir(cwd);
      rmSync(cwdTemp, { recursive: true, force: true });
      process.off('uncaughtException', onUncaught);
      process.off('unhandledRejection', onUncaught);
    }
  });

  test('every method of every node API: seeded params, each answer as AvalancheGo gives it', { timeout: FUZZ_MS }, async (ctx) => {
    const started = performance.now();
    let sent = 0;
    let previous = '(none)';
    if (ONLY) assert.deepEqual([...ONLY].filter((n) => !METHODS.some((m) => m.name === n)), [], 'POWDER_FUZZ_METHODS: unknown method names');
    for (const m of METHODS) {
      if (ONLY && !ONLY.has(m.name)) continue;
      rand = mulberry32(SEED ^ hash(m.name)); // each method its own stream: one can be replayed alone
      for (let round = 0; round < ROUNDS; round++) {
        // Timed out: stop sending (node:test does not stop a test's code; the next tests need the node).
        if (ctx.signal.aborted) return;
        let text = randomRequest(m).text;
        let exp = expected(m, text);
        let outcome: Outcome | undefined;
        if (exp.def) {
          // Ration the calls that write profiles or dumps: past the budget, invalid params instead.
          const b = budget as Record<string, number>;
          const key = exp.def.name.split('.')[1];
          if (exp.def.costly && b[key] !== undefined && !(key === 'startCPUProfiler' && cpuRunning)) {
            if (b[key] <= 0) {
              text = JSON.stringify({ jsonrpc: '2.0', id: round, method: m.name, params: pick([5, 'x', true, [5]]) });
              exp = expected(m, text);
            } else b[key]--;
          }
          if (exp.def) outcome = exp.def.run(exp.args!);
        }
        sent++;
        let a: Answer;
        const askedAt = performance.now();
        try {
          a = await send(m.path(), text);
          // Nothing may hold the node: an answer that took seconds held every other client too.
          const ms = performance.now() - askedAt;
          if (ms > SLOW_MS) failures.push(`${m.name} round ${round}: answered after ${ms.toFixed(0)} ms (the event loop was held) to ${short(text)}`);
        } catch (e) {
          // Nothing listens any more: say so at once, with the request before (it may be the cause).
          if ((e as NodeJS.ErrnoException).code === 'ECONNREFUSED') {
            assert.fail(`the node stopped listening (node.stopped: ${t.node.stopped}) at ${m.name} round ${round}; the request before: ${short(previous)}`);
          }
          failures.push(`${m.name}: no answer (${(e as Error).message}) to ${short(text)}`);
          continue;
        } finally {
          previous = `${m.name} round ${round}: ${text}`;
        }
        try {
          if (exp.notify && (exp.def || exp.body === '')) {
            assert.equal(a.status, 200);
            assert.equal(a.body, '');
            assert.equal(a.headers['content-length'], '0');
            continue;
          }
          const r = checkJSONAnswer(a);
          if (exp.body !== undefined) {
            assert.equal(a.body, exp.body);
            continue;
          }
          const idText = membersOf(text).filter(([k]) => fold(k) === 'ID').at(-1)![2];
          assert.ok(a.body.endsWith(`,"id":${goCompact(idText)}}\n`), `id echoed as sent (${short(goCompact(idText))})`);
          if (outcome!.error !== undefined) {
            assert.ok(r.error, `expected an error, got ${short(a.body)}`);
            assert.equal(r.error.code, -32000);
            assert.equal(r.error.data, null);
            if (typeof outcome!.error === 'string') assert.equal(r.error.message, wellFormed(outcome!.error));
            else assert.match(r.error.message, outcome!.error);
          } else {
            assert.ok(!r.error, `expected a result, got ${short(a.body)}`);
            if (outcome!.check) outcome!.check(r.result);
            else assert.deepEqual(r.result, outcome!.result);
          }
        } catch (e) {
          failures.push(`${m.name} round ${round}: ${short((e as Error).message)}\n    request: ${short(text)}\n    answer: ${a.status} ${short(a.body)}`);
        }
      }
      // The node still answers after each method's batch.
      const alive = JSON.parse((await send('/ext/info', '{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}')).body);
      assert.equal(alive.result.nodeID, t.node.nodeID, `alive after ${m.name}`);
    }
    console.log(`# fuzzNodeApis: ${sent} requests in ${((performance.now() - started) / 1000).toFixed(1)} s, ${failures.length} mismatches`);
    assert.deepEqual(failures.slice(0, 15), [], `${failures.length} mismatches (seed ${SEED})`);
  });

  // -------------------------------------------------------------------------------------------
  // The HTTP layer: raw bytes on the wire.

  const port = () => Number(new URL(t.url).port);
  const TEXT_405 = (m: string) => `rpc: POST method required, received ${m}`;
  const header = (r: Resp, name: string) => r.headers.find(([n]) => n.toLowerCase() === name)?.[1];
  const json = (r: Resp) => JSON.parse(r.body);
  const EMPTY = { jsonrpc: '', method: '', params: null, id: null };

  test('raw HTTP: bodies that are not JSON, truncated or garbage: -32700, HTTP 200, id null', async () => {
    const w = await Wire.open(port());
    const cases: [string, string | RegExp][] = [
      ['', 'EOF'],
      ['   \r\n\t', 'EOF'],
      ['xyz', "invalid character 'x' looking for beginning of value"],
      ['{"jsonrpc":"2.0","id":1,', 'unexpected EOF'],
      ['{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"', 'unexpected EOF'],
      ['{"jsonrpc":"2.0","id":1,"method":"info.getNodeID","params":{"a":"b}', 'unexpected EOF'],
      ['{"jsonrpc" "2.0"}', "invalid character '\"' after object key"],
      ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
      ['[1 2]', 'invalid character \'2\' after array element'],
      ['{,}', "invalid character ',' looking for beginning of object key string"],
      ['"\\x"', "invalid character 'x' in string escape code"],
      ['\u00ff\u00fe', "invalid character 'Ã' looking for beginning of value"],
      // Go's scanner's own contexts (encoding/json/scanner.go), not V8's reading of the text:
      ['tr8ue', "invalid character '8' in literal true (expecting 'u')"],
      ['{"id":nul}', "invalid character '}' in literal null (expecting 'l')"],
      ['{"id":1.}', "invalid character '}' after decimal point in numeric literal"],
      ['{"id":1e}', "invalid character '}' in exponent of numeric literal"],
      ['{"id":-x}', "invalid character 'x' in numeric literal"],
      ['{"id":"\\u12x4"}', "invalid character 'x' in \\u hexadecimal character escape"],
      ['[1,]', "invalid character ']' looking for beginning of value"],
      ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
      ['[', 'unexpected EOF'],
      ['{"a":' + '['.repeat(10_001) + ']'.repeat(10_001) + '}', 'exceeded max depth'],
    ];
    for (const [body, message] of cases) {
      await w.write(wirePost('/ext/info', body));
      const [r] = await w.read(1);
      assert.equal(r.status, 200, body.slice(0, 40));
      const e = json(r);
      assert.equal(e.id, null);
      assert.equal(e.error.code, -32700);
      assert.deepEqual(e.error.data, EMPTY);
      if (typeof message === 'string') assert.equal(e.error.message, message, body.slice(0, 40));
      else assert.match(e.error.message, message);
    }
    // Bytes that are not UTF-8: Go quotes the byte itself (as the rune U+0080–U+00FF).
    for (const [bytes, message] of [
      [[0x80], "invalid character '\\u0080' looking for beginning of value"],
      [[0xff, 0x7b], "invalid character 'ÿ' looking for beginning of value"],
      [[0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x20, 0xfe], "invalid character 'þ' after object key:value pair"],
    ] as const) {
      const b = Buffer.from(bytes);
      await w.write(Buffer.concat([Buffer.from(`POST /ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${b.length}\r\n\r\n`), b]));
      assert.equal(json((await w.read(1))[0]).error.message, message);
    }
    // A top-level value Go reads whole before V8 would refuse the text: `01` is 0, then ignored bytes.
    await w.write(wirePost('/ext/info', '01'));
    assert.equal(json((await w.read(1))[0]).error.message, 'json: cannot unmarshal number into Go value of type json2.serverRequest');
    // Random bytes: each a -32700 with a Go-style message, never a JavaScript one.
    const r8 = mulberry32(SEED);
    for (let i = 0; i < 60; i++) {
      const b = Buffer.alloc(1 + Math.floor(r8() * 300));
      for (let j = 0; j < b.length; j++) b[j] = Math.floor(r8() * 256);
      if (b[0] === 0x20 || b[0] === 0x09 || b[0] === 0x0a || b[0] === 0x0d) b[0] = 0x21;
      await w.write(Buffer.concat([Buffer.from(`POST /ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${b.length}\r\n\r\n`), b]));
      const [r] = await w.read(1);
      const e = json(r);
      assert.ok(e.error.code === -32700 || e.error.code === -32600 || e.error.code === -32000, r.body);
      assert.doesNotMatch(e.error.message, LEAK);
    }
    w.destroy();
  });

  test('raw HTTP: batches are refused as one -32700 (empty, garbage, huge)', async () => {
    const BATCH = 'json: cannot unmarshal array into Go value of type json2.serverRequest';
    const huge = '[' + Array.from({ length: 20_000 }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"info.getNodeID"}`).join(',') + ']';
    for (const [body, message] of [
      ['[]', BATCH],
      ['[1,"x",null]', BATCH],
      [huge, BATCH],
      ['[{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"},', 'unexpected EOF'],
    ]) {
      const a = await send('/ext/info', body);
      assert.equal(a.status, 200);
      assert.deepEqual(JSON.parse(a.body), { jsonrpc: '2.0', error: { code: -32700, message, data: EMPTY }, id: null });
    }
  });

  test('raw HTTP: Content-Type, methods, OPTIONS, HEAD', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}';
    for (const [ct, status, text] of [
      [undefined, 415, 'rpc: unrecognized Content-Type: '],
      ['text/plain', 415, 'rpc: unrecognized Content-Type: text/plain'],
      ['application/jsonx', 415, 'rpc: unrecognized Content-Type: application/jsonx'],
      ['application/json ; charset=utf-8', 415, 'rpc: unrecognized Content-Type: application/json '],
      ['multipart/form-data; boundary=x', 415, 'rpc: unrecognized Content-Type: multipart/form-data'],
      ['APPLICATION/JSON;charset=latin1', 200, undefined],
    ] as const) {
      for (const path of ['/ext/info', '/ext/admin', '/ext/health', '/ext/bc/dev/validators']) {
        const a = await send(path, body, ct === undefined ? {} : { 'content-type': ct });
        assert.equal(a.status, status, `${path} ${ct}`);
        if (text !== undefined) {
          assert.equal(a.body, text);
          assert.equal(a.headers['content-type'], 'text/plain; charset=utf-8');
        }
      }
    }
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND']) {
      for (const path of ['/ext/info', '/ext/admin', '/ext/bc/dev/validators']) {
        const a = await send(path, method === 'GET' || method === 'HEAD' ? '' : body, { 'content-type': 'application/json' }, method);
        assert.equal(a.status, 405, `${method} ${path}`);
        if (method !== 'HEAD') assert.equal(a.body, TEXT_405(method));
      }
    }
    // /ext/health answers GET itself; its sub-routes answer any method.
    const g = await send('/ext/health', '', {}, 'GET');
    assert.ok(g.status === 200 || g.status === 503);
    assert.equal(typeof JSON.parse(g.body).healthy, 'boolean');
    assert.equal((await send('/ext/health', body, { 'content-type': 'application/json' }, 'PUT')).status, 405);
    const live = await send('/ext/health/liveness', 'not json at all', {}, 'DELETE');
    assert.equal(live.body, '{"checks":{},"healthy":true}\n');
    // A CORS preflight is answered before the route.
    const pre = await send('/ext/info', '', { origin: 'http://x.example', 'access-control-request-method': 'POST' }, 'OPTIONS');
    assert.equal(pre.status, 200);
    assert.equal(pre.body, '');
  });

  test('raw HTTP: chunked bodies, pipelined requests and an Expect: 100-continue on one connection', async () => {
    const w = await Wire.open(port());
    const call = (id: number, method = 'info.getNetworkID') => `{"jsonrpc":"2.0","id":${id},"method":"${method}"}`;
    const reqs = [
      wirePost('/ext/info', call(1)),
      chunkedPost('/ext/info', call(2), 4),
      wirePost('/ext/info', 'garbage'),
      'GET /ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      wirePost('/ext/nope', call(3)),
      wirePost('/ext/admin', call(4, 'admin.getLoggerLevel')),
      wirePost('/ext//info', call(5)),
      chunkedPost('/ext/bc/dev/validators', call(6, 'validators.getCurrentValidators'), 2),
      wirePost('/ext/info', '{"jsonrpc":"2.0","method":"info.getNodeID"}'), // notification: empty 200
      wirePost('/ext/info', call(7), 'Expect: 100-continue\r\n'),
      wirePost('/ext/info', call(8)),
    ];
    await w.write(reqs.join(''));
    const rs = await w.read(reqs.length + 1); // + the interim 100 Continue
    const finals = rs.filter((r) => r.status !== 100);
    assert.deepEqual(finals.map((r) => r.status), [200, 200, 200, 405, 404, 200, 301, 200, 200, 200, 200]);
    assert.equal(json(finals[0]).id, 1);
    assert.equal(json(finals[1]).id, 2);
    assert.equal(json(finals[2]).error.code, -32700);
    assert.equal(finals[3].body, TEXT_405('GET'));
    assert.equal(finals[4].body, '404 page not found\n');
    assert.equal(json(finals[5]).id, 4);
    assert.equal(header(finals[6], 'location'), '/ext/info');
    assert.equal(json(finals[7]).result.validators.length, 1);
    assert.equal(finals[8].body, '');
    assert.equal(json(finals[9]).id, 7);
    assert.equal(json(finals[10]).id, 8);
    // A chunked body with a bad chunk size: HTTP 400, connection closed; the node still serves.
    const bad = await Wire.open(port());
    await bad.write('POST /ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n');
    const [b400] = await bad.read(1);
    assert.equal(b400.status, 400);
    assert.ok(await bad.waitClose(5000));
    w.destroy();
  });

  test('raw HTTP: bodies over the limit get 413 (declared or chunked); the node keeps serving', async () => {
    const limit = t.node.config.httpMaxBodySize;
    const w = await Wire.open(port());
    await w.write(`POST /ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${limit + 1}\r\n\r\n{"jsonrpc":`);
    const [declared] = await w.read(1);
    assert.equal(declared.status, 413);
    assert.equal(declared.body, `request body too large (limit ${limit} bytes)`);
    w.destroy();
    // Streamed without a length: refused once it passes the limit.
    const c = await Wire.open(port());
    await c.write('POST /ext/admin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    const chunk = Buffer.alloc(1 << 20, 0x20);
    const head = Buffer.from(`${chunk.length.toString(16)}\r\n`);
    let answer: Resp | undefined;
    const reading = c.read(1, 60_000).then(
      ([r]) => (answer = r),
      () => undefined,
    );
    for (let sent = 0; sent <= limit && answer === undefined && !c.closed; sent += chunk.length) {
      await c.write(Buffer.concat([head, chunk, Buffer.from('\r\n')])).catch(() => undefined);
    }
    await reading;
    assert.equal(answer?.status, 413);
    assert.equal(answer?.body, `request body too large (limit ${limit} bytes)`);
    c.destroy();
    const alive = JSON.parse((await send('/ext/info', '{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}')).body);
    assert.equal(alive.result.nodeID, t.node.nodeID);
  });

  test('raw HTTP: paths under /ext/ that do not exist, need cleaning or decoding', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}';
    const cases: [string, number, string?][] = [
      ['/ext/nope', 404],
      ['/ext/', 404],
      ['/ext', 404],
      ['/ext/info/', 404],
      ['/ext/INFO', 404],
      ['/ext/bc/nochain/rpc', 404],
      ['/ext/bc/dev/validators/', 404],
      ['/ext/%00', 404],
      ['/ext/' + 'a'.repeat(8000), 404],
      ['/ext/info?x=%ZZ&y', 200],
      ['/ext/%69nfo', 200],
      ['/ext//info', 301, '/ext/info'],
      ['/ext/./info', 301, '/ext/info'],
      ['/ext/x/../info', 301, '/ext/info'],
      ['/ext/../../ext/info?q=1', 301, '/ext/info?q=1'],
      ['/ext/info/.', 301, '/ext/info'],
      ['/ext/bc/dev//validators', 301, '/ext/bc/dev/validators'],
    ];
    const w = await Wire.open(port());
    for (const [path, status, location] of cases) {
      // The fuzz above may have aliased an endpoint to one of these paths (alias "" serves /ext/).
      if (status === 404 && router.table.has(path)) continue;
      await w.write(wirePost(path, body));
      const [a] = await w.read(1);
      assert.equal(a.status, status, path);
      if (status === 404) assert.equal(a.body, '404 page not found\n', path);
      if (status === 200) assert.equal(JSON.parse(a.body).result.networkID, '12345');
      if (location) assert.equal(header(a, 'location'), location, path);
      assert.equal(header(a, 'node-id'), t.node.nodeID);
    }
    // A malformed escape in the path: Go's server cannot read the request (400, connection closed).
    const bad = await Wire.open(port());
    await bad.write(wirePost('/ext/%ZZ', body));
    assert.ok(await bad.waitClose(5000));
    assert.equal((await bad.read(1))[0].raw, 'HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request');
    // `OPTIONS *` is Go's server's own: 200, empty.
    await w.write('OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const [star] = await w.read(1);
    assert.equal(star.status, 200);
    assert.equal(star.body, '');
    assert.equal(header(star, 'content-length'), '0');
    // Absolute-form request targets route by their path, as Go's server does.
    await w.write(`POST http://127.0.0.1/ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    const [abs] = await w.read(1);
    assert.equal(abs.status, 200, abs.raw);
    assert.equal(json(abs).result.networkID, '12345');
    w.destroy();
  });

  test('raw HTTP: Host headers (AvalancheGo allowed_hosts: the host of net.SplitHostPort, or the whole value)', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}';
    const cases: [string, number][] = [
      ['localhost', 200],
      ['LOCALHOST:9650', 200],
      ['localhost:abc', 200],
      ['127.0.0.1:1', 200],
      ['[::1]:9650', 200],
      ['::1', 200], // too many colons: the whole value, an IP
      ['evil.example', 403],
      ['evil.example:9650', 403],
      ['localhost.', 403],
      ['[::1]', 403], // missing port: the whole value, "[::1]", is no IP
      ['[::1', 403],
      ['localhost:1:2', 403],
      ['[localhost]:1', 200], // brackets around a name: SplitHostPort gives the name
      ['fe80::1%25eth0', 403],
      ['\u00e9vil', 400], // a byte outside httpguts.ValidHostHeader's set: Go refuses it before the filter
      ['x'.repeat(4000), 403],
    ];
    for (const [host, status] of cases) {
      const w = await Wire.open(port());
      await w.write(`POST /ext/info HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      const [r] = await w.read(1);
      assert.equal(r.status, status, `Host: ${host}`);
      if (status === 403) assert.equal(r.body, 'invalid host specified\n');
      if (status === 400) assert.equal(r.body, '400 Bad Request: malformed Host header');
      w.destroy();
    }
    // No Host header at all (HTTP/1.0): served.
    const w = await Wire.open(port());
    await w.write(`POST /ext/info HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    const [r] = await w.read(1);
    assert.equal(r.status, 200);
    w.destroy();
  });

  test('a concurrent burst over many connections (profiler start/stop races included): every answer well-formed, none lost', async () => {
    const bodies: [string, string][] = [];
    const r = mulberry32(SEED + 2);
    for (let i = 0; i < 120; i++) {
      const k = Math.floor(r() * 6);
      if (k === 0) bodies.push(['/ext/admin', `{"jsonrpc":"2.0","id":${i},"method":"admin.${r() < 0.5 ? 'start' : 'stop'}CPUProfiler"}`]);
      else if (k === 1) bodies.push(['/ext/admin', `{"jsonrpc":"2.0","id":${i},"method":"admin.lockProfile","params":${r() < 0.5 ? '5' : '{}'}}`]);
      else if (k === 2) bodies.push(['/ext/info', `{"jsonrpc":"2.0","id":${i},"method":"info.peers","params":{"nodeIDs":[${r() < 0.5 ? 'null' : '"NodeID-x"'}]}}`]);
      else if (k === 3) bodies.push(['/ext/health', `{"jsonrpc":"2.0","id":${i},"method":"health.health","params":{"tags":["${i}"]}}`]);
      else if (k === 4) bodies.push(['/ext/bc/dev/validators', `{"jsonrpc":"2.0","id":${i},"method":"validators.getCurrentValidators"}`]);
      else bodies.push(['/ext/info', `{"jsonrpc":"2.0","id":${i},"method":"info.getNodeID","params":${'['.repeat(500)}${']'.repeat(500)}}`]);
    }
    const answers = await Promise.all(
      bodies.map(([path, body]) =>
        fetch(t.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (res) => ({ status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() })),
      ),
    );
    answers.forEach((a, i) => {
      const r2 = checkJSONAnswer({ status: a.status, headers: a.headers as http.IncomingHttpHeaders, body: a.body });
      assert.equal(r2.id, i);
      if (r2.error) assert.match(r2.error.message, /^(cpu profiler already running|cpu profiler doesn't exist|couldn't unmarshal an argument.*)$/, a.body);
    });
    // Whatever the interleaving, the profiler is in one state: stopping it ends with "doesn't exist".
    const stop = async () => JSON.parse((await send('/ext/admin', '{"jsonrpc":"2.0","id":1,"method":"admin.stopCPUProfiler"}')).body);
    const first = await stop();
    if (first.error) assert.equal(first.error.message, "cpu profiler doesn't exist");
    assert.equal((await stop()).error.message, "cpu profiler doesn't exist");
    cpuRunning = false;
  });

  // -------------------------------------------------------------------------------------------
  // Regressions: one request per problem the fuzz found.

  const call = async (path: string, body: string) => send(path, body);

  test('regression: a deeply nested params in a -32600 answer is echoed (was HTTP 500: JSON.stringify overflowed)', async () => {
    const deep = '['.repeat(9_990) + ']'.repeat(9_990);
    const a = await call('/ext/info', `{"jsonrpc":"1.0","id":1,"method":"x","params":${deep}}`);
    assert.equal(a.status, 200);
    assert.equal(a.body, `{"jsonrpc":"2.0","error":{"code":-32600,"message":"jsonrpc must be 2.0","data":{"jsonrpc":"1.0","method":"x","params":${deep},"id":1}},"id":1}\n`);
    const deepID = await call('/ext/info', `{"jsonrpc":"2.0","id":${deep},"method":"info.getNetworkID"}`);
    assert.equal(deepID.body, `{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":${deep}}\n`);
  });

  test('regression: the id is echoed as sent, compacted (a json.RawMessage): 1.0, 1e3, escapes, spaces', async () => {
    for (const [sent, echoed] of [
      ['1.0', '1.0'],
      ['1e3', '1e3'],
      ['-0.0', '-0.0'],
      ['1E+400', '1E+400'],
      ['"\\u0041\\n"', '"\\u0041\\n"'],
      ['"<&>"', '"\\u003c\\u0026\\u003e"'],
      ['[ 1 , { "a" : 2 } ]', '[1,{"a":2}]'],
      ['{"b":1,"b":2}', '{"b":1,"b":2}'],
    ]) {
      const a = await call('/ext/info', `{"jsonrpc":"2.0","method":"info.getNetworkID","id":${sent}}`);
      assert.equal(a.body, `{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":${echoed}}\n`, sent);
    }
    // The last id member counts, whatever its case.
    const last = await call('/ext/info', '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID","ID":2.50}');
    assert.equal(last.body, '{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":2.50}\n');
  });

  test('regression: -32600/-32700 echo params as sent (numbers, duplicates), not as JSON.parse rewrote them', async () => {
    const a = await call('/ext/info', '{"jsonrpc":"1.0","id":1,"method":"m","params":{"a":1e400,"b":1.0,"b":12345678901234567890, "c" : "<"}}');
    assert.equal(
      a.body,
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"jsonrpc must be 2.0","data":{"jsonrpc":"1.0","method":"m","params":{"a":1e400,"b":1.0,"b":12345678901234567890,"c":"\\u003c"},"id":1}},"id":1}\n',
    );
    const b = await call('/ext/info', '{"jsonrpc":"2.0","method":7,"params":[1.50],"id":"x"}');
    assert.equal(
      b.body,
      '{"jsonrpc":"2.0","error":{"code":-32700,"message":"json: cannot unmarshal number into Go struct field serverRequest.method of type string","data":{"jsonrpc":"2.0","method":"","params":[1.50],"id":"x"}},"id":"x"}\n',
    );
  });

  test('regression: lone surrogates decode to U+FFFD, as Go decodes them', async () => {
    const a = await call('/ext/info', '{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":{"alias":"a\\ud800b\\udc00"}}');
    assert.equal(JSON.parse(a.body).error.message, 'there is no ID with alias: a\ufffdb\ufffd');
    assert.ok(a.body.includes('a\ufffdb\ufffd'), 'written as the character, not a \\u escape of a surrogate');
    const m = await call('/ext/info', '{"jsonrpc":"2.0","id":1,"method":"info.x\\ud800"}');
    assert.equal(JSON.parse(m.body).error.message, 'rpc: can\'t find method "info.X\ufffd"');
  });

  // (Aliases the fuzz's words cannot make: it may have set `x` or `y` before these run.)
  test('regression: duplicate keys in params are decoded in order as Go does (a bad one fails, null keeps a string)', async () => {
    const msg = async (params: string) => JSON.parse((await call('/ext/info', `{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":${params}}`)).body).error.message;
    assert.equal(await msg('{"alias":5,"alias":"unset-x"}'), UNMARSHAL_ERROR);
    assert.equal(await msg('{"alias":"unset-x","ALIAS":[]}'), UNMARSHAL_ERROR);
    assert.equal(await msg('{"alias":"unset-x","alias":null}'), 'there is no ID with alias: unset-x');
    assert.equal(await msg('{"alias":"unset-x","Alias":"unset-y"}'), 'there is no ID with alias: unset-y');
    assert.equal(await msg('[{"alias":"unset-x","alias":null},5]'), 'there is no ID with alias: unset-x');
    // A pointer field (admin.setLoggerLevel's levels) is cleared by null.
    const s = JSON.parse((await call('/ext/admin', '{"jsonrpc":"2.0","id":1,"method":"admin.setLoggerLevel","params":{"logLevel":"info","logLevel":null}}')).body);
    assert.equal(s.error.message, 'need to specify either displayLevel or logLevel');
  });

  test('regression: keys match fields with Go\'s case folding (ſ is s, K is k)', async () => {
    const a = await call('/ext/info', '{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":{"aliaſ":"unset-x"}}');
    assert.equal(JSON.parse(a.body).error.message, 'there is no ID with alias: unset-x');
    const b = await call('/ext/info', '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID","paramſ":5}');
    assert.equal(JSON.parse(b.body).error.message, UNMARSHAL_ERROR, 'paramſ is params');
    const c = await call('/ext/admin', '{"jsonrpc":"2.0","id":1,"method":"admin.dbGet","params":{"\u212aey":"zz"}}');
    assert.equal(JSON.parse(c.body).error.message, 'missing 0x prefix to hex encoding');
  });

  test('regression: validators.getCurrentValidators takes a null NodeID (the zero NodeID), as Go decodes it', async () => {
    const a = await call('/ext/bc/dev/validators', '{"jsonrpc":"2.0","id":1,"method":"validators.getCurrentValidators","params":{"nodeIDs":[null]}}');
    assert.deepEqual(JSON.parse(a.body).result, { validators: [] });
    const b = await call('/ext/bc/dev/validators', `{"jsonrpc":"2.0","id":1,"method":"validators.getCurrentValidators","params":{"nodeIDs":[null,"${t.node.nodeID}"]}}`);
    assert.equal(JSON.parse(b.body).result.validators.length, 1);
  });

  test('regression: a long NodeID or chain ID is refused at once (the CB58 decode is quadratic)', async () => {
    const long = 'z'.repeat(300_000);
    for (const [path, method, params] of [
      ['/ext/info', 'info.peers', { nodeIDs: [`NodeID-${long}`] }],
      ['/ext/bc/dev/validators', 'validators.getCurrentValidators', { nodeIDs: [`NodeID-${long}`] }],
    ] as const) {
      const started = performance.now();
      const a = await call(path, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
      assert.equal(JSON.parse(a.body).error.message, UNMARSHAL_ERROR);
      assert.ok(performance.now() - started < 3000, `${method}: ${(performance.now() - started).toFixed(0)} ms (the quadratic decode took ~30 s)`);
    }
    const ask = async (chain: string) => {
      const started = performance.now();
      const r = JSON.parse((await call('/ext/admin', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'admin.getChainAliases', params: { chain } }))).body);
      assert.ok(performance.now() - started < 5000, `${chain.length} characters: ${(performance.now() - started).toFixed(0)} ms (the quadratic decode took ~30 s)`);
      return r.error.message;
    };
    assert.equal(await ask(long), 'invalid input checksum');
    assert.equal(await ask('1'.repeat(200_000)), 'invalid input checksum');
    assert.equal(await ask(long + '0'), "base58 decoding error: Invalid base58 digit ('0')");
    assert.equal(await ask(long + '\u00e9'), 'base58 decoding error: High-bit set on invalid digit');
    // A long text with a valid checksum: the length error, with the decoded length.
    const forged = cb58Encode(new Uint8Array(3_000).fill(7));
    assert.equal(await ask(forged), 'invalid hash length: expected 32 bytes but got 3000');
    // The bounded decode gives ids.parseID's answer, text for text.
    const r = mulberry32(SEED + 1);
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0OIl\u00e9';
    for (let i = 0; i < 200; i++) {
      const n = 40 + Math.floor(r() * 600);
      const s = i % 3 === 0 ? cb58Encode(Uint8Array.from({ length: Math.floor(n * 0.7) }, () => Math.floor(r() * 256))) : Array.from({ length: n }, () => alphabet[Math.floor(r() * (i % 2 ? 58 : alphabet.length))]).join('');
      const expected = (() => {
        try {
          parseID(s);
          return 'ok';
        } catch (e) {
          return (e as Error).message;
        }
      })();
      const got = (() => {
        try {
          parseIDArg(s);
          return 'ok';
        } catch (e) {
          return (e as Error).message;
        }
      })();
      assert.equal(got, expected, s);
    }
  });

  test('regression: a method name of megabytes costs what its bytes cost (Go\'s %q was per character), and is not kept by the name cache', async () => {
    const n = 24 * 1024 * 1024;
    // The same bytes as a string argument: the cost of reading and answering them.
    let started = performance.now();
    const same = await call('/ext/info', `{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":{"alias":"${'q'.repeat(n)}"}}`);
    const baseline = performance.now() - started;
    assert.equal(JSON.parse(same.body).error.message.length, 'there is no ID with alias: '.length + n);
    const name = 'info.' + 'q'.repeat(n);
    started = performance.now();
    const a = await call('/ext/info', `{"jsonrpc":"2.0","id":1,"method":"${name}"}`);
    const ms = performance.now() - started;
    assert.equal(JSON.parse(a.body).error.message, `rpc: can't find method "info.Q${'q'.repeat(n - 1)}"`);
    // Quoting it character by character took ~2.5 s more on this machine, ~15× the baseline.
    assert.ok(ms < 3 * baseline + 500, `${ms.toFixed(0)} ms, baseline ${baseline.toFixed(0)} ms`);
    assert.equal(isMethodNameCached(name), false, 'a 24 MiB name must not stay in memory');
    await call('/ext/info', '{"jsonrpc":"2.0","id":1,"method":"info.getNodeIP"}');
    assert.equal(isMethodNameCached('info.getNodeIP'), true, 'ordinary names are cached');
  });

  test('after the fuzz: aliases set still route, the router is as modelled, logger levels as set, profiler state', async () => {
    // The whole route table and the reserved alias URLs match the model of AvalancheGo's router.
    const r = t.node.router as unknown as { reserved: Set<string>; table: Map<string, object> };
    assert.deepEqual([...r.reserved].sort(), [...router.reserved].sort());
    assert.deepEqual([...r.table.keys()].sort(), [...router.table.keys()].sort());
    for (const [p, h] of router.table) assert.equal(r.table.get(p), h, p);
    // Every alias of /ext/info answers info over HTTP (when its path serves info: first route wins).
    const infoHandler = router.table.get('/ext/info');
    let checked = 0;
    for (const { url } of liveAliases) {
      if (router.table.get(url) !== infoHandler || !reachable(url)) continue;
      const path = url.split('/').map(encodeURIComponent).join('/');
      const a = await send(path, '{"jsonrpc":"2.0","id":7,"method":"info.getNodeID"}');
      assert.equal(a.status, 200, `${url} → ${a.status} ${a.body}`);
      assert.equal(JSON.parse(a.body).result.nodeID, t.node.nodeID, url);
      checked++;
    }
    console.log(`# fuzzNodeApis: ${liveAliases.length} aliases set (${checked} of info checked), ${liveChainAliases.length} chain aliases`);
    for (const a of liveChainAliases) {
      const id = JSON.parse((await send('/ext/info', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getBlockchainID', params: { alias: a } }))).body);
      assert.equal(id.result?.blockchainID, chainID, a);
      const url = extURL(bcJoin(a)) + '/validators';
      if (router.table.get(url) !== router.table.get(`/ext/bc/${chainID}/validators`) || !reachable(url)) continue;
      const v = await send(url.split('/').map(encodeURIComponent).join('/'), '{"jsonrpc":"2.0","id":1,"method":"validators.getCurrentValidators"}');
      assert.equal(JSON.parse(v.body).result.validators.length, 1, url);
    }
    const aliases = JSON.parse((await send('/ext/admin', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'admin.getChainAliases', params: { chain: chainID } }))).body);
    assert.deepEqual(aliases.result.aliases, aliasesOf.get(chainID));
    // Logger levels: exactly as the model says after every setLoggerLevel.
    const levels = JSON.parse((await send('/ext/admin', '{"jsonrpc":"2.0","id":1,"method":"admin.getLoggerLevel","params":{}}')).body);
    assert.deepEqual(levels.result, levelsOf([...loggerLevels.keys()]));
    // A CPU profile left running by the fuzz is stopped; its file is in the data dir's profile dir.
    if (cpuRunning) {
      const stop = JSON.parse((await send('/ext/admin', '{"jsonrpc":"2.0","id":1,"method":"admin.stopCPUProfiler"}')).body);
      assert.deepEqual(stop.result, {});
      cpuRunning = false;
    }
    const stopAgain = JSON.parse((await send('/ext/admin', '{"jsonrpc":"2.0","id":1,"method":"admin.stopCPUProfiler"}')).body);
    assert.equal(stopAgain.error.message, "cpu profiler doesn't exist");
    if (budget.startCPUProfiler < 2) assert.ok(existsSync(join(t.node.config.profileDir, 'cpu.profile')));
    assert.ok(t.node.config.profileDir.startsWith(t.dataDir), 'profiles stay in the temp data dir');
    // /ext/metrics (labelled by the routes called, aliases with odd characters included) stays
    // valid Prometheus text, whatever the method and body.
    const metrics = await send('/ext/metrics', '\u0000not json', {}, 'PUT');
    assert.equal(metrics.status, 200);
    for (const line of metrics.body.trimEnd().split('\n')) {
      if (line.startsWith('#')) continue;
      assert.match(line, /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\n"])*",?)*\})? \S+$/su, line);
    }
    // Health reports by tag, odd tags included.
    for (const q of ['?tag=%ZZ', '?tag=&tag=&tag=', `?tag=${'x'.repeat(5000)}`, '?tag=%00%FF']) {
      const h = await send(`/ext/health${q}`, '', {}, 'GET');
      assert.ok(h.status === 200 || h.status === 503, q);
      assert.equal(typeof JSON.parse(h.body).healthy, 'boolean');
    }
    // The node answers, and nothing was thrown past it.
    const health = JSON.parse((await send('/ext/health', '{"jsonrpc":"2.0","id":1,"method":"health.health"}')).body);
    assert.equal(typeof health.result.healthy, 'boolean');
    assert.deepEqual(uncaught, []);
  });
});

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
