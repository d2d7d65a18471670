// The `debug` service (eth-apis "debug"): debug_storageRangeAt, debug_getBadBlocks, debug_preimage.
// Preimages (a slot's key, an address) are known when the chain records them: preimages-enabled.
// debug_getModifiedAccountsByNumber/ByHash, debug_dumpBlock, debug_accountRange,
// debug_getAccessibleState.
import { RLP } from '@ethereumjs/rlp';
import { createAccountFromRLP, createAddressFromString } from '@ethereumjs/util';
import { RpcError } from '../rpc/server.js';
import { boolArg, intNumberArg, uint64NumberArg } from '../rpc/params.js';
import type { Block } from '../chain/blockchain.js';
import { FlatStateManager } from '../state/flat.js';
import { changedLeaves, leavesFrom } from '../state/trieRange.js';
import { address, blockNumber, blockNumberOrHash, bytes, hash32, required, type BlockSpec } from './args.js';
import { checksumAddress } from '../chain/devAccounts.js';
import type { EvmBackend } from './backend.js';
import type { MethodTable } from './eth.js';
import { hexD } from './format.js';
import { replayBlock } from './replay.js';

const word = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex').padStart(64, '0');
/** Entries sorted by key as Go encodes a map. */
const byKey = <T>(entries: [string, T][]) => Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The state view of `block`, whose tries can be walked (trieAt). */
function walkableView(be: EvmBackend, block: Block): FlatStateManager {
  const sm = be.chain.stateView(block);
  if (!(sm instanceof FlatStateManager)) throw new Error('debug: unexpected state manager');
  return sm;
}

interface StorageRange {
  storage: Record<string, { key: string | null; value: string }>;
  nextKey: string | null;
}

/**
 * geth's debug_storageRangeAt (the Subnet-EVM 1.13-era one): `contract`'s storage as it is before
 * tx `txIndex` of the block runs, from hashed key `start` on, at most `max` entries, keyed by
 * hashed slot key in key order; `key` is the slot itself when its preimage was recorded, else null.
 */
async function storageRangeAt(be: EvmBackend, p: unknown[]): Promise<StorageRange> {
  const spec = blockNumberOrHash(required(p, 0), 0);
  const txIndex = intNumberArg(p, 1);
  const contract = address(required(p, 2), 2);
  const start = bytes(required(p, 3), 3);
  const max = intNumberArg(p, 4);
  const block = be.resolveForState(spec);
  if (block.header.number === 0n) throw new RpcError(-32000, 'no transaction in genesis');
  const { sm, txs, run } = await replayBlock(be, block);
  if (!(sm instanceof FlatStateManager)) throw new Error('debug: unexpected state manager');
  if (!(txIndex === 0 && txs.length === 0)) {
    if (txIndex < 0 || txIndex >= txs.length) throw new RpcError(-32000, `transaction index ${txIndex} out of range for block ${hexD(block.hash)}`);
    for (let i = 0; i < txIndex; i++) await run(i);
  }
  await sm.commit();
  await sm.getStateRoot(); // writes the changed storage tries' nodes to the view's store
  const account = await sm.getAccount(createAddressFromString(contract));
  if (!account) throw new RpcError(-32000, `account ${contract.slice(2)} doesn't exist`);
  const storage: StorageRange['storage'] = {};
  let nextKey: string | null = null;
  let n = 0;
  for await (const [key, value] of leavesFrom(sm.trieAt(account.storageRoot), start)) {
    if (n >= max) {
      nextKey = word(key);
      break;
    }
    const slot = be.chain.state.preimage(key);
    storage[word(key)] = { key: slot ? word(slot) : null, value: word(RLP.decode(value) as Uint8Array) };
    n++;
  }
  return { storage, nextKey };
}

/**
 * geth's getModifiedAccounts: the addresses whose account (nonce, balance, code hash or storage
 * root) differs between the states of `start` and `end` (accounts only in `start` are not
 * reported), in trie key order, each named by its recorded preimage.
 */
async function modifiedAccounts(be: EvmBackend, start: Block, end: Block | undefined): Promise<string[] | null> {
  // One block: what it changed against its parent.
  if (end === undefined) {
    const parent = be.chain.blockByHash(start.header.parentHash);
    if (!parent) throw new RpcError(-32000, `block ${start.header.number.toString(16)} has no parent`);
    [start, end] = [parent, start];
  }
  if (start.header.number >= end.header.number) {
    throw new RpcError(-32000, `start block height (${start.header.number}) must be less than end block height (${end.header.number})`);
  }
  const chain = be.chain;
  const sm = walkableView(be, end);
  const out: string[] = [];
  for await (const [key] of changedLeaves(sm.trieAt(chain.stateRootOf(start)), sm.trieAt(chain.stateRootOf(end)))) {
    const address = chain.state.preimage(key);
    if (!address) throw new RpcError(-32000, `no preimage found for hash ${Buffer.from(key).toString('hex')}`);
    out.push(hexD(address));
  }
  return out.length ? out : null; // geth's nil slice
}

/** geth's AccountRangeMaxResults: the most accounts one dump answers over RPC. */
const ACCOUNT_RANGE_MAX = 256;

interface DumpConfig {
  skipCode: boolean;
  skipStorage: boolean;
  onlyWithAddresses: boolean;
  start: Uint8Array;
  max: number;
}

/**
 * geth's StateDB.RawDump (core/state/dump.go) of `block`'s state: accounts in trie key order from
 * `start`, keyed by checksummed address (or `pre(<hash>)` without a preimage), with decimal
 * balance, storage values as unpadded hex without 0x, and `next` (base64, as Go encodes []byte)
 * where a partial dump stopped.
 */
async function rawDump(be: EvmBackend, block: Block, conf: DumpConfig): Promise<Record<string, unknown>> {
  const chain = be.chain;
  const root = chain.stateRootOf(block);
  const sm = walkableView(be, block);
  const reader = chain.state.reader(chain.commons.get(chain.forkAt(block.header.timestamp)), root);
  const accounts: [string, Record<string, unknown>][] = [];
  let next: Uint8Array | undefined;
  for await (const [key, value] of leavesFrom(sm.trieAt(root), conf.start)) {
    if (conf.max > 0 && accounts.length >= conf.max) {
      next = key;
      break;
    }
    const addressBytes = chain.state.preimage(key);
    if (!addressBytes && conf.onlyWithAddresses) continue;
    const acc = createAccountFromRLP(value);
    const entry: Record<string, unknown> = { balance: acc.balance.toString(), nonce: Number(acc.nonce), root: hexD(acc.storageRoot), codeHash: hexD(acc.codeHash) };
    const address = createAddressFromString(addressBytes ? hexD(addressBytes) : '0x' + '00'.repeat(20));
    if (!conf.skipCode) {
      const code = await reader.code(address, acc.codeHash);
      if (code.length) entry.code = hexD(code);
    }
    if (!conf.skipStorage) {
      const slots: [string, string][] = [];
      for await (const [slotKey, slotValue] of leavesFrom(sm.trieAt(acc.storageRoot), new Uint8Array())) {
        const slot = chain.state.preimage(slotKey);
        slots.push([word(slot ?? new Uint8Array()), Buffer.from(RLP.decode(slotValue) as Uint8Array).toString('hex')]);
      }
      if (slots.length) entry.storage = byKey(slots);
    }
    if (addressBytes) entry.address = hexD(addressBytes);
    entry.key = hexD(key);
    accounts.push([addressBytes ? checksumAddress(hexD(addressBytes)) : `pre(${hexD(key)})`, entry]);
  }
  const dump: Record<string, unknown> = {
    root: Buffer.from(root).toString('hex'),
    accounts: byKey(accounts),
  };
  if (next) dump.next = Buffer.from(next).toString('base64');
  return dump;
}

/** geth's block lookup for the dumps: by number or tag (every tag but earliest is the head). */
function dumpBlockAt(be: EvmBackend, spec: BlockSpec): Block {
  if (spec.kind === 'hash') {
    const b = be.chain.blockByHash(Buffer.from(spec.hash.slice(2), 'hex'));
    if (!b) throw new RpcError(-32000, `block ${spec.hash} not found`);
    return b;
  }
  if (spec.kind === 'tag') return spec.tag === 'earliest' ? be.chain.blockByNumber(0n)! : be.chain.head;
  const b = be.chain.blockByNumber(spec.number);
  if (!b) throw new RpcError(-32000, `block #${spec.number} not found`);
  return b;
}

export function debugStateMethods(be: EvmBackend): MethodTable {
  const m: MethodTable = new Map();
  m.set('debug_storageRangeAt', (p) => storageRangeAt(be, p));
  m.set('debug_getModifiedAccountsByNumber', (p) => {
    const startNum = uint64NumberArg(p, 0);
    const endNum = p[1] === undefined || p[1] === null ? undefined : uint64NumberArg(p, 1);
    const start = be.chain.blockByNumber(startNum);
    if (!start) throw new RpcError(-32000, `start block ${startNum.toString(16)} not found`);
    const end = endNum === undefined ? undefined : be.chain.blockByNumber(endNum);
    if (endNum !== undefined && !end) throw new RpcError(-32000, `end block ${endNum} not found`);
    return modifiedAccounts(be, start, end);
  });
  m.set('debug_getModifiedAccountsByHash', (p) => {
    const startHash = hash32(required(p, 0), 0);
    const endHash = p[1] === undefined || p[1] === null ? undefined : hash32(p[1], 1);
    const start = be.chain.blockByHash(Buffer.from(startHash.slice(2), 'hex'));
    if (!start) throw new RpcError(-32000, `start block ${startHash.slice(2)} not found`);
    const end = endHash === undefined ? undefined : be.chain.blockByHash(Buffer.from(endHash.slice(2), 'hex'));
    if (endHash !== undefined && !end) throw new RpcError(-32000, `end block ${endHash.slice(2)} not found`);
    return modifiedAccounts(be, start, end);
  });
  m.set('debug_dumpBlock', (p) => {
    const block = dumpBlockAt(be, blockNumber(required(p, 0), 0));
    return rawDump(be, block, { skipCode: false, skipStorage: false, onlyWithAddresses: true, start: new Uint8Array(), max: ACCOUNT_RANGE_MAX });
  });
  m.set('debug_accountRange', (p) => {
    const block = dumpBlockAt(be, blockNumberOrHash(required(p, 0), 0));
    const start = bytes(required(p, 1), 1);
    const maxResults = intNumberArg(p, 2);
    const [nocode, nostorage, incompletes] = [boolArg(p[3], 3), boolArg(p[4], 4), boolArg(p[5], 5)];
    const max = maxResults > ACCOUNT_RANGE_MAX || maxResults <= 0 ? ACCOUNT_RANGE_MAX : maxResults;
    return rawDump(be, block, { skipCode: nocode, skipStorage: nostorage, onlyWithAddresses: !incompletes, start, max });
  });
  // geth's: the first block from `from` towards `to` (excluded) whose state is on disk — here
  // every block's (an archive node), so `from` unless the walk meets a missing block.
  m.set('debug_getAccessibleState', (p) => {
    const resolve = (spec: BlockSpec) => (spec.kind === 'number' ? spec.number : spec.kind === 'tag' && spec.tag === 'earliest' ? 0n : be.chain.head.header.number);
    const start = resolve(blockNumber(required(p, 0), 0));
    const end = resolve(blockNumber(required(p, 1), 1));
    if (start === end) throw new RpcError(-32000, 'from and to needs to be different');
    const delta = start > end ? -1n : 1n;
    for (let i = start; i !== end; i += delta) {
      const b = be.chain.blockByNumber(i);
      if (!b) throw new RpcError(-32000, `missing header ${i}`);
      if (be.chain.state.hasRoot(be.chain.stateRootOf(b))) return i; // a uint64: a bare JSON number
    }
    throw new RpcError(-32000, 'no state found');
  });
  // geth keeps the blocks whose import failed; a local node imports none.
  m.set('debug_getBadBlocks', () => []);
  // Trie keys' preimages, recorded with preimages-enabled (on for the dev chain).
  m.set('debug_preimage', (p) => {
    const h = hash32(required(p, 0), 0);
    const preimage = be.chain.state.preimage(Buffer.from(h.slice(2), 'hex'));
    if (!preimage) throw new RpcError(-32000, 'unknown preimage');
    return hexD(preimage);
  });
  return m;
}
