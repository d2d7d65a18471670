// Exact speed-ups of @ethereumjs/evm's Journal (a transaction's EIP-2929 warm sets and touched
// accounts, with a diff per checkpoint for reverts), put on its prototype when the first VM is
// made (the class is not exported; makeVM hands over an instance).
//
// Diffs made when first written: every checkpoint and commit pushes a `[height, [Set, Map, Set]]`
// entry, and cleanJournal starts the list with one — ~8 entries and 24 collections per eth_call,
// most of which nothing is ever added to (a frame that reads no new account or slot). Entries now
// start with one shared empty diff, and the three writers (touchAccount, addWarmedAddress,
// addWarmedStorage) give the last entry an array of its own and the one collection they add to
// before they add to it; revert
// reads the shared one as the empty diff it is. Its collections refuse to be written, so a writer
// this module does not know of (a later package version) fails loudly instead of sharing state
// between entries; the install also checks each replaced method's text against the version copied
// (@ethereumjs/evm 10.1.3) and leaves the package's journal as it is otherwise.
//
// touchAddress: the package turns the address into '0x'-prefixed hex (Address.toString) and
// slices the prefix off; the unprefixed hex is made directly.
//
// Promises: checkpoint, commit and putAccount are async functions around one call of the state
// manager, and cleanup one whose loop over the touched accounts is empty in every eth_call (the
// plain path cleans up first thing, on a journal cleaned at the end of the call before). An eth_call
// made ~80 promises, ~110 ns each with its await; these four now hand back the state manager's
// own promise (CallState's is an already-settled one), or a settled one, and a throw still
// arrives as a rejection (settled.ts), as from an async function. Callers await them, except where
// they know the settled one (SETTLED) and skip it.
import { bytesToUnprefixedHex, bytesToHex, unprefixedHexToBytes, EthereumJSErrorWithoutCode, type Address } from '@ethereumjs/util';
import { SETTLED, settledOf } from './settled.js';
import { addressHex } from './addressHex.js';

class ReadOnlySet<T> extends Set<T> {
  override add(): this {
    throw new Error('journalTuning: a write into the shared empty journal diff');
  }
}
class ReadOnlyMap<K, V> extends Map<K, V> {
  override set(): this {
    throw new Error('journalTuning: a write into the shared empty journal diff');
  }
}
type Diff = [Set<string>, Map<string, Set<string>>, Set<string>];
/** The diff of an entry nothing was added to yet. */
const NO_DIFF: Diff = [new ReadOnlySet(), new ReadOnlyMap(), new ReadOnlySet()];

interface JournalLike {
  journalHeight: number;
  journalDiff: [number, Diff][];
  journal: Map<string, Set<string>>;
  alwaysWarmJournal: Map<string, Set<string>>;
  touched: Set<string>;
  accessList?: Map<string, Set<string>>;
  preimages?: Map<string, Uint8Array>;
  stateManager: { checkpoint(): Promise<void>; commit(): Promise<void>; putAccount(a: Address, account: unknown): Promise<void>; getAppliedKey?: (k: Uint8Array) => Uint8Array };
  checkpoint(): Promise<void>;
  commit(): Promise<void>;
  putAccount(address: Address, account: unknown): Promise<void>;
  cleanup(): Promise<void>;
  cleanJournal(): void;
  touchAddress(address: Address): void;
  touchAccount(address: string): void;
  addWarmedAddress(address: Uint8Array): void;
  addWarmedStorage(address: Uint8Array, slot: Uint8Array): void;
  isWarmedStorage(address: Uint8Array, slot: Uint8Array): boolean;
}

/**
 * The last entry's diff as an array of its own (its collections still the shared empty ones until
 * written: an eth_call's account writes touch, and need the touched set only — a Map and a Set
 * fewer each, ~350 bytes; docs/performance.md, session 41).
 */
function ownDiff(j: JournalLike): Diff {
  const entry = j.journalDiff[j.journalDiff.length - 1]!;
  if (entry[1] === NO_DIFF) entry[1] = [NO_DIFF[0], NO_DIFF[1], NO_DIFF[2]];
  return entry[1];
}
/** The last entry's warmed addresses, touched accounts or warmed slots, made for it when first written. */
function diffAddresses(j: JournalLike): Set<string> {
  const d = ownDiff(j);
  return d[0] === NO_DIFF[0] ? (d[0] = new Set()) : d[0];
}
function diffTouched(j: JournalLike): Set<string> {
  const d = ownDiff(j);
  return d[2] === NO_DIFF[2] ? (d[2] = new Set()) : d[2];
}
function diffSlots(j: JournalLike): Map<string, Set<string>> {
  const d = ownDiff(j);
  return d[1] === NO_DIFF[1] ? (d[1] = new Map()) : d[1];
}

// The replaced methods' text in the version copied, bundled (minified) or not. The three writers
// are only checked for writing into the last entry's diff.
const S = String.raw`\s*[;,]?\s*`;
const EQ = String.raw`\s*=\s*`;
const NEW3 = String.raw`\[new Set(\(\))?,\s*new Map(\(\))?,\s*new Set(\(\))?\]`;
const LAST_DIFF = /journalDiff\[this\.journalDiff\.length\s*-\s*1\]\[1\]/;
const EXPECTED: Record<string, RegExp> = {
  checkpoint: new RegExp(String.raw`^async checkpoint\(\)\s*\{\s*this\.journalHeight\+\+${S}this\.journalDiff\.push\(\[this\.journalHeight,\s*${NEW3}\]\)${S}await this\.stateManager\.checkpoint\(\)${S}\}$`),
  commit: new RegExp(String.raw`^async commit\(\)\s*\{\s*this\.journalHeight--${S}this\.journalDiff\.push\(\[this\.journalHeight,\s*${NEW3}\]\)${S}await this\.stateManager\.commit\(\)${S}\}$`),
  cleanJournal: new RegExp(
    String.raw`^cleanJournal\(\)\s*\{\s*this\.journalHeight${EQ}0${S}this\.journal${EQ}new Map(\(\))?${S}this\.alwaysWarmJournal${EQ}new Map(\(\))?${S}this\.touched${EQ}new Set(\(\))?${S}this\.journalDiff${EQ}\[\[0,\s*${NEW3}\]\]${S}\}$`,
  ),
  putAccount: new RegExp(String.raw`^async putAccount\((\w+),\s*(\w+)\)\s*\{\s*(return )?this\.touchAddress\(\1\)${S}(return )?this\.stateManager\.putAccount\(\1,\s*\2\)${S}\}$`),
  cleanup: /^async cleanup\(\)\s*\{\s*if\s*\(this\.common\.gteHardfork\(Hardfork\d*\.SpuriousDragon\)\)\s*\{?\s*for\s*\((const|let) \w+ of this\.touched\)[\s\S]*this\.cleanJournal\(\)[;,]\s*delete this\.accessList[;,]\s*delete this\.preimages;?\s*\}$/,
  touchAddress: new RegExp(String.raw`^touchAddress\((\w+)\)\s*\{\s*(const|let) (\w+)${EQ}\1\.toString\(\)\.slice\(2\)${S}this\.touchAccount\(\3\)${S}\}$`),
  touchAccount: LAST_DIFF,
  addWarmedAddress: LAST_DIFF,
  addWarmedStorage: LAST_DIFF,
  isWarmedStorage: /^isWarmedStorage\((\w+),\s*(\w+)\)\s*\{\s*(\/\/[^\n]*\s*)?(const|let) (\w+)\s*=\s*bytesToUnprefixedHex\d*\(\1\)[;,]\s*(const|let)?\s*(\w+)\s*=\s*this\.journal\.get\(\5\)[\s\S]*alwaysWarmJournal\.has\(\5\)[\s\S]*\}$/,
};

/** Whether the journal's methods are the ones copied (exported for the tests). */
export function journalMatchesCopied(proto: object): boolean {
  const p = proto as Record<string, unknown>;
  return Object.entries(EXPECTED).every(([name, re]) => typeof p[name] === 'function' && re.test((p[name] as () => void).toString()));
}

const INSTALLED = Symbol('powder.journalTuned');

const REPLACED = ['checkpoint', 'commit', 'putAccount', 'cleanup', 'cleanJournal', 'touchAddress', 'touchAccount', 'addWarmedAddress', 'addWarmedStorage', 'isWarmedStorage'] as const;

/**
 * The last address and the last slot turned into hex, by identity. A cold SLOAD or SSTORE asks
 * isWarmedStorage, then addWarmedStorage, which calls addWarmedAddress for a new address: the same
 * two arrays turned into hex five times (~0.1 µs each). The arrays the EVM hands the journal are
 * never written after they are made (an Address's bytes; an opcode's key, a fresh array).
 */
let memoAddress: Uint8Array | undefined;
let memoAddressHex = '';
let memoSlot: Uint8Array | undefined;
let memoSlotHex = '';
function addressHexOf(b: Uint8Array): string {
  if (b !== memoAddress) {
    memoAddressHex = bytesToUnprefixedHex(b);
    memoAddress = b;
  }
  return memoAddressHex;
}
function slotHexOf(b: Uint8Array): string {
  if (b !== memoSlot) {
    memoSlotHex = bytesToUnprefixedHex(b);
    memoSlot = b;
  }
  return memoSlotHex;
}

/** The package's methods that tuneJournal replaced (the tests run both), once it has. */
export let originalJournalMethods: Partial<Record<(typeof REPLACED)[number], unknown>> | undefined;

/** Puts the lazy diffs on the prototype of `journal` (once; nothing if its methods are not the copied ones). */
export function tuneJournal(journal: object): void {
  const proto = Object.getPrototypeOf(journal) as JournalLike & { [INSTALLED]?: boolean };
  if (proto[INSTALLED] !== undefined) return;
  proto[INSTALLED] = journalMatchesCopied(proto);
  if (!proto[INSTALLED]) return;
  originalJournalMethods = Object.fromEntries(REPLACED.map((name) => [name, proto[name]]));

  const cleanup = proto.cleanup;
  proto.checkpoint = function (this: JournalLike) {
    try {
      this.journalHeight++;
      this.journalDiff.push([this.journalHeight, NO_DIFF]);
      return settledOf(this.stateManager.checkpoint());
    } catch (e) {
      return Promise.reject(e);
    }
  };
  proto.commit = function (this: JournalLike) {
    try {
      this.journalHeight--;
      this.journalDiff.push([this.journalHeight, NO_DIFF]);
      return settledOf(this.stateManager.commit());
    } catch (e) {
      return Promise.reject(e);
    }
  };
  proto.putAccount = function (this: JournalLike, address: Address, account: unknown) {
    try {
      this.touchAddress(address);
      return settledOf(this.stateManager.putAccount(address, account));
    } catch (e) {
      return Promise.reject(e);
    }
  };
  // With no touched account the package's loop awaits nothing: what is left is synchronous.
  proto.cleanup = function (this: JournalLike) {
    if (this.touched.size > 0) return cleanup.call(this);
    try {
      this.cleanJournal();
      delete this.accessList;
      delete this.preimages;
      return SETTLED;
    } catch (e) {
      return Promise.reject(e);
    }
  };
  proto.cleanJournal = function (this: JournalLike) {
    // A journal already clean (the plain path cleans up at its start and at its end) keeps its
    // empty collections: the same state, without two Maps, a Set and an array made again.
    // (The constructor calls it before any of them exists.)
    const diffs = this.journalDiff as [number, Diff][] | undefined;
    if (
      diffs !== undefined &&
      diffs.length === 1 &&
      diffs[0]![0] === 0 &&
      diffs[0]![1] === NO_DIFF &&
      this.journalHeight === 0 &&
      this.journal.size === 0 &&
      this.alwaysWarmJournal instanceof Map &&
      this.alwaysWarmJournal.size === 0 &&
      this.touched.size === 0
    ) {
      return;
    }
    this.journalHeight = 0;
    this.journal = new Map();
    this.alwaysWarmJournal = new Map();
    this.touched = new Set();
    this.journalDiff = [[0, NO_DIFF]];
  };
  proto.touchAddress = function (this: JournalLike, address: Address) {
    this.touchAccount(addressHex(address));
  };
  proto.touchAccount = function (this: JournalLike, address: string) {
    if (this.preimages !== undefined) {
      const bytesAddress = unprefixedHexToBytes(address);
      if (this.stateManager.getAppliedKey === undefined) {
        throw EthereumJSErrorWithoutCode('touchAccount: stateManager.getAppliedKey can not be undefined if preimage storing is enabled');
      }
      this.preimages.set(bytesToHex(this.stateManager.getAppliedKey(bytesAddress)), bytesAddress);
    }
    if (!this.touched.has(address)) {
      this.touched.add(address);
      diffTouched(this).add(address);
    }
  };
  proto.addWarmedAddress = function (this: JournalLike, addressArr: Uint8Array) {
    const address = addressHexOf(addressArr);
    if (!this.journal.has(address)) {
      this.journal.set(address, new Set());
      diffAddresses(this).add(address);
    }
    if (this.accessList !== undefined && !this.accessList.has(address)) this.accessList.set(address, new Set());
  };
  proto.isWarmedStorage = function (this: JournalLike, address: Uint8Array, slot: Uint8Array): boolean {
    const addressHex = addressHexOf(address);
    const slots = this.journal.get(addressHex);
    if (slots !== undefined && slots.has(slotHexOf(slot))) return true;
    return this.alwaysWarmJournal.get(addressHex)?.has(slotHexOf(slot)) ?? false;
  };
  proto.addWarmedStorage = function (this: JournalLike, address: Uint8Array, slot: Uint8Array) {
    const addressHex = addressHexOf(address);
    let slots = this.journal.get(addressHex);
    if (slots === undefined) {
      this.addWarmedAddress(address);
      slots = this.journal.get(addressHex)!;
    }
    const slotStr = slotHexOf(slot);
    if (!slots.has(slotStr)) {
      slots.add(slotStr);
      const addressSlotMap = diffSlots(this);
      let slotsSet = addressSlotMap.get(addressHex);
      if (slotsSet === undefined) addressSlotMap.set(addressHex, (slotsSet = new Set()));
      slotsSet.add(slotStr);
    }
    // (In addWarmedAddress above the address was added to the access list.)
    if (this.accessList !== undefined) this.accessList.get(addressHex)!.add(slotStr);
  };
}
