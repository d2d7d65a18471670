// The struct logger's output, byte for byte, against a golden file written by the implementation
// that listened to ethereumjs' `step` events (before session 25), for every option combination:
// nested CALL / CALLCODE / DELEGATECALL / STATICCALL / CREATE / CREATE2, reverts, out of gas (a
// constant-gas step and a gas handler's), invalid and undefined opcodes, stack underflows, a bad
// jump, a static-call violation, precompiles, SLOAD / SSTORE (in a delegated frame, refunds, a
// load as the code's last opcode), memory growth, return data (a call that fails before its frame
// starts keeps the last), `limit`, gas past 2^53 and the top-level `gas` of txEnd. The cases are
// test/traceCases.ts's (the JSON logger's golden test runs them too).
//
// The golden file keeps, per case, the whole JSON text with the default options (stack and storage)
// and the sha256 and length of the text for every other option set. Written again in session 27:
// entries carry geth's `error` (out of gas, stack checks) and `returnData` moved before `memory`
// (geth's field order); undefined opcodes are named by their byte; every other text is the same.
// To write it again (only from an implementation known to be right):
//   STRUCT_LOGGER_GOLDEN=write node --import tsx --test src/evm/tracers/structLogger.golden.test.ts
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { compileFixtures, cases, fresh, runCase, same, sha, sourcePath, type Case } from '../../../test/traceCases.js';
import { toJSON } from '../rpc/server.js';
import { createTracer, type Tracer } from './index.js';

const GOLDEN = sourcePath('src/evm/tracers/structLogger.golden.json');
const WRITE = process.env.STRUCT_LOGGER_GOLDEN === 'write';

type Options = Record<string, boolean | number>;
const FLAGS = ['disableStack', 'disableStorage', 'enableMemory', 'enableReturnData'] as const;
function optionSets(): Options[] {
  const sets: Options[] = [];
  for (let m = 0; m < 16; m++) sets.push(Object.fromEntries(FLAGS.filter((_, i) => m & (1 << i)).map((f) => [f, true])));
  for (const limit of [1, 7, 40]) {
    sets.push({ limit });
    sets.push({ limit, enableMemory: true, enableReturnData: true });
  }
  return sets;
}
const key = (o: Options) => JSON.stringify(o);
const FULL = new Set([key({})]);

/**
 * The trace's wire text. `alongside`: a step-listening callTracer (withLog) is attached as well;
 * `second`: the text of a second struct logger attached after the first (the EVM keeps one step
 * log: the second listens to `step` events, the path of an EVM the interpreter loop cannot log).
 */
async function trace(c: Case, opts: Options, alongside: 'callTracer' | 'second' | undefined = undefined): Promise<string> {
  const e = await fresh();
  const t = createTracer(undefined, opts) as Tracer;
  const other = alongside === 'callTracer' ? (createTracer('callTracer', { tracerConfig: { withLog: true } }) as Tracer) : alongside === 'second' ? (createTracer(undefined, opts) as Tracer) : undefined;
  t.attach(e);
  // The logger reads the running frames (interpreterSteps.ts), not ethereumjs' step events.
  assert.equal(e.events.listenerCount('step'), 0);
  other?.attach(e);
  try {
    await runCase(e, c);
    if (c.txEnd !== undefined) {
      t.txEnd(c.txEnd);
      other?.txEnd(c.txEnd);
    }
  } finally {
    other?.detach();
    t.detach();
  }
  const text = toJSON(t.result());
  if (alongside === 'second') return toJSON(other!.result());
  return text;
}

type Golden = Record<string, Record<string, string | { sha256: string; length: number }>>;

before(compileFixtures);

test('struct logger: identical to the golden output for every case and option set', async () => {
  await fresh(); // the fixtures' addresses
  const golden: Golden = WRITE ? {} : (JSON.parse(readFileSync(GOLDEN, 'utf8')) as Golden);
  let compared = 0;
  for (const c of cases()) {
    const want = golden[c.name];
    if (!WRITE) assert.ok(want, `no golden output for ${c.name}`);
    const got: Golden[string] = {};
    for (const o of optionSets()) {
      const text = await trace(c, o);
      const k = key(o);
      got[k] = FULL.has(k) ? text : { sha256: sha(text), length: text.length };
      if (WRITE) continue;
      const w = want[k];
      if (typeof w === 'string') same(text, w, `${c.name} ${k}`);
      else assert.deepEqual({ sha256: sha(text), length: text.length }, w, `${c.name} ${k}`);
      compared++;
    }
    if (WRITE) golden[c.name] = got;
  }
  if (WRITE) writeFileSync(GOLDEN, JSON.stringify(golden, null, 1) + '\n');
  else assert.equal(compared, cases().length * optionSets().length);
});

for (const [title, alongside] of [
  ['while another tracer listens to the steps', 'callTracer'],
  ['from step events (a second struct logger on the same EVM)', 'second'],
] as const) {
  test(`struct logger: the same output ${title}`, async () => {
    await fresh();
    const golden: Golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Golden;
    for (const c of cases()) {
      for (const o of [{}, { enableMemory: true, enableReturnData: true }, { limit: 7, enableMemory: true, enableReturnData: true }, { disableStack: true, disableStorage: true }] as Options[]) {
        const text = await trace(c, o, alongside);
        const w = golden[c.name][key(o)];
        if (typeof w === 'string') same(text, w, `${c.name} ${key(o)}`);
        else assert.deepEqual({ sha256: sha(text), length: text.length }, w, `${c.name} ${key(o)}`);
      }
    }
  });
}

test('struct logger: the golden cases hold what they are meant to', () => {
  const golden: Golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Golden;
  const logs = (name: string) => (JSON.parse(golden[name][key({})] as string) as { structLogs: { op: string; depth: number; storage?: object; refund?: number }[] }).structLogs;
  const ops = (name: string) => new Set(logs(name).map((l) => l.op));
  for (const op of ['CALLCODE', 'STATICCALL', 'CALL', 'DELEGATECALL', 'CREATE2', 'CREATE']) assert.ok(ops('frame kinds').has(op), op);
  assert.ok(logs('recursion').some((l) => l.depth === 5));
  assert.ok(logs('storage ops').some((l) => l.refund !== undefined));
  assert.ok(logs('storage ops').some((l) => l.depth === 2 && l.storage !== undefined));
  assert.ok(ops('memory').has('MCOPY'));
  assert.ok(logs('creates').some((l) => l.depth === 2 && l.op === 'MSTORE'), 'the CREATE of init code out of gas ran');
  assert.deepEqual(logs('undefined opcode').map((l) => l.op), ['opcode 0xc not defined'], 'an undefined opcode by its byte, as geth');
  // geth's StructLogger keeps an error its interpreter met before the step on the step's entry
  // (right after `depth` on the wire); one the opcode met while running (CaptureFault) it does not.
  const text = (name: string) => golden[name][key({})] as string;
  assert.match(text('stack underflow: ADD'), /"depth":1,"error":"stack underflow \(0 \\u003c=\\u003e 2\)","stack":\[\]\}\]\}$/);
  assert.equal((logs('out of gas: loop').at(-1) as { error?: string }).error, 'out of gas');
  assert.equal((logs('out of gas: memory expansion').at(-1) as { error?: string }).error, 'out of gas');
  assert.ok(logs('creates').some((l) => l.depth === 2 && (l as { error?: string }).error === 'out of gas'), 'a child frame\'s failing step');
  for (const name of ['INVALID', 'undefined opcode', 'bad jump', 'static violations', 'reverter.revertWithReason']) {
    assert.ok(!text(name).includes('"error"'), `${name}: a fault in the opcode's run is not on the entry`);
  }
});
