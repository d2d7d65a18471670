// Anvil's anvil_dealERC20 [account, token, amount] and anvil_setERC20Allowance [owner, spender,
// token, amount], done as Anvil does them: run the token's balanceOf(account) / allowance(owner,
// spender) on the latest state with a tracer that records the storage slots it reads (geth's
// access-list tracer: the SLOADs, and SSTOREs, of every contract the call runs), then for each slot
// of the token's own storage, in the order read, run the call again with that slot set to the
// amount (a state override) and keep the first slot for which the call then answers the amount.
// That slot is written as anvil_setStorageAt writes one (a durable state edit of the head). No slot
// that works: Anvil's `Unable to set ERC20 balance, no slot found` (`… allowance …`), and nothing
// changed.
//
// Unlike Anvil, the probe written into each slot is the amount only when it is neither 0 nor what
// the call already answers (else a fixed odd value): with 0, a slot that selects an empty entry
// (an epoch or a partition index) would answer 0 too and be overwritten by mistake; with the
// current balance, any slot would "work".
import { RpcError } from '../rpc/server.js';
import { address, quantity, required } from './args.js';
import type { EvmBackend, StateOverride } from './backend.js';
import { AccessListTracer } from './accessListTracer.js';
import { withArity, type ControlContext } from './controlContext.js';
import { bigIntToUnpaddedBytes, createAddressFromString } from '@ethereumjs/util';

/** A probe value no real balance is likely to be by chance. */
const PROBE = 0x5eed_0f_d0d0_0000_0000_0000_0001n;
const BALANCE_OF = '70a08231';
const ALLOWANCE = 'dd62ed3e';

const word = (v: bigint) => v.toString(16).padStart(64, '0');
const addrWord = (a: string) => a.slice(2).padStart(64, '0');

/** The uint256 a call answered, or undefined when it failed or answered something shorter. */
async function callUint(be: EvmBackend, to: string, data: string, overrides?: Map<string, StateOverride>, tracer?: AccessListTracer): Promise<bigint | undefined> {
  const out = await be
    .call({ to, data: Buffer.from(data, 'hex') }, be.chain.head, {
      overrides,
      trace: tracer ? (vm) => tracer.attach(vm.evm) : undefined,
      framelessTrace: tracer !== undefined,
    })
    .finally(() => tracer?.detach());
  if (out.error || out.returnValue.length < 32) return undefined;
  return BigInt('0x' + Buffer.from(out.returnValue.subarray(0, 32)).toString('hex'));
}

/** The slot of `token` that the view call `data` answers from, found as described at the top. */
async function findSlot(be: EvmBackend, token: string, data: string, amount: bigint): Promise<string | undefined> {
  const tracer = new AccessListTracer([], new Set());
  const current = await callUint(be, token, data, undefined, tracer);
  const read = tracer.accessList().find((e) => e.address === token)?.storageKeys ?? [];
  const probe = [amount, PROBE, PROBE + 1n].find((v) => v !== 0n && v !== current)!;
  const value = Buffer.from(word(probe), 'hex');
  for (const slot of read) {
    const overrides = new Map<string, StateOverride>([[token, { stateDiff: new Map([[slot, value]]) }]]);
    if ((await callUint(be, token, data, overrides)) === probe) return slot;
  }
  return undefined;
}

export function erc20SlotMethods({ be, m, editState }: ControlContext): void {
  /** Finds the slot and writes the amount there, under the miner's lock so that no block moves the state between. */
  const setVia = async (token: string, data: string, amount: bigint, what: string) => {
    const t = createAddressFromString(token);
    await editState(async (sm) => {
      const slot = await findSlot(be, token, data, amount);
      if (slot === undefined) throw new RpcError(-32000, `Unable to set ERC20 ${what}, no slot found`);
      await sm.putStorage(t, Buffer.from(slot.slice(2), 'hex'), bigIntToUnpaddedBytes(amount));
    });
    return null;
  };
  m.set(
    'anvil_dealERC20',
    withArity(3, (p) => {
      const account = address(required(p, 0), 0);
      const token = address(required(p, 1), 1);
      const amount = quantity(required(p, 2), 2);
      return setVia(token, BALANCE_OF + addrWord(account), amount, 'balance');
    }),
  );
  m.set(
    'anvil_setERC20Allowance',
    withArity(4, (p) => {
      const owner = address(required(p, 0), 0);
      const spender = address(required(p, 1), 1);
      const token = address(required(p, 2), 2);
      const amount = quantity(required(p, 3), 3);
      return setVia(token, ALLOWANCE + addrWord(owner) + addrWord(spender), amount, 'allowance');
    }),
  );
}
