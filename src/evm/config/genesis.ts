// Subnet-EVM genesis (reference subnet-evm.md §5).
//   Genesis, GenesisAccount, parseGenesis(bytes, networkID, upgradeBytes?, airdropFile?) (validated; exact errors),
//   genesisHeader(g, stateRoot) (§5.2 header — hash it with hashHeader from src/evm/header),
//   genesisAirdrop(g) (the airdrop's addresses, checked against airdropHash),
//   devGenesis(opts) (the default dev chain's genesis JSON object).
import { readFileSync } from 'node:fs';
import { parseJsonBytes, goStruct, isObject, jsonTypeName, type JsonObject, type JsonValue, JsonSyntaxError } from './json.js';
import { decodeAddress, decodeHexBytes, decodeHexOrDecimal, decodeHash, decodeUnprefixedAddress, fieldTypeError } from './decode.js';
import { decodeAddress as hexutilAddress, inStructField } from '../rpc/params.js';
import { keccak256 } from '../crypto.js';
import { goPathError } from '../../goPathError.js';
import { parseChainConfig, verifyChainConfig, type ChainConfig } from './chainConfig.js';
import { checkForkOrder, defaultNetworkUpgrades, isForkActive, INITIALLY_ACTIVE_TIME } from './networkUpgrades.js';
import { parseUpgradeBytes, withUpgradeConfig } from './upgrade.js';
import { DEFAULT_FEE_CONFIG, feeConfigJSON } from '../fees/feeConfig.js';
import { genesisMinDelayExcess } from '../fees/minDelay.js';
import { EMPTY_BLOOM, EMPTY_ROOT, EMPTY_UNCLE_HASH, ZERO_HASH, type Header } from '../header/header.js';

export interface GenesisAccount {
  balance: bigint;
  nonce: bigint;
  code?: Uint8Array;
  /** 0x 32-byte slot → 0x 32-byte value (lower-case, left-padded like geth's storageJSON). */
  storage?: Map<string, string>;
}

export interface Genesis {
  config: ChainConfig;
  /** 0x lower-case address → account. */
  alloc: Map<string, GenesisAccount>;
  nonce: bigint;
  /** Unix seconds. */
  timestamp: bigint;
  extraData: Uint8Array;
  gasLimit: bigint;
  difficulty: bigint;
  /** 0x lower-case. */
  mixHash: string;
  coinbase: string;
  parentHash: string;
  number: bigint;
  gasUsed: bigint;
  /** Set when SubnetEVM is active at the genesis time (given value, else feeConfig.minBaseFee). */
  baseFee?: bigint;
  excessBlobGas?: bigint;
  blobGasUsed?: bigint;
  /** 0x lower-case; absent or zero: no airdrop. */
  airdropHash?: string;
  airdropAmount?: bigint;
  /** The bytes of the VM config's `airdrop` file (absent when none is configured: empty data). */
  airdropData?: Uint8Array;
}

/** geth's default gas limit, used in the header when genesis gasLimit is 0 (§5.1). */
export const GENESIS_GAS_LIMIT_DEFAULT = 4_712_388n;
/** Difficulty when the genesis has none. */
export const GENESIS_DIFFICULTY_DEFAULT = 131_072n;
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const ZERO_HASH_HEX = '0x' + '00'.repeat(32);
/** JSON names of core.Genesis and types.Account (matched as Go does: exact, else case-insensitive). */
const GENESIS_FIELDS = ['config', 'nonce', 'timestamp', 'extraData', 'gasLimit', 'difficulty', 'mixHash', 'coinbase', 'alloc', 'airdropHash', 'airdropAmount', 'number', 'gasUsed', 'parentHash', 'baseFeePerGas', 'excessBlobGas', 'blobGasUsed'] as const;
const ACCOUNT_FIELDS = ['code', 'storage', 'balance', 'nonce', 'secretKey'] as const;

/**
 * A genesis storage key or value (types.storageJSON.UnmarshalText): a `0x` prefix is dropped, at most
 * 64 hex digits, left-padded to 32 bytes. Go's texts quote the digits:
 * `too many hex characters in storage key/value "<hex>"`, `invalid hex storage key/value "<hex>"`.
 * A `null` value is the zero word (a TextUnmarshaler is not called for null).
 */
function storageWord(v: JsonValue): string {
  if (v === null) return '0x' + '00'.repeat(32);
  if (typeof v !== 'string') throw fieldTypeError(jsonTypeName(v), 'Genesis.alloc.storage', 'types.storageJSON');
  const t = v.startsWith('0x') ? v.slice(2) : v;
  if (t.length > 64) throw new Error(`too many hex characters in storage key/value ${JSON.stringify(t)}`);
  if (t.length & 1 || !/^[0-9a-fA-F]*$/.test(t)) throw new Error(`invalid hex storage key/value ${JSON.stringify(t)}`);
  return '0x' + t.padStart(64, '0').toLowerCase();
}

/**
 * `alloc` (types.GenesisAlloc's UnmarshalJSON, map[common.UnprefixedAddress]types.Account; each
 * account by its own UnmarshalJSON): type errors come back through the Genesis decoder as
 * `Genesis.alloc[.<field>]`.
 */
function parseAlloc(v: JsonValue): Map<string, GenesisAccount> {
  if (!isObject(v)) throw fieldTypeError(jsonTypeName(v), 'Genesis.alloc', 'map[common.UnprefixedAddress]types.Account');
  const out = new Map<string, GenesisAccount>();
  for (const [addr, entry] of Object.entries(v)) {
    const address = decodeUnprefixedAddress(addr);
    if (entry !== null && !isObject(entry)) throw fieldTypeError(jsonTypeName(entry), 'Genesis.alloc', 'types.Account');
    const a = entry === null ? null : goStruct(entry, ACCOUNT_FIELDS);
    if (a === null || a.balance === undefined || a.balance === null) throw new Error(`missing required field 'balance' for GenesisAccount`);
    const acc: GenesisAccount = {
      balance: decodeHexOrDecimal(a.balance, 256),
      nonce: a.nonce === undefined || a.nonce === null ? 0n : decodeHexOrDecimal(a.nonce, 64),
    };
    if (a.code !== undefined && a.code !== null) acc.code = decodeHexBytes(a.code, 'Genesis.alloc.code');
    if (a.storage !== undefined && a.storage !== null) {
      if (!isObject(a.storage)) throw fieldTypeError(jsonTypeName(a.storage), 'Genesis.alloc.storage', 'map[types.storageJSON]types.storageJSON');
      acc.storage = new Map();
      for (const [k, val] of Object.entries(a.storage)) acc.storage.set(storageWord(k), storageWord(val));
    }
    out.set(address, acc);
  }
  return out;
}

/** JSON bytes as json.Unmarshal reads them: a syntax error is a plain error with Go's text. */
function decodeJson(bytes: Uint8Array): JsonValue {
  try {
    return parseJsonBytes(bytes);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new Error(e.message);
    throw e;
  }
}

function optHexOrDec(o: JsonObject, k: string, bits: 64 | 256): bigint | undefined {
  const v = o[k];
  return v === undefined || v === null ? undefined : decodeHexOrDecimal(v, bits);
}

/**
 * The VM config's `airdrop` file, read as Subnet-EVM's parseGenesis does (os.ReadFile, relative to
 * the working directory): `could not read airdrop file '<path>': open <path>: no such file or directory`.
 */
function readAirdropFile(path: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (e) {
    throw new Error(`could not read airdrop file '${path}': ${goPathError('open', path, e)}`);
  }
}

/**
 * Parse and validate a Subnet-EVM genesis (optionally with the chain's upgrade.json bytes, applied
 * before validation exactly like the VM does, and the VM config's `airdrop` file, read after the
 * genesis JSON is decoded and before the upgrade bytes, as Subnet-EVM does). Errors carry the real
 * node's texts, e.g.
 * `missing required field 'gasLimit' for Genesis`,
 * `failed to verify genesis: gas limit in fee config (8000000) does not match gas limit in header (1)`,
 * `failed to verify genesis: invalid fee config: minBaseFee cannot be nil`.
 */
export function parseGenesis(bytes: Uint8Array, networkID: number, upgradeBytes?: Uint8Array, airdropFile?: string): Genesis {
  const parsed = decodeJson(bytes);
  if (!isObject(parsed)) throw new Error(`json: cannot unmarshal ${jsonTypeName(parsed)} into Go value of type core.Genesis`);
  const root = goStruct(parsed, GENESIS_FIELDS);
  const nonce = optHexOrDec(root, 'nonce', 64) ?? 0n;
  const timestamp = optHexOrDec(root, 'timestamp', 64) ?? 0n;
  const extraData = root.extraData === undefined || root.extraData === null ? new Uint8Array(0) : decodeHexBytes(root.extraData, 'Genesis.extraData');
  if (root.gasLimit === undefined || root.gasLimit === null) throw new Error(`missing required field 'gasLimit' for Genesis`);
  const gasLimit = decodeHexOrDecimal(root.gasLimit, 64);
  if (root.difficulty === undefined || root.difficulty === null) throw new Error(`missing required field 'difficulty' for Genesis`);
  const difficulty = decodeHexOrDecimal(root.difficulty, 256);
  const mixHash = root.mixHash === undefined || root.mixHash === null ? ZERO_HASH_HEX : decodeHash(root.mixHash, 'Genesis.mixHash');
  const coinbase = root.coinbase === undefined || root.coinbase === null ? ZERO_ADDRESS : decodeAddress(root.coinbase, 'Genesis.coinbase');
  if (root.alloc === undefined || root.alloc === null) throw new Error(`missing required field 'alloc' for Genesis`);
  const alloc = parseAlloc(root.alloc);
  const g: Genesis = {
    config: parseChainConfig(root.config, networkID),
    alloc,
    nonce,
    timestamp,
    extraData,
    gasLimit,
    difficulty,
    mixHash,
    coinbase,
    parentHash: root.parentHash === undefined || root.parentHash === null ? ZERO_HASH_HEX : decodeHash(root.parentHash, 'Genesis.parentHash'),
    number: optHexOrDec(root, 'number', 64) ?? 0n,
    gasUsed: optHexOrDec(root, 'gasUsed', 64) ?? 0n,
  };
  if (root.airdropHash !== undefined && root.airdropHash !== null) g.airdropHash = decodeHash(root.airdropHash, 'Genesis.airdropHash');
  const airdropAmount = optHexOrDec(root, 'airdropAmount', 256);
  if (airdropAmount !== undefined) g.airdropAmount = airdropAmount;
  const baseFee = optHexOrDec(root, 'baseFeePerGas', 256);
  const excessBlobGas = optHexOrDec(root, 'excessBlobGas', 64);
  const blobGasUsed = optHexOrDec(root, 'blobGasUsed', 64);
  if (airdropFile) g.airdropData = readAirdropFile(airdropFile);

  if (upgradeBytes && upgradeBytes.length > 0) g.config = withUpgradeConfig(g.config, parseUpgradeBytes(upgradeBytes));

  // Genesis.Verify: gas limit consistency, then ChainConfig.Verify.
  const fcLimit = g.config.feeConfig.gasLimit as bigint | undefined;
  try {
    if (fcLimit !== undefined && fcLimit !== g.gasLimit)
      throw new Error(`gas limit in fee config (${fcLimit}) does not match gas limit in header (${g.gasLimit})`);
    verifyChainConfig(g.config);
  } catch (e) {
    throw new Error(`failed to verify genesis: ${(e as Error).message}`);
  }
  checkForkOrder(g.config.networkUpgrades);

  const u = g.config.networkUpgrades;
  if (isForkActive(u.subnetEVMTimestamp, timestamp)) g.baseFee = baseFee ?? g.config.feeConfig.minBaseFee;
  if (isForkActive(u.etnaTimestamp, timestamp)) {
    g.excessBlobGas = excessBlobGas ?? 0n;
    g.blobGasUsed = blobGasUsed ?? 0n;
  } else {
    if (excessBlobGas !== undefined) g.excessBlobGas = excessBlobGas;
    if (blobGasUsed !== undefined) g.blobGasUsed = blobGasUsed;
  }
  return g;
}

/**
 * The genesis airdrop (Subnet-EVM core/genesis.go toBlock, run at every start): nothing unless
 * `airdropHash` is set and non-zero; then keccak256 of the airdrop file's bytes (empty without a
 * file) must equal it — `expected standard allocation <airdropHash> but got <keccak>` — and the
 * bytes are decoded as Go decodes them into `[]*AirdropEntry` (`[{"address": "0x…"}, …]`; the key
 * matched case-insensitively, other keys ignored, a missing address is the zero address, a top-level
 * `null` an empty list; empty bytes fail with `unexpected end of JSON input`). Returns the addresses
 * (lower-case 0x), in file order; each gets balance `airdropAmount` before the precompile
 * activations and the alloc.
 */
export function genesisAirdrop(g: Genesis): string[] {
  if (g.airdropHash === undefined || g.airdropHash === ZERO_HASH_HEX) return [];
  const data = g.airdropData ?? new Uint8Array(0);
  const h = '0x' + Buffer.from(keccak256(data)).toString('hex');
  if (h !== g.airdropHash) throw new Error(`expected standard allocation ${g.airdropHash} but got ${h}`);
  const root = decodeJson(data);
  if (root === null) return [];
  if (!Array.isArray(root)) throw new Error(`json: cannot unmarshal ${jsonTypeName(root)} into Go value of type []*core.AirdropEntry`);
  // Go's decoder keeps going after a value of the wrong type (the first one is reported at the
  // end) but stops at an address error (from the address's own UnmarshalJSON).
  let saved: Error | undefined;
  const out: (string | null)[] = [];
  for (const e of root) {
    if (e === null) {
      out.push(null);
      continue;
    }
    let address = ZERO_ADDRESS;
    if (isObject(e)) {
      for (const [k, v] of Object.entries(e)) if (k.toLowerCase() === 'address') address = inStructField('AirdropEntry', 'address', () => hexutilAddress(v));
    } else saved ??= new Error(`json: cannot unmarshal ${jsonTypeName(e)} into Go value of type core.AirdropEntry`);
    out.push(address);
  }
  if (saved) throw saved;
  // A null entry is a nil *AirdropEntry: the balance loop dereferences it.
  if (out.includes(null)) throw new Error('runtime error: invalid memory address or nil pointer dereference');
  return out as string[];
}

const hexToBytes = (h: string): Uint8Array => new Uint8Array(Buffer.from(h.slice(2), 'hex'));

/** The genesis block header (§5.2) over the given state root. */
export function genesisHeader(g: Genesis, stateRoot: Uint8Array): Header {
  const u = g.config.networkUpgrades;
  const nonce = new Uint8Array(8);
  new DataView(nonce.buffer).setBigUint64(0, g.nonce, false);
  const h: Header = {
    parentHash: hexToBytes(g.parentHash),
    uncleHash: EMPTY_UNCLE_HASH,
    coinbase: hexToBytes(g.coinbase),
    stateRoot,
    transactionsRoot: EMPTY_ROOT,
    receiptsRoot: EMPTY_ROOT,
    logsBloom: EMPTY_BLOOM,
    difficulty: g.difficulty,
    number: g.number,
    gasLimit: g.gasLimit === 0n ? GENESIS_GAS_LIMIT_DEFAULT : g.gasLimit,
    gasUsed: g.gasUsed,
    timestamp: g.timestamp,
    extraData: g.extraData,
    mixHash: hexToBytes(g.mixHash),
    nonce,
  };
  const t = g.timestamp;
  if (g.baseFee !== undefined && isForkActive(u.subnetEVMTimestamp, t)) h.baseFee = g.baseFee;
  if (isForkActive(u.etnaTimestamp, t)) {
    h.blockGasCost = 0n;
    h.blobGasUsed = g.blobGasUsed ?? 0n;
    h.excessBlobGas = g.excessBlobGas ?? 0n;
    h.parentBeaconRoot = ZERO_HASH;
  }
  if (isForkActive(u.graniteTimestamp, t)) {
    h.timestampMilliseconds = t * 1000n;
    h.minDelayExcess = genesisMinDelayExcess(g.config.initialMinDelayMS);
  }
  return h;
}

export interface DevGenesisOptions {
  networkID: number;
  /** Funded addresses (0x…). */
  accounts: string[];
  balance: bigint;
  /** EVM chain id; default 43214 (Subnet-EVM's default). */
  chainId?: bigint;
  /** Block delay seed for the Granite genesis (ms, 1..2000); default 1 so automining is not throttled. */
  initialMinDelayMS?: bigint;
}

/**
 * The deterministic deployment proxy (Arachnid's, at the address its keyless transaction creates on
 * every chain): Foundry sends a script's `new C{salt: s}()` through it, and Anvil has it at genesis.
 * Its runtime code, as Anvil 1.7.1 holds it (nonce 0, no balance).
 */
export const CREATE2_DEPLOYER = {
  address: '4e59b44847b379578588920ca78fbf26c0b4956c',
  code: '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3',
};

/** The dev chain's fee config (see devGenesis). */
export const DEV_FEE_CONFIG = { ...DEFAULT_FEE_CONFIG, gasLimit: 30_000_000n, targetGas: 1_000_000_000n };

/**
 * The default dev chain's genesis JSON object:
 * - genesis timestamp 1607144400 (0x5FCB13D0): on a local network id every upgrade through Granite
 *   is active from that time, so the genesis itself already has the Cancun/Granite header fields
 *   (on Mainnet and Fuji: their Granite time). The chain's ID is made from this object; the genesis
 *   block itself gets the time its database was made (vm.ts devGenesisTime);
 * - DEV_FEE_CONFIG: Subnet-EVM's defaults (25 gwei min base fee, 2 s target rate, denominator 36)
 *   but room for test loads: 30M gas blocks (like Hardhat/Anvil) and a 1G-gas target per 10 s
 *   window, so thousands of test transactions do not drive the base fee up (the default 15M target
 *   is exceeded by ~70 transfers/s, after which every block raises the base fee);
 * - initialMinDelayMS 1: ACP-226 would otherwise require 2 s between blocks;
 * - Warp enabled at genesis (quorum 67), no allow lists;
 * - `accounts` funded with `balance` each, and the CREATE2 deployer (CREATE2_DEPLOYER) in place.
 * The object is valid input for parseGenesis (bigint values must be written as bare JSON numbers).
 */
export function devGenesis(opts: DevGenesisOptions): Record<string, unknown> {
  // On Mainnet and Fuji (--network-id) Durango–Granite came later: the genesis is then at the
  // network's Granite time, so that there too every upgrade is active from the genesis on (and
  // Warp, which needs Durango, can be enabled at it).
  const granite = defaultNetworkUpgrades(opts.networkID).graniteTimestamp ?? INITIALLY_ACTIVE_TIME;
  const t = granite > INITIALLY_ACTIVE_TIME ? granite : INITIALLY_ACTIVE_TIME;
  const alloc: Record<string, { balance: string; code?: string }> = {};
  for (const a of opts.accounts) alloc[a.toLowerCase().replace(/^0x/, '')] = { balance: '0x' + opts.balance.toString(16) };
  alloc[CREATE2_DEPLOYER.address] = { balance: '0x0', code: CREATE2_DEPLOYER.code };
  return {
    config: {
      chainId: opts.chainId ?? 43214n,
      feeConfig: feeConfigJSON(DEV_FEE_CONFIG),
      initialMinDelayMS: opts.initialMinDelayMS ?? 1n,
      warpConfig: { blockTimestamp: t, quorumNumerator: 67n, requirePrimaryNetworkSigners: false },
    },
    alloc,
    nonce: '0x0',
    timestamp: '0x' + t.toString(16),
    extraData: '0x',
    gasLimit: '0x' + DEV_FEE_CONFIG.gasLimit.toString(16),
    difficulty: '0x0',
    mixHash: ZERO_HASH_HEX,
    coinbase: ZERO_ADDRESS,
    number: '0x0',
    gasUsed: '0x0',
    parentHash: ZERO_HASH_HEX,
  };
}
