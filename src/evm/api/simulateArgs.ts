// eth_simulateV1's first argument decoded as geth decodes its simOpts (internal/ethapi/simulate.go):
// JSON keys matched case-insensitively, unknown keys ignored, null leaving a field unset, and a
// value of the wrong kind refused with Go's encoding/json text as `invalid argument 0: …` (-32602).
import { GoTypeError, arg, decodeAddress, decodeBig, decodeBool, decodeHash, decodeUint64, fieldOf, inStructField, jsonKind } from '../rpc/params.js';
import { parseCallArgs, parseStateOverrides, type CallArgs, type StateOverride } from './backend.js';

/** The block fields a simulated block may set (geth's override.BlockOverrides, simulate's names). */
export interface SimBlockOverrides {
  number?: bigint;
  time?: bigint;
  gasLimit?: bigint;
  /** `feeRecipient` (eth_call's older name `coinbase` is taken too). */
  feeRecipient?: string;
  /** `baseFeePerGas` (eth_call's older name `baseFee` is taken too). */
  baseFee?: bigint;
  /** The header's parentBeaconBlockRoot (Etna headers), which the EIP-4788 contract records. */
  beaconRoot?: Uint8Array;
}

export interface SimBlock {
  overrides: SimBlockOverrides;
  stateOverrides?: Map<string, StateOverride>;
  calls: CallArgs[];
}

export interface SimOpts {
  blocks: SimBlock[];
  traceTransfers: boolean;
  validation: boolean;
  fullTx: boolean;
}

type Decoder = (v: unknown) => unknown;

/** Go's struct decoding: the fields of `table` (lower-case JSON name → [name, decoder]); errors name `struct.field`. */
function decodeFields(struct: string, goType: string, v: unknown, table: Record<string, [string, Decoder]>): Record<string, unknown> {
  if (v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new GoTypeError(jsonKind(v), goType);
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    const f = fieldOf(table, k);
    if (!f) continue;
    if (val === null) delete out[f[0]];
    else out[f[0]] = inStructField(struct, f[0], () => f[1](val));
  }
  return out;
}

/** A JSON array (null: empty), each element decoded by `item`. */
const arrayOf =
  (goType: string, item: (v: unknown) => unknown): Decoder =>
  (v) => {
    if (!Array.isArray(v)) throw new GoTypeError(jsonKind(v), goType);
    return v.map(item);
  };

/** Decoded and kept only to refuse a malformed value (the field has no effect here, see simulate.md). */
const checked = (decode: Decoder): Decoder => (v) => (decode(v), undefined);

const BLOCK_OVERRIDE_FIELDS: Record<string, [string, Decoder]> = {
  number: ['number', decodeBig],
  time: ['time', decodeUint64],
  gaslimit: ['gasLimit', decodeUint64],
  feerecipient: ['feeRecipient', (v) => decodeAddress(v).toLowerCase()],
  coinbase: ['coinbase', (v) => decodeAddress(v).toLowerCase()],
  basefeepergas: ['baseFeePerGas', decodeBig],
  basefee: ['baseFee', decodeBig],
  beaconroot: ['beaconRoot', (v) => Buffer.from(decodeHash(v).slice(2), 'hex')],
  difficulty: ['difficulty', checked(decodeBig)],
  prevrandao: ['prevRandao', checked(decodeHash)],
  blobbasefee: ['blobBaseFee', checked(decodeBig)],
  withdrawals: ['withdrawals', checked(arrayOf('types.Withdrawals', () => undefined))],
};

function blockOverrides(v: unknown): SimBlockOverrides {
  const o = decodeFields('BlockOverrides', 'override.BlockOverrides', v, BLOCK_OVERRIDE_FIELDS);
  return {
    number: o.number as bigint | undefined,
    time: o.time as bigint | undefined,
    gasLimit: o.gasLimit as bigint | undefined,
    feeRecipient: (o.feeRecipient ?? o.coinbase) as string | undefined,
    baseFee: (o.baseFeePerGas ?? o.baseFee) as bigint | undefined,
    beaconRoot: o.beaconRoot as Uint8Array | undefined,
  };
}

/** Calls and state overrides reuse eth_call's decoders (their texts name argument 0). */
const SIM_BLOCK_FIELDS: Record<string, [string, Decoder]> = {
  blockoverrides: ['blockOverrides', blockOverrides],
  stateoverrides: ['stateOverrides', (v) => parseStateOverrides(v, 0)],
  calls: ['calls', arrayOf('[]ethapi.TransactionArgs', (c) => parseCallArgs(c, 0))],
};

function simBlock(v: unknown): SimBlock {
  const b = decodeFields('simBlock', 'ethapi.simBlock', v, SIM_BLOCK_FIELDS);
  return {
    overrides: (b.blockOverrides as SimBlockOverrides | undefined) ?? {},
    stateOverrides: b.stateOverrides as Map<string, StateOverride> | undefined,
    calls: (b.calls as CallArgs[] | undefined) ?? [],
  };
}

const SIM_OPTS_FIELDS: Record<string, [string, Decoder]> = {
  blockstatecalls: ['blockStateCalls', arrayOf('[]ethapi.simBlock', simBlock)],
  tracetransfers: ['traceTransfers', decodeBool],
  validation: ['validation', decodeBool],
  returnfulltransactions: ['returnFullTransactions', decodeBool],
};

/** eth_simulateV1's `opts` (argument 0). */
export function parseSimOpts(v: unknown): SimOpts {
  const o = arg(0, () => decodeFields('simOpts', 'ethapi.simOpts', v, SIM_OPTS_FIELDS));
  return {
    blocks: (o.blockStateCalls as SimBlock[] | undefined) ?? [],
    traceTransfers: o.traceTransfers === true,
    validation: o.validation === true,
    fullTx: o.returnFullTransactions === true,
  };
}
