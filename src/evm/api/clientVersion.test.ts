// web3_clientVersion: the AvalancheGo version by default, as a real node answers; the node flag
// --web3-client-version (or a chain's clientVersion) changes it — Hardhat's network helpers refuse
// any node whose answer does not begin with HardhatNetwork, anvil or zksync.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestNode } from '../../../test/helpers.js';
import { NODE_VERSION } from '../../api/info/version.js';

async function ask(url: string, method: string): Promise<any> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }) });
  return ((await r.json()) as { result: unknown }).result;
}

test('web3_clientVersion: the AvalancheGo version unless --web3-client-version or a chain\'s clientVersion says otherwise', async () => {
  const plain = await startTestNode({ 'db-type': 'memdb' });
  try {
    assert.equal(await ask(`${plain.url}/ext/bc/dev/rpc`, 'web3_clientVersion'), 'v' + NODE_VERSION.split('/')[1]);
  } finally {
    await plain.stop();
  }
  const node = await startTestNode({
    'db-type': 'memdb',
    'web3-client-version': 'anvil/powder',
    chains: [
      { name: 'a', aliases: ['a'], dev: true },
      { name: 'b', aliases: ['b'], dev: true, clientVersion: 'HardhatNetwork/2.29.1/powder' },
    ],
  });
  try {
    assert.equal(await ask(`${node.url}/ext/bc/a/rpc`, 'web3_clientVersion'), 'anvil/powder');
    assert.equal((await ask(`${node.url}/ext/bc/a/rpc`, 'hardhat_metadata')).clientVersion, 'anvil/powder');
    assert.equal(await ask(`${node.url}/ext/bc/b/rpc`, 'web3_clientVersion'), 'HardhatNetwork/2.29.1/powder');
  } finally {
    await node.stop();
  }
});
