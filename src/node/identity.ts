// The node's staking identity, persisted in the data dir: a TLS key + self-signed certificate
// (NodeID = RIPEMD-160(SHA-256(DER certificate))) and a BLS signer key.
import { generateKeyPairSync, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { nodeIDFromCertificate } from '../ids/ids.js';
import { certificatePem, selfSignedCertificateDer } from './certificate.js';

export interface StakingIdentity {
  nodeID: string;
  /** DER of the staking certificate. */
  certificate: Uint8Array;
  /** 32-byte BLS secret key. */
  blsSecretKey: Uint8Array;
}

function writePrivate(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data, { mode: 0o600 });
}

export function loadOrCreateIdentity(opts: {
  keyFile: string;
  certFile: string;
  signerFile: string;
  ephemeralCert: boolean;
  ephemeralSigner: boolean;
}): StakingIdentity {
  let der: Buffer;
  if (!opts.ephemeralCert && existsSync(opts.certFile) && existsSync(opts.keyFile)) {
    const certPem = readFileSync(opts.certFile, 'utf8');
    try {
      der = new X509Certificate(certPem).raw;
    } catch (e) {
      throw new Error(
        `staking TLS certificate ${opts.certFile} cannot be parsed (${(e as Error).message}); remove it and its key to get a new NodeID`,
      );
    }
  } else {
    // A new certificate's DER is the one just built (no parse of it back: ~0.5 ms of a first start).
    // Node.js encodes the public half as asked and keeps the private one a KeyObject (its types
    // only know both encoded or neither).
    const generate = generateKeyPairSync as unknown as (type: 'ec', options: object) => { privateKey: KeyObject; publicKey: Buffer };
    const { privateKey, publicKey } = generate('ec', { namedCurve: 'P-256', publicKeyEncoding: { type: 'spki', format: 'der' } });
    der = selfSignedCertificateDer(privateKey, publicKey);
    if (!opts.ephemeralCert) {
      writePrivate(opts.keyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }) as string);
      writePrivate(opts.certFile, certificatePem(der));
    }
  }
  let bls: Uint8Array;
  if (!opts.ephemeralSigner && existsSync(opts.signerFile)) {
    bls = readFileSync(opts.signerFile);
    if (bls.length !== 32) throw new Error(`staking signer key ${opts.signerFile} must hold 32 bytes, found ${bls.length}`);
  } else {
    bls = randomBlsSecretKey();
    if (!opts.ephemeralSigner) writePrivate(opts.signerFile, bls);
  }
  return { nodeID: nodeIDFromCertificate(der), certificate: der, blsSecretKey: bls };
}

/** The BLS12-381 group order r: a secret key is a scalar in [1, r). */
const BLS_ORDER = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;

/**
 * A fresh BLS secret key: 48 random bytes reduced mod r (the bias, below 2^-128, is nil; noble's
 * mapHashToField does the same). AvalancheGo runs blst's KeyGen on 32 random bytes, which gives
 * keys of the same distribution; this needs neither BLS library at start (loading them costs
 * ~5–10 ms of a cold start, and a start only stores the key).
 */
export function randomBlsSecretKey(): Uint8Array {
  for (;;) {
    const k = BigInt('0x' + randomBytes(48).toString('hex')) % BLS_ORDER;
    if (k !== 0n) return Buffer.from(k.toString(16).padStart(64, '0'), 'hex');
  }
}

/**
 * The BLS proof of possession AvalancheGo's info.getNodeID shows: the compressed public key (48 bytes)
 * and a signature of those bytes under the PoP ciphersuite DST (96 bytes, compressed G2), made with
 * @noble/curves (already installed as a dependency of @ethereumjs/evm): @chainsafe/blst only signs
 * with the message DST (BLS_SIG_…). Loaded with the first call, not at start.
 */
export async function proofOfPossession(blsSecretKey: Uint8Array): Promise<{ publicKey: Uint8Array; proofOfPossession: Uint8Array }> {
  const { bls12_381 } = await import('@noble/curves/bls12-381.js');
  const bls = bls12_381.longSignatures;
  const publicKey = bls.getPublicKey(blsSecretKey).toBytes(true);
  const sig = bls.sign(bls.hash(publicKey, POP_DST), blsSecretKey);
  return { publicKey, proofOfPossession: bls.Signature.toBytes(sig) };
}

export const POP_DST = 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';

