// Test helpers for the chain's tests: a node with the dev chain, JSON-RPC over real HTTP, and
// transactions signed with the dev keys.
import { after, before } from 'node:test';
import { createTx, type TypedTxData } from '@ethereumjs/tx';
import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { encodeDeployData, encodeFunctionData, type Abi } from 'viem';
import { startTestNode, type TestNode } from '../../../test/helpers.js';
import type { Compiled } from '../../../test/solc.js';

export const DEV_KEYS = [
  'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
];
export const DEV_ADDRS = [
  '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
];
export const CHAIN_ID = 43210n;
export const BLACKHOLE = '0x0100000000000000000000000000000000000000';

export interface Rpc {
  (method: string, params?: unknown[]): Promise<any>;
  /** The whole response envelope (for errors). */
  raw(method: string, params?: unknown[]): Promise<any>;
  url: string;
}

export function rpcClient(url: string): Rpc {
  let id = 0;
  const raw = async (method: string, params: unknown[] = []): Promise<any> => {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) });
    return r.json();
  };
  const f = (async (method: string, params: unknown[] = []) => {
    const r = await raw(method, params);
    if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code, data: r.error.data });
    return r.result;
  }) as Rpc;
  f.raw = raw;
  f.url = url;
  return f;
}

export async function devNode(options: Record<string, unknown> = {}): Promise<{ node: TestNode; rpc: Rpc }> {
  const node = await startTestNode(options);
  return { node, rpc: rpcClient(node.url + '/ext/bc/dev/rpc') };
}

/** Runs `fn` against a dev-chain node started with `options` (its JSON-RPC client and data folder), then stops it. */
export async function withDevNode<T>(fn: (rpc: Rpc, dataDir: string) => Promise<T>, options: Record<string, unknown> = {}): Promise<T> {
  const { node, rpc } = await devNode(options);
  try {
    return await fn(rpc, node.dataDir);
  } finally {
    await node.stop();
  }
}

/** A dev-chain node whose chain reads `config` as its config.json (`options`: more node options); stop() removes its folder. */
export async function devNodeWithConfig(config: Record<string, unknown>, options: Record<string, unknown> = {}): Promise<{ node: TestNode; rpc: Rpc }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-test-'));
  const cfgDir = join(dataDir, 'chain-configs');
  mkdirSync(join(cfgDir, 'dev'), { recursive: true });
  writeFileSync(join(cfgDir, 'dev', 'config.json'), JSON.stringify(config));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  let dev: { node: TestNode; rpc: Rpc };
  try {
    dev = await devNode({ ...options, 'data-dir': dataDir, 'chain-config-dir': cfgDir });
  } catch (e) {
    removeDir();
    throw e;
  }
  const { node } = dev;
  const stop = async () => {
    try {
      await node.stop();
    } finally {
      removeDir();
    }
  };
  return { rpc: dev.rpc, node: { ...node, stop } };
}

/**
 * A dev-chain node for one test file: started in a `before` hook, stopped in an `after` hook.
 * `rpc` may be called from the tests (it forwards to the node's client); `node()` is the node.
 */
export function useDevNode(options: Record<string, unknown> = {}): { rpc: Rpc; node: () => TestNode } {
  let dev: { node: TestNode; rpc: Rpc } | undefined;
  const started = () => {
    if (!dev) throw new Error('useDevNode: the node is started in a before() hook');
    return dev;
  };
  before(async () => {
    dev = await devNode(options);
  });
  after(async () => {
    await dev?.node.stop();
  });
  const rpc = ((method: string, params?: unknown[]) => started().rpc(method, params)) as Rpc;
  rpc.raw = (method, params) => started().rpc.raw(method, params);
  Object.defineProperty(rpc, 'url', { get: () => started().rpc.url });
  return { rpc, node: () => started().node };
}

const common = createCustomCommon({ chainId: CHAIN_ID.toString() }, Mainnet, { hardfork: 'cancun' });

/** A signed raw tx (0x hex). Defaults: EIP-1559, 30 gwei cap, 0 tip, 21000 gas. */
export function signTx(keyIndex: number, data: Record<string, unknown> & { type?: number }): string {
  const base: Record<string, unknown> = { type: 2, gasLimit: 21000n, maxFeePerGas: 30_000_000_000n, maxPriorityFeePerGas: 0n, chainId: CHAIN_ID, value: 0n };
  const txData = { ...base, ...data } as Record<string, unknown>;
  if (txData.type === 0 || txData.type === 1) {
    delete txData.maxFeePerGas;
    delete txData.maxPriorityFeePerGas;
    txData.gasPrice ??= 30_000_000_000n;
  }
  const tx = createTx(txData as TypedTxData, { common });
  return '0x' + Buffer.from(tx.sign(Buffer.from(DEV_KEYS[keyIndex], 'hex')).serialize()).toString('hex');
}

export async function rpcError(p: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await p;
  } catch (e) {
    const err = e as { code: number; message: string; data?: unknown };
    return { code: err.code, message: err.message, data: err.data };
  }
  throw new Error('expected an RPC error');
}

/** Deploys `bytecode` from dev account 0 (automine) and returns the new contract's address. */
export async function deployFromDev(rpc: Rpc, bytecode: string, gas = '0x500000'): Promise<string> {
  const hash = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], data: bytecode, gas }]);
  const rc = await rpc('eth_getTransactionReceipt', [hash]);
  if (rc?.status !== '0x1') throw new Error(`deployment failed: ${JSON.stringify(rc)}`);
  return rc.contractAddress;
}

/**
 * Creation code of a contract whose code is a loop that only stops when its gas runs out:
 * JUMPDEST PUSH1 0 JUMP (12 gas a turn), behind PUSH4 <runtime> PUSH1 0 MSTORE PUSH1 4 PUSH1 28 RETURN.
 */
export const LOOP_CREATION = '0x635b6000566000526004601cf3';

/**
 * The transaction helpers the contract tests share, over the client `rpc()` gives (set in a
 * `before`): a function's call data, a sent transaction's receipt (the dev chain mines it at
 * once), and a contract deployed by `deployer`.
 */
export function txKit(rpc: () => Rpc, deployer: string) {
  const data = (c: Compiled, functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: c.abi as Abi, functionName, args });
  const send = async (tx: Record<string, unknown>): Promise<any> => {
    const h = await rpc()('eth_sendTransaction', [tx]);
    return rpc()('eth_getTransactionReceipt', [h]);
  };
  const deploy = async (c: Compiled, args: unknown[] = [], value = '0x0'): Promise<string> => {
    const r = await send({ from: deployer, data: encodeDeployData({ abi: c.abi as Abi, bytecode: c.bytecode, args }), value, gas: '0x500000' });
    assert.equal(r.status, '0x1');
    return r.contractAddress;
  };
  return { data, send, deploy };
}
