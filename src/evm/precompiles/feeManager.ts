// FeeManager (0x0200…0003, reference §8.6): setFeeConfig / getFeeConfig /
// getFeeConfigLastChangedAt + the AllowList, and the storage layout the chain reads fees from.
import type { StateManagerInterface } from '@ethereumjs/common';
import { addressWord, checksum, concat, readWords, selectorOf, topicOf, uintWord, wordToBigInt } from './abi.js';
import { FEE_MANAGER_ADDRESS } from './addresses.js';
import { allowListFunctions, isEnabledRole, readRole } from './allowlist.js';
import { FEE_CONFIG_KEYS as FEE_CONFIG_FIELDS, verifyFeeConfig, type FeeConfig } from '../fees/feeConfig.js';
import { PrecompileError, readSlot, statefulPrecompile, writeSlot, type PrecompileFunction } from './runtime.js';

export const SET_FEE_CONFIG_GAS = 180_000n; // 9 × 20,000
export const GET_FEE_CONFIG_GAS = 40_000n; // 8 × 5,000
export const GET_LAST_CHANGED_AT_GAS = 5_000n;
export const FEE_CONFIG_CHANGED_EVENT_GAS = 45_221n; // 40,000 + 375 + 2×375 + 512×8

const TUPLE = '(uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256)';
export const FEE_SELECTORS = {
  setFeeConfig: selectorOf('setFeeConfig(uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256)'),
  getFeeConfig: selectorOf('getFeeConfig()'),
  getFeeConfigLastChangedAt: selectorOf('getFeeConfigLastChangedAt()'),
} as const;
export const FEE_CONFIG_CHANGED_TOPIC = topicOf(`FeeConfigChanged(address,${TUPLE},${TUPLE})`);

function fieldSlot(i: number): Uint8Array {
  const k = new Uint8Array(32);
  k[0] = i + 1;
  return k;
}
const LAST_CHANGED_AT_SLOT = (() => {
  const k = new Uint8Array(32);
  k.set(Buffer.from('lca'));
  return k;
})();

/** The fee config stored by the FeeManager (GetStoredFeeConfig). */
export async function readStoredFeeConfig(state: StateManagerInterface): Promise<FeeConfig> {
  const out = {} as FeeConfig;
  for (let i = 0; i < FEE_CONFIG_FIELDS.length; i++) {
    const v = wordToBigInt(await readSlot(state, FEE_MANAGER_ADDRESS, fieldSlot(i)));
    out[FEE_CONFIG_FIELDS[i]!] = FEE_CONFIG_FIELDS[i] === 'targetBlockRate' ? BigInt.asUintN(64, v) : v;
  }
  return out;
}

export async function readLastChangedAt(state: StateManagerInterface): Promise<bigint> {
  return wordToBigInt(await readSlot(state, FEE_MANAGER_ADDRESS, LAST_CHANGED_AT_SLOT));
}

/** StoreFeeConfig: validates (`cannot verify fee config: …`), stores, sets lastChangedAt. */
export async function storeFeeConfig(state: StateManagerInterface, fc: FeeConfig, blockNumber: bigint): Promise<void> {
  try {
    verifyFeeConfig({ ...fc });
  } catch (e) {
    throw new PrecompileError(`cannot verify fee config: ${(e as Error).message}`);
  }
  for (let i = 0; i < FEE_CONFIG_FIELDS.length; i++) {
    await writeSlot(state, FEE_MANAGER_ADDRESS, fieldSlot(i), uintWord(fc[FEE_CONFIG_FIELDS[i]!]));
  }
  await writeSlot(state, FEE_MANAGER_ADDRESS, LAST_CHANGED_AT_SLOT, uintWord(blockNumber));
}

function packFeeConfig(fc: FeeConfig): Uint8Array {
  return concat(...FEE_CONFIG_FIELDS.map((f) => uintWord(fc[f])));
}

const setFeeConfig: PrecompileFunction = {
  selector: FEE_SELECTORS.setFeeConfig,
  async run(call, input) {
    call.charge(SET_FEE_CONFIG_GAS);
    call.writeProtect();
    if (!call.rules.isDurango && input.length !== 256) {
      throw new PrecompileError(`invalid input length for fee config Input: ${input.length}`);
    }
    let words: Uint8Array[];
    try {
      words = readWords(input, 8);
    } catch (e) {
      throw new PrecompileError(`failed to unpack input: ${(e as Error).message}`);
    }
    const fc = {} as FeeConfig;
    FEE_CONFIG_FIELDS.forEach((f, i) => {
      const v = wordToBigInt(words[i]!);
      fc[f] = f === 'targetBlockRate' ? BigInt.asUintN(64, v) : v; // the ABI binding keeps the low 64 bits
    });
    if (!isEnabledRole(await readRole(call.state, call.self, call.caller))) {
      throw new PrecompileError(`non-enabled cannot change fee config: ${checksum(call.caller)}`);
    }
    if (call.rules.isDurango) {
      call.charge(FEE_CONFIG_CHANGED_EVENT_GAS);
      const old = await readStoredFeeConfig(call.state);
      call.emit([FEE_CONFIG_CHANGED_TOPIC, addressWord(call.caller)], concat(packFeeConfig(old), packFeeConfig(fc)));
    }
    await storeFeeConfig(call.state, fc, call.blockNumber());
    return new Uint8Array(0);
  },
};

const getFeeConfig: PrecompileFunction = {
  selector: FEE_SELECTORS.getFeeConfig,
  async run(call) {
    call.charge(GET_FEE_CONFIG_GAS);
    return packFeeConfig(await readStoredFeeConfig(call.state));
  },
};

const getFeeConfigLastChangedAt: PrecompileFunction = {
  selector: FEE_SELECTORS.getFeeConfigLastChangedAt,
  async run(call) {
    call.charge(GET_LAST_CHANGED_AT_GAS);
    return uintWord(await readLastChangedAt(call.state));
  },
};

export const feeManagerPrecompile = statefulPrecompile(FEE_MANAGER_ADDRESS, [
  setFeeConfig,
  getFeeConfig,
  getFeeConfigLastChangedAt,
  ...allowListFunctions(),
]);

