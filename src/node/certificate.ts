// A minimal self-signed X.509 certificate (ECDSA P-256, SHA-256), DER-encoded by hand: Node.js
// can sign but not build certificates, and the NodeID is the hash of this DER.
import { createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';

function len(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  while (n > 0) {
    bytes.unshift(n & 0xff);
    n >>= 8;
  }
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), len(body.length), body]);
};
const seq = (...p: Buffer[]) => tlv(0x30, ...p);
const oid = (hex: string) => tlv(0x06, Buffer.from(hex, 'hex'));
/** DER INTEGER of an unsigned big-endian value: minimal length (no leading zero bytes), and a
 *  0x00 prefix when the high bit is set so it stays positive. */
const int = (b: Buffer) => {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  const v = b.subarray(i);
  return tlv(0x02, v[0] & 0x80 ? Buffer.concat([Buffer.from([0]), v]) : v);
};
/** YYYYMMDDHHMMSS of a time (UTC), cut from its ISO string. */
const digits = (d: Date) => {
  const s = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  return s.slice(0, 4) + s.slice(5, 7) + s.slice(8, 10) + s.slice(11, 13) + s.slice(14, 16) + s.slice(17, 19);
};
const utcTime = (d: Date) => tlv(0x17, Buffer.from(digits(d).slice(2) + 'Z'));
const genTime = (d: Date) => tlv(0x18, Buffer.from(digits(d) + 'Z'));

const ECDSA_SHA256 = seq(oid('2a8648ce3d040302'));

/** The certificate as PEM. */
export function selfSignedCertificate(privateKey: KeyObject): string {
  return certificatePem(selfSignedCertificateDer(privateKey));
}

export function certificatePem(der: Buffer): string {
  const b64 = der.toString('base64').replace(/(.{64})/g, '$1\n').trim();
  return `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`;
}

/** The certificate's DER (the NodeID's input); `spki` is the key's public half as DER, when the caller has it. */
export function selfSignedCertificateDer(privateKey: KeyObject, spki: Buffer = createPublicKey(privateKey).export({ format: 'der', type: 'spki' })): Buffer {
  const serialBytes = randomBytes(16);
  serialBytes[0] &= 0x7f; // RFC 5280: a positive serial of at most 20 octets
  serialBytes[0] |= 0x01;
  const serial = int(serialBytes);
  const name = seq(); // AvalancheGo staking certificates carry an empty subject and issuer.
  const validity = seq(utcTime(new Date()), genTime(new Date('2099-12-31T00:00:00Z')));
  const tbs = seq(tlv(0xa0, int(Buffer.from([2]))), serial, ECDSA_SHA256, name, validity, name, spki);
  const sig = sign('sha256', tbs, privateKey);
  return seq(tbs, ECDSA_SHA256, tlv(0x03, Buffer.concat([Buffer.from([0]), sig])));
}
