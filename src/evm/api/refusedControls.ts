// Controls an Anvil or Hardhat user may call that a Subnet-EVM chain cannot honour: a clear
// refusal (-32000, like the fee config's refusals in testControls.ts) rather than "method not
// found", and nothing changed.
import { RpcError } from '../rpc/server.js';
import type { ControlContext } from './controlContext.js';

export function refusedControlMethods({ m }: ControlContext): void {
  const refuse = (text: string) => () => {
    throw new RpcError(-32000, text);
  };
  // Subnet-EVM blocks carry a zero mixHash and difficulty 1; from Durango PREVRANDAO answers the
  // difficulty (1). A block with another mixHash is invalid (`invalid mix digest`).
  m.set(
    'hardhat_setPrevRandao',
    refuse('PREVRANDAO is fixed by Subnet-EVM\'s consensus: its blocks carry a zero mixHash and difficulty 1 (PREVRANDAO answers 1), and a block with another mix digest is invalid'),
  );
  m.set('anvil_setChainId', refuse("the chain id is the genesis's (config.chainId): a Subnet-EVM chain cannot change it"));
  // Consistent with anvil_reset's refusal of a forking config.
  m.set('anvil_setRpcUrl', refuse('forking is not supported: a Powder chain runs on its own genesis, not on a remote node'));
}
