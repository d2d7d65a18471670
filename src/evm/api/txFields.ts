// A raw transaction's RLP fields, checked as geth's rlp decoder checks them (types.LegacyTx,
// AccessListTx, DynamicFeeTx), in field order and in its words, before ethereumjs sees them:
// ethereumjs takes shapes geth refuses (a 6-field unsigned legacy tx), and some it cannot take at
// all fail inside it with a JavaScript text (an access-list entry that is a byte string instead of
// [address, keys]: "Cannot read properties of undefined (reading 'startsWith')").
import { RLP } from '@ethereumjs/rlp';

/** geth's name and Go type of each field, by type byte (legacy: any first byte above 0x7f). */
const FIELDS: Record<number, { name: string; fields: [field: string, goType: string][] }> = {
  0: {
    name: 'LegacyTx',
    fields: [['Nonce', 'uint64'], ['GasPrice', '*big.Int'], ['Gas', 'uint64'], ['To', 'common.Address'], ['Value', '*big.Int'], ['Data', '[]uint8'], ['V', '*big.Int'], ['R', '*big.Int'], ['S', '*big.Int']],
  },
  1: {
    name: 'AccessListTx',
    fields: [['ChainID', '*big.Int'], ['Nonce', 'uint64'], ['GasPrice', '*big.Int'], ['Gas', 'uint64'], ['To', 'common.Address'], ['Value', '*big.Int'], ['Data', '[]uint8'], ['AccessList', 'types.AccessList'], ['V', '*big.Int'], ['R', '*big.Int'], ['S', '*big.Int']],
  },
  2: {
    name: 'DynamicFeeTx',
    fields: [['ChainID', '*big.Int'], ['Nonce', 'uint64'], ['GasTipCap', '*big.Int'], ['GasFeeCap', '*big.Int'], ['Gas', 'uint64'], ['To', 'common.Address'], ['Value', '*big.Int'], ['Data', '[]uint8'], ['AccessList', 'types.AccessList'], ['V', '*big.Int'], ['R', '*big.Int'], ['S', '*big.Int']],
  },
};

/** geth's name of a tx type's inner struct (`LegacyTx`, …), or undefined for a type it has no decoder for here. */
export const txTypeName = (type: number): string | undefined => FIELDS[type]?.name;

/**
 * geth's rlp error: `rlp: <msg> for <type>` and, for a decodeError, the path to the value it was
 * raised in (`(types.DynamicFeeTx).AccessList[0]`, or '' at the top), which geth prints after
 * `, decoding into ` and an enclosing decode (a block's Txs[i]) extends; a stream error (`input
 * contains more than one value`) has none (undefined).
 */
export interface TxRlpError {
  text: string;
  path?: string;
}

export const txRlpErrorText = (e: TxRlpError): string => (e.path ? `${e.text}, decoding into ${e.path}` : e.text);

/** A raw tx's RLP fields: `error` when geth's decoder refuses them. */
export interface TxFields {
  error?: TxRlpError;
  /** The list's items; absent for malformed RLP, which ethereumjs' own decoder then words. */
  values?: unknown[];
}

export function decodeTxFields(raw: Uint8Array): TxFields {
  const legacy = raw[0] > 0x7f;
  const t = FIELDS[legacy ? 0 : raw[0]];
  if (!t) return {};
  let decoded: { data: unknown; remainder: Uint8Array };
  try {
    decoded = RLP.decode(legacy ? raw : raw.subarray(1), true) as never;
  } catch {
    return {}; // malformed RLP: the decoder below words it
  }
  if (decoded.remainder.length) return { error: { text: 'rlp: input contains more than one value' } };
  const values = decoded.data;
  const struct = `types.${t.name}`;
  if (!Array.isArray(values)) return { error: { text: `rlp: expected input list for ${struct}`, path: '' } };
  if (values.length < t.fields.length) return { error: { text: `rlp: too few elements for ${struct}`, path: '' } };
  if (values.length > t.fields.length) return { error: { text: `rlp: input list has too many elements for ${struct}`, path: '' } };
  for (let i = 0; i < values.length; i++) {
    const [field, goType] = t.fields[i];
    const e = goType === 'types.AccessList' ? accessListError(values[i]) : valueError(values[i], goType, field === 'To');
    if (e) return { error: { text: `rlp: ${e.msg}`, path: `(${struct}).${field}${e.path}` } };
    // ethereumjs checks every integer for leading zeros but a typed tx's chain id (its first field,
    // so geth names it first); a canonical encoding is also what lets the hash be the raw bytes'.
    if (i === 0 && !legacy && (values[0] as Uint8Array)[0] === 0) {
      return { error: { text: 'rlp: non-canonical integer (leading zero bytes) for *big.Int', path: `(${struct}).ChainID` } };
    }
  }
  return { values };
}

/** A field error: geth's message (with its Go type) and the path below the field. */
type FieldError = { msg: string; path: string } | undefined;

/** A string-kind value of `goType`; a 20-byte array for an address (empty allowed for `To`: contract creation). */
function valueError(v: unknown, goType: string, nilOK = false): FieldError {
  if (!(v instanceof Uint8Array)) return { msg: `expected input string or byte for ${goType}`, path: '' };
  // geth decodes Nonce and Gas into uint64s.
  if (goType === 'uint64' && v.length > 8) return { msg: 'input string too long for uint64', path: '' };
  const size = goType === 'common.Address' ? 20 : goType === 'common.Hash' ? 32 : undefined;
  if (size === undefined || (nilOK && v.length === 0)) return undefined;
  if (v.length < size) return { msg: `input string too short for ${goType}`, path: '' };
  if (v.length > size) return { msg: `input string too long for ${goType}`, path: '' };
  return undefined;
}

/** types.AccessList: a list of AccessTuple{Address common.Address; StorageKeys []common.Hash}. */
function accessListError(v: unknown): FieldError {
  if (!Array.isArray(v)) return { msg: 'expected input list for types.AccessList', path: '' };
  for (let i = 0; i < v.length; i++) {
    const tuple = v[i];
    const at = `[${i}]`;
    if (!Array.isArray(tuple)) return { msg: 'expected input list for types.AccessTuple', path: at };
    if (tuple.length === 0) return { msg: 'too few elements for types.AccessTuple', path: at };
    const a = valueError(tuple[0], 'common.Address');
    if (a) return { msg: a.msg, path: `${at}.Address` };
    if (tuple.length < 2) return { msg: 'too few elements for types.AccessTuple', path: at };
    const keys = tuple[1];
    if (!Array.isArray(keys)) return { msg: 'expected input list for []common.Hash', path: `${at}.StorageKeys` };
    for (let k = 0; k < keys.length; k++) {
      const h = valueError(keys[k], 'common.Hash');
      if (h) return { msg: h.msg, path: `${at}.StorageKeys[${k}]` };
    }
    if (tuple.length > 2) return { msg: 'input list has too many elements for types.AccessTuple', path: at };
  }
  return undefined;
}
