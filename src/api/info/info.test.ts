import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { PublicKey, Signature, verify } from '@chainsafe/blst';
import { startTestNode, rpc, type TestNode } from '../../../test/helpers.js';
import { UNMARSHAL_ERROR } from '../../rpc/gorilla.js';
import { SUBNET_EVM_ID } from '../../vms/registry.js';

let t: TestNode;
let info: string;
before(async () => {
  t = await startTestNode({ 'db-type': 'memdb' });
  info = `${t.url}/ext/info`;
});
after(() => t.stop());

const result = async (method: string, params: unknown = {}) => {
  const r = await rpc(info, method, params);
  assert.equal(r.error, undefined, `${method}: ${JSON.stringify(r.error)}`);
  return r.result;
};
const errorOf = async (method: string, params: unknown = {}) => (await rpc(info, method, params)).error;

test('info.getNodeID: NodeID and a BLS proof of possession under the PoP ciphersuite', async () => {
  const r = await result('info.getNodeID');
  assert.deepEqual(Object.keys(r), ['nodeID', 'nodePOP']);
  assert.equal(r.nodeID, t.node.nodeID);
  assert.match(r.nodeID, /^NodeID-[1-9A-HJ-NP-Za-km-z]{30,34}$/);
  assert.deepEqual(Object.keys(r.nodePOP), ['publicKey', 'proofOfPossession']);
  assert.match(r.nodePOP.publicKey, /^0x[0-9a-f]{96}$/);
  assert.match(r.nodePOP.proofOfPossession, /^0x[0-9a-f]{192}$/);
  const pk = Buffer.from(r.nodePOP.publicKey.slice(2), 'hex');
  const pop = Buffer.from(r.nodePOP.proofOfPossession.slice(2), 'hex');
  const bls = bls12_381.longSignatures;
  const popMsg = bls.hash(pk, 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_');
  assert.equal(bls.verify(pop, popMsg, pk), true, 'PoP verifies under the PoP DST');
  // @chainsafe/blst verifies under the message (SIG) DST: a PoP must not pass there.
  assert.equal(verify(pk, PublicKey.fromBytes(pk), Signature.fromBytes(pop)), false);
});

test('info.getNodeIP: loopback and the staking port', async () => {
  assert.deepEqual(await result('info.getNodeIP'), { ip: '127.0.0.1:9651' });
});

test('info.getNodeIP follows --public-ip and --staking-port', async () => {
  const t2 = await startTestNode({ 'db-type': 'memdb', chains: [], publicIp: '10.1.2.3', 'staking-port': 19651 });
  try {
    const r = await rpc(`${t2.url}/ext/info`, 'info.getNodeIP');
    assert.deepEqual(r.result, { ip: '10.1.2.3:19651' });
  } finally {
    await t2.stop();
  }
});

test('info.getNodeIP and the process context file write an IPv6 address as Go\'s netip.AddrPort: bracketed, canonical', async () => {
  // [--public-ip, getNodeIP, stakingAddress of process.json]
  const cases: [string, string][] = [
    ['0:0:0:0:0:0:0:1', '[::1]:9651'],
    ['2001:0DB8:0:0:1:0:0:1', '[2001:db8::1:0:0:1]:9651'],
    // An IPv4-mapped address is kept as its IPv4 address (utils/ips.ParseAddr unmaps it).
    ['::ffff:10.0.0.7', '10.0.0.7:9651'],
  ];
  for (const [ip, want] of cases) {
    const t2 = await startTestNode({ 'db-type': 'memdb', chains: [], 'public-ip': ip });
    try {
      assert.deepEqual((await rpc(`${t2.url}/ext/info`, 'info.getNodeIP')).result, { ip: want }, ip);
      const ctx = JSON.parse(readFileSync(join(t2.dataDir, 'process.json'), 'utf8'));
      assert.equal(ctx.stakingAddress, want, ip);
    } finally {
      await t2.stop();
    }
  }
});

test('info.getNodeVersion: AvalancheGo 1.14.2 and the VMs by primary alias', async () => {
  const r = await result('info.getNodeVersion');
  assert.deepEqual(Object.keys(r), ['version', 'databaseVersion', 'rpcProtocolVersion', 'gitCommit', 'vmVersions']);
  assert.equal(r.version, 'avalanchego/1.14.2');
  assert.equal(r.databaseVersion, 'v1.4.5');
  assert.equal(r.rpcProtocolVersion, '45');
  assert.equal(typeof r.gitCommit, 'string');
  assert.equal(r.vmVersions.subnetevm, t.node.vms.get(SUBNET_EVM_ID)!.factory.version);
});

test('info.getNetworkID / getNetworkName: the local network as a decimal string', async () => {
  assert.deepEqual(await result('info.getNetworkID'), { networkID: '12345' });
  assert.deepEqual(await result('info.getNetworkName'), { networkName: 'local' });
});

test('info.getNetworkID / getNetworkName for a custom network ID', async () => {
  const t2 = await startTestNode({ 'db-type': 'memdb', chains: [], 'network-id': 'network-1337' });
  try {
    assert.deepEqual((await rpc(`${t2.url}/ext/info`, 'info.getNetworkID')).result, { networkID: '1337' });
    assert.deepEqual((await rpc(`${t2.url}/ext/info`, 'info.getNetworkName')).result, { networkName: 'network-1337' });
  } finally {
    await t2.stop();
  }
});

test('info.getBlockchainID: alias → ID; ID → itself; unknown alias is an error', async () => {
  const id = [...t.node.chains.chains.keys()][0];
  assert.deepEqual(await result('info.getBlockchainID', { alias: 'dev' }), { blockchainID: id });
  assert.deepEqual(await result('info.getBlockchainID', { alias: id }), { blockchainID: id });
  const e = await errorOf('info.getBlockchainID', { alias: 'DEV' });
  assert.deepEqual(e, { code: -32000, message: 'there is no ID with alias: DEV', data: null });
});

test('info.isBootstrapped: running chain true; empty and unknown chains are errors', async () => {
  const id = [...t.node.chains.chains.keys()][0];
  assert.deepEqual(await result('info.isBootstrapped', { chain: 'dev' }), { isBootstrapped: true });
  assert.deepEqual(await result('info.isBootstrapped', { chain: id }), { isBootstrapped: true });
  assert.equal((await errorOf('info.isBootstrapped', {})).message, "argument 'chain' not given");
  assert.equal((await errorOf('info.isBootstrapped', { chain: 'nope' })).message, "there is no chain with alias/ID 'nope'");
});

test('info.peers: no peers; malformed NodeIDs fail the argument decode', async () => {
  assert.deepEqual(await result('info.peers'), { numPeers: '0', peers: [] });
  assert.deepEqual(await result('info.peers', { nodeIDs: [t.node.nodeID] }), { numPeers: '0', peers: [] });
  assert.deepEqual(await errorOf('info.peers', { nodeIDs: ['7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg'] }), {
    code: -32000,
    message: UNMARSHAL_ERROR,
    data: null,
  });
  assert.equal((await errorOf('info.peers', { nodeIDs: 'NodeID-x' })).message, UNMARSHAL_ERROR);
});

test('info.upgrades: every upgrade of the local network, in AvalancheGo field order', async () => {
  const res = await fetch(info, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":7,"method":"info.upgrades"}',
  });
  const a = '2020-12-05T05:00:00Z';
  const expected =
    `{"jsonrpc":"2.0","result":{"apricotPhase1Time":"${a}","apricotPhase2Time":"${a}","apricotPhase3Time":"${a}",` +
    `"apricotPhase4Time":"${a}","apricotPhase4MinPChainHeight":0,"apricotPhase5Time":"${a}","apricotPhasePre6Time":"${a}",` +
    `"apricotPhase6Time":"${a}","apricotPhasePost6Time":"${a}","banffTime":"${a}","cortinaTime":"${a}",` +
    `"cortinaXChainStopVertexID":"11111111111111111111111111111111LpoYY","durangoTime":"${a}","etnaTime":"${a}",` +
    `"fortunaTime":"${a}","graniteTime":"${a}","graniteEpochDuration":30000000000,"heliconTime":"9999-12-01T00:00:00Z"},"id":7}\n`;
  assert.equal(await res.text(), expected);
});

test('info.uptime, info.acps, info.getTxFee', async () => {
  assert.deepEqual(await result('info.uptime'), { rewardingStakePercentage: '100.0000', weightedAveragePercentage: '100.0000' });
  assert.deepEqual(await result('info.acps'), { acps: {} });
  assert.deepEqual(await result('info.getTxFee'), {
    txFee: '1000000',
    createAssetTxFee: '1000000',
    createSubnetTxFee: '100000000',
    transformSubnetTxFee: '100000000',
    createBlockchainTxFee: '100000000',
    addPrimaryNetworkValidatorFee: '0',
    addPrimaryNetworkDelegatorFee: '0',
    addSubnetValidatorFee: '1000000',
    addSubnetDelegatorFee: '1000000',
  });
});

test('info.getVMs: VMs with their aliases, and the three fxs', async () => {
  const r = await result('info.getVMs');
  assert.deepEqual(r.vms[SUBNET_EVM_ID], ['subnetevm']);
  assert.deepEqual(r.fxs, {
    qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT: 'nftfx',
    rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy: 'propertyfx',
    spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ: 'secp256k1fx',
  });
  assert.deepEqual(Object.keys(r.fxs), Object.keys(r.fxs).sort());
});

test('no-argument info methods reject scalar params with the generic unmarshal error', async () => {
  for (const params of ['x', 5, [5]]) {
    assert.deepEqual(await errorOf('info.getNetworkID', params), { code: -32000, message: UNMARSHAL_ERROR, data: null });
  }
  for (const params of [{}, [], [{}], null, { anything: 1 }]) {
    assert.deepEqual(await result('info.getNetworkID', params), { networkID: '12345' });
  }
});
