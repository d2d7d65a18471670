// /ext/bc/<chain>/proposervm on every chain, as the ProposerVM wrapper adds it (reference §3.4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestNode } from '../../test/helpers.js';

test('proposervm.getProposedHeight answers the P-chain height ("0") on the dev chain, by ID and alias; getCurrentEpoch is not served', async () => {
  const t = await startTestNode({ 'db-type': 'memdb' });
  try {
    const id = t.node.chains.aliaser.lookup('dev');
    for (const path of ['/ext/bc/dev/proposervm', `/ext/bc/${id}/proposervm`]) {
      const r = await fetch(t.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"proposervm.getProposedHeight","params":{}}' });
      assert.equal(r.status, 200);
      assert.equal(await r.text(), '{"jsonrpc":"2.0","result":{"height":"0"},"id":1}\n');
    }
    const epoch = await (await fetch(t.url + '/ext/bc/dev/proposervm', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"proposervm.getCurrentEpoch","params":{}}' })).json() as { error: { code: number; message: string } };
    assert.deepEqual(epoch.error, { code: -32000, message: 'rpc: can\'t find method "proposervm.GetCurrentEpoch"', data: null });
  } finally {
    await t.stop();
  }
});
