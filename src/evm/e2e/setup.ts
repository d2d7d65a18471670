// Shared setup for the end-to-end tests: a node with the default dev chain, its URLs, the dev
// keys, and the compiled test contracts.
import { defineChain } from 'viem';
import { startTestNode, type TestNode } from '../../../test/helpers.js';
import { compileContract, type Compiled } from '../../../test/solc.js';

/** First account of `test test … junk` (hardhat/anvil account 0). */
export const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;
export const ADDR0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const;
/** Account 1 of the mnemonic. */
export const KEY1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const;
export const ADDR1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;
/** The well-known Avalanche local key ("ewoq"). */
export const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027' as const;
export const EWOQ_ADDR = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC' as const;

export interface DevNode {
  node: TestNode;
  rpcURL: string;
  wsURL: string;
  chainId: number;
  chain: ReturnType<typeof defineChain>;
  stop(): Promise<void>;
}

export async function startDevNode(options: Record<string, unknown> = {}): Promise<DevNode> {
  const node = await startTestNode(options);
  const rpcURL = node.url + '/ext/bc/dev/rpc';
  const wsURL = node.url.replace(/^http/, 'ws') + '/ext/bc/dev/ws';
  const res = await fetch(rpcURL, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' });
  const chainId = Number(((await res.json()) as { result: string }).result);
  const chain = defineChain({
    id: chainId,
    name: 'Powder dev',
    nativeCurrency: { name: 'Token', symbol: 'TKN', decimals: 18 },
    rpcUrls: { default: { http: [rpcURL], webSocket: [wsURL] } },
  });
  return { node, rpcURL, wsURL, chainId, chain, stop: () => node.stop() };
}

export const contracts = {
  erc20: (): Compiled => compileContract('ERC20'),
  storage: (): Compiled => compileContract('Storage', 'Fixtures.sol'),
  emitter: (): Compiled => compileContract('Emitter', 'Fixtures.sol'),
  reverter: (): Compiled => compileContract('Reverter', 'Fixtures.sol'),
  caller: (): Compiled => compileContract('Caller', 'Fixtures.sol'),
};

/** Raw JSON-RPC POST; returns the parsed body (undefined if empty). */
export async function rawRpc(url: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  return text === '' ? undefined : JSON.parse(text);
}
