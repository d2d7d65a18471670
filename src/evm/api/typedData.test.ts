// eth_signTypedData_v4 over HTTP on a real node: the signature of a dev account equals the one
// viem makes locally with the same key (both deterministic), recovers to the account, and bad
// input gets a clear error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { recoverTypedDataAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { devNode, devNodeWithConfig, rpcError, DEV_ADDRS, type Rpc } from '../chain/testkit.js';
import type { TestNode } from '../../../test/helpers.js';

let node: TestNode;
let rpc: Rpc;
before(async () => {
  ({ node, rpc } = await devNode());
});
after(async () => {
  await node?.stop();
});

/** The first account of `test test … junk` (Anvil's and Hardhat's account 0). */
const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as Hex;

/** An EIP-2612 permit, and a nested type with arrays and bytes. */
const permit = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Permit: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
    ],
  },
  primaryType: 'Permit',
  domain: { name: 'Token', version: '1', chainId: 43210, verifyingContract: '0x5fbdb2315678afecb367f032d93f642f64180aa3' },
  message: { owner: DEV_ADDRS[0], spender: DEV_ADDRS[1], value: '1000000000000000000', nonce: 0, deadline: '115792089237316195423570985008687907853269984665640564039457584007913129639935' },
} as const;

const mail = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallets', type: 'address[]' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
      { name: 'attachment', type: 'bytes' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Ether Mail', chainId: 43210 },
  message: {
    from: { name: 'Cow', wallets: [DEV_ADDRS[2], '0x' + 'ab'.repeat(20)] },
    to: [{ name: 'Bob', wallets: ['0x' + 'cd'.repeat(20)] }],
    contents: 'Hello, Bob!',
    attachment: '0xdeadbeef',
  },
} as const;

test('eth_signTypedData_v4: the dev key signs as viem signs locally, as an object or as JSON text', async () => {
  const account = privateKeyToAccount(KEY0);
  assert.equal(account.address.toLowerCase(), DEV_ADDRS[0].toLowerCase());
  for (const typed of [permit, mail]) {
    const want = await account.signTypedData(typed as never);
    assert.equal(await rpc('eth_signTypedData_v4', [DEV_ADDRS[0], typed]), want, typed.primaryType);
    assert.equal(await rpc('eth_signTypedData_v4', [DEV_ADDRS[0], JSON.stringify(typed)]), want, `${typed.primaryType} as JSON text`);
  }
  const sig = (await rpc('eth_signTypedData_v4', [DEV_ADDRS[2], mail])) as Hex;
  assert.match(sig, /^0x[0-9a-f]{128}(1b|1c)$/);
  assert.equal((await recoverTypedDataAddress({ ...(mail as object), signature: sig } as never)).toLowerCase(), DEV_ADDRS[2]);
});

test('eth_signTypedData_v4: bad input is a clear error', async () => {
  const fails = async (params: unknown[]) => {
    const e = await rpcError(rpc('eth_signTypedData_v4', params));
    return [e.code, e.message];
  };
  assert.deepEqual(await fails(['0x' + '12'.repeat(20), permit]), [-32000, 'unknown account']);
  assert.deepEqual(await fails([DEV_ADDRS[0]]), [-32602, 'missing value for required argument 1']);
  assert.deepEqual(await fails([DEV_ADDRS[0], permit, 1]), [-32602, 'too many arguments, want at most 2']);
  assert.deepEqual((await fails(['0x12', permit]))[0], -32602);
  assert.deepEqual(await fails([DEV_ADDRS[0], 7]), [-32602, 'invalid argument 1: typed data must be an object with types, primaryType, domain and message']);
  assert.deepEqual(await fails([DEV_ADDRS[0], [permit]]), [-32602, 'invalid argument 1: typed data must be an object with types, primaryType, domain and message']);
  const notJson = await fails([DEV_ADDRS[0], '{"types":']);
  assert.equal(notJson[0], -32602);
  assert.match(notJson[1] as string, /^invalid argument 1: typed data is not JSON: /);
  const { value: _value, ...noValue } = permit.message;
  for (const [bad, why] of [
    [{ ...permit, primaryType: 'Nope' }, 'primaryType must name one of types, got string "Nope"'],
    [{ ...permit, message: { ...permit.message, value: 'lots' } }, 'message.value: want a uint256 (a whole number, or a decimal or 0x-hex string), got string "lots"'],
    [{ ...permit, message: { ...permit.message, value: '-1' } }, 'message.value: -1 is out of range for uint256'],
    [{ ...permit, message: { ...permit.message, value: 1.5 } }, 'message.value: want a uint256 (a whole number, or a decimal or 0x-hex string), got number 1.5'],
    // A JSON number past 2^53 would be signed rounded: refused.
    [{ ...permit, message: { ...permit.message, value: 1e30 } }, 'message.value: want a uint256 (a whole number, or a decimal or 0x-hex string), got number 1e+30'],
    [{ ...permit, message: noValue }, 'message.value: want a uint256 (a whole number, or a decimal or 0x-hex string), got nothing (missing)'],
    [{ ...permit, message: { ...permit.message, owner: '0x1234' } }, 'message.owner: want an address (0x and 40 hex digits), got string "0x1234"'],
    [{ ...permit, message: { ...permit.message, owner: { a: 1 } } }, 'message.owner: want an address (0x and 40 hex digits), got an object'],
    [{ ...permit, domain: 'Token' }, 'domain must be an object, got string "Token"'],
    [{ ...permit, domain: { ...permit.domain, chainId: 'x' } }, 'domain.chainId: want a uint256 (a whole number, or a decimal or 0x-hex string), got string "x"'],
    [{ ...permit, types: { ...permit.types, Permit: [{ name: 'owner', type: 'Unknown' }] } }, 'message.owner: unknown type "Unknown"'],
    [{ ...permit, types: [] }, 'types must be an object, got an array'],
    [{ ...mail, message: { ...mail.message, to: 'Bob' } }, 'message.to: want an array (Person[]), got string "Bob"'],
    [{ ...mail, message: { ...mail.message, attachment: '0xabc' } }, 'message.attachment: want bytes (0x and an even number of hex digits), got string "0xabc"'],
    [{ ...mail, message: { ...mail.message, to: [{ name: 'Bob', wallets: [7] }] } }, 'message.to[0].wallets[0]: want an address (0x and 40 hex digits), got number 7'],
    [{ types: { Mail: mail.types.Mail, Person: mail.types.Person }, primaryType: 'Mail', domain: { name: 'x', colour: 'red' }, message: mail.message }, 'domain.colour: not an EIP712Domain field (declare types.EIP712Domain to use it)'],
  ] as const) {
    assert.deepEqual(await fails([DEV_ADDRS[0], bad]), [-32602, `invalid argument 1: invalid typed data: ${why}`]);
  }
  // Without types.EIP712Domain the domain's type is made from the fields it has, as viem does.
  const { EIP712Domain: _d, ...noDomainType } = mail.types;
  const derived = { ...mail, types: noDomainType };
  assert.equal(await rpc('eth_signTypedData_v4', [DEV_ADDRS[0], derived]), await privateKeyToAccount(KEY0).signTypedData(derived as never));
  // The node still signs after all that.
  assert.match(await rpc('eth_signTypedData_v4', [DEV_ADDRS[0], permit]), /^0x[0-9a-f]{130}$/);
});

test('eth_signTypedData_v4: as Anvil, undeclared members are ignored and a short bytesN is padded on the right', async () => {
  const account = privateKeyToAccount(KEY0);
  const sign = (typed: unknown) => rpc('eth_signTypedData_v4', [DEV_ADDRS[0], typed]);
  // A member the type does not declare is not signed (geth refuses it; Anvil and MetaMask ignore it).
  const extra = { ...permit, message: { ...permit.message, memo: 'not signed' }, domain: { ...permit.domain, colour: 'red' } };
  assert.equal(await sign(extra), await account.signTypedData(permit as never));
  const nested = { ...mail, message: { ...mail.message, from: { ...mail.message.from, age: 7 } } };
  assert.equal(await sign(nested), await account.signTypedData(mail as never));
  // bytes4 "0x12" is signed as 0x12000000 (alloy's coercion); "0x" as zero.
  const fixed = (v: string) => ({ types: { EIP712Domain: [], T: [{ name: 'a', type: 'bytes4' }] }, primaryType: 'T', domain: {}, message: { a: v } });
  assert.equal(await sign(fixed('0x12')), await account.signTypedData(fixed('0x12000000') as never));
  assert.equal(await sign(fixed('0x')), await account.signTypedData(fixed('0x00000000') as never));
  // Longer than N bytes is refused (Anvil signs the first N bytes: a value other than the one given).
  const e = await rpcError(sign(fixed('0x1234567890')));
  assert.deepEqual([e.code, e.message], [-32602, 'invalid argument 1: invalid typed data: message.a: want a bytes4 (0x and at most 8 hex digits, an even number), got string "0x1234567890"']);
  const odd = await rpcError(sign(fixed('0x123')));
  assert.equal(odd.code, -32602);
});

test('eth_signTypedData_v4 is served with the test controls only', async () => {
  const { node: other, rpc: otherRpc } = await devNodeWithConfig({ 'powder-test-controls': false });
  try {
    assert.equal((await rpcError(otherRpc('eth_signTypedData_v4', [DEV_ADDRS[0], permit]))).code, -32601);
  } finally {
    await other.stop();
  }
});

test('personal_sign (the dev nodes\'): eth_sign with the message first, as Anvil answers it; viem and ethers sign through it', async () => {
  // Anvil 1.7.1's answer for this message and account 0.
  const anvil = '0xf16ea9a3478698f695fd1401bfe27e9e4a7e8e3da94aa72b021125e31fa899cc573c48ea3fe1d4ab61a9db10c19032026e3ed2dbccba5a178235ac27f94504311c';
  assert.equal(await rpc('personal_sign', ['0x68656c6c6f', DEV_ADDRS[0]]), anvil);
  assert.equal(await rpc('eth_sign', [DEV_ADDRS[0], '0x68656c6c6f']), anvil);
  assert.equal(await privateKeyToAccount(KEY0).signMessage({ message: 'hello' }), anvil);
  const { createWalletClient, http } = await import('viem');
  const url = `${node.url}/ext/bc/dev/rpc`;
  const wallet = createWalletClient({ transport: http(url) });
  assert.equal(await wallet.signMessage({ account: DEV_ADDRS[0] as Hex, message: 'hello' }), anvil, "viem's signMessage with a node-held account");
  const { JsonRpcProvider } = await import('ethers');
  const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true });
  try {
    assert.equal(await (await provider.getSigner(DEV_ADDRS[0])).signMessage('hello'), anvil, "ethers' JsonRpcSigner");
  } finally {
    provider.destroy();
  }
  const fails = async (params: unknown[]) => {
    const e = await rpcError(rpc('personal_sign', params));
    return [e.code, e.message];
  };
  assert.deepEqual(await fails(['0x68656c6c6f', '0x' + '11'.repeat(20)]), [-32000, 'unknown account']);
  assert.deepEqual(await fails(['0x68656c6c6f', DEV_ADDRS[0], 'password']), [-32602, 'too many arguments, want at most 2']);
  assert.deepEqual(await fails(['hello', DEV_ADDRS[0]]), [-32602, 'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Bytes']);
  assert.deepEqual(await fails(['0x68656c6c6f']), [-32602, 'missing value for required argument 1']);
});

test('personal_sign is served with the test controls only (geth\'s, with a password, where internal-personal is enabled)', async () => {
  const { node: other, rpc: otherRpc } = await devNodeWithConfig({ 'powder-test-controls': false });
  try {
    assert.equal((await rpcError(otherRpc('personal_sign', ['0x68656c6c6f', DEV_ADDRS[0]]))).code, -32601);
  } finally {
    await other.stop();
  }
});
