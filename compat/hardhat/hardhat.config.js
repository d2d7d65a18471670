// Hardhat 2 project of Powder's compatibility suite (../README.md). `node run.mjs` starts a Powder
// node and runs `npx hardhat test --network powder` against it with POWDER_RPC set.
require("@nomicfoundation/hardhat-toolbox"); // what `npx hardhat init` (JavaScript) configures

const { subtask } = require("hardhat/config");
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require("hardhat/builtin-tasks/task-names");

const SOLC_VERSION = "0.8.37";

// Hardhat downloads its compilers from binaries.soliditylang.org; the suite must run where only
// the npm registry is reachable, so it compiles with solc-js from the npm `solc` package instead.
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async ({ solcVersion }, hre, runSuper) => {
  if (solcVersion !== SOLC_VERSION) return runSuper();
  const solc = require("solc");
  return {
    compilerPath: require.resolve("solc/soljson.js"),
    isSolcJs: true,
    version: SOLC_VERSION,
    longVersion: solc.version(),
  };
});

/** @type import('hardhat/config').HardhatUserConfig */
module.exports = {
  solidity: {
    version: SOLC_VERSION,
    settings: { evmVersion: "cancun", optimizer: { enabled: true, runs: 200 } },
  },
  defaultNetwork: "powder",
  networks: {
    // No `accounts`: the node's own (eth_accounts), signing by eth_sendTransaction,
    // personal_sign and eth_signTypedData_v4.
    powder: { url: process.env.POWDER_RPC || "http://127.0.0.1:9650/ext/bc/dev/rpc" },
  },
  mocha: { timeout: 120000 },
};
