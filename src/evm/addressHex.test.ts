import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, bytesToUnprefixedHex, createAddressFromString } from '@ethereumjs/util';
import { addressHex } from './addressHex.js';

test('addressHex: the text bytesToUnprefixedHex gives, per Address object, made once', () => {
  const texts = ['0x0000000000000000000000000000000000000000', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0xffffffffffffffffffffffffffffffffffffffff', '0x0100000000000000000000000000000000000002'];
  const objects = texts.map((t) => createAddressFromString(t));
  for (const a of objects) {
    assert.equal(addressHex(a), bytesToUnprefixedHex(a.bytes));
    assert.equal(addressHex(a), addressHex(a));
  }
  // Each object has its own: two objects, two texts; the same bytes in a new object, the same text.
  assert.notEqual(addressHex(objects[1]!), addressHex(objects[2]!));
  assert.equal(addressHex(new Address(Uint8Array.from(objects[1]!.bytes))), 'f39fd6e51aad88f6f4ce6ab8827279cfffb92266');
  // Kept on the object: a second call reads it.
  const a = createAddressFromString(texts[3]!);
  addressHex(a);
  (a as unknown as { powderHex: string }).powderHex = 'kept';
  assert.equal(addressHex(a), 'kept');
});
