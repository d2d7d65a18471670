// How Subnet-EVM's stateful precompiles run inside @ethereumjs/evm v10.
//
// ethereumjs hands a precompile only `{ data, gasLimit, common, _EVM }` — no caller, origin,
// value or static flag. Every frame's message goes through the EVM's `_executeCall` (or
// `_executeCreate`), and nothing else runs between its start and the precompile body
// (`_executeCall` only moves value and loads code), so the last message seen on an EVM *is* the
// precompile's own frame. `configureEVM` records it per EVM (a WeakMap, no global state) together
// with the rules, from wrappers of those two methods on the instance. (A `beforeMessage`
// listener, emitted by runCall just before them, did the same; an EVM with no listener at all
// then skips asking for one on every step and message: src/evm/listening.ts.)
//
// Stateful precompiles are NOT put into `evm.precompiles` (runTx pre-warms every entry there for
// EIP-2929, but Subnet-EVM leaves them cold, reference §8.1); instead `getPrecompile` is wrapped
// on the instance, which is what `_loadCode` uses to find compiled code. P256Verify (Granite+)
// is an ordinary ethereumjs custom precompile so it is pre-warmed like geth does.
//
// Storage writes go through `evm.stateManager`, balance changes through `evm.journal` (touching
// the account); both are undone by the message checkpoint the EVM took before the frame when the
// frame fails. Logs are returned in ExecResult.logs and merged by the caller frame.
import { EVM, EVMError, getActivePrecompiles, type Message } from '@ethereumjs/evm';
import type { CustomPrecompile, ExecResult, Log, PrecompileFunc, PrecompileInput } from '@ethereumjs/evm';
import type { StateManagerInterface } from '@ethereumjs/common';
import { Account, Address } from '@ethereumjs/util';
import { EMPTY, fromHex, toHex } from './abi.js';
import { INVALIDATE_DELEGATE_UNIX, P256_VERIFY_ADDRESS } from './addresses.js';
import { KZG_POINT_EVALUATION_ADDRESS, kzgPointEvaluation } from './kzg.js';
import { ECRECOVER_ADDRESS, ecrecoverWithOverrides, type SignatureOverrides } from './ecrecoverOverrides.js';
import { addressHex } from '../addressHex.js';

/** The part of the chain's `Rules` (src/evm/config/chainConfig.ts) the precompiles need. */
export interface PrecompileRules {
  isDurango: boolean;
  isGranite: boolean;
  /** enabled precompiles at this timestamp: lower-case address → activation info + parsed config */
  precompiles: ReadonlyMap<string, { key: string; timestamp: bigint; config: unknown }>;
}

/** Chain facts the precompiles need that are not in the rules. */
export interface PrecompileEnv {
  /** Avalanche network id (Warp messages) */
  networkID: number;
  /** the 32 raw bytes of this chain's Avalanche blockchain ID (Warp's sourceChainID / getBlockchainID) */
  blockchainID: Uint8Array;
  /** anvil_impersonateSignature's registrations, which ecrecover answers first (ecrecoverOverrides.ts) */
  signatureOverrides?: SignatureOverrides;
}

/** A non-revert failure: the frame consumes all its gas and returns no data (reference §8.1). */
export class PrecompileError extends Error {}
/** `execution reverted` with empty data (DELEGATECALL into a stateful precompile, Granite+). */
export class PrecompileRevert extends Error {}

interface EvmContext {
  rules: PrecompileRules;
  env: PrecompileEnv;
  message?: Message;
  stateful?: ReadonlyMap<string, PrecompileFunc>;
  /** set when a DELEGATECALL/CALLCODE reached a stateful precompile between 1754107200 and Granite */
  invalidTx?: string;
}

const contexts = new WeakMap<object, EvmContext>();

/** One call of one precompile function. */
export class PrecompileCall {
  gasLeft: bigint;
  readonly logs: Log[] = [];
  constructor(
    readonly evm: EVM,
    readonly ctx: EvmContext,
    readonly self: string,
    /** msg.sender of the frame (lower-case hex) */
    readonly caller: string,
    readonly isStatic: boolean,
    gasLimit: bigint,
  ) {
    this.gasLeft = gasLimit;
  }
  get rules(): PrecompileRules {
    return this.ctx.rules;
  }
  get env(): PrecompileEnv {
    return this.ctx.env;
  }
  get state(): StateManagerInterface {
    return this.evm.stateManager;
  }
  charge(cost: bigint): void {
    if (this.gasLeft < cost) throw new PrecompileError('out of gas');
    this.gasLeft -= cost;
  }
  writeProtect(): void {
    if (this.isStatic) throw new PrecompileError('write protection');
  }
  /** Current block number (FeeManager's lastChangedAt). */
  blockNumber(): bigint {
    return (this.evm as unknown as { _block?: { header: { number: bigint } } })._block?.header.number ?? 0n;
  }
  emit(topics: Uint8Array[], data: Uint8Array): void {
    this.logs.push([fromHex(this.self), topics, data]);
  }
  async readSlot(key: Uint8Array): Promise<Uint8Array> {
    return readSlot(this.state, this.self, key);
  }
  async writeSlot(key: Uint8Array, value: Uint8Array): Promise<void> {
    await writeSlot(this.state, this.self, key, value);
  }
  /** balance(addr) += amount, creating the account if needed (touches it like geth's AddBalance). */
  async addBalance(address: string, amount: bigint): Promise<void> {
    const a = new Address(fromHex(address));
    const acc = (await this.state.getAccount(a)) ?? new Account();
    acc.balance = BigInt.asUintN(256, acc.balance + amount);
    await this.evm.journal.putAccount(a, acc);
  }
}

export interface PrecompileFunction {
  selector: string; // 0x + 8 hex
  /** false → `invalid non-activated function selector` (setManager before Durango) */
  activated?: (rules: PrecompileRules) => boolean;
  run(call: PrecompileCall, input: Uint8Array): Promise<Uint8Array>;
}

export async function readSlot(state: StateManagerInterface, address: string, key: Uint8Array): Promise<Uint8Array> {
  const v = await state.getStorage(new Address(fromHex(address)), key);
  if (v.length === 32) return v;
  const out = new Uint8Array(32);
  out.set(v, 32 - v.length);
  return out;
}

export async function writeSlot(state: StateManagerInterface, address: string, key: Uint8Array, value: Uint8Array): Promise<void> {
  await state.putStorage(new Address(fromHex(address)), key, value);
}

function failure(gasLimit: bigint, message: string): ExecResult {
  return { executionGasUsed: gasLimit, returnValue: EMPTY, exceptionError: new EVMError(message as never) };
}

/** Builds the ethereumjs PrecompileFunc of a selector-dispatched stateful precompile. */
export function statefulPrecompile(address: string, functions: PrecompileFunction[]): PrecompileFunc {
  const bySelector = new Map(functions.map((f) => [f.selector, f]));
  const self = address.toLowerCase();
  return async (input: PrecompileInput): Promise<ExecResult> => {
    const evm = input._EVM as EVM;
    const ctx = contexts.get(evm);
    const msg = ctx?.message;
    if (!ctx || !msg || msg.codeAddress.toString() !== self) {
      // configureEVM was not called on this EVM: refuse rather than guess the caller.
      return failure(input.gasLimit, 'stateful precompile called without precompile context');
    }
    const isDelegate = msg.delegatecall;
    const isCallCode = !isDelegate && msg.to !== undefined && msg.to.toString() !== self;
    if (isDelegate || isCallCode) {
      if (ctx.rules.isGranite) {
        return { executionGasUsed: input.gasLimit, returnValue: EMPTY, exceptionError: new EVMError(EVMError.errorMessages.REVERT) };
      }
      const ts = (evm as unknown as { _block?: { header: { timestamp: bigint } } })._block?.header.timestamp ?? 0n;
      if (ts >= INVALIDATE_DELEGATE_UNIX) {
        const text = `precompile cannot be called with ${isDelegate ? 'DELEGATECALL' : 'CALLCODE'}`;
        ctx.invalidTx ??= text;
        return failure(input.gasLimit, text);
      }
    }
    const data = input.data;
    const call = new PrecompileCall(evm, ctx, self, msg.caller.toString(), msg.isStatic, input.gasLimit);
    try {
      if (data.length < 4) throw new PrecompileError(`missing function selector to precompile - input length (${data.length})`);
      const selector = toHex(data.subarray(0, 4));
      const fn = bySelector.get(selector);
      if (!fn) throw new PrecompileError(`invalid function selector: ${selector}`);
      if (fn.activated && !fn.activated(ctx.rules)) throw new PrecompileError(`invalid non-activated function selector: ${selector}`);
      const ret = await fn.run(call, data.subarray(4));
      return { executionGasUsed: input.gasLimit - call.gasLeft, returnValue: ret, logs: call.logs };
    } catch (e) {
      if (e instanceof PrecompileRevert) {
        return { executionGasUsed: input.gasLimit, returnValue: EMPTY, exceptionError: new EVMError(EVMError.errorMessages.REVERT) };
      }
      return failure(input.gasLimit, e instanceof Error ? e.message : String(e));
    }
  };
}

// ---------------------------------------------------------------------------------------------
// EVM wiring

type CreateHook = (evm: EVM, ctx: EvmContext, origin: string) => Promise<string | undefined>;

let p256Func: PrecompileFunc | undefined;
/** ethereumjs' own EIP-7951 P256VERIFY (input 160 bytes, 6,900 gas) — identical to libevm's. */
function p256Verify(): PrecompileFunc {
  if (!p256Func) {
    const only7951 = { gteHardfork: () => false, isActivatedEIP: (eip: number) => eip === 7951 };
    p256Func = getActivePrecompiles(only7951 as never).get(P256_VERIFY_ADDRESS.slice(2));
    if (!p256Func) throw new Error('P256VERIFY precompile not found in @ethereumjs/evm');
  }
  return p256Func;
}

/**
 * Wires the stateful precompiles into an EVM for a rule set. Call it whenever the rules change
 * (at block start, before an eth_call at another block); the hooks are installed once per EVM.
 * `stateful` maps lower-case addresses to the precompiles enabled under `rules`.
 */
export function wireEVM(
  evm: EVM,
  rules: PrecompileRules,
  env: PrecompileEnv,
  stateful: ReadonlyMap<string, PrecompileFunc>,
  onCreate: CreateHook,
): void {
  let ctx = contexts.get(evm);
  if (!ctx) {
    const fresh: EvmContext = { rules, env };
    ctx = fresh;
    contexts.set(evm, fresh);
    const seen = (message: Message) => {
      fresh.message = message;
      if (message.depth === 0) fresh.invalidTx = undefined;
    };
    const e = evm as unknown as {
      _executeCall(m: Message): Promise<unknown>;
      _executeCreate(m: Message): Promise<unknown>;
      _generateAddress(m: Pick<Message, 'caller' | 'salt' | 'code'>): Promise<Address>;
    };
    const originalCall = e._executeCall;
    e._executeCall = function (this: unknown, message: Message) {
      seen(message);
      return originalCall.call(this, message);
    };
    // CREATE/CREATE2 gate (ContractDeployerAllowList, reference §8.3): the creation frame fails
    // before running init code, consuming all its gas; the creator's nonce bump stays.
    const originalCreate = e._executeCreate.bind(evm);
    e._executeCreate = async (message: Message) => {
      seen(message);
      const origin = (evm as unknown as { _tx?: { origin: Address } })._tx?.origin?.toString() ?? message.caller.toString();
      const refusal = await onCreate(evm, fresh, origin);
      if (refusal !== undefined) {
        return {
          // The address it was to create (the creator's nonce is already bumped), as geth's
          // tracers show a refused creation's `to`; the init code is still in `data` here.
          createdAddress: await e._generateAddress({ caller: message.caller, salt: message.salt, code: message.data }),
          execResult: { returnValue: EMPTY, exceptionError: new EVMError(refusal as never), executionGasUsed: message.gasLimit },
        };
      }
      return originalCreate(message);
    };
    const originalGet = evm.getPrecompile.bind(evm);
    evm.getPrecompile = (address: Address | `0x${string}`) => {
      if (typeof address === 'string') return contexts.get(evm)?.stateful?.get(address.toLowerCase()) ?? originalGet(address);
      // (Every frame asks: the address's kept hex, and the package's own lookup by it.)
      const unprefixed = addressHex(address);
      const stateful = contexts.get(evm)?.stateful;
      return (stateful !== undefined && stateful.size > 0 ? stateful.get('0x' + unprefixed) : undefined) ?? evm.precompiles.get(unprefixed);
    };
  }
  ctx.rules = rules;
  ctx.env = env;
  ctx.stateful = stateful;

  // P256Verify from Granite: a regular (pre-warmed) precompile. From Etna (EIP-4844 in the EVM's Cancun),
  // KZG point evaluation: the package's, with a KZG loaded on its first call (kzg.ts).
  // (_customPrecompiles is also what ethereumjs re-reads on a hardfork change.)
  const custom = customPrecompiles(evm.common, rules.isGranite);
  // anvil_impersonateSignature's ecrecover, on chains that serve the test controls.
  if (env.signatureOverrides) custom.push(ecrecoverOf(env.signatureOverrides));
  const inner = evm as unknown as { _customPrecompiles?: CustomPrecompile[]; _precompiles: Map<string, PrecompileFunc> };
  inner._customPrecompiles = custom;
  inner._precompiles = getActivePrecompiles(evm.common, custom);
}

/** One ecrecover entry per chain's registrations (wireEVM runs for every block and call session). */
const ecrecovers = new WeakMap<SignatureOverrides, CustomPrecompile>();
function ecrecoverOf(overrides: SignatureOverrides): CustomPrecompile {
  let entry = ecrecovers.get(overrides);
  if (!entry) ecrecovers.set(overrides, (entry = { address: new Address(fromHex(ECRECOVER_ADDRESS)), function: ecrecoverWithOverrides(overrides) }));
  return entry;
}

/** The precompiles ethereumjs' own list lacks or runs differently under a rule set (see wireEVM). */
function customPrecompiles(common: EVM['common'], isGranite: boolean): CustomPrecompile[] {
  const custom: CustomPrecompile[] = [];
  if (common.isActivatedEIP(4844)) custom.push({ address: KZG_POINT_EVALUATION_ADDRESS, function: kzgPointEvaluation() });
  if (isGranite) custom.push({ address: new Address(fromHex(P256_VERIFY_ADDRESS)), function: p256Verify() });
  return custom;
}

/**
 * geth's vm.ActivePrecompiles(rules) (lower-case 0x addresses): the precompiles wireEVM gives an
 * EVM of `common` — the fork's, with P256Verify from Granite — and that EIP-2929 pre-warms. The
 * stateful precompiles are not among them (reference §8.1).
 */
export function activePrecompileAddresses(common: EVM['common'], isGranite: boolean): string[] {
  return [...getActivePrecompiles(common, customPrecompiles(common, isGranite)).keys()].map((k) => '0x' + k);
}

/** The text of a DELEGATECALL/CALLCODE invalidation hit during the last top-level message, if any. */
export function txInvalidation(evm: EVM): string | undefined {
  return contexts.get(evm)?.invalidTx;
}
