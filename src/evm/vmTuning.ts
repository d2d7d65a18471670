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
// most others — ~3 % of an eth_call. The same answers come from a Set built once per array: Common
// replaces `_activatedEIPsCache` with a new array whenever its hardfork or EIPs change and never
// mutates one in place, so a Set remembered with the array it was built from cannot go stale.
//
// The patch goes on the Interpreter class's prototype (it is not exported, so its module is
// loaded by URL next to the package's entry point — the same module instance the EVM uses). It
// holds no chain state: every cache hangs off an EVM's opcode table, so it is per node and is
// collected with the EVM.
import { Common } from '@ethereumjs/common';
import { keccak256 } from './crypto.js';

interface JumpAnalysis {
  jumps: Uint8Array;
  pushes: Record<number, bigint>;
  opcodesCached: unknown[];
}

interface InterpreterLike {
  _evm: { _opcodeMap: object };
  _getValidJumpDestinations(code: Uint8Array): JumpAnalysis;
}

/** Per opcode table: analyses by code hash (bounded, oldest first out) and by code instance. */
interface TableCache {
  byHash: Map<string, JumpAnalysis>;
  byCode: WeakMap<Uint8Array, JumpAnalysis>;
}

/** Analyses kept per opcode table (i.e. per EVM): contracts seen, most recent first kept. */
const MAX_CODES_PER_TABLE = 256;
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
    if (!c) caches.set(table, (c = { byHash: new Map(), byCode: new WeakMap() }));
    let a = c.byCode.get(code);
    if (a) {
      hits++;
      return a;
    }
    const h = Buffer.from(keccak256(code)).toString('hex');
    a = c.byHash.get(h);
    if (a) {
      hits++;
    } else {
      misses++;
      a = original.call(this, code);
      if (c.byHash.size >= MAX_CODES_PER_TABLE) c.byHash.delete(c.byHash.keys().next().value!);
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
  /** The array the Set below was built from, and the Set. */
  powderEIPList?: number[];
  powderEIPSet?: Set<number>;
}

function installEIPSets(proto: CommonLike): void {
  if ((proto.isActivatedEIP as { powderSet?: boolean }).powderSet) return;
  const bySet = function (this: CommonLike, eip: number): boolean {
    const list = this._activatedEIPsCache;
    if (this.powderEIPList !== list) {
      this.powderEIPList = list;
      this.powderEIPSet = new Set(list);
    }
    return this.powderEIPSet!.has(eip);
  };
  (bySet as { powderSet?: boolean }).powderSet = true;
  proto.isActivatedEIP = bySet;
}

if (typeof (Common.prototype as unknown as CommonLike).isActivatedEIP === 'function') installEIPSets(Common.prototype as unknown as CommonLike);
