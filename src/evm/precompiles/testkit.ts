// Test scaffolding for the precompile tests (not used by the node): a real @ethereumjs/evm over
// an in-memory MerkleStateManager with Subnet-EVM precompiles activated, and a solc helper.
import { createRequire } from 'node:module';
import { createCustomCommon, Mainnet } from '@ethereumjs/common';
import { createEVM, type EVM, type EVMResult } from '@ethereumjs/evm';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address } from '@ethereumjs/util';
import { createBlock } from '@ethereumjs/block';
import { fromHex, toHex } from './abi.js';
import { PRECOMPILE_ADDRESSES } from './addresses.js';
import type { PrecompileConfig } from './config.js';
import type { FeeConfig } from './feeConfig.js';
import { applyPrecompileActivations, configureEVM, type PrecompileRules } from './index.js';

export const DEFAULT_FEE_CONFIG: FeeConfig = {
  gasLimit: 8_000_000n,
  targetBlockRate: 2n,
  minBaseFee: 25_000_000_000n,
  targetGas: 15_000_000n,
  baseFeeChangeDenominator: 36n,
  minBlockGasCost: 0n,
  maxBlockGasCost: 1_000_000n,
  blockGasCostStep: 200_000n,
};

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
    if (c.blockTimestamp === null || c.blockTimestamp > time) continue;
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
    feeConfig: DEFAULT_FEE_CONFIG,
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

// --- solc ---------------------------------------------------------------------------------

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

const compiled = new Map<string, SolcOutput>();

/** Compiles `sources` (cached per process) and returns one contract's ABI and creation bytecode. */
export function compile(sources: Record<string, string>, contract: string): { abi: unknown[]; bytecode: `0x${string}` } {
  const key = JSON.stringify(sources);
  let out = compiled.get(key);
  if (!out) {
    const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string };
    const input = {
      language: 'Solidity',
      sources: Object.fromEntries(Object.entries(sources).map(([k, v]) => [k, { content: v }])),
      settings: { evmVersion: 'cancun', optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
    };
    out = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
    const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
    if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
    compiled.set(key, out);
  }
  for (const file of Object.values(out.contracts)) {
    const c = file[contract];
    if (c) return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  }
  throw new Error(`contract ${contract} not found`);
}
