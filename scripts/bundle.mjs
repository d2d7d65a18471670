// Bundles the compiled node (dist/src/cli.js and everything it imports) into one CommonJS file,
// dist/powder.cjs, which bin/powder.js runs through V8's code cache (bin/loadBundle.js). Why: Node
// 20 spends most of a cold start resolving, reading and compiling ~400 small ES modules
// (@ethereumjs/* and ours); one file halves the start-up CPU, and CommonJS (unlike an ES module
// on Node 20) can be compiled with a code cache, which takes off another quarter. Native addons, and packages that locate files beside themselves, stay external
// and load from node_modules as before.
//
// The library API (package.json `main`, dist/powder.lib.mjs) is bundled the same way, with the
// same package patches: dist/powder.lib.cjs (entry dist/src/index.js), which the small ES module
// dist/powder.lib.mjs loads through the same code cache and re-exports. A node started from it runs
// the EVM as the CLI does (unpatched, an uncached eth_call costs ~1.3–1.5× the CPU), loads one file
// instead of ~400, and a test suite's `import` + `startNode` take about half the time they take
// without the cache (docs/performance.md, session 15). Tests keep using the unbundled modules.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { keepBuiltinCodeCache } from './snapshotCodeCache.mjs';
import { makeSingleExecutable } from './singleExecutable.mjs';
import { makePrefault, warmHotCode } from './prefault.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// src/evm/vmTuning.ts patches ethereumjs' Interpreter, which the package does not export: it
// imports the module by URL at run time. In the bundle that would load a second, unused copy, so
// the import is made static here and esbuild resolves it to the bundled module itself.
const interpreterFile = join(root, 'node_modules/@ethereumjs/evm/dist/esm/interpreter.js');
const staticInterpreter = {
  name: 'static-interpreter',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]src[\\/]evm[\\/]vmTuning\.js$/ }, async (args) => {
      const js = await readFile(args.path, 'utf8');
      const out = js.replace(/const interpreterURL = [^\n]*\nconst mod = \(?await import\(interpreterURL\)\)?;/, `import * as mod from ${JSON.stringify(interpreterFile)};`);
      if (out === js) throw new Error('bundle: vmTuning.js no longer has the expected interpreter import');
      return { contents: out, loader: 'js' };
    });
  },
};

// Exact text patches of package code the bundles carry, each a V8 slow path on Node 20 (or work at
// load time) replaced by code that computes the very same value (docs/performance.md, sessions 9
// and 13). Each must match, or the build fails: a package update then gets looked at, never
// silently unpatched. The unbundled modules (dist/src, the tests) keep the packages' text;
// src/evm/vmTuning.ts patches what it can reach at run time (EVM.runInterpreter's literal of the
// first kind) for every path.
const PACKAGE_PATCHES = [
  {
    // _executeCall hands each frame its message as `{ ...{ codeAddress }, ...message, gasLimit }`:
    // a spread after a spread in one literal copies through the runtime, ~1 µs per property
    // (~20 µs per frame). One literal of fixed shape holds the same values: every own field a
    // Message has (message.js's constructor, and the three set on it later), the getter's
    // codeAddress first and the frame's gasLimit. runInterpreter (the package's and
    // src/evm/vmTuning.ts's) reads only these. Object.assign onto the first literal, as before,
    // still cost ~1 % of a new-holder eth_call (its properties added one at a time, map by map;
    // docs/performance.md session 40).
    file: /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]evm\.js$/,
    find: /this\.runInterpreter\(\{\s*\.\.\.\{ codeAddress: message\.codeAddress \},\s*\.\.\.message,\s*gasLimit,\s*\}, \{/,
    replace: 'this.runInterpreter(powderFrameMessage(message, gasLimit), {',
  },
  {
    file: /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]evm\.js$/,
    find: /^/,
    replace: [
      'const powderFrameMessage = (m, gasLimit) => ({',
      '  codeAddress: m.codeAddress, to: m.to, value: m.value, caller: m.caller, gasLimit, data: m.data, eofCallData: m.eofCallData,',
      '  depth: m.depth, code: m.code, _codeAddress: m._codeAddress, isStatic: m.isStatic, isCompiled: m.isCompiled, salt: m.salt,',
      '  selfdestruct: m.selfdestruct, createdAddresses: m.createdAddresses, delegatecall: m.delegatecall, gasRefund: m.gasRefund,',
      '  blobVersionedHashes: m.blobVersionedHashes, accessWitness: m.accessWitness, chargeCodeAccesses: m.chargeCodeAccesses,',
      '  createdTargetAlive: m.createdTargetAlive, isCreate: m.isCreate,',
      '});',
      '',
    ].join('\n'),
  },
  {
    // runCall, _addToBalance and _executeCreate await the journal's steps and the message events,
    // which Powder's journal and quiet emitters hand back as one settled promise (src/evm/settled.ts
    // SETTLED: journalTuning.ts, callState.ts, chain/exec.ts); an await of it still costs a promise
    // reaction and a microtask turn (~0.1 µs each, six on every eth_call's message). Such a result
    // is not awaited: the statement's effect is done when it returns. Anything else (a listener's
    // promise, an unpatched journal's) is awaited as before.
    file: /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]evm\.js$/,
    find: /^(\s*)await (this\.(?:journal\.(?:checkpoint|commit|revert)\(\)|journal\.putAccount\(message\.to, toAccount\)|_emit\('(?:beforeMessage|afterMessage)', (?:message|result)\)));$/gm,
    replace: '$1{ const powderStep = $2; if (powderStep !== powderSettled) await powderStep; }',
  },
  {
    // A call's message reads the caller's and the callee's accounts and the callee's code through
    // getAccount and getCode: a promise each, and an await of it (two promises and a microtask
    // turn). A call state answers at once when it holds them (src/evm/state/readsNow.ts
    // accountNowFor / codeNowFor: the same copy, the very code array); any other state manager,
    // or a value not held, is awaited as before.
    file: /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]evm\.js$/,
    find: /^(\s*)let (account|toAccount) = await this\.stateManager\.getAccount\((fromAddress|message\.to)\);$/gm,
    replace: '$1let $2 = powderAccountNow(this.stateManager, $3);\n$1if ($2 === powderNotNow) $2 = await this.stateManager.getAccount($3);',
  },
  {
    file: /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]evm\.js$/,
    find: /^(\s*)message\.code = await this\.stateManager\.getCode\(message\.codeAddress\);$/m,
    replace: '$1message.code = powderCodeNow(this.stateManager, message.codeAddress);\n$1if (message.code === powderNotNow) message.code = await this.stateManager.getCode(message.codeAddress);',
  },
  {
    file: /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]evm\.js$/,
    find: /^/,
    replace: [
      `import { SETTLED as powderSettled } from ${JSON.stringify(join(root, 'dist/src/evm/settled.js'))};`,
      `import { accountNowFor as powderAccountNow, codeNowFor as powderCodeNow, NOT_NOW as powderNotNow } from ${JSON.stringify(join(root, 'dist/src/evm/state/readsNow.js'))};`,
      '',
    ].join('\n'),
  },
  {
    // src/evm/addressHex.ts keeps an Address's hex on the object; declared in the constructor, the
    // field is part of every Address's first shape, not a second shape added on first use.
    file: /[\\/]@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]address\.js$/,
    find: /(throw EthereumJSErrorWithoutCode\('Invalid address length'\);\s*\}\s*this\.bytes = bytes;)/,
    replace: '$1\n        this.powderHex = undefined;',
  },
  {
    // setLength pads through array spreads of typed arrays (the iterator protocol, element by
    // element): 3.5 µs to left-pad one byte to 32, as MSTORE, SLOAD and SSTORE keys and values
    // do. A zeroed array of the length with the bytes set at their place is the same array.
    file: /[\\/]@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/,
    find: /return right\s*\? new Uint8Array\(\[\.\.\.msg, \.\.\.new Uint8Array\(length - msg\.length\)\]\)\s*: new Uint8Array\(\[\.\.\.new Uint8Array\(length - msg\.length\), \.\.\.msg\]\);/,
    replace: '{ const padded = new Uint8Array(length); padded.set(msg, right ? 0 : length - msg.length); return padded; }',
  },
  {
    // bytesToBigInt's table of the 65,536 one- and two-byte values is built when the module loads:
    // 65,536 BigInts, ~5–13 ms of every start. Filled on first use instead, each entry is the same
    // BigInt the loop would have put there, in rows of 256 made when first needed: one array of
    // 65,536 slots is 512 KiB of heap (in the start-up snapshot, and 128 page faults of every start).
    file: /[\\/]@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/,
    find: /const BIGINT_CACHE = \[\];\s*for \(let i = 0; i <= 256 \* 256 - 1; i\+\+\) \{\s*BIGINT_CACHE\[i\] = BigInt\(i\);\s*\}/,
    replace: 'const BIGINT_ROWS = new Array(256); const cachedBigInt = (i) => { const row = BIGINT_ROWS[i >> 8] ?? (BIGINT_ROWS[i >> 8] = new Array(256)); return row[i & 255] ?? (row[i & 255] = BigInt(i)); };',
  },
  {
    file: /[\\/]@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/,
    find: /return BIGINT_CACHE\[bytes\[0\]\];/,
    replace: 'return cachedBigInt(bytes[0]);',
  },
  {
    file: /[\\/]@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/,
    find: /return BIGINT_CACHE\[bytes\[0\] \* 256 \+ bytes\[1\]\];/,
    replace: 'return cachedBigInt(bytes[0] * 256 + bytes[1]);',
  },
  {
    // bytesToBigInt reads a 32-byte word (every MLOAD, CALLDATALOAD, SLOAD value …) through a hex
    // string and BigInt's parser, ~280 ns with the array's allocation; eight big-endian 32-bit
    // reads joined by shifts give the same BigInt in ~150, a word below 2^48 as one Number in less
    // (docs/performance.md, session 39). Other lengths keep the hex path.
    file: /[\\/]@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/,
    find: /(export const bytesToBigInt = \(bytes, littleEndian = false\) => \{\s*assertIsBytes\(bytes\);\s*if \(littleEndian\) \{\s*bytes = bytes\.slice\(\)\.reverse\(\);\s*\})\s*const hex = bytesToHex\(bytes\);/,
    replace: '$1\n    if (bytes.length === 32) return wordToBigInt(bytes);\n    const hex = bytesToHex(bytes);',
  },
  {
    // bigIntToBytes turns the number into hex, pads it, checks it and parses it back: ~350 ns for
    // the stack words that MSTORE, SLOAD and SSTORE store. A word below 2^256 written as four
    // big-endian 64-bit halves into a scratch word, its leading zero bytes skipped (one byte kept
    // for zero, as '00' gives), is the same minimal array in ~105 ns. Negative and larger numbers,
    // and anything not a BigInt, keep the package's path (and its errors).
    file: /[\\/]@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/,
    find: /const bytes = hexToBytes\(`0x\$\{padToEven\(num\.toString\(16\)\)\}`\);/,
    replace: 'const bytes = typeof num === \'bigint\' && num >= 0n && num < WORD_LIMIT ? minimalWordBytes(num) : hexToBytes(`0x${padToEven(num.toString(16))}`);',
  },
  {
    file: /[\\/]@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/,
    find: /^/,
    replace: [
      'const WORD_LIMIT = 1n << 256n;',
      'const U64 = (1n << 64n) - 1n;',
      'const scratchWord = new Uint8Array(32);',
      'const scratchView = new DataView(scratchWord.buffer);',
      // (wordToBigInt reads the bytes, not a DataView over them: a small Uint8Array lives in V8's heap until its .buffer is read, which moves it out, ~250 ns.)
      'const u32At = (b, i) => ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;',
      'const wordToBigInt = (b) => {',
      '  let i = 0;',
      '  while (i < 32 && b[i] === 0) i++;',
      '  if (i >= 26) { let n = 0; for (; i < 32; i++) n = n * 256 + b[i]; return BigInt(n); }',
      '  return (((BigInt(u32At(b, 0)) << 32n | BigInt(u32At(b, 4))) << 64n | (BigInt(u32At(b, 8)) << 32n | BigInt(u32At(b, 12)))) << 128n) | ((BigInt(u32At(b, 16)) << 32n | BigInt(u32At(b, 20))) << 64n | (BigInt(u32At(b, 24)) << 32n | BigInt(u32At(b, 28))));',
      '};',
      'const SAFE_WORD = BigInt(Number.MAX_SAFE_INTEGER);',
      // (A word below 2^53 is written from a Number, byte by byte: ~40 ns against ~90 by the DataView.)
      'const smallWordBytes = (n, len) => { const out = new Uint8Array(len); for (let i = len - 1; n > 0; i--) { out[i] = n % 256; n = Math.floor(n / 256); } return out; };',
      // (The scratch word's buffer is read once, here; a word in [0, 2^256) is written as four 64-bit halves.)
      'const writeScratchWord = (num) => {',
      '  scratchView.setBigUint64(0, num >> 192n);',
      '  scratchView.setBigUint64(8, (num >> 128n) & U64);',
      '  scratchView.setBigUint64(16, (num >> 64n) & U64);',
      '  scratchView.setBigUint64(24, num & U64);',
      '};',
      'const minimalWordBytes = (num) => {',
      '  if (num <= SAFE_WORD) { const n = Number(num); let len = 1; for (let m = n; m >= 256; m = Math.floor(m / 256)) len++; return smallWordBytes(n, len); }',
      '  writeScratchWord(num);',
      '  let from = 0;',
      '  while (scratchWord[from] === 0) from++;',
      '  return scratchWord.slice(from, 32);',
      '};',
      '',
    ].join('\n'),
  },
  {
    // The word's 32 bytes, as setLengthLeft(bigIntToBytes(num), 32) gives them (its path, and its
    // errors, for anything but a BigInt in [0, 2^256)); the opcodes' patch below calls it.
    file: /[\\/]@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/,
    find: /$(?![\s\S])/,
    replace: [
      '',
      'export const powderWordBytes = (num) => {',
      "  if (typeof num !== 'bigint' || num < 0n || num >= WORD_LIMIT) return setLengthLeft(bigIntToBytes(num), 32);",
      '  if (num <= SAFE_WORD) return smallWordBytes(Number(num), 32);',
      '  writeScratchWord(num);',
      '  return scratchWord.slice(0, 32);',
      '};',
      '',
    ].join('\n'),
  },
  // The BLS12-381 and BN254 precompiles' backends import their @noble/curves curve when the EVM's
  // modules load: the curves' constants (BLS12-381's towers and Frobenius coefficients above all)
  // cost ~5–10 ms of every cold start, for precompiles a dev chain may never call. Each import
  // becomes an object with the same members that requires the curve on first use (esbuild then
  // initialises the bundled module there), and the two zero points at BLS's top level are read
  // where they are used.
  ...lazyNobleCurve('bls12_381', 'bls12-381', ['G1', 'G2', 'fields'], ['pairingBatch']),
  {
    file: /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]precompiles[\\/]bls12_381[\\/]noble\.js$/,
    find: /const G1_ZERO = bls12_381\.G1\.Point\.ZERO;\s*const G2_ZERO = bls12_381\.G2\.Point\.ZERO;/,
    replace: '',
  },
  {
    file: /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]precompiles[\\/]bls12_381[\\/]noble\.js$/,
    find: /\bG([12])_ZERO\b/g,
    replace: 'bls12_381.G$1.Point.ZERO',
  },
  ...lazyNobleCurve('bn254', 'bn254', ['G1', 'G2', 'fields'], ['pairingBatch']),
  {
    // noble's bytesToHex (Node 20 has no Uint8Array.prototype.toHex) adds the string a byte at a
    // time: a 32-byte word leaves 32 intermediate strings (~1 KB of heap), and ethereumjs turns
    // the words it reads into BigInts through it (bytesToBigInt) — ~14 KB of garbage per ERC-20
    // `balanceOf` eth_call, of its ~106 KB. From 9 bytes on, Buffer's native hexSlice writes the
    // same lowercase hex straight from the array (src/hexOf.ts says why not Buffer.from); shorter
    // inputs keep the loop (it is faster there).
    file: /[\\/]@noble[\\/]hashes[\\/]utils\.js$/,
    find: /\/\/ pre-caching improves the speed 6x\s*let hex = '';/,
    replace: "if (bytes.length > 8) return nativeHexSlice.call(bytes, 0, bytes.length);\n    let hex = '';",
  },
  {
    file: /[\\/]@noble[\\/]hashes[\\/]utils\.js$/,
    find: /^/,
    replace: "const nativeHexSlice = typeof Buffer.prototype.hexSlice === 'function' ? Buffer.prototype.hexSlice : function (start, end) { return Buffer.from(this.buffer, this.byteOffset + start, end - start).toString('hex'); };\n",
  },
  {
    // noble's randomBytes reads `globalThis.crypto`, and Node 20 builds its WebCrypto (a large
    // internal module) on that first read; the curves probe it when they are defined, i.e. while
    // the EVM's modules load (~1–4 ms of every start). node:crypto's randomFillSync, already
    // loaded, fills the array from the same CSPRNG as getRandomValues.
    file: /[\\/]@noble[\\/]hashes[\\/]utils\.js$/,
    find: /const cr = typeof globalThis === 'object' \? globalThis\.crypto : null;/,
    replace: "const cr = { getRandomValues: (bytes) => require('node:crypto').randomFillSync(bytes) };",
  },
  {
    // Every frame's Memory allocated an 8 KiB store when made, a typed array outside V8's heap:
    // ~1.8 µs each in a loop against ~0.5–0.7 µs for 256 bytes–1 KiB (docs/performance.md, session
    // 38), for frames most of which touch a few hundred bytes. The store now starts empty (a shared
    // empty array, which nothing can write into) and grows when memory is extended, to at least 1 KiB
    // and at least twice its size; bytes past what was extended read as zeros either way, and every
    // read and write extends first. What a tracer shows of memory paid for but never extended is
    // padded with zeros (src/evm/evmMemory.ts).
    file: /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]memory\.js$/,
    find: /this\._store = new Uint8Array\(CONTAINER_SIZE\);/,
    replace: 'this._store = EMPTY_STORE;',
  },
  {
    file: /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]memory\.js$/,
    find: /const sizeDiff = newSize - this\._store\.length;\s*if \(sizeDiff > 0\) \{\s*const expandBy = Math\.ceil\(sizeDiff \/ CONTAINER_SIZE\) \* CONTAINER_SIZE;\s*this\._store = concatBytes\(this\._store, new Uint8Array\(expandBy\)\);\s*\}/,
    replace: 'if (newSize > this._store.length) { const grown = zeroedStore(Math.max(newSize, 2 * this._store.length, 1024)); grown.set(this._store); this._store = grown; }',
  },
  {
    // A typed array of more than 64 bytes gets memory of its own outside V8's heap (a calloc, an
    // ArrayBuffer extension the scavenger sweeps, a free): ~560 ns for the 1 KiB a frame's memory
    // starts with, where a view on a shared 64 KiB slab costs ~80 (the way Buffer's pool hands out
    // small Buffers). Each view's bytes are handed out once, so they are zeros; a slab is freed
    // when no store on it is left. Stores above 8 KiB get their own memory as before.
    file: /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]memory\.js$/,
    find: /const CONTAINER_SIZE = 8192;/,
    replace: [
      'const CONTAINER_SIZE = 8192;',
      'const EMPTY_STORE = new Uint8Array(0);',
      'const SLAB_SIZE = 65536;',
      'let slab = new ArrayBuffer(0);',
      'let slabUsed = 0;',
      'const zeroedStore = (size) => {',
      '  if (size > 8192) return new Uint8Array(size);',
      '  if (slabUsed + size > slab.byteLength) { slab = new ArrayBuffer(SLAB_SIZE); slabUsed = 0; }',
      '  const store = new Uint8Array(slab, slabUsed, size);',
      '  slabUsed += size;',
      '  return store;',
      '};',
    ].join('\n'),
  },
  {
    // The dynamic gas handlers (MSTORE, MLOAD, KECCAK256, RETURN, LOG, EXP, the copies, the 2929
    // account checks …) are all `async function`s, though 25 of the 31 never await: each such step
    // then costs a promise for the handler, one for the step's continuation and a microtask turn
    // in the step loop (src/evm/interpreterSteps.ts already runs a step synchronously when its gas
    // is a plain value). The handlers that never await lose `async`; a trap they raise is then
    // thrown, not a rejection, and both step loops catch it where they caught the rejection
    // (the package's runStep awaits the handler inside its try; ours runs inside runFrame's).
    file: /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]opcodes[\\/]gas\.js$/,
    find: /^[\s\S]*$/,
    replace: (js) => synchronousGasHandlers(js, 25),
  },
  // The opcodes that turn a stack word into its 32 bytes (MSTORE's value, SLOAD's, SSTORE's and
  // TLOAD's keys, their gas handlers' keys, CREATE2's salt …) do it as setLengthLeft(bigIntToBytes(w),
  // 32): a minimal array, then a padded copy. powderWordBytes (added to util's bytes.js above, so
  // the package's index exports it) writes the word once, the same 32 bytes.
  {
    // KECCAK256 pushes its digest as BigInt(bytesToHex(digest)): the 32 bytes as hex, then BigInt's
    // parser. bytesToBigInt (patched above: a 32-byte word read as eight 32-bit parts) gives the
    // same BigInt without the string (the digest is always 32 bytes).
    file: /[\\/]@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]opcodes[\\/]functions\.js$/,
    find: /const r = BigInt\(bytesToHex\(\(common\.customCrypto\.keccak256 \?\? keccak_256\)\(data\)\)\);/,
    replace: 'const r = bytesToBigInt((common.customCrypto.keccak256 ?? keccak_256)(data));',
  },
  // An empty Uint8Array made anew costs V8 ~170 ns on Node 20 (a zero-length typed array gets a
  // backing store of its own through the allocator, most of it a memset), against ~25 for one of
  // length 1: the Interpreter's constructor made three per frame, KECCAK256, RETURN, REVERT and the
  // calls one each as a default later replaced (~2 % of the main thread in `perf` under new-holder
  // calls; docs/performance.md, session 41). An empty array has nothing to write and is never
  // compared by identity there, so one per module serves them all.
  ...['interpreter', 'opcodes[\\\\/]functions'].flatMap((name) => [
    {
      file: new RegExp(`[\\\\/]@ethereumjs[\\\\/]evm[\\\\/]dist[\\\\/]esm[\\\\/]${name}\\.js$`),
      find: /new Uint8Array\(0\)|Uint8Array\.from\(\[\]\)/g,
      replace: 'POWDER_NO_BYTES',
    },
    {
      file: new RegExp(`[\\\\/]@ethereumjs[\\\\/]evm[\\\\/]dist[\\\\/]esm[\\\\/]${name}\\.js$`),
      find: /^/,
      replace: 'const POWDER_NO_BYTES = new Uint8Array(0);\n',
    },
  ]),
  ...['functions', 'gas'].map((name) => ({
    file: new RegExp(`[\\\\/]@ethereumjs[\\\\/]evm[\\\\/]dist[\\\\/]esm[\\\\/]opcodes[\\\\/]${name}\\.js$`),
    find: /^[\s\S]*$/,
    replace: (js) => wordBytesCalls(js, name),
  })),
];
/** The opcodes' setLengthLeft(bigIntToBytes(<name>), 32) as powderWordBytes(<name>), imported from util. */
function wordBytesCalls(js, file) {
  let n = 0;
  let out = js.replace(/setLengthLeft\(bigIntToBytes\(([A-Za-z_$][\w$]*)\), 32\)/g, (_, v) => {
    n++;
    return `powderWordBytes(${v})`;
  });
  if (n === 0) throw new Error(`bundle: ${file}.js no longer pads words as setLengthLeft(bigIntToBytes(x), 32): check scripts/bundle.mjs`);
  let imported = false;
  out = out.replace(/import \{([^}]*)\} from '@ethereumjs\/util';/, (_, names) => {
    imported = true;
    return `import {${names.replace(/,\s*$/, '')}, powderWordBytes } from '@ethereumjs/util';`;
  });
  if (!imported) throw new Error(`bundle: ${file}.js no longer imports from '@ethereumjs/util' in one statement: check scripts/bundle.mjs`);
  return out;
}
/**
 * gas.js with `async` removed from the dynamic gas handlers whose bodies hold no `await`; the build
 * fails unless exactly `expected` of them were (a new package version is looked at again).
 */
function synchronousGasHandlers(js, expected) {
  const head = 'async function (runState, gas, common) {';
  let out = '';
  let from = 0;
  let changed = 0;
  for (let at = js.indexOf(head); at >= 0; at = js.indexOf(head, from)) {
    let depth = 0;
    let end = at + head.length - 1;
    for (; end < js.length; end++) {
      if (js[end] === '{') depth++;
      else if (js[end] === '}' && --depth === 0) break;
    }
    const fn = js.slice(at, end + 1);
    const awaits = /\bawait\b/.test(fn);
    out += js.slice(from, at) + (awaits ? fn : fn.slice('async '.length));
    if (!awaits) changed++;
    from = end + 1;
  }
  if (changed !== expected) throw new Error(`bundle: gas.js has ${changed} dynamic gas handlers without an await, not ${expected}: check them again (scripts/bundle.mjs)`);
  return out + js.slice(from);
}
/** The patch that makes ethereumjs' `name` backend (precompiles/<name>/noble.js) require @noble/curves/<module>.js on first use. */
function lazyNobleCurve(name, module, getters, methods) {
  const members = [
    ...getters.map((g) => `get ${g}() { return load().${g}; }`),
    ...methods.map((m) => `${m}(...args) { return load().${m}(...args); }`),
  ];
  return [
    {
      file: new RegExp(`[\\\\/]@ethereumjs[\\\\/]evm[\\\\/]dist[\\\\/]esm[\\\\/]precompiles[\\\\/]${name}[\\\\/]noble\\.js$`),
      find: new RegExp(`import \\{ ${name} \\} from '@noble/curves/${module}\\.js';`),
      replace: `const ${name} = (() => { let curve; const load = () => (curve ??= require('@noble/curves/${module}.js').${name}); return { ${members.join(', ')} }; })();`,
    },
  ];
}
// esbuild takes the first onLoad that answers for a file, so each file is loaded once and gets
// every patch that names it, in order.
const packagePatches = {
  name: 'package-patches',
  setup(b) {
    const files = [...new Map(PACKAGE_PATCHES.map((p) => [String(p.file), p.file])).values()];
    for (const file of files) {
      b.onLoad({ filter: file }, async (args) => {
        let js = await readFile(args.path, 'utf8');
        for (const { find, replace } of PACKAGE_PATCHES.filter((p) => String(p.file) === String(file))) {
          const out = js.replace(find, replace);
          if (out === js) throw new Error(`bundle: ${args.path} no longer has the text patched by scripts/bundle.mjs (${find})`);
          js = out;
        }
        return { contents: js, loader: 'js' };
      });
    }
  },
};

// lmdb gets a bundle of its own, dist/lmdb.cjs (its JavaScript, msgpackr, ordered-binary and the
// rest): required from node_modules they took ~40 ms of an LMDB start to resolve and compile
// (docs/performance.md, session 21). It is a separate file, required at the first LMDB open as
// before, so the start-up snapshot and the code-cached bundles stay as they were for memdb (its
// JavaScript needs the native addon as it loads, so it cannot be in the snapshot): in the node's
// bundles, database.ts's run-time require of 'lmdb' becomes bin/loadBundle.cjs's requireBundle of
// './lmdb.cjs' beside them, which compiles it from its own code cache (session 32).
// Its native addon loads through scripts/lmdbNative.cjs; msgpackr's optional native extractor is
// left out (lmdb here stores binary values only, which msgpackr never decodes; msgpackr catches
// the failed require).
const databaseFile = /[\\/]dist[\\/]src[\\/]db[\\/]database\.js$/;
const lmdbNativeShim = join(root, 'scripts/lmdbNative.cjs');
const lmdbFromItsBundle = {
  name: 'lmdb-from-its-bundle',
  setup(b) {
    b.onLoad({ filter: databaseFile }, async (args) => {
      const js = await readFile(args.path, 'utf8');
      const out = js.replace("createRequire(import.meta.url)('lmdb')", "require('../bin/loadBundle.cjs').requireBundle(require('node:path').join(__dirname, 'lmdb.cjs'))");
      if (out === js) throw new Error('bundle: database.js no longer requires lmdb as scripts/bundle.mjs expects');
      return { contents: out, loader: 'js' };
    });
    b.onResolve({ filter: /^\.\.\/bin\/loadBundle\.cjs$/ }, (args) => ({ path: args.path, external: true }));
  },
};
const lmdbBundle = {
  name: 'lmdb-bundle',
  setup(b) {
    b.onResolve({ filter: /^node-gyp-build-optional-packages$/ }, (args) => {
      if (args.importer === lmdbNativeShim) return { path: args.path, external: true };
      if (/[\\/]node_modules[\\/]lmdb[\\/]/.test(args.importer)) return { path: lmdbNativeShim };
      return undefined;
    });
    b.onResolve({ filter: /^msgpackr-extract$/ }, () => ({ path: 'msgpackr-extract', namespace: 'powder-left-out' }));
    b.onLoad({ filter: /.*/, namespace: 'powder-left-out' }, (args) => ({ contents: `throw new Error('${args.path} is left out of the bundle');`, loader: 'js' }));
    // lmdb requires msgpackr (its default value encoder) as it loads, but makes an encoder only for
    // a database whose encoding is msgpack (or unset); Powder's are all `binary`. Required where
    // lmdb makes that encoder instead, msgpackr's module (~60 % of this bundle's text) never runs
    // and is not in the bundle's code cache: ~2–4 ms of module body and part of the compile off
    // every LMDB start on a slow host (docs/performance.md, session 45).
    b.onLoad({ filter: /[\\/]node_modules[\\/]lmdb[\\/]dist[\\/]index\.cjs$/ }, async (args) => {
      let js = await readFile(args.path, 'utf8');
      for (const [find, replace] of [
        ["var msgpackr = require('msgpackr');", 'var msgpackr;'],
        ['\tMsgpackrEncoder: msgpackr.Encoder,', '\tMsgpackrEncoder: undefined,'],
        ["? moduleRequire('cbor-x').Encoder\n\t\t\t\t\t\t: MsgpackrEncoder;", "? moduleRequire('cbor-x').Encoder\n\t\t\t\t\t\t: (msgpackr ??= require('msgpackr')).Encoder;"],
      ]) {
        const out = js.replace(find, replace);
        if (out === js) throw new Error(`bundle: lmdb's dist/index.cjs no longer has the text scripts/bundle.mjs patches (${find})`);
        js = out;
      }
      // The declaration, and the require where the encoder is made: nothing else may use it.
      if (js.match(/\bmsgpackr\b/g)?.length !== 3) throw new Error("bundle: lmdb's dist/index.cjs uses msgpackr elsewhere too");
      return { contents: js, loader: 'js' };
    });
  },
};

/** What both bundles share: the patches, the externals, readable output with a source map. */
const common = {
  plugins: [staticInterpreter, packagePatches, lmdbFromItsBundle],
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Whitespace and syntax only: function names stay as written, so CPU profiles and stack
  // traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  logLevel: 'warning',
  external: ['lmdb', 'msgpackr-extract', 'keccak', 'secp256k1', '@chainsafe/blst', '@chainsafe/blst-linux-x64-gnu', 'solc', 'bufferutil', 'utf-8-validate'],
};

/** The CommonJS bundles' own settings: loaded by bin/loadBundle.js as a vm.Script with a code cache. */
const commonJS = {
  ...common,
  format: 'cjs',
  // Our modules find files beside themselves (package.json, native addons) from import.meta.url.
  define: { 'import.meta.url': '__powderModuleURL' },
  banner: { js: "const __powderModuleURL = require('node:url').pathToFileURL(__filename).href;" },
};

await build({
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  plugins: [lmdbBundle],
  stdin: { contents: "module.exports = require('lmdb');", resolveDir: root, loader: 'js' },
  outfile: join(root, 'dist/lmdb.cjs'),
});
await build({ ...commonJS, entryPoints: [join(root, 'dist/src/cli.js')], outfile: join(root, 'dist/powder.cjs') });
await build({ ...commonJS, entryPoints: [join(root, 'dist/src/index.js')], outfile: join(root, 'dist/powder.lib.cjs') });
await appendLogCallers(join(root, 'dist/powder.cjs'));
await appendLogCallers(join(root, 'dist/powder.lib.cjs'));
await writeLibraryEntry();

/**
 * The log lines' callers for a bundle. A log line names the code that logged it, as AvalancheGo's
 * names its Go file and line (`chains/manager.go:389`); src/logging/logger.ts reads it from the
 * call's stack frame, which in a bundle is somewhere in `dist/powder.cjs`. Each place in the bundle
 * that calls a logging method (`.info(`, `.warn(` …) is looked up in the bundle's source map, and
 * the bundle gets, appended after its last line (so no position in it moves), a table from the
 * call's offset in the text (where V8 places a method call: the method's name) to the TypeScript
 * source's `dir/file.ts:line`. Offsets rather than lines: V8 gives a frame's offset at once, but
 * its first line number in a script costs a scan of the whole script for line ends (~1.5 ms of a
 * start, docs/performance.md session 43). The appended code also takes one frame's offset of
 * its own, a method call at a known place, so the table knows how far the loader's wrapper moves
 * positions (`shift`). It is small (one entry per call site) and lives in the start-up snapshot
 * with the rest of the bundle.
 */
async function appendLogCallers(bundle) {
  const { appendFileSync } = await import('node:fs');
  const { SourceMap } = await import('node:module');
  const text = readFileSync(bundle, 'utf8');
  const map = new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8')));
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const sites = {};
  for (const m of text.matchAll(/\.(verbo|debug|trace|info|warn|error|fatal)\(/g)) {
    const at = m.index + 1; // the method's name
    let line = lineStarts.length - 1;
    while (lineStarts[line] > at) line--;
    const entry = map.findEntry(line, at - lineStarts[line]);
    const source = entry?.originalSource;
    if (!source || !/(^|\/)src\/.+\.ts$/.test(source)) continue;
    const parts = source.split('/');
    sites[at] = `${parts.at(-2)}/${parts.at(-1)}:${entry.originalLine + 1}`;
  }
  const head = '\n(function () {\n  var o = {}, limit = Error.stackTraceLimit, prepare = Error.prepareStackTrace;\n  Error.stackTraceLimit = 1;\n  Error.prepareStackTrace = function (_, s) { return s; };\n  Error.';
  const at = text.length + head.length; // offsets count UTF-16 units, as V8's positions in the loaded string do
  const tail = `captureStackTrace(o);
  var s = o.stack;
  Error.stackTraceLimit = limit;
  Error.prepareStackTrace = prepare;
  var shift = Array.isArray(s) && s[0] && typeof s[0].getPosition === 'function' ? s[0].getPosition() - ${at} : undefined;
  if (shift !== undefined) globalThis.__powderLogCallers = { sites: ${JSON.stringify(sites)}, shift: shift };
})();
`;
  appendFileSync(bundle, head + tail);
}

/**
 * The V8 flags the snapshot is built and started with (bin/powder passes the same; a snapshot
 * loads only under its own flags): bin/powder.js's heap flag, given on the command line since a
 * restored process has its heap before any of its JavaScript runs, the young generation's first
 * size and cap, and its collections on the main thread alone (bin/powder says why).
 */
const SNAPSHOT_NODE_FLAGS = ['--heap-growing-percent=50', '--min-semi-space-size=2', '--max-semi-space-size=8', '--no-parallel-scavenge'];

await makeCodeCache('cli');
await makeCodeCache('library');
await makeStartupSnapshot();
await makeCodeCache('lmdb'); // after the snapshot: bin/powder starts from it

/**
 * dist/powder.snapshot.blob, the start-up snapshot bin/powder starts from (scripts/snapshot.cjs
 * says what it holds), and dist/powder.snapshot.node, what bin/powder checks before using it. A
 * snapshot only loads in the very Node.js binary that built it (with no V8 flags): the stamp file
 * takes that binary's modification time (`touch -r`), which bin/powder compares with the `node` on
 * PATH by the shell's own tests (running `stat` cost ~5 ms of every start); its line records the
 * binary's inode, size and modification time for people, and ends with the bundle's real path
 * (built into the snapshot), which bin/powder compares by file identity. Not the change time: a
 * hard link to the binary changes it (perf's build-id cache makes one on every `perf record`),
 * and bin/powder then silently started ~100 ms slower from the code cache. When the snapshot
 * cannot be built, neither file is left and bin/powder starts from the code cache.
 */
async function makeStartupSnapshot() {
  const { existsSync, realpathSync, statSync, writeFileSync } = await import('node:fs');
  const blob = join(root, 'dist/powder.snapshot.blob');
  const stamp = join(root, 'dist/powder.snapshot.node');
  rmSync(blob, { force: true });
  rmSync(stamp, { force: true });
  rmSync(join(root, 'dist/powder-node'), { force: true }); // made again from this snapshot's inputs below
  const env = { ...process.env };
  delete env.NODE_OPTIONS; // flags would be part of the snapshot, and bin/powder starts without
  const heldFile = join(root, 'dist/powder.snapshot.builtins.json');
  env.POWDER_SNAPSHOT_BUILTINS = heldFile;
  const r = spawnSync(process.execPath, [...SNAPSHOT_NODE_FLAGS, '--snapshot-blob', blob, '--build-snapshot', join(root, 'scripts/snapshot.cjs')], { env, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0 || !existsSync(blob)) {
    rmSync(blob, { force: true });
    rmSync(heldFile, { force: true });
    const lines = `${r.error?.message ?? ''}\n${r.stderr ?? ''}`.split('\n').filter((l) => /\S/.test(l) && !/Warning|may still work|issue tracker|--trace-warnings/.test(l));
    console.warn(`bundle: no start-up snapshot (${lines.slice(0, 3).join(' / ').slice(0, 400) || `exit ${r.status}`}); bin/powder starts from the code cache`);
    return;
  }
  trimSnapshotCodeCache(blob, heldFile, env);
  const { ino, size, mtimeMs } = statSync(process.execPath);
  writeFileSync(stamp, `${ino} ${size} ${Math.floor(mtimeMs / 1000)} ${realpathSync(join(root, 'dist/powder.cjs'))}\n`);
  const touched = spawnSync('touch', ['-r', process.execPath, stamp], { encoding: 'utf8' });
  if (touched.status !== 0) {
    rmSync(stamp, { force: true });
    console.warn(`bundle: dist/powder.snapshot.node cannot take the node binary's time (touch -r: ${touched.error?.message ?? touched.stderr.trim()}); bin/powder starts from the code cache`);
    return;
  }
  makeSingleExecutable({ root, env, keepCodeCache: (file) => codeCacheToKeep(file, env) });
  makePrefault({ root, env });
  await warmHotCode({ root, env });
}

/**
 * Keeps in the snapshot blob only the code cache of the built-in modules a start compiles
 * (scripts/snapshotCodeCache.mjs says why): those node:http needs — snapshot.cjs requires it when
 * the snapshot is restored, since no snapshot can hold it — and stdout's stream as a file needs,
 * less those the snapshot holds (the list snapshot.cjs wrote to `heldFile`). Any other built-in a
 * node loads later compiles from its source, as in a process started without a snapshot's cache.
 * The trimmed blob replaces the original only once a process has started from it (`powder
 * --version`); otherwise the build keeps the untrimmed one and says so.
 */
function trimSnapshotCodeCache(blob, heldFile, env) {
  const keep = codeCacheToKeep(heldFile, env);
  if (!keep) return;
  const candidate = `${blob}.trimmed`;
  const trimmed = keepBuiltinCodeCache(blob, (id) => keep.has(id), candidate);
  if (!trimmed) return console.warn('bundle: the snapshot keeps all built-in modules\' code cache (no code-cache section at the end of the blob)');
  const check = spawnSync(process.execPath, [...SNAPSHOT_NODE_FLAGS, '--snapshot-blob', candidate, '--', '--version'], { env, encoding: 'utf8', timeout: 30_000 });
  if (check.status !== 0 || !/powder/.test(check.stdout)) {
    rmSync(candidate, { force: true });
    return console.warn(`bundle: the snapshot keeps all built-in modules' code cache (a start from the trimmed blob failed: ${(check.stderr || check.stdout || `exit ${check.status}`).trim().slice(0, 300)})`);
  }
  renameSync(candidate, blob);
}

/**
 * The built-in modules whose code cache a start compiles from: node:http's and those of stdout's
 * stream when stdout is a file, less those the snapshot holds (the list snapshot.cjs wrote to
 * `heldFile`, deleted here). Undefined, with a warning, when either list is missing: then the blob
 * keeps every entry.
 */
function codeCacheToKeep(heldFile, env) {
  let held;
  try {
    held = new Set(JSON.parse(readFileSync(heldFile, 'utf8')));
  } catch (e) {
    return void console.warn(`bundle: the snapshot keeps all built-in modules' code cache (no list of the modules it holds: ${e.message})`);
  } finally {
    rmSync(heldFile, { force: true });
  }
  // node:http, and the stream a start's first write to stdout makes when stdout is a file or
  // /dev/null (a pipe's and a terminal's are in the snapshot): the list goes out on fd 3, so the
  // child's own stdout stays the file it is.
  const script = "require('node:http'); process.stdout; require('node:fs').writeSync(3, JSON.stringify(process.moduleLoadList))";
  const loadsHttp = spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8', stdio: ['ignore', 'ignore', 'inherit', 'pipe'] });
  const httpNeeds = loadsHttp.status === 0 ? JSON.parse(loadsHttp.output[3]).filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length)) : [];
  const keep = new Set(httpNeeds.filter((id) => !held.has(id)));
  if (!keep.has('http')) return void console.warn('bundle: the snapshot keeps all built-in modules\' code cache (node:http\'s modules not found)');
  return keep;
}

/**
 * dist/powder.lib.mjs, the package's `main`: loads dist/powder.lib.cjs through the code cache and
 * re-exports its names. An ES module must name its exports in its text, so they are read from an
 * ES-module analysis of the same entry (esbuild lists an ES module output's exports, not a
 * CommonJS one's).
 */
async function writeLibraryEntry() {
  const { writeFile } = await import('node:fs/promises');
  const probe = await build({ ...common, entryPoints: [join(root, 'dist/src/index.js')], outfile: join(root, 'dist/powder.lib.probe.mjs'), format: 'esm', write: false, metafile: true, sourcemap: false });
  const names = Object.values(probe.metafile.outputs).find((o) => o.entryPoint)?.exports ?? [];
  if (!names.includes('startNode')) throw new Error(`bundle: the library entry's exports were not found (${names.join(', ')})`);
  await writeFile(
    join(root, 'dist/powder.lib.mjs'),
    `// The package's entry, written by scripts/bundle.mjs: the library bundle (powder.lib.cjs) loaded
// through V8's code cache (bin/loadBundle.js), its exports re-exported.
import { fileURLToPath } from 'node:url';
import { loadBundle } from '../bin/loadBundle.js';
// The bundle's import() goes through this module's own (src/dynamicImport.ts says why).
globalThis.__powderImport ??= (specifier) => import(specifier);
const { exports: lib, saveCodeCacheLater } = loadBundle(fileURLToPath(new URL('./powder.lib.cjs', import.meta.url)));
saveCodeCacheLater();
export const { ${names.join(', ')} } = lib;
`,
  );
}

/**
 * Runs the new bundle once in a child process (the CLI, or a script that starts a node from the
 * library entry; a memory database, a free port; for the lmdb bundle, `bin/powder` on an LMDB
 * database), asks it one eth_chainId, and waits for the code cache it then writes beside the
 * bundle, so the first real start already has it. A failure here only costs that first start its
 * cache.
 */
async function makeCodeCache(kind) {
  const { spawn } = await import('node:child_process');
  const { existsSync, mkdtempSync, readdirSync, writeFileSync } = await import('node:fs');
  const { pathToFileURL } = await import('node:url');
  const { bundleKey, codeCacheFile } = await import('../bin/loadBundle.js');
  const { tmpdir } = await import('node:os');
  const bundle = join(root, { cli: 'dist/powder.cjs', library: 'dist/powder.lib.cjs', lmdb: 'dist/lmdb.cjs' }[kind]);
  // The child runs with no Node flags of its own (only an inherited NODE_OPTIONS): its cache name.
  // The lmdb bundle's is made by `bin/powder` on an LMDB database, whose flags are the snapshot's
  // (with its path) or none: any cache of the bundle as it is now will do.
  const hasCache =
    kind === 'lmdb'
      ? () => readdirSync(join(root, 'dist')).some((f) => f.startsWith(bundleKey(bundle)) && f.endsWith('.cache'))
      : () => existsSync(codeCacheFile(bundle, (process.env.NODE_OPTIONS ?? '').trim()));
  if (hasCache()) return;
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-code-cache-'));
  const nodeArgs = ['--http-port=0', ...(kind === 'lmdb' ? [] : ['--db-type=memdb']), `--data-dir=${dataDir}`, '--log-display-level=off'];
  let program = join(root, 'bin/powder.js');
  if (kind === 'library') {
    program = join(dataDir, 'start.mjs');
    const options = Object.fromEntries(nodeArgs.map((a) => a.slice(2).split(/=(.*)/s).slice(0, 2)));
    writeFileSync(
      program,
      `const { startNode } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist/powder.lib.mjs')).href)});
const node = await startNode(${JSON.stringify({ ...options, 'http-port': 0 })});
console.log(\`RPC \${node.url}/ext/bc/dev/rpc\`);
process.on('SIGTERM', () => node.stop().then(() => process.exit(0)));
`,
    );
  }
  const child =
    kind === 'lmdb'
      ? spawn(join(root, 'bin/powder'), nodeArgs, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      : spawn(process.execPath, [program, ...(kind === 'cli' ? nodeArgs : [])], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const rpc = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const m = /RPC (http:\/\/\S+\/ext\/bc\/\S+\/rpc)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
      setTimeout(() => reject(new Error('no start within 30 s')), 30_000).unref();
    });
    await fetch(rpc, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' });
    for (let i = 0; i < 100 && !hasCache(); i++) await new Promise((r) => setTimeout(r, 50));
    if (!hasCache()) throw new Error('no cache written');
  } catch (e) {
    console.warn(`bundle: no code cache made for the ${kind} (${e.message}); its first start makes it`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
