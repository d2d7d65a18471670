// debugColors: `debug` answers its colour question once, the way it would have each time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { isatty } from 'node:tty';
import createDebug from 'debug';
import './debugColors.js';

const opts = (createDebug as unknown as { inspectOpts: { colors?: unknown } }).inspectOpts;

test('without DEBUG_COLORS the colour choice is stderr being a terminal, decided once', () => {
  if (process.env.DEBUG_COLORS === undefined) assert.equal(opts.colors, isatty(process.stderr.fd));
  assert.equal((createDebug('ethjs:test') as unknown as { useColors: boolean }).useColors, Boolean(opts.colors));
});

test('DEBUG_COLORS still decides when it is set', () => {
  // The sibling module as this file runs: compiled (.js) in `npm test`, TypeScript under tsx.
  const ts = import.meta.url.endsWith('.ts');
  const mod = new URL(`./debugColors.${ts ? 'ts' : 'js'}`, import.meta.url).href;
  const code = `import createDebug from 'debug'; await import(${JSON.stringify(mod)}); console.log(JSON.stringify([createDebug.inspectOpts.colors, createDebug('x').useColors]));`;
  for (const [env, want] of [['no', false], ['yes', true]] as const) {
    const out = execFileSync(process.execPath, [...(ts ? ['--import', 'tsx'] : []), '--input-type=module', '-e', code], { env: { ...process.env, DEBUG_COLORS: env }, cwd: new URL('../..', import.meta.url) });
    assert.deepEqual(JSON.parse(out.toString()), [want, want]);
  }
});
