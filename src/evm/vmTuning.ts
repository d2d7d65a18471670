// Exact speed-ups of @ethereumjs/evm, applied from our code (node_modules stays untouched).
//
// Jump-destination analysis: ethereumjs' Interpreter re-analyses a contract's whole code
// (`_getValidJumpDestinations`: valid JUMPDESTs, decoded PUSH values, opcode table entries) every
// time a frame of it runs — for an ERC-20 `balanceOf` eth_call that is most of the interpreter's
// set-up. The analysis is a pure function of (the code bytes, the EVM's opcode table, the EIP-8024
// flag of its Common), and the interpreter only reads what it returns, so it is memoised here:
// per opcode table (one per EVM instance and hardfork; a replaced table starts a new cache), by
// the code Uint8Array instance (state managers hand out the cached instance) and, when the
// instance is new, by the code's keccak. Block building, eth_call and tracing all get the very
// same analysis as before, only computed once per code.
//
// EIP lookups: Common.isActivatedEIP scans an array of the hardfork's EIPs (`includes`), and the
// interpreter asks it for every opcode (EIP-6800/7864 code-chunk checks) and the gas handlers for
// most others — ~3 % of an eth_call. The same answers come from a table built once per array (a
// byte per EIP number: an indexed load, where a Set's lookup still cost ~1.5 % of a new-holder
// call, docs/performance.md session 40): Common replaces `_activatedEIPsCache` with a new array
// whenever its hardfork or EIPs change and never mutates one in place, so a table remembered with
// the array it was built from cannot go stale.
//
// Frame results: EVM.runInterpreter returns its frame's `runState` as one object literal of three
// spreads (`{...interpreterRes.runState, ...result, ...interpreter._env}`), inside a result literal
// that adds six new keys after a spread (`{...result, runState, exceptionError, …}`). On Node 20's
// V8 a spread after a spread copies through the runtime at ~1 µs per property, and each new key
// after a spread costs ~0.7 µs: together ~30 µs per frame, ~20 % of an uncached ERC-20 `balanceOf`
// eth_call (measured in process, docs/performance.md, session 9). The override below is the
// package's own method with those literals built by Object.assign: on a fresh plain object it
// makes the same own properties, in the same order (an overwritten key keeps its first place),
// with the same values (no source has a `__proto__` key), ~10× faster; the merged `runState`
// is built when first read (defineMergedRunState). It is installed only over the version it was
// copied from (@ethereumjs/evm 10.1.3: the method's source still holds the spread) and defers to
// the original for a stand-alone run with no block, the one case that needs the package's private
// defaultBlock().
//
// The patch goes on the Interpreter class's prototype (it is not exported, so its module is
// loaded by URL next to the package's entry point — the same module instance the EVM uses). It
// holds no chain state: every cache hangs off an EVM's opcode table, so it is per node and is
// collected with the EVM.
import { Common } from '@ethereumjs/common';
import { EVM, EVMError } from '@ethereumjs/evm';
import { Account, BIGINT_0, createZeroAddress } from '@ethereumjs/util';
import { BoundedMap } from '../boundedMap.js';
import './txTuning.js'; // the sender address by the chain's keccak
import './accountCodec.js'; // Account.serialize in one pass
import './opcodeTables.js'; // one opcode table per Common
import { keccak256 } from './crypto.js';
import { hexOf } from '../hexOf.js';
import { installSyncSteps } from './interpreterSteps.js';
import { accountNowFor, NOT_NOW } from './state/readsNow.js';

interface JumpAnalysis {
  jumps: Uint8Array;
  pushes: Record<number, bigint>;
  opcodesCached: unknown[];
}

interface InterpreterLike {
  _evm: { _opcodeMap: object };
  _getValidJumpDestinations(code: Uint8Array): JumpAnalysis;
}

/** Per opcode table: analyses by code hash (bounded, least recently used out) and by code instance. */
interface TableCache {
  byHash: BoundedMap<string, JumpAnalysis>;
  byCode: WeakMap<Uint8Array, JumpAnalysis>;
}

/** Analyses kept per opcode table (i.e. per EVM): the last 256 contracts seen at least. */
const MAX_CODES_PER_TABLE = 512;
/** Tiny code (e.g. a precompile marker) is cheaper to analyse than to hash. */
const MIN_CODE_TO_CACHE = 64;

const caches = new WeakMap<object, TableCache>();
let hits = 0;
let misses = 0;

/** Counters for tests: analyses served from the cache vs computed. */
export function jumpAnalysisStats(): { hits: number; misses: number } {
  return { hits, misses };
}

function install(proto: InterpreterLike): void {
  const original = proto._getValidJumpDestinations;
  if ((original as { powderCached?: boolean }).powderCached) return;
  const cached = function (this: InterpreterLike, code: Uint8Array): JumpAnalysis {
    if (code.length < MIN_CODE_TO_CACHE) return original.call(this, code);
    const table = this._evm._opcodeMap;
    let c = caches.get(table);
    if (!c) caches.set(table, (c = { byHash: new BoundedMap(MAX_CODES_PER_TABLE), byCode: new WeakMap() }));
    let a = c.byCode.get(code);
    if (a) {
      hits++;
      return a;
    }
    const h = hexOf(keccak256(code));
    a = c.byHash.get(h);
    if (a) {
      hits++;
    } else {
      misses++;
      a = original.call(this, code);
      c.byHash.set(h, a);
    }
    c.byCode.set(code, a);
    return a;
  };
  (cached as { powderCached?: boolean }).powderCached = true;
  proto._getValidJumpDestinations = cached;
}

// The interpreter module sits beside the package's ESM entry point (dist/esm/index.js).
const interpreterURL = new URL('./interpreter.js', import.meta.resolve('@ethereumjs/evm')).href;
const mod = (await import(interpreterURL)) as { Interpreter?: { prototype: InterpreterLike } };
/** The EVM's Interpreter prototype (undefined if the package's layout ever changes), for callDeadline.ts. */
export const interpreterPrototype: object | undefined = mod.Interpreter?.prototype;
if (typeof mod.Interpreter?.prototype?._getValidJumpDestinations === 'function') install(mod.Interpreter.prototype);

interface CommonLike {
  _activatedEIPsCache: number[];
  isActivatedEIP(eip: number): boolean;
  /** The array the table below was built from, and the table. */
  powderEIPList?: number[];
  powderEIPBits?: Uint8Array;
}

/** One byte per EIP number up to the largest activated one: 1 where activated (an index past the
 *  end reads undefined, i.e. not activated). */
function eipBits(list: number[]): Uint8Array {
  let max = 0;
  for (const eip of list) if (Number.isInteger(eip) && eip > max) max = eip;
  const bits = new Uint8Array(max + 1);
  for (const eip of list) if (Number.isInteger(eip) && eip >= 0) bits[eip] = 1;
  return bits;
}

function installEIPBits(proto: CommonLike): void {
  if ((proto.isActivatedEIP as { powderTable?: boolean }).powderTable) return;
  const byTable = function (this: CommonLike, eip: number): boolean {
    const list = this._activatedEIPsCache;
    if (this.powderEIPList !== list) {
      this.powderEIPList = list;
      this.powderEIPBits = eipBits(list);
    }
    return this.powderEIPBits![eip] === 1;
  };
  (byTable as { powderTable?: boolean }).powderTable = true;
  proto.isActivatedEIP = byTable;
}

if (typeof (Common.prototype as unknown as CommonLike).isActivatedEIP === 'function') installEIPBits(Common.prototype as unknown as CommonLike);

interface CommonParamsLike {
  _paramsCache: object;
  _hardfork: string;
  HARDFORK_CHANGES: unknown;
  param(name: string): bigint;
  consensusType(): string;
  /** The params cache the values below were read from, and the values. */
  powderParamsOf?: object;
  powderParams?: Map<string, bigint>;
  /** The hardfork and hardfork table the consensus type below was found for, and the type. */
  powderConsensusOf?: string;
  powderConsensusChanges?: unknown;
  powderConsensus?: string;
}

/**
 * Common.param turns the params cache's value into a new BigInt on every call (the gas handlers
 * ask ~15 times per eth_call), and consensusType walks the hardfork table (every Interpreter made
 * asks once). Both answers depend only on what they are kept with: the params cache object, which
 * Common replaces whole when its hardfork or EIPs change (_buildParamsCache), and the hardfork
 * and its table. A missing parameter still throws the package's error, every time.
 */
function installParamMemos(proto: CommonParamsLike): void {
  const param = proto.param;
  const consensusType = proto.consensusType;
  if ((param as { powderMemo?: boolean }).powderMemo) return;
  const memoParam = function (this: CommonParamsLike, name: string): bigint {
    let values = this.powderParams;
    if (this.powderParamsOf !== this._paramsCache || values === undefined) {
      this.powderParamsOf = this._paramsCache;
      this.powderParams = values = new Map();
    }
    let v = values.get(name);
    if (v === undefined) {
      v = param.call(this, name);
      values.set(name, v);
    }
    return v;
  };
  (memoParam as { powderMemo?: boolean }).powderMemo = true;
  proto.param = memoParam;
  proto.consensusType = function (this: CommonParamsLike): string {
    if (this.powderConsensusOf !== this._hardfork || this.powderConsensusChanges !== this.HARDFORK_CHANGES || this.powderConsensus === undefined) {
      this.powderConsensus = consensusType.call(this);
      this.powderConsensusOf = this._hardfork;
      this.powderConsensusChanges = this.HARDFORK_CHANGES;
    }
    return this.powderConsensus;
  };
}

/** Common's own param and consensusType, as they were before installParamMemos (tests compare). */
export const originalCommonMethods = {
  param: (Common.prototype as unknown as CommonParamsLike).param,
  consensusType: (Common.prototype as unknown as CommonParamsLike).consensusType,
};
if (typeof (Common.prototype as unknown as CommonParamsLike).param === 'function' && typeof (Common.prototype as unknown as CommonParamsLike).consensusType === 'function') {
  installParamMemos(Common.prototype as unknown as CommonParamsLike);
}

interface EVMLike {
  runInterpreter(message: any, opts?: any): Promise<any>;
  stateManager: any;
  blockchain: any;
  journal: any;
  performanceLogger: any;
  _optsCached: any;
  _tx?: any;
  _block?: any;
}
type InterpreterClass = new (...args: any[]) => any;

function installFrameResult(proto: EVMLike, Interpreter: InterpreterClass): void {
  const original = proto.runInterpreter;
  if ((original as { powderFast?: boolean }).powderFast) return;
  if (!original.toString().includes('...interpreter._env')) return;
  // @ethereumjs/evm 10.1.3 dist/esm/evm.js `runInterpreter`, its spread literals aside.
  const fast = async function (this: EVMLike, message: any, opts: any = {}): Promise<any> {
    if (this._block === undefined) return original.call(this, message, opts);
    const to = message.to ?? createZeroAddress();
    // (A call state's account without getAccount's promise and its await: readsNow.ts.)
    let contract = accountNowFor(this.stateManager, to);
    if (contract === NOT_NOW) contract = await this.stateManager.getAccount(to);
    if (!contract) contract = new Account();
    const env = {
      address: message.to ?? createZeroAddress(),
      caller: message.caller ?? createZeroAddress(),
      callData: message.data ?? Uint8Array.from([0]),
      callValue: message.value ?? BIGINT_0,
      code: message.code,
      isStatic: message.isStatic ?? false,
      isCreate: message.isCreate ?? false,
      depth: message.depth ?? 0,
      gasPrice: this._tx.gasPrice,
      origin: this._tx.origin ?? message.caller ?? createZeroAddress(),
      block: this._block,
      contract,
      codeAddress: message.codeAddress,
      gasRefund: message.gasRefund,
      chargeCodeAccesses: message.chargeCodeAccesses,
      blobVersionedHashes: message.blobVersionedHashes ?? [],
      accessWitness: message.accessWitness,
      createdAddresses: message.createdAddresses,
      initialLogs: opts.initialLogs,
    };
    const interpreter = new Interpreter(this, this.stateManager, this.blockchain, env, message.gasLimit, this.journal, this.performanceLogger, this._optsCached.profiler);
    if (message.selfdestruct) interpreter._result.selfdestruct = message.selfdestruct;
    if (message.createdAddresses) interpreter._result.createdAddresses = message.createdAddresses;
    const interpreterRes = await interpreter.run(message.code, opts);
    let result = interpreter._result;
    let gasUsed = message.gasLimit - interpreterRes.runState.gasLeft;
    if (interpreterRes.exceptionError) {
      if (interpreterRes.exceptionError.error !== EVMError.errorMessages.REVERT && interpreterRes.exceptionError.error !== EVMError.errorMessages.INVALID_EOF_FORMAT) {
        gasUsed = message.gasLimit;
      }
      // Clear the result on error
      result = Object.assign({}, result, { logs: [], selfdestruct: new Map(), createdAddresses: new Set() });
    }
    message.accessWitness?.commit();
    const out = Object.assign({}, result) as Record<string, unknown>;
    defineMergedRunState(out, interpreterRes.runState, result, interpreter._env);
    out.exceptionError = interpreterRes.exceptionError;
    out.gas = interpreterRes.runState?.gasLeft;
    out.executionGasUsed = gasUsed;
    out.gasRefund = interpreterRes.runState.gasRefund;
    out.stateGasSpilled = interpreterRes.runState.stateGasSpilled;
    out.returnValue = result.returnValue ?? new Uint8Array(0);
    return out;
  };
  (fast as { powderFast?: boolean }).powderFast = true;
  proto.runInterpreter = fast;
}

/**
 * The frame result's `runState`, the package's `{...runState, ...result, ...env}`, as a view that
 * merges its three sources on first use. The merge makes a ~50-key object (a frame's result took
 * 4.4–5.5 µs to build with it, 2.4–2.9 µs without, in a microbenchmark; docs/performance.md,
 * session 19), and almost nothing reads it: the packages themselves never do, Powder reads
 * `opCode` for an error's text and the call tracer `opCode` and `env`. The sources are the
 * finished frame's own objects, which nothing changes afterwards, so a later merge gives what an
 * immediate one would have.
 *
 * The view is a Proxy whose every operation goes to the merged object (built by the first one), in
 * a plain data property: a spread or a copy of the result carries the same view, an assignment
 * replaces it, as on the package's property. Before it was an accessor defined on each result (one
 * shared getter, its sources in a hidden property): two Object.defineProperty calls, ~1.2 µs of
 * every eth_call's profile, against ~0.1 for a Proxy (docs/performance.md, session 41). (Per-frame
 * getter functions had given each result a hidden class of its own, which kept the frames of every
 * eth_call alive across two scavenges; performance.md, session 37.)
 */
function defineMergedRunState(target: object, runState: object, result: object, env: object): void {
  const sources: RunStateSources = { runState, result, env, merged: undefined };
  (target as { runState?: unknown }).runState = new Proxy(sources, MERGED_VIEW);
}

interface RunStateSources {
  runState: object;
  result: object;
  env: object;
  merged: object | undefined;
}
const merged = (s: RunStateSources): object => (s.merged ??= Object.assign({}, s.runState, s.result, s.env));
/** Every trap that reads or writes an object's own properties, on the merged object. */
const MERGED_VIEW: ProxyHandler<RunStateSources> = {
  get: (s, key) => Reflect.get(merged(s), key),
  set: (s, key, value) => Reflect.set(merged(s), key, value),
  has: (s, key) => Reflect.has(merged(s), key),
  deleteProperty: (s, key) => Reflect.deleteProperty(merged(s), key),
  ownKeys: (s) => Reflect.ownKeys(merged(s)),
  getOwnPropertyDescriptor: (s, key) => Reflect.getOwnPropertyDescriptor(merged(s), key),
  defineProperty: (s, key, d) => Reflect.defineProperty(merged(s), key, d),
  getPrototypeOf: (s) => Reflect.getPrototypeOf(merged(s)),
};

/** The package's own runInterpreter, as it was before the override (tests compare the two). */
export const originalRunInterpreter = (EVM.prototype as unknown as EVMLike).runInterpreter;
if (mod.Interpreter) installFrameResult(EVM.prototype as unknown as EVMLike, mod.Interpreter as unknown as InterpreterClass);

/** The package's Interpreter.run and runStep before the step-loop override (tests compare them). */
export const originalInterpreterSteps = mod.Interpreter ? installSyncSteps(mod.Interpreter.prototype as never) : undefined;
