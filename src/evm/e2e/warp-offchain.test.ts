// `warp-off-chain-messages` (reference subnet-evm.md §3.2, §9.4): unsigned messages of the chain
// listed in its config.json are served by the warp API as if a block had sent them; messages of
// another network or chain, or unparsable ones, stop the chain from starting.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PublicKey, Signature, verify } from '@chainsafe/blst';
import { startTestNode, rpc as gorilla, type TestNode } from '../../../test/helpers.js';
import { idToString, parseID } from '../../ids/ids.js';
import { decodeSigned, encodePayload, encodeUnsigned, messageID } from '../../warp/codec.js';

const GENESIS = {
  config: {
    chainId: 1101,
    feeConfig: {
      gasLimit: 8000000, targetBlockRate: 2, minBaseFee: 25000000000, targetGas: 15000000,
      baseFeeChangeDenominator: 36, minBlockGasCost: 0, maxBlockGasCost: 1000000, blockGasCostStep: 200000,
    },
    warpConfig: { blockTimestamp: 1607144400 },
  },
  alloc: {}, timestamp: '0x5FCB13D0', gasLimit: '0x7A1200', difficulty: '0x0',
};
const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

let networkID: number;
let chainID: string; // CB58; the same for the same chain definition on any node
let tmp: string;

async function startWith(config: unknown): Promise<TestNode> {
  const dir = join(tmp, 'cfg-' + Math.random().toString(36).slice(2));
  mkdirSync(join(dir, 'oc'), { recursive: true });
  writeFileSync(join(dir, 'oc', 'config.json'), JSON.stringify(config));
  return startTestNode({ 'chain-config-dir': dir, chains: [{ name: 'oc', aliases: ['oc'], genesis: GENESIS }] });
}
async function call(n: TestNode, method: string, params: unknown[]): Promise<any> {
  const res = await fetch(`${n.url}/ext/bc/oc/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return res.json();
}
function message(opts: { network?: number; chain?: Uint8Array; payload?: Uint8Array } = {}): Uint8Array {
  const payload = opts.payload ?? encodePayload({ type: 'addressedCall', sourceAddress: new Uint8Array(0), payload: Buffer.from('off-chain') });
  return encodeUnsigned({ networkID: opts.network ?? networkID, sourceChainID: opts.chain ?? parseID(chainID), payload });
}

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'powder-offchain-'));
  const n = await startWith({});
  try {
    const info = `${n.url}/ext/info`;
    networkID = (await gorilla(info, 'info.getNetworkID', {})).result.networkID * 1;
    chainID = (await gorilla(info, 'info.getBlockchainID', { alias: 'oc' })).result.blockchainID;
  } finally {
    await n.stop();
  }
});
after(() => rmSync(tmp, { recursive: true, force: true }));

test('warp-off-chain-messages: served by warp_getMessage, signed, aggregated', async () => {
  const msg = message();
  const hashMsg = message({ payload: encodePayload({ type: 'hash', hash: Buffer.alloc(32, 7) }) });
  const n = await startWith({ 'warp-api-enabled': true, 'warp-off-chain-messages': [hex(msg), hex(hashMsg)] });
  try {
    const id = idToString(messageID(msg));
    assert.deepEqual(await call(n, 'warp_getMessage', [id]), { jsonrpc: '2.0', id: 1, result: hex(msg) });
    assert.equal((await call(n, 'warp_getMessage', [idToString(messageID(hashMsg))])).result, hex(hashMsg));
    const sig = (await call(n, 'warp_getMessageSignature', [id])).result as string;
    assert.match(sig, /^0x[0-9a-f]{192}$/);
    const signed = decodeSigned(Buffer.from((await call(n, 'warp_getMessageAggregateSignature', [id, 67, ''])).result.slice(2), 'hex'));
    assert.deepEqual(Buffer.from(signed.unsignedBytes), Buffer.from(msg));
    assert.equal(signed.signers, 1n);
    // The node's own BLS key signed it.
    const pop = (await gorilla(`${n.url}/ext/info`, 'info.getNodeID', {})).result.nodePOP;
    const pk = PublicKey.fromBytes(Buffer.from(pop.publicKey.slice(2), 'hex'));
    assert.ok(verify(msg, pk, Signature.fromBytes(Buffer.from(sig.slice(2), 'hex'))));
    // Unknown IDs still fail as before.
    const unknown = idToString(Buffer.alloc(32, 9));
    assert.deepEqual((await call(n, 'warp_getMessage', [unknown])).error, { code: -32000, message: `failed to get message ${unknown} with error not found` });
  } finally {
    await n.stop();
  }
});

test('warp-off-chain-messages: a message of another network or chain, or not a message, stops the chain', async () => {
  const cases: [unknown[], RegExp][] = [
    [[hex(message({ network: networkID + 1 }))], /wrong networkID at index 0$/],
    [[hex(message()), hex(message({ chain: Buffer.alloc(32, 1) }))], /wrong SourceChainID at index 1$/],
    [['0x0000'], /failed to parse off-chain message at index 0: /],
    [[hex(message({ payload: Buffer.from('junk') }))], /failed to parse off-chain message at index 0 as AddressedCall: /],
    [['00ff'], /failed to unmarshal config .*: json: cannot unmarshal hex string without 0x prefix into Go struct field Config\.warp-off-chain-messages of type hexutil\.Bytes$/],
  ];
  for (const [list, re] of cases) {
    await assert.rejects(startWith({ 'warp-off-chain-messages': list }), (e: Error) => {
      assert.match(e.message, re);
      return true;
    });
  }
});
