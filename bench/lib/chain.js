// Keys, the untimed setup (funding 32 senders, deploying the ERC-20), pre-signing transfers, and
// the timed transfer run: send everything, then poll until every sender's last receipt exists.
import { performance } from 'node:perf_hooks';
import { encodeFunctionData, keccak256, toHex, parseEther, parseGwei, formatGwei } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { RpcClient } from './rpc.js';
import { MNEMONIC } from './nodes.js';

export const SENDERS = 32;
// Far above every node's base fee at rest. Subnet-EVM's fee rule (a 10 s gas window, compounding per
// block) drives the base fee up fast when every transaction gets its own block; a stall report
// names the base fee so that case is told apart from a wedged node.
export const MAX_FEE = parseGwei('10000');
const TIP = parseGwei('1');
const SENDER_FUNDS = parseEther('10000'); // every node's mnemonic accounts hold 1,000,000 ETH
const TOKEN_SUPPLY = 10n ** 30n;
const SENDER_TOKENS = 10n ** 24n;
const ERC20_GAS = 100_000n;

/** Fixed keys shared by every node: the 10 mnemonic accounts, 32 derived senders, 32 recipients. */
export function makeKeys() {
  const funded = Array.from({ length: 10 }, (_, i) => mnemonicToAccount(MNEMONIC, { addressIndex: i }));
  const senders = Array.from({ length: SENDERS }, (_, i) => privateKeyToAccount(keccak256(toHex(`powder-bench-sender-${i}`))));
  const recipients = Array.from({ length: SENDERS }, (_, i) => `0x${(0xb0000 + i).toString(16).padStart(40, '0')}`);
  return { funded, senders, recipients };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function nonceOf(client, address) {
  try {
    return Number(BigInt(await client.call('eth_getTransactionCount', [address, 'pending'])));
  } catch {
    return Number(BigInt(await client.call('eth_getTransactionCount', [address, 'latest'])));
  }
}

function sign(account, chainId, nonce, fields) {
  return account.signTransaction({ chainId, type: 'eip1559', nonce, maxFeePerGas: MAX_FEE, maxPriorityFeePerGas: TIP, ...fields });
}

/** Waits until every hash has a receipt with status 0x1; throws with the first problem. */
async function waitReceipts(client, hashes, timeoutMs = 60_000) {
  const t0 = performance.now();
  const receipts = new Map();
  while (receipts.size < hashes.length) {
    if (performance.now() - t0 > timeoutMs) throw new Error(`setup: ${hashes.length - receipts.size} receipts missing after ${timeoutMs} ms`);
    for (const h of hashes) {
      if (receipts.has(h)) continue;
      const r = await client.call('eth_getTransactionReceipt', [h]);
      if (r) receipts.set(h, r);
    }
    if (receipts.size < hashes.length) await sleep(20);
  }
  for (const r of receipts.values()) if (r.status !== '0x1') throw new Error(`setup: tx ${r.transactionHash} failed`);
  return hashes.map((h) => receipts.get(h));
}

/**
 * Untimed setup on one node: 100 ETH to each sender (from mnemonic accounts 1..8), the ERC-20
 * deployed from account 0, and 10^24 tokens to each sender.
 * @returns {Promise<{token: string}>}
 */
export async function setupChain(url, chainId, keys, token) {
  const client = new RpcClient(url, { connections: 1 });
  try {
    const hashes = [];
    const funders = keys.funded.slice(1, 9);
    for (const [f, funder] of funders.entries()) {
      let nonce = await nonceOf(client, funder.address);
      for (let j = 0; j < SENDERS / funders.length; j++) {
        const to = keys.senders[f * (SENDERS / funders.length) + j].address;
        hashes.push(await client.call('eth_sendRawTransaction', [await sign(funder, chainId, nonce++, { to, value: SENDER_FUNDS, gas: 21000n })]));
      }
    }
    const deployer = keys.funded[0];
    let nonce = await nonceOf(client, deployer.address);
    const deployData = token.bytecode + TOKEN_SUPPLY.toString(16).padStart(64, '0');
    const deployHash = await client.call('eth_sendRawTransaction', [await sign(deployer, chainId, nonce++, { data: deployData, gas: 1_500_000n })]);
    const [deployReceipt] = await waitReceipts(client, [deployHash]);
    const tokenAddress = deployReceipt.contractAddress;
    for (const s of keys.senders) {
      const data = encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [s.address, SENDER_TOKENS] });
      hashes.push(await client.call('eth_sendRawTransaction', [await sign(deployer, chainId, nonce++, { to: tokenAddress, data, gas: ERC20_GAS })]));
    }
    await waitReceipts(client, hashes);
    return { token: tokenAddress };
  } finally {
    client.close();
  }
}

/** Pre-signs transfers, cached by chain id and starting nonces, so nodes in the same state share them. */
export class TransferSigner {
  constructor(keys, token) {
    this.keys = keys;
    this.token = token;
    this.cache = new Map();
  }

  /**
   * @param {{url:string, chainId:number, kind:'eth'|'erc20', senders:number, total:number, tokenAddress:string}} o
   * @returns {Promise<{lanes: {address:string, firstNonce:number, raws:string[], hashes:string[]}[], total:number}>}
   */
  async prepare({ url, chainId, kind, senders, total, tokenAddress }) {
    const client = new RpcClient(url, { connections: 8 });
    let nonces;
    try {
      nonces = await Promise.all(this.keys.senders.slice(0, senders).map((s) => nonceOf(client, s.address)));
    } finally {
      client.close();
    }
    const key = JSON.stringify([chainId, kind, senders, total, tokenAddress, nonces]);
    if (!this.cache.has(key)) this.cache.set(key, await this.#sign({ chainId, kind, senders, total, tokenAddress, nonces }));
    return this.cache.get(key);
  }

  async #sign({ chainId, kind, senders, total, tokenAddress, nonces }) {
    const lanes = [];
    for (let i = 0; i < senders; i++) {
      const count = Math.floor(total / senders) + (i < total % senders ? 1 : 0);
      const account = this.keys.senders[i];
      const to = this.keys.recipients[i];
      const raws = [];
      for (let n = 0; n < count; n++) {
        const fields =
          kind === 'eth'
            ? { to, value: 1n, gas: 21000n }
            : { to: tokenAddress, gas: ERC20_GAS, data: encodeFunctionData({ abi: this.token.abi, functionName: 'transfer', args: [to, 1n] }) };
        raws.push(await sign(account, chainId, nonces[i] + n, fields));
      }
      lanes.push({ address: account.address, firstNonce: nonces[i], raws, hashes: raws.map((r) => keccak256(r)) });
    }
    return { lanes, total };
  }
}

/**
 * The timed part: every lane (one sender, one keep-alive connection) sends its txs in nonce order,
 * each eth_sendRawTransaction awaited; then every sender's last receipt is polled. Since a sender's
 * txs are mined in nonce order, the last receipt of each sender means all are in. Afterwards
 * (untimed) every receipt is checked for existence and status 0x1.
 */
export async function runTransfers(url, { lanes, total }, { timeoutMs = 180_000, stallMs = 20_000, processProbe } = {}) {
  const client = new RpcClient(url, { connections: lanes.length, timeoutMs: 30_000 });
  const result = { count: total, errors: 0, stalled: false };
  const fail = (e) => {
    result.errors++;
    result.firstError ??= e.message;
    if (e.kind === 'stall') result.stalled = true;
  };
  try {
    const t0 = performance.now();
    await Promise.all(
      lanes.map(async (lane) => {
        for (let i = 0; i < lane.raws.length; i++) {
          try {
            const hash = await client.call('eth_sendRawTransaction', [lane.raws[i]]);
            if (hash !== lane.hashes[i]) throw new Error(`eth_sendRawTransaction returned ${hash}, expected ${lane.hashes[i]}`);
          } catch (e) {
            e.message = `eth_sendRawTransaction (tx ${i + 1} of sender's ${lane.raws.length}, after ${((performance.now() - t0) / 1000).toFixed(1)} s): ${e.message}`;
            fail(e);
            return; // the rest of this sender's txs would only be nonce gaps
          }
        }
      }),
    );
    result.sendSeconds = (performance.now() - t0) / 1000;
    if (result.errors) return result;
    let pending = lanes.map((l) => l.hashes[l.hashes.length - 1]);
    let tLast = performance.now();
    // Stall = the chain's height has not moved for stallMs while receipts are missing (checked once a second).
    let height = -1;
    let heightSince = performance.now();
    let heightCheckedAt = 0;
    while (pending.length) {
      const now = performance.now();
      if (now - heightCheckedAt > 1000) {
        heightCheckedAt = now;
        const h = await client.call('eth_blockNumber').catch((e) => (fail(e), null));
        if (h === null) return result;
        if (Number(BigInt(h)) !== height) {
          height = Number(BigInt(h));
          heightSince = now;
        } else if (now - heightSince > stallMs) {
          const block = await client.call('eth_getBlockByNumber', ['latest', false]).catch(() => null);
          const fee = block?.baseFeePerGas ? `; base fee ${feeText(BigInt(block.baseFeePerGas))} (txs' max fee ${feeText(MAX_FEE)})` : '';
          // What is stuck and why, read from the node after the fact (the run is already a stall).
          result.diagnosis = await diagnoseStall(client, lanes, processProbe).catch((e) => ({ failed: e.message }));
          const why = result.diagnosis.summary ? `; diagnosis: ${result.diagnosis.summary}` : '';
          fail(Object.assign(new Error(`stalled: height stuck at ${height} for ${stallMs / 1000} s, ${pending.length} senders' last receipts missing${fee}${why}`), { kind: 'stall' }));
          return result;
        }
      }
      if (now - t0 > timeoutMs) {
        fail(Object.assign(new Error(`${pending.length} senders' last receipts missing after ${timeoutMs / 1000} s`), { kind: 'stall' }));
        return result;
      }
      const found = await Promise.all(
        pending.map((h) =>
          client.call('eth_getTransactionReceipt', [h]).catch((e) => {
            e.message = `receipt polling: ${e.message}`;
            fail(e);
            return 'error';
          }),
        ),
      );
      if (found.includes('error')) return result;
      tLast = performance.now();
      pending = pending.filter((_, i) => !found[i]);
      if (pending.length) await sleep(5);
    }
    result.seconds = (tLast - t0) / 1000;
    result.tps = total / result.seconds;
    // Untimed check: every receipt exists and succeeded.
    const all = lanes.flatMap((l) => l.hashes);
    const receipts = await Promise.all(all.map((h) => client.call('eth_getTransactionReceipt', [h]).catch((e) => (fail(e), null))));
    const missing = receipts.filter((r) => !r).length;
    const failed = receipts.filter((r) => r && r.status !== '0x1').length;
    if (missing || failed) fail(new Error(`${missing} receipts missing, ${failed} failed after the last ones were seen`));
    return result;
  } finally {
    client.close();
  }
}

export function balanceOfCall(token, tokenAddress, holder) {
  return { to: tokenAddress, data: encodeFunctionData({ abi: token.abi, functionName: 'balanceOf', args: [holder] }) };
}

/**
 * The i-th call asks for the token balance of holder number i (an address made from the counter,
 * so the sequence is the same on every node; those holders have no tokens). Returns a function
 * that yields the next request body.
 */
export function distinctBalanceOfBodies(token, tokenAddress) {
  const holder = (i) => `d15c${i.toString(16).padStart(36, '0')}`;
  const data0 = encodeFunctionData({ abi: token.abi, functionName: 'balanceOf', args: [`0x${holder(0)}`] });
  const prefix = `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"${tokenAddress}","data":"${data0.slice(0, -40)}`;
  const suffix = '"},"latest"]}';
  let next = 0;
  return () => Buffer.from(prefix + holder(next++) + suffix);
}

const feeText = (wei) => (wei < 1_000_000n ? `${wei} wei` : `${formatGwei(wei)} gwei`);
const range = (nonces) => (nonces.length ? `${Math.min(...nonces)}–${Math.max(...nonces)}` : 'none');
const hexNum = (x) => (typeof x === 'string' && /^0x[0-9a-f]+$/i.test(x) ? Number(BigInt(x)) : x);

/**
 * After a stall: what the node holds and why nothing is mined. Reads the latest block, the pool
 * (txpool_status, txpool_content), each sender's 'latest' and 'pending' nonce against the nonce
 * after its last transaction, the sender's next transaction, the automine setting (Anvil), and
 * the process's CPU use and RSS growth. Read-only; every query fails soft.
 */
export async function diagnoseStall(client, lanes, processProbe) {
  const q = (m, p = []) => client.call(m, p).catch((e) => ({ error: e.message }));
  const d = {};
  const block = await q('eth_getBlockByNumber', ['latest', false]);
  if (!block.error) {
    d.latestBlock = { number: hexNum(block.number), txs: block.transactions.length, gasUsed: hexNum(block.gasUsed), gasLimit: hexNum(block.gasLimit), baseFeePerGas: hexNum(block.baseFeePerGas), timestamp: hexNum(block.timestamp) };
  } else d.latestBlock = block;
  const status = await q('txpool_status');
  d.txpoolStatus = status.error ? status : { pending: hexNum(status.pending), queued: hexNum(status.queued) };
  const automine = await q('anvil_getAutomine');
  if (!automine.error) d.automine = automine;
  const content = await q('txpool_content');
  const poolEntries = (part, address) => Object.entries(content?.[part] ?? {}).find(([a]) => a.toLowerCase() === address.toLowerCase())?.[1] ?? {};
  const poolNonces = (part, address) => Object.keys(poolEntries(part, address)).map(Number);
  if (content.error) d.txpoolContent = content;
  const senders = [];
  const stale = []; // pool entries whose nonce the sender's account has already passed
  const latestTxs = new Set((block.transactions ?? []).map((h) => h.toLowerCase()));
  for (const lane of lanes) {
    const end = lane.firstNonce + lane.raws.length;
    const [latest, pendingNonce] = await Promise.all([q('eth_getTransactionCount', [lane.address, 'latest']), q('eth_getTransactionCount', [lane.address, 'pending'])]);
    const s = { address: lane.address, expectedNext: end, latest: hexNum(latest), pending: hexNum(pendingNonce) };
    for (const [part, entries] of [['pending', poolEntries('pending', lane.address)], ['queued', poolEntries('queued', lane.address)]]) {
      for (const [nonce, tx] of Object.entries(entries)) {
        if (typeof s.latest !== 'number' || Number(nonce) >= s.latest) continue;
        const known = await q('eth_getTransactionByHash', [tx.hash]);
        stale.push({ address: lane.address, nonce: Number(nonce), accountNonce: s.latest, hash: tx.hash, pool: part, inLatestBlock: latestTxs.has(String(tx.hash).toLowerCase()), lookupBlockNumber: known?.error ? known : hexNum(known?.blockNumber ?? null) });
      }
    }
    if (typeof s.latest === 'number' && s.latest < end) {
      s.poolReady = range(poolNonces('pending', lane.address));
      s.poolQueued = range(poolNonces('queued', lane.address));
      const nextHash = lane.hashes[s.latest - lane.firstNonce];
      const tx = nextHash ? await q('eth_getTransactionByHash', [nextHash]) : null;
      s.nextTx = tx === null ? 'unknown to the node' : tx.error ? tx : { nonce: s.latest, blockNumber: tx.blockNumber };
      if (!content.error) s.nextIn = poolNonces('pending', lane.address).includes(s.latest) ? 'ready' : poolNonces('queued', lane.address).includes(s.latest) ? 'queued' : 'not in pool';
    }
    senders.push(s);
  }
  const stuck = senders.filter((s) => typeof s.latest === 'number' && s.latest < s.expectedNext);
  const count = (f) => stuck.filter(f).length;
  d.senders = { total: senders.length, done: senders.length - stuck.length, stuck: stuck.length, allAccepted: senders.every((s) => s.pending === s.expectedNext) };
  d.stuckNextTx = { ready: count((s) => s.nextIn === 'ready'), queued: count((s) => s.nextIn === 'queued'), notInPool: count((s) => s.nextIn === 'not in pool'), unknownToNode: count((s) => s.nextTx === 'unknown to the node') };
  d.unmined = stuck.reduce((a, s) => a + (s.expectedNext - s.latest), 0);
  d.stuckSenders = stuck.slice(0, 4);
  d.staleInPool = stale;
  if (processProbe) d.process = await processProbe().catch((e) => ({ error: e.message }));
  const after = await q('eth_blockNumber');
  d.heightAfterDiagnosis = hexNum(after);
  // One line for the report.
  const parts = [];
  if (d.txpoolStatus.error) parts.push(`txpool_status: ${d.txpoolStatus.error}`);
  else parts.push(`pool ${d.txpoolStatus.pending} pending, ${d.txpoolStatus.queued} queued`);
  parts.push(`${d.unmined} of ours unmined, ${d.senders.allAccepted ? 'all' : 'NOT all'} accepted`);
  if (!content.error) {
    parts.push(`stuck senders' next tx: ${d.stuckNextTx.ready} ready, ${d.stuckNextTx.queued} queued, ${d.stuckNextTx.notInPool} missing`);
    const x = stale[0];
    parts.push(
      stale.length
        ? `${stale.length} stale pool entr${stale.length > 1 ? 'ies' : 'y'} (nonce ${x.nonce} < account nonce ${x.accountNonce}${x.inLatestBlock ? ', tx is in the latest block' : ''})`
        : 'no stale pool entry',
    );
  }
  if (d.automine !== undefined) parts.push(`automine ${d.automine ? 'on' : 'off'}`);
  if (d.process && !d.process.error) parts.push(`${d.process.cpuPercent}% CPU, RSS +${d.process.rssGrowthMiBps} MiB/s`);
  if (d.heightAfterDiagnosis !== d.latestBlock?.number) parts.push(`height ${d.heightAfterDiagnosis} after diagnosis`);
  d.summary = parts.join('; ');
  return d;
}
