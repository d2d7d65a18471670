// ContractNativeMinter (0x0200…0001, reference §8.5): mintNativeCoin + the AllowList.
import type { StateManagerInterface } from '@ethereumjs/common';
import { Account, Address } from '@ethereumjs/util';
import { addressWord, checksum, fromHex, readWords, selectorOf, topicOf, uintWord, wordToAddress, wordToBigInt } from './abi.js';
import { NATIVE_MINTER_ADDRESS } from './addresses.js';
import { allowListFunctions, isEnabledRole, readRole } from './allowlist.js';
import { PrecompileError, statefulPrecompile, type PrecompileFunction } from './runtime.js';

export const MINT_GAS = 30_000n;
export const NATIVE_COIN_MINTED_EVENT_GAS = 1_756n; // 375 + 3×375 + 32×8
export const MINT_SELECTOR = selectorOf('mintNativeCoin(address,uint256)');
export const NATIVE_COIN_MINTED_TOPIC = topicOf('NativeCoinMinted(address,address,uint256)');

const mintNativeCoin: PrecompileFunction = {
  selector: MINT_SELECTOR,
  async run(call, input) {
    call.charge(MINT_GAS);
    call.writeProtect();
    if (!call.rules.isDurango && input.length !== 64) {
      throw new PrecompileError(`invalid input length for minting: ${input.length}`);
    }
    let words: Uint8Array[];
    try {
      words = readWords(input, 2);
    } catch (e) {
      throw new PrecompileError(`failed to unpack input: ${(e as Error).message}`);
    }
    const to = wordToAddress(words[0]!);
    const amount = wordToBigInt(words[1]!);
    if (!isEnabledRole(await readRole(call.state, call.self, call.caller))) {
      throw new PrecompileError(`non-enabled cannot mint: ${checksum(call.caller)}`);
    }
    if (call.rules.isDurango) {
      call.charge(NATIVE_COIN_MINTED_EVENT_GAS);
      call.emit([NATIVE_COIN_MINTED_TOPIC, addressWord(call.caller), addressWord(to)], uintWord(amount));
    }
    await call.addBalance(to, amount);
    return new Uint8Array(0);
  },
};

export const nativeMinterPrecompile = statefulPrecompile(NATIVE_MINTER_ADDRESS, [mintNativeCoin, ...allowListFunctions()]);

/** Activation-time mint (`initialMint`), outside any EVM frame. */
export async function creditBalance(state: StateManagerInterface, address: string, amount: bigint): Promise<void> {
  const a = new Address(fromHex(address));
  const acc = (await state.getAccount(a)) ?? new Account();
  acc.balance = BigInt.asUintN(256, acc.balance + amount);
  await state.putAccount(a, acc);
}
