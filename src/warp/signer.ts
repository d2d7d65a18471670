// BLS signing and verification of warp messages against a validator set and quorum.
// @chainsafe/blst signs with the ciphersuite BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_, the
// one AvalancheGo uses for warp signatures.
import { blst, type PublicKey, type Signature } from './blst.js';

export interface WarpValidator {
  publicKey: Uint8Array; // 48-byte compressed
  weight: bigint;
  nodeIDs: string[];
}

export function sign(secretKey: Uint8Array, unsignedBytes: Uint8Array): Uint8Array {
  return blst().SecretKey.fromBytes(secretKey).sign(unsignedBytes).toBytes(true);
}

export function publicKeyOf(secretKey: Uint8Array): Uint8Array {
  return blst().SecretKey.fromBytes(secretKey).toPublicKey().toBytes(true);
}

/**
 * The canonical validator set (AvalancheGo warp.GetCanonicalValidatorSet): validators with a BLS key,
 * merged by key, sorted by the key's uncompressed bytes; a signer bitset indexes this order.
 */
export function canonicalSet(validators: { nodeID: string; weight: bigint; blsPublicKey?: Uint8Array }[]): {
  validators: WarpValidator[];
  totalWeight: bigint;
} {
  const byKey = new Map<string, WarpValidator & { sortKey: Buffer }>();
  let totalWeight = 0n;
  for (const v of validators) {
    totalWeight += v.weight;
    if (!v.blsPublicKey) continue;
    const hex = Buffer.from(v.blsPublicKey).toString('hex');
    const existing = byKey.get(hex);
    if (existing) {
      existing.weight += v.weight;
      existing.nodeIDs.push(v.nodeID);
    } else {
      const sortKey = Buffer.from(blst().PublicKey.fromBytes(v.blsPublicKey).toBytes(false));
      byKey.set(hex, { publicKey: v.blsPublicKey, weight: v.weight, nodeIDs: [v.nodeID], sortKey });
    }
  }
  const list = [...byKey.values()].sort((a, b) => Buffer.compare(a.sortKey, b.sortKey));
  return { validators: list.map(({ publicKey, weight, nodeIDs }) => ({ publicKey, weight, nodeIDs })), totalWeight };
}

export function aggregate(signatures: Uint8Array[]): Uint8Array {
  const { aggregateSignatures, Signature } = blst();
  return aggregateSignatures(signatures.map((s) => Signature.fromBytes(s, true))).toBytes(true);
}

/** Verifies a signed warp message: signers exist, weight meets quorum, aggregate signature valid. */
export function verifyWarpSignature(
  unsignedBytes: Uint8Array,
  signers: bigint,
  signature: Uint8Array,
  set: { validators: WarpValidator[]; totalWeight: bigint },
  quorumNumerator: bigint,
  quorumDenominator = 100n,
): void {
  if (signers >> BigInt(set.validators.length) !== 0n) {
    throw new Error(`bitset is invalid: signer index out of range (${set.validators.length} validators)`);
  }
  const keys: PublicKey[] = [];
  let weight = 0n;
  set.validators.forEach((v, i) => {
    if ((signers >> BigInt(i)) & 1n) {
      keys.push(blst().PublicKey.fromBytes(v.publicKey));
      weight += v.weight;
    }
  });
  if (weight * quorumDenominator < set.totalWeight * quorumNumerator) {
    throw new Error(`insufficient weight: signed ${weight} of ${set.totalWeight}, quorum ${quorumNumerator}/${quorumDenominator}`);
  }
  if (keys.length === 0) throw new Error('no signers');
  let sig: Signature;
  try {
    sig = blst().Signature.fromBytes(signature, true);
  } catch {
    throw new Error('invalid signature: not a BLS signature');
  }
  if (!blst().verify(unsignedBytes, blst().aggregatePublicKeys(keys), sig)) throw new Error('invalid signature');
}
