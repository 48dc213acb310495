/**
 * The HTML document around the report's sections: one file, styles inline, no
 * script, font, image or anything else fetched; print styles for paper (one
 * chart a row); laid out for 1280 px (two charts a row) and narrower screens (one).
 */
import { esc } from './svg.js';

/**
 * Colours in a fixed order (Okabe–Ito, readable by colour-blind readers and in
 * grey print), so the n-th process has the same colour in every chart.
 */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442', '#7F7F7F', '#882255'];

/**
 * The colour of the i-th series.
 * @param {number} i
 */
export function colorAt(i) {
  return PALETTE[i % PALETTE.length];
}

const CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1b1b1b; background: #fff; margin: 0; }
main { max-width: 1240px; margin: 0 auto; padding: 20px 24px 40px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
p.meta { color: #555; margin: 2px 0; }
.tiles { display: flex; flex-wrap: wrap; gap: 10px; margin: 14px 0 4px; }
.tile { border: 1px solid #ddd; border-radius: 6px; padding: 8px 14px; min-width: 130px; }
.tile .v { font-size: 20px; font-weight: 600; }
.tile .k { color: #555; font-size: 12px; }
.tile.bad { border-color: #c62828; }
.tile.bad .v { color: #c62828; }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 14px 22px; }
figure { margin: 0; break-inside: avoid; }
svg.chart { width: 100%; height: auto; display: block; font-size: 11px; }
svg .title { font-size: 13px; font-weight: 600; fill: #1b1b1b; }
svg .tick { fill: #444; }
svg .label { fill: #333; font-size: 11.5px; }
svg .value { fill: #222; }
svg .grid { stroke: #e6e6e6; }
svg .axis { stroke: #888; }
svg .line { fill: none; stroke-width: 1.8; stroke-linejoin: round; }
svg .band { fill-opacity: 0.16; stroke: none; }
svg .whisker { stroke: #222; stroke-width: 1.3; fill: none; }
svg .marker { fill: none; stroke-width: 2; }
svg .marker-label { font-weight: 600; fill: #111; paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }
ul.legend { list-style: none; padding: 0; margin: 2px 0 0 58px; display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: 12px; }
.swatch { display: inline-block; width: 14px; height: 4px; margin-right: 5px; vertical-align: middle; }
table { border-collapse: collapse; margin: 6px 0; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 10px; border-bottom: 1px solid #e4e4e4; text-align: right; white-space: nowrap; }
td.text { white-space: normal; }
th { background: #f5f5f5; font-weight: 600; }
th:first-child, td:first-child, th.text, td.text { text-align: left; }
.pass { color: #1b5e20; font-weight: 600; }
.fail { color: #c62828; font-weight: 600; }
.alarm { border: 2px solid #c62828; background: #fdecea; color: #8e1c1c; font-weight: 600; font-size: 16px; padding: 8px 14px; margin: 14px 0 4px; }
.verdict { border-left: 4px solid #D55E00; padding: 6px 12px; background: #fbf6f2; }
.verdict.ok { border-color: #009E73; background: #f2faf6; }
pre { background: #f7f7f7; padding: 10px; font-size: 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
footer { color: #777; font-size: 12px; margin-top: 30px; }
@media print {
  @page { margin: 14mm; }
  body { font-size: 11px; }
  main { max-width: none; padding: 0; }
  /* One chart a row on paper: two side by side shrink the axis text to ~5 pt. */
  .grid2 { grid-template-columns: 1fr; }
  svg.chart { max-width: 150mm; }
  h2 { break-after: avoid; }
  table, pre { break-inside: avoid; }
  pre { white-space: pre-wrap; }
}
`;

/**
 * The whole document.
 * @param {{ title: string, subtitle?: string[], body: string, footer?: string }} page `footer`: a line under the body
 */
export function document({ title, subtitle = [], body, footer }) {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title>`,
    `<style>${CSS}</style>`,
    '</head><body><main>',
    `<h1>${esc(title)}</h1>`,
    ...subtitle.map((s) => `<p class="meta">${esc(s)}</p>`),
    body,
    footer ? `<footer>${esc(footer)}</footer>` : '',
    '</main></body></html>',
    '',
  ].join('\n');
}

/**
 * An HTML table; cells are text (escaped) or { html } for markup made here.
 * @param {string[]} header
 * @param {Array<Array<string|number|null|undefined|{ html: string }>>} rows
 * @param {{ textColumns?: number[] }} [options] the columns of text (left-aligned, wrapped)
 */
export function table(header, rows, { textColumns = [] } = {}) {
  /**
   * @param {string|number|null|undefined|{ html: string }} c
   * @param {number} i
   * @param {'th'|'td'} tag
   */
  const cell = (c, i, tag) => {
    const cls = textColumns.includes(i) ? ' class="text"' : '';
    return `<${tag}${cls}>${c && typeof c === 'object' ? c.html : esc(c ?? '–')}</${tag}>`;
  };
  return `<table><thead><tr>${header.map((h, i) => cell(h, i, 'th')).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c, i) => cell(c, i, 'td')).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/**
 * A row of headline figures.
 * @param {Array<{ label: string|null, value: string, bad?: boolean }>} items
 */
export function tiles(items) {
  return `<div class="tiles">${items.map((t) => `<div class="tile${t.bad ? ' bad' : ''}"><div class="v">${esc(t.value)}</div><div class="k">${esc(t.label)}</div></div>`).join('')}</div>`;
}

/**
 * A line no reader can miss (most requests failed), or '' without one.
 * @param {string|null|undefined} text
 */
export function alarm(text) {
  return text ? `<p class="alarm" role="alert">${esc(text)}</p>` : '';
}

/**
 * A section with a heading.
 * @param {string} heading
 * @param {string} html
 */
export function section(heading, html) {
  return html ? `<section><h2>${esc(heading)}</h2>${html}</section>` : '';
}

/**
 * Charts side by side (two a row at 1280 px, one on a narrow screen).
 * @param {Array<string|null|undefined>} charts
 */
export function grid(charts) {
  const list = charts.filter(Boolean);
  return list.length ? `<div class="grid2">${list.join('')}</div>` : '';
}

/**
 * The plain-text summary, as the terminal showed it (for copying into an issue).
 * Not folded in a <details>: a closed one prints nothing.
 * @param {string} label
 * @param {string} text
 */
export function textBlock(label, text) {
  return `<p class="meta">${esc(label)}:</p><pre>${esc(text)}</pre>`;
}
