// console.log from contracts (src/evm/consoleLog.ts): a real node, txs and calls over HTTP, the
// chain's log file read back. The expected texts are what the Hardhat 2.29 (EDR) node printed for
// the same calls (docs/dev-chain.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, encodeFunctionData, getAddress, http, keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { compileContract } from '../../../test/solc.js';
import { KEY0, rawRpc, startDevNode } from './setup.js';
import { CONSOLE_ADDRESS, MAX_LINES, consoleLine, consoleSignatures } from '../consoleLog.js';

const C = compileContract('ConsoleUser', 'Console.sol');
const data = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: C.abi, functionName, args });

/** The console.log entries of the node's log files, in order: [text, whole line]. */
function consoleEntries(dataDir: string): [string, string][] {
  const dir = join(dataDir, 'logs');
  const out: [string, string][] = [];
  for (const f of readdirSync(dir)) {
    for (const l of readFileSync(join(dir, f), 'utf8').split('\n')) {
      const m = /console\.log: (.*?)(?: \{"(?:tx|method)".*)?$/.exec(l);
      if (m) out.push([m[1]!, l]);
    }
  }
  return out;
}

/** Waits until the log holds at least `n` console lines (the log file is written asynchronously). */
async function waitEntries(dataDir: string, n: number): Promise<[string, string][]> {
  for (let i = 0; i < 100; i++) {
    const e = consoleEntries(dataDir);
    if (e.length >= n) return e;
    await new Promise((r) => setTimeout(r, 20));
  }
  return consoleEntries(dataDir);
}

test('console.log: txs and eth_calls print what Hardhat prints; estimates and bad payloads print nothing; gas is unchanged; geth\'s Submitted lines', async () => {
  const dev = await startDevNode({ 'db-type': 'memdb' });
  try {
    const account = privateKeyToAccount(KEY0);
    const wallet = createWalletClient({ account, chain: dev.chain, transport: http(dev.rpcURL) });
    const pub = createPublicClient({ chain: dev.chain, transport: http(dev.rpcURL) });
    const deployed = await pub.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi: C.abi, bytecode: C.bytecode, account, chain: dev.chain }) });
    const to = deployed.contractAddress!;
    const dir = dev.node.dataDir;

    // A mined tx: one INFO entry per line, with the tx's hash; the legacy `uint` spelling and an
    // unknown selector print nothing.
    const hash = await wallet.sendTransaction({ to, data: data('hi', [42n]), gas: 600_000n, account, chain: dev.chain });
    await pub.waitForTransactionReceipt({ hash });
    const mined = await waitEntries(dir, 11);
    assert.deepEqual(
      mined.map(([t]) => t),
      [
        'Hello 42 world',
        `sender ${account.address.toLowerCase()} true`,
        '-7',
        (2n ** 256n - 1n).toString(),
        '0x010203',
        '0xdead',
        keccak256(toHex('x')),
        'pct 42 %s %d %s',
        '1 2 three %s four',
        '',
        'false',
      ],
    );
    for (const [, line] of mined) {
      assert.match(line, /INFO/);
      assert.ok(line.includes(hash), 'the tx hash is in the entry');
    }

    // geth's SubmitTransaction lines, at INFO, for each tx the RPC accepted.
    const submitted = readdirSync(join(dir, 'logs'))
      .flatMap((f) => readFileSync(join(dir, 'logs', f), 'utf8').split('\n'))
      .filter((l) => l.includes('Submitted'));
    assert.equal(submitted.length, 2);
    assert.match(submitted[0]!, new RegExp(`INFO .*Submitted contract creation \\{"hash": "${deployed.transactionHash}", "from": "${account.address}", "nonce": 0, "contract": "${getAddress(to)}", "value": "0"\\}`));
    assert.match(submitted[1]!, new RegExp(`INFO .*Submitted transaction \\{"hash": "${hash}", "from": "${account.address}", "nonce": 1, "recipient": "${getAddress(to)}", "value": "0"\\}`));

    // eth_call prints each time it is made (not answered from the call cache), a reverting call
    // too; eth_estimateGas prints nothing.
    for (let i = 0; i < 2; i++) {
      const r = await rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to, data: data('view5', [5n]) }, 'latest'] });
      assert.equal(BigInt(r.result), 6n);
    }
    const boom = await rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to, data: data('boom') }, 'latest'] });
    assert.equal(boom.error.message, 'execution reverted: nope');
    const est = await rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 1, method: 'eth_estimateGas', params: [{ to, data: data('view5', [6n]) }] });
    assert.ok(est.result);
    // With a state override the call takes the other path, and prints too.
    const over = await rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to, data: data('view5', [7n]) }, 'latest', { [account.address]: { balance: '0x1' } }] });
    assert.equal(BigInt(over.result), 8n);
    const calls = (await waitEntries(dir, 15)).slice(11);
    assert.deepEqual(
      calls.map(([t]) => t),
      ['view 5', 'view 5', 'before revert', 'view 7'],
    );
    for (const [, line] of calls) assert.match(line, /"method":\s*"eth_call"/);

    // Control characters are escaped: one entry, one line, no terminal escapes.
    await rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to, data: data('text', ['a\nb\u001b[31mc\t\u007f']) }, 'latest'] });
    const [escaped] = (await waitEntries(dir, 16)).slice(15);
    assert.equal(escaped![0], 'a\\nb\\u001b[31mc\\t\\u007f');

    // Data that does not decode prints nothing, and the call answers as usual; so does a call
    // straight to the console address.
    const bogus = await rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to, data: data('bogus') }, 'latest'] });
    assert.equal(BigInt(bogus.result), 1n);
    const direct = await rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: CONSOLE_ADDRESS, data: '0x41304fac' + '00'.repeat(31) + 'ff' }, 'latest'] });
    assert.equal(direct.result, '0x');
    const sel = (s: string) => keccak256(toHex(s)).slice(2, 10);
    const directOk = await rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: CONSOLE_ADDRESS, data: '0x' + sel('log(bool)') + '00'.repeat(31) + '01' }, 'latest'] });
    assert.equal(directOk.result, '0x');
    const afterBad = (await waitEntries(dir, 17)).slice(16);
    assert.deepEqual(afterBad.map(([t]) => t), ['true'], 'only the decodable direct call printed');

    // A run keeps MAX_LINES lines and says how many it left out.
    const many = await rawRpc(dev.rpcURL, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to, data: data('many', [BigInt(MAX_LINES + 3)]), gas: '0x5f5e100' }, 'latest'] });
    assert.equal(many.result, '0x');
    const manyLines = (await waitEntries(dir, 17 + MAX_LINES + 1)).slice(17);
    assert.equal(manyLines.length, MAX_LINES + 1);
    assert.equal(manyLines[0]![0], 'line 0');
    assert.equal(manyLines[MAX_LINES - 1]![0], `line ${MAX_LINES - 1}`);
    assert.equal(manyLines[MAX_LINES]![0], `3 more lines not shown (${MAX_LINES} per run)`);

    // The console address is an account without code, as on Subnet-EVM: a call to it costs what a
    // call to any other cold, empty address costs.
    const gasTo = async (target: string) => {
      const h = await wallet.sendTransaction({ to, data: data('callEmpty', [target as `0x${string}`]), gas: 200_000n, account, chain: dev.chain });
      return (await pub.waitForTransactionReceipt({ hash: h })).gasUsed;
    };
    assert.equal(await gasTo(CONSOLE_ADDRESS), await gasTo('0x000000000000000000636f6e736f6c652e6c6f68'));
  } finally {
    await dev.stop();
  }
});

test('console.log decoding: the 375 selectors of console.sol, argument kinds, and data that does not decode', () => {
  const sigs = consoleSignatures();
  assert.equal(sigs.size, 375);
  // Selectors as console.sol's abi.encodeWithSignature makes them (from viem's keccak).
  const sel = (s: string) => Number.parseInt(keccak256(toHex(s)).slice(2, 10), 16);
  for (const s of ['log()', 'log(string)', 'log(int256)', 'log(bytes32)', 'log(address,bool,string,uint256)', 'log(uint256,uint256,uint256,uint256)']) {
    assert.ok(sigs.has(sel(s)), s);
  }
  for (const s of ['log(uint)', 'logInt(int256)', 'log(int256,int256)', 'log(bytes,bytes)', 'log(string,string,string,string,string)']) {
    assert.equal(sigs.has(sel(s)), false, s);
  }
  const word = (n: bigint) => n.toString(16).padStart(64, '0');
  const call = (sig: string, body: string) => Buffer.from(keccak256(toHex(sig)).slice(2, 10) + body, 'hex');
  assert.equal(consoleLine(call('log(uint256)', word(2n ** 255n))), (2n ** 255n).toString());
  assert.equal(consoleLine(call('log(int256)', word(2n ** 256n - 1n))), '-1');
  assert.equal(consoleLine(call('log(bool)', word(2n))), 'true', 'any non-zero last byte');
  assert.equal(consoleLine(call('log(string)', word(32n) + word(2n) + '6869'.padEnd(64, '0'))), 'hi');
  assert.equal(consoleLine(call('log(string)', word(32n) + word(2n) + 'ff80'.padEnd(64, '0'))), '\ufffd\ufffd', 'invalid UTF-8 as replacement characters');
  assert.equal(consoleLine(call('log(string)', word(32n) + word(3n) + '6869')), undefined, 'a string past the data');
  assert.equal(consoleLine(call('log(string)', word(2n ** 40n))), undefined, 'an offset past 2^32');
  assert.equal(consoleLine(call('log(uint256)', '00')), undefined, 'a word short');
  assert.equal(consoleLine(Buffer.from('41304f', 'hex')), undefined, 'a partial selector');
  assert.equal(consoleLine(call('log(string,uint256)', word(64n) + word(5n) + word(6n) + Buffer.from('%d%%%i').toString('hex').padEnd(64, '0'))), '5%%s', '%i after an escaped % still reads as %s; with no argument left it stays');
  const long = 'x'.repeat(10_000);
  const longLine = consoleLine(call('log(string)', word(32n) + word(BigInt(long.length)) + Buffer.from(long).toString('hex').padEnd(Math.ceil(long.length / 32) * 64, '0')))!;
  assert.equal(longLine, `${'x'.repeat(8192)}… (1808 more characters)`);
});
