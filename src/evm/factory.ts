// PLACEHOLDER until the Subnet-EVM VM lands (issue 3): answers every /rpc call with -32601.
import type { VMFactory } from '../vms/types.js';
import { readBody } from '../server/body.js';

export const subnetEVMFactory: VMFactory = {
  version: 'v0.8.0',
  defaultGenesis: () => Buffer.from(JSON.stringify({ config: { chainId: 43214 }, alloc: {}, gasLimit: '0x7a1200' })),
  async createChain() {
    return {
      createHandlers: () => ({
        '/rpc': {
          http: async (req, res) => {
            const body = JSON.parse((await readBody(req, 5 << 20)).toString() || '{}');
            res.writeHead(200, { 'Content-Type': 'application/json' });
            res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id ?? null, error: { code: -32601, message: `the method ${body.method} does not exist/is not available` } }));
          },
        },
      }),
      shutdown: async () => {},
    };
  },
};
