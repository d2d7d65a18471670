// The JSON logger's EIP-3155 text (debug_standardTraceBlockToFile's files), byte for byte, against
// a golden file written by the implementation that listened to ethereumjs' `step` events (before
// session 26), for the 8 combinations of the options fileTracer.ts passes (enableMemory,
// disableStack, enableReturnData). The cases are the struct logger's (test/traceCases.ts) and a
// few of the JSON logger's own: the faults geth logs twice (REVERT growing the memory, a bad JUMPI,
// RETURNDATACOPY out of bounds, at the top, into memory it grew and in a child the parent
// outlives; an undefined opcode) and those it logs once (a stack overflow, at the top and in a child; memory past 64
// bits), and a loop long enough for the file sink to take several chunks.
// Every trace is taken twice, as text() and through a sink (finish() at the end), which must
// agree; the same output is expected with a step-listening tracer alongside and from step events.
//
// The golden file keeps, per case, the whole text with the default options (the stack overflows':
// with disableStack; the loop's: none) and the sha256 and length of the text for every other
// option set.
// Written again in session 27, when RETURNDATACOPY out of bounds became geth's fault (src/evm/
// gethHalts.ts) instead of out of gas, an undefined opcode a fault (geth's opUndefined runs
// after the step is logged), and the last three cases were added; no other case's text changed.
// To write it again (only from an implementation known to be right):
//   JSON_LOGGER_GOLDEN=write node --import tsx --test src/evm/api/jsonLogger.golden.test.ts
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Address } from '@ethereumjs/util';
import { asm, at, call, cases, compileFixtures, fresh, runCase, same, sha, sourcePath, type Case } from '../../../test/traceCases.js';
import { createTracer, type Tracer } from '../tracers/index.js';
import { JsonLogger, type JsonLoggerConfig } from './jsonLogger.js';

const GOLDEN = sourcePath('src/evm/api/jsonLogger.golden.json');
const WRITE = process.env.JSON_LOGGER_GOLDEN === 'write';
/** The sink's chunk size in jsonLogger.ts. */
const SINK_CHUNK = 64 << 10;

const J = {
  revertGrows: at(0x3e01), revertEmpty: at(0x3e02), badJumpi: at(0x3e03), rdOutOfBounds: at(0x3e04),
  rdInChild: at(0x3e05), overflow: at(0x3e06), overflowChild: at(0x3e07), jumpLoop: at(0x3e08),
  rdGrows: at(0x3e09), mloadPast64: at(0x3e0a), rdHugeLength: at(0x3e0b),
};

function jsonCode(): [Address, string][] {
  const pushes = Array<string>(32).fill('PUSH0');
  return [
    // REVERT of 0x40 bytes at 0x10 with 32 bytes of memory: its fault line shows the memory grown.
    [J.revertGrows, asm(0xdead, 0, 'MSTORE', 5, 6, 0x40, 0x10, 'REVERT')],
    // REVERT of nothing at a far offset: no growth.
    [J.revertEmpty, asm(0xbeef, 0, 'MSTORE', 0, 0xffffff, 'REVERT')],
    [J.badJumpi, asm(0x42, 0, 'MSTORE', 7, 1, 0x30, 'JUMPI', 'STOP')],
    [J.rdOutOfBounds, asm(0x99, 0x20, 'MSTORE', 9, 1, 0, 0, 'RETURNDATACOPY')],
    // A child whose RETURNDATACOPY fails, then the parent goes on.
    [J.rdInChild, asm(...call('CALL', 50_000, J.rdOutOfBounds, [0, 0, 0, 0], 0), 0, 'MSTORE', 'RETURNDATASIZE', 0x20, 0, 'RETURN')],
    // 32 pushes per round until the 1025th word.
    [J.overflow, asm('JUMPDEST', ...pushes, 0, 'JUMP')],
    [J.overflowChild, asm(...call('CALL', 200_000, J.overflow, [0, 0, 0, 0], 0), 'PC', 'STOP')],
    [J.jumpLoop, asm('JUMPDEST', 0, 'JUMP')],
    // RETURNDATACOPY of 0x30 bytes to 0x40 with 32 bytes of memory: geth grows the memory, then fails.
    [J.rdGrows, asm(0x77, 0, 'MSTORE', 9, 0x30, 0, 0x40, 'RETURNDATACOPY')],
    // MLOAD at 2^64: geth's memory size overflows before the dynamic gas.
    [J.mloadPast64, asm(0x55, 0, 'MSTORE', 2n ** 64n, 'MLOAD')],
    // RETURNDATACOPY of 2^32 bytes: the memory is priced first, out of gas.
    [J.rdHugeLength, asm(2n ** 32n, 0, 0, 'RETURNDATACOPY')],
  ];
}

const FLAGS = ['disableStack', 'enableMemory', 'enableReturnData'] as const;
type Options = Partial<Record<(typeof FLAGS)[number], true>>;
/**
 * `whole`: the option set whose text the golden file keeps whole (default: the default options);
 * null for a case too long to keep any.
 */
type JsonCase = Case & { whole?: Options | null };

/** The JSON logger's own cases. */
const jsonCases = (): JsonCase[] => [
  { name: 'REVERT growing the memory', to: J.revertGrows },
  { name: 'REVERT of nothing', to: J.revertEmpty },
  { name: 'bad JUMPI', to: J.badJumpi },
  { name: 'RETURNDATACOPY out of bounds', to: J.rdOutOfBounds },
  { name: 'RETURNDATACOPY out of bounds in a child', to: J.rdInChild },
  { name: 'stack overflow', to: J.overflow, whole: { disableStack: true } },
  { name: 'stack overflow in a child', to: J.overflowChild, whole: { disableStack: true } },
  { name: 'a long loop (several sink chunks)', to: J.jumpLoop, gasLimit: 300_000n, whole: null },
  { name: 'RETURNDATACOPY out of bounds into grown memory', to: J.rdGrows },
  { name: 'MLOAD past 64 bits', to: J.mloadPast64 },
  { name: 'RETURNDATACOPY out of bounds, too long to pay for', to: J.rdHugeLength },
];
const allCases = (): JsonCase[] => [...cases(), ...jsonCases()];

function optionSets(): Options[] {
  const sets: Options[] = [];
  for (let m = 0; m < 8; m++) sets.push(Object.fromEntries(FLAGS.filter((_, i) => m & (1 << i)).map((f) => [f, true])));
  return sets;
}
const key = (o: Options) => JSON.stringify(o);
const config = (o: Options): JsonLoggerConfig => ({ enableMemory: o.enableMemory === true, disableStack: o.disableStack === true, enableReturnData: o.enableReturnData === true });

type Alongside = 'callTracer' | 'second' | undefined;

/**
 * Runs `c` with a JSON logger attached (with `sink`, finished after the run). `alongside`: a
 * step-listening callTracer (withLog) is attached as well; `second`: a second JSON logger attached
 * after the first, whose text is returned (the EVM keeps one step log: the second listens to
 * `step` events, the path of an EVM the interpreter loop cannot log).
 */
async function trace(c: Case, o: Options, alongside: Alongside, sink?: (text: string) => void): Promise<string> {
  const e = await fresh(jsonCode());
  const logger = new JsonLogger(config(o), sink);
  const other = alongside === 'callTracer' ? (createTracer('callTracer', { tracerConfig: { withLog: true } }) as Tracer) : alongside === 'second' ? new JsonLogger(config(o)) : undefined;
  logger.attach(e);
  // The logger reads the running frames (interpreterSteps.ts), not ethereumjs' step events.
  assert.equal(e.events.listenerCount('step'), 0);
  other?.attach(e);
  try {
    await runCase(e, c);
  } finally {
    other?.detach();
    logger.detach();
  }
  if (sink) logger.finish();
  return other instanceof JsonLogger ? other.text() : logger.text();
}

/** The text as the file sink receives it, checked to come in chunks of about 64 KiB. */
async function traceToSink(c: Case, o: Options): Promise<string> {
  const chunks: string[] = [];
  const rest = await trace(c, o, undefined, (t) => chunks.push(t));
  assert.equal(rest, '', 'nothing kept once finished');
  const text = chunks.join('');
  const longestLine = Math.max(...text.split('\n').map((l) => l.length + 1));
  chunks.slice(0, -1).forEach((chunk, i) => {
    assert.ok(chunk.length >= SINK_CHUNK && chunk.length < SINK_CHUNK + longestLine, `${c.name} ${key(o)}: chunk ${i} of ${chunk.length}`);
  });
  return text;
}

type Golden = Record<string, Record<string, string | { sha256: string; length: number }>>;

function compare(text: string, want: Golden[string][string] | undefined, label: string): void {
  assert.ok(want !== undefined, `no golden output for ${label}`);
  if (typeof want === 'string') same(text, want, label);
  else assert.deepEqual({ sha256: sha(text), length: text.length }, want, label);
}

before(compileFixtures);

test('JSON logger: identical to the golden output for every case and option set, as text() and through the file sink', async () => {
  await fresh(jsonCode()); // the fixtures' addresses
  const golden: Golden = WRITE ? {} : (JSON.parse(readFileSync(GOLDEN, 'utf8')) as Golden);
  let compared = 0;
  let chunked = 0;
  for (const c of allCases()) {
    const got: Golden[string] = {};
    for (const o of optionSets()) {
      const text = await trace(c, o, undefined);
      const label = `${c.name} ${key(o)}`;
      const sunk = await traceToSink(c, o);
      same(sunk, text, `${label} through the sink`);
      if (sunk.length > SINK_CHUNK) chunked++;
      got[key(o)] = c.whole !== null && key(o) === key(c.whole ?? {}) ? text : { sha256: sha(text), length: text.length };
      if (WRITE) continue;
      compare(text, golden[c.name]?.[key(o)], label);
      compared++;
    }
    if (WRITE) golden[c.name] = got;
  }
  assert.ok(chunked >= 8, `traces the sink took in several chunks: ${chunked}`);
  if (WRITE) writeFileSync(GOLDEN, JSON.stringify(golden, null, 1) + '\n');
  else assert.equal(compared, allCases().length * optionSets().length);
});

for (const [title, alongside] of [
  ['while another tracer listens to the steps', 'callTracer'],
  ['from step events (a second JSON logger on the same EVM)', 'second'],
] as const) {
  test(`JSON logger: the same output ${title}`, async () => {
    await fresh(jsonCode());
    const golden: Golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Golden;
    for (const c of allCases()) {
      for (const o of optionSets()) compare(await trace(c, o, alongside), golden[c.name]?.[key(o)], `${c.name} ${key(o)}`);
    }
  });
}

interface StdLine {
  pc: number;
  op: number;
  opName: string;
  depth: number;
  gasCost: string;
  memSize: number;
  stack: string[] | null;
  refund: number;
  error?: string;
}
interface Summary {
  output: string;
  gasUsed: string;
  error?: string;
}

test('JSON logger: the golden cases hold what they are meant to', () => {
  const golden: Golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Golden;
  const parse = (name: string) => {
    const whole = Object.values(golden[name]).find((t) => typeof t === 'string');
    assert.ok(whole !== undefined, name);
    const lines = whole.split('\n');
    assert.equal(lines.pop(), '', 'every line ends in a newline');
    return { steps: lines.slice(0, -1).map((l) => JSON.parse(l) as StdLine), summary: JSON.parse(lines.at(-1)!) as Summary };
  };
  /** The step an error was logged on, and the line after it (geth's CaptureFault line, if any). */
  const failing = (name: string, error: string) => {
    const { steps } = parse(name);
    const i = steps.findIndex((l) => l.error === error);
    assert.ok(i >= 0, `${name}: ${error}`);
    return { step: steps[i], before: steps[i - 1], after: steps[i + 1] };
  };
  // Errors while the opcode runs: the step, then the fault line with what the opcode left.
  for (const [name, error, op, popped] of [
    ['REVERT growing the memory', 'execution reverted', 'REVERT', 2],
    ['bad jump', 'invalid jump destination', 'JUMP', 1],
    ['bad JUMPI', 'invalid jump destination', 'JUMPI', 2],
    ['static violations', 'write protection', 'SSTORE', 0],
    ['RETURNDATACOPY out of bounds', 'return data out of bounds', 'RETURNDATACOPY', 3],
    ['RETURNDATACOPY out of bounds in a child', 'return data out of bounds', 'RETURNDATACOPY', 3],
    ['RETURNDATACOPY out of bounds into grown memory', 'return data out of bounds', 'RETURNDATACOPY', 3],
    ['INVALID', 'invalid opcode: INVALID', 'INVALID', 0],
  ] as const) {
    const { step, before } = failing(name, error);
    assert.equal(step.opName, op, name);
    assert.equal(before.pc, step.pc, `${name}: the step is logged first`);
    assert.equal(before.error, undefined);
    assert.deepEqual(step.stack, before.stack!.slice(0, before.stack!.length - popped), `${name}: the stack the opcode left`);
  }
  assert.equal(failing('REVERT growing the memory', 'execution reverted').step.memSize, 0x60);
  assert.deepEqual([failing('RETURNDATACOPY out of bounds into grown memory', 'return data out of bounds').before.memSize, failing('RETURNDATACOPY out of bounds into grown memory', 'return data out of bounds').step.memSize], [0x20, 0x80]);
  // The step line carries the whole cost (memory and copy gas): 3 + 3 × 3 + 2 × 3.
  assert.equal(failing('RETURNDATACOPY out of bounds into grown memory', 'return data out of bounds').before.gasCost, '0x12');
  // Errors before it: the step's own line, not repeated.
  for (const [name, error, op] of [
    ['out of gas: loop', 'out of gas', 'SSTORE'],
    ['out of gas: memory expansion', 'out of gas', 'MSTORE'],
    ['out of gas: SSTORE sentry', 'out of gas', 'SSTORE'],
    ['RETURNDATACOPY out of bounds, too long to pay for', 'out of gas', 'RETURNDATACOPY'],
    ['MLOAD past 64 bits', 'gas uint64 overflow', 'MLOAD'],
    ['stack underflow: ADD', 'stack underflow (0 <=> 2)', 'ADD'],
    ['stack underflow: MSTORE', 'stack underflow (0 <=> 2)', 'MSTORE'],
    ['stack overflow', 'stack limit reached 1024 (1023)', 'PUSH1'],
    ['stack overflow in a child', 'stack limit reached 1024 (1023)', 'PUSH1'],
  ] as const) {
    const { step, before, after } = failing(name, error);
    assert.equal(step.opName, op, name);
    assert.ok(before === undefined || before.pc !== step.pc, name);
    assert.ok(after === undefined || after.depth < step.depth, name);
  }
  assert.equal(failing('out of gas: SSTORE sentry', 'out of gas').step.depth, 2);
  assert.equal(failing('MLOAD past 64 bits', 'gas uint64 overflow').step.gasCost, '0x3', 'the constant gas only');
  assert.equal(failing('RETURNDATACOPY out of bounds in a child', 'return data out of bounds').after.opName, 'PUSH1', 'the parent goes on');
  assert.equal(failing('stack overflow in a child', 'stack limit reached 1024 (1023)').after.opName, 'PC', 'the parent goes on');
  // The summary: a revert keeps its output, another failure has none.
  const reverted = parse('REVERT growing the memory').summary;
  assert.deepEqual(reverted, { output: '00'.repeat(14) + 'dead' + '00'.repeat(48), gasUsed: reverted.gasUsed, error: 'execution reverted' });
  assert.deepEqual(parse('out of gas: loop').summary, { output: '', gasUsed: '0x7530', error: 'out of gas' });
  assert.equal(parse('storage.set').summary.error, undefined);
  assert.ok(parse('recursion').steps.some((l) => l.depth === 5));
  assert.ok(parse('storage ops').steps.some((l) => l.refund > 0));
});
