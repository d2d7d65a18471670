// An address's hex, made once per Address object. An eth_call turned the same few Address objects
// (the caller, the callee, the frame's own address) into hex ~20 times — the state's account and
// storage maps, the journal and the warm sets are keyed by it — each a native call and a new
// string whose hash V8 then computes again for every map it is looked up in (~4 % of a new-holder
// call; docs/performance.md session 40). The string is kept on the object: an Address's bytes
// are never written after it is made (@ethereumjs and Powder make a new Address for every new
// address), and the bundle's Address constructor declares the field (scripts/bundle.mjs), so every
// Address keeps one shape. (The field is a plain one: a spread or JSON of an Address shows it.)
import type { Address } from '@ethereumjs/util';
import { hexOf } from '../hexOf.js';

interface WithHex {
  powderHex?: string;
}

/** `a.bytes` as lower-case hex without 0x (bytesToUnprefixedHex's text), computed once per object. */
export function addressHex(a: Address): string {
  const known = (a as unknown as WithHex).powderHex;
  if (known !== undefined) return known;
  return ((a as unknown as WithHex).powderHex = hexOf(a.bytes));
}
