// The AllowList shared by DeployerAllowList, NativeMinter, TxAllowList, FeeManager and
// RewardManager (reference subnet-evm.md §8.2): roles, storage, the four setters + reader,
// the RoleSet event, config fields and their validation.
import type { StateManagerInterface } from '@ethereumjs/common';
import { addressWord, checksum, readWords, selectorOf, topicOf, uintWord, wordToAddress, wordToBigInt } from './abi.js';
import { PrecompileError, readSlot, writeSlot, type PrecompileFunction } from './runtime.js';

export enum Role {
  None = 0,
  Enabled = 1,
  Admin = 2,
  Manager = 3,
}

export function roleName(r: Role | bigint): string {
  switch (Number(r)) {
    case Role.None:
      return 'NoRole';
    case Role.Enabled:
      return 'EnabledRole';
    case Role.Admin:
      return 'AdminRole';
    case Role.Manager:
      return 'ManagerRole';
    default:
      return 'UnknownRole';
  }
}

/** Enabled, Admin and Manager may use the precompile's own functions. */
export function isEnabledRole(r: Role): boolean {
  return r === Role.Enabled || r === Role.Admin || r === Role.Manager;
}

export function canModify(caller: Role, targetCurrent: Role, newRole: Role): boolean {
  if (caller === Role.Admin) return true;
  if (caller === Role.Manager) {
    return (targetCurrent === Role.None || targetCurrent === Role.Enabled) && (newRole === Role.None || newRole === Role.Enabled);
  }
  return false;
}

export const READ_ALLOW_LIST_GAS = 5_000n;
export const MODIFY_ALLOW_LIST_GAS = 20_000n;
export const ROLE_SET_EVENT_GAS = 2_131n; // 375 + 4×375 + 32×8

export const SELECTORS = {
  readAllowList: selectorOf('readAllowList(address)'),
  setAdmin: selectorOf('setAdmin(address)'),
  setEnabled: selectorOf('setEnabled(address)'),
  setNone: selectorOf('setNone(address)'),
  setManager: selectorOf('setManager(address)'),
} as const;

export const ROLE_SET_TOPIC = topicOf('RoleSet(uint256,address,address,uint256)');

/** Role of `address` in the allow list stored at `precompile`. */
export async function readRole(state: StateManagerInterface, precompile: string, address: string): Promise<Role> {
  // only 0..3 are ever stored; anything else is treated as no role
  const v = wordToBigInt(await readSlot(state, precompile, addressWord(address)));
  return v <= 3n ? (Number(v) as Role) : Role.None;
}

export async function writeRole(state: StateManagerInterface, precompile: string, address: string, role: Role): Promise<void> {
  await writeSlot(state, precompile, addressWord(address), uintWord(BigInt(role)));
}

function setter(role: Role): PrecompileFunction {
  const name = role === Role.Admin ? 'setAdmin' : role === Role.Enabled ? 'setEnabled' : role === Role.Manager ? 'setManager' : 'setNone';
  return {
    selector: SELECTORS[name],
    activated: role === Role.Manager ? (rules) => rules.isDurango : undefined,
    async run(call, input) {
      call.charge(MODIFY_ALLOW_LIST_GAS);
      if (!call.rules.isDurango && input.length !== 32) {
        throw new PrecompileError(`invalid input length for modifying allow list: ${input.length}`);
      }
      const target = wordToAddress(readWords(input, 1)[0]!);
      call.writeProtect();
      const callerRole = await readRole(call.state, call.self, call.caller);
      const current = await readRole(call.state, call.self, target);
      if (!canModify(callerRole, current, role)) {
        throw new PrecompileError(
          `cannot modify allow list: modify address: ${checksum(call.caller)}, from role: ${roleName(current)}, to role: ${roleName(role)}`,
        );
      }
      if (call.rules.isDurango) {
        call.charge(ROLE_SET_EVENT_GAS);
        call.emit([ROLE_SET_TOPIC, uintWord(BigInt(role)), addressWord(target), addressWord(call.caller)], uintWord(BigInt(current)));
      }
      await writeRole(call.state, call.self, target, role);
      return new Uint8Array(0);
    },
  };
}

const readAllowList: PrecompileFunction = {
  selector: SELECTORS.readAllowList,
  async run(call, input) {
    call.charge(READ_ALLOW_LIST_GAS);
    if (!call.rules.isDurango && input.length !== 32) {
      throw new PrecompileError(`invalid input length for read allow list: ${input.length}`);
    }
    const who = wordToAddress(readWords(input, 1)[0]!);
    return uintWord(BigInt(await readRole(call.state, call.self, who)));
  },
};

/** The five AllowList functions of a precompile. */
export function allowListFunctions(): PrecompileFunction[] {
  return [readAllowList, setter(Role.Admin), setter(Role.Enabled), setter(Role.None), setter(Role.Manager)];
}

// ---------------------------------------------------------------------------------------------
// Activation (config parsing/validation lives in src/evm/config/precompileConfigs.ts)

export interface AllowListRoles {
  adminAddresses: string[];
  managerAddresses: string[];
  enabledAddresses: string[];
}

/** Writes the configured roles at activation: enabled → admin → manager. */
export async function configureAllowList(state: StateManagerInterface, precompile: string, c: AllowListRoles): Promise<void> {
  for (const a of c.enabledAddresses) await writeRole(state, precompile, a, Role.Enabled);
  for (const a of c.adminAddresses) await writeRole(state, precompile, a, Role.Admin);
  for (const a of c.managerAddresses) await writeRole(state, precompile, a, Role.Manager);
}
