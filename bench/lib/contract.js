// Compiles bench/contracts/BenchToken.sol with the pinned solc (the bundled soljson: no download).
// EVM version "paris" (no PUSH0 / MCOPY) so the same bytecode runs on every node, Ganache included.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function compileToken() {
  const solc = require('solc');
  const source = readFileSync(new URL('../contracts/BenchToken.sol', import.meta.url), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'BenchToken.sol': { content: source } },
    settings: {
      evmVersion: 'paris',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const c = out.contracts['BenchToken.sol'].BenchToken;
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, solcVersion: solc.version() };
}
