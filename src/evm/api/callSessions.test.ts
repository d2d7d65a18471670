// eth_calls that arrive together run one after another on one call session (backend.ts,
// nextSession): a busy turn's calls no longer make a session (a VM) each, and every answer is the
// call's own. A call that waits for more than microtasks does not hold the others back
// (callYield.test.ts: a short call answers during a long one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { devNodeWithConfig, deployFromDev } from '../chain/testkit.js';
import { callSessionStats } from './backend.js';

// Runtime: return the first word of the call data (CALLDATALOAD 0, MSTORE 0, RETURN 0 32).
const ECHO_RUNTIME = '60003560005260206000f3';
const ECHO_CREATION = '0x6a' + ECHO_RUNTIME + '600052600b6015f3';
const word = (i: number) => '0x' + i.toString(16).padStart(64, '0');

test('32 eth_calls sent at once: each answers its own data, on a session handed from call to call', async () => {
  const { node, rpc } = await devNodeWithConfig({});
  try {
    const echo = await deployFromDev(rpc, ECHO_CREATION);
    assert.equal(await rpc('eth_call', [{ to: echo, data: word(1) }, 'latest']), word(1));
    const made = callSessionStats.made;
    const handed = callSessionStats.handedOver;
    // Distinct data each time (the result cache cannot answer), all in flight together.
    for (let round = 0; round < 5; round++) {
      const ids = Array.from({ length: 32 }, (_, i) => 1000 * (round + 1) + i);
      const answers = await Promise.all(ids.map((i) => rpc('eth_call', [{ to: echo, data: word(i) }, 'latest'])));
      assert.deepEqual(answers, ids.map(word));
    }
    assert.ok(callSessionStats.handedOver - handed > 0, 'sessions were handed from one call to the next');
    // Without the hand-over, calls beyond the idle sessions each made one (up to 32 a round).
    assert.ok(callSessionStats.made - made <= 2, `sessions made for 160 calls: ${callSessionStats.made - made}`);
  } finally {
    await node.stop();
  }
});
