// anvil_impersonateSignature against a real node over HTTP: ecrecover answers a registered
// signature as Anvil 1.7.1 does (the expectations below were taken from it), in eth_call,
// eth_estimateGas and mined transactions, and every other input as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { privateKeyToAccount } from 'viem/accounts';
import { keccak256, parseSignature, toHex } from 'viem';
import { rpcError, signTx, DEV_ADDRS, DEV_KEYS, withDevNode, type Rpc } from '../chain/testkit.js';

const ECRECOVER = '0x0000000000000000000000000000000000000001';
const R = '11'.repeat(32);
const S = '22'.repeat(32);
const HASH = 'ab'.repeat(32);
const DEAD = '0x000000000000000000000000000000000000dead';
const word = (hexByte: string) => hexByte.padStart(64, '0');
/** ecrecover's input: hash ‖ v (a 32-byte word) ‖ r ‖ s. */
const input = (hash: string, v: string, r: string, s: string) => `0x${hash}${v}${r}${s}`;
const recover = (rpc: Rpc, data: string, gas?: string) => rpc('eth_call', [{ to: ECRECOVER, data, ...(gas ? { gas } : {}) }, 'latest']);
const padded = (address: string) => '0x' + address.slice(2).toLowerCase().padStart(64, '0');

test('anvil_impersonateSignature: ecrecover answers the registered signature (r, s and v\'s last byte), as Anvil does', () =>
  withDevNode(async (rpc) => {
    const v27 = input(HASH, word('1b'), R, S);
    const before = await recover(rpc, v27); // remembered by the call cache: the registration must drop it
    const gasBefore = await rpc('eth_estimateGas', [{ to: ECRECOVER, data: v27 }]);
    assert.equal(await rpc('anvil_impersonateSignature', [[`0x${R}${S}1b`, DEAD]]), null);
    assert.notEqual(before, padded(DEAD));
    assert.equal(await recover(rpc, v27), padded(DEAD));
    // The hash and v's other bytes are not looked at; a trailing byte past 128 is ignored.
    assert.equal(await recover(rpc, input('cd'.repeat(32), word('1b'), R, S)), padded(DEAD));
    assert.equal(await recover(rpc, input(HASH, 'ff' + word('1b').slice(2), R, S)), padded(DEAD));
    assert.equal(await recover(rpc, v27 + 'ff'), padded(DEAD));
    // Another v, or s missing (zero-padded), is not the registered signature: the real ecrecover.
    assert.equal(await recover(rpc, input(HASH, word('1c'), R, S)), '0x');
    assert.equal(await recover(rpc, input(HASH, word('1b'), R, '')), '0x');
    // A v that ecrecover itself refuses matches when it was registered so (Anvil: v 00 too).
    await rpc('anvil_impersonateSignature', [[`0x${S}${R}00`, DEAD]]);
    assert.equal(await recover(rpc, input(HASH, word('00'), S, R)), padded(DEAD));
    // The same gas as the real precompile; too little gas is out of gas, as for it.
    assert.equal(await rpc('eth_estimateGas', [{ to: ECRECOVER, data: v27 }]), gasBefore);
    const intrinsic = 21000 + [...Buffer.from(v27.slice(2), 'hex')].reduce((g, b) => g + (b === 0 ? 4 : 16), 0);
    const short = await rpcError(recover(rpc, v27, toHex(intrinsic + 2999)));
    assert.equal(short.message, 'out of gas');
    // Registering again replaces the address.
    await rpc('anvil_impersonateSignature', [[`0x${R}${S}1b`, DEV_ADDRS[1]]]);
    assert.equal(await recover(rpc, v27), padded(DEV_ADDRS[1]));
  }));

test('anvil_impersonateSignature: a real signature still recovers its signer; mined transactions and traces see the registration; it outlives evm_revert and anvil_reset', () =>
  withDevNode(async (rpc) => {
    const signer = privateKeyToAccount(`0x${DEV_KEYS[2]}`);
    const digest = keccak256(toHex('powder'));
    const sig = parseSignature(await signer.sign({ hash: digest }));
    const real = input(digest.slice(2), word(Number(sig.v).toString(16)), sig.r.slice(2), sig.s.slice(2));
    await rpc('anvil_impersonateSignature', [[`0x${R}${S}1b`, DEAD]]);
    assert.equal(await recover(rpc, real), padded(signer.address));

    const snap = await rpc('evm_snapshot');
    const tx = await rpc('eth_sendRawTransaction', [signTx(0, { nonce: 0n, to: ECRECOVER, data: input(HASH, word('1b'), R, S), gasLimit: 60000n })]);
    assert.equal((await rpc('eth_getTransactionReceipt', [tx])).status, '0x1');
    const trace = await rpc('debug_traceTransaction', [tx, { tracer: 'callTracer' }]);
    assert.equal(trace.output, padded(DEAD));
    assert.equal(await rpc('evm_revert', [snap]), true);
    assert.equal(await recover(rpc, input(HASH, word('1b'), R, S)), padded(DEAD), 'not undone by evm_revert');
    await rpc('anvil_reset');
    assert.equal(await recover(rpc, input(HASH, word('1b'), R, S)), padded(DEAD), 'not undone by anvil_reset');
  }));

test('anvil_impersonateSignature: bad arguments are -32602 and register nothing; the node keeps answering', () =>
  withDevNode(async (rpc) => {
    const v27 = input(HASH, word('1b'), R, S);
    const before = await recover(rpc, v27);
    const bad = async (params: unknown[], pattern: RegExp) => {
      const e = await rpcError(rpc('anvil_impersonateSignature', params));
      assert.equal(e.code, -32602, `${JSON.stringify(params)}: ${e.message}`);
      assert.match(e.message, pattern, JSON.stringify(params));
    };
    await bad([], /^missing value for required argument 0$/);
    // Anvil takes one argument, the pair; the pair's parts flat are refused, as Anvil refuses them.
    await bad([`0x${R}${S}1b`, DEAD], /^invalid argument 0: expected a \[signature, address\] pair$/);
    await bad([[`0x${R}${S}1b`]], /^invalid argument 0: expected a \[signature, address\] pair$/);
    await bad([[`0x${R}${S}1b`, DEAD, 1]], /^invalid argument 0: expected a \[signature, address\] pair$/);
    await bad([['0xzz', DEAD]], /^invalid argument 0: /);
    await bad([[`0x${R}${S}1b`, '0x12']], /^invalid argument 0: /);
    await bad([[`0x${R}${S}1b`, null]], /^invalid argument 0: /);
    assert.equal(await recover(rpc, v27), before);
    assert.equal(await rpc('eth_chainId'), toHex(43210));
  }));
