// A request path as Go's net/url holds it and writes it back: URL.Path is the target's path with
// its escapes decoded to bytes, and URL.EscapedPath (what gorilla/mux's redirect puts in
// `Location`) escapes every byte but the unreserved ones and `$&+,/:;=@`. Paths are carried here
// as one char per byte (latin1), so bytes that are not UTF-8 (`%FF`) survive the round trip.

/** URL.Path as bytes: each `%XX` decoded (the front door refuses malformed escapes before this). */
export function pathBytes(raw: string): string {
  if (!raw.includes('%')) return raw;
  return raw.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Bytes URL.EscapedPath writes as they are (shouldEscape with encodePath). */
const UNESCAPED = /^[A-Za-z0-9\-_.~$&+,/:;=@]$/;

/** URL.EscapedPath of a path given as bytes (a char above U+00FF counts as its UTF-8 bytes). */
export function escapePath(bytes: string): string {
  let out = '';
  for (const c of bytes) {
    if (UNESCAPED.test(c)) out += c;
    else for (const b of c.charCodeAt(0) <= 0xff ? [c.charCodeAt(0)] : Buffer.from(c, 'utf8')) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}
