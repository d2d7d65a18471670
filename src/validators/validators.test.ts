import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestNode, rpc } from '../../test/helpers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const OTHER = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
const THIRD = 'NodeID-eA9ctCNq41iLLnQErtTUVdxpRyZ8QSc1';

test('getCurrentValidators: the node is the one validator of the dev chain, with every field', async () => {
  const t = await startTestNode({ 'db-type': 'memdb' });
  try {
    const r = await rpc(`${t.url}/ext/bc/dev/validators`, 'validators.getCurrentValidators', {});
    assert.equal(r.result.validators.length, 1);
    const v = r.result.validators[0];
    assert.deepEqual(Object.keys(v), [
      'validationID', 'nodeID', 'weight', 'startTimestamp', 'isActive', 'isL1Validator', 'isConnected', 'uptimePercentage', 'uptimeSeconds',
    ]);
    assert.equal(v.nodeID, t.node.nodeID);
    assert.equal(typeof v.weight, 'number');
    assert.equal(v.isConnected, true);
    assert.equal(v.isActive, true);
    // Up since its own start, which is when this data dir first ran the chain: 100 %, at once.
    assert.equal(v.uptimePercentage, 100);
    assert.match(v.validationID, /^[1-9A-HJ-NP-Za-km-z]{48,50}$/);
    // The same answer through the chain ID path and the params-array form.
    const byID = await rpc(`${t.url}/ext/bc/${t.node.chains.aliaser.lookup('dev')}/validators`, 'validators.getCurrentValidators', [{}]);
    assert.equal(byID.result.validators[0].validationID, v.validationID);
  } finally {
    await t.stop();
  }
});

test('getCurrentValidators: nodeIDs filter, unknown IDs ignored, malformed IDs rejected', async () => {
  const t = await startTestNode({
    'db-type': 'memdb',
    chains: [{ name: 'dev', aliases: ['dev'], dev: true, validators: [{ weight: 20 }, { nodeID: OTHER, weight: '18446744073709551615' }] }],
  }).catch((e) => e as Error);
  // A validator without nodeID is a configuration error that names itself.
  assert.ok(t instanceof Error);
  assert.match(t.message, /validators of subnet .*entry 0: nodeID/);
  // A non-L1 validator is always active on the real node: an inactive one cannot be declared.
  const inactive = await startTestNode({ 'db-type': 'memdb', chains: [{ name: 'dev', aliases: ['dev'], dev: true, validators: [{ nodeID: OTHER, isL1Validator: false, isActive: false }] }] }).catch((e) => e as Error);
  assert.ok(inactive instanceof Error);
  assert.match(inactive.message, /validators of subnet .*entry 0: isActive false needs isL1Validator true/);

  const t2 = await startTestNode({ 'db-type': 'memdb' });
  const self = t2.node.nodeID;
  await t2.stop();
  const t3 = await startTestNode({
    'db-type': 'memdb',
    'staking-tls-key-file': join(t2.dataDir, 'none.key'),
    chains: [{ name: 'dev', aliases: ['dev'], dev: true, validators: [
      { nodeID: OTHER, weight: '18446744073709551615', isL1Validator: false },
      { nodeID: THIRD, weight: 7, isActive: false, startTime: 1700000000 },
    ] }],
  });
  try {
    void self;
    const all = await rpc(`${t3.url}/ext/bc/dev/validators`, 'validators.getCurrentValidators', { nodeIDs: [] });
    assert.equal(all.result.validators.length, 2);
    const third = all.result.validators[1];
    assert.deepEqual({ ...third, validationID: undefined }, {
      validationID: undefined, nodeID: THIRD, weight: 7, startTimestamp: 1700000000, isActive: false, isL1Validator: true,
      isConnected: false, uptimePercentage: 0, uptimeSeconds: 0,
    });
    const v = all.result.validators[0];
    assert.equal(v.nodeID, OTHER);
    assert.equal(v.isConnected, false);
    assert.equal(v.isL1Validator, false);
    assert.equal(v.uptimeSeconds, 0);
    // uint64 weight beyond 2^53 is written as a bare JSON number, digit for digit.
    const raw = await fetch(`${t3.url}/ext/bc/dev/validators`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'validators.getCurrentValidators', params: {} }),
    }).then((r) => r.text());
    assert.match(raw, /"weight":18446744073709551615,/);
    // The whole wire text: Go's field order, no spaces, entries comma-separated, a newline at the end.
    const entry = (node: string, w: string, start: string, active: boolean, l1: boolean) =>
      `\\{"validationID":"[1-9A-HJ-NP-Za-km-z]{48,50}","nodeID":"${node}","weight":${w},"startTimestamp":${start},` +
      `"isActive":${active},"isL1Validator":${l1},"isConnected":false,"uptimePercentage":0,"uptimeSeconds":0\\}`;
    assert.match(raw, new RegExp(`^\\{"jsonrpc":"2\\.0","result":\\{"validators":\\[${entry(OTHER, '18446744073709551615', '\\d+', true, false)},` +
      `${entry(THIRD, '7', '1700000000', false, true)}\\]\\},"id":1\\}\\n$`));
    const unknown = await rpc(`${t3.url}/ext/bc/dev/validators`, 'validators.getCurrentValidators', {
      nodeIDs: ['NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5'],
    });
    assert.deepEqual(unknown.result, { validators: [] });
    const bad = await rpc(`${t3.url}/ext/bc/dev/validators`, 'validators.getCurrentValidators', { nodeIDs: ['P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5'] });
    assert.equal(bad.error.code, -32000);
    assert.match(bad.error.message, /^couldn't unmarshal an argument/);
    const wrong = await rpc(`${t3.url}/ext/bc/dev/validators`, 'validators.getcurrentValidators', {});
    assert.equal(wrong.error.message, 'rpc: can\'t find method "validators.GetcurrentValidators"');
  } finally {
    await t3.stop();
    rmSync(t2.dataDir, { recursive: true, force: true });
  }
});

test('uptime is measured by this node and kept across restarts; downtime counts as offline', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'powder-test-'));
  try {
    const a = await startTestNode({ 'data-dir': dataDir });
    await sleep(2200);
    const before = await rpc(`${a.url}/ext/bc/dev/validators`, 'validators.getCurrentValidators', {});
    await a.stop();
    assert.ok(before.result.validators[0].uptimeSeconds >= 2);
    assert.ok(before.result.validators[0].uptimePercentage > 90);
    await sleep(2500);
    const b = await startTestNode({ 'data-dir': dataDir });
    try {
      const after = await rpc(`${b.url}/ext/bc/dev/validators`, 'validators.getCurrentValidators', {});
      const v = after.result.validators[0];
      assert.equal(v.validationID, before.result.validators[0].validationID);
      assert.equal(v.startTimestamp, before.result.validators[0].startTimestamp);
      assert.ok(v.uptimeSeconds >= 2, `uptime kept: ${v.uptimeSeconds}`);
      assert.ok(v.uptimePercentage < 90, `downtime counted: ${v.uptimePercentage}`);
    } finally {
      await b.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('float32JSON: the digits Go writes for a float32 (the shortest that reads back)', async () => {
  const { float32JSON } = await import('./manager.js');
  // Go: json.Marshal(float32(x)) for each x.
  const cases: [number, number][] = [
    [100, 100],
    [0, 0],
    [99.99, 99.99],
    [0.1, 0.1],
    [(1 / 3) * 100, 33.333332],
    [2 / 3, 0.6666667],
    [16777217, 16777216],
    [50.000001, 50],
    [1e-7, 1e-7],
  ];
  for (const [x, want] of cases) assert.equal(float32JSON(x), want, `float32(${x})`);
});

/** A ValidatorManager on an LMDB store in a temporary folder, with a clock the test moves. */
async function managerOnLmdb(checkpointMs: number) {
  const { ValidatorManager } = await import('./manager.js');
  const { openDatabase } = await import('../db/database.js');
  const dir = mkdtempSync(join(tmpdir(), 'powder-uptime-'));
  const db = openDatabase('lmdb', dir);
  const clock = { now: 1_700_000_000_000 };
  const errors: unknown[] = [];
  const store = db.store('validators');
  const self = { nodeID: OTHER, blsSecretKey: new Uint8Array(32).fill(1) };
  const m = new ValidatorManager(store, self, () => clock.now, (e) => errors.push(e), checkpointMs);
  const [v] = m.setSubnet('2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM', undefined);
  const stored = () => {
    const raw = store.get(Buffer.from(`uptime/${v.validationID}`));
    return raw === undefined ? undefined : JSON.parse(Buffer.from(raw).toString());
  };
  const close = async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { m, clock, errors, stored, close };
}

test('uptimes are written while the node runs (a crash keeps the last checkpoint), through the asynchronous write', async () => {
  const { m, clock, errors, stored, close } = await managerOnLmdb(20);
  try {
    assert.equal(stored(), undefined);
    clock.now += 3_000;
    for (let i = 0; i < 100 && stored()?.lastUpdated !== clock.now; i++) await sleep(10);
    assert.deepEqual(stored(), { upMs: 3_000, lastUpdated: clock.now });
    assert.deepEqual(errors, []);
  } finally {
    await m.stop();
    await close();
  }
});

test('stop writes the last uptimes, with a periodic checkpoint still on its way, and they stay the ones stored', async () => {
  const { m, clock, errors, stored, close } = await managerOnLmdb(1_000_000_000);
  try {
    clock.now += 10;
    m.checkpointLater(); // LMDB commits it on lmdb-js's write thread, later
    clock.now += 5_000;
    await m.stop();
    assert.deepEqual(stored(), { upMs: 5_010, lastUpdated: clock.now });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
