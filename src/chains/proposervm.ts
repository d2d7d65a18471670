// The ProposerVM API every chain serves at /ext/bc/<chain>/proposervm (service `proposervm`): on
// AvalancheGo the ProposerVM wrapper around each Snowman chain adds it (reference §3.4). See
// proposervm.md.
import type { GorillaService } from '../rpc/gorilla.js';

/**
 * The P-chain height Powder's chains build on. Powder has no P-chain: validator sets are the
 * configured ones (src/validators), at height 0, which is also the height warp's errors name.
 */
export const P_CHAIN_HEIGHT = 0n;

export function proposerVMService(): GorillaService {
  return {
    // avajson.Uint64: a decimal string.
    getProposedHeight: { handler: () => ({ height: P_CHAIN_HEIGHT.toString() }) },
  };
}
