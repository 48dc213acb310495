/**
 * The HTML report of a tune: throughput and p99 against pool size, one line per
 * policy with the repeats' min–max as a band, the USL fit as a dashed line, the
 * recommended point marked; the evidence table (a column per metric of the table
 * its cells have) and the recommendation's words.
 */
import { lineChart, esc } from './svg.js';
import { document, section, grid, table, textBlock, colorAt, alarm } from './page.js';
import { formatTune, formatUsl, formatNeighbours, cellWarnings, cellFigures, tuneColumns, shownSentences } from '../tune-text.js';
import { splitColumns } from '../metric-columns.js';
import { int, ms } from '../text-format.js';
import { uslThroughput } from '../../analysis/usl.js';
import { footer } from './run-html.js';
import { machineLine } from './parts.js';

/** @typedef {import('../tune-text.js').TuneCell} TuneCell */

/**
 * @param {import('../tune-text.js').TuneDoc} result TuneResult
 * @returns {string}
 */
export function renderTuneHtml(result) {
  const rec = result.recommendation ?? { cells: [], sentences: [], size: null };
  const text = formatTune(result);
  /** @type {TuneCell[]} */
  const allCells = rec.cells ?? [];
  const cells = allCells.filter((c) => !c.failed);
  const policies = [...new Set(cells.map((c) => c.policy))];
  const color = (/** @type {string|null} */ policy) => colorAt(policies.indexOf(policy));
  const line = (/** @type {'rps'|'p99Ms'} */ field) => policies.map((p) => ({
    name: /** @type {string} */ (p), // null for a server without a policy knob: the legend shows nothing
    color: color(p),
    points: cells.filter((c) => c.policy === p).sort((a, b) => a.size - b.size).map((c) => /** @type {[number, number|null]} */ ([c.size, c[field].median])),
  }));
  const bands = (/** @type {'rps'|'p99Ms'} */ field) => policies.map((p) => ({
    color: color(p),
    points: cells.filter((c) => c.policy === p && c[field].n > 1).sort((a, b) => a.size - b.size).map((c) => /** @type {[number, number, number]} */ ([c.size, c[field].min, c[field].max])),
  })).filter((b) => b.points.length > 1);
  const chosen = cells.find((c) => c.size === rec.size && c.policy === rec.policy);
  const marker = (/** @type {'rps'|'p99Ms'} */ field, /** @type {(v: number) => string} */ format) => (chosen ? [{ x: chosen.size, y: chosen[field].median, label: `recommended: ${chosen.size} × ${chosen.policy}, ${format(chosen[field].median)}` }] : []);
  const shownUsl = result.usl && result.usl.shown !== false ? result.usl : null;
  const usl = shownUsl ? uslLine(shownUsl, cells) : [];
  const sizes = [...new Set(cells.map((c) => c.size))].sort((a, b) => a - b);
  const xTicks = sizes.length <= 12 ? sizes : undefined;
  const charts = grid([
    lineChart({ title: 'Throughput against pool size', xLabel: 'pool size (workers)', yLabel: 'requests per second', series: [...line('rps'), ...usl], bands: bands('rps'), markers: marker('rps', (/** @type {number} */ v) => `${int(v)} req/s`), xTicks }),
    lineChart({ title: 'Latency p99 against pool size', xLabel: 'pool size (workers)', yLabel: 'latency p99 (ms)', series: line('p99Ms'), bands: bands('p99Ms'), markers: marker('p99Ms', ms), xTicks }),
  ]);
  const sentences = shownSentences(result);
  const words = sentences.length ? `<div class="verdict ok">${sentences.map((s) => `<p>${esc(s)}</p>`).join('')}</div>` : '';
  /** @type {Array<Record<string, any>>} */
  const steps = result.steps ?? [];
  const columns = splitColumns(tuneColumns(allCells, steps), { ranges: 'all' });
  /** @type {Array<Array<string|number>>} */
  const rows = allCells.map((c) => [
    // The policy is null without a policy knob: the cell shows '–'.
    c.size, /** @type {string} */ (c.policy), ...columns.map((column) => column.cell(c, cellFigures(c, steps))),
    [c.size === rec.size && c.policy === rec.policy ? 'recommended' : '', c.failed ? `failed: ${c.failed}` : ''].filter(Boolean).join(', '),
  ]);
  const [title] = text.split('\n');
  const body = [
    section(rec.size === null ? 'No recommendation' : 'Recommendation', words),
    section('Pool size sweep', `${charts}${shownUsl ? `<p>${esc(formatUsl(shownUsl))}; dashed: the fitted curve.</p>` : ''}<p>Lines: median of the repeats; bands: their min–max.</p>`),
    section('Downstreams and other CPU users', neighboursBlock(result, rec)),
    section('Every step', cellWarnings(result).map((w) => alarm(`${w}.`)).join('') + table(['pool', 'policy', ...columns.map((column) => column.header), ''], rows, { textColumns: [1, columns.length + 2] })),
    section('Summary as text', textBlock('the summary spawnbench printed', text)),
  ];
  return document({ title: title.replace(/ · .*/, ''), subtitle: [title.replace(/^[^·]*· /, ''), machineLine(result.machine)].filter(Boolean), body: body.join('\n'), footer: footer(result) });
}

/**
 * The fitted Universal Scalability Law curve across the measured sizes, dashed.
 * @param {{ lambda: number, sigma: number, kappa: number, policy: string }} usl the result's usl
 * @param {TuneCell[]} cells
 */
function uslLine(usl, cells) {
  const sizes = cells.map((c) => c.size);
  const lo = Math.min(...sizes);
  const hi = Math.max(...sizes);
  /** @type {Array<[number, number]>} */
  const points = [];
  for (let k = 0; k <= 40; k++) {
    const n = lo + ((hi - lo) * k) / 40;
    points.push([n, uslThroughput(usl, n)]);
  }
  return [{ name: `USL fit (${usl.policy})`, color: '#555', dashed: true, points }];
}

/**
 * The text lines of the downstream connections per size and the other CPU users, escaped.
 * @param {import('../tune-text.js').TuneDoc} result
 * @param {{ size: number|null, best?: { size: number }|null }} rec
 */
function neighboursBlock(result, rec) {
  const lines = formatNeighbours(result, rec);
  return lines.length ? `<pre>${esc(lines.join('\n'))}</pre>` : '';
}
