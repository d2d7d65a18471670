// The `internal-tx-pool` service (geth's TxPoolAPI): txpool_content, txpool_contentFrom,
// txpool_status, txpool_inspect. geth answers Go maps, which encoding/json writes with their keys
// sorted as strings: senders (EIP-55) in byte order, nonces as decimal text ("10" before "9").
// A JavaScript object would put integer-like keys first in numeric order, so the maps are
// written here as JSON text.
import type { TypedTransaction } from '@ethereumjs/tx';
import { JsonText, toJSON } from '../rpc/server.js';
import { checksumAddress } from '../chain/devAccounts.js';
import type { PoolTx } from '../txpool/pool.js';
import { txFeeCap } from '../txpool/pool.js';
import { address, required } from './args.js';
import type { EvmBackend } from './backend.js';
import type { MethodTable } from './eth.js';
import { hexQ, txJSON } from './format.js';

/** A Go map[string]… as encoding/json writes it; `entries` hold the values as JSON text. */
function goMapJSON(entries: [string, string][]): string {
  const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return '{' + sorted.map(([k, v]) => JSON.stringify(k) + ':' + v).join(',') + '}';
}

/** One sender's txs keyed by nonce, each written by `value`. */
function byNonce(txs: readonly PoolTx[], value: (p: PoolTx) => string): string {
  return goMapJSON(txs.map((p) => [p.nonce.toString(), value(p)]));
}

/** geth's inspect line: `<to (EIP-55)>: <value> wei + <gas> gas × <gas price (the fee cap)> wei`. */
function inspectLine(tx: TypedTransaction): string {
  const to = tx.to ? checksumAddress(tx.to.toString()) : 'contract creation';
  return `${to}: ${tx.value} wei + ${tx.gasLimit} gas × ${txFeeCap(tx)} wei`;
}

export function txpoolMethods(be: EvmBackend): MethodTable {
  const m: MethodTable = new Map();
  const txText = (p: PoolTx) => toJSON(txJSON(p.tx, p.from));
  /** {pending, queued}: sender → nonce → value, over the senders `from` selects. */
  const content = (value: (p: PoolTx) => string) => {
    const pending: [string, string][] = [];
    const queued: [string, string][] = [];
    for (const from of be.pool.senders()) {
      const s = be.pool.split(from);
      if (s.pending.length) pending.push([checksumAddress(from), byNonce(s.pending, value)]);
      if (s.queued.length) queued.push([checksumAddress(from), byNonce(s.queued, value)]);
    }
    return new JsonText(goMapJSON([['pending', goMapJSON(pending)], ['queued', goMapJSON(queued)]]));
  };
  m.set('txpool_content', () => content(txText));
  m.set('txpool_contentFrom', (p) => {
    const from = address(required(p, 0), 0);
    const s = be.pool.split(from);
    return new JsonText(goMapJSON([['pending', byNonce(s.pending, txText)], ['queued', byNonce(s.queued, txText)]]));
  });
  m.set('txpool_status', () => {
    const c = be.pool.counts();
    return { pending: hexQ(c.pending), queued: hexQ(c.queued) };
  });
  m.set('txpool_inspect', () => content((p) => JSON.stringify(inspectLine(p.tx))));
  return m;
}
