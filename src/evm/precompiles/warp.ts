// Warp (0x0200…0005, reference §8.8): the sending side (sendWarpMessage + SendWarpMessage log),
// getBlockchainID, and the verification getters answered as Subnet-EVM does for a transaction
// that carries no warp predicate (zero value, valid = false, base gas only).
import { createHash } from 'node:crypto';
import { addressWord, bytesTail, concat, fromHex, readBytesArg, readWords, selectorOf, topicOf, uintWord, wordToBigInt } from './abi.js';
import { WARP_ADDRESS } from './addresses.js';
import { getVerifiedWarpBlockHash as verifiedWarpBlockHash, getVerifiedWarpMessage as verifiedWarpMessage } from '../../warp/getters.js';
import { PrecompileError, statefulPrecompile, type PrecompileCall, type PrecompileFunction } from './runtime.js';

export const WARP_GAS = {
  preGranite: { getBlockchainID: 2n, getVerifiedBase: 2n },
  granite: { getBlockchainID: 200n, getVerifiedBase: 750n },
  sendWarpMessageBase: 41_500n,
  sendWarpMessagePerByte: 8n,
} as const;

export const WARP_SELECTORS = {
  sendWarpMessage: selectorOf('sendWarpMessage(bytes)'),
  getVerifiedWarpMessage: selectorOf('getVerifiedWarpMessage(uint32)'),
  getVerifiedWarpBlockHash: selectorOf('getVerifiedWarpBlockHash(uint32)'),
  getBlockchainID: selectorOf('getBlockchainID()'),
} as const;
export const SEND_WARP_MESSAGE_TOPIC = topicOf('SendWarpMessage(address,bytes32,bytes)');

function u16(n: number): Uint8Array {
  return new Uint8Array([(n >> 8) & 0xff, n & 0xff]);
}
function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n >>> 0);
  return b;
}

/** AddressedCall payload: codec 0 ‖ typeID 1 ‖ len ‖ sourceAddress ‖ len ‖ payload. */
export function addressedCallBytes(sourceAddress: Uint8Array, payload: Uint8Array): Uint8Array {
  return concat(u16(0), u32(1), u32(sourceAddress.length), sourceAddress, u32(payload.length), payload);
}

/** UnsignedMessage: codec 0 ‖ networkID ‖ sourceChainID ‖ len ‖ payload. */
export function unsignedMessageBytes(networkID: number, sourceChainID: Uint8Array, payload: Uint8Array): Uint8Array {
  return concat(u16(0), u32(networkID), sourceChainID, u32(payload.length), payload);
}

export function warpMessageID(unsigned: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(unsigned).digest());
}

function gas(call: PrecompileCall) {
  return call.rules.isGranite ? WARP_GAS.granite : WARP_GAS.preGranite;
}

const sendWarpMessage: PrecompileFunction = {
  selector: WARP_SELECTORS.sendWarpMessage,
  async run(call, input) {
    call.charge(WARP_GAS.sendWarpMessagePerByte * BigInt(input.length));
    call.charge(WARP_GAS.sendWarpMessageBase);
    call.writeProtect();
    let payload: Uint8Array;
    try {
      payload = readBytesArg(input);
    } catch (e) {
      throw new PrecompileError(`invalid sendWarpMessage input: ${(e as Error).message}`);
    }
    const unsigned = unsignedMessageBytes(
      call.env.networkID,
      call.env.blockchainID,
      addressedCallBytes(fromHex(call.caller), payload),
    );
    const id = warpMessageID(unsigned);
    call.emit([SEND_WARP_MESSAGE_TOPIC, addressWord(call.caller), id], concat(uintWord(32n), bytesTail(unsigned)));
    return id;
  },
};

function readIndex(input: Uint8Array): number {
  let v: bigint;
  try {
    const w = readWords(input, 1)[0]!;
    v = wordToBigInt(w);
    if (v > 0xffffffffn) throw new Error('abi: improperly formatted uint32');
  } catch (e) {
    throw new PrecompileError(`invalid index to specify warp message: ${(e as Error).message}`);
  }
  if (v > 0x7fffffffn) throw new PrecompileError('invalid index to specify warp message: larger than MaxInt32');
  return Number(v);
}

// The tx's warp predicates (set per EVM by src/warp before each tx) answer the getters; an absent
// or failed index → zero value, valid = false (base gas only).
const getVerifiedWarpMessage: PrecompileFunction = {
  selector: WARP_SELECTORS.getVerifiedWarpMessage,
  async run(call, input) {
    call.charge(gas(call).getVerifiedBase);
    // (tuple(bytes32 sourceChainID, address originSenderAddress, bytes payload) message, bool valid)
    return verifiedWarpMessage(call.evm, readIndex(input), call.rules.isGranite, (g) => call.charge(g));
  },
};

const getVerifiedWarpBlockHash: PrecompileFunction = {
  selector: WARP_SELECTORS.getVerifiedWarpBlockHash,
  async run(call, input) {
    call.charge(gas(call).getVerifiedBase);
    // (tuple(bytes32 sourceChainID, bytes32 blockHash) warpBlockHash, bool valid)
    return verifiedWarpBlockHash(call.evm, readIndex(input), call.rules.isGranite, (g) => call.charge(g));
  },
};

const getBlockchainID: PrecompileFunction = {
  selector: WARP_SELECTORS.getBlockchainID,
  async run(call) {
    call.charge(gas(call).getBlockchainID);
    const out = new Uint8Array(32);
    out.set(call.env.blockchainID.subarray(0, 32));
    return out;
  },
};

export const warpPrecompile = statefulPrecompile(WARP_ADDRESS, [
  sendWarpMessage,
  getVerifiedWarpMessage,
  getVerifiedWarpBlockHash,
  getBlockchainID,
]);
