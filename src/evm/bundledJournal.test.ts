// The journal's tuning (journalTuning.ts) installs only when each replaced method's text is the
// version it was copied from; otherwise it leaves the package's journal alone, silently (a later
// package version is looked at, never half-patched). The bundles carry esbuild's rewrite of that
// text (no comments, `const` as `let`, declarations joined by commas), so a text check that only
// knew the unbundled form would leave every node run from a bundle without the tuning, and no
// test of the unbundled modules would see it. Here the Journal class is cut out of the library
// bundle and its methods' text is checked by the same function the install uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { journalMatchesCopied } from './journalTuning.js';
import { distFile } from './bundledNode.js';

/** The index of the brace that closes the one at `open`, skipping strings and template literals. */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      for (i++; text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '`') {
      for (i++; text[i] !== '`'; i++) {
        if (text[i] === '\\') i++;
        else if (text[i] === '$' && text[i + 1] === '{') i = closingBrace(text, i + 1);
      }
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  throw new Error('no closing brace');
}

/** The bundle's text of `name`'s method in the class at `classText` (its head and body). */
function methodText(classText: string, name: string): string | undefined {
  const m = new RegExp(String.raw`[{}](async )?${name}\(([\w$,]*)\)\{`).exec(classText);
  if (m === null) return undefined;
  const start = m.index + 1;
  return classText.slice(start, closingBrace(classText, m.index + m[0].length - 1) + 1);
}

test('bundled journal: the library bundle\'s Journal methods are the text the tuning was copied from', () => {
  const bundle = readFileSync(distFile('powder.lib.cjs'), 'utf8');
  const at = bundle.search(/\bJournal\d*=class\{/);
  assert.ok(at >= 0, 'the bundle has the Journal class');
  const open = bundle.indexOf('{', at);
  const classText = bundle.slice(open, closingBrace(bundle, open) + 1);
  const names = ['checkpoint', 'commit', 'cleanJournal', 'putAccount', 'cleanup', 'touchAddress', 'touchAccount', 'addWarmedAddress', 'addWarmedStorage', 'isWarmedStorage'];
  const proto: Record<string, () => void> = {};
  for (const name of names) {
    const text = methodText(classText, name);
    assert.ok(text, `the bundle's Journal has ${name}`);
    const f = function () {};
    f.toString = () => text!;
    proto[name] = f;
  }
  assert.equal(journalMatchesCopied(proto), true, Object.entries(proto).map(([k, f]) => `${k}: ${String(f).slice(0, 200)}`).join('\n'));
  // (And the check can fail: a method the copy does not know is refused.)
  const other = function () {};
  other.toString = () => 'async commit(){await this.stateManager.commit()}';
  assert.equal(journalMatchesCopied({ ...proto, commit: other }), false);
});
