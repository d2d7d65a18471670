// Turns the collected samples into the Markdown tables: median (min–max) per node, and Powder's
// figure against each peer's as "advantage" (> 1 means Powder is better, whatever the unit).
import { summarize } from './stats.js';

const PEERS = ['anvil', 'hardhat', 'ganache'];

export function fmt(x) {
  if (!Number.isFinite(x)) return '–';
  const a = Math.abs(x);
  if (a >= 100) return Math.round(x).toLocaleString('en-US');
  if (a >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

const esc = (s) => String(s).replace(/\|/g, '\\|').replace(/\s+/g, ' ');

/** Summary of one row for one node: clean samples only; errors reported beside. */
export function summarizeCell(samples = []) {
  const errors = samples.filter((s) => s.error);
  const values = samples.filter((s) => !s.error).map((s) => s.value);
  return { ...summarize(values), runs: samples.length, errors: errors.length, firstError: errors[0]?.error, stalled: errors.some((e) => e.stalled) };
}

function cellText(c, unavailable) {
  if (unavailable) return 'n/a';
  if (!c || c.runs === 0) return '–';
  if (c.errors) {
    const others = c.n ? `; the other ${c.n}: ${c.n > 1 ? `${fmt(c.median)} (${fmt(c.min)}–${fmt(c.max)})` : fmt(c.median)}` : '';
    return `**${c.stalled ? 'stalled' : 'error'}** in ${c.errors}/${c.runs} (${esc(c.firstError).slice(0, c.stalled ? 420 : 180)})${others}`;
  }
  return c.n > 1 ? `${fmt(c.median)} (${fmt(c.min)}–${fmt(c.max)})` : fmt(c.median);
}

/** Powder's advantage over a peer: rate ratio P/peer, or time/memory ratio peer/P. */
export function advantage(row, powder, peer) {
  if (!powder || !peer || powder.errors || peer.errors || !powder.n || !peer.n) return NaN;
  return row.better === 'higher' ? powder.median / peer.median : peer.median / powder.median;
}

export function comparisonTable(rows, nodes, unavailable) {
  const shown = ['anvil', 'hardhat', 'ganache', 'powder'].filter((n) => nodes.includes(n) || unavailable[n]);
  const label = { anvil: 'Anvil', hardhat: 'Hardhat', ganache: 'Ganache', powder: 'Powder' };
  const peers = PEERS.filter((p) => shown.includes(p));
  const head = ['Workload', 'Unit', ...shown.map((n) => label[n]), ...peers.map((p) => `Powder vs ${label[p]}`)];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const row of rows) {
    const cells = Object.fromEntries(shown.map((n) => [n, summarizeCell(row.samples[n])]));
    const ratios = peers.map((p) => {
      const a = advantage(row, cells.powder, cells[p]);
      return Number.isFinite(a) ? `${a.toFixed(2)}×` : '–';
    });
    lines.push(`| ${[esc(row.label), `${row.unit} (${row.better} is better)`, ...shown.map((n) => cellText(cells[n], unavailable[n])), ...ratios].join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Powder's own rows; a row's reference is another of them or one of `others` (the comparison's). */
export function powderOnlyTable(rows, others = []) {
  const lines = ['| Request | Unit | Powder | vs reference |', '|---|---|---|---|'];
  for (const row of rows) {
    const c = summarizeCell(row.samples.powder);
    let rel = '–';
    if (row.reference) {
      const ref = summarizeCell([...rows, ...others].find((r) => r.id === row.reference)?.samples.powder);
      if (!c.errors && !ref.errors && c.n && ref.n) {
        rel = `${(row.better === 'higher' ? c.median / ref.median : ref.median / c.median).toFixed(2)}× of ${esc(row.referenceLabel)}`;
      }
    }
    lines.push(`| ${esc(row.label)} | ${row.unit} (${row.better} is better) | ${cellText(c, false)} | ${rel} |`);
  }
  return lines.join('\n');
}
