// RewardManager (0x0200…0004, reference §8.7) and the coinbase rules derived from it.
import type { StateManagerInterface } from '@ethereumjs/common';
import { addressWord, checksum, readWords, selectorOf, topicOf, uintWord, wordToAddress, ZERO_ADDRESS } from './abi.js';
import { BLACKHOLE_ADDRESS, REWARD_MANAGER_ADDRESS } from './addresses.js';
import { allowListFunctions, isEnabledRole, readRole } from './allowlist.js';
import { PrecompileError, readSlot, statefulPrecompile, writeSlot, type PrecompileCall, type PrecompileFunction } from './runtime.js';

export const SET_REWARD_ADDRESS_GAS = 25_000n;
export const ALLOW_FEE_RECIPIENTS_GAS = 25_000n;
export const DISABLE_REWARDS_GAS = 25_000n;
export const CURRENT_REWARD_ADDRESS_GAS = 5_000n;
export const ARE_FEE_RECIPIENTS_ALLOWED_GAS = 5_000n;
export const REWARD_ADDRESS_CHANGED_EVENT_GAS = 6_875n; // 375 + 4×375 + 5,000 (old address read)
export const SENDER_ONLY_EVENT_GAS = 1_125n; // 375 + 2×375

export const REWARD_SELECTORS = {
  setRewardAddress: selectorOf('setRewardAddress(address)'),
  allowFeeRecipients: selectorOf('allowFeeRecipients()'),
  disableRewards: selectorOf('disableRewards()'),
  currentRewardAddress: selectorOf('currentRewardAddress()'),
  areFeeRecipientsAllowed: selectorOf('areFeeRecipientsAllowed()'),
} as const;
export const REWARD_ADDRESS_CHANGED_TOPIC = topicOf('RewardAddressChanged(address,address,address)');
export const FEE_RECIPIENTS_ALLOWED_TOPIC = topicOf('FeeRecipientsAllowed(address)');
export const REWARDS_DISABLED_TOPIC = topicOf('RewardsDisabled(address)');

const REWARD_SLOT = (() => {
  const k = new Uint8Array(32);
  k.set(Buffer.from('rask'));
  return k;
})();
const ALLOW_MARKER = (() => {
  const k = new Uint8Array(32);
  k.set(Buffer.from('afrav'));
  return k;
})();

/** GetStoredRewardAddress: (low 20 bytes of the slot, is-allow-mode). */
export async function readRewardSlot(state: StateManagerInterface): Promise<{ address: string; allowFeeRecipients: boolean }> {
  const v = await readSlot(state, REWARD_MANAGER_ADDRESS, REWARD_SLOT);
  return { address: wordToAddress(v), allowFeeRecipients: Buffer.compare(Buffer.from(v), Buffer.from(ALLOW_MARKER)) === 0 };
}

export async function storeRewardAddress(state: StateManagerInterface, address: string): Promise<void> {
  await writeSlot(state, REWARD_MANAGER_ADDRESS, REWARD_SLOT, addressWord(address));
}
export async function enableAllowFeeRecipients(state: StateManagerInterface): Promise<void> {
  await writeSlot(state, REWARD_MANAGER_ADDRESS, REWARD_SLOT, ALLOW_MARKER);
}
export async function disableFeeRewards(state: StateManagerInterface): Promise<void> {
  await storeRewardAddress(state, BLACKHOLE_ADDRESS);
}

async function requireEnabled(call: PrecompileCall, fn: string): Promise<void> {
  if (!isEnabledRole(await readRole(call.state, call.self, call.caller))) {
    throw new PrecompileError(`non-enabled cannot call ${fn}: ${checksum(call.caller)}`);
  }
}

const setRewardAddress: PrecompileFunction = {
  selector: REWARD_SELECTORS.setRewardAddress,
  async run(call, input) {
    call.charge(SET_REWARD_ADDRESS_GAS);
    call.writeProtect();
    if (!call.rules.isDurango && input.length % 32 !== 0) {
      throw new PrecompileError(`invalid input length for setting reward address: ${input.length}`);
    }
    const addr = wordToAddress(readWords(input, 1)[0]!);
    await requireEnabled(call, 'setRewardAddress');
    if (addr === ZERO_ADDRESS) throw new PrecompileError('reward address cannot be empty');
    if (call.rules.isDurango) {
      call.charge(REWARD_ADDRESS_CHANGED_EVENT_GAS);
      const old = await readRewardSlot(call.state);
      call.emit([REWARD_ADDRESS_CHANGED_TOPIC, addressWord(call.caller), addressWord(old.address), addressWord(addr)], new Uint8Array(0));
    }
    await storeRewardAddress(call.state, addr);
    return new Uint8Array(0);
  },
};

const allowFeeRecipients: PrecompileFunction = {
  selector: REWARD_SELECTORS.allowFeeRecipients,
  async run(call) {
    call.charge(ALLOW_FEE_RECIPIENTS_GAS);
    call.writeProtect();
    await requireEnabled(call, 'allowFeeRecipients');
    if (call.rules.isDurango) {
      call.charge(SENDER_ONLY_EVENT_GAS);
      call.emit([FEE_RECIPIENTS_ALLOWED_TOPIC, addressWord(call.caller)], new Uint8Array(0));
    }
    await enableAllowFeeRecipients(call.state);
    return new Uint8Array(0);
  },
};

const disableRewards: PrecompileFunction = {
  selector: REWARD_SELECTORS.disableRewards,
  async run(call) {
    call.charge(DISABLE_REWARDS_GAS);
    call.writeProtect();
    await requireEnabled(call, 'disableRewards');
    if (call.rules.isDurango) {
      call.charge(SENDER_ONLY_EVENT_GAS);
      call.emit([REWARDS_DISABLED_TOPIC, addressWord(call.caller)], new Uint8Array(0));
    }
    await disableFeeRewards(call.state);
    return new Uint8Array(0);
  },
};

const currentRewardAddress: PrecompileFunction = {
  selector: REWARD_SELECTORS.currentRewardAddress,
  async run(call) {
    call.charge(CURRENT_REWARD_ADDRESS_GAS);
    return addressWord((await readRewardSlot(call.state)).address);
  },
};

const areFeeRecipientsAllowed: PrecompileFunction = {
  selector: REWARD_SELECTORS.areFeeRecipientsAllowed,
  async run(call) {
    call.charge(ARE_FEE_RECIPIENTS_ALLOWED_GAS);
    return uintWord((await readRewardSlot(call.state)).allowFeeRecipients ? 1n : 0n);
  },
};

export const rewardManagerPrecompile = statefulPrecompile(REWARD_MANAGER_ADDRESS, [
  setRewardAddress,
  allowFeeRecipients,
  disableRewards,
  currentRewardAddress,
  areFeeRecipientsAllowed,
  ...allowListFunctions(),
]);

