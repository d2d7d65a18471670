// The chain's method table: the services listed in `eth-apis` (§1.2), the eth-filter methods,
// and the test controls unless the chain config turns them off.
import type { RpcMethod } from '../rpc/server.js';
import { RpcError } from '../rpc/server.js';
import type { EvmBackend } from './backend.js';
import { ethMethods, type MethodTable } from './eth.js';
import { debugMethods } from './debug.js';
import { testControlMethods } from './testControls.js';
import { getLogs, parseLogCriteria, type EvmSubscriptions } from './filters.js';
import { required } from './args.js';

function filterId(v: unknown): string {
  if (typeof v !== 'string') throw new RpcError(-32602, 'invalid argument 0: json: cannot unmarshal non-string into Go value of type rpc.ID');
  return v;
}

export function filterMethods(be: EvmBackend, subs: EvmSubscriptions): MethodTable {
  const m: MethodTable = new Map();
  m.set('eth_getLogs', (p) => getLogs(be, parseLogCriteria(required(p, 0), 0)));
  m.set('eth_newFilter', (p) => subs.newFilter(parseLogCriteria(required(p, 0), 0)));
  m.set('eth_newBlockFilter', () => subs.newBlockFilter());
  m.set('eth_newPendingTransactionFilter', () => subs.newPendingTransactionFilter());
  m.set('eth_getFilterChanges', (p) => subs.changes(filterId(required(p, 0))));
  m.set('eth_getFilterLogs', (p) => subs.logs(filterId(required(p, 0))));
  m.set('eth_uninstallFilter', (p) => subs.uninstall(filterId(required(p, 0))));
  return m;
}

export function buildMethodTable(be: EvmBackend, subs: EvmSubscriptions): Map<string, RpcMethod> {
  const services: Record<string, MethodTable> = { ...ethMethods(be), ...debugMethods(be), 'eth-filter': filterMethods(be, subs) };
  const out = new Map<string, RpcMethod>();
  for (const name of be.config.ethApis) {
    const s = services[name];
    if (s) for (const [k, v] of s) out.set(k, v);
  }
  if (be.config.testControls) for (const [k, v] of testControlMethods(be)) out.set(k, v);
  return out;
}
