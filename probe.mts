import { startTestNode } from './test/helpers.js';
const t = await startTestNode({ 'db-type': 'memdb' });
const call = async (method: string, params: unknown[] = []) => (await fetch(`${t.url}/ext/bc/dev/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json();
console.log(await call('eth_chainId'), await call('eth_blockNumber'), JSON.stringify(await call('eth_getBlockByNumber', ['latest', false])).slice(0, 400));
console.log(t.node.banner().join('\n'));
await t.stop();
