// A chain's warp backend (subnet-evm warp/backend.go): messages sent by accepted blocks are stored
// and signed; the node signs accepted blocks' hashes; aggregate signatures come from every
// validator of the source subnet whose BLS secret key this node holds.
import type { KVStore } from '../db/database.js';
import { idToString, parseID } from '../ids/ids.js';
import { LONGEST_ID } from '../rpc/idArgs.js';
import type { ValidatorManager } from '../validators/manager.js';
import { decodePayload, decodeUnsigned, encodePayload, encodeSigned, encodeUnsigned, messageID } from './codec.js';
import { aggregate, canonicalSet, sign, verifyWarpSignature } from './signer.js';

export interface WarpBackendDeps {
  store: KVStore;
  networkID: number;
  chainID: string;
  subnetID: string;
  validators: ValidatorManager;
  /** Is this block hash (= Avalanche block ID bytes) an accepted block of the chain? */
  isAccepted(blockHash: Uint8Array): boolean;
  /** VM config `warp-off-chain-messages`: unsigned messages of this chain served as if sent on chain. */
  offChainMessages?: readonly Uint8Array[];
}

const MSG = 'warp/msg/';

export class WarpBackend {
  private readonly chainIDBytes: Uint8Array;
  /** Off-chain messages by message ID (CB58). */
  private readonly offChain = new Map<string, Uint8Array>();

  constructor(private readonly d: WarpBackendDeps) {
    this.chainIDBytes = parseID(d.chainID);
    // Subnet-EVM's initOffChainMessages: each must be an unsigned message of this network and
    // chain with a valid payload, else the VM does not start.
    (d.offChainMessages ?? []).forEach((bytes, i) => {
      let m;
      try {
        m = decodeUnsigned(bytes);
      } catch (e) {
        throw new Error(`failed to parse off-chain message at index ${i}: ${(e as Error).message}`);
      }
      if (m.networkID !== d.networkID) throw new Error(`wrong networkID at index ${i}`);
      if (!Buffer.from(m.sourceChainID).equals(Buffer.from(this.chainIDBytes))) throw new Error(`wrong SourceChainID at index ${i}`);
      try {
        decodePayload(m.payload);
      } catch (e) {
        throw new Error(`failed to parse off-chain message at index ${i} as AddressedCall: ${(e as Error).message}`);
      }
      this.offChain.set(idToString(messageID(bytes)), Uint8Array.from(bytes));
    });
  }

  /** Called for each SendWarpMessage log of an accepted block (in the block's write batch). */
  acceptedMessageOps(unsignedBytes: Uint8Array): [Uint8Array, Uint8Array] {
    return [Buffer.from(MSG + idToString(messageID(unsignedBytes))), unsignedBytes];
  }

  getMessage(id: string): Uint8Array {
    const off = this.offChain.get(id);
    if (off) return off;
    const raw = this.d.store.get(Buffer.from(MSG + id));
    if (!raw) throw new Error(`failed to get message ${id} with error not found`);
    return raw;
  }

  getMessageSignature(id: string): Uint8Array {
    const msg = this.getMessage(id);
    return sign(this.d.validators.selfSecretKey, msg);
  }

  /** The unsigned message whose payload is Hash(blockID), for an accepted block. */
  blockMessage(blockID: string): Uint8Array {
    const hash = parseID(blockID);
    if (!this.d.isAccepted(hash)) {
      throw new Error(`failed to get signature for block ${blockID} with error failed to validate block message: failed to get block ${blockID}: not found`);
    }
    return encodeUnsigned({ networkID: this.d.networkID, sourceChainID: this.chainIDBytes, payload: encodePayload({ type: 'hash', hash }) });
  }

  getBlockSignature(blockID: string): Uint8Array {
    return sign(this.d.validators.selfSecretKey, this.blockMessage(blockID));
  }

  /** Signed message bytes with the signatures of every held validator key of the subnet. */
  aggregateSignature(unsignedBytes: Uint8Array, quorumNum: bigint, subnetIDArg: string): Uint8Array {
    let subnetID = this.d.subnetID;
    if (subnetIDArg !== '') {
      try {
        // Longer than any ID: an error without the quadratic base58 decode (rpc/idArgs.ts).
        if (subnetIDArg.length > LONGEST_ID) throw new Error('too long');
        parseID(subnetIDArg);
      } catch {
        throw new Error(`failed to parse subnetID: ${JSON.stringify(subnetIDArg)}`);
      }
      subnetID = subnetIDArg;
    }
    if (!this.d.validators.hasSubnet(subnetID)) throw new Error(`cannot retrieve validator set: ${subnetID} source subnet not found`);
    const vals = this.d.validators.current(subnetID);
    const set = canonicalSet(vals);
    if (set.validators.length === 0) {
      throw new Error(`cannot aggregate signatures from subnet with no validators (SubnetID: ${subnetID}, Height: 0)`);
    }
    const sigs: Uint8Array[] = [];
    let signers = 0n;
    set.validators.forEach((v, i) => {
      const key = v.nodeIDs.map((n) => this.d.validators.secretKeyOf(n)).find((k) => k !== undefined);
      if (!key) return;
      sigs.push(sign(key, unsignedBytes));
      signers |= 1n << BigInt(i);
    });
    if (sigs.length === 0) throw new Error('failed to aggregate signatures: this node holds no key of the subnet\'s validators');
    const signature = aggregate(sigs);
    try {
      verifyWarpSignature(unsignedBytes, signers, signature, set, quorumNum);
    } catch (e) {
      throw new Error(`failed to aggregate signatures: ${(e as Error).message}`);
    }
    return encodeSigned({ unsignedBytes, signers, signature });
  }
}
