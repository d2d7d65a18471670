// The VM factory interface: what a VM plugin module exports and what the built-in Subnet-EVM VM
// implements. A plugin is a JavaScript module in --plugin-dir named by its VM ID or a VM alias
// (e.g. `srEXi…X7Dy.js`, `myvm.mjs`); its default export is a VMFactory. docs/plugins.md is the
// user-facing description of everything in this file: keep the two in step.
import type { KVStore } from '../db/database.js';
import type { Logger } from '../logging/logger.js';
import type { FieldDecoder, GorillaService } from '../rpc/gorilla.js';
import type { RouteHandler } from '../server/router.js';
import type { ValidatorManager } from '../validators/manager.js';

/**
 * The plugin interface version this node implements. A factory may declare the version it was
 * written for (`protocolVersion`); a different number fails the load with a clear message, as
 * AvalancheGo's RPCChainVM protocol check does.
 */
export const PLUGIN_PROTOCOL_VERSION = 1;

/** What a chain is told about itself and its node when it is created. */
export interface ChainContext {
  /** CB58 blockchain ID. */
  chainID: string;
  /** CB58 subnet ID the chain belongs to. */
  subnetID: string;
  /** Primary alias (first alias, or the chain ID). */
  primaryAlias: string;
  aliases: string[];
  networkID: number;
  nodeID: string;
  /** Raw genesis bytes as given in the chain definition. */
  genesis: Uint8Array;
  /** The definition gave no genesis: `genesis` is the VM factory's defaultGenesis. */
  defaultGenesis?: boolean;
  /** Raw `config.*` from --chain-config-dir/<chain ID or alias>/, if present. */
  config?: Uint8Array;
  /** Raw `upgrade.*` from the same directory, if present. */
  upgrade?: Uint8Array;
  /** The chain's own store in the node's database. */
  db: KVStore;
  /** The database is in memory (--db-type=memdb). */
  ephemeral: boolean;
  /** The chain's logger (named by its primary alias). */
  log: Logger;
  /** Per-chain data directory (<chain-data-dir>/<chainID>). */
  dataDir: string;
  /** Powder chain-definition options not part of AvalancheGo (e.g. blockTime). */
  options: Record<string, unknown>;
  /** The node, for services that need node-level facts (validators, BLS signer). */
  node: NodeServices;
  /** The node's JSON-RPC engines, so a plugin's API speaks exactly like the node's own APIs. */
  rpc: ChainRPC;
}

/** JSON-RPC engines a chain may use for its HTTP handlers. */
export interface ChainRPC {
  /**
   * A node-style (gorilla rpc v2) JSON-RPC endpoint serving one service: wire methods are
   * `<serviceName>.<method>`, params an object. Return it from createHandlers() under a suffix.
   */
  gorilla(serviceName: string, service: GorillaService): RouteHandler;
  /** Param decoders with Go encoding/json semantics (str, optStr, bool, strArray, uint64). */
  decoders: Readonly<Record<'str' | 'optStr' | 'bool' | 'strArray' | 'uint64', FieldDecoder>>;
}

/** Node-level facilities a chain may use. Implemented by the Node. */
export interface NodeServices {
  readonly nodeID: string;
  /** Milliseconds since the epoch; injectable for tests. */
  now(): number;
  /** Validator sets and this node's BLS keys (warp signing and verification). */
  readonly validators: ValidatorManager;
  /** The subnet a chain of this node belongs to (warp: the source chain's validator set). */
  subnetOf(chainID: string): string | undefined;
}

export interface ChainVM {
  /** HTTP handlers by suffix (e.g. `/rpc`, `/ws`, `/validators`), mounted under /ext/bc/<chainID>. */
  createHandlers(): Promise<Record<string, RouteHandler>> | Record<string, RouteHandler>;
  /** Health check details; throw to report the chain unhealthy. */
  health?(): Promise<unknown> | unknown;
  /** Lines printed at start (e.g. RPC URL, prefunded accounts). */
  banner?(urls: { rpc: string }): string[];
  shutdown(): Promise<void>;
}

export interface VMFactory {
  /** Version shown in info.getNodeVersion `vmVersions`. */
  version: string;
  createChain(ctx: ChainContext): Promise<ChainVM>;
  /** Genesis bytes for a chain declared without one (the built-in dev chain). */
  defaultGenesis?(ctx: { networkID: number; options: Record<string, unknown> }): Uint8Array;
  /** The plugin interface version the VM was written for (default: PLUGIN_PROTOCOL_VERSION). */
  protocolVersion?: number;
  /**
   * Called once when the VM is registered (the handshake): check the environment, throw to fail
   * the load. It (with the module's import) must finish within 5 s.
   */
  probe?(): Promise<void> | void;
}

export function isVMFactory(x: unknown): x is VMFactory {
  return (
    !!x &&
    typeof x === 'object' &&
    typeof (x as VMFactory).createChain === 'function' &&
    typeof (x as VMFactory).version === 'string'
  );
}
