// The genesis block's state, in Subnet-EVM's order (core/genesis.go toBlock; reference §5.1):
// airdrop balances → precompiles active at genesis time (nonce 1, code 0x01, Configure) → alloc.
import { Account, Address } from '@ethereumjs/util';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { Genesis } from '../config/genesis.js';

const EMPTY = new Uint8Array(0);

const addressOf = (hex: string) => new Address(Buffer.from(hex.slice(2), 'hex'));

/**
 * Writes the genesis state into `sm`:
 * - each `airdrop` address (genesisAirdrop) gets balance `airdropAmount` (a set; without an amount
 *   the account is still created, with balance 0 — Subnet-EVM sets a nil amount);
 * - `activatePrecompiles` runs the activations of the precompiles active at genesis time;
 * - each alloc entry then overrides what came before as geth's SetBalance / SetCode / SetNonce /
 *   SetState do: balance and nonce replaced, code replaced (no code in the entry: empty code, so an
 *   alloc entry at an active precompile's address leaves it without its 0x01), each storage slot
 *   of the entry set (a zero value deletes a slot the precompile's Configure wrote); slots the entry
 *   does not name keep what Configure stored.
 * Accounts nothing wrote before the alloc are written exactly as a plain alloc: the default dev
 * genesis hashes as it always did.
 */
export async function writeGenesisState(
  sm: MerkleStateManager,
  genesis: Genesis,
  airdrop: string[],
  activatePrecompiles: (sm: MerkleStateManager) => Promise<void>,
): Promise<void> {
  for (const addr of airdrop) {
    const a = addressOf(addr);
    const acc = (await sm.getAccount(a)) ?? new Account();
    acc.balance = genesis.airdropAmount ?? 0n;
    await sm.putAccount(a, acc);
  }
  await activatePrecompiles(sm);
  for (const [addr, entry] of genesis.alloc) {
    const a = addressOf(addr);
    const prior = await sm.getAccount(a);
    // Kept: the storage root (Configure's slots); the code is replaced below.
    const acc = prior ?? new Account();
    acc.nonce = entry.nonce;
    acc.balance = entry.balance;
    await sm.putAccount(a, acc);
    const code = entry.code ?? EMPTY;
    if (code.length > 0 || (prior !== undefined && (await sm.getCode(a)).length > 0)) await sm.putCode(a, code);
    for (const [k, v] of entry.storage ?? []) {
      const key = Buffer.from(k.slice(2), 'hex');
      const val = Buffer.from(v.slice(2), 'hex');
      let i = 0;
      while (i < val.length && val[i] === 0) i++;
      // A zero value only matters where something stored the slot before.
      if (i < val.length || (prior !== undefined && (await sm.getStorage(a, key)).length > 0)) await sm.putStorage(a, key, val.subarray(i));
    }
  }
}
