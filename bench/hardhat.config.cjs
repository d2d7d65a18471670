// Minimal Hardhat 2 config for `hardhat node` in the benchmark: the same chain id and funded
// mnemonic accounts (1,000,000 ETH each, as on Powder's dev chain) as every other node, nothing to compile (sources point at an empty folder).
module.exports = {
  paths: { sources: './hardhat-empty', cache: './.hardhat-cache', artifacts: './.hardhat-artifacts' },
  networks: {
    hardhat: {
      chainId: Number(process.env.BENCH_CHAIN_ID || 43214),
      accounts: { mnemonic: 'test test test test test test test test test test test junk', count: 10, accountsBalance: '1000000000000000000000000' },
    },
  },
};
