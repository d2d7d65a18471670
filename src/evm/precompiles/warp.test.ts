import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { decodeAbiParameters, decodeFunctionResult, encodeFunctionData, parseAbi, toHex as vHex } from 'viem';
import { PRECOMPILE_TEST_SOURCES } from './contracts.js';
import { P256_VERIFY_ADDRESS, WARP_ADDRESS } from './index.js';
import { parsePrecompileConfig } from './testkit.js';
import { BLOCKCHAIN_ID, call, compile, deploy, errorOf, makeChain, NETWORK_ID, ret } from './testkit.js';

const USER = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';
const abi = parseAbi([
  'function sendWarpMessage(bytes payload) returns (bytes32 messageID)',
  'function getBlockchainID() view returns (bytes32)',
  'function getVerifiedWarpMessage(uint32 index) view returns ((bytes32 sourceChainID, address originSenderAddress, bytes payload) message, bool valid)',
  'function getVerifiedWarpBlockHash(uint32 index) view returns ((bytes32 sourceChainID, bytes32 blockHash) warpBlockHash, bool valid)',
]);
const warp = () => parsePrecompileConfig('warpConfig', { blockTimestamp: 0 });

test('sendWarpMessage: SendWarpMessage log with the unsigned message, returns its sha256 id', async () => {
  const chain = await makeChain({ configs: [warp()] });
  const { bytecode } = compile(PRECOMPILE_TEST_SOURCES, 'WarpSender');
  const sender = await deploy(chain, USER, bytecode);
  const payload = '0x68656c6c6f'; // "hello"
  const senderAbi = parseAbi(['function send(bytes payload) returns (bytes32)']);
  const r = await call(chain, { from: USER, to: sender, data: encodeFunctionData({ abi: senderAbi, functionName: 'send', args: [payload] }) });
  assert.equal(errorOf(r), undefined);
  const [address, topics, data] = r.execResult.logs![0]!;
  assert.equal(vHex(address), WARP_ADDRESS);
  assert.equal(vHex(topics[0]!), '0x56600c567728a800c0aa927500f831cb451df66a7af570eb4df4dfbf4674887d');
  assert.equal(vHex(topics[1]!), '0x' + sender.slice(2).padStart(64, '0'));
  const [unsigned] = decodeAbiParameters([{ type: 'bytes' }], vHex(data));
  const expected =
    '0x0000' + NETWORK_ID.toString(16).padStart(8, '0') + Buffer.from(BLOCKCHAIN_ID).toString('hex') +
    (2 + 4 + 4 + 20 + 4 + 5).toString(16).padStart(8, '0') +
    '0000' + '00000001' + '00000014' + sender.slice(2) + '00000005' + payload.slice(2);
  assert.equal(unsigned, expected);
  const id = '0x' + createHash('sha256').update(Buffer.from(unsigned.slice(2), 'hex')).digest('hex');
  assert.equal(vHex(topics[2]!), id);
  assert.equal(ret(r), id);
});

test('sendWarpMessage gas = 41,500 + 8 per input byte; static call refused', async () => {
  const chain = await makeChain({ configs: [warp()] });
  const data = encodeFunctionData({ abi, functionName: 'sendWarpMessage', args: ['0x' + 'ab'.repeat(40) as `0x${string}`] });
  let r = await call(chain, { from: USER, to: WARP_ADDRESS, data });
  assert.equal(errorOf(r), undefined);
  const inputLen = BigInt((data.length - 2) / 2 - 4);
  assert.equal(r.execResult.executionGasUsed, 41_500n + 8n * inputLen);
  r = await call(chain, { from: USER, to: WARP_ADDRESS, data, isStatic: true });
  assert.equal(errorOf(r), 'write protection');
  r = await call(chain, { from: USER, to: WARP_ADDRESS, data: '0xee5b48eb' + '00'.repeat(31) + '40' });
  assert.equal(errorOf(r), 'invalid sendWarpMessage input: abi: cannot marshal in to go slice: offset 96 would go over slice boundary (len=32)');
});

test('getBlockchainID returns the Avalanche chain ID; 200 gas from Granite, 2 before', async () => {
  let chain = await makeChain({ configs: [warp()] });
  let r = await call(chain, { from: USER, to: WARP_ADDRESS, data: encodeFunctionData({ abi, functionName: 'getBlockchainID' }), isStatic: true });
  assert.equal(ret(r), vHex(BLOCKCHAIN_ID));
  assert.equal(r.execResult.executionGasUsed, 200n);
  chain = await makeChain({ configs: [warp()], isGranite: false });
  r = await call(chain, { from: USER, to: WARP_ADDRESS, data: encodeFunctionData({ abi, functionName: 'getBlockchainID' }) });
  assert.equal(r.execResult.executionGasUsed, 2n);
});

test('getVerifiedWarpMessage / BlockHash without predicates: zero value, valid=false, base gas', async () => {
  const chain = await makeChain({ configs: [warp()] });
  let r = await call(chain, { from: USER, to: WARP_ADDRESS, data: encodeFunctionData({ abi, functionName: 'getVerifiedWarpMessage', args: [0] }) });
  assert.equal(errorOf(r), undefined);
  assert.equal(r.execResult.executionGasUsed, 750n);
  const [msg, valid] = decodeFunctionResult({ abi, functionName: 'getVerifiedWarpMessage', data: ret(r) as `0x${string}` });
  assert.equal(valid, false);
  assert.deepEqual(msg, { sourceChainID: '0x' + '0'.repeat(64), originSenderAddress: '0x' + '0'.repeat(40), payload: '0x' });
  r = await call(chain, { from: USER, to: WARP_ADDRESS, data: encodeFunctionData({ abi, functionName: 'getVerifiedWarpBlockHash', args: [3] }) });
  const [hash, valid2] = decodeFunctionResult({ abi, functionName: 'getVerifiedWarpBlockHash', data: ret(r) as `0x${string}` });
  assert.equal(valid2, false);
  assert.deepEqual(hash, { sourceChainID: '0x' + '0'.repeat(64), blockHash: '0x' + '0'.repeat(64) });
  r = await call(chain, { from: USER, to: WARP_ADDRESS, data: encodeFunctionData({ abi, functionName: 'getVerifiedWarpMessage', args: [2 ** 31] }) });
  assert.equal(errorOf(r), 'invalid index to specify warp message: larger than MaxInt32');
  // the Solidity view wrapper decodes the same answer
  const { bytecode } = compile(PRECOMPILE_TEST_SOURCES, 'WarpSender');
  const sender = await deploy(chain, USER, bytecode);
  const sAbi = parseAbi(['function verified(uint32 i) view returns (bytes32, address, bytes, bool)']);
  r = await call(chain, { from: USER, to: sender, data: encodeFunctionData({ abi: sAbi, functionName: 'verified', args: [0] }) });
  assert.equal(errorOf(r), undefined);
  assert.equal(decodeFunctionResult({ abi: sAbi, functionName: 'verified', data: ret(r) as `0x${string}` })[3], false);
});

test('P256Verify (Granite): valid signature → 1, invalid → empty, 6,900 gas; absent before Granite', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const msgHash = createHash('sha256').update('powder').digest();
  const der = sign('sha256', Buffer.from('powder'), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  const input = (sig: Buffer) =>
    '0x' + msgHash.toString('hex') + sig.toString('hex') + Buffer.from(jwk.x!, 'base64url').toString('hex') + Buffer.from(jwk.y!, 'base64url').toString('hex');
  let chain = await makeChain({ configs: [] });
  let r = await call(chain, { from: USER, to: P256_VERIFY_ADDRESS, data: input(der) });
  assert.equal(ret(r), '0x' + '0'.repeat(63) + '1');
  assert.equal(r.execResult.executionGasUsed, 6_900n);
  const bad = Buffer.from(der);
  bad[5] = bad[5]! ^ 1;
  r = await call(chain, { from: USER, to: P256_VERIFY_ADDRESS, data: input(bad) });
  assert.equal(ret(r), '0x');
  assert.equal(r.execResult.executionGasUsed, 6_900n);
  assert.ok(chain.evm.precompiles.has(P256_VERIFY_ADDRESS.slice(2)), 'pre-warmed like other precompiles');
  assert.ok(!chain.evm.precompiles.has(WARP_ADDRESS.slice(2)), 'stateful precompiles are not pre-warmed');
  chain = await makeChain({ configs: [], isGranite: false });
  r = await call(chain, { from: USER, to: P256_VERIFY_ADDRESS, data: input(der) });
  assert.equal(ret(r), '0x');
  assert.equal(r.execResult.executionGasUsed, 0n);
});

test('precompiles are absent when not enabled (plain empty account)', async () => {
  const chain = await makeChain({ configs: [] });
  const r = await call(chain, { from: USER, to: WARP_ADDRESS, data: encodeFunctionData({ abi, functionName: 'getBlockchainID' }) });
  assert.equal(errorOf(r), undefined);
  assert.equal(ret(r), '0x');
});
