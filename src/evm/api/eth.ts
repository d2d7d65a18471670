// eth_* / net_* / web3_* methods, grouped by the `eth-apis` service that registers them (§1.2).
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, createAddressFromString, generateAddress } from '@ethereumjs/util';
import { getMerkleStateProof } from '@ethereumjs/statemanager';
import { RpcError, goKind as jsonKind, type RpcMethod } from '../rpc/server.js';
import { keccak256 } from '../crypto.js';
import { nativeSecp } from '../chain/secp.js';
import { hexOrDecimal64Arg, optUint64NumberArg, transactionArgsArg } from '../rpc/params.js';
import { numberLiteral } from '../rpc/rawNumbers.js';
import type { Block } from '../chain/blockchain.js';
import { headerToJSON, encodeHeader } from '../chain/header.js';
import { effectiveTip } from '../txpool/pool.js';
import { resolveFeeHistoryRange, rewardsForBlock, validateRewardPercentiles, gasUsedRatio } from '../fees/index.js';
import {
  address,
  blockNumber,
  blockNumberOrHash,
  bool,
  bytes,
  hash32,
  invalidArg,
  opt,
  quantity,
  required,
  slotKeyText,
  decodeStorageKey,
  type BlockSpec,
} from './args.js';
import { CallPrecheckError, EvmBackend, ZERO_ADDRESS_HEX, accountsCall, doCallError, type CallArgs, parseBlockOverrides, parseCallArgs, parseStateOverrides } from './backend.js';
import type { TypedTransaction } from '@ethereumjs/tx';
import { gethTxJSON, hexD, hexQ, receiptJSON, txJSON } from './format.js';
import { revertMessage } from '../tracers/errors.js';
import { activePrecompileAddresses } from '../precompiles/index.js';
import { AccessListTracer, type AccessTupleJSON } from './accessListTracer.js';

export type MethodTable = Map<string, RpcMethod>;

const hexToBytes = (h: string) => Buffer.from(h.slice(2), 'hex');

export function blockJSON(be: EvmBackend, b: Block, fullTx: boolean): Record<string, unknown> {
  const txs = be.chain.txsOf(b);
  const senders = b.senders.map((s) => hexD(s));
  const transactions = fullTx ? txs.map((tx, i) => txJSON(tx, senders[i], { block: b, index: i })) : txs.map((tx) => hexD(tx.hash()));
  return headerToJSON(b.header, b.hash, { size: hexQ(blockRLP(b).length), transactions, uncles: [] });
}

/** Block RLP: [header, txs, uncles] (no withdrawals, §5.3). */
export function blockRLP(b: Block): Uint8Array {
  const header = RLP.decode(encodeHeader(b.header));
  const txs = b.rawTxs.map((raw) => (raw[0] >= 0xc0 ? RLP.decode(raw) : raw));
  return RLP.encode([header as never, txs as never, []]);
}

function logIndexBase(be: EvmBackend, b: Block, txIndex: number): number {
  const rs = be.chain.receipts(b);
  let n = 0;
  for (let i = 0; i < txIndex; i++) n += rs[i]?.logs.length ?? 0;
  return n;
}

export function receiptsOf(be: EvmBackend, b: Block): Record<string, unknown>[] {
  const rs = be.chain.receipts(b);
  const txs = be.chain.txsOf(b);
  let logIndex = 0;
  return txs.map((tx, i) => {
    const r = receiptJSON(tx, hexD(b.senders[i]), rs[i], b, i, logIndex, keccak256);
    logIndex += rs[i].logs.length;
    return r;
  });
}

function blockSpec(params: unknown[], i: number, optional = false): BlockSpec | undefined {
  if (optional && (params[i] === undefined || params[i] === null)) return undefined;
  return blockNumberOrHash(required(params, i), i);
}

const balanceHex = (acc: { balance: bigint }): string => hexQ(acc.balance);

/** An eth_getProof storage key as geth answers it: 32 bytes given → the hash, else a QUANTITY. */
function proofKeyJSON(d: { key: Uint8Array; length: number }): string {
  return d.length === 32 ? hexD(d.key) : hexQ(BigInt(hexD(d.key)));
}

export function ethMethods(be: EvmBackend): Record<string, MethodTable> {
  const chain = be.chain;
  const byNumber = (p: unknown[]) => be.resolve(blockNumber(required(p, 0), 0));
  const byHash = (p: unknown[]) => be.resolve({ kind: 'hash', hash: hash32(required(p, 0), 0), requireCanonical: false });
  /**
   * The block for geth's methods that answer a bare value, without an error (GetBlockReceipts,
   * GetUncleCountByBlockNumber, GetBlockTransactionCountByNumber, Get(Raw)TransactionByBlock-
   * NumberAndIndex): they drop the backend's error, so a block past the last accepted one (or a
   * non-canonical hash asked to be canonical) is `null` there, not `cannot query unfinalized data`.
   * The arguments are decoded before (their errors stay).
   */
  const orNull = (spec: BlockSpec): Block | null => {
    try {
      return be.resolve(spec);
    } catch (e) {
      if (e instanceof RpcError && e.code === -32000) return null;
      throw e;
    }
  };

  // ---- eth (service "eth") ----
  const eth: MethodTable = new Map();
  const coinbase = () => {
    const c = be.config.feeRecipient ?? '0x0100000000000000000000000000000000000000';
    if (c === '0x0000000000000000000000000000000000000000') throw new RpcError(-32000, 'etherbase must be explicitly specified');
    return c;
  };
  eth.set('eth_etherbase', () => coinbase());
  eth.set('eth_coinbase', () => coinbase());

  // ---- internal-eth ----
  const internalEth: MethodTable = new Map();
  internalEth.set('eth_gasPrice', async () => hexQ(await be.gasPrice()));
  internalEth.set('eth_baseFee', async () => {
    const bf = await be.consensus.estimateNextBaseFee(chain.head, be.miner.clock.nowMs());
    return bf === undefined ? null : hexQ(bf);
  });
  internalEth.set('eth_maxPriorityFeePerGas', async () => hexQ(await be.suggestTip()));
  internalEth.set('eth_syncing', () => false);
  internalEth.set('eth_feeHistory', (p) => {
    let count = hexOrDecimal64Arg(p, 0);
    const last = blockNumber(required(p, 1), 1);
    const pct = opt(p, 2, (v, i) => {
      // Go's texts: the whole value's kind if it is no array, else the first bad element's.
      if (!Array.isArray(v)) throw invalidArg(i, `json: cannot unmarshal ${jsonKind(v)} into Go value of type []float64`);
      // A literal past float64's range (1e400: Infinity to JSON.parse) is refused by Go, quoted as sent.
      // A null element is no error to Go (null leaves a float64 as it is: 0).
      const bad = v.findIndex((x) => x !== null && (typeof x !== 'number' || !Number.isFinite(x)));
      if (bad >= 0) {
        const kind = typeof v[bad] === 'number' ? `number ${numberLiteral(v, bad)}` : jsonKind(v[bad]);
        throw invalidArg(i, `json: cannot unmarshal ${kind} into Go value of type float64`);
      }
      return v.map((x) => (x === null ? 0 : (x as number)));
    }) ?? [];
    try {
      validateRewardPercentiles(pct);
    } catch (e) {
      throw new RpcError(-32000, (e as Error).message);
    }
    const head = chain.head.header.number;
    let lastN: bigint;
    if (last.kind === 'tag') lastN = last.tag === 'earliest' ? 0n : head;
    else lastN = (last as { number: bigint }).number;
    if (last.kind === 'tag' && last.tag === 'pending' && count > 0n) count -= 1n;
    if (lastN > head) throw new RpcError(-32000, `request beyond head block: requested ${lastN}, head ${head}`);
    let range;
    try {
      range = resolveFeeHistoryRange(count, lastN, head);
    } catch (e) {
      throw new RpcError(-32000, (e as Error).message);
    }
    if (!range) return { oldestBlock: '0x0', gasUsedRatio: null };
    const baseFees: string[] = [];
    const ratios: number[] = [];
    const rewards: string[][] = [];
    for (let n = range.first; n < range.first + range.count; n++) {
      const b = chain.blockByNumber(n)!;
      const bf = b.header.baseFee ?? 0n;
      baseFees.push(hexQ(bf));
      ratios.push(gasUsedRatio(b.header.gasUsed, b.header.gasLimit));
      if (pct.length) {
        const rs = chain.receipts(b);
        const txs = chain.txsOf(b).map((tx, i) => ({ tip: effectiveTip(tx, bf), gasUsed: rs[i].gasUsed }));
        rewards.push(rewardsForBlock(txs, b.header.gasUsed, pct).map(hexQ));
      }
    }
    const out: Record<string, unknown> = { oldestBlock: hexQ(range.first) };
    if (pct.length) out.reward = rewards;
    out.baseFeePerGas = baseFees;
    out.gasUsedRatio = ratios;
    return out;
  });

  // ---- internal-blockchain ----
  const bc: MethodTable = new Map();
  bc.set('eth_chainId', () => hexQ(be.chainId));
  bc.set('eth_blockNumber', () => hexQ(chain.head.header.number));
  // Argument errors throw synchronously; the server answers them exactly as a rejection.
  bc.set('eth_getBalance', (p) => {
    const a = address(required(p, 0), 0);
    const b = be.resolveForState(blockSpec(p, 1));
    // Answered at once when the account is cached (the usual poll of a balance), else read.
    const cached = chain.cachedAccount(b, a);
    return cached ? balanceHex(cached) : be.account(b, a).then(balanceHex);
  });
  bc.set('eth_getCode', async (p) => {
    const a = address(required(p, 0), 0);
    const b = be.resolveForState(blockSpec(p, 1));
    return hexD(await chain.readView(b).getCode(createAddressFromString(a)));
  });
  bc.set('eth_getStorageAt', async (p) => {
    const a = address(required(p, 0), 0);
    const keyText = slotKeyText(required(p, 1), 1);
    const b = be.resolveForState(blockSpec(p, 2));
    // geth reads the state first, then decodes the key (a plain error, -32000).
    let key: Uint8Array;
    try {
      key = decodeStorageKey(keyText).key;
    } catch (e) {
      throw new RpcError(-32000, `unable to decode storage key: ${(e as Error).message}`);
    }
    const v = await chain.readView(b).getStorage(createAddressFromString(a), key);
    const out = new Uint8Array(32);
    out.set(v, 32 - v.length);
    return hexD(out);
  });
  bc.set('eth_getProof', async (p) => {
    const a = address(required(p, 0), 0);
    // Go's []string: null is an empty list, a null element "" (slot 0).
    const keysArg = required(p, 1);
    if (keysArg !== null && !Array.isArray(keysArg)) throw invalidArg(1, `json: cannot unmarshal ${jsonKind(keysArg)} into Go value of type []string`);
    const keysV = ((keysArg ?? []) as unknown[]).map((k) => slotKeyText(k, 1));
    const spec = blockSpec(p, 2);
    // geth decodes every key before it reads the state (its plain errors, -32000).
    const decoded = keysV.map(decodeStorageKey);
    const keys = decoded.map((d) => d.key);
    const b = be.resolveForState(spec);
    // Subnet-EVM's stateQueryBlockNumberAllowed (an archive node: the configured window).
    const window = be.config.historicalProofQueryWindow;
    const last = chain.head.header.number;
    const oldest = window > 0n && last > window ? last - window : 0n;
    if (b.header.number < oldest) {
      throw new RpcError(-32000, `block number ${b.header.number} is before the oldest allowed block number ${oldest} (window of ${window} blocks)`);
    }
    const proof = await getMerkleStateProof(chain.stateView(b), createAddressFromString(a), keys);
    return {
      address: a,
      accountProof: proof.accountProof,
      balance: proof.balance,
      codeHash: proof.codeHash,
      nonce: proof.nonce,
      storageHash: proof.storageHash,
      // geth ≥ 1.13.5: a key given as 32 bytes is answered as such (lower-case hex), any other as
      // a QUANTITY ("0x1"), the JSON-RPC spec's encoding for getProof.
      storageProof: proof.storageProof.map((s, i) => ({ key: proofKeyJSON(decoded[i]), value: s.value, proof: s.proof })),
    };
  });
  const headerOf = (b: Block | null) => (b ? headerToJSON(b.header, b.hash) : null);
  // geth's GetHeaderByNumber / GetBlockByNumber (kept by Subnet-EVM): for "pending" — here the
  // last accepted block (§1.3) — hash, nonce and miner are answered as null.
  const pendingNulls = (spec: BlockSpec, out: Record<string, unknown> | null) => {
    if (out && spec.kind === 'tag' && spec.tag === 'pending') out.hash = out.nonce = out.miner = null;
    return out;
  };
  bc.set('eth_getHeaderByNumber', (p) => {
    const spec = blockNumber(required(p, 0), 0);
    return pendingNulls(spec, headerOf(be.resolve(spec)));
  });
  bc.set('eth_getHeaderByHash', (p) => headerOf(byHash(p)));
  bc.set('eth_getBlockByNumber', (p) => {
    const spec = blockNumber(required(p, 0), 0);
    const b = be.resolve(spec);
    const full = bool(required(p, 1), 1);
    return pendingNulls(spec, b ? blockJSON(be, b, full) : null);
  });
  bc.set('eth_getBlockByHash', (p) => {
    const b = byHash(p);
    const full = bool(required(p, 1), 1);
    return b ? blockJSON(be, b, full) : null;
  });
  bc.set('eth_getUncleByBlockNumberAndIndex', (p) => {
    const spec = blockNumber(required(p, 0), 0);
    quantity(required(p, 1), 1, 'hexutil.Uint');
    be.resolve(spec); // geth answers the backend's error here (`cannot query unfinalized data`)
    return null;
  });
  bc.set('eth_getUncleByBlockHashAndIndex', (p) => {
    byHash(p);
    quantity(required(p, 1), 1, 'hexutil.Uint');
    return null;
  });
  bc.set('eth_getUncleCountByBlockNumber', (p) => (orNull(blockNumber(required(p, 0), 0)) ? '0x0' : null));
  bc.set('eth_getUncleCountByBlockHash', (p) => (byHash(p) ? '0x0' : null));
  bc.set('eth_getBlockReceipts', (p) => {
    const b = orNull(blockSpec(p, 0)!);
    return b ? receiptsOf(be, b) : null;
  });
  bc.set('eth_call', (p) => {
    const args = parseCallArgs(required(p, 0), 0);
    const b = be.resolveForState(blockSpec(p, 1, true));
    const overrides = parseStateOverrides(p[2], 2);
    const blockOverrides = parseBlockOverrides(p[3], 3);
    return be.ethCall(args, b, overrides, blockOverrides);
  });
  bc.set('eth_estimateGas', async (p) => {
    const args = parseCallArgs(required(p, 0), 0);
    const b = be.resolveForState(blockSpec(p, 1, true));
    const overrides = parseStateOverrides(p[2], 2);
    return hexQ(await be.estimateGas(args, b, overrides));
  });
  bc.set('eth_createAccessList', async (p) => {
    const args = parseCallArgs(required(p, 0), 0);
    const b = be.resolveForState(blockSpec(p, 1, true));
    // geth's AccessList: the gas defaults to the RPC gas cap, then setDefaults fills the nonce,
    // fees, value and chain id (its errors answered as they are).
    const filled = await be.setDefaults({ ...args, gas: args.gas ?? be.config.rpcGasCap });
    const from = filled.from.toLowerCase();
    // geth's AccessList: the tracer leaves out the sender, the recipient (for a create the address
    // created) and the active precompiles, unless they name slots.
    const to = args.to ?? hexD(generateAddress(hexToBytes(from), bigIntToUnpaddedBytes(filled.nonce)));
    const ts = b.header.timestamp;
    const precompiles = activePrecompileAddresses(be.chain.commons.get(be.chain.forkAt(ts)), be.consensus.isGraniteAt(ts));
    const excluded = new Set([from, to, ...precompiles]);
    // A failed check of the state transition is wrapped with the hash of the unsigned tx geth's
    // args.toTransaction() builds from the filled args and the list of that round.
    const run = (list: AccessTupleJSON[], tracer: AccessListTracer) =>
      be
        .call({ ...filled, accessList: list }, b, { trace: (vm) => tracer.attach(vm.evm), framelessTrace: true })
        .catch((e) => {
          if (!(e instanceof CallPrecheckError)) throw e;
          const hash = hexD(keccak256(be.toTransaction({ ...filled, accessList: list }).serialize()));
          throw new RpcError(-32000, `failed to apply transaction: ${hash} err: ${e.message}`);
        })
        .finally(() => tracer.detach());
    // Each round runs the message with the list so far (the tracer starts from it and adds what
    // the run touches) until a round adds nothing; that round's list and gas are the answer.
    let prev = new AccessListTracer(args.accessList ?? [], excluded);
    for (;;) {
      const list = prev.accessList();
      const tracer = new AccessListTracer(list, excluded);
      const out = await run(list, tracer);
      if (tracer.equal(prev)) {
        const res: Record<string, unknown> = { accessList: list, gasUsed: hexQ(out.gasUsed) };
        if (out.error) res.error = out.reverted ? 'execution reverted' : out.error;
        return res;
      }
      prev = tracer;
    }
  });
  bc.set('eth_feeConfig', (p) => {
    const spec = blockSpec(p, 0, true);
    const b = spec ? be.resolve(spec) : chain.head;
    // An unknown hash is an error; for a number without a header the real node dereferences nil
    // and its RPC server answers the panic (reference §10).
    if (!b) throw spec?.kind === 'hash' ? new RpcError(-32000, 'header for hash not found') : new RpcError(-32603, 'method handler crashed');
    return be.feeConfigAnswer(b);
  });
  bc.set('eth_getChainConfig', () => be.chainConfigJSON());
  bc.set('eth_getActiveRulesAt', (p) => be.activeRulesJSON(timestampArg(p, be)));
  bc.set('eth_getActivePrecompilesAt', (p) => be.activePrecompilesJSON(timestampArg(p, be)));
  bc.set('eth_getBadBlocks', () => []);
  bc.set('eth_callDetailed', async (p) => {
    const args = parseCallArgs(required(p, 0), 0);
    const b = be.resolveForState(blockSpec(p, 1));
    const overrides = parseStateOverrides(p[2], 2);
    // Subnet-EVM's CallDetailed runs geth's doCall: a failed pre-check is its wrapped RPC error.
    const out = await be.call(args, b, { overrides, plain: !overrides?.size }).catch((e) => {
      throw doCallError(e);
    });
    let err = out.error ?? '';
    if (out.reverted) err = revertMessage(out.returnValue);
    return { gas: Number(out.gasUsed), errCode: out.reverted ? 3 : 0, err, returnData: hexD(out.returnValue) };
  });

  // ---- internal-transaction ----
  const itx: MethodTable = new Map();
  const txAt = (b: Block | null, i: bigint) => {
    if (!b || i >= BigInt(b.rawTxs.length)) return null;
    const tx = chain.txsOf(b)[Number(i)];
    return txJSON(tx, hexD(b.senders[Number(i)]), { block: b, index: Number(i) });
  };
  itx.set('eth_getBlockTransactionCountByNumber', (p) => {
    const b = orNull(blockNumber(required(p, 0), 0));
    return b ? hexQ(b.rawTxs.length) : null;
  });
  itx.set('eth_getBlockTransactionCountByHash', (p) => {
    const b = byHash(p);
    return b ? hexQ(b.rawTxs.length) : null;
  });
  itx.set('eth_getTransactionByBlockNumberAndIndex', (p) => {
    const spec = blockNumber(required(p, 0), 0);
    return txAt(orNull(spec), quantity(required(p, 1), 1, 'hexutil.Uint'));
  });
  itx.set('eth_getTransactionByBlockHashAndIndex', (p) => txAt(byHash(p), quantity(required(p, 1), 1, 'hexutil.Uint')));
  itx.set('eth_getRawTransactionByBlockNumberAndIndex', (p) => {
    const spec = blockNumber(required(p, 0), 0);
    const i = quantity(required(p, 1), 1, 'hexutil.Uint');
    const b = orNull(spec);
    return b && i < BigInt(b.rawTxs.length) ? hexD(b.rawTxs[Number(i)]) : '0x';
  });
  itx.set('eth_getRawTransactionByBlockHashAndIndex', (p) => {
    const b = byHash(p);
    const i = quantity(required(p, 1), 1, 'hexutil.Uint');
    return b && i < BigInt(b.rawTxs.length) ? hexD(b.rawTxs[Number(i)]) : '0x';
  });
  itx.set('eth_getTransactionCount', (p) => {
    const a = address(required(p, 0), 0);
    const spec = blockSpec(p, 1);
    const b = be.resolveForState(spec);
    const answer = (n: bigint) => hexQ(spec?.kind === 'tag' && spec.tag === 'pending' ? be.pool.pendingNonce(a, n) : n);
    const cached = chain.cachedAccount(b, a);
    return cached ? answer(cached.nonce) : be.account(b, a).then((acc) => answer(acc.nonce));
  });
  itx.set('eth_getTransactionByHash', (p) => {
    const h = hash32(required(p, 0), 0);
    const found = chain.findTx(hexToBytes(h));
    if (found) return txAt(found.block, BigInt(found.index));
    const pt = be.pool.get(h);
    return pt ? txJSON(pt.tx, pt.from) : null;
  });
  itx.set('eth_getRawTransactionByHash', (p) => {
    const h = hash32(required(p, 0), 0);
    const found = chain.findTx(hexToBytes(h));
    if (found) return hexD(found.block.rawTxs[found.index]);
    const pt = be.pool.get(h);
    return pt ? hexD(pt.raw) : '0x';
  });
  itx.set('eth_getTransactionReceipt', (p) => transactionReceipt(be, hash32(required(p, 0), 0)));
  itx.set('eth_sendRawTransaction', async (p) => be.sendRawTransaction(bytes(required(p, 0), 0)));
  itx.set('eth_sendTransaction', async (p) => be.sendTransaction(parseCallArgs(required(p, 0), 0)));
  itx.set('eth_fillTransaction', async (p) => {
    const tx = await be.fillTransaction(parseCallArgs(required(p, 0), 0));
    const raw = tx.serialize();
    // Unsigned: geth's tx.Hash() is the hash of this encoding (V, R and S zero).
    return { raw: hexD(raw), tx: gethTxJSON(tx, keccak256(raw)) };
  });
  itx.set('eth_sign', (p) => signText(be, address(required(p, 0), 0), bytes(required(p, 1), 1)));
  // geth's TransactionAPI.SignTransaction, its checks in its order; the wallet is looked up when
  // signing, and a missing `from` is the zero address (`unknown account`).
  itx.set('eth_signTransaction', async (p) => {
    const raw = required(p, 0);
    const args = parseCallArgs(raw, 0);
    checkSignTransactionArgs(raw, args);
    const from = (args.from ?? ZERO_ADDRESS_HEX).toLowerCase();
    // geth checks the fee cap on the filled tx, before signing.
    const tx = await be.fillTransaction({ ...args, from }, true);
    const wallet = accountsCall(() => be.accountManager.find(from));
    return signTransactionResult(tx.sign(accountsCall(() => be.accountManager.unlockedKey(wallet))));
  });
  itx.set('eth_pendingTransactions', () => {
    const out: unknown[] = [];
    const mine = new Set(be.accountManager.accounts());
    for (const from of be.pool.senders()) {
      if (!mine.has(from)) continue;
      for (const pt of be.pool.split(from).pending) out.push(txJSON(pt.tx, pt.from));
    }
    return out;
  });
  // geth's TransactionAPI.Resend(sendArgs, gasPrice *hexutil.Big, gasLimit *hexutil.Uint64).
  itx.set('eth_resend', (p) => {
    const args = parseCallArgs(required(p, 0), 0);
    const opt = (i: number, what?: string) => (p[i] === undefined || p[i] === null ? undefined : quantity(p[i], i, what));
    return be.resend(args, opt(1), opt(2, 'hexutil.Uint64'));
  });

  // ---- internal-account ----
  const account: MethodTable = new Map();
  // geth's am.Accounts(): the dev accounts, then the key directory's (src/evm/keystore/manager.ts).
  account.set('eth_accounts', () => be.accountManager.accounts());

  // ---- net / web3 ----
  const net: MethodTable = new Map();
  net.set('net_listening', () => true);
  net.set('net_peerCount', () => '0x0');
  net.set('net_version', () => be.chainId.toString());
  const web3: MethodTable = new Map();
  web3.set('web3_clientVersion', () => be.clientVersion);
  web3.set('web3_sha3', (p) => hexD(keccak256(bytes(required(p, 0), 0))));

  return {
    eth,
    'internal-eth': internalEth,
    'internal-blockchain': bc,
    'internal-transaction': itx,
    'internal-account': account,
    net,
    web3,
  };
}

/** eth_getActiveRulesAt / eth_getActivePrecompilesAt: bare JSON number (Go *uint64), default head time. */
function timestampArg(p: unknown[], be: EvmBackend): bigint {
  if (typeof p[0] === 'bigint') return p[0];
  // Go's encoding/json reads the literal as sent: a fraction, an exponent or a value out of range is refused.
  return optUint64NumberArg(p, 0) ?? be.chain.head.header.timestamp;
}

/**
 * The argument checks geth's SignTransaction (eth_ and personal_) makes before filling defaults,
 * in its order: gas, a gas price or both 1559 fees, no blob fields, nonce.
 */
export function checkSignTransactionArgs(raw: unknown, args: CallArgs): asserts args is CallArgs & { gas: bigint; nonce: bigint } {
  if (args.gas === undefined) throw new RpcError(-32000, 'gas not specified');
  if (args.gasPrice === undefined && (args.maxFeePerGas === undefined || args.maxPriorityFeePerGas === undefined)) {
    throw new RpcError(-32000, 'missing gasPrice or maxFeePerGas/maxPriorityFeePerGas');
  }
  if (isBlobTransaction(raw)) throw new RpcError(-32000, 'signing blob transactions not supported');
  if (args.nonce === undefined) throw new RpcError(-32000, 'nonce not specified');
}

/** Transaction arguments with blob fields (blobVersionedHashes, maxFeePerBlobGas): geth's IsEIP4844. */
export function isBlobTransaction(raw: unknown): boolean {
  const t = transactionArgsArg(raw, 0);
  return t.blobVersionedHashes !== undefined || t.maxFeePerBlobGas !== undefined;
}

/** eth_signTransaction's (and personal_signTransaction's) answer: `{raw, tx}`. */
/** geth's SignTransactionResult: the raw tx and types.Transaction's JSON of it. */
export function signTransactionResult(tx: TypedTransaction): { raw: string; tx: Record<string, unknown> } {
  return { raw: hexD(tx.serialize()), tx: gethTxJSON(tx) };
}

/** accounts.TextHash: keccak256("\x19Ethereum Signed Message:\n" + len(data) + data). */
export function textHash(data: Uint8Array): Uint8Array {
  return keccak256(Buffer.concat([Buffer.from(`\x19Ethereum Signed Message:\n${data.length}`), data]));
}

/** eth_sign / personal_sign: secp256k1 over textHash(data), v = 27/28. */
/** eth_sign: `data` signed as geth signs text, by the wallet holding `a` (a dev key, or a keystore key while unlocked). */
export function signText(be: EvmBackend, a: string, data: Uint8Array): string {
  const key = accountsCall(() => be.accountManager.unlockedKey(be.accountManager.find(a)));
  return hexD(personalSign(key, data));
}

export function personalSign(key: Uint8Array, data: Uint8Array): Uint8Array {
  const { signature, recid } = nativeSecp().ecdsaSign(textHash(data), key);
  const out = new Uint8Array(65);
  out.set(signature, 0);
  out[64] = recid + 27;
  return out;
}

/** eth_getTransactionReceipt's answer for a tx hash (0x hex): null while it is not mined. */
export function transactionReceipt(be: EvmBackend, hash: string): Record<string, unknown> | null {
  const chain = be.chain;
  const found = chain.findTx(hexToBytes(hash));
  if (!found) return null;
  const { block, index } = found;
  const tx = chain.txsOf(block)[index];
  return receiptJSON(tx, hexD(block.senders[index]), chain.receipts(block)[index], block, index, logIndexBase(be, block, index), keccak256);
}
