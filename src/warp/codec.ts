// Avalanche Warp message wire formats (AvalancheGo linear codec, big-endian; subnet-evm.md §3.2):
//   UnsignedMessage = u16 codec(0) ‖ u32 networkID ‖ 32B sourceChainID ‖ u32 len ‖ payload
//   Payload         = u16 codec(0) ‖ u32 typeID ‖ fields   (0 = Hash{32B}, 1 = AddressedCall)
//   AddressedCall   = u32 len ‖ sourceAddress ‖ u32 len ‖ payload
//   Message         = UnsignedMessage ‖ u32 0 (BitSetSignature) ‖ u32 len ‖ signers ‖ 96B signature
import { createHash } from 'node:crypto';

export interface UnsignedMessage {
  networkID: number;
  sourceChainID: Uint8Array; // 32 bytes
  payload: Uint8Array;
}

export interface SignedMessage {
  unsigned: UnsignedMessage;
  unsignedBytes: Uint8Array;
  /** Bit i set = validator i of the canonical set signed. */
  signers: bigint;
  /** The bitset bytes as carried on the wire (may be non-minimal in a forged message). */
  signerBytes?: Uint8Array;
  signature: Uint8Array; // 96 bytes
}

export type WarpPayload =
  | { type: 'hash'; hash: Uint8Array }
  | { type: 'addressedCall'; sourceAddress: Uint8Array; payload: Uint8Array };

class Writer {
  private readonly parts: Buffer[] = [];
  u16(n: number) {
    const b = Buffer.alloc(2);
    b.writeUInt16BE(n);
    this.parts.push(b);
    return this;
  }
  u32(n: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    this.parts.push(b);
    return this;
  }
  raw(b: Uint8Array) {
    this.parts.push(Buffer.from(b));
    return this;
  }
  bytes(b: Uint8Array) {
    return this.u32(b.length).raw(b);
  }
  done(): Uint8Array {
    return Buffer.concat(this.parts);
  }
}

class Reader {
  pos = 0;
  constructor(
    private readonly b: Buffer,
    private readonly what: string,
  ) {}
  need(n: number) {
    if (this.pos + n > this.b.length) throw new Error(`couldn't unpack ${this.what}: insufficient length: need ${n} bytes at offset ${this.pos}, have ${this.b.length - this.pos}`);
  }
  u16() {
    this.need(2);
    const v = this.b.readUInt16BE(this.pos);
    this.pos += 2;
    return v;
  }
  u32() {
    this.need(4);
    const v = this.b.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }
  raw(n: number) {
    this.need(n);
    const v = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }
  bytes() {
    return this.raw(this.u32());
  }
  end() {
    if (this.pos !== this.b.length) throw new Error(`couldn't unpack ${this.what}: ${this.b.length - this.pos} trailing bytes`);
  }
  codec() {
    const v = this.u16();
    if (v !== 0) throw new Error(`couldn't unpack ${this.what}: unknown codec version ${v}`);
  }
}

export function encodeUnsigned(m: UnsignedMessage): Uint8Array {
  if (m.sourceChainID.length !== 32) throw new Error('source chain ID must be 32 bytes');
  return new Writer().u16(0).u32(m.networkID).raw(m.sourceChainID).bytes(m.payload).done();
}

export function decodeUnsigned(bytes: Uint8Array): UnsignedMessage {
  const r = new Reader(Buffer.from(bytes), 'unsigned warp message');
  r.codec();
  const m = { networkID: r.u32(), sourceChainID: Uint8Array.from(r.raw(32)), payload: Uint8Array.from(r.bytes()) };
  r.end();
  return m;
}

export function messageID(unsignedBytes: Uint8Array): Uint8Array {
  return createHash('sha256').update(unsignedBytes).digest();
}

export function encodePayload(p: WarpPayload): Uint8Array {
  const w = new Writer().u16(0);
  if (p.type === 'hash') {
    if (p.hash.length !== 32) throw new Error('hash payload must be 32 bytes');
    return w.u32(0).raw(p.hash).done();
  }
  return w.u32(1).bytes(p.sourceAddress).bytes(p.payload).done();
}

export function decodePayload(bytes: Uint8Array): WarpPayload {
  const r = new Reader(Buffer.from(bytes), 'warp payload');
  r.codec();
  const type = r.u32();
  let p: WarpPayload;
  if (type === 0) p = { type: 'hash', hash: Uint8Array.from(r.raw(32)) };
  else if (type === 1) p = { type: 'addressedCall', sourceAddress: Uint8Array.from(r.bytes()), payload: Uint8Array.from(r.bytes()) };
  else throw new Error(`couldn't unpack warp payload: unknown type ID ${type}`);
  r.end();
  return p;
}

/** Go's big.Int.Bytes(): minimal big-endian. */
export function bitsetBytes(bits: bigint): Uint8Array {
  if (bits === 0n) return new Uint8Array();
  let hex = bits.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  return Buffer.from(hex, 'hex');
}

export function encodeSigned(m: Pick<SignedMessage, 'unsignedBytes' | 'signers' | 'signature'>): Uint8Array {
  return new Writer().raw(m.unsignedBytes).u32(0).bytes(bitsetBytes(m.signers)).raw(m.signature).done();
}

export function decodeSigned(bytes: Uint8Array): SignedMessage {
  const b = Buffer.from(bytes);
  const r = new Reader(b, 'warp message');
  r.codec();
  r.u32();
  r.raw(32);
  r.bytes();
  const unsignedBytes = Uint8Array.from(b.subarray(0, r.pos));
  const type = r.u32();
  if (type !== 0) throw new Error(`couldn't unpack warp message: unknown signature type ${type}`);
  const signerBytes = Uint8Array.from(r.bytes());
  const signature = Uint8Array.from(r.raw(96));
  r.end();
  return {
    unsigned: decodeUnsigned(unsignedBytes),
    unsignedBytes,
    signers: signerBytes.length ? BigInt('0x' + Buffer.from(signerBytes).toString('hex')) : 0n,
    signerBytes,
    signature,
  };
}

/**
 * AvalancheGo BitSetSignature.NumSigners: the bitset must be minimal (no leading zero byte),
 * else `bitset is invalid`.
 */
export function numSigners(m: Pick<SignedMessage, 'signers' | 'signerBytes'>): number {
  if (m.signerBytes && m.signerBytes.length > 0 && m.signerBytes[0] === 0) throw new Error('bitset is invalid');
  let n = 0;
  for (let b = m.signers; b > 0n; b >>= 1n) if (b & 1n) n++;
  return n;
}

/** Warp predicate packing for access lists: bytes ‖ 0xff ‖ zero padding to 32, split in 32-byte keys. */
export function packPredicate(message: Uint8Array): Uint8Array[] {
  const len = Math.ceil((message.length + 1) / 32) * 32;
  const buf = Buffer.alloc(len);
  buf.set(message);
  buf[message.length] = 0xff;
  const out: Uint8Array[] = [];
  for (let i = 0; i < len; i += 32) out.push(Uint8Array.from(buf.subarray(i, i + 32)));
  return out;
}

export function unpackPredicate(keys: Uint8Array[]): Uint8Array {
  const buf = Buffer.concat(keys.map((k) => Buffer.from(k)));
  let i = buf.length - 1;
  while (i >= 0 && buf[i] === 0) i--;
  if (i < 0) throw new Error(`cannot unpack predicate bytes: no delimiter found: length (${buf.length})`);
  if (buf[i] !== 0xff) throw new Error('cannot unpack predicate bytes: wrong delimiter');
  const expected = Math.ceil((i + 1) / 32) * 32;
  if (expected !== buf.length) {
    throw new Error(`cannot unpack predicate bytes: predicate included excess padding: got length (${buf.length}), expected length (${expected})`);
  }
  return Uint8Array.from(buf.subarray(0, i));
}
