// The Warp precompile's getVerifiedWarpMessage / getVerifiedWarpBlockHash bodies (§8.8): the
// index-th warp predicate of the running tx, if present and verified, else the zero value with
// valid = false. Called by src/evm/precompiles/warp.ts after it charged the base gas and decoded
// the index.
import { decodePayload } from './codec.js';
import { PREDICATE_GAS, parsePredicate, txPredicatesOf } from './predicates.js';

function word(n: bigint): Uint8Array {
  const b = new Uint8Array(32);
  let v = n;
  for (let i = 31; i >= 0 && v > 0n; i--) {
    b[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return b;
}
function padRight(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(b.length / 32) * 32);
  out.set(b);
  return out;
}
function left32(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  out.set(b.subarray(Math.max(0, b.length - 32)), 32 - Math.min(32, b.length));
  return out;
}
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts.map((p) => Buffer.from(p))));

/** The i-th predicate's signed message when present and valid (charging the chunk gas), else undefined. */
function validPredicate(evm: object, index: number, isGranite: boolean, charge: (gas: bigint) => void) {
  const p = txPredicatesOf(evm);
  const keys = p?.tuples[index];
  if (!p || !keys || (p.failed >> BigInt(index)) & 1n) return undefined;
  // The message size is charged again on each read (verification was charged in intrinsic gas).
  charge((isGranite ? PREDICATE_GAS.granite : PREDICATE_GAS.preGranite).perChunk * BigInt(keys.length));
  return parsePredicate(keys);
}

/** ABI (tuple(bytes32 sourceChainID, address originSenderAddress, bytes payload) message, bool valid). */
export function getVerifiedWarpMessage(evm: object, index: number, isGranite: boolean, charge: (gas: bigint) => void): Uint8Array {
  const msg = validPredicate(evm, index, isGranite, charge);
  if (!msg) return concat(word(64n), word(0n), word(0n), word(0n), word(96n), word(0n));
  const payload = decodePayload(msg.unsigned.payload);
  if (payload.type !== 'addressedCall') throw new Error('cannot unpack addressed payload: *payload.Hash');
  return concat(
    word(64n),
    word(1n),
    msg.unsigned.sourceChainID,
    left32(payload.sourceAddress.subarray(Math.max(0, payload.sourceAddress.length - 20))),
    word(96n),
    word(BigInt(payload.payload.length)),
    padRight(payload.payload),
  );
}

/** ABI (tuple(bytes32 sourceChainID, bytes32 blockHash) warpBlockHash, bool valid). */
export function getVerifiedWarpBlockHash(evm: object, index: number, isGranite: boolean, charge: (gas: bigint) => void): Uint8Array {
  const msg = validPredicate(evm, index, isGranite, charge);
  if (!msg) return concat(word(0n), word(0n), word(0n));
  const payload = decodePayload(msg.unsigned.payload);
  if (payload.type !== 'hash') throw new Error('cannot unpack block hash payload: *payload.AddressedCall');
  return concat(msg.unsigned.sourceChainID, payload.hash, word(1n));
}
