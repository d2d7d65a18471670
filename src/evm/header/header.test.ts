// Header RLP layout and hash (reference subnet-evm.md §5.3) and JSON (§1.4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encode } from '@ethereumjs/rlp';
import { createBlockHeader } from '@ethereumjs/block';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { keccak256 } from '../crypto.js';
import {
  EMPTY_BLOOM,
  EMPTY_ROOT,
  EMPTY_UNCLE_HASH,
  ZERO_HASH,
  decodeHeader,
  encodeHeader,
  hashHeader,
  headerJSON,
  headerNotificationJSON,
  type Header,
} from './index.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const fill = (n: number, v: number) => new Uint8Array(n).fill(v);

function base(): Header {
  return {
    parentHash: fill(32, 1),
    uncleHash: EMPTY_UNCLE_HASH,
    coinbase: new Uint8Array(Buffer.from('0100000000000000000000000000000000000000', 'hex')),
    stateRoot: fill(32, 2),
    transactionsRoot: EMPTY_ROOT,
    receiptsRoot: EMPTY_ROOT,
    logsBloom: EMPTY_BLOOM,
    difficulty: 1n,
    number: 10n,
    gasLimit: 8_000_000n,
    gasUsed: 21_000n,
    timestamp: 1_700_000_000n,
    extraData: new Uint8Array(86),
    mixHash: ZERO_HASH,
    nonce: new Uint8Array(8),
  };
}

test('keccak256 matches the JS implementation', () => {
  for (const input of [new Uint8Array(0), fill(1, 7), fill(200, 3)]) assert.equal(hex(keccak256(input)), hex(keccak_256(input)));
  assert.equal(hex(keccak256(new Uint8Array(0))), 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
});

test('London-shaped header (baseFee only) hashes like @ethereumjs/block', () => {
  const h: Header = { ...base(), baseFee: 25_000_000_000n };
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.London });
  const ej = createBlockHeader(
    {
      parentHash: h.parentHash,
      uncleHash: h.uncleHash,
      coinbase: h.coinbase,
      stateRoot: h.stateRoot,
      transactionsTrie: h.transactionsRoot,
      receiptTrie: h.receiptsRoot,
      logsBloom: h.logsBloom,
      difficulty: h.difficulty,
      number: h.number,
      gasLimit: h.gasLimit,
      gasUsed: h.gasUsed,
      timestamp: h.timestamp,
      extraData: h.extraData,
      mixHash: h.mixHash,
      nonce: h.nonce,
      baseFeePerGas: h.baseFee,
    },
    { common, skipConsensusFormatValidation: true },
  );
  assert.equal(hex(hashHeader(h)), hex(ej.hash()));
  assert.equal(hex(encodeHeader(h)), hex(ej.serialize()));
});

test('Subnet-EVM tail: blockGasCost in the withdrawalsRoot slot, then Cancun, then Granite fields', () => {
  const h: Header = {
    ...base(),
    baseFee: 25_000_000_000n,
    blockGasCost: 0n,
    blobGasUsed: 0n,
    excessBlobGas: 0n,
    parentBeaconRoot: ZERO_HASH,
    timestampMilliseconds: 1_700_000_000_123n,
    minDelayExcess: 7_970_124n,
  };
  const b = base();
  const expected = encode([
    b.parentHash, b.uncleHash, b.coinbase, b.stateRoot, b.transactionsRoot, b.receiptsRoot, b.logsBloom,
    1n, 10n, 8_000_000n, 21_000n, 1_700_000_000n, b.extraData, b.mixHash, b.nonce,
    25_000_000_000n, 0n, 0n, 0n, ZERO_HASH, 1_700_000_000_123n, 7_970_124n,
  ]);
  assert.equal(hex(encodeHeader(h)), hex(expected));
  assert.equal(hex(hashHeader(h)), hex(keccak256(expected)));
  assert.deepEqual(decodeHeader(encodeHeader(h)), h);
  // A missing field before a present one is encoded as 0x80.
  const gap: Header = { ...base(), baseFee: 1n, minDelayExcess: 5n };
  const gapExpected = encode([
    b.parentHash, b.uncleHash, b.coinbase, b.stateRoot, b.transactionsRoot, b.receiptsRoot, b.logsBloom,
    1n, 10n, 8_000_000n, 21_000n, 1_700_000_000n, b.extraData, b.mixHash, b.nonce,
    1n, new Uint8Array(0), new Uint8Array(0), new Uint8Array(0), new Uint8Array(0), new Uint8Array(0), 5n,
  ]);
  assert.equal(hex(encodeHeader(gap)), hex(gapExpected));
});

test('decodeHeader rejects malformed input', () => {
  assert.throws(() => decodeHeader(encode([new Uint8Array(1)])), /header has 1 fields/);
  const bad = base();
  bad.parentHash = fill(31, 1);
  assert.throws(() => decodeHeader(encodeHeader(bad)), /want 32 for header field parentHash/);
  assert.throws(() => decodeHeader(new Uint8Array([0x05])), /expected input list/);
});

test('headerJSON: §1.4 fields present exactly when set, sorted keys, extras merged', () => {
  const h: Header = { ...base(), baseFee: 25_000_000_000n, blockGasCost: 0n, blobGasUsed: 0n, excessBlobGas: 0n, parentBeaconRoot: ZERO_HASH, timestampMilliseconds: 10_000n, minDelayExcess: 7_970_124n, timestamp: 10n, number: 1n };
  const j = headerJSON(h, { hash: fill(32, 9), size: '0x2a1', uncles: [] });
  assert.equal(j.baseFeePerGas, '0x5d21dba00');
  assert.equal(j.blockGasCost, '0x0');
  assert.equal(j.minDelayExcess, '0x799d4c');
  assert.equal(j.timestampMilliseconds, '0x2710');
  assert.equal(j.totalDifficulty, '0x1');
  assert.equal(j.difficulty, '0x1');
  assert.equal(j.nonce, '0x0000000000000000');
  assert.equal(j.miner, '0x0100000000000000000000000000000000000000');
  assert.equal(j.hash, '0x' + '09'.repeat(32));
  assert.deepEqual(j.uncles, []);
  assert.deepEqual(Object.keys(j), [...Object.keys(j)].sort());
  const pre = headerJSON(base(), { hash: fill(32, 9) });
  for (const k of ['baseFeePerGas', 'blockGasCost', 'blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot', 'timestampMilliseconds', 'minDelayExcess', 'withdrawalsRoot'])
    assert.equal(k in pre, false, k);
});

test('headerNotificationJSON: HeaderSerializable field order, then hash; absent optionals are null', () => {
  const h: Header = { ...base(), baseFee: 25_000_000_000n, blockGasCost: 0n, blobGasUsed: 0n, excessBlobGas: 0n, parentBeaconRoot: ZERO_HASH, timestampMilliseconds: 10_000n, minDelayExcess: 7_970_124n, timestamp: 10n, number: 1n };
  const order = ['parentHash', 'sha3Uncles', 'miner', 'stateRoot', 'transactionsRoot', 'receiptsRoot', 'logsBloom', 'difficulty', 'number', 'gasLimit', 'gasUsed', 'timestamp', 'extraData', 'mixHash', 'nonce', 'baseFeePerGas', 'blockGasCost', 'blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot', 'timestampMilliseconds', 'minDelayExcess', 'hash'];
  const j = headerNotificationJSON(h, fill(32, 9));
  assert.deepEqual(Object.keys(j), order);
  // Every value is the block JSON's value for the same key.
  const block = headerJSON(h, { hash: fill(32, 9) });
  for (const k of order) assert.equal(j[k], block[k], k);
  const pre = headerNotificationJSON(base(), fill(32, 9));
  assert.deepEqual(Object.keys(pre), order);
  for (const k of ['baseFeePerGas', 'blockGasCost', 'blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot', 'timestampMilliseconds', 'minDelayExcess']) assert.equal(pre[k], null, k);
  assert.equal('totalDifficulty' in j, false);
});
