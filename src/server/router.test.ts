import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestNode, rpc } from '../../test/helpers.js';

test('admin.alias makes the info API answer at the alias', async () => {
  const t = await startTestNode({ 'api-admin-enabled': true, 'db-type': 'memdb' });
  try {
    const r = await rpc(`${t.url}/ext/admin`, 'admin.alias', { endpoint: 'info', alias: 'myinfo' });
    assert.deepEqual(r, { jsonrpc: '2.0', result: {}, id: 1 });
    const info = await rpc(`${t.url}/ext/myinfo`, 'info.getNodeID');
    assert.equal(info.result.nodeID, t.node.nodeID);
    const again = await rpc(`${t.url}/ext/admin`, 'admin.alias', { endpoint: 'info', alias: 'myinfo' });
    assert.equal(again.error.message, 'route is either already aliased or already maps to a handle: /ext/myinfo');
    const res = await fetch(`${t.url}/ext/nothing`);
    assert.equal(res.status, 404);
    assert.equal(await res.text(), '404 page not found\n');
  } finally {
    await t.stop();
  }
});
