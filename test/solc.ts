// Compiles Solidity with the `solc` npm package for tests. solc's wasm is slow to load, so it is
// loaded once per process, and each distinct set of sources is compiled once.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Compiled {
  abi: any[];
  /** 0x-prefixed creation bytecode. */
  bytecode: `0x${string}`;
  /** 0x-prefixed runtime bytecode. */
  deployedBytecode: `0x${string}`;
}

type Solc = { compile(input: string): string };
let solc: Solc | undefined;
const cache = new Map<string, Record<string, Record<string, Compiled>>>();

function loadSolc(): Solc {
  solc ??= createRequire(import.meta.url)('solc') as Solc;
  return solc;
}

/** The folder of the test contracts (works from test/ under tsx and from dist/test/). */
export function contractsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const d of [join(here, 'contracts'), join(here, '..', '..', 'test', 'contracts')]) {
    try {
      readFileSync(join(d, 'ERC20.sol'));
      return d;
    } catch {
      // try the next one
    }
  }
  throw new Error('test/contracts not found');
}

/** Reads test/contracts/<name> (e.g. 'ERC20.sol') as a sources entry. */
export function contractSource(file: string): Record<string, string> {
  return { [file]: readFileSync(join(contractsDir(), file), 'utf8') };
}

/**
 * Compiles `sources` (file name → Solidity text) and returns the named contract. Optimizer on,
 * EVM version cancun (Subnet-EVM's Etna+ rules).
 */
export function compile(sources: Record<string, string>, contract: string): Compiled {
  const key = JSON.stringify(sources);
  let out = cache.get(key);
  if (!out) {
    const input = {
      language: 'Solidity',
      sources: Object.fromEntries(Object.entries(sources).map(([k, content]) => [k, { content }])),
      settings: {
        optimizer: { enabled: true, runs: 200 },
        evmVersion: 'cancun',
        outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
      },
    };
    const result = JSON.parse(loadSolc().compile(JSON.stringify(input)));
    const errors = (result.errors ?? []).filter((e: any) => e.severity === 'error');
    if (errors.length) throw new Error('solc: ' + errors.map((e: any) => e.formattedMessage).join('\n'));
    out = {};
    for (const [file, contracts] of Object.entries(result.contracts as Record<string, Record<string, any>>)) {
      out[file] = {};
      for (const [name, c] of Object.entries(contracts)) {
        out[file][name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, deployedBytecode: `0x${c.evm.deployedBytecode.object}` };
      }
    }
    cache.set(key, out);
  }
  for (const contracts of Object.values(out)) if (contracts[contract]) return contracts[contract];
  throw new Error(`contract ${contract} not found in the compiled sources`);
}

/** Compiles a contract from test/contracts (file name defaults to `<contract>.sol`). */
export function compileContract(contract: string, file = `${contract}.sol`): Compiled {
  return compile(contractSource(file), contract);
}
