// The bundle's own conversions between EVM words and bytes (scripts/bundle.mjs patches
// @ethereumjs/util's bytesToBigInt and bigIntToBytes, and the opcodes' setLengthLeft(bigIntToBytes(w),
// 32), KECCAK256's push of its digest, and gives the EVM's memory stores from shared slabs, in the
// bundles only). A node started from dist/powder.lib.mjs runs a contract over words at
// every boundary the new code has (zero, 2^48, 2^64, 2^128, 2^192, 2^255, 2^256 - 1) and more:
// CALLDATALOAD and MLOAD read them, MSTORE, SSTORE, SLOAD and TSTORE write and key by them, and
// what the EVM saw is checked against what JavaScript computes from the numbers (their keccak as
// 32-byte words, their storage slots and values by eth_getStorageAt); frames fill memory of every
// size, nested, and read zeros where they wrote nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeFunctionResult, encodeAbiParameters, encodeFunctionData, keccak256, numberToHex, type Hex } from 'viem';
import { compile } from '../../test/solc.js';
import { DEV_ADDRS, type Rpc } from './chain/testkit.js';
import { bundledDevNode } from './bundledNode.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Words {
  mapping(uint256 => uint256) public m;
  function echo(uint256[] calldata xs) external pure returns (uint256[] memory out, bytes32[] memory hashes) {
    out = new uint256[](xs.length);
    hashes = new bytes32[](xs.length);
    for (uint i; i < xs.length; i++) { uint x = xs[i]; out[i] = x; hashes[i] = keccak256(abi.encode(x)); }
  }
  function put(uint256[] calldata xs) external { for (uint i; i < xs.length; i++) m[xs[i]] = xs[i]; }
  function get(uint256[] calldata xs) external view returns (uint256[] memory out) {
    out = new uint256[](xs.length);
    for (uint i; i < xs.length; i++) out[i] = m[xs[i]];
  }
  function raw(uint256[] calldata xs) external { for (uint i; i < xs.length; i++) { uint x = xs[i]; assembly { sstore(x, x) } } }
  function transient(uint256[] calldata xs) external returns (uint256[] memory out) {
    out = new uint256[](xs.length);
    for (uint i; i < xs.length; i++) { uint x = xs[i]; uint r; assembly { tstore(x, not(x)) r := tload(x) } out[i] = r; }
  }
  /// Fills n bytes of fresh memory with i*7+1 (mod 256), then reads the word past them and one far
  /// beyond; calls itself once with n/2 first, so two frames' memories are in use at once.
  function fill(uint n, bool nested) external view returns (bytes32 h, uint past, uint far, bytes32 inner) {
    if (nested && n > 1) (inner, , , ) = this.fill(n / 2, false);
    bytes memory b = new bytes(n);
    for (uint i; i < n; i++) b[i] = bytes1(uint8(i * 7 + 1));
    h = keccak256(b);
    assembly { past := mload(add(add(b, 0x20), n)) far := mload(add(add(b, 0x20), add(n, 0x4000))) }
  }
  function nothing() external {}
  function failsEmpty() external pure { revert(); }
  /// Empty bytes everywhere the EVM makes them: a keccak of nothing, a call answering nothing, a
  /// revert with nothing, an empty SSTORE, then words again.
  function empties(uint x) external returns (bytes32 h, uint size, bool ok, uint revertSize, bool reverted, uint afterWord) {
    h = keccak256("");
    bytes memory r;
    (ok, r) = address(this).call(abi.encodeWithSignature("nothing()"));
    size = r.length;
    (reverted, r) = address(this).call(abi.encodeWithSignature("failsEmpty()"));
    reverted = !reverted;
    revertSize = r.length;
    m[x] = 0;
    afterWord = uint(keccak256(abi.encode(x)));
  }
}`;
const words = compile({ 'Words.sol': SOURCE }, 'Words');

const MAX = 2n ** 256n - 1n;
/** Every boundary of the patched code, its neighbours, and a spread of keccak-derived words of each byte length. */
function wordsToTry(): bigint[] {
  const xs = new Set<bigint>([0n, 1n, 0xffn, 0x100n, MAX]);
  for (const bits of [8, 16, 32, 48, 53, 56, 64, 96, 128, 160, 192, 224, 248, 255]) for (const d of [-1n, 0n, 1n]) xs.add(2n ** BigInt(bits) + d);
  for (let len = 1; len <= 32; len++) {
    const h = BigInt(keccak256(numberToHex(len)));
    xs.add(h >> BigInt(8 * (32 - len))); // exactly `len` bytes (or fewer when the hash starts with zeros)
  }
  return [...xs].filter((x) => x >= 0n && x <= MAX);
}
const XS = wordsToTry();
const word = (x: bigint): Hex => numberToHex(x, { size: 32 });

let rpc: Rpc;
let stop: () => Promise<void>;
let contract: Hex;

before(async () => {
  ({ rpc, stop } = await bundledDevNode('powder-bundled-words-'));
  const hash = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], data: words.bytecode, gas: '0x500000' }]);
  contract = (await rpc('eth_getTransactionReceipt', [hash])).contractAddress;
});
after(() => stop?.());

const call = (functionName: string, args: unknown[]) => rpc('eth_call', [{ to: contract, data: encodeFunctionData({ abi: words.abi, functionName, args }) }, 'latest']);
const send = async (functionName: string, args: unknown[]) => {
  const hash = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: contract, data: encodeFunctionData({ abi: words.abi, functionName, args }), gas: '0x1c9c380' }]);
  const rc = await rpc('eth_getTransactionReceipt', [hash]);
  assert.equal(rc.status, '0x1', `${functionName} failed`);
};

test('bundled words: calldata and memory words read back, and their keccak is the 32-byte words\'', async () => {
  const [out, hashes] = decodeFunctionResult({ abi: words.abi, functionName: 'echo', data: await call('echo', [XS]) }) as [bigint[], Hex[]];
  assert.deepEqual(out, XS);
  assert.deepEqual(hashes, XS.map((x) => keccak256(word(x))));
});

test('bundled words: KECCAK256 pushes its digest as the word it is, leading zero bytes included', async () => {
  // (KECCAK256's digest goes to the stack through the patched bytesToBigInt, not through its hex.)
  // 480's and 43786's words hash to digests that begin with one and two zero bytes.
  const xs = [480n, 43786n, 1n];
  const want = xs.map((x) => keccak256(word(x)));
  assert.ok(want[0]!.startsWith('0x00') && want[1]!.startsWith('0x0000'), 'the inputs still give leading zeros');
  const [, hashes] = decodeFunctionResult({ abi: words.abi, functionName: 'echo', data: await call('echo', [xs]) }) as [bigint[], Hex[]];
  assert.deepEqual(hashes, want);
});

test('bundled words: storage keyed and valued by the words, in the EVM and in eth_getStorageAt', async () => {
  await send('put', [XS]);
  await send('raw', [XS]);
  const got = decodeFunctionResult({ abi: words.abi, functionName: 'get', data: await call('get', [XS]) }) as bigint[];
  assert.deepEqual(got, XS);
  for (const x of XS) {
    // m[x] lives at keccak(x ‖ 0); raw() stored x at slot x.
    const mapped = keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [x, 0n]));
    assert.equal(await rpc('eth_getStorageAt', [contract, mapped, 'latest']), word(x), `m[${x}]`);
    assert.equal(await rpc('eth_getStorageAt', [contract, word(x), 'latest']), word(x), `slot ${x}`);
  }
});

test('bundled words: frames\' memory from the shared slabs is zeros, grows past them and keeps what was written', async () => {
  const pattern = (n: number) => keccak256(Uint8Array.from({ length: n }, (_, i) => (i * 7 + 1) & 0xff));
  for (const n of [1, 31, 100, 900, 1000, 3000, 8000, 9000, 20000, 70000]) {
    const [h, past, far, inner] = decodeFunctionResult({ abi: words.abi, functionName: 'fill', data: await call('fill', [BigInt(n), true]) }) as [Hex, bigint, bigint, Hex];
    assert.equal(h, pattern(n), `fill(${n})`);
    assert.equal(inner, n > 1 ? pattern(Math.floor(n / 2)) : word(0n), `fill(${n}) inner`);
    assert.equal(past, 0n);
    assert.equal(far, 0n);
  }
});

test('bundled words: empty data (one shared empty array in the bundle) everywhere the EVM makes it', async () => {
  // (The bundle gives the interpreter's and the opcodes' empty defaults one shared empty array.)
  for (const x of [0n, 7n, MAX]) {
    const [h, size, ok, revertSize, reverted, afterWord] = decodeFunctionResult({ abi: words.abi, functionName: 'empties', data: await call('empties', [x]) }) as [Hex, bigint, boolean, bigint, boolean, bigint];
    assert.equal(h, keccak256('0x'));
    assert.deepEqual([size, ok, revertSize, reverted], [0n, true, 0n, true]);
    assert.equal(afterWord, BigInt(keccak256(word(x))));
  }
  const r = await rpc.raw('eth_call', [{ to: contract, data: encodeFunctionData({ abi: words.abi, functionName: 'failsEmpty' }) }, 'latest']);
  // (geth: a revert without data is the plain -32000 `execution reverted`, no data.)
  assert.deepEqual([r.error?.code, r.error?.message, r.error?.data], [-32000, 'execution reverted', undefined]);
  assert.equal(await call('nothing', []), '0x');
});

test('bundled words: transient storage keyed by the words', async () => {
  const out = decodeFunctionResult({ abi: words.abi, functionName: 'transient', data: await call('transient', [XS]) }) as bigint[];
  assert.deepEqual(out, XS.map((x) => MAX ^ x));
});
