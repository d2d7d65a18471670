// eth_signTypedData_v4: an EIP-712 signature by one of the node's accounts. geth (and so
// Subnet-EVM) has no such method; Anvil, Hardhat and Ganache serve it for their dev accounts, and
// wallets' JSON-RPC accounts (viem's `walletClient.signTypedData`, ethers' `signer.signTypedData`,
// EIP-2612 permits in a test suite) call it. Served with the test controls, signing with the keys
// eth_sign uses (a dev key, or a key-directory key while unlocked). The EIP-712 encoding is
// micro-eth-signer's (already a dependency), loaded with the first call.
import { dynamicImport } from '../../dynamicImport.js';
import { accountsCall, type EvmBackend } from './backend.js';
import { address, bytes, invalidArg, required } from './args.js';
import { withArity } from './controlContext.js';
import { signText, type MethodTable } from './eth.js';

type Signer = typeof import('micro-eth-signer');
let loading: Promise<Signer> | undefined;

function loadSigner(): Promise<Signer> {
  loading ??= dynamicImport<Signer>('micro-eth-signer');
  loading.catch(() => (loading = undefined));
  return loading;
}

/**
 * The typed data argument: the object, or its JSON text (as MetaMask and ethers send it; Hardhat
 * and Anvil take both).
 */
function typedDataArg(v: unknown, i: number): Record<string, unknown> {
  let typed = v;
  if (typeof v === 'string') {
    try {
      typed = JSON.parse(v);
    } catch (e) {
      throw invalidArg(i, `typed data is not JSON: ${(e as Error).message}`);
    }
  }
  if (typed === null || typeof typed !== 'object' || Array.isArray(typed)) throw invalidArg(i, 'typed data must be an object with types, primaryType, domain and message');
  return typed as Record<string, unknown>;
}

interface Field {
  name: string;
  type: string;
}
type Types = Record<string, Field[]>;

/** The EIP712Domain fields a domain may have (used when the message does not declare the type). */
const DOMAIN_FIELDS: Record<string, string> = { name: 'string', version: 'string', chainId: 'uint256', verifyingContract: 'address', salt: 'bytes32' };

class TypedDataError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A value as an error names it: its JSON kind, and a scalar's first 40 characters. */
function describe(v: unknown): string {
  if (v === undefined) return 'nothing (missing)';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${JSON.stringify(v).slice(0, 40)}`;
}

/** The `types` member: struct name → [{name, type}], names and types strings. */
function checkTypes(v: unknown): Types {
  if (!isObject(v)) throw new TypedDataError(`types must be an object, got ${describe(v)}`);
  for (const [struct, fields] of Object.entries(v)) {
    if (!Array.isArray(fields)) throw new TypedDataError(`types.${struct} must be an array of {name, type}`);
    for (const f of fields) {
      if (!isObject(f) || typeof f.name !== 'string' || typeof f.type !== 'string') throw new TypedDataError(`types.${struct} must be an array of {name, type} strings`);
    }
  }
  return v as Types;
}

const HEX = /^0x[0-9a-fA-F]*$/;
const INTEGER = /^(0x[0-9a-fA-F]+|-?[0-9]+)$/;

/** A (u)intN value: a safe integer, or a decimal or 0x-hex string, in the type's range. */
function checkInteger(type: string, bits: number, v: unknown, path: string): void {
  let n: bigint;
  if (typeof v === 'number' && Number.isSafeInteger(v)) n = BigInt(v);
  else if (typeof v === 'string' && INTEGER.test(v)) n = BigInt(v);
  else throw new TypedDataError(`${path}: want a ${type} (a whole number, or a decimal or 0x-hex string), got ${describe(v)}`);
  const signed = type.startsWith('int');
  const min = signed ? -(1n << BigInt(bits - 1)) : 0n;
  const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
  if (n < min || n > max) throw new TypedDataError(`${path}: ${v} is out of range for ${type}`);
}

/**
 * Checks `v` against the EIP-712 type `type` (a struct of `types`, an atomic type, or an array of
 * either), so that the encoder only ever meets values of the right JSON kinds and its own errors
 * are about EIP-712, not JavaScript. Answers the value as it is signed, as Anvil (alloy) takes it:
 * a struct's members that its type does not declare are dropped (geth refuses them), and a
 * `bytesN` shorter than N bytes is padded on the right with zeros.
 */
function checkValue(types: Types, type: string, v: unknown, path: string, depth = 0): unknown {
  if (depth > 64) throw new TypedDataError(`${path}: nested too deep`);
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    if (!Array.isArray(v)) throw new TypedDataError(`${path}: want an array (${type}), got ${describe(v)}`);
    if (array[2] !== '' && v.length !== Number(array[2])) throw new TypedDataError(`${path}: want ${array[2]} items (${type}), got ${v.length}`);
    return v.map((x, i) => checkValue(types, array[1], x, `${path}[${i}]`, depth + 1));
  }
  const struct = Object.hasOwn(types, type) ? types[type] : undefined;
  if (struct) {
    if (!isObject(v)) throw new TypedDataError(`${path}: want an object (${type}), got ${describe(v)}`);
    const out: Record<string, unknown> = {};
    for (const f of struct) {
      const x = checkValue(types, f.type, v[f.name], `${path}.${f.name}`, depth + 1);
      // (defineProperty: a member named __proto__ stays a member.)
      Object.defineProperty(out, f.name, { value: x, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  const sized = /^(u?int|bytes)(\d+)$/.exec(type);
  if (type === 'address') {
    if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(v)) throw new TypedDataError(`${path}: want an address (0x and 40 hex digits), got ${describe(v)}`);
  } else if (type === 'bool') {
    if (typeof v !== 'boolean') throw new TypedDataError(`${path}: want a bool, got ${describe(v)}`);
  } else if (type === 'string') {
    if (typeof v !== 'string') throw new TypedDataError(`${path}: want a string, got ${describe(v)}`);
  } else if (type === 'bytes') {
    if (typeof v !== 'string' || !HEX.test(v) || v.length % 2 !== 0) throw new TypedDataError(`${path}: want bytes (0x and an even number of hex digits), got ${describe(v)}`);
  } else if (sized && sized[1] === 'bytes' && Number(sized[2]) >= 1 && Number(sized[2]) <= 32) {
    const digits = 2 * Number(sized[2]);
    if (typeof v !== 'string' || !HEX.test(v) || v.length % 2 !== 0 || v.length > 2 + digits) {
      throw new TypedDataError(`${path}: want a ${type} (0x and at most ${digits} hex digits, an even number), got ${describe(v)}`);
    }
    return v.padEnd(2 + digits, '0');
  } else if (sized && sized[1] !== 'bytes' && Number(sized[2]) >= 8 && Number(sized[2]) <= 256 && Number(sized[2]) % 8 === 0) {
    checkInteger(type, Number(sized[2]), v, path);
  } else {
    throw new TypedDataError(`${path}: unknown type ${JSON.stringify(type)}`);
  }
  return v;
}

/**
 * The whole message: its four members, the domain against EIP712Domain, the message against the
 * primary type. Answers the typed data to sign (checkValue's values).
 */
function checkTypedData(t: Record<string, unknown>): Record<string, unknown> {
  const types = checkTypes(t.types);
  if (typeof t.primaryType !== 'string' || !Object.hasOwn(types, t.primaryType)) throw new TypedDataError(`primaryType must name one of types, got ${describe(t.primaryType)}`);
  if (!isObject(t.domain)) throw new TypedDataError(`domain must be an object, got ${describe(t.domain)}`);
  if (!isObject(t.message)) throw new TypedDataError(`message must be an object, got ${describe(t.message)}`);
  let domain: unknown;
  if (Object.hasOwn(types, 'EIP712Domain')) domain = checkValue(types, 'EIP712Domain', t.domain, 'domain');
  else {
    const d: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(t.domain)) {
      const type = DOMAIN_FIELDS[k];
      if (!type) throw new TypedDataError(`domain.${k}: not an EIP712Domain field (declare types.EIP712Domain to use it)`);
      d[k] = checkValue(types, type, v, `domain.${k}`);
    }
    domain = d;
  }
  return { ...t, domain, message: checkValue(types, t.primaryType, t.message, 'message') };
}

export function typedDataMethods(be: EvmBackend): MethodTable {
  const m: MethodTable = new Map();
  m.set(
    'eth_signTypedData_v4',
    withArity(2, async (p) => {
      const a = address(required(p, 0), 0);
      const typed = typedDataArg(required(p, 1), 1);
      let checked: Record<string, unknown>;
      try {
        checked = checkTypedData(typed);
      } catch (e) {
        if (e instanceof TypedDataError) throw invalidArg(1, `invalid typed data: ${e.message}`);
        throw e;
      }
      const key = accountsCall(() => be.accountManager.unlockedKey(be.accountManager.find(a)));
      const { signTyped } = await loadSigner();
      try {
        // Deterministic (RFC 6979, no extra entropy), as Anvil's and Hardhat's signatures are.
        return signTyped(checked as never, key, false);
      } catch (e) {
        // What the checks above let through and the encoder still refuses (a struct that
        // refers to itself, …): its own text.
        throw invalidArg(1, `invalid typed data: ${(e as Error).message}`);
      }
    }),
  );
  // personal_sign as the dev nodes serve it (Anvil's, Hardhat's; what ethers' JsonRpcSigner and
  // viem's signMessage send for a node-held account): eth_sign with the message first, signed by
  // the wallet holding the address. Not geth's personal_sign (internal-personal: a keystore
  // account and its password), which methods.ts keeps where that service is enabled.
  m.set(
    'personal_sign',
    withArity(2, (p) => {
      const data = bytes(required(p, 0), 0);
      return signText(be, address(required(p, 1), 1), data);
    }),
  );
  return m;
}
