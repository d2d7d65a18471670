// AvalancheGo's formatting.HexNC (0x-prefixed hex, no checksum) with Go's exact error texts.

/** Go's strconv.IsPrint, close enough for single bytes: printable Latin-1 except the soft hyphen. */
function isPrintByte(b: number): boolean {
  return (b >= 0x20 && b < 0x7f) || (b >= 0xa1 && b !== 0xad);
}

/** Go's `%#U` of a byte-as-rune: `U+0067 'g'`, or `U+0000` for unprintable ones. */
function goRune(b: number): string {
  const code = 'U+' + b.toString(16).toUpperCase().padStart(4, '0');
  return isPrintByte(b) ? `${code} '${String.fromCharCode(b)}'` : code;
}

const HEX = /^[0-9a-fA-F]$/;

/** formatting.Decode(HexNC, s): "" is the empty byte string. */
export function decodeHexNC(s: string): Uint8Array {
  if (s === '') return new Uint8Array(0);
  if (!s.startsWith('0x')) throw new Error('missing 0x prefix to hex encoding');
  // Go's hex.DecodeString walks bytes (not characters), reporting the first invalid byte before
  // an odd length.
  const src = Buffer.from(s.slice(2), 'utf8');
  const bad = (b: number) => new Error(`encoding/hex: invalid byte: ${goRune(b)}`);
  const ok = (b: number) => HEX.test(String.fromCharCode(b));
  let j = 1;
  for (; j < src.length; j += 2) {
    if (!ok(src[j - 1])) throw bad(src[j - 1]);
    if (!ok(src[j])) throw bad(src[j]);
  }
  if (src.length % 2 === 1) {
    if (!ok(src[j - 1])) throw bad(src[j - 1]);
    throw new Error('encoding/hex: odd length hex string');
  }
  return Buffer.from(src.toString('latin1'), 'hex');
}

export function encodeHexNC(b: Uint8Array): string {
  return '0x' + Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}
