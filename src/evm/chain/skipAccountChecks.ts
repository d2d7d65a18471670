// eth_call and eth_estimateGas run their message with geth's SkipAccountChecks (Subnet-EVM's
// DoCall): no nonce check (runTx's skipNonce) and no EIP-3607 check, so a call may come "from" an
// address that has code — a contract, a precompile with code, an account given code by a state
// override — as msg.sender. @ethereumjs/vm's runTx has no switch for the EIP-3607 check: it rejects
// any sender whose account has a code hash, before the message runs. So, only for the run of a
// call, the sender's account is shown to runTx without its code hash until runTx first writes the
// sender back (its nonce/balance update, before the EVM starts); that write gets the real code
// hash back. From then on every read — EXTCODEHASH, EXTCODESIZE, a CALL back into the sender —
// sees the account exactly as it is. Impersonated transactions (the test controls) run so in
// blocks too, as on Anvil and Hardhat: sending from a contract is what impersonation is for
// (src/evm/chain/exec.ts runTxSubnetEVM).
import type { StateManagerInterface } from '@ethereumjs/common';
import { Account, KECCAK256_NULL, equalsBytes, type Address } from '@ethereumjs/util';

/** Masks `sender`'s code hash from `sm` until the sender's first write; returns the undo. */
export function skipEOACheck(sm: StateManagerInterface, sender: Address): () => void {
  const own = sm as unknown as { getAccount?: unknown; putAccount?: unknown };
  const getAccount = sm.getAccount;
  const putAccount = sm.putAccount;
  let masking = true;
  let realCodeHash: Uint8Array | undefined;
  own.getAccount = async (address: Address): Promise<Account | undefined> => {
    const acc = await getAccount.call(sm, address);
    if (masking && acc && address.equals(sender) && !equalsBytes(acc.codeHash, KECCAK256_NULL)) {
      realCodeHash = acc.codeHash;
      // A copy: the state's own account (a cache's, on a block's live state) keeps its code hash.
      return new Account(acc.nonce, acc.balance, acc.storageRoot, KECCAK256_NULL);
    }
    return acc;
  };
  own.putAccount = async (address: Address, account?: Account): Promise<void> => {
    if (masking && address.equals(sender)) {
      masking = false;
      if (account && realCodeHash && equalsBytes(account.codeHash, KECCAK256_NULL)) account.codeHash = realCodeHash;
    }
    return putAccount.call(sm, address, account);
  };
  return () => {
    delete own.getAccount;
    delete own.putAccount;
  };
}
