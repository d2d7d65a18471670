// What a test tool asks a dev node about itself: Anvil's anvil_nodeInfo and anvil_metadata,
// Hardhat's hardhat_metadata, in their JSON shapes with this chain's values. Powder does not fork:
// the fork fields are null (Anvil) or absent (Hardhat), as on a node started without a fork.
import { hexQ } from './format.js';
import { withArity, type ControlContext } from './controlContext.js';

export function devMetadataMethods(ctx: ControlContext): void {
  const { be, m, snapshots } = ctx;
  const chain = be.chain;
  const chainId = () => Number(be.chainId);
  const head = () => chain.head;

  // Hardhat's HardhatMetadata (numbers as JSON numbers; no forkedNetwork without a fork).
  const metadata = () => ({
    clientVersion: be.clientVersion,
    chainId: chainId(),
    instanceId: ctx.instance.get(),
    latestBlockNumber: Number(head().header.number),
    latestBlockHash: head().hashHex,
  });
  m.set('hardhat_metadata', withArity(0, metadata));
  // Anvil's Metadata: as Hardhat's, plus forkedNetwork (null) and the snapshots: id → [block number, block hash].
  m.set(
    'anvil_metadata',
    withArity(0, () => ({
      ...metadata(),
      forkedNetwork: null,
      snapshots: Object.fromEntries([...snapshots].map(([id, s]) => [id, [Number(s.number), s.hash]])),
    })),
  );
  // Anvil's NodeInfo (alloy's serde: block number, base fee, gas limit and gas price as hex
  // quantities, the timestamp and chain id as numbers).
  m.set(
    'anvil_nodeInfo',
    withArity(0, async () => {
      const h = head();
      const baseFee = (await be.consensus.estimateNextBaseFee(h, be.miner.clock.nowMs())) ?? h.header.baseFee ?? 0n;
      return {
        currentBlockNumber: hexQ(h.header.number),
        currentBlockTimestamp: Number(h.header.timestamp),
        currentBlockHash: h.hashHex,
        // The Ethereum fork whose EVM rules the chain runs at its head (Durango = shanghai, Etna
        // and later = cancun): what a tool reading hardFork picks features by. Avalanche's own
        // upgrade names are in eth_getActiveRulesAt.
        hardFork: chain.forkAt(h.header.timestamp),
        // The block builder takes pool txs by price, then nonce (Anvil's default, "fees").
        transactionOrder: 'fees',
        environment: {
          baseFee: hexQ(baseFee),
          chainId: chainId(),
          gasLimit: hexQ(h.header.gasLimit),
          gasPrice: hexQ(await be.gasPrice()),
        },
        forkConfig: { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
      };
    }),
  );
}
