/**
 * Inline SVG charts for the HTML report: small pure functions, figures in and
 * markup out, no script and nothing fetched, so the page draws offline, in any
 * browser and on paper. Every chart has a title, labelled axes with units and a
 * legend; colours are passed in, so one process keeps its colour across charts.
 */
import { isFiniteNumber } from '../text-format.js';

const W = 560;
const H = 230;
const M = { left: 58, right: 14, top: 30, bottom: 42 };

/** @type {Record<string, string>} */
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for HTML and SVG content and attribute values.
 * @param {unknown} text
 */
export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/**
 * The lowest and highest of `values` (not empty), by a loop: Math.min(...values) passes each as
 * an argument, and a long run's series (a day of seconds, hours of 250 ms samples of several
 * processes) overflowed the stack, so its --html report was lost.
 * @param {number[]} values
 * @returns {[number, number]}
 */
export function extent(values) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/**
 * Round numbers for axis ticks: about `count` steps of 1, 2 or 5 × 10^k from min to max.
 * @param {number} min
 * @param {number} max
 * @returns {number[]} never empty
 */
export function niceTicks(min, max, count = 5) {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (max <= min) max = min + (min === 0 ? 1 : Math.abs(min));
  // A step a little under the even split is allowed: 0–812 in 4 gets 200s, not 500s.
  const raw = ((max - min) / count) * 0.75;
  const power = 10 ** Math.floor(Math.log10(raw));
  // 10 × power is above raw (power is raw's power of ten), so a step is always found.
  const step = /** @type {number} */ ([1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw));
  const ticks = [];
  for (let v = Math.floor(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  // The loop starts at or below min (≤ max), so it pushed at least one tick.
  const last = /** @type {number} */ (ticks.at(-1));
  if (last < max) ticks.push(Number((last + step).toPrecision(12)));
  return ticks;
}

/**
 * A tick label: 0.25, 12, 1.5k, 2M.
 * @param {number} v
 */
export function tickLabel(v) {
  const a = Math.abs(v);
  if (a >= 1e6) return `${+(v / 1e6).toPrecision(3)}M`;
  if (a >= 1e4) return `${+(v / 1e3).toPrecision(3)}k`;
  return `${+v.toPrecision(3)}`;
}

/** @param {number} v */
const n = (v) => (Math.round(v * 10) / 10).toString();

/**
 * The axes, grid, ticks and titles of a chart.
 * @param {{ title: string, xLabel: string, yLabel: string, xTicks: number[], yTicks: number[], x: (v: number) => number,
 *   y: (v: number) => number, xTickText?: (v: number) => string, width?: number, height?: number }} spec
 * @returns {string[]}
 */
function frame({ title, xLabel, yLabel, xTicks, yTicks, x, y, xTickText = tickLabel, width = W, height = H }) {
  const parts = [`<text class="title" x="${M.left}" y="18">${esc(title)}</text>`];
  for (const t of yTicks) {
    parts.push(`<line class="grid" x1="${M.left}" x2="${width - M.right}" y1="${n(y(t))}" y2="${n(y(t))}"/>`);
    parts.push(`<text class="tick" x="${M.left - 6}" y="${n(y(t) + 4)}" text-anchor="end">${esc(tickLabel(t))}</text>`);
  }
  for (const t of xTicks) {
    parts.push(`<line class="axis" x1="${n(x(t))}" x2="${n(x(t))}" y1="${height - M.bottom}" y2="${height - M.bottom + 4}"/>`);
    parts.push(`<text class="tick" x="${n(x(t))}" y="${height - M.bottom + 16}" text-anchor="middle">${esc(xTickText(t))}</text>`);
  }
  parts.push(`<line class="axis" x1="${M.left}" x2="${width - M.right}" y1="${height - M.bottom}" y2="${height - M.bottom}"/>`);
  parts.push(`<line class="axis" x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${height - M.bottom}"/>`);
  parts.push(`<text class="label" x="${(M.left + width - M.right) / 2}" y="${height - 6}" text-anchor="middle">${esc(xLabel)}</text>`);
  parts.push(`<text class="label" transform="translate(14 ${(M.top + height - M.bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`);
  return parts;
}

/**
 * @param {string[]} parts
 * @param {string} title
 */
function svg(parts, title, width = W, height = H) {
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>${parts.join('')}</svg>`;
}

/**
 * The legend under a chart: a swatch and a name per series.
 * @param {Array<{ color: string, name: string }>} items
 */
export function legend(items) {
  if (items.length === 0) return '';
  return `<ul class="legend">${items.map((i) => `<li><span class="swatch" style="background:${esc(i.color)}"></span>${esc(i.name)}</li>`).join('')}</ul>`;
}

/**
 * A line chart with axes, units, title and legend.
 * @param {object} spec
 * @param {string} spec.title
 * @param {string} spec.xLabel  axis title with its unit, e.g. 'time (s)'
 * @param {string} spec.yLabel
 * @param {{ name: string, color: string, points: [number, number|null][], dashed?: boolean }[]} spec.series null y: a gap
 * @param {{ color: string, points: [number, number, number][] }[]} [spec.bands] x, low, high: a shaded spread
 * @param {{ x: number, y: number, label: string, color?: string }[]} [spec.markers]
 * @param {number} [spec.yMin] default 0
 * @param {number} [spec.yMax] default the data's max
 * @param {number[]} [spec.xTicks] explicit tick positions
 * @param {(x: number) => string} [spec.xTickText]
 * @returns {string} a <figure> with the SVG and its legend
 */
export function lineChart({ title, xLabel, yLabel, series, bands = [], markers = [], yMin = 0, yMax, xTicks, xTickText }) {
  const xs = [...series.flatMap((s) => s.points.map((p) => p[0])), ...bands.flatMap((b) => b.points.map((p) => p[0]))];
  const ys = [
    ...series.flatMap((s) => s.points.map((p) => p[1])),
    ...bands.flatMap((b) => b.points.map((p) => p[2])),
    ...markers.map((m) => m.y),
  ].filter(isFiniteNumber);
  if (xs.length === 0 || ys.length === 0) return emptyChart(title);
  const [x0, x1] = extent(xs);
  const ticksX = xTicks ?? niceTicks(x0, x1, 6).filter((t) => t >= x0 - 1e-9 && t <= x1 + 1e-9);
  const ticksY = niceTicks(yMin, yMax ?? extent(ys)[1], 4);
  const lo = ticksY[0];
  const hi = /** @type {number} */ (ticksY.at(-1)); // niceTicks() is never empty
  /** @param {number} v */
  const x = (v) => M.left + ((v - x0) / (x1 - x0 || 1)) * (W - M.left - M.right);
  /** @param {number} v */
  const y = (v) => H - M.bottom - ((Math.min(v, hi) - lo) / (hi - lo || 1)) * (H - M.top - M.bottom);
  const parts = frame({ title, xLabel, yLabel, xTicks: ticksX, yTicks: ticksY, x, y, xTickText });
  for (const b of bands) {
    const top = b.points.map((p) => `${n(x(p[0]))},${n(y(p[2]))}`);
    const bottom = b.points.slice().reverse().map((p) => `${n(x(p[0]))},${n(y(p[1]))}`);
    parts.push(`<polygon class="band" fill="${esc(b.color)}" points="${[...top, ...bottom].join(' ')}"/>`);
  }
  for (const s of series) {
    // A null y breaks the line (a process that did not report that second).
    /** @type {string[][]} */
    const runs = [[]];
    for (const [px, py] of s.points) {
      if (isFiniteNumber(py)) runs[runs.length - 1].push(`${n(x(px))},${n(y(py))}`);
      else if (runs[runs.length - 1].length) runs.push([]);
    }
    for (const run of runs.filter((r) => r.length)) {
      const dash = s.dashed ? ' stroke-dasharray="5 4"' : '';
      parts.push(run.length === 1
        ? `<circle cx="${run[0].split(',')[0]}" cy="${run[0].split(',')[1]}" r="2.5" fill="${esc(s.color)}"/>`
        : `<polyline class="line" stroke="${esc(s.color)}"${dash} points="${run.join(' ')}"/>`);
    }
  }
  for (const m of markers) {
    // The label goes on the side with room: left of a point in the right half of the plot.
    const right = x(m.x) > (M.left + W - M.right) / 2;
    const labelX = right ? x(m.x) - 8 : x(m.x) + 8;
    const labelY = y(m.y) < M.top + 14 ? y(m.y) + 18 : y(m.y) - 8;
    parts.push(`<circle class="marker" cx="${n(x(m.x))}" cy="${n(y(m.y))}" r="5" stroke="${esc(m.color ?? '#111')}"/>`);
    parts.push(`<text class="marker-label" x="${n(labelX)}" y="${n(labelY)}" text-anchor="${right ? 'end' : 'start'}">${esc(m.label)}</text>`);
  }
  return `<figure>${svg(parts, title)}${legend(series.filter((s) => s.name))}</figure>`;
}

/**
 * Horizontal bars with a min–max whisker each, a value and a note (e.g. the ratio) at the end.
 * @param {object} spec
 * @param {string} spec.title
 * @param {string} spec.xLabel axis title with its unit
 * @param {{ label: string, value: number|null, min?: number|null, max?: number|null, color: string, note?: string }[]} spec.bars
 * @param {(v: number) => string} [spec.format] the value printed after each bar
 */
export function barChart({ title, xLabel, bars, format = tickLabel }) {
  const values = bars.flatMap((b) => [b.value, b.max]).filter(isFiniteNumber);
  if (values.length === 0) return emptyChart(title);
  const row = 26;
  const labelWidth = Math.min(180, 12 + 7 * Math.max(...bars.map((b) => b.label.length)));
  const left = Math.max(M.left, labelWidth);
  const right = 150;
  const height = M.top + bars.length * row + M.bottom;
  const ticks = niceTicks(0, Math.max(...values), 5);
  const top = /** @type {number} */ (ticks.at(-1)); // niceTicks() is never empty
  /** @param {number} v */
  const x = (v) => left + (v / top) * (W - left - right);
  const parts = [`<text class="title" x="${M.left}" y="18">${esc(title)}</text>`];
  for (const t of ticks) {
    parts.push(`<line class="grid" x1="${n(x(t))}" x2="${n(x(t))}" y1="${M.top}" y2="${height - M.bottom}"/>`);
    parts.push(`<text class="tick" x="${n(x(t))}" y="${height - M.bottom + 16}" text-anchor="middle">${esc(tickLabel(t))}</text>`);
  }
  bars.forEach((b, i) => {
    const cy = M.top + i * row + row / 2;
    parts.push(`<text class="tick" x="${left - 6}" y="${n(cy + 4)}" text-anchor="end">${esc(b.label)}</text>`);
    if (isFiniteNumber(b.value)) parts.push(`<rect x="${left}" y="${n(cy - 8)}" width="${n(Math.max(1, x(b.value) - left))}" height="16" fill="${esc(b.color)}"/>`);
    if (isFiniteNumber(b.min) && isFiniteNumber(b.max) && b.max > b.min) {
      parts.push(`<path class="whisker" d="M${n(x(b.min))} ${n(cy)}H${n(x(b.max))}M${n(x(b.min))} ${n(cy - 5)}v10M${n(x(b.max))} ${n(cy - 5)}v10"/>`);
    }
    const text = `${isFiniteNumber(b.value) ? format(b.value) : '–'}${b.note ? ` · ${b.note}` : ''}`;
    parts.push(`<text class="value" x="${n(W - right + 8)}" y="${n(cy + 4)}">${esc(text)}</text>`);
  });
  parts.push(`<line class="axis" x1="${left}" x2="${W - right}" y1="${height - M.bottom}" y2="${height - M.bottom}"/>`);
  parts.push(`<line class="axis" x1="${left}" x2="${left}" y1="${M.top}" y2="${height - M.bottom}"/>`);
  parts.push(`<text class="label" x="${(left + W - right) / 2}" y="${height - 6}" text-anchor="middle">${esc(xLabel)}</text>`);
  return `<figure>${svg(parts, title, W, height)}</figure>`;
}

/**
 * The latency distribution as HdrHistogram plots it: latency against percentile,
 * the x axis in "nines" (0%, 90%, 99%, 99.9%, …) so the tail gets room.
 * @param {{ title: string, series: { name: string, color: string, points: { nines: number, ms: number }[] }[] }} spec
 */
export function percentileChart({ title, series }) {
  const maxNines = Math.max(0, ...series.flatMap((s) => s.points.map((p) => p.nines)));
  const xTicks = Array.from({ length: Math.floor(maxNines) + 1 }, (_, i) => i);
  return lineChart({
    title,
    xLabel: 'percentile (log scale of the tail)',
    yLabel: 'latency (ms)',
    series: series.map((s) => ({ name: s.name, color: s.color, points: s.points.map((p) => [p.nines, p.ms]) })),
    xTicks,
    xTickText: (nines) => `${+(100 * (1 - 10 ** -nines)).toPrecision(6)}%`,
  });
}

/** @param {string} title */
function emptyChart(title) {
  return `<figure class="empty"><p class="chart-title">${esc(title)}</p><p>no data</p></figure>`;
}
