// The chain's method table: the services listed in `eth-apis` (§1.2), the eth-filter methods,
// and the test controls (with Otterscan's ots_*, Parity's trace_*, eth_simulateV1 and
// eth_signTypedData_v4) unless the chain config turns them off.
import type { RpcMethod } from '../rpc/server.js';
import { RpcError, goKind } from '../rpc/server.js';
import type { EvmBackend } from './backend.js';
import { ethMethods, type MethodTable } from './eth.js';
import { debugMethods } from './debug.js';
import { debugStateMethods } from './debugState.js';
import { testControlMethods } from './testControls.js';
import { otterscanMethods } from './otterscan.js';
import { parityTraceMethods } from './parityTrace.js';
import { simulateMethods } from './simulate.js';
import { accountInfoMethods } from './accountInfo.js';
import { syncSendMethods } from './syncSend.js';
import { typedDataMethods } from './typedData.js';
import { debugHandlerMethods } from './debugHandler.js';
import { fileTracerMethods } from './fileTracer.js';
import { chainAdminMethods } from './chainAdmin.js';
import { personalMethods } from './personal.js';
import { getLogs, parseLogCriteria, type EvmSubscriptions } from './filters.js';
import { bool, required } from './args.js';
import { checkArgs } from '../rpc/params.js';

/**
 * geth's rpc.ID, a plain Go string type: encoding/json's own errors name the JSON kind
 * (`cannot unmarshal number into Go value of type rpc.ID`), and null leaves it "" (no filter).
 */
function filterId(v: unknown): string {
  if (v === null) return '';
  if (typeof v !== 'string') throw new RpcError(-32602, `invalid argument 0: json: cannot unmarshal ${goKind(v)} into Go value of type rpc.ID`);
  return v;
}

export function filterMethods(be: EvmBackend, subs: EvmSubscriptions): MethodTable {
  const m: MethodTable = new Map();
  m.set('eth_getLogs', (p) => getLogs(be, parseLogCriteria(required(p, 0), 0)));
  m.set('eth_newFilter', (p) => subs.newFilter(parseLogCriteria(required(p, 0), 0)));
  m.set('eth_newBlockFilter', () => subs.newBlockFilter());
  // geth's NewPendingTransactionFilter(fullTx *bool): with true, the changes are the txs themselves.
  m.set('eth_newPendingTransactionFilter', (p) => subs.newPendingTransactionFilter(p[0] === undefined || p[0] === null ? false : bool(p[0], 0)));
  m.set('eth_getFilterChanges', (p) => subs.changes(filterId(required(p, 0))));
  m.set('eth_getFilterLogs', (p) => subs.logs(filterId(required(p, 0))));
  m.set('eth_uninstallFilter', (p) => subs.uninstall(filterId(required(p, 0))));
  return m;
}

/** geth's positional-argument counts (optional ones included): more → `too many arguments`. */
const MAX_ARGS: Record<string, number> = {
  debug_verbosity: 1, debug_vmodule: 1, debug_memStats: 0, debug_gcStats: 0, debug_cpuProfile: 2, debug_startCPUProfile: 1, debug_stopCPUProfile: 0, debug_goTrace: 2, debug_startGoTrace: 1, debug_stopGoTrace: 0, debug_blockProfile: 2, debug_setBlockProfileRate: 1, debug_writeBlockProfile: 1, debug_mutexProfile: 2, debug_setMutexProfileFraction: 1, debug_writeMutexProfile: 1, debug_writeMemProfile: 1, debug_stacks: 1, debug_freeOSMemory: 0, debug_setGCPercent: 1,
  eth_chainId: 0, eth_blockNumber: 0, eth_gasPrice: 0, eth_baseFee: 0, eth_maxPriorityFeePerGas: 0, eth_syncing: 0,
  eth_accounts: 0, eth_coinbase: 0, eth_etherbase: 0, eth_getChainConfig: 0, eth_getBadBlocks: 0, eth_pendingTransactions: 0,
  net_listening: 0, net_peerCount: 0, net_version: 0, web3_clientVersion: 0, web3_sha3: 1,
  eth_getBalance: 2, eth_getCode: 2, eth_getStorageAt: 3, eth_getProof: 3, eth_getTransactionCount: 2,
  eth_getBlockByNumber: 2, eth_getBlockByHash: 2, eth_getHeaderByNumber: 1, eth_getHeaderByHash: 1,
  eth_getUncleByBlockNumberAndIndex: 2, eth_getUncleByBlockHashAndIndex: 2, eth_getUncleCountByBlockNumber: 1, eth_getUncleCountByBlockHash: 1,
  eth_getBlockReceipts: 1, eth_call: 4, eth_estimateGas: 3, eth_createAccessList: 2, eth_callDetailed: 3, eth_feeConfig: 1,
  eth_getActiveRulesAt: 1, eth_getActivePrecompilesAt: 1, eth_feeHistory: 3,
  eth_getBlockTransactionCountByNumber: 1, eth_getBlockTransactionCountByHash: 1,
  eth_getTransactionByBlockNumberAndIndex: 2, eth_getTransactionByBlockHashAndIndex: 2,
  eth_getRawTransactionByBlockNumberAndIndex: 2, eth_getRawTransactionByBlockHashAndIndex: 2,
  eth_getTransactionByHash: 1, eth_getRawTransactionByHash: 1, eth_getTransactionReceipt: 1, eth_sendRawTransaction: 1,
  eth_sendTransaction: 1, eth_fillTransaction: 1, eth_sign: 2, eth_signTransaction: 1, eth_resend: 3,
  eth_getLogs: 1, eth_newFilter: 1, eth_newBlockFilter: 0, eth_newPendingTransactionFilter: 1, eth_getFilterChanges: 1,
  eth_getFilterLogs: 1, eth_uninstallFilter: 1,
  txpool_content: 0, txpool_contentFrom: 1, txpool_status: 0, txpool_inspect: 0,
  debug_traceTransaction: 2, debug_traceCall: 3, debug_traceBlockByNumber: 2, debug_traceBlockByHash: 2, debug_intermediateRoots: 2, debug_traceBadBlock: 2, debug_storageRangeAt: 5, debug_getBadBlocks: 0, debug_preimage: 1, debug_getModifiedAccountsByNumber: 2, debug_getModifiedAccountsByHash: 2, debug_dumpBlock: 1, debug_accountRange: 6, debug_getAccessibleState: 2,
  debug_getRawHeader: 1, debug_getRawBlock: 1, debug_getRawReceipts: 1, debug_getRawTransaction: 1, debug_printBlock: 1,
  debug_traceBlockFromFile: 2, debug_standardTraceBlockToFile: 2, debug_standardTraceBadBlockToFile: 2, admin_exportChain: 3, admin_importChain: 1,
  personal_listAccounts: 0, personal_listWallets: 0, personal_openWallet: 2, personal_deriveAccount: 3, personal_newAccount: 1, personal_importRawKey: 2, personal_unlockAccount: 3, personal_lockAccount: 1, personal_sendTransaction: 2, personal_signTransaction: 2, personal_sign: 3, personal_ecRecover: 2, personal_initializeWallet: 1, personal_unpair: 2,
};

function withArgLimit(name: string, m: RpcMethod): RpcMethod {
  const max = MAX_ARGS[name];
  if (max === undefined) return m;
  return (params, ctx) => {
    checkArgs(params, max);
    return m(params, ctx);
  };
}

export function buildMethodTable(be: EvmBackend, subs: EvmSubscriptions): Map<string, RpcMethod> {
  const services: Record<string, MethodTable> = {
    ...ethMethods(be),
    ...debugMethods(be),
    debug: debugStateMethods(be),
    'eth-filter': filterMethods(be, subs),
    'debug-handler': debugHandlerMethods(be),
    'debug-file-tracer': fileTracerMethods(be),
    admin: chainAdminMethods(be),
    'internal-personal': personalMethods(be),
  };
  const out = new Map<string, RpcMethod>();
  for (const name of be.config.ethApis) {
    const s = services[name];
    if (s) for (const [k, v] of s) out.set(k, withArgLimit(k, v));
  }
  if (be.config.testControls) {
    for (const [k, v] of testControlMethods(be)) out.set(k, v);
    // Otterscan's ots_* (otterscan.md): the explorer people run against Anvil's dev chains.
    for (const [k, v] of otterscanMethods(be)) out.set(k, v);
    // Parity's trace_* (parityTrace.md), as Anvil serves them: a real Subnet-EVM node has none.
    for (const [k, v] of parityTraceMethods(be)) out.set(k, v);
    // eth_simulateV1 (simulate.md): geth's and Anvil's multi-block simulation, which Subnet-EVM lacks.
    for (const [k, v] of simulateMethods(be)) out.set(k, v);
    // Anvil's eth_getAccount / eth_getAccountInfo (accountInfo.ts): the account in one read.
    for (const [k, v] of accountInfoMethods(be)) out.set(k, v);
    // EIP-7966's eth_sendRawTransactionSync / eth_sendTransactionSync (syncSend.ts): the receipt as the answer.
    for (const [k, v] of syncSendMethods(be)) out.set(k, v);
    // eth_signTypedData_v4 and personal_sign (typedData.ts): the dev nodes' signing methods.
    // (personal_sign only where internal-personal does not serve geth's.)
    for (const [k, v] of typedDataMethods(be)) if (!out.has(k)) out.set(k, v);
  }
  for (const [k, v] of out) out.set(k, afterAutomine(be, k, v));
  return out;
}

/**
 * Every method runs once the automine is idle: eth_sendRawTransaction answers before its block
 * is built (backend.submit), and a request that follows the answer must see that block.
 * eth_sendRawTransaction itself waits only for a block being built, not for one being written
 * to disk: the pool checks it against the head and the txs it still holds (Miner.admissionOpen),
 * so one sender's back-to-back transactions do not each wait for a disk sync. (eth_sendTransaction
 * keeps the full wait: it estimates gas on the state, which must hold the sender's earlier txs.)
 */
function afterAutomine(be: EvmBackend, name: string, m: RpcMethod): RpcMethod {
  const miner = be.miner;
  if (name === 'eth_sendRawTransaction') {
    return (params, ctx) => (miner.admissionBlocked ? miner.admissionOpen().then(() => m(params, ctx)) : m(params, ctx));
  }
  return (params, ctx) => (miner.busy ? miner.settled().then(() => m(params, ctx)) : m(params, ctx));
}
