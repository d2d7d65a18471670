// End to end: Avalanche Warp between Subnet-EVM chains of one node, over real HTTP.
// Chain `a` (validator: the node itself) runs a Sender contract that calls sendWarpMessage; the
// test's relayer step fetches the message and its aggregate signature from a's /rpc (warp_*) and
// delivers it on chain `b` as a predicate in the access list of a tx to a Receiver contract, which
// reads getVerifiedWarpMessage(0), checks the source chain and sender, and stores the payload.
// Chain `c` has two configured validators whose BLS secret keys the node holds, plus one it
// does not: aggregates carry two signers and a quorum the held keys cannot reach fails.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SecretKey, PublicKey, Signature, verify } from '@chainsafe/blst';
import {
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  defineChain,
  encodeFunctionData,
  http,
  parseAbi,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startTestNode, rpc as gorilla, type TestNode } from '../../../test/helpers.js';
import { compile } from '../../../test/solc.js';
import { idToString, nodeIDToString, parseID } from '../../ids/ids.js';
import { decodeSigned, decodeUnsigned, decodePayload, encodeSigned, encodeUnsigned, packPredicate } from '../../warp/codec.js';
import { aggregate, publicKeyOf, sign } from '../../warp/signer.js';

const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;
const ADDR0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const;
const WARP = '0x0200000000000000000000000000000000000005' as const;

const SOURCES = {
  'Warp.sol': `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
struct WarpMessage { bytes32 sourceChainID; address originSenderAddress; bytes payload; }
struct WarpBlockHash { bytes32 sourceChainID; bytes32 blockHash; }
interface IWarpMessenger {
  function sendWarpMessage(bytes calldata payload) external returns (bytes32 messageID);
  function getVerifiedWarpMessage(uint32 index) external view returns (WarpMessage memory message, bool valid);
  function getVerifiedWarpBlockHash(uint32 index) external view returns (WarpBlockHash memory warpBlockHash, bool valid);
  function getBlockchainID() external view returns (bytes32 blockchainID);
}
contract Sender {
  IWarpMessenger constant WARP = IWarpMessenger(0x0200000000000000000000000000000000000005);
  function send(string calldata text) external returns (bytes32) { return WARP.sendWarpMessage(abi.encode(text)); }
}
contract Receiver {
  IWarpMessenger constant WARP = IWarpMessenger(0x0200000000000000000000000000000000000005);
  mapping(bytes32 => mapping(address => bool)) public trusted;
  string public lastText;
  bool public lastValid;
  uint256 public received;
  bytes32 public lastBlockChain;
  bytes32 public lastBlockHash;
  function trust(bytes32 chain, address sender) external { trusted[chain][sender] = true; }
  function receiveMessage(uint32 index) external {
    (WarpMessage memory m, bool valid) = WARP.getVerifiedWarpMessage(index);
    lastValid = valid;
    if (!valid) return;
    require(trusted[m.sourceChainID][m.originSenderAddress], "untrusted source");
    lastText = abi.decode(m.payload, (string));
    received++;
  }
  function receiveBlockHash(uint32 index) external {
    (WarpBlockHash memory h, bool valid) = WARP.getVerifiedWarpBlockHash(index);
    lastValid = valid;
    if (!valid) return;
    lastBlockChain = h.sourceChainID;
    lastBlockHash = h.blockHash;
  }
}`,
};

const warpAbi = parseAbi([
  'function sendWarpMessage(bytes payload) returns (bytes32)',
  'event SendWarpMessage(address indexed sender, bytes32 indexed messageID, bytes message)',
  'function getBlockchainID() view returns (bytes32)',
  'function getVerifiedWarpMessage(uint32 index) view returns ((bytes32 sourceChainID, address originSenderAddress, bytes payload) message, bool valid)',
]);

function genesis(chainId: number) {
  return {
    config: {
      chainId,
      feeConfig: {
        gasLimit: 8000000, targetBlockRate: 2, minBaseFee: 25000000000, targetGas: 15000000,
        baseFeeChangeDenominator: 36, minBlockGasCost: 0, maxBlockGasCost: 1000000, blockGasCostStep: 200000,
      },
      initialMinDelayMS: 1,
      // Warp needs Durango at its activation: on a local network that is 1607144400 (§4.3).
      warpConfig: { blockTimestamp: 1607144400, quorumNumerator: 67 },
    },
    alloc: { [ADDR0.slice(2)]: { balance: '0x52B7D2DCC80CD2E4000000' } },
    nonce: '0x0', timestamp: '0x5FCB13D0', extraData: '0x00', gasLimit: '0x7A1200', difficulty: '0x0',
    mixHash: '0x' + '0'.repeat(64), coinbase: '0x' + '0'.repeat(40), number: '0x0', gasUsed: '0x0', parentHash: '0x' + '0'.repeat(64),
  };
}

const hexOf = (b: Uint8Array): Hex => ('0x' + Buffer.from(b).toString('hex')) as Hex;
const bytesOf = (h: string): Uint8Array => Buffer.from(h.slice(2), 'hex');
const blsKey = () => SecretKey.fromKeygen(randomBytes(32)).toBytes();

// Chain c's validators: X and Y (keys held by the node), Z (public key only).
const keyX = blsKey();
const keyY = blsKey();
const keyZ = blsKey();
const nodeX = nodeIDToString(randomBytes(20));
const nodeY = nodeIDToString(randomBytes(20));
const nodeZ = nodeIDToString(randomBytes(20));

let node: TestNode;
let configDir: string;
const url = (alias: string) => `${node.url}/ext/bc/${alias}/rpc`;

function clients(alias: string, id: number) {
  const chain = defineChain({ id, name: alias, nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: [url(alias)] } } });
  return {
    chain,
    pub: createPublicClient({ chain, transport: http(url(alias)), cacheTime: 0 }),
    wallet: createWalletClient({ chain, transport: http(url(alias)), account: privateKeyToAccount(KEY0) }),
  };
}
let A: ReturnType<typeof clients>;
let B: ReturnType<typeof clients>;
let C: ReturnType<typeof clients>;

async function call(alias: string, method: string, params: unknown[]): Promise<any> {
  const res = await fetch(url(alias), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return res.json();
}
async function ok(alias: string, method: string, params: unknown[]): Promise<any> {
  const r = await call(alias, method, params);
  assert.equal(r.error, undefined, `${method}: ${JSON.stringify(r.error)}`);
  return r.result;
}

const receiverC = compile(SOURCES, 'Receiver');
const senderC = compile(SOURCES, 'Sender');
let sender: Address;
let receiver: Address;
let chainA: string; // CB58 blockchain IDs
let chainC: string;

async function deploy(cl: typeof A, c: { abi: any[]; bytecode: Hex }): Promise<Address> {
  const hash = await cl.wallet.deployContract({ abi: c.abi, bytecode: c.bytecode, chain: cl.chain, account: cl.wallet.account! });
  const rec = await cl.pub.waitForTransactionReceipt({ hash });
  assert.equal(rec.status, 'success');
  return rec.contractAddress!;
}

async function sendTx(cl: typeof A, to: Address, data: Hex, extra: { accessList?: { address: Address; storageKeys: Hex[] }[]; gas?: bigint } = {}) {
  const hash = await cl.wallet.sendTransaction({ to, data, chain: cl.chain, account: cl.wallet.account!, ...extra });
  return cl.pub.waitForTransactionReceipt({ hash });
}

/** The messageID (CB58) and unsigned bytes of the SendWarpMessage log of a receipt. */
function sentMessage(rec: { logs: { address: string; topics: Hex[]; data: Hex }[] }) {
  const log = rec.logs.find((l) => l.address.toLowerCase() === WARP);
  assert.ok(log, 'SendWarpMessage log');
  const ev = decodeEventLog({ abi: warpAbi, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
  assert.equal(ev.eventName, 'SendWarpMessage');
  const args = ev.args as { messageID: Hex; message: Hex };
  return { id: idToString(bytesOf(args.messageID)), unsigned: args.message };
}

const predicate = (signed: Uint8Array | string) => [{ address: WARP as Address, storageKeys: packPredicate(typeof signed === 'string' ? bytesOf(signed) : signed).map(hexOf) }];
const receiveData = (index: number) => encodeFunctionData({ abi: receiverC.abi, functionName: 'receiveMessage', args: [index] });
const read = (fn: string) => B.pub.readContract({ address: receiver, abi: receiverC.abi, functionName: fn }) as Promise<any>;

before(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'powder-warp-cfg-'));
  for (const alias of ['a', 'c']) {
    mkdirSync(join(configDir, alias));
    writeFileSync(join(configDir, alias, 'config.json'), JSON.stringify({ 'warp-api-enabled': true }));
  }
  // B: the default APIs plus tracing (its warp API stays off).
  mkdirSync(join(configDir, 'b'));
  const bApis = ['eth', 'eth-filter', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction', 'debug-tracer', 'admin'];
  writeFileSync(join(configDir, 'b', 'config.json'), JSON.stringify({ 'eth-apis': bApis }));
  // D: b's genesis, for admin_importChain of b's blocks (the same node verifies the predicates).
  mkdirSync(join(configDir, 'd'));
  writeFileSync(join(configDir, 'd', 'config.json'), JSON.stringify({ 'eth-apis': bApis }));
  node = await startTestNode({
    'chain-config-dir': configDir,
    chains: [
      { name: 'a', aliases: ['a'], genesis: genesis(1001) },
      { name: 'b', aliases: ['b'], genesis: genesis(1002) }, // warp API off (default)
      { name: 'd', aliases: ['d'], genesis: genesis(1002) },
      {
        name: 'c',
        aliases: ['c'],
        genesis: genesis(1003),
        validators: [
          { nodeID: nodeX, weight: 100, blsSecretKey: hexOf(keyX) },
          { nodeID: nodeY, weight: 100, blsSecretKey: hexOf(keyY) },
          { nodeID: nodeZ, weight: 50, blsPublicKey: hexOf(publicKeyOf(keyZ)) },
        ],
      },
    ],
  });
  A = clients('a', 1001);
  B = clients('b', 1002);
  C = clients('c', 1003);
  chainA = (await gorilla(node.url + '/ext/info', 'info.getBlockchainID', { alias: 'a' })).result.blockchainID;
  chainC = (await gorilla(node.url + '/ext/info', 'info.getBlockchainID', { alias: 'c' })).result.blockchainID;
  sender = await deploy(A, senderC);
  receiver = await deploy(B, receiverC);
  const trust = (chain: string, who: Address) => sendTx(B, receiver, encodeFunctionData({ abi: receiverC.abi, functionName: 'trust', args: [hexOf(parseID(chain)), who] }));
  assert.equal((await trust(chainA, sender)).status, 'success');
  assert.equal((await trust(chainC, ADDR0)).status, 'success');
});

after(async () => {
  await node?.stop();
  rmSync(configDir, { recursive: true, force: true });
});

test('A → B: send, relay the aggregate signature as a predicate, the receiver acts on the verified message', async () => {
  // getBlockchainID on A is A's Avalanche blockchain ID.
  const id = await A.pub.readContract({ address: WARP, abi: warpAbi, functionName: 'getBlockchainID' });
  assert.equal(id, hexOf(parseID(chainA)));

  const rec = await sendTx(A, sender, encodeFunctionData({ abi: senderC.abi, functionName: 'send', args: ['hello from A'] }));
  assert.equal(rec.status, 'success');
  const { id: msgID, unsigned } = sentMessage(rec);

  // Relayer: the message and the node's signatures from A's /rpc.
  assert.equal(await ok('a', 'warp_getMessage', [msgID]), unsigned);
  const msg = decodeUnsigned(bytesOf(unsigned));
  assert.equal(msg.networkID, 12345);
  assert.equal(idToString(msg.sourceChainID), chainA);
  const payload = decodePayload(msg.payload);
  assert.equal(payload.type, 'addressedCall');
  assert.equal(hexOf((payload as { sourceAddress: Uint8Array }).sourceAddress), sender.toLowerCase());

  const sig = await ok('a', 'warp_getMessageSignature', [msgID]);
  assert.match(sig, /^0x[0-9a-f]{192}$/);
  const pop = (await gorilla(node.url + '/ext/info', 'info.getNodeID', {})).result.nodePOP;
  assert.ok(verify(bytesOf(unsigned), PublicKey.fromBytes(bytesOf(pop.publicKey)), Signature.fromBytes(bytesOf(sig))));

  const signed = await ok('a', 'warp_getMessageAggregateSignature', [msgID, 67, '']);
  const parsed = decodeSigned(bytesOf(signed));
  assert.equal(hexOf(parsed.unsignedBytes), unsigned);
  assert.equal(parsed.signers, 1n);
  assert.equal(hexOf(parsed.signature), sig); // one signer: the aggregate is the node's signature

  // Delivery on B (viem estimates the gas through eth_estimateGas with the predicate).
  const delivered = await sendTx(B, receiver, receiveData(0), { accessList: predicate(signed) });
  assert.equal(delivered.status, 'success');
  assert.equal(await read('lastValid'), true);
  assert.equal(await read('lastText'), 'hello from A');
  assert.equal(await read('received'), 1n);

  // The block records the tx's predicate results: one tx, warp address, empty bitset (all valid).
  const block = await B.pub.getBlock({ blockNumber: delivered.blockNumber });
  assert.equal(block.extraData.slice(2 + 160), '0000' + '00000001' + delivered.transactionHash.slice(2) + '00000001' + WARP.slice(2) + '00000000');

  // Tracing replays the tx as the block ran it: the predicate's gas and its recorded result.
  const trace = await call('b', 'debug_traceTransaction', [delivered.transactionHash, { tracer: 'callTracer' }]);
  assert.equal(BigInt(trace.result.gasUsed), delivered.gasUsed, JSON.stringify(trace));
});

test('forged and tampered predicates: the tx is mined, the receiver sees valid = false, the block records the failure', async () => {
  const rec = await sendTx(A, sender, encodeFunctionData({ abi: senderC.abi, functionName: 'send', args: ['original'] }));
  const { id: msgID } = sentMessage(rec);
  const signed = decodeSigned(bytesOf(await ok('a', 'warp_getMessageAggregateSignature', [msgID, 67, ''])));

  // Tampered payload under the real signature.
  const u = decodeUnsigned(signed.unsignedBytes);
  const p = decodePayload(u.payload) as { sourceAddress: Uint8Array; payload: Uint8Array };
  const forgedPayload = Buffer.from(p.payload);
  forgedPayload[forgedPayload.length - 1] ^= 1;
  const tamperedUnsigned = encodeUnsigned({ ...u, payload: Buffer.concat([u.payload.subarray(0, u.payload.length - p.payload.length), forgedPayload]) });
  const tampered = encodeSigned({ unsignedBytes: tamperedUnsigned, signers: signed.signers, signature: signed.signature });
  const before = await read('received');
  const r1 = await sendTx(B, receiver, receiveData(0), { accessList: predicate(tampered), gas: 400_000n });
  assert.equal(r1.status, 'success');
  assert.equal(await read('lastValid'), false);
  assert.equal(await read('received'), before);
  const block = await B.pub.getBlock({ blockNumber: r1.blockNumber });
  assert.equal(block.extraData.slice(2 + 160), '0000' + '00000001' + r1.transactionHash.slice(2) + '00000001' + WARP.slice(2) + '00000001' + '01');
  const t1 = await call('b', 'debug_traceTransaction', [r1.transactionHash, { tracer: 'callTracer' }]);
  assert.equal(BigInt(t1.result.gasUsed), r1.gasUsed, JSON.stringify(t1));

  // Signed by a key that is not A's validator.
  const forged = encodeSigned({ unsignedBytes: signed.unsignedBytes, signers: 1n, signature: sign(blsKey(), signed.unsignedBytes) });
  const r2 = await sendTx(B, receiver, receiveData(0), { accessList: predicate(forged), gas: 400_000n });
  assert.equal(r2.status, 'success');
  assert.equal(await read('lastValid'), false);

  // Two predicates: index 1 is the valid one, index 0 the forged one → bitset 0b01.
  const both = [...predicate(forged), ...predicate(encodeSigned(signed))];
  const r3 = await sendTx(B, receiver, receiveData(1), { accessList: both, gas: 600_000n });
  assert.equal(await read('lastValid'), true);
  assert.equal(await read('lastText'), 'original');
  const b3 = await B.pub.getBlock({ blockNumber: r3.blockNumber });
  assert.ok(b3.extraData.endsWith(WARP.slice(2) + '00000001' + '01'));
});

test('validators with held keys: aggregates carry every held signer; quorum is enforced on both sides', async () => {
  const rec = await sendTx(C, WARP, encodeFunctionData({ abi: warpAbi, functionName: 'sendWarpMessage', args: [hexOf(Buffer.from(encodeAbiString('from C')))] }));
  assert.equal(rec.status, 'success');
  const { id: msgID, unsigned } = sentMessage(rec);
  // X + Y hold 200 of 250 (80 %).
  const signed = decodeSigned(bytesOf(await ok('c', 'warp_getMessageAggregateSignature', [msgID, 67, ''])));
  assert.equal(signed.signers.toString(2).replace(/0/g, '').length, 2);
  assert.equal(hexOf(signed.signature), hexOf(aggregate([sign(keyX, bytesOf(unsigned)), sign(keyY, bytesOf(unsigned))])));
  const r = await call('c', 'warp_getMessageAggregateSignature', [msgID, 90, '']);
  assert.equal(r.error.code, -32000);
  assert.match(r.error.message, /^failed to aggregate signatures: insufficient weight/);

  const ok1 = await sendTx(B, receiver, receiveData(0), { accessList: predicate(encodeSigned(signed)), gas: 400_000n });
  assert.equal(ok1.status, 'success');
  assert.equal(await read('lastValid'), true);
  assert.equal(await read('lastText'), 'from C');

  // Only X's signature: 100 of 250 is below B's quorum (67 %) → valid = false.
  const setOrder = [keyX, keyY, keyZ].map((k) => ({ k, sortKey: Buffer.from(PublicKey.fromBytes(publicKeyOf(k)).toBytes(false)) })).sort((a, b) => Buffer.compare(a.sortKey, b.sortKey));
  const bitX = 1n << BigInt(setOrder.findIndex((e) => e.k === keyX));
  const onlyX = encodeSigned({ unsignedBytes: bytesOf(unsigned), signers: bitX, signature: sign(keyX, bytesOf(unsigned)) });
  const r2 = await sendTx(B, receiver, receiveData(0), { accessList: predicate(onlyX), gas: 400_000n });
  assert.equal(r2.status, 'success');
  assert.equal(await read('lastValid'), false);
});

test('block hash messages: warp_getBlockSignature / aggregate, delivered and read with getVerifiedWarpBlockHash', async () => {
  const head = await A.pub.getBlock();
  const blockID = idToString(bytesOf(head.hash!));
  const sig = await ok('a', 'warp_getBlockSignature', [blockID]);
  assert.match(sig, /^0x[0-9a-f]{192}$/);
  const signed = await ok('a', 'warp_getBlockAggregateSignature', [blockID, 67, '']);
  const parsed = decodeSigned(bytesOf(signed));
  assert.deepEqual(decodePayload(parsed.unsigned.payload), { type: 'hash', hash: Uint8Array.from(bytesOf(head.hash!)) });
  assert.equal(hexOf(parsed.signature), sig);

  const rec = await sendTx(B, receiver, encodeFunctionData({ abi: receiverC.abi, functionName: 'receiveBlockHash', args: [0] }), { accessList: predicate(signed) });
  assert.equal(rec.status, 'success');
  assert.equal(await read('lastValid'), true);
  assert.equal(await read('lastBlockHash'), head.hash);
  assert.equal(await read('lastBlockChain'), hexOf(parseID(chainA)));

  // Reading a block-hash predicate as an addressed message fails inside the precompile.
  const data = encodeFunctionData({ abi: warpAbi, functionName: 'getVerifiedWarpMessage', args: [0] });
  const r = await call('b', 'eth_call', [{ from: ADDR0, to: WARP, data, accessList: predicate(signed) }, 'latest']);
  assert.deepEqual(r.error, { code: -32000, message: 'cannot unpack addressed payload: *payload.Hash' });
  // Without a predicate at that index: zero value, valid = false.
  const none = await B.pub.readContract({ address: WARP, abi: warpAbi, functionName: 'getVerifiedWarpMessage', args: [0] });
  assert.equal((none as unknown as [unknown, boolean])[1], false);
});

test('malformed predicates and too little gas are refused by the pool with Subnet-EVM texts', async () => {
  const account = B.wallet.account!;
  const nonce = await B.pub.getTransactionCount({ address: ADDR0 });
  const signRaw = (storageKeys: Hex[], gas: bigint) =>
    B.wallet.signTransaction({
      to: receiver, data: receiveData(0), gas, nonce, maxFeePerGas: 100_000_000_000n, maxPriorityFeePerGas: 0n,
      accessList: [{ address: WARP, storageKeys }], chain: B.chain, account,
    } as never);
  const send = async (storageKeys: Hex[], gas = 500_000n) => (await call('b', 'eth_sendRawTransaction', [await signRaw(storageKeys, gas)])).error;
  const zero = ('0x' + '00'.repeat(32)) as Hex;
  assert.deepEqual(await send([zero]), { code: -32000, message: 'cannot unpack predicate bytes: no delimiter found: length (32)' });
  const one = ('0x' + 'ff' + '00'.repeat(31)) as Hex;
  assert.deepEqual(await send([one, zero]), { code: -32000, message: 'cannot unpack predicate bytes: predicate included excess padding: got length (64), expected length (32)' });
  assert.deepEqual(await send([('0x' + '00'.repeat(31) + '01') as Hex]), { code: -32000, message: 'cannot unpack predicate bytes: wrong delimiter' });
  const junk = await send([('0x' + 'ab'.repeat(5) + 'ff' + '00'.repeat(26)) as Hex]);
  assert.equal(junk.code, -32000);
  assert.match(junk.message, /^cannot unpack warp message: /);
  // eth_estimateGas reports the same text.
  const est = await call('b', 'eth_estimateGas', [{ from: ADDR0, to: receiver, data: receiveData(0), accessList: [{ address: WARP, storageKeys: [zero] }] }]);
  assert.equal(est.error.message, 'cannot unpack predicate bytes: no delimiter found: length (32)');

  // Intrinsic gas = 21000 + calldata + 125000 (Granite base) + 512 × chunks + 250 × signers.
  const rec = await sendTx(A, sender, encodeFunctionData({ abi: senderC.abi, functionName: 'send', args: ['gas'] }));
  const signed = bytesOf(await ok('a', 'warp_getMessageAggregateSignature', [sentMessage(rec).id, 67, '']));
  const keys = packPredicate(signed).map(hexOf);
  const calldata = bytesOf(receiveData(0));
  const dataGas = calldata.reduce((g, b) => g + (b === 0 ? 4 : 16), 0);
  const intrinsic = 21000 + dataGas + 125000 + 512 * keys.length + 250;
  const low = await send(keys, BigInt(intrinsic - 1));
  assert.deepEqual(low, { code: -32000, message: `intrinsic gas too low: address ${ADDR0} tx gas (${intrinsic - 1}), minimum needed ${intrinsic}` });
});

test('warp_* argument and lookup errors over HTTP', async () => {
  const unknown = idToString(randomBytes(32));
  assert.deepEqual((await call('a', 'warp_getMessage', [unknown])).error, { code: -32000, message: `failed to get message ${unknown} with error not found` });
  assert.deepEqual((await call('a', 'warp_getMessageSignature', [unknown])).error, { code: -32000, message: `failed to get message ${unknown} with error not found` });
  assert.deepEqual((await call('a', 'warp_getMessageAggregateSignature', [unknown, 67, ''])).error, { code: -32000, message: `failed to get message ${unknown} with error not found` });
  assert.deepEqual((await call('a', 'warp_getBlockSignature', [unknown])).error, {
    code: -32000,
    message: `failed to get signature for block ${unknown} with error failed to validate block message: failed to get block ${unknown}: not found`,
  });
  assert.equal((await call('a', 'warp_getBlockAggregateSignature', [unknown, 67, ''])).error.message.startsWith(`failed to get signature for block ${unknown}`), true);

  const rec = await sendTx(A, sender, encodeFunctionData({ abi: senderC.abi, functionName: 'send', args: ['errors'] }));
  const { id } = sentMessage(rec);
  assert.deepEqual((await call('a', 'warp_getMessageAggregateSignature', [id, 67, 'not-an-id'])).error, { code: -32000, message: 'failed to parse subnetID: "not-an-id"' });
  const otherSubnet = idToString(randomBytes(32));
  assert.deepEqual((await call('a', 'warp_getMessageAggregateSignature', [id, 67, otherSubnet])).error, {
    code: -32000,
    message: `cannot retrieve validator set: ${otherSubnet} source subnet not found`,
  });

  // Argument errors (-32602).
  assert.deepEqual((await call('a', 'warp_getMessage', [])).error, { code: -32602, message: 'missing value for required argument 0' });
  assert.deepEqual((await call('a', 'warp_getMessageAggregateSignature', [id, 67])).error, { code: -32602, message: 'missing value for required argument 2' });
  assert.deepEqual((await call('a', 'warp_getMessage', [5])).error, { code: -32602, message: 'invalid argument 0: first and last characters should be quotes' });
  assert.deepEqual((await call('a', 'warp_getMessage', ['abc'])).error, { code: -32602, message: "invalid argument 0: couldn't decode ID to bytes: input string is smaller than the checksum size" });
  const badChecksum = id.slice(0, -1) + (id.endsWith('2') ? '3' : '2');
  assert.deepEqual((await call('a', 'warp_getMessage', [badChecksum])).error, { code: -32602, message: "invalid argument 0: couldn't decode ID to bytes: invalid input checksum" });
  const shortID = idToString(randomBytes(32)).slice(0, 20);
  const short = (await call('a', 'warp_getMessage', [shortID])).error;
  assert.equal(short.code, -32602);
  assert.match(short.message, /^invalid argument 0: couldn't decode ID to bytes: /);
  // JSON null is the empty ID for Go's decoder.
  assert.deepEqual((await call('a', 'warp_getMessage', [null])).error, { code: -32000, message: 'failed to get message 11111111111111111111111111111111LpoYY with error not found' });
  assert.deepEqual((await call('a', 'warp_getMessage', ['0xzz'])).error, { code: -32602, message: "invalid argument 0: couldn't decode ID to bytes: base58 decoding error: Invalid base58 digit ('0')" });
  assert.deepEqual((await call('a', 'warp_getBlockSignature', [''])).error, { code: -32602, message: "invalid argument 0: couldn't decode ID to bytes: base58 decoding error: zero length string" });
  // IDs of megabytes: decided without the quadratic base58 decode, with the texts the decode
  // gives. Unbounded, each of these held the node (and this test, in the same process) for hours.
  const huge = 'z'.repeat(2 << 20);
  assert.deepEqual((await call('a', 'warp_getMessage', [huge])).error, { code: -32602, message: "invalid argument 0: couldn't decode ID to bytes: invalid input checksum" });
  assert.deepEqual((await call('a', 'warp_getBlockSignature', [`${huge}0`])).error, { code: -32602, message: "invalid argument 0: couldn't decode ID to bytes: base58 decoding error: Invalid base58 digit ('0')" });
  assert.deepEqual((await call('a', 'warp_getMessageAggregateSignature', [id, 67, huge])).error, { code: -32000, message: `failed to parse subnetID: "${huge}"` });
  assert.deepEqual((await call('a', 'warp_getMessageAggregateSignature', [id, '67', ''])).error, { code: -32602, message: 'invalid argument 1: json: cannot unmarshal string into Go value of type uint64' });
  assert.deepEqual((await call('a', 'warp_getMessageAggregateSignature', [id, -1, ''])).error, { code: -32602, message: 'invalid argument 1: json: cannot unmarshal number -1 into Go value of type uint64' });
  assert.deepEqual((await call('a', 'warp_getMessageAggregateSignature', [id, 67, 5])).error, { code: -32602, message: 'invalid argument 2: json: cannot unmarshal number 5 into Go value of type string' });

  // B has no warp-api-enabled: the namespace is absent.
  assert.deepEqual((await call('b', 'warp_getMessage', [id])).error, { code: -32601, message: 'the method warp_getMessage does not exist/is not available' });
});

test('admin_importChain of B\'s blocks (valid, failed and block-hash predicates) gives the same blocks on a chain with B\'s genesis', async () => {
  const file = join(configDir, 'b-chain.rlp');
  assert.equal(await ok('b', 'admin_exportChain', [file]), true);
  assert.equal(await ok('d', 'admin_importChain', [file]), true);
  const head = await B.pub.getBlock();
  assert.ok(head.number > 5n);
  const d = await ok('d', 'eth_getBlockByNumber', ['latest', false]);
  assert.equal(d.hash, head.hash);
  assert.equal(d.extraData, head.extraData);
  assert.equal(d.gasUsed, '0x' + head.gasUsed.toString(16));
});

/** abi.encode(string) */
function encodeAbiString(s: string): Uint8Array {
  const data = Buffer.from(s);
  const len = Buffer.alloc(32);
  len.writeUInt32BE(data.length, 28);
  const off = Buffer.alloc(32);
  off[31] = 32;
  const padded = Buffer.alloc(Math.ceil(data.length / 32) * 32);
  data.copy(padded);
  return Buffer.concat([off, len, padded]);
}
