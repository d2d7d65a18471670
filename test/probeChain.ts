// The tracer tests' chain: a dev node with test/contracts/Probe.sol's Probe (writes, reads, child
// contracts by CREATE and CREATE2, delegatecalls, reverts, an endless loop) and Fixtures.sol's
// Storage and Caller deployed by the first dev account.
import { compile, compileContract, contractSource } from './solc.js';
import { devNode, txKit, DEV_ADDRS, type Rpc } from '../src/evm/chain/testkit.js';
import type { TestNode } from './helpers.js';

export const PROBE = compile(contractSource('Probe.sol'), 'Probe');
export const CHILD = compile(contractSource('Probe.sol'), 'Child');
export const CALLER = compileContract('Caller', 'Fixtures.sol');
export const STORAGE = compileContract('Storage', 'Fixtures.sol');

export interface ProbeChain {
  node: TestNode;
  rpc: Rpc;
  probe: string;
  /** A Storage holding 7. */
  storage: string;
  caller: string;
}

/** Starts the node and deploys the three contracts. */
export async function probeChain(): Promise<ProbeChain> {
  const { node, rpc } = await devNode();
  const { deploy } = txKit(() => rpc, DEV_ADDRS[0]);
  return { node, rpc, probe: await deploy(PROBE), storage: await deploy(STORAGE, [7n]), caller: await deploy(CALLER) };
}
