// The info API (/ext/info, service `info`): see info.md beside this file.
// Shapes and encodings follow AvalancheGo's api/info/service.go (reference: avalanchego-node.md §9.1):
// utils/json numbers are decimal strings, maps have byte-sorted keys.
import type { Node } from '../../node/node.js';
import { proofOfPossession } from '../../node/identity.js';
import { EMPTY_ID, vmIDFromName } from '../../ids/ids.js';
import { checkNodeIDArg } from '../../rpc/idArgs.js';
import { custom, sortedObject, str, type GorillaService } from '../../rpc/gorilla.js';
import { nodeVersion } from './version.js';
import { addrPort } from '../../node/addrPort.js';

/** All network upgrades of a local network (upgrade.Default): active since 2020-12-05T05:00:00Z. */
const INITIALLY_ACTIVE = '2020-12-05T05:00:00Z';
const UNSCHEDULED = '9999-12-01T00:00:00Z';

export function localUpgrades(): Record<string, unknown> {
  return {
    apricotPhase1Time: INITIALLY_ACTIVE,
    apricotPhase2Time: INITIALLY_ACTIVE,
    apricotPhase3Time: INITIALLY_ACTIVE,
    apricotPhase4Time: INITIALLY_ACTIVE,
    apricotPhase4MinPChainHeight: 0,
    apricotPhase5Time: INITIALLY_ACTIVE,
    apricotPhasePre6Time: INITIALLY_ACTIVE,
    apricotPhase6Time: INITIALLY_ACTIVE,
    apricotPhasePost6Time: INITIALLY_ACTIVE,
    banffTime: INITIALLY_ACTIVE,
    cortinaTime: INITIALLY_ACTIVE,
    cortinaXChainStopVertexID: EMPTY_ID,
    durangoTime: INITIALLY_ACTIVE,
    etnaTime: INITIALLY_ACTIVE,
    fortunaTime: INITIALLY_ACTIVE,
    graniteTime: INITIALLY_ACTIVE,
    graniteEpochDuration: 30_000_000_000,
    heliconTime: UNSCHEDULED,
  };
}

/** The feature extensions every AvalancheGo node registers (info.getVMs `fxs`). */
const FXS = ['secp256k1fx', 'nftfx', 'propertyfx'] as const;

/** Fees of the local network (deprecated info.getTxFee), as utils/json decimal strings. */
const LOCAL_TX_FEES = {
  txFee: '1000000',
  createAssetTxFee: '1000000',
  createSubnetTxFee: '100000000',
  transformSubnetTxFee: '100000000',
  createBlockchainTxFee: '100000000',
  addPrimaryNetworkValidatorFee: '0',
  addPrimaryNetworkDelegatorFee: '0',
  addSubnetValidatorFee: '1000000',
  addSubnetDelegatorFee: '1000000',
};

/** `nodeIDs` of info.peers: a []ids.NodeID, so a malformed one fails the whole argument decode. */
const nodeIDList = custom<string[]>((v) => {
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) throw new Error('not an array');
  return v.map((x) => {
    if (x === null) return '';
    if (typeof x !== 'string') throw new Error('first and last characters should be quotes');
    checkNodeIDArg(x);
    return x;
  });
});

const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

export function infoService(node: Node): GorillaService {
  let pop: Promise<{ publicKey: string; proofOfPossession: string }> | undefined;
  const nodePOP = () =>
    (pop ??= proofOfPossession(node.identity.blsSecretKey).then((p) => ({ publicKey: hex(p.publicKey), proofOfPossession: hex(p.proofOfPossession) })));
  return {
    getNodeID: { handler: async () => ({ nodeID: node.nodeID, nodePOP: await nodePOP() }) },
    getNodeIP: {
      // A netip.AddrPort on the real node: `[::1]:9651` for an IPv6 address.
      handler: () => ({ ip: addrPort(node.config.publicIp || '127.0.0.1', node.config.stakingPort) }),
    },
    getNodeVersion: {
      handler: () => ({
        ...nodeVersion(),
        vmVersions: sortedObject(node.vms.versions()),
      }),
    },
    getNetworkID: { handler: () => ({ networkID: String(node.config.networkID) }) },
    getNetworkName: { handler: () => ({ networkName: node.config.networkName }) },
    getBlockchainID: {
      params: { alias: str },
      handler: ({ alias }) => ({ blockchainID: node.chains.aliaser.lookup(alias) }),
    },
    isBootstrapped: {
      params: { chain: str },
      handler: ({ chain }) => {
        if (chain === '') throw new Error("argument 'chain' not given");
        return { isBootstrapped: node.chains.isBootstrapped(chain) };
      },
    },
    // A Powder node has no peer network: it is the whole local network.
    peers: {
      params: { nodeIDs: nodeIDList },
      handler: () => ({ numPeers: '0', peers: [] }),
    },
    upgrades: { handler: () => localUpgrades() },
    // The lone node validates its own network and is always up.
    uptime: {
      handler: () => ({ rewardingStakePercentage: '100.0000', weightedAveragePercentage: '100.0000' }),
    },
    acps: { handler: () => ({ acps: {} }) },
    getTxFee: { handler: () => ({ ...LOCAL_TX_FEES }) },
    getVMs: {
      handler: () => ({
        vms: sortedObject(node.vms.list()),
        fxs: sortedObject(FXS.map((name) => [vmIDFromName(name), name])),
      }),
    },
  };
}
