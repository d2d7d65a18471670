// Test controls with the names Anvil, Hardhat and Ganache use (evm_*, anvil_*, hardhat_*). A chain
// with "powder-test-controls": false in its config.json does not serve them (-32601, like a real node).
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { RpcError } from '../rpc/server.js';
import { address, bool, bytes, hash32, invalidArg, quantity, required, slotKey } from './args.js';
import { blockCountArg, num, timestampArg, InstanceId, MAX_TIMESTAMP_S, type ControlContext, type Snapshot } from './controlContext.js';
import { anvilAliasMethods } from './anvilAliases.js';
import { devMetadataMethods } from './devMetadata.js';
import { devLoggingMethods } from './devLogging.js';
import { erc20SlotMethods } from './erc20Slots.js';
import { rollbackMethods } from './rollback.js';
import { refusedControlMethods } from './refusedControls.js';
import { parseCallArgs, type EvmBackend } from './backend.js';
import { hexQ } from './format.js';
import { signatureKey } from '../precompiles/ecrecoverOverrides.js';
import { applyAccounts, dumpState, parseStateFile } from './stateDump.js';
import type { MethodTable } from './eth.js';
import { timeMs } from '../chain/header.js';
import { MAX_BLOCK_TIME_MS } from '../miner/miner.js';

/** A control run for its effect, answering Anvil's `null` (where Hardhat's name answers true). */
const answeringNull = (f: (p: unknown[]) => unknown) => async (p: unknown[]) => {
  await f(p);
  return null;
};

/** evm_setTime: numbers below this are seconds (Anvil's), from here on milliseconds (Ganache's). */
const SECONDS_BELOW = 100_000_000_000n;

export function testControlMethods(be: EvmBackend): MethodTable {
  const m: MethodTable = new Map();
  const chain = be.chain;
  const miner = be.miner;
  const snapshots = new Map<string, Snapshot>();
  let nextSnapshot = 1;
  // The mining mode the chain config gave (vm.ts sets it before the method table is built).
  const startMining = { automine: miner.automine, intervalMs: miner.interval };

  const editState = async (fn: (sm: import('@ethereumjs/statemanager').MerkleStateManager) => Promise<void>) => {
    const release = await miner.lock.acquire();
    try {
      const root = await be.builder.editHeadState(fn);
      await chain.setHeadState(root);
    } finally {
      release();
    }
    await be.pool.reset(async (from) => (await chain.accountAt(chain.head, createAddressFromString(from))).nonce);
  };

  const mineBlocks = async (count: bigint, intervalS?: bigint) => {
    // Each block is at least 1 ms after its parent (or `intervalS` apart): refuse before mining
    // any, rather than stop halfway at the end of time.
    const stepMs = intervalS !== undefined && intervalS > 0n ? intervalS * 1000n : 1n;
    if (timeMs(chain.head.header) + count * stepMs > MAX_BLOCK_TIME_MS) {
      throw invalidArg(intervalS !== undefined ? 1 : 0, `${count} blocks ${intervalS !== undefined ? `${intervalS} s` : '1 ms'} apart would pass the largest block time (${MAX_BLOCK_TIME_MS} ms)`);
    }
    await miner.mineBlocks(count, intervalS !== undefined ? intervalS * 1000n : undefined);
  };

  /** evm_mine's params (Anvil's MineOptions): none, a timestamp, or {timestamp, blocks}. */
  const evmMine = async (p: unknown[]) => {
    const v = p[0];
    if (v !== undefined && v !== null) {
      if (typeof v === 'object' && !Array.isArray(v)) {
        const o = v as Record<string, unknown>;
        const blocks = o.blocks == null ? 1n : blockCountArg(o.blocks, 0);
        if (o.timestamp != null) miner.clock.nextTimestampMs = timestampArg(o.timestamp, 0) * 1000n;
        await mineBlocks(blocks);
        return;
      }
      setNextTimestamp(timestampArg(v, 0));
    }
    await miner.mine({ allowEmpty: true });
  };
  m.set('evm_mine', async (p) => {
    await evmMine(p);
    return '0x0';
  });
  const setNextTimestamp = (ts: bigint) => {
    const parentMs = timeMs(chain.head.header);
    // The parent's own second is allowed (as Anvil allows it): Granite blocks carry milliseconds,
    // so the block comes at least the delay after its parent, within that second.
    if (ts < parentMs / 1000n) {
      throw new RpcError(-32000, `Timestamp ${ts} is lower than the previous block's timestamp ${parentMs / 1000n}`);
    }
    miner.clock.nextTimestampMs = ts * 1000n;
    // Later blocks continue from the new time.
    miner.clock.offsetMs = ts * 1000n - BigInt(Math.floor(be.ctx.node.now()));
  };
  m.set('evm_setNextBlockTimestamp', (p) => {
    setNextTimestamp(timestampArg(required(p, 0), 0));
    return null;
  });
  m.set('anvil_setNextBlockTimestamp', m.get('evm_setNextBlockTimestamp')!);
  // The clock moved on; the answer is the total offset in seconds: Hardhat's decimal string for
  // evm_increaseTime, Anvil's number for anvil_increaseTime (Anvil answers evm_ with a number too).
  const increaseTime = (p: unknown[]): bigint => {
    const s = num(required(p, 0), 0);
    if (BigInt(Math.floor(be.ctx.node.now())) / 1000n + (miner.clock.offsetMs / 1000n) + s > MAX_TIMESTAMP_S) {
      throw invalidArg(0, `${s} s later would pass the largest block time (${MAX_TIMESTAMP_S} s)`);
    }
    miner.clock.offsetMs += s * 1000n;
    return miner.clock.offsetMs / 1000n;
  };
  m.set('evm_increaseTime', (p) => increaseTime(p).toString());
  m.set('anvil_increaseTime', (p) => Number(increaseTime(p)));
  // Ganache's evm_setTime: the clock set to a time in milliseconds (a number, a hex quantity or a
  // date string), backwards too (the next block is still at least the delay after its parent);
  // answers the new offset from the node's time in whole seconds.
  m.set('evm_setTime', (p) => {
    // (Anvil's anvil_setTime takes seconds: anvilAliases.ts.)
    const v = required(p, 0);
    let ms: bigint;
    if (typeof v === 'string' && !/^0[xX]/.test(v) && !/^\d+$/.test(v)) {
      const t = Date.parse(v);
      if (Number.isNaN(t)) throw invalidArg(0, `${JSON.stringify(v)} is neither milliseconds nor a date`);
      ms = BigInt(t);
    } else ms = num(v, 0);
    // Anvil serves evm_setTime as anvil_setTime, in seconds. A number below 10^11 is a time before
    // March 1973 in milliseconds but before the year 5138 in seconds: taken as Anvil's seconds
    // (Foundry users' calls moved the clock to January 1970 and froze the chain there).
    if (ms < SECONDS_BELOW) return (m.get('anvil_setTime')! as (p: unknown[]) => unknown)(p);
    if (ms > MAX_BLOCK_TIME_MS) throw invalidArg(0, `time ${ms} ms out of range: block times are uint64 milliseconds`);
    miner.clock.offsetMs = ms - BigInt(Math.floor(be.ctx.node.now()));
    miner.clock.nextTimestampMs = undefined;
    return Number(miner.clock.offsetMs / 1000n);
  });
  m.set('evm_setAutomine', (p) => {
    miner.automine = bool(required(p, 0), 0);
    if (miner.automine) miner.txAdded();
    return true;
  });
  m.set('anvil_setAutomine', answeringNull(m.get('evm_setAutomine')! as (p: unknown[]) => unknown));
  m.set('hardhat_getAutomine', () => miner.automine);
  m.set('anvil_getAutomine', () => miner.automine);
  m.set('evm_setIntervalMining', (p) => {
    const v = required(p, 0);
    const ms = typeof v === 'number' ? v : Number(num(v, 0));
    if (!Number.isSafeInteger(ms) || ms < 0) throw invalidArg(0, 'interval must be a non-negative whole number of milliseconds below 2^53');
    miner.setIntervalMining(ms);
    if (ms > 0) miner.automine = false;
    return true;
  });
  m.set('anvil_setIntervalMining', (p) => {
    const s = Number(num(required(p, 0), 0));
    if (!Number.isSafeInteger(s * 1000)) throw invalidArg(0, 'interval must be a whole number of seconds below 2^53 ms');
    miner.setIntervalMining(s * 1000);
    // Anvil has one mining mode: an interval replaces automine, and 0 is no mining at all (its
    // MiningMode::None; anvil_getAutomine then answers false, checked against Anvil 1.7.1).
    // evm_setIntervalMining is the Hardhat node's, which leaves automine as it is.
    miner.automine = false;
    return null;
  });
  const mine = async (p: unknown[]) => {
    const count = p[0] == null ? 1n : blockCountArg(p[0], 0);
    const interval = p[1] == null ? undefined : timestampArg(p[1], 1);
    await mineBlocks(count, interval);
    return null;
  };
  m.set('anvil_mine', mine);
  m.set('hardhat_mine', mine);

  m.set('evm_snapshot', async () => {
    const id = hexQ(nextSnapshot++);
    snapshots.set(id, { number: chain.head.header.number, hash: chain.head.hashHex, stateRoot: chain.headStateRoot, offsetMs: miner.clock.offsetMs });
    return id;
  });
  m.set('evm_revert', async (p) => {
    const v = required(p, 0);
    const id = typeof v === 'number' ? hexQ(v) : typeof v === 'string' ? hexQ(quantity(v, 0)) : (() => { throw invalidArg(0, 'snapshot id must be a hex quantity'); })();
    const s = snapshots.get(id);
    if (!s) return false;
    await rewind(s);
    // A snapshot can be reverted to once (Hardhat/Ganache); later snapshots die with it.
    for (const k of [...snapshots.keys()]) if (BigInt(k) >= BigInt(id)) snapshots.delete(k);
    return true;
  });

  /** A control under Anvil's name (answering null) and Hardhat's (answering true). */
  const anvilAndHardhat = (name: string, run: (p: unknown[]) => Promise<void>) => {
    m.set(`anvil_${name}`, answeringNull(run));
    m.set(`hardhat_${name}`, async (p) => {
      await run(p);
      return true;
    });
  };

  const rewind = async (s: Pick<Snapshot, 'number' | 'stateRoot' | 'offsetMs'>) => {
    const release = await miner.lock.acquire();
    try {
      await chain.rewindTo(s.number, s.stateRoot);
      be.pool.clear();
      miner.clock.offsetMs = s.offsetMs;
      miner.clock.nextTimestampMs = undefined;
    } finally {
      release();
    }
  };

  /**
   * anvil_reset / hardhat_reset: the chain as freshly started — back to its genesis (blocks,
   * receipts, state and state edits gone), the pool empty, the time offset, the next timestamp and
   * the timestamp interval cleared, every snapshot and impersonation dropped, and the mining mode
   * the chain config gives. Powder does not fork: a forking config is refused.
   */
  const reset = async (p: unknown[]) => {
    const opts = p[0];
    if (opts != null) {
      if (typeof opts !== 'object' || Array.isArray(opts)) throw invalidArg(0, 'reset takes no argument or an object');
      const o = opts as Record<string, unknown>;
      // Hardhat's {forking: {jsonRpcUrl, blockNumber}}, or Anvil's flattened {jsonRpcUrl, blockNumber}.
      const forking = o.forking ?? (o.jsonRpcUrl != null || o.blockNumber != null ? o : undefined);
      if (forking != null && (typeof forking !== 'object' || Object.values(forking).some((v) => v != null))) {
        throw new RpcError(-32602, 'forking is not supported: a Powder chain resets to its own genesis');
      }
    }
    await rewind({ number: 0n, stateRoot: chain.blockByNumber(0n)!.header.stateRoot, offsetMs: 0n });
    miner.clock.blockIntervalMs = undefined;
    snapshots.clear();
    be.impersonated.clear();
    be.autoImpersonate = false;
    // A new instance, as Hardhat's hardhat_reset (and Anvil's anvil_reset) give a new instance id.
    ctx.instance.renew();
    miner.automine = startMining.automine;
    miner.setIntervalMining(startMining.intervalMs);
  };
  anvilAndHardhat('reset', reset);

  // Anvil's fixed distance between block timestamps (ignoring the clock) until removed.
  m.set('anvil_setBlockTimestampInterval', (p) => {
    miner.clock.blockIntervalMs = timestampArg(required(p, 0), 0) * 1000n;
    return null;
  });
  m.set('anvil_removeBlockTimestampInterval', () => {
    const had = miner.clock.blockIntervalMs !== undefined;
    miner.clock.blockIntervalMs = undefined;
    return had;
  });

  // Pool edits: Anvil answers the dropped tx's hash (null if it was not in the pool), Hardhat a
  // bool, and refuses a tx that is already mined.
  const txHashArg = (p: unknown[]) => hash32(required(p, 0), 0);
  m.set('anvil_dropTransaction', (p) => {
    const hash = txHashArg(p);
    if (!be.pool.get(hash)) return null;
    be.pool.remove(hash);
    return hash;
  });
  m.set('hardhat_dropTransaction', (p) => {
    const hash = txHashArg(p);
    if (be.pool.get(hash)) {
      be.pool.remove(hash);
      return true;
    }
    if (chain.findTx(hexToBytes(hash as `0x${string}`))) throw new RpcError(-32602, `Transaction ${hash} cannot be dropped because it's already mined`);
    return false;
  });
  m.set('anvil_dropAllTransactions', () => {
    be.pool.clear();
    return null;
  });
  m.set('anvil_removePoolTransactions', (p) => {
    const from = address(required(p, 0), 0);
    const { pending, queued } = be.pool.split(from);
    for (const t of [...pending, ...queued]) be.pool.remove(t.hash);
    return null;
  });
  // Anvil's unsigned send: from any address, no key and no impersonation needed (`from` defaults
  // to the first dev account).
  m.set('eth_sendUnsignedTransaction', async (p) => {
    const args = parseCallArgs(required(p, 0), 0);
    if (args.from === undefined) {
      const first = be.accounts[0];
      if (!first) throw new RpcError(-32000, 'no signer available');
      args.from = first.address as `0x${string}`;
    }
    return be.sendTransaction(args, { unsigned: true });
  });

  // The coinbase is Subnet-EVM's fee recipient: the node's `feeRecipient`, used where the chain
  // allows fee recipients (allowFeeRecipients, or the RewardManager); elsewhere a block must pay
  // the required address, so setting one is refused.
  const setCoinbase = async (p: unknown[]) => {
    const a = address(required(p, 0), 0);
    const rule = await be.consensus.coinbaseRuleAfter(chain.head);
    if (!rule.anyAllowed) {
      throw new RpcError(-32000, `fee recipients are not allowed on this chain: its blocks pay ${rule.required} (allowFeeRecipients or the RewardManager precompile decide)`);
    }
    be.consensus.feeRecipient = a;
  };
  anvilAndHardhat('setCoinbase', setCoinbase);
  // Asked of an Ethereum dev node, but fixed by Subnet-EVM's consensus: the block gas limit is the
  // fee config's and the base fee follows the dynamic fee rules, and a block that differs is
  // invalid. A clear refusal rather than "method not found".
  const feeConfigRule = (what: string) => () => {
    throw new RpcError(-32000, `${what} is set by the chain's fee config (genesis feeConfig, upgrade.json or the FeeManager precompile): Subnet-EVM rejects a block with another`);
  };
  for (const mth of ['evm_setBlockGasLimit', 'anvil_setBlockGasLimit']) m.set(mth, feeConfigRule('the block gas limit'));
  for (const mth of ['hardhat_setNextBlockBaseFeePerGas', 'anvil_setNextBlockBaseFeePerGas']) m.set(mth, feeConfigRule('the base fee'));
  for (const mth of ['hardhat_setMinGasPrice', 'anvil_setMinGasPrice']) m.set(mth, feeConfigRule('the minimum gas price (minBaseFee)'));

  /** `<prefix>_setBalance` / `<prefix>_setNonce`: (address, quantity) → the account's field. */
  const setAccountField = (field: 'balance' | 'nonce') => async (p: unknown[]) => {
    const a = createAddressFromString(address(required(p, 0), 0));
    // An account nonce is a uint64 in the state (geth's types.StateAccount): a larger one would be
    // stored and make every later transaction of the account fail.
    const value = quantity(required(p, 1), 1, field === 'nonce' ? 'hexutil.Uint64' : 'hexutil.Big');
    await editState(async (sm) => {
      const acc = (await sm.getAccount(a)) ?? new Account();
      acc[field] = value;
      await sm.putAccount(a, acc);
    });
    return true;
  };
  const setBalance = setAccountField('balance');
  const setCode = async (p: unknown[]) => {
    const a = createAddressFromString(address(required(p, 0), 0));
    const code = bytes(required(p, 1), 1);
    await editState(async (sm) => {
      if (!(await sm.getAccount(a))) await sm.putAccount(a, new Account());
      await sm.putCode(a, code);
    });
    return true;
  };
  const setNonce = setAccountField('nonce');
  const setStorageAt = async (p: unknown[]) => {
    const a = createAddressFromString(address(required(p, 0), 0));
    const key = slotKey(required(p, 1), 1);
    const value = slotKey(required(p, 2), 2);
    await editState(async (sm) => {
      if (!(await sm.getAccount(a))) await sm.putAccount(a, new Account());
      let i = 0;
      while (i < value.length && value[i] === 0) i++;
      await sm.putStorage(a, key, value.subarray(i));
    });
    return true;
  };
  const impersonate = (p: unknown[]) => {
    be.impersonated.add(address(required(p, 0), 0));
    return true;
  };
  const stopImpersonating = (p: unknown[]) => {
    be.impersonated.delete(address(required(p, 0), 0));
    return true;
  };
  // Anvil's [[signature, address]]: ecrecover answers `address` for that signature from now on
  // (src/evm/precompiles/ecrecoverOverrides.ts says how it matches). eth_call's remembered results
  // may have run ecrecover, and the state root does not change: they are dropped.
  m.set('anvil_impersonateSignature', (p) => {
    const pair = required(p, 0);
    if (!Array.isArray(pair) || pair.length !== 2) throw invalidArg(0, 'expected a [signature, address] pair');
    const sig = bytes(pair[0], 0);
    const who = hexToBytes(address(pair[1], 0) as `0x${string}`);
    be.consensus.env.signatureOverrides!.set(signatureKey(sig), who);
    be.callResults.clear();
    return null;
  });
  const ctx: ControlContext = { be, m, snapshots, editState, mineBlocks, instance: new InstanceId() };
  // Anvil's state files: the latest state's accounts out, and into the latest state as edits.
  m.set('anvil_dumpState', () => dumpState(be));
  m.set('anvil_loadState', async (p) => {
    const records = parseStateFile(required(p, 0));
    await editState((sm) => applyAccounts(sm, records));
    return true;
  });
  // Ganache's names for the same edits.
  m.set('evm_setAccountBalance', setBalance);
  m.set('evm_setAccountCode', setCode);
  m.set('evm_setAccountNonce', setNonce);
  m.set('evm_setAccountStorageAt', setStorageAt);
  // Hardhat answers true; Anvil 1.7.1 null, except for anvil_setStorageAt (true).
  const edits = { setBalance, setCode, setNonce, setStorageAt, impersonateAccount: impersonate, stopImpersonatingAccount: stopImpersonating };
  for (const [name, f] of Object.entries(edits)) {
    m.set(`hardhat_${name}`, f);
    m.set(`anvil_${name}`, name === 'setStorageAt' ? f : answeringNull(f));
  }
  anvilAliasMethods(ctx, { evmMine });
  devMetadataMethods(ctx);
  devLoggingMethods(ctx);
  erc20SlotMethods(ctx);
  rollbackMethods(ctx);
  refusedControlMethods(ctx);
  return m;
}
