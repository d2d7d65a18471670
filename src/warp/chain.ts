// Warp inside one Subnet-EVM chain: the object the chain's code calls at a few hook points.
//   - pool admission / eth_call: prepareTx() gives the tx Subnet-EVM's intrinsic gas (predicate gas)
//     and rejects malformed predicates with the real texts;
//   - block building: startBlock() makes the VM verify each tx's warp predicates right before the
//     tx runs (the precompile reads them), and predicateResults() gives extraData[80:];
//   - eth_call: startCall() exposes the call's predicates as valid, unverified — what Subnet-EVM
//     does, since the queried header holds no results for a tx that is not in it;
//   - acceptance: acceptOps() stores every SendWarpMessage of the block in the block's own write;
//   - API: methods() is the `warp` namespace for the chain's /rpc (`warp-api-enabled`).
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import type { ChainContext } from '../vms/types.js';
import { idToString } from '../ids/ids.js';
import type { RpcMethod } from '../evm/rpc/server.js';
import { WarpBackend } from './backend.js';
import { warpMethods } from './api.js';
import { vmConfigValue } from '../evm/admin/vmConfigJson.js';
import {
  applyWarpIntrinsicGas,
  checkTxPredicates,
  decodePredicateResults,
  encodePredicateResults,
  predicateGas,
  setTxPredicates,
  warpEnabled,
  warpTuples,
  WARP_ADDRESS,
  type PredicateRules,
  type PredicateVerifier,
} from './predicates.js';

/** topic0 of SendWarpMessage(address indexed sender, bytes32 indexed messageID, bytes message). */
export const SEND_WARP_MESSAGE_TOPIC = '56600c567728a800c0aa927500f831cb451df66a7af570eb4df4dfbf4674887d';
const WARP_ADDRESS_BYTES = Buffer.from(WARP_ADDRESS.slice(2), 'hex');

/** The parts of an @ethereumjs VM used here. */
interface VMLike {
  evm: object;
  events: { on(event: 'beforeTx', fn: (tx: TxLike) => void): unknown };
}
interface TxLike {
  hash(): Uint8Array;
}

export interface WarpChainDeps {
  ctx: Pick<ChainContext, 'chainID' | 'subnetID' | 'networkID' | 'db' | 'config' | 'options' | 'node'>;
  /** The chain's rules at a timestamp (src/evm/config Rules). */
  rulesAt(timestamp: bigint): PredicateRules;
  /** Is this block hash an accepted (canonical) block of the chain? */
  isAccepted(blockHash: Uint8Array): boolean;
  /** VM config `warp-off-chain-messages` (decoded hex). */
  offChainMessages?: readonly Uint8Array[];
}

interface Session {
  rules: PredicateRules;
  verify: boolean;
  /** Replay of an accepted block: each tx's failed bits as the block recorded them. */
  recorded?: boolean;
  /** tx hash (0x) → failed bitset, for txs with warp predicates. */
  results: Map<string, bigint>;
}

const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

/** `warp-api-enabled` of the chain's config.json; the dev chain (option `dev`) enables it by default. */
export function warpApiEnabled(config: Uint8Array | undefined, options: Record<string, unknown>): boolean {
  const v = vmConfigValue(config, 'warp-api-enabled');
  return typeof v === 'boolean' ? v : options.dev === true;
}

export class WarpChain {
  readonly backend: WarpBackend;
  readonly verifier: PredicateVerifier;
  readonly apiEnabled: boolean;
  private readonly sessions = new WeakMap<object, Session>();
  private readonly listening = new WeakSet<object>();

  constructor(private readonly d: WarpChainDeps) {
    const node = d.ctx.node;
    const validators = node.validators;
    const subnetOf = node.subnetOf.bind(node);
    this.backend = new WarpBackend({
      store: d.ctx.db,
      networkID: d.ctx.networkID,
      chainID: d.ctx.chainID,
      subnetID: d.ctx.subnetID,
      validators,
      isAccepted: d.isAccepted,
      offChainMessages: d.offChainMessages,
    });
    this.verifier = {
      networkID: d.ctx.networkID,
      subnetID: d.ctx.subnetID,
      subnetOf: (chainID) => subnetOf(idToString(chainID)),
      validators: (subnetID) => (validators.hasSubnet(subnetID) ? validators.current(subnetID) : []),
    };
    this.apiEnabled = warpApiEnabled(d.ctx.config, d.ctx.options);
  }

  /**
   * Pool admission and eth_call: the tx with Subnet-EVM's intrinsic gas (warp tuples cost their
   * predicate gas). Throws `cannot unpack predicate bytes: …` & co. for malformed predicates.
   * `thaw` makes an unfrozen copy of a frozen tx (from its RLP).
   */
  prepareTx<T extends object>(tx: T, timestamp: bigint, thaw: (tx: T) => T): T {
    return applyWarpIntrinsicGas(tx, this.d.rulesAt(timestamp), thaw);
  }

  /** Block building at `timestamp`: verify each tx's predicates before it runs on `vm`. */
  startBlock(vm: VMLike, timestamp: bigint): void {
    this.listen(vm);
    this.sessions.set(vm, { rules: this.d.rulesAt(timestamp), verify: true, results: new Map() });
  }

  /** eth_call / eth_estimateGas at a block of `timestamp`: predicates read as valid, unverified. */
  startCall(vm: VMLike, timestamp: bigint): void {
    this.listen(vm);
    const rules = this.d.rulesAt(timestamp);
    // A call's session records nothing (neither verified nor replayed): the VM's last one serves
    // again for the same rules (a session VM runs a call after another call on one block).
    const s = this.sessions.get(vm);
    if (s !== undefined && s.rules === rules && !s.verify && !s.recorded) return;
    this.sessions.set(vm, { rules, verify: false, results: new Map() });
  }

  /**
   * Replaying an accepted block (tracing, debug_intermediateRoots): each tx's predicates read with
   * the results the block recorded in its extraData[80:], as Subnet-EVM's tracers take them from
   * the header; nothing is verified again (validator sets may have changed since).
   */
  startReplay(vm: VMLike, timestamp: bigint, extraData: Uint8Array): void {
    this.listen(vm);
    let results = new Map<string, bigint>();
    if (extraData.length > 80) {
      try {
        results = decodePredicateResults(extraData.subarray(80));
      } catch {
        // not a block this node built with warp results: every predicate reads as valid
      }
    }
    this.sessions.set(vm, { rules: this.d.rulesAt(timestamp), verify: false, recorded: true, results });
  }

  /** extraData[80:] for a built block: the results of the included txs that carry warp predicates. */
  predicateResults(vm: VMLike, included: TxLike[]): Uint8Array {
    const s = this.sessions.get(vm);
    const out = new Map<string, bigint>();
    for (const tx of included) {
      const h = hex(tx.hash());
      const r = s?.results.get(h);
      if (r !== undefined) out.set(h, r);
    }
    return encodePredicateResults(out);
  }

  private listen(vm: VMLike): void {
    if (this.listening.has(vm)) return;
    this.listening.add(vm);
    vm.events.on('beforeTx', (tx) => this.beforeTx(vm, tx));
  }

  /** Runs inside runTx before the intrinsic gas check; a throw makes the tx invalid (skipped). */
  private beforeTx(vm: VMLike, tx: TxLike): void {
    const s = this.sessions.get(vm);
    const tuples = s && s.rules.isDurango && warpEnabled(s.rules) ? warpTuples(tx) : [];
    if (!s || tuples.length === 0) {
      setTxPredicates(vm.evm, undefined);
      return;
    }
    let failed = 0n;
    if (s.recorded) {
      failed = s.results.get(hex(tx.hash())) ?? 0n;
    } else if (s.verify) {
      // Malformed predicates invalidate the tx (the predicate gas cannot be computed).
      for (const keys of tuples) predicateGas(keys, s.rules.isGranite);
      failed = checkTxPredicates(tuples, s.rules, this.verifier);
      s.results.set(hex(tx.hash()), failed);
    }
    setTxPredicates(vm.evm, { tuples, failed });
  }

  /** Write ops storing the SendWarpMessage messages of an accepted block's receipts. */
  acceptOps(receipts: { logs: { address: Uint8Array; topics: Uint8Array[]; data: Uint8Array }[] }[]): [Uint8Array, Uint8Array][] {
    const ops: [Uint8Array, Uint8Array][] = [];
    for (const r of receipts) {
      for (const log of r.logs) {
        if (!Buffer.from(log.address).equals(WARP_ADDRESS_BYTES)) continue;
        if (log.topics.length === 0 || Buffer.from(log.topics[0]).toString('hex') !== SEND_WARP_MESSAGE_TOPIC) continue;
        const unsigned = abiBytes(log.data);
        if (unsigned) ops.push(this.backend.acceptedMessageOps(unsigned));
      }
    }
    return ops;
  }

  /** The `warp_*` methods for the chain's /rpc (argument errors → -32602, others → -32000). */
  methods(): Map<string, RpcMethod> {
    const out = new Map<string, RpcMethod>();
    for (const [name, fn] of warpMethods(this.backend)) out.set(name, (params) => fn(params));
    return out;
  }
}

/** The `bytes` value of ABI data that holds a single dynamic `bytes` (offset ‖ length ‖ data). */
function abiBytes(data: Uint8Array): Uint8Array | undefined {
  const b = Buffer.from(data);
  if (b.length < 64) return undefined;
  const off = Number(b.readBigUInt64BE(24));
  if (off + 32 > b.length) return undefined;
  const len = Number(b.readBigUInt64BE(off + 24));
  if (off + 32 + len > b.length) return undefined;
  return Uint8Array.from(b.subarray(off + 32, off + 32 + len));
}

/** Per-chain registry, so the chain's builder and API code find the chain's WarpChain. */
const registry = new WeakMap<object, WarpChain>();

export function registerWarp(chain: object, warp: WarpChain): void {
  registry.set(chain, warp);
}

export function warpOf(chain: object): WarpChain | undefined {
  return registry.get(chain);
}

/**
 * Hook for the chain's pool admission and eth_call: `tx` with Subnet-EVM's intrinsic gas when it
 * carries warp predicates (a frozen tx is re-decoded unfrozen). Throws the predicate error texts.
 */
export function warpPrepareTx<T extends TypedTransaction>(chain: object, tx: T, timestamp: bigint): T {
  const warp = registry.get(chain);
  if (!warp) return tx;
  return warp.prepareTx(tx, timestamp, (t) => createTxFromRLP(t.serialize(), { common: t.common, freeze: false }) as T);
}
