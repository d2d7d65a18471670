// Anvil's state files (anvil_dumpState / anvil_loadState, `anvil --dump-state`): the accounts of a
// chain's latest state — nonce, balance, code, storage — as Anvil's SerializableState JSON,
// gzipped and hex-encoded. Powder writes the head's state and its block's environment; it loads
// the accounts (a dump of Anvil's or of another Powder chain) into the latest state, as state
// edits. Blocks and transactions are not carried over: a Subnet-EVM chain's history is its own.
import { gunzipSync, gzipSync } from 'node:zlib';
import { RLP } from '@ethereumjs/rlp';
import { Account, createAccountFromRLP, createAddressFromString } from '@ethereumjs/util';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { RpcError } from '../rpc/server.js';
import { FlatStateManager } from '../state/flat.js';
import { leavesFrom } from '../state/trieRange.js';
import type { EvmBackend } from './backend.js';
import { hexD, hexQ } from './format.js';

/** One account of a state file (Anvil's SerializableAccountRecord). */
export interface AccountRecord {
  address: string;
  nonce: bigint;
  balance: bigint;
  code: Uint8Array;
  /** Slot → value, both 32 bytes. */
  storage: [Uint8Array, Uint8Array][];
}

const NO_PREIMAGE = 'a state dump needs the addresses and slots behind the trie keys: set "preimages-enabled": true in the chain\'s config.json (on by default on the dev chain)';
const MAX_U64 = 2n ** 64n - 1n;
const MAX_U256 = 2n ** 256n - 1n;
const word = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');

/** The head's accounts as Anvil's SerializableState, gzipped, as a 0x hex string. */
export async function dumpState(be: EvmBackend): Promise<string> {
  const chain = be.chain;
  const head = chain.head;
  const root = chain.stateRootOf(head);
  const sm = chain.stateView(head);
  if (!(sm instanceof FlatStateManager)) throw new Error('anvil_dumpState: unexpected state manager');
  const reader = chain.state.reader(chain.commons.get(chain.forkAt(head.header.timestamp)), root);
  const accounts: Record<string, unknown> = {};
  for await (const [key, value] of leavesFrom(sm.trieAt(root), new Uint8Array())) {
    const addressBytes = chain.state.preimage(key);
    if (!addressBytes) throw new RpcError(-32000, NO_PREIMAGE);
    const acc = createAccountFromRLP(value);
    const storage: Record<string, string> = {};
    for await (const [slotKey, slotValue] of leavesFrom(sm.trieAt(acc.storageRoot), new Uint8Array())) {
      const slot = chain.state.preimage(slotKey);
      if (!slot) throw new RpcError(-32000, NO_PREIMAGE);
      storage[hexQ(BigInt(hexD(slot)))] = hexQ(BigInt(hexD(RLP.decode(slotValue) as Uint8Array)));
    }
    const address = createAddressFromString(hexD(addressBytes));
    accounts[hexD(addressBytes)] = { nonce: Number(acc.nonce), balance: hexQ(acc.balance), code: hexD(await reader.code(address, acc.codeHash)), storage };
  }
  const h = head.header;
  const state = {
    block: {
      number: hexQ(h.number),
      coinbase: hexD(h.coinbase),
      timestamp: hexQ(h.timestamp),
      gas_limit: hexQ(h.gasLimit),
      basefee: hexQ(h.baseFee ?? 0n),
      difficulty: hexQ(h.difficulty),
      prevrandao: hexD(h.mixHash),
      blob_excess_gas_and_price: null,
    },
    accounts,
    best_block_number: hexQ(h.number),
    blocks: [],
    transactions: [],
  };
  return hexD(gzipSync(JSON.stringify(state)));
}

/**
 * The accounts of a state file: hex of Anvil's SerializableState JSON, gzipped or not. Everything
 * is checked before anything is applied, so a bad file changes nothing.
 */
export function parseStateFile(hex: unknown): AccountRecord[] {
  if (typeof hex !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(hex)) throw new RpcError(-32602, 'invalid argument 0: the state must be 0x-prefixed hex bytes');
  let raw = Buffer.from(hex.slice(2), 'hex');
  const fail = (why: string): never => {
    throw new RpcError(-32602, `invalid argument 0: not a state file: ${why}`);
  };
  if (raw[0] === 0x1f && raw[1] === 0x8b) {
    try {
      raw = gunzipSync(raw);
    } catch (e) {
      fail(`gzip: ${(e as Error).message}`);
    }
  }
  let state: unknown;
  try {
    state = JSON.parse(raw.toString('utf8'));
  } catch (e) {
    fail((e as Error).message);
  }
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return fail('not a JSON object');
  const accounts = (state as Record<string, unknown>).accounts;
  if (typeof accounts !== 'object' || accounts === null || Array.isArray(accounts)) return fail('no "accounts" object');
  return Object.entries(accounts as Record<string, unknown>).map(([address, rec]) => accountRecord(address, rec, fail));
}

function accountRecord(address: string, rec: unknown, fail: (why: string) => never): AccountRecord {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) fail(`account key ${JSON.stringify(address)} is not an address`);
  if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) fail(`account ${address} is not an object`);
  const r = rec as Record<string, unknown>;
  const num = (v: unknown, what: string, max: bigint): bigint => {
    let n: bigint | undefined;
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) n = BigInt(v);
    else if (typeof v === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(v)) n = BigInt(v);
    else if (typeof v === 'string' && /^\d{1,78}$/.test(v)) n = BigInt(v);
    if (n === undefined || n > max) fail(`account ${address}: ${what} ${JSON.stringify(v)} is not a number up to ${max === MAX_U64 ? '2^64-1' : '2^256-1'}`);
    return n!;
  };
  const code = r.code ?? '0x';
  if (typeof code !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(code)) fail(`account ${address}: code is not hex bytes`);
  const storage = r.storage ?? {};
  if (typeof storage !== 'object' || storage === null || Array.isArray(storage)) fail(`account ${address}: storage is not an object`);
  return {
    address: address.toLowerCase(),
    nonce: num(r.nonce ?? 0, 'nonce', MAX_U64),
    balance: num(r.balance ?? 0, 'balance', MAX_U256),
    code: Buffer.from((code as string).slice(2), 'hex'),
    storage: Object.entries(storage as Record<string, unknown>).map(([k, v]) => [word(num(k, 'storage slot', MAX_U256)), word(num(v, `storage value of ${k}`, MAX_U256))]),
  };
}

/** Writes each record's account over what the state holds (Anvil's load: the file's fields win; slots not in it stay). */
export async function applyAccounts(sm: MerkleStateManager, records: AccountRecord[]): Promise<void> {
  for (const rec of records) {
    const a = createAddressFromString(rec.address);
    const acc = (await sm.getAccount(a)) ?? new Account();
    acc.nonce = rec.nonce;
    acc.balance = rec.balance;
    await sm.putAccount(a, acc);
    await sm.putCode(a, rec.code);
    for (const [slot, value] of rec.storage) {
      let i = 0;
      while (i < value.length && value[i] === 0) i++;
      await sm.putStorage(a, slot, value.subarray(i));
    }
  }
}
