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

test('admin.alias takes both paths as given: /ext/ + the argument, not cleaned (only aliasChain joins bc/ and the alias)', async () => {
  const t = await startTestNode({ 'api-admin-enabled': true, 'db-type': 'memdb' });
  const admin = (method: string, params: unknown) => rpc(`${t.url}/ext/admin`, method, params);
  const status = async (path: string) => (await fetch(t.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}', redirect: 'manual' })).status;
  try {
    // An empty alias reserves /ext/.
    assert.deepEqual((await admin('admin.alias', {})).result, {});
    assert.equal((await admin('admin.alias', {})).error.message, 'route is either already aliased or already maps to a handle: /ext/');
    // A trailing slash is part of the route: /ext/trail/ serves, /ext/trail does not.
    assert.deepEqual((await admin('admin.alias', { endpoint: 'info', alias: 'trail/' })).result, {});
    assert.equal(await status('/ext/trail/'), 200);
    assert.equal(await status('/ext/trail'), 404);
    // q/../w is its own (unreachable) URL: w is still free, and /ext/w serves once aliased.
    assert.deepEqual((await admin('admin.alias', { endpoint: 'info', alias: 'q/../w' })).result, {});
    assert.equal(await status('/ext/w'), 404);
    assert.deepEqual((await admin('admin.alias', { endpoint: 'info', alias: 'w' })).result, {});
    assert.equal(await status('/ext/w'), 200);
    // ../top is /ext/../top: a request for /top is not that route.
    assert.deepEqual((await admin('admin.alias', { endpoint: 'info', alias: '../top' })).result, {});
    assert.equal(await status('/top'), 404);
    // The endpoint too: /info is the base /ext//info, which has no routes (a dormant alias).
    assert.deepEqual((await admin('admin.alias', { endpoint: '/info', alias: 'dormant' })).result, {});
    assert.equal(await status('/ext/dormant'), 404);
    // aliasChain joins and cleans bc/ + alias: ../../foo is /ext/../foo, never /foo.
    assert.deepEqual((await admin('admin.aliasChain', { chain: 'dev', alias: '../../foo' })).result, {});
    assert.equal(await status('/foo/rpc'), 404);
    assert.deepEqual((await admin('admin.aliasChain', { chain: 'dev', alias: 'x/../mine/' })).result, {});
    assert.equal(((await (await fetch(`${t.url}/ext/bc/mine/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' })).json()) as { result: string }).result, '0xa8ca');
  } finally {
    await t.stop();
  }
});
