// The built-in Subnet-EVM VM: version, the dev chain's default genesis, and chain creation.
import type { VMFactory } from '../vms/types.js';
import { devGenesis } from './config/index.js';
import { DEV_MNEMONIC, devAccounts } from './chain/devAccounts.js';
import { toJSON } from './rpc/server.js';
import { SUBNET_EVM_VERSION, createSubnetEVMChain, devAccountCount } from './vm.js';

/** EVM chain id of the default dev chain (docs/dev-chain.md). */
export const DEV_CHAIN_ID = 43210n;
/** Each prefunded dev account holds 1,000,000 tokens (10^24 wei). */
export const DEV_BALANCE = 10n ** 24n;

export const subnetEVMFactory: VMFactory = {
  version: SUBNET_EVM_VERSION,
  defaultGenesis: ({ networkID, options }) => {
    const accounts = devAccounts(undefined, devAccountCount(options)).map((a) => a.address);
    return Buffer.from(toJSON(devGenesis({ networkID, accounts, balance: DEV_BALANCE, chainId: DEV_CHAIN_ID })));
  },
  createChain: (ctx) => createSubnetEVMChain(ctx),
};
