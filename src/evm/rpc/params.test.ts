// geth's param decoding texts, one case per kind of bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RpcError } from './server.js';
import * as p from './params.js';

/** Asserts that f throws an RpcError with exactly this code and message. */
function throwsRpc(f: () => unknown, code: number, message: string) {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof RpcError, `not an RpcError: ${e}`);
    assert.equal(e.message, message);
    assert.equal(e.code, code);
    return true;
  });
}
const bad = (f: () => unknown, message: string) => throwsRpc(f, -32602, message);

test('arity and missing arguments', () => {
  bad(() => p.checkArgs([1, 2, 3], 2), 'too many arguments, want at most 2');
  p.checkArgs([1, 2], 2);
  bad(() => p.addressArg(undefined, 0), 'missing value for required argument 0');
  bad(() => p.blockNumberArg(undefined, 1), 'missing value for required argument 1');
});

test('hexutil.Big', () => {
  assert.equal(p.bigArg('0x0', 0), 0n);
  assert.equal(p.bigArg('0x1bc16d674ec80000', 0), 2000000000000000000n);
  assert.equal(p.bigArg('0XFF', 0), 255n);
  assert.equal(p.bigArg('', 0), 0n);
  assert.equal(p.optBigArg(null, 0), undefined);
  bad(() => p.bigArg('12', 1), 'invalid argument 1: json: cannot unmarshal hex string without 0x prefix into Go value of type *hexutil.Big');
  bad(() => p.bigArg('0x', 0), 'invalid argument 0: json: cannot unmarshal hex string "0x" into Go value of type *hexutil.Big');
  bad(() => p.bigArg('0x01', 0), 'invalid argument 0: json: cannot unmarshal hex number with leading zero digits into Go value of type *hexutil.Big');
  bad(() => p.bigArg('0xzz', 0), 'invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type *hexutil.Big');
  bad(() => p.bigArg('0x1' + '0'.repeat(64), 0), 'invalid argument 0: json: cannot unmarshal hex number > 256 bits into Go value of type *hexutil.Big');
  bad(() => p.bigArg(5, 0), 'invalid argument 0: json: cannot unmarshal non-string into Go value of type *hexutil.Big');
});

test('hexutil.Uint64 and Uint', () => {
  assert.equal(p.uint64Arg('0xffffffffffffffff', 0), 2n ** 64n - 1n);
  bad(() => p.uint64Arg('0x10000000000000000', 0), 'invalid argument 0: json: cannot unmarshal hex number > 64 bits into Go value of type hexutil.Uint64');
  bad(() => p.uint64Arg('0x0g', 0), 'invalid argument 0: json: cannot unmarshal hex number with leading zero digits into Go value of type hexutil.Uint64');
  bad(() => p.uint64Arg('0xg', 0), 'invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type hexutil.Uint64');
  assert.equal(p.uintArg('0x2', 1), 2);
  bad(() => p.uintArg(2, 1), 'invalid argument 1: json: cannot unmarshal non-string into Go value of type hexutil.Uint');
});

test('address, hash, bytes', () => {
  assert.equal(p.addressArg('0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266', 0), '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
  bad(() => p.addressArg('0x12', 0), 'invalid argument 0: hex string has length 2, want 40 for common.Address');
  bad(() => p.addressArg('0x123', 0), 'invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type common.Address');
  bad(() => p.addressArg('f39fd6e51aad88f6f4ce6ab8827279cfffb92266', 0), 'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address');
  bad(() => p.addressArg('0x' + 'zz'.repeat(20), 0), 'invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type common.Address');
  bad(() => p.addressArg(null, 0), 'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Address');
  assert.equal(p.optAddressArg(null, 0), undefined);
  assert.equal(p.hashArg('0x' + 'AB'.repeat(32), 0), '0x' + 'ab'.repeat(32));
  bad(() => p.hashArg('0x' + 'ab'.repeat(20), 2), 'invalid argument 2: hex string has length 40, want 64 for common.Hash');
  assert.equal(p.bytesArg('0x', 0).length, 0);
  assert.deepEqual([...p.bytesArg('0xdeadBEEF', 0)], [0xde, 0xad, 0xbe, 0xef]);
  bad(() => p.bytesArg('0xabc', 0), 'invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type hexutil.Bytes');
  bad(() => p.bytesArg('0xqq', 0), 'invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type hexutil.Bytes');
  bad(() => p.bytesArg([], 0), 'invalid argument 0: json: cannot unmarshal non-string into Go value of type hexutil.Bytes');
});

test('bool, uint64 number, hex-or-decimal', () => {
  assert.equal(p.boolArg(true, 1), true);
  assert.equal(p.boolArg(null, 1), false);
  bad(() => p.boolArg('true', 1), 'invalid argument 1: json: cannot unmarshal string into Go value of type bool');
  assert.equal(p.optUint64NumberArg([1700000000], 0), 1700000000n);
  bad(() => p.optUint64NumberArg(['0x10'], 0), 'invalid argument 0: json: cannot unmarshal string into Go value of type uint64');
  bad(() => p.optUint64NumberArg([-1], 0), 'invalid argument 0: json: cannot unmarshal number -1 into Go value of type uint64');
  assert.equal(p.hexOrDecimal64Arg(['0x10'], 0), 16n);
  assert.equal(p.hexOrDecimal64Arg(['10'], 0), 10n);
  assert.equal(p.hexOrDecimal64Arg([4], 0), 4n);
  bad(() => p.hexOrDecimal64Arg(['x'], 0), 'invalid argument 0: invalid hex or decimal integer "x"');
});

test('block numbers and tags', () => {
  assert.equal(p.blockNumberArg('latest', 0), 'latest');
  assert.equal(p.blockNumberArg('accepted', 0), 'finalized');
  assert.equal(p.blockNumberArg('finalized', 0), 'finalized');
  assert.equal(p.blockNumberArg('safe', 0), 'safe');
  assert.equal(p.blockNumberArg('pending', 0), 'pending');
  assert.equal(p.blockNumberArg('earliest', 0), 0n);
  assert.equal(p.blockNumberArg('0x1f', 0), 31n);
  bad(() => p.blockNumberArg('0x8000000000000000', 0), 'invalid argument 0: block number larger than int64');
  bad(() => p.blockNumberArg('0x10000000000000000', 0), 'invalid argument 0: hex number > 64 bits');
  bad(() => p.blockNumberArg(5, 0), 'invalid argument 0: hex string without 0x prefix');
  bad(() => p.blockNumberArg('', 0), 'invalid argument 0: empty hex string');
  bad(() => p.blockNumberArg('0x', 0), 'invalid argument 0: hex string "0x"');
  bad(() => p.blockNumberArg('0x00', 0), 'invalid argument 0: hex number with leading zero digits');
  bad(() => p.blockNumberArg('newest', 0), 'invalid argument 0: hex string without 0x prefix');
});

test('block number or hash', () => {
  const h = '0x' + '12'.repeat(32);
  assert.deepEqual(p.blockNumberOrHashArg('latest', 1), { number: 'latest', requireCanonical: false });
  assert.deepEqual(p.blockNumberOrHashArg('0x5', 1), { number: 5n, requireCanonical: false });
  assert.deepEqual(p.blockNumberOrHashArg(h, 1), { hash: h, requireCanonical: false });
  assert.deepEqual(p.blockNumberOrHashArg({ blockHash: h, requireCanonical: true }, 1), { hash: h, requireCanonical: true });
  assert.deepEqual(p.blockNumberOrHashArg({ blockNumber: '0x2' }, 1), { number: 2n, requireCanonical: false });
  bad(() => p.blockNumberOrHashArg({ blockNumber: '0x2', blockHash: h }, 1), 'invalid argument 1: cannot specify both BlockHash and BlockNumber, choose one or the other');
  bad(() => p.blockNumberOrHashArg({ blockNumber: 2 }, 1), 'invalid argument 1: json: cannot unmarshal object into Go value of type string');
  bad(() => p.blockNumberOrHashArg(7, 1), 'invalid argument 1: json: cannot unmarshal number into Go value of type string');
  bad(() => p.blockNumberOrHashArg('0x8000000000000000', 1), 'invalid argument 1: blocknumber too high');
  bad(() => p.blockNumberOrHashArg('0x' + 'zz'.repeat(32), 1), 'invalid argument 1: invalid hex string');
  bad(() => p.blockNumberOrHashArg('pendingx', 1), 'invalid argument 1: hex string without 0x prefix');
  throwsRpc(() => p.blockNumberOrHashArg(null, 1), -32000, 'invalid arguments; neither block nor hash specified');
  throwsRpc(() => p.blockNumberOrHashArg({}, 1), -32000, 'invalid arguments; neither block nor hash specified');
  assert.deepEqual(p.optBlockNumberOrHashArg(undefined, 1), { number: 'latest', requireCanonical: false });
  assert.deepEqual(p.optBlockNumberOrHashArg(null, 1), { number: 'latest', requireCanonical: false });
});

test('transaction args', () => {
  const a = p.transactionArgsArg({
    from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    to: null,
    gas: '0x5208',
    value: '0x1',
    maxFeePerGas: '0x2',
    Input: '0x1234',
    type: '0x2',
    accessList: [{ address: '0x' + '11'.repeat(20), storageKeys: ['0x' + '00'.repeat(32)] }],
  }, 0);
  assert.equal(a.from, '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
  assert.equal(a.to, undefined);
  assert.equal(a.gas, 21000n);
  assert.equal(a.value, 1n);
  assert.equal(a.maxFeePerGas, 2n);
  assert.deepEqual([...p.callData(a)], [0x12, 0x34]);
  assert.equal(a.accessList?.[0].storageKeys.length, 1);
  bad(() => p.transactionArgsArg({ gas: '5208' }, 0), 'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go struct field TransactionArgs.gas of type hexutil.Uint64');
  bad(() => p.transactionArgsArg({ value: 1 }, 0), 'invalid argument 0: json: cannot unmarshal non-string into Go struct field TransactionArgs.value of type *hexutil.Big');
  bad(() => p.transactionArgsArg({ to: '0x1234' }, 0), 'invalid argument 0: hex string has length 4, want 40 for common.Address');
  bad(() => p.transactionArgsArg({ data: '0x1' }, 0), 'invalid argument 0: json: cannot unmarshal hex string of odd length into Go struct field TransactionArgs.data of type hexutil.Bytes');
  bad(() => p.transactionArgsArg('0x', 0), 'invalid argument 0: json: cannot unmarshal string into Go value of type ethapi.TransactionArgs');
  bad(() => p.transactionArgsArg({ accessList: [{ storageKeys: [] }] }, 0), "invalid argument 0: missing required field 'address' for AccessTuple");
  const both = p.transactionArgsArg({ data: '0x01', input: '0x02' }, 0);
  assert.deepEqual([...p.callData(both)], [2]);
  throwsRpc(() => p.checkDataInput(both), -32000, 'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data');
  p.checkDataInput(p.transactionArgsArg({ data: '0x01', input: '0x01' }, 0));
});

test('filter criteria', () => {
  const t0 = '0x' + 'aa'.repeat(32);
  const f = p.filterCriteriaArg({ fromBlock: '0x1', toBlock: 'latest', address: '0x' + 'AB'.repeat(20), topics: [t0, null, [t0, t0], [null, t0]] }, 0);
  assert.deepEqual(f, { fromBlock: 1n, toBlock: 'latest', addresses: ['0x' + 'ab'.repeat(20)], topics: [[t0], null, [t0, t0], null] });
  assert.deepEqual(p.filterCriteriaArg({}, 0), { addresses: [], topics: [] });
  assert.deepEqual(p.filterCriteriaArg({ address: ['0x' + '11'.repeat(20)] }, 0).addresses, ['0x' + '11'.repeat(20)]);
  bad(() => p.filterCriteriaArg({ blockHash: t0, fromBlock: '0x1' }, 0), 'invalid argument 0: cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
  bad(() => p.filterCriteriaArg({ address: '0x12' }, 0), 'invalid argument 0: invalid address: hex has invalid length 1 after decoding; expected 20 for address');
  bad(() => p.filterCriteriaArg({ address: ['0x12'] }, 0), 'invalid argument 0: invalid address at index 0: hex has invalid length 1 after decoding; expected 20 for address');
  bad(() => p.filterCriteriaArg({ address: [5] }, 0), 'invalid argument 0: non-string address at index 0');
  bad(() => p.filterCriteriaArg({ address: 5 }, 0), 'invalid argument 0: invalid addresses in query');
  bad(() => p.filterCriteriaArg({ topics: [5] }, 0), 'invalid argument 0: invalid topic(s)');
  bad(() => p.filterCriteriaArg({ topics: ['0x12'] }, 0), 'invalid argument 0: hex has invalid length 1 after decoding; expected 32 for topic');
  bad(() => p.filterCriteriaArg({ topics: t0 }, 0), 'invalid argument 0: json: cannot unmarshal string into Go struct field input.topics of type []interface {}');
  bad(() => p.filterCriteriaArg({ fromBlock: 1 }, 0), 'invalid argument 0: hex string without 0x prefix');
  bad(() => p.filterCriteriaArg('x', 0), 'invalid argument 0: json: cannot unmarshal string into Go value of type filters.input');
});

test('state overrides', () => {
  const a = '0x' + '11'.repeat(20);
  const slot = '0x' + '00'.repeat(31) + '01';
  const m = p.optStateOverrideArg({ [a]: { balance: '0x10', nonce: '0x1', code: '0x6000', stateDiff: { [slot]: slot } } }, 2)!;
  const acct = m.get(a)!;
  assert.equal(acct.balance, 16n);
  assert.equal(acct.nonce, 1n);
  assert.deepEqual([...acct.code!], [0x60, 0]);
  assert.equal(acct.stateDiff!.get(slot), slot);
  assert.equal(p.optStateOverrideArg(null, 2), undefined);
  bad(() => p.optStateOverrideArg({ '0x12': {} }, 2), 'invalid argument 2: hex string has length 2, want 40 for Address');
  bad(() => p.optStateOverrideArg({ [a]: { balance: 16 } }, 2), 'invalid argument 2: json: cannot unmarshal non-string into Go struct field OverrideAccount.balance of type *hexutil.Big');
  bad(() => p.optStateOverrideArg({ [a]: 'x' }, 2), 'invalid argument 2: json: cannot unmarshal string into Go value of type ethapi.OverrideAccount');
  bad(() => p.optStateOverrideArg([], 2), 'invalid argument 2: json: cannot unmarshal array into Go value of type ethapi.StateOverride');
  bad(() => p.optStateOverrideArg({ [a]: { state: { [slot]: '0x01' } } }, 2), 'invalid argument 2: hex string has length 2, want 64 for common.Hash');
  throwsRpc(() => p.checkOverride(a, { state: new Map(), stateDiff: new Map() }), -32000, `account ${a} has both 'state' and 'stateDiff'`);
});

test('regression: math.HexOrDecimal64 of a deeply nested value quotes its text (JSON.stringify overflowed the stack: a handler crash)', () => {
  let text = '1';
  for (let i = 0; i < 10_000; i++) text = `{"a":${text}}`;
  const err = (() => {
    try {
      p.hexOrDecimal64Arg([JSON.parse(text)], 0);
    } catch (e) {
      return e as RpcError;
    }
  })();
  assert.ok(err instanceof RpcError);
  assert.equal(err.code, -32602);
  assert.equal(err.message, `invalid argument 0: invalid hex or decimal integer ${JSON.stringify(text)}`);
  assert.throws(() => p.hexOrDecimal64Arg([[1, { b: 'x' }]], 0), { message: 'invalid argument 0: invalid hex or decimal integer "[1,{\\"b\\":\\"x\\"}]"' });
});
