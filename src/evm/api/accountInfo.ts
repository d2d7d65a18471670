// Anvil's account readers, served with the test controls (a real Subnet-EVM node has neither):
// eth_getAccount [address, block] → the account as the state trie holds it ({nonce, balance,
// storageRoot, codeHash}) and eth_getAccountInfo [address, block] → {balance, nonce, code}. Both
// take the block as eth_getBalance does (required, as on Anvil); an account that does not exist
// reads as an empty one, as on Anvil (checked against Anvil 1.7.1). Fields in Anvil's order.
import { createAddressFromString } from '@ethereumjs/util';
import { address, blockNumberOrHash, required } from './args.js';
import type { EvmBackend } from './backend.js';
import type { MethodTable } from './eth.js';
import { hexD, hexQ } from './format.js';
import { withArity } from './controlContext.js';

export function accountInfoMethods(be: EvmBackend): MethodTable {
  const m: MethodTable = new Map();
  /** The address and the block of a call's params (both required). */
  const at = (p: unknown[]) => {
    const a = address(required(p, 0), 0);
    return { a, b: be.resolveForState(blockNumberOrHash(required(p, 1), 1)) };
  };
  m.set(
    'eth_getAccount',
    withArity(2, async (p) => {
      const { a, b } = at(p);
      const acc = await be.account(b, a);
      return { nonce: hexQ(acc.nonce), balance: hexQ(acc.balance), storageRoot: hexD(acc.storageRoot), codeHash: hexD(acc.codeHash) };
    }),
  );
  m.set(
    'eth_getAccountInfo',
    withArity(2, async (p) => {
      const { a, b } = at(p);
      const acc = await be.account(b, a);
      const code = await be.chain.readView(b).getCode(createAddressFromString(a));
      return { balance: hexQ(acc.balance), nonce: hexQ(acc.nonce), code: hexD(code) };
    }),
  );
  return m;
}
