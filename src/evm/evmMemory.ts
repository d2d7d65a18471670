// The EVM's memory as a tracer sees it: as many bytes as the frame has paid for (its memory word
// count), zeros past what the interpreter's store holds. The store can be shorter: memory a CALL
// paid for its output but the callee never returned into is charged without being written, and
// the bundles' Memory (scripts/bundle.mjs) grows its store only as memory is written or read, where
// the package's began at 8 KiB (and so hid the gap below that size).

/** The first `words` words of memory `store`: a view when the store holds them, else a zero-padded copy. */
export function memoryWords(store: Uint8Array, words: bigint | number): Uint8Array {
  const size = Number(words) * 32;
  if (store.length >= size) return store.subarray(0, size);
  const padded = new Uint8Array(size);
  padded.set(store);
  return padded;
}
