// The built-in modules' code cache inside a start-up snapshot blob, and its trimming.
//
// `node --build-snapshot` (Node 20) ends the blob with V8's code cache of every one of Node's ~320
// built-in modules (~3 MB of the 8.2 MB), for a restored process that compiles one of them. A
// restore reads the whole blob into a zeroed buffer and copies this section out of it again, one
// vector per module: on this project's VM ~1,450 page faults of a start's ~8,700 (docs/
// performance.md, session 44). A module that the snapshot already holds is never compiled again,
// and most of the others are never loaded by a start, so scripts/bundle.mjs keeps only the entries
// a start compiles.
//
// The section's layout, as Node 20's SnapshotSerializer writes it (all integers little-endian
// size_t): a count, then per module its id's length, the id (`fs`, `internal/errors`, …), the cache's
// length and the cache. No other part of the blob refers to it, and no checksum covers it (V8's own
// checksum covers only V8's part). The reader does not rely on where the section begins: it takes
// the one offset from which such a vector ends exactly at the end of the file.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

const ID = /^[A-Za-z0-9_\-./]+$/;

/**
 * The code-cache section of a snapshot blob: where it begins and its entries (each entry's id and
 * its bytes' range, length fields included), or undefined when the blob does not end with one.
 */
export function readBuiltinCodeCache(blob) {
  const size = (at) => (at + 8 <= blob.length && blob.readUInt32LE(at + 4) === 0 ? blob.readUInt32LE(at) : -1);
  // The first offset wins: one inside V8's part would have to chain its entries to the very end.
  // A trimmed blob may hold no entry at all (a count of 0 in its last 8 bytes).
  for (let start = 0; start + 8 <= blob.length; start++) {
    const count = size(start);
    if (count < 0 || count > 4096) continue;
    const entries = [];
    let at = start + 8;
    for (let i = 0; i < count; i++) {
      const idLength = size(at);
      if (idLength < 1 || idLength > 256 || at + 8 + idLength > blob.length) break;
      const id = blob.toString('latin1', at + 8, at + 8 + idLength);
      if (!ID.test(id)) break;
      const dataLength = size(at + 8 + idLength);
      if (dataLength < 0) break;
      const end = at + 16 + idLength + dataLength;
      if (end > blob.length) break;
      entries.push({ id, begin: at, end });
      at = end;
    }
    if (entries.length === count && at === blob.length) return { start, entries };
  }
  return undefined;
}

/**
 * Rewrites the blob at `file` with only the code-cache entries whose id `keep` accepts. Returns
 * the ids kept and the sizes before and after, or undefined (the file untouched) when the blob has
 * no such section.
 */
export function keepBuiltinCodeCache(file, keep, out = file) {
  const blob = readFileSync(file);
  const section = readBuiltinCodeCache(blob);
  if (!section) return undefined;
  const kept = section.entries.filter((e) => keep(e.id));
  const count = Buffer.alloc(8);
  count.writeBigUInt64LE(BigInt(kept.length));
  const trimmed = Buffer.concat([blob.subarray(0, section.start), count, ...kept.map((e) => blob.subarray(e.begin, e.end))]);
  const temporary = `${out}.tmp`;
  writeFileSync(temporary, trimmed);
  renameSync(temporary, out);
  return { kept: kept.map((e) => e.id), entries: section.entries.length, before: blob.length, after: trimmed.length };
}
