// The VMs compiled into Powder. Subnet-EVM is a built-in plugin of the registry.
import { SUBNET_EVM_ID } from './registry.js';
import type { VMFactory } from './types.js';

export async function builtinVMs(): Promise<{ id: string; factory: VMFactory; aliases: string[] }[]> {
  const { subnetEVMFactory } = await import('../evm/factory.js');
  return [{ id: SUBNET_EVM_ID, factory: subnetEVMFactory, aliases: ['subnetevm'] }];
}
