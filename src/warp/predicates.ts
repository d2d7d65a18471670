// Warp predicates (subnet-evm.md §8.8): signed warp messages a transaction carries in its access
// list (tuples for the warp address), their intrinsic gas, their verification against the source
// subnet's validators before the tx runs, the block's predicate-results bitsets (extraData[80:]),
// and the per-EVM "current tx predicates" the Warp precompile's getters read.
import { decodePayload, decodeSigned, numSigners, unpackPredicate, type SignedMessage } from './codec.js';
import { canonicalSet, verifyWarpSignature } from './signer.js';

export const WARP_ADDRESS = '0x0200000000000000000000000000000000000005';
const WARP_ADDRESS_BYTES = Buffer.from(WARP_ADDRESS.slice(2), 'hex');

/** Predicate gas constants (pre-Granite / Granite+). */
export const PREDICATE_GAS = {
  preGranite: { verifyBase: 200_000n, perChunk: 3_200n, perSigner: 500n },
  granite: { verifyBase: 125_000n, perChunk: 512n, perSigner: 250n },
} as const;

const MAX_UINT64 = (1n << 64n) - 1n;

/** The rule facts predicates depend on (structurally the chain config's Rules). */
export interface PredicateRules {
  isDurango: boolean;
  isGranite: boolean;
  precompiles: ReadonlyMap<string, { config: unknown }>;
}

/** Predicates exist only while the Warp precompile is enabled (Subnet-EVM `PredicatersExist`). */
export function warpEnabled(rules: PredicateRules): boolean {
  return rules.precompiles.has(WARP_ADDRESS);
}

export function warpQuorum(rules: PredicateRules): bigint {
  const cfg = rules.precompiles.get(WARP_ADDRESS)?.config as { quorumNumerator?: bigint } | undefined;
  const q = cfg?.quorumNumerator ?? 0n;
  return q === 0n ? 67n : q;
}

export function requirePrimaryNetworkSigners(rules: PredicateRules): boolean {
  const cfg = rules.precompiles.get(WARP_ADDRESS)?.config as { requirePrimaryNetworkSigners?: boolean } | undefined;
  return cfg?.requirePrimaryNetworkSigners === true;
}

type AccessTuple = [Uint8Array, Uint8Array[]];

/** The storage keys of each warp tuple of a tx's access list, in access-list order. */
export function warpTuples(tx: unknown): Uint8Array[][] {
  const list = (tx as { accessList?: AccessTuple[] }).accessList;
  if (!Array.isArray(list)) return [];
  const out: Uint8Array[][] = [];
  for (const [address, keys] of list) {
    if (Buffer.from(address).equals(WARP_ADDRESS_BYTES)) out.push(keys);
  }
  return out;
}

/** The signed warp message a predicate carries, with Subnet-EVM's error texts. */
export function parsePredicate(keys: Uint8Array[]): SignedMessage {
  let bytes: Uint8Array;
  try {
    bytes = unpackPredicate(keys);
  } catch (e) {
    // unpackPredicate's texts already start with "cannot unpack predicate bytes: ".
    throw new Error((e as Error).message);
  }
  let msg: SignedMessage;
  try {
    msg = decodeSigned(bytes);
  } catch (e) {
    throw new Error(`cannot unpack warp message: ${(e as Error).message}`);
  }
  try {
    decodePayload(msg.unsigned.payload);
  } catch (e) {
    throw new Error(`cannot unpack warp message payload: ${(e as Error).message}`);
  }
  return msg;
}

/** Warp's PredicateGas: base + chunk gas × chunks + signer gas × signers; throws on malformed predicates. */
export function predicateGas(keys: Uint8Array[], isGranite: boolean): bigint {
  const g = isGranite ? PREDICATE_GAS.granite : PREDICATE_GAS.preGranite;
  const chunks = BigInt(keys.length);
  const bytesGas = g.perChunk * chunks;
  if (bytesGas > MAX_UINT64) throw new Error(`overflow calculating gas cost for warp message bytes of size ${keys.length}`);
  let total = g.verifyBase + bytesGas;
  if (total > MAX_UINT64) throw new Error(`overflow adding bytes gas cost of size ${keys.length}`);
  const msg = parsePredicate(keys);
  let signers: number;
  try {
    signers = numSigners(msg);
  } catch (e) {
    throw new Error(`cannot fetch num signers from warp message: ${(e as Error).message}`);
  }
  const signerGas = BigInt(signers) * g.perSigner;
  total += signerGas;
  if (total > MAX_UINT64) throw new Error(`overflow adding signer gas (PrevTotal: ${total - signerGas}, VerificationGas: ${signerGas})`);
  return total;
}

/**
 * Subnet-EVM's intrinsic gas for a tx: warp tuples cost their predicate gas instead of
 * 2,400 + 1,900 per key. Returns undefined when the tx has no warp tuple or predicates are off.
 */
export function warpIntrinsicGas(tx: { getIntrinsicGas(): bigint; common: { param(n: string): bigint } }, rules: PredicateRules): bigint | undefined {
  if (!rules.isDurango || !warpEnabled(rules)) return undefined;
  const tuples = warpTuples(tx);
  if (tuples.length === 0) return undefined;
  const addressGas = tx.common.param('accessListAddressGas');
  const keyGas = tx.common.param('accessListStorageKeyGas');
  let gas = tx.getIntrinsicGas();
  for (const keys of tuples) {
    gas -= addressGas + keyGas * BigInt(keys.length);
    gas += predicateGas(keys, rules.isGranite);
  }
  return gas;
}

/**
 * Makes `tx.getIntrinsicGas()` answer Subnet-EVM's value (pool admission, eth_call, runTx).
 * Throws the predicate error of a malformed warp tuple. A frozen tx is replaced by an unfrozen
 * copy (`thaw`), which is returned; otherwise the tx itself is returned.
 */
export function applyWarpIntrinsicGas<T extends object>(tx: T, rules: PredicateRules, thaw: (tx: T) => T): T {
  // Already prepared (a pool tx kept as a built block's tx, replayed for tracing): once only.
  if (Object.prototype.hasOwnProperty.call(tx, 'getIntrinsicGas')) return tx;
  const gas = warpIntrinsicGas(tx as never, rules);
  if (gas === undefined) return tx;
  const target = Object.isFrozen(tx) ? thaw(tx) : tx;
  Object.defineProperty(target, 'getIntrinsicGas', { value: () => gas, configurable: true });
  return target;
}

// ---------------------------------------------------------------------------------------------
// Verification

/** The validator facts verification needs (implemented over the node's ValidatorManager). */
export interface PredicateVerifier {
  networkID: number;
  /** This chain's subnet (used for Primary Network sources unless requirePrimaryNetworkSigners). */
  subnetID: string;
  /** Subnet of a blockchain (CB58 ID), undefined if unknown. */
  subnetOf(chainID: Uint8Array): string | undefined;
  validators(subnetID: string): { nodeID: string; weight: bigint; blsPublicKey?: Uint8Array }[];
}

const PRIMARY_NETWORK_ID = '11111111111111111111111111111111LpoYY';

/** Warp's VerifyPredicate: throws why the predicate is invalid. */
export function verifyPredicate(keys: Uint8Array[], rules: PredicateRules, v: PredicateVerifier): void {
  const msg = parsePredicate(keys);
  if (msg.unsigned.networkID !== v.networkID) {
    throw new Error(`wrong network ID: expected ${v.networkID}, got ${msg.unsigned.networkID}`);
  }
  let subnet = v.subnetOf(msg.unsigned.sourceChainID);
  if (subnet === undefined) throw new Error('failed to get validator set: source chain not found');
  if (subnet === PRIMARY_NETWORK_ID && !requirePrimaryNetworkSigners(rules)) subnet = v.subnetID;
  if (msg.signerBytes && msg.signerBytes.length > 0 && msg.signerBytes[0] === 0) throw new Error('bitset is invalid');
  const set = canonicalSet(v.validators(subnet));
  verifyWarpSignature(msg.unsignedBytes, msg.signers, msg.signature, set, warpQuorum(rules));
}

/** CheckPredicates for one tx: bit i set = warp predicate i failed verification. */
export function checkTxPredicates(tuples: Uint8Array[][], rules: PredicateRules, v: PredicateVerifier): bigint {
  let failed = 0n;
  tuples.forEach((keys, i) => {
    try {
      verifyPredicate(keys, rules, v);
    } catch {
      failed |= 1n << BigInt(i);
    }
  });
  return failed;
}

// ---------------------------------------------------------------------------------------------
// Predicate results (header extraData after the 80-byte fee window)

/** Go's set.Bits.Bytes(): minimal big-endian. */
function bitsBytes(bits: bigint): Uint8Array {
  if (bits === 0n) return new Uint8Array();
  let h = bits.toString(16);
  if (h.length % 2) h = '0' + h;
  return Buffer.from(h, 'hex');
}

/**
 * `predicate.Results` in the linear codec: u16 0 ‖ u32 #txs ‖ (32B txHash ‖ u32 #addrs ‖
 * (20B addr ‖ u32 len ‖ bitset)…)…, map entries sorted by key bytes.
 */
export function encodePredicateResults(results: ReadonlyMap<string /* 0x tx hash */, bigint>): Uint8Array {
  const entries = [...results.entries()].map(([h, bits]) => ({ hash: Buffer.from(h.slice(2), 'hex'), bits: bitsBytes(bits) }));
  entries.sort((a, b) => Buffer.compare(a.hash, b.hash));
  const parts: Buffer[] = [Buffer.from([0, 0]), u32(entries.length)];
  for (const e of entries) {
    parts.push(e.hash, u32(1), WARP_ADDRESS_BYTES, u32(e.bits.length), Buffer.from(e.bits));
  }
  return Buffer.concat(parts);
}

/** Parses extraData[80:] back into tx hash → warp bitset (for reads of past blocks and tests). */
export function decodePredicateResults(b: Uint8Array): Map<string, bigint> {
  const buf = Buffer.from(b);
  const out = new Map<string, bigint>();
  if (buf.length < 6 || buf.readUInt16BE(0) !== 0) throw new Error('invalid predicate results');
  let pos = 2;
  const n = buf.readUInt32BE(pos);
  pos += 4;
  for (let i = 0; i < n; i++) {
    const hash = '0x' + buf.subarray(pos, pos + 32).toString('hex');
    pos += 32;
    const addrs = buf.readUInt32BE(pos);
    pos += 4;
    for (let j = 0; j < addrs; j++) {
      const addr = buf.subarray(pos, pos + 20);
      pos += 20;
      const len = buf.readUInt32BE(pos);
      pos += 4;
      const bits = buf.subarray(pos, pos + len);
      pos += len;
      if (addr.equals(WARP_ADDRESS_BYTES)) out.set(hash, bits.length ? BigInt('0x' + bits.toString('hex')) : 0n);
    }
  }
  if (pos !== buf.length) throw new Error('invalid predicate results: trailing bytes');
  return out;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

// ---------------------------------------------------------------------------------------------
// The current transaction's predicates, per EVM (read by the Warp precompile)

export interface TxPredicates {
  /** Storage keys of each warp tuple, in access-list order (index i of the getters). */
  tuples: Uint8Array[][];
  /** Bit i set = predicate i failed verification. */
  failed: bigint;
}

const current = new WeakMap<object, TxPredicates>();

export function setTxPredicates(evm: object, p: TxPredicates | undefined): void {
  if (p && p.tuples.length) current.set(evm, p);
  else current.delete(evm);
}

export function txPredicatesOf(evm: object): TxPredicates | undefined {
  return current.get(evm);
}
