#!/usr/bin/env node
// Foundry compatibility suite of Powder: starts a Powder node (the repository's bin/powder, in
// memory), runs real `cast` and `forge` (Foundry 1.7.1 from npm) against its dev chain and checks
// what they answer. One line per check; exit code 1 if any failed. See README.md.
//
//   node run.mjs [--filter=<substring>] [--verbose] [--anvil[=<path>]]
//
// --anvil runs the same checks against Anvil (`anvil --chain-id 43210`) instead of Powder, to
// check the checks: what differs on purpose (docs/dev-chain.md) is marked `powderOnly` below.
//
// Environment: POWDER_BIN (default ../../bin/powder), COMPAT_PORT (default: the first free port
// in 19950-19989), COMPAT_KEEP_LOG=1 (keep Powder's output file).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const POWDER = process.env.POWDER_BIN || path.resolve(HERE, '..', '..', 'bin', 'powder');
const CAST = path.join(HERE, 'node_modules', '.bin', 'cast');
const FORGE = path.join(HERE, 'node_modules', '.bin', 'forge');
const SOLC = path.join(HERE, 'bin', 'solc');
const argv = process.argv.slice(2);
const FILTER = (argv.find((a) => a.startsWith('--filter=')) || '').slice('--filter='.length);
const VERBOSE = argv.includes('--verbose');
const ANVIL_ARG = argv.find((a) => a === '--anvil' || a.startsWith('--anvil='));
const ANVIL = ANVIL_ARG && (ANVIL_ARG.slice('--anvil='.length)
  || path.resolve(HERE, '..', '..', 'bench', 'node_modules', '@foundry-rs', 'anvil-linux-amd64', 'bin', 'anvil'));

// Powder's dev chain funds Anvil's / Hardhat's ten test accounts.
const K0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const A0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const K1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const A1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const K2 = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
const A2 = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const K3 = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';
const A3 = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const CREATE2_DEPLOYER = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
const CHAIN_ID = 43210;
const GWEI = 10n ** 9n;
const ETHER = 10n ** 18n;
const MIN_BASE_FEE = ANVIL ? 0n : 25n * GWEI; // the dev chain's fee config (Anvil: none)

// ---------------------------------------------------------------------------------------------
// processes

const toolEnv = {
  ...process.env,
  NO_COLOR: '1',
  FOUNDRY_DISABLE_NIGHTLY_WARNING: '1',
  FOUNDRY_SOLC: SOLC,
  FOUNDRY_OFFLINE: 'true',
};

/** Runs a command to its end: {code, out (stdout), err (stderr), all}. Never throws. */
function exec(cmd, args, { timeoutMs = 60_000, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: HERE, env: { ...toolEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let all = '';
    child.stdout.on('data', (d) => { out += d; all += d; });
    child.stderr.on('data', (d) => { err += d; all += d; });
    const timer = setTimeout(() => { all += `\n[timed out after ${timeoutMs} ms]`; child.kill('SIGKILL'); }, timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); resolve({ code: -1, out, err: String(e), all: all + String(e) }); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : -1), out, err, all });
    });
  });
}

class CheckError extends Error {
  constructor(message, output) { super(message); this.output = output; }
}

let RPC = '';
const transcript = []; // the commands of the current check, for a FAIL's report

/** Runs cast/forge; throws unless it exits 0 (or exits non-zero when `fail` is set). */
async function tool(bin, args, { fail = false, timeoutMs, env } = {}) {
  const name = path.basename(bin);
  const shown = `${name} ${args.map((a) => (/[\s"'()]/.test(a) ? `'${a}'` : a)).join(' ')}`;
  const r = await exec(bin, args, { timeoutMs, env });
  transcript.push(`$ ${shown}\n${r.all.trim()}\n[exit ${r.code}]`);
  if (!fail && r.code !== 0) throw new CheckError(`${name} exited ${r.code}`);
  if (fail && r.code === 0) throw new CheckError(`${name} succeeded but should have failed`);
  return r;
}
const cast = (...args) => tool(CAST, args).then((r) => r.out.trim());
const castRpc = (...args) => cast(...args, '--rpc-url', RPC);
const castJson = async (...args) => JSON.parse(await castRpc(...args, '--json'));
const rpc = async (method, ...params) => JSON.parse(await castRpc('rpc', method, ...params));
const forge = (args, opts) => tool(FORGE, args, opts);

function assert(cond, message) { if (!cond) throw new CheckError(message); }
function eq(actual, expected, what) {
  if (String(actual) !== String(expected)) throw new CheckError(`${what}: expected ${expected}, got ${actual}`);
}
const big = (v) => BigInt(String(v).trim().split(/\s/)[0]);
const lower = (a) => String(a).toLowerCase();

/** A transaction's receipt must be mined with status 1. */
function mined(receipt, what = 'receipt') {
  assert(receipt && typeof receipt === 'object', `${what}: no receipt`);
  eq(receipt.status, '0x1', `${what} status`);
  assert(receipt.blockNumber, `${what}: no block number`);
  return receipt;
}

async function hasCode(address, what = address) {
  const code = await castRpc('code', address);
  assert(code.length > 2, `no code at ${what} (${code})`);
  return code;
}

/** The broadcast file forge script writes (transactions + receipts) for a script. */
function broadcastOf(script) {
  const f = path.join(HERE, 'broadcast', script, String(CHAIN_ID), 'run-latest.json');
  const j = JSON.parse(fs.readFileSync(f, 'utf8'));
  transcript.push(`# ${path.relative(HERE, f)}: ${j.transactions.length} transactions, receipts: ${j.receipts.map((r) => `${r.status}/${r.gasUsed}`).join(' ')}`);
  return j;
}

// ---------------------------------------------------------------------------------------------
// the node

async function freePort() {
  if (process.env.COMPAT_PORT) return Number(process.env.COMPAT_PORT);
  for (let p = 19950; p <= 19989; p++) {
    const ok = await new Promise((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(false));
      s.listen(p, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (ok) return p;
  }
  throw new Error('no free port in 19950-19989');
}

async function startPowder() {
  const bin = ANVIL || POWDER;
  if (!fs.existsSync(bin)) throw new Error(`${bin} not found${ANVIL ? '' : ': build Powder first (npm ci && npm run build at the repository root)'}`);
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'powder-compat-foundry-'));
  const logFile = path.join(dataDir, ANVIL ? 'anvil.out' : 'powder.out');
  const log = fs.openSync(logFile, 'a');
  const args = ANVIL
    ? ['--port', String(port), '--chain-id', String(CHAIN_ID)]
    : [`--http-port=${port}`, '--db-type=memdb', `--data-dir=${dataDir}`];
  const banner = ANVIL
    ? /Listening on (\d+\.\d+\.\d+\.\d+:\d+)/
    : /Powder: a local Avalanche node \((https?:\/\/[^)\s]+)\)/;
  const child = spawn(bin, args, { cwd: HERE, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`no banner from Powder in 60 s:\n${buf.slice(-3000)}`)), 60_000);
    const onData = (d) => {
      fs.writeSync(log, d);
      buf += d;
      const m = banner.exec(buf);
      if (m) { clearTimeout(timer); resolve(ANVIL ? `http://${m[1]}` : m[1]); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`Powder exited (${code}) before its banner:\n${buf.slice(-3000)}`)); });
  });
  // keep draining its output into the log file
  child.stdout.removeAllListeners('data');
  child.stderr.removeAllListeners('data');
  child.stdout.on('data', (d) => fs.writeSync(log, d));
  child.stderr.on('data', (d) => fs.writeSync(log, d));
  return { child, url, dataDir, logFile, log };
}

async function stopPowder(node) {
  if (!node) return;
  const { child } = node;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(child.pid, 'SIGTERM');
    const t = setTimeout(() => { try { process.kill(child.pid, 'SIGKILL'); } catch { /* gone */ } }, 15_000);
    await exited;
    clearTimeout(t);
  }
  fs.closeSync(node.log);
}

// ---------------------------------------------------------------------------------------------
// the checks, in order; later ones use what earlier ones left in `ctx`

const ctx = {};
const checks = [];
const check = (name, fn) => checks.push({ name, fn });
const powderOnly = new Set(); // checks of deliberate differences, skipped with --anvil
const need = (...keys) => { for (const k of keys) assert(ctx[k] !== undefined, `needs ${k} from an earlier check`); };

check('forge build (solc-js 0.8.37 through bin/solc)', async () => {
  await forge(['build'], { timeoutMs: 300_000 });
  assert(fs.existsSync(path.join(HERE, 'out', 'Counter.sol', 'Counter.json')), 'no out/Counter.sol/Counter.json');
});

check('cast chain-id', async () => eq(await castRpc('chain-id'), CHAIN_ID, 'chain id'));

check('cast block-number', async () => {
  const n = Number(await castRpc('block-number'));
  assert(Number.isInteger(n) && n >= 0, `block number ${n}`);
  ctx.firstBlock = n;
});

check('cast block latest', async () => {
  const b = await castJson('block', 'latest');
  assert(/^0x[0-9a-f]{64}$/.test(b.hash), `hash ${b.hash}`);
  eq(Number(b.number), ctx.firstBlock, 'number');
  assert(big(b.baseFeePerGas) >= MIN_BASE_FEE, `baseFeePerGas ${b.baseFeePerGas}`);
  const age = Date.now() / 1000 - Number(b.timestamp);
  assert(age > -60 && age < 3600, `genesis timestamp ${Number(b.timestamp)} is not the chain's start (${age} s ago)`);
  eq(await castRpc('block', '0', '--field', 'number'), '0', 'block 0 number');
});

check('cast balance', async () => {
  const wei = big(await castRpc('balance', A0));
  assert(wei >= 1000n * ETHER, `balance of ${A0}: ${wei}`);
  const ether = await castRpc('balance', A0, '--ether');
  assert(Math.abs(Number(ether) - Number(wei) / 1e18) < 1e-6, `--ether ${ether} is not ${wei} wei`);
});

check('cast nonce', async () => {
  eq(await castRpc('nonce', A3), '0', `nonce of ${A3}`);
  eq(await castRpc('nonce', A0, '--block', 'pending'), await castRpc('nonce', A0), 'pending nonce');
});

check('cast gas-price', async () => {
  const p = big(await castRpc('gas-price'));
  assert(p >= MIN_BASE_FEE, `gas price ${p} < 25 gwei`);
});

check('cast base-fee', async () => {
  const f = big(await castRpc('base-fee'));
  assert(f >= MIN_BASE_FEE, `base fee ${f} < 25 gwei`);
});

check('cast send --private-key (EIP-1559)', async () => {
  const before = big(await castRpc('balance', A3));
  const r = mined(await castJson('send', A3, '--value', '1ether', '--private-key', K0));
  eq(r.type, '0x2', 'tx type');
  eq(lower(r.from), lower(A0), 'from');
  eq(big(await castRpc('balance', A3)) - before, ETHER, 'balance change');
  ctx.transferTx = r.transactionHash;
  ctx.transferBlock = Number(r.blockNumber);
});

check('cast send --legacy', async () => {
  const r = mined(await castJson('send', A3, '--value', '1000', '--private-key', K1, '--legacy'));
  eq(r.type, '0x0', 'tx type');
  assert(big(r.effectiveGasPrice) >= MIN_BASE_FEE, `effectiveGasPrice ${r.effectiveGasPrice}`);
});

check('cast send --unlocked --from (node account)', async () => {
  const r = mined(await castJson('send', A3, '--value', '1000', '--unlocked', '--from', A2));
  eq(lower(r.from), lower(A2), 'from');
});

powderOnly.add('cast send --gas-price below the minimum base fee is refused');
check('cast send --gas-price below the minimum base fee is refused', async () => {
  const r = await tool(CAST, ['send', A3, '--value', '1', '--private-key', K1, '--legacy', '--gas-price', '1gwei', '--rpc-url', RPC], { fail: true });
  assert(/base fee|underpriced|gas price/i.test(r.all), 'the refusal does not say why');
});

check('cast send --async, then cast receipt', async () => {
  const hash = await castRpc('send', A3, '--value', '5', '--private-key', K2, '--async');
  assert(/^0x[0-9a-f]{64}$/.test(hash), `cast send --async printed ${hash}`);
  const r = mined(await castJson('receipt', hash, '--confirmations', '1'));
  eq(lower(r.to), lower(A3), 'to');
});

check('cast send --create <bytecode>', async () => {
  // init code that deploys a runtime returning 42 for any call
  // (--create takes the rest of the line: the options go before it)
  const out = await cast('send', '--private-key', K2, '--rpc-url', RPC, '--json', '--create', '0x600a600c600039600a6000f3602a60005260206000f3');
  const r = mined(JSON.parse(out));
  assert(r.contractAddress, 'no contractAddress');
  eq(await castRpc('code', r.contractAddress), '0x602a60005260206000f3', 'code');
  eq(BigInt(await castRpc('call', r.contractAddress)), 42n, 'call');
});

check('forge create --broadcast (EIP-1559)', async () => {
  const before = Number(await castRpc('block-number'));
  const r = await forge(['create', 'src/Counter.sol:Counter', '--broadcast', '--private-key', K0, '--rpc-url', RPC, '--json', '--constructor-args', '5']);
  const j = JSON.parse(r.out.slice(r.out.indexOf('{')));
  await hasCode(j.deployedTo, 'deployedTo');
  mined(await castJson('receipt', j.transactionHash));
  eq((await castJson('tx', j.transactionHash)).type, '0x2', 'tx type');
  eq(await castRpc('call', j.deployedTo, 'number()(uint256)'), '5', 'number()');
  ctx.counter = j.deployedTo;
  ctx.beforeCounter = before; // a block at which the counter has no code yet
  ctx.increments = 0;
});

check('forge create --legacy --broadcast', async () => {
  const r = await forge(['create', 'src/Counter.sol:Counter', '--legacy', '--broadcast', '--private-key', K1, '--rpc-url', RPC, '--json', '--constructor-args', '9']);
  const j = JSON.parse(r.out.slice(r.out.indexOf('{')));
  await hasCode(j.deployedTo);
  eq((await castJson('tx', j.transactionHash)).type, '0x0', 'tx type');
  eq(await castRpc('call', j.deployedTo, 'number()(uint256)'), '9', 'number()');
});

check('cast send (contract call, event)', async () => {
  need('counter');
  const r = mined(await castJson('send', ctx.counter, 'increment()', '--private-key', K0));
  ctx.increments++;
  eq(r.logs.length, 1, 'logs');
  eq(r.logs[0].topics[0], await cast('keccak', 'Incremented(address,uint256)'), 'event topic');
  eq(lower(r.logs[0].address), lower(ctx.counter), 'log address');
  ctx.incTx = r.transactionHash;
  ctx.incBlock = Number(r.blockNumber);
  ctx.newBlock = Number(r.blockNumber);
});

check('cast call', async () => {
  need('counter');
  eq(await castRpc('call', ctx.counter, 'number()(uint256)'), '6', 'number()');
  eq(await castRpc('call', ctx.counter, 'perUser(address)(uint256)', A0), '1', 'perUser(A0)');
  eq(await castRpc('call', ctx.counter, 'number()(uint256)', '--block', String(ctx.incBlock - 1)), '5', 'number() at the block before');
});

check('cast call: custom error and require message', async () => {
  need('counter');
  let r = await tool(CAST, ['call', ctx.counter, 'setNumber(uint256)', '5000', '--rpc-url', RPC], { fail: true });
  const sel = (await cast('sig', 'TooBig(uint256,uint256)')).slice(2);
  const data = `0x${sel}${(5000).toString(16).padStart(64, '0')}${(1000).toString(16).padStart(64, '0')}`;
  assert(r.all.includes(data), `revert data ${data} not in the answer`);
  r = await tool(CAST, ['call', ctx.counter, 'failRequire()', '--rpc-url', RPC], { fail: true });
  assert(r.all.includes('plain require message'), 'require message not in the answer');
});

check('cast call --trace (local EVM on the node\'s state)', async () => {
  need('counter');
  const out = await castRpc('call', ctx.counter, 'increment()', '--trace', '--from', A0);
  assert(/incremented to", 7/.test(out), 'console.log not in the trace');
  assert(/emit Incremented/.test(out), 'event not in the trace');
});

check('cast estimate (exact: sent with that gas limit)', async () => {
  need('counter');
  const gas = Number(await castRpc('estimate', ctx.counter, 'increment()', '--from', A1));
  assert(gas > 21000 && gas < 200000, `estimate ${gas}`);
  const r = mined(await castJson('send', ctx.counter, 'increment()', '--private-key', K1, '--gas-limit', String(gas)));
  ctx.increments++;
  assert(Number(r.gasUsed) <= gas, `gasUsed ${Number(r.gasUsed)} > estimate ${gas}`);
  const t = Number(await castRpc('estimate', A3, '--value', '1', '--from', A0));
  eq(t, 21000, 'estimate of a transfer');
});

check('cast code / codesize', async () => {
  need('counter');
  const code = await hasCode(ctx.counter);
  eq(await castRpc('codesize', ctx.counter), (code.length - 2) / 2, 'codesize');
  eq(await castRpc('code', A0), '0x', 'code of an EOA');
  const deployer = await hasCode(CREATE2_DEPLOYER, 'the CREATE2 deployer');
  eq(deployer, '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3', 'deployer code');
});

check('cast storage', async () => {
  need('counter');
  const n = Number(await castRpc('call', ctx.counter, 'number()(uint256)'));
  eq(BigInt(await castRpc('storage', ctx.counter, '0')), BigInt(n), 'slot 0');
  eq(BigInt(await castRpc('storage', ctx.counter, '0', '--block', String(ctx.incBlock - 1))), 5n, 'slot 0 at an older block');
});

check('cast receipt', async () => {
  need('incTx');
  const r = mined(await castJson('receipt', ctx.incTx));
  eq(Number(r.blockNumber), ctx.incBlock, 'blockNumber');
  eq(r.logs.length, 1, 'logs');
  eq(lower(r.to), lower(ctx.counter), 'to');
  eq(await castRpc('receipt', ctx.incTx, 'status'), 'true', 'cast receipt <hash> status');
});

check('cast tx', async () => {
  need('incTx');
  const t = await castJson('tx', ctx.incTx);
  eq(lower(t.from), lower(A0), 'from');
  eq(lower(t.to), lower(ctx.counter), 'to');
  eq(t.input, await cast('sig', 'increment()'), 'input');
  eq(Number(t.chainId), CHAIN_ID, 'chainId');
  const raw = await castRpc('tx', ctx.incTx, '--raw');
  let decoded = JSON.parse(await cast('decode-transaction', raw, '--json'));
  if (typeof decoded === 'string') decoded = JSON.parse(decoded); // cast 1.7.1 prints a JSON string of the JSON
  eq(lower(decoded.signer ?? decoded.from ?? ''), lower(A0), 'signer of the raw tx');
});

check('cast logs (a range within the head)', async () => {
  need('counter', 'increments');
  const head = await castRpc('block-number');
  const logs = await castJson('logs', '--from-block', String(ctx.beforeCounter), '--to-block', head, '--address', ctx.counter, 'Incremented(address,uint256)');
  eq(logs.length, ctx.increments, 'number of Incremented logs');
  eq(Number(logs[0].blockNumber), ctx.incBlock, 'first log block');
  const one = await castJson('logs', '--from-block', String(ctx.incBlock), '--to-block', String(ctx.incBlock));
  eq(one.length, 1, 'logs of one block (any address)');
  const byTopic = await castJson('logs', '--from-block', '0', '--to-block', 'latest', 'Incremented(address indexed,uint256)', A1);
  eq(byTopic.length, 1, 'logs with an indexed topic (by = A1)');
});

check('cast access-list', async () => {
  need('counter');
  const j = await castJson('access-list', ctx.counter, 'increment()', '--from', A0);
  const entry = j.access_list?.find?.((e) => lower(e.address) === lower(ctx.counter))
    ?? j.accessList?.find?.((e) => lower(e.address) === lower(ctx.counter));
  assert(entry, `no entry for the counter in ${JSON.stringify(j)}`);
  const keys = entry.storageKeys ?? entry.storage_keys;
  assert(keys.includes('0x' + '0'.repeat(64)), 'slot 0 not in the access list');
  assert(Number(j.gas_used ?? j.gasUsed) > 21000, 'gas used');
});

check('cast rpc anvil_setBalance', async () => {
  const who = '0x000000000000000000000000000000000000bEEF';
  const r = await rpc('anvil_setBalance', who, '0x3635c9adc5dea00000');
  eq(r, null, 'anvil_setBalance answer');
  eq(await castRpc('balance', who), (1000n * ETHER).toString(), 'balance');
});

check('cast rpc evm_increaseTime + evm_mine', async () => {
  const t0 = Number(await castRpc('block', 'latest', '--field', 'timestamp'));
  const n0 = Number(await castRpc('block-number'));
  await rpc('evm_increaseTime', '3600');
  eq(await rpc('evm_mine'), '0x0', 'evm_mine answer');
  eq(Number(await castRpc('block-number')), n0 + 1, 'block number after evm_mine');
  const t1 = Number(await castRpc('block', 'latest', '--field', 'timestamp'));
  assert(t1 - t0 >= 3600 && t1 - t0 < 3600 + 120, `timestamp moved by ${t1 - t0} s`);
});

check('cast rpc evm_snapshot / evm_revert', async () => {
  need('counter');
  const snap = await rpc('evm_snapshot');
  const n0 = Number(await castRpc('block-number'));
  const nonce0 = await castRpc('nonce', A0);
  const num0 = await castRpc('call', ctx.counter, 'number()(uint256)');
  mined(await castJson('send', ctx.counter, 'increment()', '--private-key', K0));
  await rpc('anvil_mine', '0x3');
  eq(Number(await castRpc('block-number')), n0 + 4, 'block number after a tx and anvil_mine 3');
  eq(await rpc('evm_revert', snap), true, 'evm_revert answer');
  eq(Number(await castRpc('block-number')), n0, 'block number after evm_revert');
  eq(await castRpc('nonce', A0), nonce0, 'nonce after evm_revert');
  eq(await castRpc('call', ctx.counter, 'number()(uint256)'), num0, 'counter after evm_revert');
  // the chain goes on from there
  mined(await castJson('send', A3, '--value', '1', '--private-key', K0));
  eq(Number(await castRpc('block-number')), n0 + 1, 'block number of the next tx');
  eq(await rpc('evm_revert', snap), false, 'evm_revert of a used snapshot');
});

check('cast rpc anvil_impersonateSignature, then cast call to ecrecover', async () => {
  const [r, s] = ['11'.repeat(32), '22'.repeat(32)];
  const who = '0x000000000000000000000000000000000000dEaD';
  eq(await rpc('anvil_impersonateSignature', JSON.stringify([`0x${r}${s}1b`, who])), null, 'anvil_impersonateSignature answer');
  const input = `0x${'ab'.repeat(32)}${'1b'.padStart(64, '0')}${r}${s}`;
  eq(await castRpc('call', '0x0000000000000000000000000000000000000001', input), '0x' + who.slice(2).toLowerCase().padStart(64, '0'), 'ecrecover of the registered signature');
});

check('impersonating a contract: cast send --unlocked --from <contract>', async () => {
  need('counter');
  const c = ctx.counter;
  eq(await rpc('anvil_setBalance', c, '0x8ac7230489e80000'), null, 'anvil_setBalance answer'); // 10 ether
  eq(await rpc('anvil_impersonateAccount', c), null, 'anvil_impersonateAccount answer');
  const before = big(await castRpc('balance', A3));
  const r = mined(await castJson('send', A3, '--value', '1ether', '--unlocked', '--from', c), 'transfer from the contract');
  eq(lower(r.from), lower(c), 'from');
  eq(big(await castRpc('balance', A3)) - before, ETHER, 'balance change');
  const r2 = mined(await castJson('send', c, 'increment()', '--unlocked', '--from', c), 'call from the contract to itself');
  ctx.increments++;
  eq(await castRpc('call', c, 'perUser(address)(uint256)', c), '1', 'perUser(contract)');
  eq(lower(r2.logs[0].topics[1]), lower('0x' + c.slice(2).padStart(64, '0')), 'event by = the contract');
  eq(await rpc('anvil_stopImpersonatingAccount', c), null, 'anvil_stopImpersonatingAccount answer');
  await tool(CAST, ['send', A3, '--value', '1', '--unlocked', '--from', c, '--rpc-url', RPC], { fail: true });
});

check('cast publish (a tx signed offline by cast mktx)', async () => {
  const nonce = await castRpc('nonce', A2);
  const raw = await cast('mktx', A1, '--value', '7', '--private-key', K2, '--nonce', nonce, '--gas-limit', '21000',
    '--gas-price', '50gwei', '--priority-gas-price', '1gwei', '--chain', String(CHAIN_ID));
  assert(/^0x02/.test(raw), `not a type-2 tx: ${raw}`);
  const r = mined(JSON.parse(await castRpc('publish', raw)), 'receipt printed by cast publish');
  mined(await castJson('receipt', r.transactionHash));
  eq(lower(r.from), lower(A2), 'from');
  // and one that cast mktx fills from the node (nonce, fees, gas)
  const raw2 = await castRpc('mktx', A1, '--value', '8', '--private-key', K2, '--legacy');
  const hash2 = await castRpc('publish', raw2, '--async');
  assert(/^0x[0-9a-f]{64}$/.test(hash2), `cast publish --async printed ${hash2}`);
  eq(lower((mined(await castJson('receipt', hash2))).to), lower(A1), 'to');
});

check('cast run <hash> (replays the block in cast\'s EVM)', async () => {
  need('incTx');
  const out = await castRpc('run', ctx.incTx);
  assert(/Transaction successfully executed/.test(out), 'not "successfully executed"');
  assert(/console::log\("incremented to", 6\)/.test(out), 'console.log of the original run not in the trace');
  assert(/emit Incremented\(by: 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266, newValue: 6\)/.test(out), 'event not in the trace');
});

check('forge script --broadcast (6 txs, one sender)', async () => {
  const r = await forge(['script', 'script/Deploy.s.sol:Deploy', '--broadcast', '--private-key', K0, '--rpc-url', RPC]);
  assert(/ONCHAIN EXECUTION COMPLETE & SUCCESSFUL/.test(r.all), 'not "ONCHAIN EXECUTION COMPLETE & SUCCESSFUL"');
  const b = broadcastOf('Deploy.s.sol');
  eq(b.transactions.length, 6, 'transactions');
  eq(b.receipts.length, 6, 'receipts');
  for (const [i, rc] of b.receipts.entries()) eq(rc.status, '0x1', `receipt ${i} status`);
  const created = b.transactions.filter((t) => t.transactionType === 'CREATE').map((t) => t.contractAddress);
  eq(created.length, 2, 'deployments');
  for (const a of created) await hasCode(a);
  eq(await castRpc('call', created[0], 'number()(uint256)'), '43', 'first counter');
  eq(await castRpc('call', created[1], 'number()(uint256)'), '7', 'second counter');
  eq(await castRpc('balance', created[1]), '1', 'value sent with the second deployment');
  for (const rc of b.receipts) eq(Number((await castJson('receipt', rc.transactionHash)).status), 1, `node receipt of ${rc.transactionHash}`);
});

check('forge script --broadcast --slow (two senders)', async () => {
  const r = await forge(['script', 'script/Multi.s.sol:Multi', '--broadcast', '--slow', '--private-key', K0, '--rpc-url', RPC], { env: { SETN: '77' } });
  assert(/ONCHAIN EXECUTION COMPLETE & SUCCESSFUL/.test(r.all), 'not "ONCHAIN EXECUTION COMPLETE & SUCCESSFUL"');
  const b = broadcastOf('Multi.s.sol');
  eq(b.transactions.length, 8, 'transactions');
  for (const [i, rc] of b.receipts.entries()) eq(rc.status, '0x1', `receipt ${i} status`);
  const senders = new Set(b.transactions.map((t) => lower(t.transaction.from)));
  eq([...senders].sort().join(','), [lower(A0), lower(A1)].sort().join(','), 'senders');
  // --slow: one tx per block, in order
  const blocks = b.receipts.map((rc) => Number(rc.blockNumber));
  assert(blocks.every((n, i) => i === 0 || n > blocks[i - 1]), `blocks not increasing: ${blocks}`);
  const c = b.transactions[0].contractAddress;
  eq(await castRpc('call', c, 'number()(uint256)'), '77', 'number()');
  eq(await castRpc('call', c, 'perUser(address)(uint256)', A1), '1', 'perUser(A1)');
});

check('forge script: CREATE2 through the deployer 0x4e59…956c', async () => {
  const salt = String(1000 + Math.floor(Math.random() * 1e6));
  const r = await forge(['script', 'script/Create2.s.sol:Create2Deploy', '--broadcast', '--private-key', K0, '--rpc-url', RPC], { env: { SALT: salt } });
  assert(/ONCHAIN EXECUTION COMPLETE & SUCCESSFUL/.test(r.all), 'not "ONCHAIN EXECUTION COMPLETE & SUCCESSFUL"');
  const addr = r.all.match(/create2 (0x[0-9a-fA-F]{40})/)?.[1];
  assert(addr, 'no "create2 <address>" in the script\'s logs');
  const b = broadcastOf('Create2.s.sol');
  eq(b.transactions.length, 1, 'transactions');
  eq(lower(b.transactions[0].transaction.to), CREATE2_DEPLOYER, 'tx to');
  eq(b.receipts[0].status, '0x1', 'receipt status');
  await hasCode(addr);
  eq(await castRpc('call', addr, 'number()(uint256)'), '11', 'number()');
  const initCode = (await cast('concat-hex', JSON.parse(fs.readFileSync(path.join(HERE, 'out/Counter.sol/Counter.json'), 'utf8')).bytecode.object, (11).toString(16).padStart(64, '0')));
  const expected = await cast('create2', '--deployer', CREATE2_DEPLOYER, '--salt', '0x' + BigInt(salt).toString(16).padStart(64, '0'), '--init-code', initCode).catch(() => '');
  if (expected) assert(lower(expected).includes(lower(addr)), `cast create2 computes ${expected}`);
});

check('forge script: gas limits for a tx that clears storage (no refunds on Subnet-EVM)', async () => {
  const j = JSON.parse((await forge(['create', 'src/Store.sol:Store', '--broadcast', '--private-key', K3, '--rpc-url', RPC, '--json'])).out.replace(/^[^{]*/, ''));
  mined(await castJson('send', j.deployedTo, 'fill(uint256)', '150', '--private-key', K3));
  const r = await forge(['script', 'script/Clear.s.sol:Clear', '--broadcast', '--private-key', K3, '--rpc-url', RPC], { env: { STORE: j.deployedTo } });
  assert(/ONCHAIN EXECUTION COMPLETE & SUCCESSFUL/.test(r.all), 'not "ONCHAIN EXECUTION COMPLETE & SUCCESSFUL"');
  const b = broadcastOf('Clear.s.sol');
  eq(b.receipts[0].status, '0x1', 'receipt status');
  eq(BigInt(await castRpc('storage', j.deployedTo, '149')), 0n, 'slot 149');
});

check('forge test --fork-url (createSelectFork at an old block, rollFork, transact, prank/deal/warp, expectRevert)', async () => {
  need('counter', 'incTx', 'beforeCounter', 'newBlock');
  const r = await forge(['test', '--fork-url', RPC, '--no-match-contract', 'PinnedForkTest', '-vvv'], {
    timeoutMs: 300_000,
    env: {
      COUNTER: ctx.counter, RPC, TXH: ctx.incTx,
      OLD_BLOCK: String(ctx.beforeCounter), NEW_BLOCK: String(ctx.newBlock),
    },
  });
  const passed = r.all.match(/Suite result: ok\. (\d+) passed; (\d+) failed/);
  assert(passed, 'no test summary');
  eq(passed[2], '0', 'failed tests');
  eq(passed[1], '8', 'passed tests');
});

check('forge test --fork-url --fork-block-number (a pinned old block)', async () => {
  need('counter', 'incBlock');
  const r = await forge(['test', '--fork-url', RPC, '--fork-block-number', String(ctx.incBlock), '--match-contract', 'PinnedForkTest', '-vvv'], {
    timeoutMs: 300_000, env: { COUNTER: ctx.counter, PIN: String(ctx.incBlock) },
  });
  const passed = r.all.match(/Suite result: ok\. (\d+) passed; (\d+) failed/);
  assert(passed, 'no test summary');
  eq(passed[1], '1', 'passed tests');
});

// ---------------------------------------------------------------------------------------------

async function main() {
  const t0 = Date.now();
  for (const bin of [CAST, FORGE]) {
    if (!fs.existsSync(bin)) { console.error(`${bin} not found: run npm ci in ${HERE}`); process.exit(2); }
  }
  let node;
  let failed = 0;
  let ran = 0;
  try {
    node = await startPowder();
    RPC = ANVIL ? node.url : `${node.url}/ext/bc/dev/rpc`;
    console.log(`${ANVIL ? 'Anvil' : 'Powder'} at ${node.url} (pid ${node.child.pid}), ${RPC}`);
    console.log(`cast/forge ${(await exec(CAST, ['--version'])).out.split('\n')[0].replace('cast Version: ', '')}, solc ${(await exec(SOLC, ['--version'])).out.match(/Version: (\S+)/)?.[1]}`);
    for (const { name, fn } of checks) {
      if (FILTER && !name.includes(FILTER) && !name.startsWith('forge build')) continue;
      if (ANVIL && powderOnly.has(name)) { console.log(`skip ${name} (Powder only)`); continue; }
      transcript.length = 0;
      const t = Date.now();
      ran++;
      try {
        await fn();
        console.log(`ok   ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
        if (VERBOSE) console.log(indent(transcript.join('\n')));
      } catch (e) {
        failed++;
        console.log(`FAIL ${name} (${((Date.now() - t) / 1000).toFixed(1)} s): ${e.message}`);
        if (!(e instanceof CheckError)) console.log(indent(e.stack));
        console.log(indent(clip(transcript.join('\n'))));
      }
    }
  } catch (e) {
    failed++;
    console.log(`FAIL starting ${ANVIL ? 'Anvil' : 'Powder'}: ${e.message}`);
  } finally {
    await stopPowder(node);
    if (node) {
      if (failed || process.env.COMPAT_KEEP_LOG) console.log(`the node's output: ${node.logFile}`);
      else fs.rmSync(node.dataDir, { recursive: true, force: true });
    }
  }
  console.log(`${ran - failed} of ${ran} checks passed${failed ? `, ${failed} failed` : ''} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  process.exit(failed ? 1 : 0);
}

function indent(s) { return s.split('\n').map((l) => `     ${l}`).join('\n'); }
function clip(s, max = 6000) { return s.length > max ? `${s.slice(0, max / 2)}\n…\n${s.slice(-max / 2)}` : s; }

main();
