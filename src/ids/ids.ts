// AvalancheGo's ID kinds: 32-byte IDs (chains, subnets, VMs) and 20-byte NodeIDs, with their
// string forms and exact parse errors (reference: avalanchego-node.md §8).
import { createHash } from 'node:crypto';
import { cb58Decode, cb58Encode } from './cb58.js';

export const EMPTY_ID = '11111111111111111111111111111111LpoYY';
export const NODE_ID_PREFIX = 'NodeID-';

/** Parses a CB58 32-byte ID, throwing AvalancheGo's error texts. */
export function parseID(s: string): Uint8Array {
  const b = cb58Decode(s);
  if (b.length !== 32) throw new Error(`invalid hash length: expected 32 bytes but got ${b.length}`);
  return b;
}

/**
 * Parses an ID as ids.ID's UnmarshalJSON does a JSON string (also a map key such as an aliases
 * file's): a CB58 error comes wrapped, `couldn't decode ID to bytes: invalid input checksum`; a
 * wrong length does not.
 */
export function parseIDFromJSON(s: string): Uint8Array {
  let b: Uint8Array;
  try {
    b = cb58Decode(s);
  } catch (e) {
    throw new Error(`couldn't decode ID to bytes: ${(e as Error).message}`);
  }
  if (b.length !== 32) throw new Error(`invalid hash length: expected 32 bytes but got ${b.length}`);
  return b;
}

export function idToString(bytes: Uint8Array): string {
  if (bytes.length !== 32) throw new Error(`invalid hash length: expected 32 bytes but got ${bytes.length}`);
  return cb58Encode(bytes);
}

export function isValidID(s: string): boolean {
  try {
    parseID(s);
    return true;
  } catch {
    return false;
  }
}

/** The convention AvalancheGo uses for well-known VM IDs: the name's bytes, zero-padded to 32. */
export function vmIDFromName(name: string): string {
  const bytes = Buffer.from(name, 'utf8');
  if (bytes.length > 32) throw new Error(`VM name "${name}" is longer than 32 bytes`);
  const id = new Uint8Array(32);
  id.set(bytes);
  return cb58Encode(id);
}

/** Deterministic 32-byte ID of arbitrary content (sha256), as AvalancheGo IDs of tx bytes are. */
export function idFromContent(...parts: (string | Uint8Array)[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return cb58Encode(h.digest());
}

export function parseNodeID(s: string): Uint8Array {
  if (!s.startsWith(NODE_ID_PREFIX)) throw new Error(`ID: ${s} is missing the prefix: ${NODE_ID_PREFIX}`);
  const b = cb58Decode(s.slice(NODE_ID_PREFIX.length));
  if (b.length !== 20) throw new Error(`invalid hash length: expected 20 bytes but got ${b.length}`);
  return b;
}

export function nodeIDToString(bytes: Uint8Array): string {
  return NODE_ID_PREFIX + cb58Encode(bytes);
}

/** NodeID = RIPEMD-160(SHA-256(DER certificate)), as AvalancheGo derives it. */
export function nodeIDFromCertificate(der: Uint8Array): string {
  const sha = createHash('sha256').update(der).digest();
  return nodeIDToString(createHash('ripemd160').update(sha).digest());
}
