// Files named by flags that cannot be read stop the start with Go's path error text
// (`read <path>: is a directory`), not Node's (`EISDIR: illegal operation on a directory, read`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestNode } from '../../test/helpers.js';

test('a directory where a flag names a file: the start fails with Go\'s path error', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'powder-filerr-'));
  const folder = join(dir, 'folder.json');
  mkdirSync(folder);
  const cases: [string, Record<string, unknown>, string][] = [
    ['--config-file', { 'config-file': folder }, `--config-file ${folder}: read ${folder}: is a directory`],
    ['--chains-file', { 'chains-file': folder }, `--chains-file: read ${folder}: is a directory`],
    ['--http-tls-key-file', { 'http-tls-enabled': true, 'http-tls-key-file': folder, 'http-tls-cert-file': folder }, `--http-tls-key-file: read ${folder}: is a directory`],
    ['a chain\'s genesis path', { chains: [{ name: 'g', genesis: folder }] }, `chain g: cannot read genesis file: read ${folder}: is a directory`],
    // storage.FileExists: a directory is no file.
    ['--chain-aliases-file', { 'chain-aliases-file': folder }, `file does not exist: ${folder}`],
    // ids.ID's UnmarshalJSON on a map key.
    ['a bad chain ID in the chain aliases', { 'chain-aliases-file-content': Buffer.from('{"abcdefgh":["x"]}').toString('base64') }, "unmarshalling failed on chain aliases: couldn't decode ID to bytes: invalid input checksum"],
  ];
  try {
    for (const [what, options, want] of cases) {
      await t.test(what, async () => {
        await assert.rejects(startTestNode({ 'db-type': 'memdb', ...options }), (e: Error) => {
          assert.equal(e.message, want);
          return true;
        });
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
