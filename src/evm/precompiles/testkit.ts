// Test scaffolding for the precompile tests (not used by the node): a real @ethereumjs/evm over
// an in-memory MerkleStateManager with Subnet-EVM precompiles activated, and a solc helper.
import { createCustomCommon, Mainnet } from '@ethereumjs/common';
import { createEVM, type EVM, type EVMResult } from '@ethereumjs/evm';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address } from '@ethereumjs/util';
import { createBlock } from '@ethereumjs/block';
import { fromHex, toHex } from './abi.js';
import { PRECOMPILE_ADDRESSES } from './addresses.js';
import {
  parsePrecompileConfig as parseConfig,
  verifyPrecompileConfig,
  type PrecompileConfig,
} from '../config/precompileConfigs.js';
import { parseJson } from '../config/json.js';
import { DEFAULT_FEE_CONFIG } from '../fees/feeConfig.js';
import { applyPrecompileActivations, configureEVM, isPrecompileKey, type PrecompileRules } from './index.js';

export { DEFAULT_FEE_CONFIG };

/** Parses and validates a precompile config with the chain-config module (Durango always active). */
export function parsePrecompileConfig(key: string, json: unknown): PrecompileConfig {
  if (!isPrecompileKey(key)) throw new Error(`unknown precompile config: ${key}`);
  const cfg = parseConfig(key, parseJson(JSON.stringify(json)), 'Genesis.config'); // numbers become bigint as in genesis parsing
  verifyPrecompileConfig(cfg, () => true);
  return cfg;
}

export const BLOCKCHAIN_ID = new Uint8Array(32).map((_, i) => i + 1);
export const NETWORK_ID = 12345;

export interface TestChain {
  evm: EVM;
  state: MerkleStateManager;
  rules: PrecompileRules;
  blockNumber: bigint;
}

export interface ChainOpts {
  configs: PrecompileConfig[];
  isDurango?: boolean;
  isGranite?: boolean;
  allowFeeRecipients?: boolean;
  blockNumber?: bigint;
  blockTimestamp?: bigint;
}

export function rulesOf(configs: PrecompileConfig[], flags: { isDurango: boolean; isGranite: boolean }, time = 0n): PrecompileRules {
  const precompiles = new Map<string, { key: string; timestamp: bigint; config: unknown }>();
  for (const c of configs) {
    if (c.blockTimestamp === undefined || c.blockTimestamp > time) continue;
    const a = PRECOMPILE_ADDRESSES.get(c.key)!;
    if (c.disable) precompiles.delete(a);
    else precompiles.set(a, { key: c.key, timestamp: c.blockTimestamp, config: c });
  }
  return { ...flags, precompiles };
}

export async function makeChain(opts: ChainOpts): Promise<TestChain> {
  const isDurango = opts.isDurango ?? true;
  const isGranite = opts.isGranite ?? true;
  const common = createCustomCommon({ chainId: 99999 }, Mainnet, { hardfork: isDurango ? 'cancun' : 'london' });
  const state = new MerkleStateManager({ common });
  const evm = await createEVM({ common, stateManager: state });
  const blockNumber = opts.blockNumber ?? 7n;
  const time = opts.blockTimestamp ?? 1_800_000_000n;
  await applyPrecompileActivations(state, opts.configs, undefined, time, {
    blockNumber: 0n,
    feeConfig: { ...DEFAULT_FEE_CONFIG },
    allowFeeRecipients: opts.allowFeeRecipients ?? false,
  });
  const rules = rulesOf(opts.configs, { isDurango, isGranite }, time);
  configureEVM(evm, rules, { networkID: NETWORK_ID, blockchainID: BLOCKCHAIN_ID });
  return { evm, state, rules, blockNumber };
}

export function addr(hex: string): Address {
  return new Address(fromHex(hex));
}

export async function fund(chain: TestChain, who: string, amount: bigint): Promise<void> {
  const a = addr(who);
  const acc = (await chain.state.getAccount(a)) ?? new Account();
  acc.balance = amount;
  await chain.state.putAccount(a, acc);
}

export async function balanceOf(chain: TestChain, who: string): Promise<bigint> {
  return (await chain.state.getAccount(addr(who)))?.balance ?? 0n;
}

export interface CallOpts {
  from: string;
  to?: string;
  data: `0x${string}` | string;
  gasLimit?: bigint;
  value?: bigint;
  isStatic?: boolean;
  origin?: string;
}

/** A top-level message (like a tx without intrinsic gas) in block `chain.blockNumber`. */
export async function call(chain: TestChain, o: CallOpts): Promise<EVMResult> {
  const block = createBlock(
    { header: { number: chain.blockNumber, timestamp: 1_800_000_000n, gasLimit: 8_000_000n } },
    { common: chain.evm.common },
  );
  return chain.evm.runCall({
    caller: addr(o.from),
    origin: addr(o.origin ?? o.from),
    to: o.to ? addr(o.to) : undefined,
    data: fromHex(o.data),
    gasLimit: o.gasLimit ?? 1_000_000n,
    value: o.value ?? 0n,
    isStatic: o.isStatic,
    block,
  });
}

/** Deploys `bytecode` from `from` and returns the created address. */
export async function deploy(chain: TestChain, from: string, bytecode: string, args = ''): Promise<string> {
  const r = await call(chain, { from, data: bytecode + args.replace(/^0x/, ''), gasLimit: 5_000_000n });
  if (r.execResult.exceptionError || !r.createdAddress) throw new Error(`deploy failed: ${r.execResult.exceptionError?.error}`);
  return r.createdAddress.toString();
}

export function errorOf(r: EVMResult): string | undefined {
  return r.execResult.exceptionError?.error;
}

export function ret(r: EVMResult): string {
  return toHex(r.execResult.returnValue);
}

// --- solc: the shared helper (test/solc.ts), cached per process --------------------------------
export { compile } from '../../../test/solc.js';
