// Durability: a restart resumes the same chain, state, receipts and logs; a SIGKILL at a random
// moment loses no transaction whose receipt was returned and leaves a consistent chain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeFunctionData, keccak256 } from 'viem';
import { compileContract } from '../../../test/solc.js';
import { devNode, rpcClient, signTx, DEV_ADDRS, type Rpc } from './testkit.js';

const E = compileContract('Emitter', 'Fixtures.sol');

test('restart on the same LMDB data dir resumes chain, state, receipts and logs', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-restart-'));
  try {
    let { node, rpc } = await devNode({ 'data-dir': dataDir });
    const deploy = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], data: E.bytecode }]);
    const emitter = (await rpc('eth_getTransactionReceipt', [deploy])).contractAddress;
    const hashes: string[] = [];
    for (let i = 0; i < 5; i++) {
      hashes.push(await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[1], to: emitter, data: encodeFunctionData({ abi: E.abi, functionName: 'ping', args: [BigInt(i), 'hi'] }) }]));
    }
    await rpc('anvil_setBalance', ['0x00000000000000000000000000000000000000aa', '0xde0b6b3a7640000']);
    await rpc('anvil_impersonateAccount', ['0x00000000000000000000000000000000000000aa']);
    const impersonated = await rpc('eth_sendTransaction', [{ from: '0x00000000000000000000000000000000000000aa', to: DEV_ADDRS[2], value: '0x5' }]);
    hashes.push(impersonated);
    await rpc('anvil_setBalance', ['0x00000000000000000000000000000000000000bb', '0x1234']);
    const before = {
      head: await rpc('eth_getBlockByNumber', ['latest', true]),
      receipts: await Promise.all(hashes.map((h) => rpc('eth_getTransactionReceipt', [h]))),
      logs: await rpc('eth_getLogs', [{ fromBlock: '0x0', address: emitter }]),
      balance: await rpc('eth_getBalance', [DEV_ADDRS[1], 'latest']),
      nonce: await rpc('eth_getTransactionCount', [DEV_ADDRS[1], 'latest']),
      edited: await rpc('eth_getBalance', ['0x00000000000000000000000000000000000000bb', 'latest']),
      code: await rpc('eth_getCode', [emitter, 'latest']),
    };
    await node.stop();
    ({ node, rpc } = await devNode({ 'data-dir': dataDir }));
    try {
      assert.deepEqual(await rpc('eth_getBlockByNumber', ['latest', true]), before.head);
      assert.deepEqual(await Promise.all(hashes.map((h) => rpc('eth_getTransactionReceipt', [h]))), before.receipts);
      assert.deepEqual(await rpc('eth_getLogs', [{ fromBlock: '0x0', address: emitter }]), before.logs);
      assert.equal(await rpc('eth_getBalance', [DEV_ADDRS[1], 'latest']), before.balance);
      assert.equal(await rpc('eth_getTransactionCount', [DEV_ADDRS[1], 'latest']), before.nonce);
      assert.equal(await rpc('eth_getBalance', ['0x00000000000000000000000000000000000000bb', 'latest']), before.edited);
      assert.equal(await rpc('eth_getCode', [emitter, 'latest']), before.code);
      assert.equal((await rpc('eth_getTransactionByHash', [impersonated])).from, '0x00000000000000000000000000000000000000aa');
      // Preimages were stored with their blocks (and with the state edit).
      assert.equal(await rpc('debug_preimage', [keccak256(emitter)]), emitter);
      assert.equal(await rpc('debug_preimage', [keccak256('0x00000000000000000000000000000000000000bb')]), '0x00000000000000000000000000000000000000bb');
      // The chain goes on.
      const h = await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[1], to: DEV_ADDRS[2], value: '0x1' }]);
      const r = await rpc('eth_getTransactionReceipt', [h]);
      assert.equal(BigInt(r.blockNumber), BigInt(before.head.number) + 1n);
      assert.equal((await rpc('eth_getBlockByNumber', [r.blockNumber, false])).parentHash, before.head.hash);
    } finally {
      await node.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------------------------------------

const here = dirname(fileURLToPath(import.meta.url));
function repoRoot(): string {
  let d = here;
  while (!existsSync(join(d, 'bin', 'powder.js'))) d = dirname(d);
  return d;
}

/** `node bin/powder.js` from the build; under tsx (sources) the same CLI through tsx. */
function startNodeProcess(dataDir: string): Promise<{ child: ChildProcess; rpc: Rpc }> {
  const root = repoRoot();
  const fromSource = import.meta.url.endsWith('.ts');
  const args = fromSource
    ? ['--import', 'tsx', '-e', `import(${JSON.stringify(join(root, 'src/cli.ts'))}).then((m) => m.main(process.argv.slice(1)))`, '--']
    : [join(root, 'bin/powder.js')];
  const child = spawn(process.execPath, [...args, '--data-dir', dataDir, '--http-port', '0', '--log-display-level', 'off'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`node did not start: ${out}\n${err}`)), 60_000);
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /RPC (http:\/\/\S+\/ext\/bc\/\S+\/rpc)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, rpc: rpcClient(m[1]) });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`node exited with ${code}: ${out}\n${err}`));
    });
  });
}

test('SIGKILL at a random moment: every tx whose receipt was returned survives; the chain is consistent', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-kill-'));
  try {
    const { child, rpc } = await startNodeProcess(dataDir);
    const confirmed: { hash: string; sender: number; nonce: bigint }[] = [];
    let stop = false;
    const senders = [0, 1, 2].map(async (s) => {
      for (let nonce = 0n; !stop; nonce++) {
        try {
          const hash = await rpc('eth_sendRawTransaction', [signTx(s, { nonce, to: DEV_ADDRS[(s + 1) % 3], value: 1n })]);
          const r = await rpc('eth_getTransactionReceipt', [hash]);
          if (r && r.status === '0x1') confirmed.push({ hash, sender: s, nonce });
        } catch {
          return; // the node is gone
        }
      }
    });
    // The kill comes at a random moment after the first confirmation (on a loaded machine the
    // first one can take longer than the random window itself).
    while (confirmed.length === 0 && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 1200)));
    child.kill('SIGKILL');
    stop = true;
    await Promise.all(senders);
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
    assert.ok(confirmed.length > 0, 'some txs were confirmed before the kill');

    const { child: child2, rpc: rpc2 } = await startNodeProcess(dataDir);
    try {
      for (const c of confirmed) {
        const r = await rpc2('eth_getTransactionReceipt', [c.hash]);
        assert.ok(r, `receipt of ${c.hash} survived`);
        assert.equal(r.status, '0x1');
      }
      for (const s of [0, 1, 2]) {
        const mine = confirmed.filter((c) => c.sender === s);
        const maxNonce = mine.reduce((m, c) => (c.nonce > m ? c.nonce : m), -1n);
        assert.ok(BigInt(await rpc2('eth_getTransactionCount', [DEV_ADDRS[s], 'latest'])) >= maxNonce + 1n);
      }
      // Every block links to its parent and every tx in a block has a receipt.
      const head = BigInt(await rpc2('eth_blockNumber'));
      let parent = (await rpc2('eth_getBlockByNumber', ['0x0', false])).hash;
      for (let n = 1n; n <= head; n++) {
        const b = await rpc2('eth_getBlockByNumber', ['0x' + n.toString(16), false]);
        assert.equal(b.parentHash, parent, `block ${n} links to its parent`);
        const rs = await rpc2('eth_getBlockReceipts', [b.number]);
        assert.equal(rs.length, b.transactions.length);
        parent = b.hash;
      }
      // And the chain goes on from there.
      const nonce = BigInt(await rpc2('eth_getTransactionCount', [DEV_ADDRS[0], 'latest']));
      const h = await rpc2('eth_sendRawTransaction', [signTx(0, { nonce, to: DEV_ADDRS[1], value: 1n })]);
      assert.equal((await rpc2('eth_getTransactionReceipt', [h])).status, '0x1');
    } finally {
      child2.kill('SIGKILL');
      if (child2.exitCode === null && child2.signalCode === null) await new Promise((r) => child2.once('exit', r));
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('upgrade.json: an upgrade already in the past cannot be removed across a restart (§4.4)', async () => {
  const { mkdirSync, writeFileSync, unlinkSync } = await import('node:fs');
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-compat-'));
  const cfgDir = join(dataDir, 'chain-configs');
  mkdirSync(join(cfgDir, 'dev'), { recursive: true });
  const upgradePath = join(cfgDir, 'dev', 'upgrade.json');
  writeFileSync(upgradePath, JSON.stringify({ precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: 1607144401, adminAddresses: [DEV_ADDRS[0]] } }] }));
  try {
    let { node, rpc } = await devNode({ 'data-dir': dataDir, 'chain-config-dir': cfgDir });
    await rpc('eth_sendTransaction', [{ from: DEV_ADDRS[0], to: DEV_ADDRS[1], value: '0x1' }]);
    assert.ok(Object.keys(await rpc('eth_getActivePrecompilesAt', [])).includes('txAllowListConfig'));
    await node.stop();
    // Same upgrade.json: fine.
    ({ node, rpc } = await devNode({ 'data-dir': dataDir, 'chain-config-dir': cfgDir }));
    assert.equal(await rpc('eth_blockNumber'), '0x1');
    await node.stop();
    unlinkSync(upgradePath);
    await assert.rejects(devNode({ 'data-dir': dataDir, 'chain-config-dir': cfgDir }), /mismatching .*PrecompileUpgrade\[0\] in database/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
