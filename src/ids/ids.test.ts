import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cb58Decode, cb58Encode } from './cb58.js';
import { EMPTY_ID, idToString, nodeIDToString, parseID, parseNodeID, vmIDFromName } from './ids.js';
import { Aliaser } from './aliaser.js';

test('CB58 vectors of the reference (§8.2)', () => {
  assert.equal(idToString(new Uint8Array(32)), EMPTY_ID);
  assert.equal(EMPTY_ID, '11111111111111111111111111111111LpoYY');
  assert.equal(cb58Encode(new Uint8Array(20)), '111111111111111111116DBWJs');
  const nodeBytes = Buffer.from('479f66c8be895830547e70b4b298cafd433dba6e', 'hex');
  assert.equal(nodeIDToString(nodeBytes), 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg');
  assert.equal(Buffer.from(parseNodeID('NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg')).toString('hex'), nodeBytes.toString('hex'));
  assert.equal(vmIDFromName('secp256k1fx'), 'spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ');
});

test('CB58 decode errors carry AvalancheGo texts', () => {
  assert.throws(() => cb58Decode(''), { message: 'base58 decoding error: zero length string' });
  assert.throws(() => cb58Decode('0abc'), { message: "base58 decoding error: Invalid base58 digit ('0')" });
  assert.throws(() => cb58Decode('é'), { message: 'base58 decoding error: High-bit set on invalid digit' });
  assert.throws(() => cb58Decode('X'), { message: 'input string is smaller than the checksum size' });
  assert.throws(() => cb58Decode('11111111111111111111111111111111LpoYZ'), { message: 'invalid input checksum' });
  assert.throws(() => parseID('111111111111111111116DBWJs'), { message: 'invalid hash length: expected 32 bytes but got 20' });
  assert.throws(() => parseNodeID('7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg'), {
    message: 'ID: 7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg is missing the prefix: NodeID-',
  });
  assert.throws(() => parseNodeID('nodeid-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg'), /missing the prefix/);
});

test('Aliaser: lookups, duplicate aliases, primary alias, relevant aliases', () => {
  const a = new Aliaser();
  a.alias('ID1', 'one');
  a.alias('ID1', 'ID1');
  assert.equal(a.lookup('one'), 'ID1');
  assert.throws(() => a.lookup('two'), { message: 'there is no ID with alias: two' });
  assert.throws(() => a.alias('ID2', 'one'), { message: 'alias already mapped to an ID: one' });
  assert.equal(a.primaryAliasOrDefault('ID1'), 'one');
  assert.equal(a.primaryAliasOrDefault('ID9'), 'ID9');
  assert.deepEqual(a.relevantAliases('ID1'), ['one']);
  assert.equal(a.aliases('ID9'), undefined);
});
