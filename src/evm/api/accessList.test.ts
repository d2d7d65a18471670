// eth_createAccessList builds the list as geth's AccessListTracer does (accessListTracer.ts): the
// storage slots and the accounts a run touches, without the sender, the recipient (or the address
// created) and the active precompiles, repeated until a run adds nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeDeployData, encodeFunctionData, getContractAddress, toHex } from 'viem';
import { compile } from '../../../test/solc.js';
import { useDevNode, DEV_ADDRS } from '../chain/testkit.js';

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Store {
  uint256[40] public vals;
  constructor() { for (uint256 i; i < 40; i++) vals[i] = i + 1; }
  function sum(uint256 n) external view returns (uint256 s) { for (uint256 i; i < n; i++) s += vals[i]; }
}

contract Reader {
  uint256 public a = 1;
  uint256 public b = 2;
  Store public store;
  event Read(uint256 r);
  constructor(Store s) { store = s; }
  function read(uint256 n) external returns (uint256 r) {
    r = a;
    r += b;
    r += store.sum(n);
    emit Read(r);
  }
  function readThenRevert(uint256 n) external view returns (uint256 r) {
    r = a;
    r += store.sum(n);
    require(r == 0, "no");
  }
  // Store's code on Reader's storage: the slot is Reader's, Store is listed without slots.
  function viaDelegate() external returns (bool ok) {
    (ok, ) = address(store).delegatecall(abi.encodeCall(Store.sum, (1)));
  }
  // Precompiles (ecrecover 0x01, sha256 0x02, P256Verify 0x0100 from Granite) are not listed; a
  // stateful precompile (TxAllowList 0x0200…02, not among geth's ActivePrecompiles), an empty
  // account called and an account whose balance is read are.
  function precompiles() external returns (bytes32 h) {
    h = sha256(abi.encode(uint256(1)));
    ecrecover(h, 27, h, h);
    (bool ok, ) = address(0x100).staticcall(new bytes(160));
    (ok, ) = address(0x0200000000000000000000000000000000000002).call(abi.encodeWithSelector(0xeb54dae1, msg.sender));
    (ok, ) = address(0x1234).call("");
    h ^= bytes32(address(0x5678).balance);
  }
}

contract CodeReader {
  // EXTCODEHASH, EXTCODESIZE + EXTCODECOPY, EXTCODESIZE, then SELFDESTRUCT to a fourth account.
  function run() external {
    bytes32 h = address(0xaaaa).codehash;
    bytes memory c = address(0xbbbb).code;
    uint256 n = address(0xcccc).code.length;
    if (h == bytes32(0) && c.length + n == 0) selfdestruct(payable(address(0xdddd)));
  }
}

contract Creator {
  uint256 public x;
  constructor(Store s) { x = s.sum(2); }
}
`;
const src = { 'AccessList.sol': SOURCE };
const STORE = compile(src, 'Store');
const READER = compile(src, 'Reader');
const CREATOR = compile(src, 'Creator');
const CODE_READER = compile(src, 'CodeReader');

const { rpc } = useDevNode();
const FROM = DEV_ADDRS[0];
const slot = (n: number) => toHex(n, { size: 32 });
const slots = (n: number) => Array.from({ length: n }, (_, i) => slot(i));

async function deploy(data: string): Promise<string> {
  const h = await rpc('eth_sendTransaction', [{ from: FROM, data, gas: '0x800000' }]);
  const r = await rpc('eth_getTransactionReceipt', [h]);
  assert.equal(r.status, '0x1');
  return r.contractAddress;
}

let deployed: Promise<{ store: string; reader: string }> | undefined;
const contracts = () =>
  (deployed ??= (async () => {
    const store = await deploy(STORE.bytecode);
    const reader = await deploy(encodeDeployData({ abi: READER.abi, bytecode: READER.bytecode, args: [store] }));
    return { store, reader };
  })());

const readerCall = (name: string, args: unknown[] = []) => encodeFunctionData({ abi: READER.abi, functionName: name, args } as never);

test('a contract reading its own slots and calling one that reads its slots: both with their slots, in order of first touch; resent with the list the tx costs no more', async () => {
  const { store, reader } = await contracts();
  const data = readerCall('read', [30n]);
  const out = await rpc('eth_createAccessList', [{ from: FROM, to: reader, data }]);
  // `to` is not listed for itself, but its slots are (geth's addSlot adds the address).
  assert.deepEqual(out.accessList, [
    { address: reader, storageKeys: [slot(0), slot(1), slot(2)] },
    { address: store, storageKeys: slots(30) },
  ]);
  assert.equal(out.error, undefined);
  // The tx sent with and without the list: the list makes it cheaper (30 + 3 warm slots and a warm
  // account outweigh the 2,400 of listing `to`), and createAccessList's gasUsed is the tx's with it.
  const fees = { maxFeePerGas: toHex(10n ** 12n), maxPriorityFeePerGas: '0x1', gas: '0x100000' };
  const without = await rpc('eth_getTransactionReceipt', [await rpc('eth_sendTransaction', [{ from: FROM, to: reader, data, ...fees }])]);
  const withList = await rpc('eth_getTransactionReceipt', [await rpc('eth_sendTransaction', [{ from: FROM, to: reader, data, ...fees, accessList: out.accessList }])]);
  assert.equal(without.status, '0x1');
  assert.equal(withList.status, '0x1');
  assert.ok(BigInt(withList.gasUsed) <= BigInt(without.gasUsed), `${withList.gasUsed} > ${without.gasUsed}`);
  assert.equal(BigInt(without.gasUsed) - BigInt(withList.gasUsed), 33n * 100n + 100n - 2400n);
  assert.equal(out.gasUsed, withList.gasUsed);
});

test('a starting list that is already complete comes back as given; from, to and precompiles without slots are dropped from it', async () => {
  const { store, reader } = await contracts();
  const data = readerCall('read', [3n]);
  const first = await rpc('eth_createAccessList', [{ from: FROM, to: reader, data }]);
  assert.deepEqual(first.accessList, [
    { address: reader, storageKeys: [slot(0), slot(1), slot(2)] },
    { address: store, storageKeys: slots(3) },
  ]);
  const again = await rpc('eth_createAccessList', [{ from: FROM, to: reader, data, accessList: first.accessList }]);
  assert.deepEqual(again, first);
  // The caller's order is kept, duplicates merge; the sender, the recipient and a precompile
  // without slots are not listed, an unrelated account is (geth's tracer starts from the list).
  const other = '0x000000000000000000000000000000000000abcd';
  const given = [
    { address: store, storageKeys: [slot(2), slot(1)] },
    { address: FROM, storageKeys: [] },
    { address: reader, storageKeys: [] },
    { address: '0x0000000000000000000000000000000000000002', storageKeys: [] },
    { address: other, storageKeys: [] },
    { address: store, storageKeys: [slot(0), slot(2)] },
  ];
  const out = await rpc('eth_createAccessList', [{ from: FROM, to: reader, data, accessList: given }]);
  assert.deepEqual(out.accessList, [
    { address: store, storageKeys: [slot(2), slot(1), slot(0)] },
    { address: other, storageKeys: [] },
    { address: reader, storageKeys: [slot(0), slot(1), slot(2)] },
  ]);
  assert.equal(BigInt(out.gasUsed), BigInt(first.gasUsed) + 2400n);
});

test('a plain ETH transfer to an account without code: an empty list, 21,000 gas', async () => {
  const to = '0x00000000000000000000000000000000000c0ffe';
  assert.deepEqual(await rpc('eth_createAccessList', [{ from: FROM, to, value: '0x1' }]), { accessList: [], gasUsed: '0x5208' });
  assert.deepEqual(await rpc('eth_createAccessList', [{ from: FROM, to: DEV_ADDRS[1], value: '0x1' }, 'latest']), { accessList: [], gasUsed: '0x5208' });
});

test('a reverting call: `error` is set and the list holds what the run touched before the revert', async () => {
  const { store, reader } = await contracts();
  const out = await rpc('eth_createAccessList', [{ from: FROM, to: reader, data: readerCall('readThenRevert', [2n]) }]);
  assert.equal(out.error, 'execution reverted');
  assert.deepEqual(out.accessList, [
    { address: reader, storageKeys: [slot(0), slot(2)] },
    { address: store, storageKeys: slots(2) },
  ]);
  assert.ok(BigInt(out.gasUsed) > 21000n);
});

test('DELEGATECALL: the slots are the caller\'s storage, the code\'s account is listed without slots', async () => {
  const { store, reader } = await contracts();
  const out = await rpc('eth_createAccessList', [{ from: FROM, to: reader, data: readerCall('viaDelegate') }]);
  assert.deepEqual(out.accessList, [
    { address: reader, storageKeys: [slot(2), slot(0)] },
    { address: store, storageKeys: [] },
  ]);
});

test('precompiles called are not listed; other accounts called or whose balance is read are, without slots', async () => {
  const { reader } = await contracts();
  const out = await rpc('eth_createAccessList', [{ from: FROM, to: reader, data: readerCall('precompiles') }]);
  assert.equal(out.error, undefined);
  assert.deepEqual(out.accessList, [
    { address: '0x0200000000000000000000000000000000000002', storageKeys: [] },
    { address: '0x0000000000000000000000000000000000001234', storageKeys: [] },
    { address: '0x0000000000000000000000000000000000005678', storageKeys: [] },
  ]);
});

test('EXTCODEHASH, EXTCODECOPY, EXTCODESIZE and SELFDESTRUCT list the account they name', async () => {
  const codeReader = await deploy(CODE_READER.bytecode);
  const data = encodeFunctionData({ abi: CODE_READER.abi, functionName: 'run' });
  const out = await rpc('eth_createAccessList', [{ from: FROM, to: codeReader, data }]);
  assert.equal(out.error, undefined);
  // (Sorted: the optimizer chooses the order of these reads.)
  assert.deepEqual(
    [...out.accessList].sort((x: { address: string }, y: { address: string }) => x.address.localeCompare(y.address)),
    ['0xaaaa', '0xbbbb', '0xcccc', '0xdddd'].map((a) => ({ address: '0x' + a.slice(2).padStart(40, '0'), storageKeys: [] })),
  );
});

test('a create (no `to`): the created address is not listed for itself, its slots and the accounts its init code touches are', async () => {
  const { store } = await contracts();
  const data = encodeDeployData({ abi: CREATOR.abi, bytecode: CREATOR.bytecode, args: [store] });
  const nonce = BigInt(await rpc('eth_getTransactionCount', [FROM, 'pending']));
  const created = getContractAddress({ from: FROM as `0x${string}`, nonce }).toLowerCase();
  const out = await rpc('eth_createAccessList', [{ from: FROM, data }]);
  assert.equal(out.error, undefined);
  assert.deepEqual(out.accessList, [
    { address: store, storageKeys: slots(2) },
    { address: created, storageKeys: [slot(0)] },
  ]);
  // The deployment sent with the list uses the gas createAccessList reported.
  const fees = { maxFeePerGas: toHex(10n ** 12n), maxPriorityFeePerGas: '0x1', gas: '0x100000' };
  const r = await rpc('eth_getTransactionReceipt', [await rpc('eth_sendTransaction', [{ from: FROM, data, ...fees, accessList: out.accessList }])]);
  assert.equal(r.contractAddress, created);
  assert.equal(r.gasUsed, out.gasUsed);
});
