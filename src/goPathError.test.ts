// Go's PathError texts for real Node fs errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goPathError } from './goPathError.js';

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  assert.fail('expected a throw');
};

test('goPathError: Go errno texts, the failing system call named as Go names it, Node text otherwise', () => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-patherr-'));
  try {
    const missing = join(dir, 'nope');
    assert.equal(goPathError('open', missing, thrown(() => readFileSync(missing))), `open ${missing}: no such file or directory`);
    assert.equal(goPathError('stat', missing, thrown(() => statSync(missing))), `stat ${missing}: no such file or directory`);
    // Reading a directory fails in read(2), and Go says so.
    assert.equal(goPathError('open', dir, thrown(() => readFileSync(dir))), `read ${dir}: is a directory`);
    // An errno Go's table here does not have keeps Node's description, without its code and call.
    const odd = Object.assign(new Error("EXDEV: cross-device link not permitted, rename 'a' -> 'b'"), { code: 'EXDEV', syscall: 'rename' });
    assert.equal(goPathError('rename', 'a', odd), 'rename a: cross-device link not permitted');
    assert.equal(goPathError('mkdir', '/x', Object.assign(new Error('EPERM: operation not permitted'), { code: 'EPERM', syscall: 'mkdir' })), 'mkdir /x: operation not permitted');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
