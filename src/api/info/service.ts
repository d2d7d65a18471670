// The info API (/ext/info, service `info`): see info.md beside this file.
import type { Node } from '../../node/node.js';
import { str, type GorillaService } from '../../rpc/gorilla.js';

export function infoService(node: Node): GorillaService {
  return {
    getNodeID: { handler: () => ({ nodeID: node.nodeID }) },
    getNetworkID: { handler: () => ({ networkID: String(node.config.networkID) }) },
    getNetworkName: { handler: () => ({ networkName: node.config.networkName }) },
    getBlockchainID: {
      params: { alias: str },
      handler: ({ alias }) => ({ blockchainID: node.chains.aliaser.lookup(alias) }),
    },
  };
}
