// The package's entry (package.json `main`): dist/powder.lib.mjs, which loads the library bundle
// (dist/powder.lib.cjs, with the CLI bundle's package patches, scripts/bundle.mjs) through V8's code
// cache. Needs `npm run build` (npm test does it). A node from the bundle must run contracts exactly
// as a node from the modules the tests use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { encodeDeployData, encodeFunctionData } from 'viem';
import { bn254 } from '@noble/curves/bn254.js';
import * as modules from '../src/index.js';
import { compileContract } from './solc.js';
import { DEV_ADDRS, rpcClient, type Rpc } from '../src/evm/chain/testkit.js';

let root = dirname(fileURLToPath(import.meta.url));
while (!existsSync(join(root, 'package.json'))) root = dirname(root);

const T = compileContract('ERC20');
const S = compileContract('Storage', 'Fixtures.sol');
const C = compileContract('Caller', 'Fixtures.sol');

/** Deploys and exercises the contracts; returns every answer that depends on the EVM's work. */
async function exercise(rpc: Rpc): Promise<unknown[]> {
  const out: unknown[] = [];
  const send = async (tx: Record<string, unknown>) => {
    const r = await rpc('eth_getTransactionReceipt', [await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], ...tx }])]);
    out.push([r.status, r.gasUsed, r.contractAddress, r.logs.map((l: { address: string; topics: string[]; data: string }) => [l.address, l.topics, l.data])]);
    return r;
  };
  const token = (await send({ data: encodeDeployData({ abi: T.abi, bytecode: T.bytecode, args: ['Powder', 'PWD', 10n ** 24n] }) })).contractAddress;
  const storage = (await send({ data: encodeDeployData({ abi: S.abi, bytecode: S.bytecode, args: [7n] }) })).contractAddress;
  const caller = (await send({ data: C.bytecode })).contractAddress;
  for (let i = 1; i <= 5; i++) {
    await send({ to: token, data: encodeFunctionData({ abi: T.abi, functionName: 'transfer', args: [`0x${'ab'.repeat(19)}${i.toString(16).padStart(2, '0')}`, BigInt(i) * 10n ** 18n] }) });
  }
  // Nested frames: CALL into Storage, then a STATICCALL back, and a CREATE.
  await send({ to: caller, data: encodeFunctionData({ abi: C.abi, functionName: 'callSet', args: [storage, 42n] }) });
  await send({ to: caller, data: encodeFunctionData({ abi: C.abi, functionName: 'create', args: [5n] }) });
  for (const holder of [DEV_ADDRS[0], `0x${'ab'.repeat(19)}03`, `0x${'cd'.repeat(20)}`]) {
    const call = { to: token, data: encodeFunctionData({ abi: T.abi, functionName: 'balanceOf', args: [holder] }) };
    out.push(await rpc('eth_call', [call, 'latest']), await rpc('eth_estimateGas', [{ from: DEV_ADDRS[1], ...call }]));
  }
  const callSet = { from: DEV_ADDRS[1], to: caller, data: encodeFunctionData({ abi: C.abi, functionName: 'callSet', args: [storage, 9n] }) };
  out.push(await rpc('eth_call', [callSet, 'latest']), await rpc('eth_estimateGas', [callSet]));
  out.push(await rpc('eth_getStorageAt', [storage, '0x0', 'latest']), await rpc('eth_getBalance', [DEV_ADDRS[0], 'latest']));
  // Traps inside dynamic gas handlers, which the bundle runs synchronously (scripts/bundle.mjs):
  // RETURNDATACOPY past the return data (out of gas), and LOG0 under STATICCALL (a static state
  // change) in a child frame, whose failure the parent sees as a 0 on its stack.
  const trapInGas = { from: DEV_ADDRS[1], data: '0x6001600060003e', gas: '0x30000' };
  const logUnderStaticCall = { from: DEV_ADDRS[1], data: STATICCALL_LOGGER, gas: '0x80000' }; // the failed child takes 63/64 of it
  for (const call of [trapInGas, logUnderStaticCall]) {
    out.push(await rpc.raw('eth_call', [call, 'latest']), await rpc.raw('eth_estimateGas', [call]));
    out.push(await rpc.raw('debug_traceCall', [call, 'latest', {}]));
    await send(call);
  }
  // The BN254 precompiles, whose curve the bundle loads on first use (scripts/bundle.mjs).
  for (const [to, data] of BN254_CALLS) out.push(await rpc('eth_call', [{ to, data }, 'latest']));
  return out;
}

/** Init code of a contract whose code is LOG0(0, 0) (0x60006000a0): mstore it, return its 5 bytes. */
const LOGGER_INIT = '6460006000a0' + '6000' + '52' + '6005' + '601b' + 'f3';
/** Init code that creates that contract, STATICCALLs it and returns the call's success flag (0). */
const STATICCALL_LOGGER =
  '0x' +
  '6d' + LOGGER_INIT + '6000' + '52' + // mstore(0, LOGGER_INIT): its 14 bytes right-aligned in word 0
  '600e' + '6012' + '6000' + 'f0' + // create(0, 18, 14)
  '6000' + '6000' + '6000' + '6000' + '84' + '5a' + 'fa' + // staticcall(gas, created, 0, 0, 0, 0)
  '6000' + '52' + '6020' + '6000' + 'f3'; // mstore(0, success); return(0, 32)
const word = (n: bigint) => n.toString(16).padStart(64, '0');
const G1 = bn254.G1.Point.BASE.toAffine();
const G2 = bn254.G2.Point.BASE.toAffine();
const g1 = word(G1.x) + word(G1.y);
const negG1 = word(G1.x) + word(bn254.fields.Fp.ORDER - G1.y);
const g2 = word(G2.x.c1) + word(G2.x.c0) + word(G2.y.c1) + word(G2.y.c0); // EIP-197: imaginary part first
/** ecAdd(G, G), ecMul(G, 3), ecPairing(e(G1, G2) · e(−G1, G2)) and ecPairing(e(G1, G2)). */
const BN254_CALLS: [string, string][] = [
  ['0x0000000000000000000000000000000000000006', '0x' + g1 + g1],
  ['0x0000000000000000000000000000000000000007', '0x' + g1 + word(3n)],
  ['0x0000000000000000000000000000000000000008', '0x' + g1 + g2 + negG1 + g2],
  ['0x0000000000000000000000000000000000000008', '0x' + g1 + g2],
];
const point = (p: { x: bigint; y: bigint }) => '0x' + word(p.x) + word(p.y);
/** What those calls answer, from @noble/curves here. */
const BN254_EXPECTED = [point(bn254.G1.Point.BASE.double().toAffine()), point(bn254.G1.Point.BASE.multiply(3n).toAffine()), '0x' + word(1n), '0x' + word(0n)];

async function withNode<T>(startNode: typeof modules.startNode, f: (rpc: Rpc) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-entry-'));
  const node = await startNode({ 'http-port': 0, 'db-type': 'memdb', 'data-dir': dataDir, 'log-display-level': 'off' });
  try {
    return await f(rpcClient(`${node.url}/ext/bc/dev/rpc`));
  } finally {
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test('the package entry is the library bundle, and its nodes run contracts exactly as the modules do', async () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main: string; types: string };
  assert.equal(pkg.main, 'dist/powder.lib.mjs');
  const file = join(root, pkg.main);
  assert.ok(existsSync(file), `${pkg.main} is missing: \`npm run build\` makes it`);
  assert.ok(existsSync(join(root, pkg.types)), `${pkg.types} (the entry's types) is missing`);
  // The entry loads the CommonJS bundle through bin/loadBundle.js, whose cache the build made.
  const bundle = join(root, 'dist/powder.lib.cjs');
  assert.match(readFileSync(file, 'utf8'), /loadBundle\(fileURLToPath\(new URL\('\.\/powder\.lib\.cjs', import\.meta\.url\)\)\)/);
  const { codeCacheFile } = (await import(pathToFileURL(join(root, 'bin/loadBundle.js')).href)) as { codeCacheFile: (file: string, flags?: string) => string };
  assert.ok(existsSync(codeCacheFile(bundle, (process.env.NODE_OPTIONS ?? '').trim())), 'the build made the library bundle\'s code cache');
  const lib = (await import(pathToFileURL(file).href)) as typeof modules;
  // Its own copy of the node (not a re-export of dist/src), with the library's whole face.
  assert.equal(typeof lib.startNode, 'function');
  assert.notEqual(lib.startNode, modules.startNode);
  for (const name of Object.keys(modules)) assert.ok(name in lib, `the bundle exports ${name}`);

  const fromBundle = await withNode(lib.startNode, exercise);
  const fromModules = await withNode(modules.startNode, exercise);
  assert.deepEqual(fromBundle, fromModules);
  // The calls did real work: deployments succeeded and the token moved.
  assert.equal((fromBundle[0] as string[])[0], '0x1');
  assert.notEqual(fromBundle.at(-1), '0x0');
  // Ten receipts, then balanceOf and its estimate per holder: holder 3 got 3 tokens.
  assert.equal(fromBundle[12], `0x${(3n * 10n ** 18n).toString(16).padStart(64, '0')}`);
  assert.deepEqual(fromBundle.slice(-BN254_EXPECTED.length), BN254_EXPECTED);
});

test('the library bundle runs LMDB (its own lmdb bundle, dist/lmdb.cjs) across a restart', async () => {
  const lib = (await import(pathToFileURL(join(root, 'dist/powder.lib.mjs')).href)) as typeof modules;
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-entry-lmdb-'));
  try {
    let node = await lib.startNode({ 'http-port': 0, 'data-dir': dataDir, 'log-display-level': 'off' });
    try {
      const rpc = rpcClient(`${node.url}/ext/bc/dev/rpc`);
      assert.equal(await rpc('hardhat_mine', ['0x3']), null);
    } finally {
      await node.stop();
    }
    const loader = createRequire(import.meta.url)(join(root, 'bin/loadBundle.cjs')) as { requiredBundles(): string[] };
    assert.deepEqual(loader.requiredBundles(), [join(root, 'dist/lmdb.cjs')], 'the bundle loaded dist/lmdb.cjs through its code cache');
    node = await lib.startNode({ 'http-port': 0, 'data-dir': dataDir, 'log-display-level': 'off' });
    try {
      assert.equal(await rpcClient(`${node.url}/ext/bc/dev/rpc`)('eth_blockNumber'), '0x3', 'the blocks were kept in LMDB');
    } finally {
      await node.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
