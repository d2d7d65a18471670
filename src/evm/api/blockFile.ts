// Blocks as files: the debug_getRawBlock encoding ([header, txs, uncles], §5.3) decoded back into
// the chain's Block. Used by the debug-file-tracer and admin
// services (fileTracer.ts, chainAdmin.ts).
import { RLP } from '@ethereumjs/rlp';
import { createTxFromRLP } from '@ethereumjs/tx';
import { decodeTxFields } from './txFields.js';
import type { Block, Blockchain } from '../chain/blockchain.js';
import { decodeHeader, encodeHeader } from '../chain/header.js';
import { keccak256 } from '../crypto.js';
import { hexD } from './format.js';

/** A decoding failure, with the text geth's rlp package would give (as near as it can be told). */
export class BlockDecodeError extends Error {}

type Item = Uint8Array | Item[];

/**
 * Decodes the first RLP value of `input` as a block; returns it and the bytes after it (geth's
 * rlp.Stream reads values back to back). Senders are recovered from the signatures, or taken
 * from the chain when it holds the same block (its impersonated txs carry no real signature).
 * `source` is how geth reads the bytes: `bytes` (rlp.DecodeBytes, which knows the input's size: a
 * value past it is `value size exceeds available input length`) or `stream` (an rlp.Stream on a
 * file or gzip reader, which has no size: it reads until the bytes run out, `unexpected EOF`).
 */
export function decodeBlock(chain: Blockchain, input: Uint8Array, source: 'bytes' | 'stream' = 'bytes'): { block: Block; rest: Uint8Array } {
  if (input.length === 0) throw new BlockDecodeError('EOF');
  let decoded: { data: Item; remainder: Uint8Array };
  try {
    decoded = RLP.decode(input, true) as never;
  } catch (e) {
    const text = rlpText((e as Error).message, input);
    throw new BlockDecodeError(source === 'stream' && text === VALUE_TOO_LARGE ? 'unexpected EOF' : text);
  }
  const l = decoded.data;
  if (!Array.isArray(l)) throw new BlockDecodeError('rlp: expected input list for types.extblock');
  if (l.length < 3) throw new BlockDecodeError('rlp: too few elements for types.extblock');
  if (l.length > 3) throw new BlockDecodeError('rlp: input list has too many elements for types.extblock');
  const [h, txs, uncles] = l;
  if (!Array.isArray(h)) throw new BlockDecodeError('rlp: expected input list for types.Header, decoding into (types.extblock).Header');
  if (!Array.isArray(txs)) throw new BlockDecodeError('rlp: expected input list for []*types.Transaction, decoding into (types.extblock).Txs');
  if (!Array.isArray(uncles)) throw new BlockDecodeError('rlp: expected input list for []*types.Header, decoding into (types.extblock).Uncles');
  if (uncles.length > 0) throw new BlockDecodeError('rlp: uncles are not allowed in a Subnet-EVM block');
  let header;
  try {
    header = decodeHeader(RLP.encode(h as never));
  } catch (e) {
    throw new BlockDecodeError(`${(e as Error).message}, decoding into (types.extblock).Header`);
  }
  const headerRLP = encodeHeader(header);
  const hash = keccak256(headerRLP);
  const rawTxs = txs.map((t) => (Array.isArray(t) ? RLP.encode(t as never) : Uint8Array.from(t)));
  const block: Block = { hash, hashHex: hexD(hash), header, rawTxs, senders: [] };
  const known = chain.blockByHash(hash);
  if (known && known.rawTxs.length === rawTxs.length) {
    block.senders = known.senders;
  } else {
    const common = chain.commons.get(chain.forkAt(header.timestamp));
    block.senders = rawTxs.map((raw, i) => {
      // geth's decoder refuses a malformed tx before ethereumjs could fail on it in JavaScript's
      // words; its path extends the tx's own: `(types.Block)(types.extblock).Txs[i](types.DynamicFeeTx)…`.
      const shape = raw.length > 1 || raw[0] > 0x7f ? decodeTxFields(raw).error : undefined;
      if (shape) throw new BlockDecodeError(shape.path === undefined ? shape.text : `${shape.text}, decoding into (types.Block)(types.extblock).Txs[${i}]${shape.path}`);
      try {
        const tx = createTxFromRLP(raw, { common });
        return tx.getSenderAddress().bytes;
      } catch (e) {
        throw new BlockDecodeError(`transaction ${i}: ${goTxError((e as Error).message)}, decoding into (types.extblock).Txs`);
      }
    });
  }
  return { block, rest: decoded.remainder };
}

const VALUE_TOO_LARGE = 'rlp: value size exceeds available input length';

function rlpText(msg: string, input: Uint8Array): string {
  // @ethereumjs/rlp's "(safeSlice): end slice of Uint8Array out-of-bounds": a value runs past the
  // bytes around it — past the input (the first value's own size), or past its list.
  if (/safeSlice|out-of-bounds/.test(msg)) {
    const size = firstValueSize(input);
    return size !== undefined && size <= input.length ? 'rlp: element is larger than containing list' : VALUE_TOO_LARGE;
  }
  // @ethereumjs/rlp: "invalid RLP: expected string length to be greater than 55" and the like;
  // geth's stream reader says the value runs past the input.
  if (/remainder|length|too short|out of range|not enough/i.test(msg)) return VALUE_TOO_LARGE;
  return `rlp: ${msg.replace(/^invalid RLP:\s*/i, '')}`;
}

/** The size in bytes (header included) the first RLP value of `input` declares; undefined if its header is cut. */
function firstValueSize(input: Uint8Array): number | undefined {
  const b = input[0];
  if (b < 0x80) return 1;
  if (b <= 0xb7) return 1 + b - 0x80;
  if (b >= 0xc0 && b <= 0xf7) return 1 + b - 0xc0;
  const ll = b <= 0xbf ? b - 0xb7 : b - 0xf7;
  if (input.length < 1 + ll) return undefined;
  let n = 0;
  for (let i = 1; i <= ll; i++) n = n * 256 + input[i];
  return 1 + ll + n;
}

function goTxError(msg: string): string {
  if (/signature|recover|v value|invalid (r|s)\b/i.test(msg)) return 'invalid transaction v, r, s values';
  return msg;
}
