// A Subnet-EVM chain instance (ChainVM): genesis, storage, pool, miner, and the JSON-RPC method
// table served on /rpc and /ws.
import type { ChainContext, ChainVM } from '../vms/types.js';
import type { RouteHandler } from '../server/router.js';
import { RpcError, createEthRpcHandlers, type EthRpcHandlers, type RpcMethod } from './rpc/server.js';
import { parseGenesis, genesisHeader, genesisAirdrop, cachedRulesAt, type Genesis } from './config/index.js';
import { checkConfigCompatible } from './config/compat.js';
import { Blockchain } from './chain/blockchain.js';
import { writeGenesisState } from './chain/genesisState.js';
import { genesisStateKey } from './chain/genesisMemo.js';
import { precompileActivations } from './config/chainConfig.js';
import { Consensus, type ChainRulesView, type Rules } from './chain/consensus.js';
import { DEV_MNEMONIC, devAccounts, type DevAccount } from './chain/devAccounts.js';
import { TxPool } from './txpool/pool.js';
import { BlockBuilder } from './miner/builder.js';
import { ChainClock, Miner } from './miner/miner.js';
import { EvmBackend } from './api/backend.js';
import { devAccountCount, parseVmConfig } from './api/vmConfig.js';
import { buildMethodTable } from './api/methods.js';
import { EvmSubscriptions } from './api/filters.js';
import { desiredMinDelayExcess } from './fees/index.js';
import { NODE_VERSION } from '../api/info/version.js';
import { WarpChain, registerWarp } from '../warp/chain.js';
import { vmConfigJSON } from './admin/vmConfigJson.js';
import { startChainProfiler } from './admin/continuousProfiler.js';
import { gethLevel } from './admin/vmLogger.js';
import { chainAdminService } from './admin/service.js';

export const SUBNET_EVM_VERSION = 'v0.8.0';

/** Number of mnemonic accounts of the dev chain (node flag --dev-accounts, default 10). */
export { devAccountCount } from './api/vmConfig.js';

function idBytes(cb58: string): Uint8Array {
  // CB58: base58 of (32 bytes ‖ 4-byte checksum).
  const ALPHA = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = 0n;
  for (const c of cb58) {
    const v = ALPHA.indexOf(c);
    if (v < 0) return new Uint8Array(32);
    n = n * 58n + BigInt(v);
  }
  const hex = n.toString(16).padStart(72, '0');
  return Buffer.from(hex.slice(0, 64), 'hex');
}

/**
 * `warp-off-chain-messages` of config.json as bytes (Go: []hexutil.Bytes; parseVmConfig has checked
 * each element's hex, `""` being empty bytes); the messages themselves are checked by the warp backend.
 */
function offChainMessages(file: Record<string, unknown>): Uint8Array[] {
  const v = file['warp-off-chain-messages'] as string[] | null | undefined;
  return (v ?? []).map((x) => new Uint8Array(Buffer.from(x.slice(2), 'hex')));
}

export async function createSubnetEVMChain(ctx: ChainContext): Promise<ChainVM> {
  const vmConfig = parseVmConfig(ctx.config, ctx.options);
  // Subnet-EVM's config struct, defaults filled in (admin.getVMConfig); parseVmConfig has decoded it.
  const fullConfig = vmConfigJSON(vmConfig.file, { 'eth-apis': vmConfig.file['eth-apis'] ?? vmConfig.ethApis, 'preimages-enabled': vmConfig.preimagesEnabled });
  const warpOffChainMessages = offChainMessages(vmConfig.file);
  try {
    ctx.log.sourceLevel = gethLevel(fullConfig['log-level']);
  } catch (e) {
    throw new Error(`failed to parse log level: ${(e as Error).message} `);
  }
  // config.json's `airdrop`: a file path (a Go string, checked by parseVmConfig; null is "").
  const airdrop = String(fullConfig.airdrop ?? '');
  const genesis: Genesis = parseGenesis(ctx.genesis, ctx.networkID, ctx.upgrade, airdrop);
  const cfg = genesis.config;
  const rulesView: ChainRulesView = {
    chainId: cfg.chainId,
    networkUpgrades: cfg.networkUpgrades,
    rulesAt: cachedRulesAt(cfg),
    genesisFeeConfig: cfg.feeConfig,
    allowFeeRecipients: cfg.allowFeeRecipients,
    cfg,
    desiredMinDelayExcess: vmConfig.minDelayTarget === undefined ? null : desiredMinDelayExcess(vmConfig.minDelayTarget),
  };
  const chain = new Blockchain(ctx.db, rulesView, vmConfig.txIndex);
  if (ctx.defaultGenesis) genesis.timestamp = devGenesisTime(chain, genesis.timestamp, ctx.node.now());
  chain.state.recordPreimages = vmConfig.preimagesEnabled;
  // Warp (src/warp/chain.ts): predicates, accept hook and warp_* API, found by the builder via warpOf(chain).
  const warp = new WarpChain({
    ctx,
    rulesAt: (ts) => rulesView.rulesAt(ts),
    isAccepted: (h) => { const b = chain.blockByHash(h); return !!b && chain.isCanonical(b); },
    offChainMessages: warpOffChainMessages,
  });
  registerWarp(chain, warp);
  // anvil_impersonateSignature's registrations (src/evm/precompiles/ecrecoverOverrides.ts), on a chain with the test controls.
  const precompileEnv = { networkID: ctx.networkID, blockchainID: idBytes(ctx.chainID), signatureOverrides: vmConfig.testControls ? new Map<string, Uint8Array>() : undefined };
  const consensus = new Consensus(rulesView, precompileEnv, (b) => chain.readView(b), vmConfig.feeRecipient, (b, a) => chain.cachedAccount(b, a));
  // The upgrade bytes (upgrade.json) the chain last ran with: written with the genesis block on a
  // first start, and after that only when they change (each write is a durable commit of its own).
  const storedUpgrade = chain.store.meta();
  const upgrade = ctx.upgrade ?? new Uint8Array();
  const upgradeOp = chain.store.metaOp(upgrade);
  // Checked at every start, as Subnet-EVM rebuilds the genesis block at every start.
  const airdropAddresses = genesisAirdrop(genesis);
  // Made only when the genesis block is written: a restart reads its state from the database.
  const stateKey = () =>
    genesisStateKey({
      genesis: ctx.genesis,
      networkID: ctx.networkID,
      upgrade: ctx.upgrade,
      airdrop: airdropAddresses,
      activations: precompileActivations(cfg, undefined, genesis.timestamp),
      recordPreimages: chain.state.recordPreimages,
    });
  const created = await chain.init(
    (sm) => writeGenesisState(sm, genesis, airdropAddresses, (s) => consensus.genesisActivations(s, genesis.timestamp)),
    (root) => genesisHeader(genesis, root),
    [upgradeOp],
    stateKey,
  );
  // §4.4: upgrades at or before the last accepted block may not move between restarts.
  if (storedUpgrade !== undefined && !vmConfig.skipUpgradeCheck) {
    const stored = parseGenesis(ctx.genesis, ctx.networkID, storedUpgrade.length ? storedUpgrade : undefined).config;
    const err = checkConfigCompatible(stored, cfg, chain.head.header.number, chain.head.header.timestamp);
    if (err) throw new Error(err);
  }
  if (!created && (storedUpgrade === undefined || Buffer.compare(storedUpgrade, upgrade) !== 0)) await chain.store.write([upgradeOp]);
  const pool = new TxPool(vmConfig.txPoolLimits);
  const builder = new BlockBuilder(chain, consensus, pool, ctx.log);
  const clock = new ChainClock(() => ctx.node.now());
  const miner = new Miner(chain, pool, builder, clock, (p) => consensus.minChildMs(p), ctx.log, `chain ${ctx.primaryAlias} block builder`);
  const accounts: DevAccount[] = ctx.options.dev === true ? devAccounts(undefined, devAccountCount(ctx.options)) : [];
  const backend = new EvmBackend(chain, pool, miner, consensus, vmConfig, accounts, ctx.log, vmConfig.clientVersion ?? 'v' + NODE_VERSION.split('/')[1], builder, genesis, ctx);
  if (vmConfig.blockTimeMs > 0) {
    miner.automine = false;
    miner.setIntervalMining(vmConfig.blockTimeMs);
  }
  const subscriptions = new EvmSubscriptions(backend);
  const methods: Map<string, RpcMethod> = buildMethodTable(backend, subscriptions);
  if (warp.apiEnabled) for (const [k, v] of warp.methods()) methods.set(k, v);
  methods.set('rpc_modules', rpcModules(methods));
  let handlers: EthRpcHandlers | undefined;
  const admin =
    vmConfig.file['admin-api-enabled'] === true
      ? chainAdminService({ adminApiDir: String(fullConfig['admin-api-dir']), primaryAlias: ctx.primaryAlias, log: ctx.log, vmConfig: () => fullConfig })
      : undefined;
  // Started last, once nothing else can fail: geth checks for stale queued txs every minute; a
  // shorter tx-pool-lifetime is checked every half lifetime, so a test with "1s" sees the eviction
  // within a second.
  const evictTimer = setInterval(() => pool.evictStale(), Math.min(60_000, Math.max(50, vmConfig.txPoolLimits.lifetimeMs / 2)));
  evictTimer.unref();
  const chainProfiler = startChainProfiler(vmConfig.file, ctx.log);

  return {
    createHandlers() {
      handlers = createEthRpcHandlers({
        methods,
        subscriptions,
        batchRequestLimit: vmConfig.batchRequestLimit,
        batchResponseMaxSize: vmConfig.batchResponseMaxSize,
        bodyLimit: vmConfig.httpBodyLimit,
        log: ctx.log,
      });
      const routes: Record<string, RouteHandler> = { '/rpc': handlers.rpc, '/ws': handlers.ws };
      if (admin) routes['/admin'] = ctx.rpc.gorilla('admin', admin.service);
      return routes;
    },
    health() {
      return { lastAcceptedHeight: Number(chain.head.header.number), lastAcceptedHash: chain.head.hashHex };
    },
    banner(urls) {
      const lines = [`Subnet-EVM chain ${ctx.primaryAlias}: chain id ${cfg.chainId}, RPC ${urls.rpc}`];
      if (accounts.length) {
        lines.push('Prefunded accounts (mnemonic "test test test test test test test test test test test junk", m/44\'/60\'/0\'/0/i, and the ewoq key):');
        accounts.forEach((a, i) => lines.push(`  (${i}) ${a.address}  ${a.privateKey}`));
      }
      return lines;
    },
    async shutdown() {
      clearInterval(evictTimer);
      miner.close();
      subscriptions.close();
      handlers?.close();
      await admin?.close();
      await chainProfiler?.shutdown();
      // Let an in-flight block write finish before the database closes.
      const release = await miner.lock.acquire();
      release();
      backend.close(); // unlocked keys dropped, an ephemeral keystore directory removed
    },
  };
}

/**
 * geth's rpc_modules (the server's own "rpc" service): every namespace the chain serves, each at
 * version "1.0", keys sorted as Go encodes a map.
 */
function rpcModules(methods: Map<string, RpcMethod>): RpcMethod {
  const names = new Set(['rpc']);
  for (const k of methods.keys()) names.add(k.slice(0, k.indexOf('_')));
  const answer = Object.fromEntries([...names].sort().map((n) => [n, '1.0']));
  return (params) => {
    if (params.length > 0) throw new RpcError(-32602, 'too many arguments, want at most 0');
    return answer;
  };
}

/**
 * The default dev genesis's time: when its database was made (memdb: every start), so that the
 * latest block at start is "now", as on Hardhat and Anvil — a test that reads the latest block's
 * time before its first transaction (Hardhat's sample Lock: `time.latest()` + 1 year) would
 * otherwise get 2020, and its first block years later. Only the genesis block carries it: the chain
 * ID comes from the definition's genesis (the upgrades' fixed times), and once made the genesis
 * block is read back at every start. Never before `fixed`, where every upgrade is already active.
 */
function devGenesisTime(chain: Blockchain, fixed: bigint, nowMs: number): bigint {
  const hash = chain.store.canonicalHash(0n);
  const stored = hash && chain.blockByHash(hash);
  if (stored) return stored.header.timestamp;
  const now = BigInt(Math.floor(nowMs / 1000));
  return now > fixed ? now : fixed;
}

