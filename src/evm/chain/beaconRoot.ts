// EIP-4788 at block start, as Subnet-EVM does from Etna (geth's ProcessBeaconBlockRoot): after the
// precompile activations and state upgrades and before the transactions, a system call from
// 0xff…fe to the beacon roots contract with the header's parentBeaconRoot (always the zero hash on
// Avalanche) as calldata, 30M gas, no value. The contract isn't in any genesis: until someone
// deploys it (or puts it in the alloc) the call does nothing. Afterwards, touched empty accounts are
// removed (geth's Finalise(true)), so the system address never appears in the state.
import { Address, hexToBytes } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { ChainHeader } from './header.js';

export const BEACON_ROOTS_ADDRESS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02';
export const SYSTEM_ADDRESS = '0xfffffffffffffffffffffffffffffffffffffffe';
const BEACON_ROOTS = new Address(hexToBytes(BEACON_ROOTS_ADDRESS));
const SYSTEM = new Address(hexToBytes(SYSTEM_ADDRESS));
const SYSTEM_CALL_GAS = 30_000_000n;

/** Runs the EIP-4788 system call for `header` (Cancun/Etna headers carry parentBeaconRoot). */
export async function processBeaconBlockRoot(vm: VM, header: ChainHeader, block: never): Promise<void> {
  const root = header.parentBeaconRoot;
  if (root === undefined) return;
  // geth: a call to an account that doesn't exist, with no value, does nothing at all.
  if ((await vm.stateManager.getAccount(BEACON_ROOTS)) === undefined) return;
  const evm = vm.evm;
  await evm.journal.cleanup();
  await evm.runCall({
    caller: SYSTEM,
    origin: SYSTEM,
    to: BEACON_ROOTS,
    data: root,
    gasLimit: SYSTEM_CALL_GAS,
    gasPrice: 0n,
    value: 0n,
    skipNonceIncrement: true,
    block,
  });
  await evm.journal.cleanup();
}
