// Subnet-EVM's block rules as the builder, pool and RPC need them — the glue between the chain
// and the fee module (src/evm/fees), the chain config's rules (src/evm/config) and the stateful
// precompiles (src/evm/precompiles): fee config at a parent (§7.3), child header fields (§7.4–7.7,
// §9.1), coinbase (§8.7), precompile activation at block start (§6.4), TxAllowList (§8.4).
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Account, Address } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import {
  blockGasCost,
  childExtraData,
  childMinDelayExcess,
  delayMsFromExcess,
  estimateNextBaseFee,
  nextBaseFee,
  verifyBlockFee,
  verifyFeeConfig,
  DEFAULT_FEE_CONFIG,
  type FeeConfig,
  type ForkSchedule,
} from '../fees/index.js';
import { isForkActive } from '../config/networkUpgrades.js';
import { precompileActivations, stateUpgradesAt, type ChainConfig } from '../config/chainConfig.js';
import {
  activatePrecompile,
  deactivatePrecompile,
  builderCoinbase,
  checkTxAllowed,
  coinbaseRule,
  configureEVM,
  readFeeConfig,
  txInvalidation,
  FEE_MANAGER_ADDRESS,
  type CoinbaseRule,
  type PrecompileEnv,
  type PrecompileRules,
} from '../precompiles/index.js';
import type { Block } from './blockchain.js';
import type { ChainHeader } from './header.js';
import { timeMs } from './header.js';
import type { StoredReceipt } from './store.js';
import { processBeaconBlockRoot } from './beaconRoot.js';
import { execBlock } from './exec.js';
import type { PoolHead } from '../txpool/pool.js';
import { effectiveTip } from '../txpool/pool.js';

export interface Rules extends PrecompileRules {
  isSubnetEVM: boolean;
  isDurango: boolean;
  isEtna: boolean;
  isGranite: boolean;
}

/** What the chain needs from the chain config. */
export interface ChainRulesView extends ForkSchedule {
  chainId: bigint;
  rulesAt(timestamp: bigint): Rules;
  genesisFeeConfig: FeeConfig;
  allowFeeRecipients: boolean;
  /** The parsed chain config (genesis + upgrade.json). */
  cfg: ChainConfig;
  /** VM config `min-delay-target` (ms) → desired excess, or null. */
  desiredMinDelayExcess: bigint | null;
}

export interface ChildFields {
  timestamp: bigint;
  timestampMilliseconds?: bigint;
  minDelayExcess?: bigint;
  baseFee?: bigint;
  gasLimit: bigint;
  coinbase: Uint8Array;
  feeConfig: FeeConfig;
  /** Fee window for extraData (null before SubnetEVM). */
  window: bigint[] | null;
}

const hexToBytes = (h: string) => Buffer.from(h.replace(/^0x/, ''), 'hex');
function stripZeros(v: Uint8Array): Uint8Array {
  let i = 0;
  while (i < v.length && v[i] === 0) i++;
  return v.subarray(i);
}

export class Consensus {
  constructor(
    readonly rules: ChainRulesView,
    readonly env: PrecompileEnv,
    /** A read-only state view of a block. */
    private readonly stateAt: (b: Block) => MerkleStateManager,
    /** The node's fee recipient (config.json `feeRecipient`; anvil_setCoinbase changes it). */
    public feeRecipient: string | undefined,
    /** The account at a block's state if a cache holds it without a trie read (an absent one is empty). */
    private readonly cachedAccount?: (b: Block, addrHex: string) => Account | undefined,
  ) {}

  /** The rules at `ts` (the chain's rules view keeps them: config/chainConfig.ts, cachedRulesAt). */
  rulesAt(ts: bigint): Rules {
    return this.rules.rulesAt(ts);
  }

  /**
   * Fee config governing the child of `parent` (§7.3), with FeeManager's lastChangedAt. The
   * parent's state is read (its view made) only when FeeManager is enabled.
   */
  async feeConfigAfter(parent: Block): Promise<{ feeConfig: FeeConfig; lastChangedAt?: bigint }> {
    const pr = this.rulesAt(parent.header.timestamp);
    if (!pr.isSubnetEVM) return { feeConfig: DEFAULT_FEE_CONFIG };
    if (!pr.precompiles.has(FEE_MANAGER_ADDRESS)) return { feeConfig: this.rules.genesisFeeConfig, lastChangedAt: 0n };
    const stored = await readFeeConfig(this.stateAt(parent));
    // GetFeeConfigAt verifies what it reads: the storage may have been edited (state upgrades),
    // and an invalid config is an error (eth_feeConfig answers the §7.2 text; no block is built).
    verifyFeeConfig({ ...stored.feeConfig });
    return stored;
  }

  /** Earliest time (ms) of a child of `parent`: Granite min delay; pre-Granite the same second. */
  minChildMs(parent: Block): bigint {
    const p = parent.header;
    if (p.minDelayExcess !== undefined) return timeMs(p) + delayMsFromExcess(p.minDelayExcess);
    return p.timestamp * 1000n;
  }

  /** The child's header fields (the parent's state is read only under FeeManager or RewardManager). */
  async childFields(parent: Block, childMs: bigint): Promise<ChildFields> {
    const p = parent.header;
    const timestamp = childMs / 1000n;
    const rules = this.rulesAt(timestamp);
    const { feeConfig } = await this.feeConfigAfter(parent);
    const fees = nextBaseFee(this.rules, feeConfig, p, timestamp);
    const f: ChildFields = {
      timestamp,
      gasLimit: rules.isSubnetEVM ? feeConfig.gasLimit : p.gasLimit,
      baseFee: fees?.baseFee,
      window: fees?.window ?? null,
      feeConfig,
      coinbase: new Uint8Array(20),
    };
    if (rules.isGranite) {
      f.timestampMilliseconds = childMs;
      f.minDelayExcess = childMinDelayExcess(p.minDelayExcess, this.rules.desiredMinDelayExcess);
    }
    f.coinbase = hexToBytes(builderCoinbase(await this.coinbaseRuleAfter(parent), this.feeRecipient));
    return f;
  }

  /** Who a child of `parent` may pay its fees to (§8.7: allowFeeRecipients, or the RewardManager's setting). */
  coinbaseRuleAfter(parent: Block): Promise<CoinbaseRule> {
    return coinbaseRule(() => this.stateAt(parent), this.rulesAt(parent.header.timestamp), this.rules.allowFeeRecipients);
  }

  /**
   * Block start (§6.4, §9.1): precompile activations (by ascending address), then state
   * upgrades, then the EVM is wired for the block's rules, then EIP-4788's beacon-root call.
   */
  async onBlockStart(vm: VM, sm: MerkleStateManager, parent: Block, header: ChainHeader, feeConfig: FeeConfig): Promise<void> {
    void feeConfig;
    await this.activations(sm, parent.header.timestamp, header.timestamp, header.number);
    for (const up of stateUpgradesAt(this.rules.cfg, parent.header.timestamp, header.timestamp)) {
      for (const [addr, change] of up.accounts) {
        const a = new Address(hexToBytes(addr));
        const acc = (await sm.getAccount(a)) ?? new Account();
        if (change.balanceChange !== undefined) acc.balance = BigInt.asUintN(256, acc.balance + change.balanceChange);
        // Only a non-empty code is applied (Go: len(code) != 0); EIP-161: code accounts have nonce ≥ 1.
        const code = change.code !== undefined && change.code.length > 0 ? change.code : undefined;
        if (code && acc.nonce === 0n) acc.nonce = 1n;
        await sm.putAccount(a, acc);
        if (code) await sm.putCode(a, code);
        for (const [k, v] of change.storage ?? []) await sm.putStorage(a, hexToBytes(k), stripZeros(hexToBytes(v)));
        // Every upgraded account is dirty in Go's state, whose Finalise (EIP-158) deletes one left
        // empty — no nonce, balance or code — storage and all: a storage-only upgrade of a fresh
        // address leaves nothing.
        if ((await sm.getAccount(a))?.isEmpty()) await sm.deleteAccount(a);
      }
    }
    configureEVM(vm.evm as never, this.rulesAt(header.timestamp), this.env);
    await processBeaconBlockRoot(vm, header, execBlock(header, vm.common));
  }

  private async activations(sm: MerkleStateManager, parentTime: bigint | undefined, blockTime: bigint, blockNumber: bigint): Promise<void> {
    const ctx = { blockNumber, feeConfig: this.rules.genesisFeeConfig, allowFeeRecipients: this.rules.allowFeeRecipients };
    for (const act of precompileActivations(this.rules.cfg, parentTime, blockTime)) {
      if (act.config.disable) await deactivatePrecompile(sm, act.key as never);
      else await activatePrecompile(sm, act.config as never, ctx);
    }
  }

  /** Genesis state: precompiles active at genesis time (before alloc, §5.1). */
  async genesisActivations(sm: MerkleStateManager, genesisTime: bigint): Promise<void> {
    await this.activations(sm, undefined, genesisTime, 0n);
  }

  /** For eth_call / tracing: the precompiles of the block's rules. */
  async prepareVM(vm: VM, header: ChainHeader, _block: Block): Promise<void> {
    configureEVM(vm.evm as never, this.rulesAt(header.timestamp), this.env);
  }

  /** TxAllowList at block building (state before the tx). Throws the reference text. */
  async checkTxAllowed(sm: MerkleStateManager, from: Address, header: ChainHeader): Promise<void> {
    const err = await checkTxAllowed(sm, this.rulesAt(header.timestamp), from.toString());
    if (err) throw new Error(err);
  }

  /** After the txs: block gas cost, extraData, and the block-fee check (§7.6). */
  finishHeader(parent: Block, header: ChainHeader, feeConfig: FeeConfig, txs: TypedTransaction[], receipts: StoredReceipt[]): { blockGasCost?: bigint; extraData: Uint8Array; window: bigint[] | null } {
    const cost = blockGasCost(this.rules, feeConfig, parent.header, header.timestamp);
    if (cost !== null) {
      verifyBlockFee(
        header.baseFee,
        cost,
        txs.map((tx, i) => ({ effectiveTip: effectiveTip(tx, header.baseFee ?? 0n), gasUsed: receipts[i].gasUsed })),
      );
    }
    return { blockGasCost: cost ?? undefined, extraData: new Uint8Array(), window: null };
  }

  extraData(window: bigint[] | null, timestamp: bigint, predicateResults?: Uint8Array): Uint8Array {
    return childExtraData(this.rules, window, timestamp, predicateResults);
  }

  invalidTxReason(vm: VM): string | undefined {
    return txInvalidation(vm.evm as never) ?? undefined;
  }

  async estimateNextBaseFee(head: Block, nowMs: bigint): Promise<bigint | undefined> {
    // The gas price oracle estimates nothing when the head itself has no base fee (pre-SubnetEVM).
    if (head.header.baseFee === undefined) return undefined;
    const fc = await this.headFeeConfig(head);
    return estimateNextBaseFee(this.rules, fc, head.header, timeMs(head.header), nowMs) ?? undefined;
  }

  /**
   * The fee config after the head (GetFeeConfigAt(head)), read once per head. An invalid stored
   * FeeManager config rejects with its validation error, as the oracle's `estimateNextBaseFee`
   * (eth_baseFee, eth_gasPrice, a transaction's default fee cap) answers it in Subnet-EVM.
   */
  private fcCache?: { hash: string; fc: Promise<FeeConfig> };
  headFeeConfig(head: Block): Promise<FeeConfig> {
    if (this.fcCache?.hash !== head.hashHex) {
      this.fcCache = { hash: head.hashHex, fc: this.feeConfigAfter(head).then((r) => r.feeConfig) };
    }
    return this.fcCache.fc;
  }
  /** The pool's fee floor: the last head whose fee config could be read (Subnet-EVM's pool logs the error and keeps its minimum). */
  private poolMinBaseFee?: bigint;

  /**
   * Facts the tx pool validates against, at the last accepted block. Accounts come from the flat
   * cache when it holds them (after a block, every account the block wrote); the head's read view
   * is made only for a read the cache cannot answer.
   */
  async poolHead(head: Block): Promise<PoolHead> {
    try {
      this.poolMinBaseFee = (await this.headFeeConfig(head)).minBaseFee;
    } catch {
      this.poolMinBaseFee ??= (this.rulesAt(head.header.timestamp).isSubnetEVM ? this.rules.genesisFeeConfig : DEFAULT_FEE_CONFIG).minBaseFee;
    }
    const rules = this.rulesAt(head.header.timestamp);
    let view: MerkleStateManager | undefined;
    const state = () => (view ??= this.stateAt(head));
    const account = async (a: Address) => this.cachedAccount?.(head, a.toString()) ?? (await state().getAccount(a));
    return {
      gasLimit: head.header.gasLimit,
      minBaseFee: this.poolMinBaseFee,
      isDurango: rules.isDurango,
      getNonce: async (a) => (await account(a))?.nonce ?? 0n,
      getBalance: async (a) => (await account(a))?.balance ?? 0n,
      checkSender: async (a) => {
        const err = await checkTxAllowed(state, rules, a.toString());
        if (err) throw new Error(err);
      },
    };
  }

  isGraniteAt(ts: bigint): boolean {
    return isForkActive(this.rules.networkUpgrades.graniteTimestamp, ts);
  }
}

export { Address };
