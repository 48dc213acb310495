// The HTML report's structure for every kind of result: one self-contained
// document (no script, stylesheet, font or image from anywhere), the charts a
// reader expects with titles, axis labels and legends, the tables, the verdict.
// The fixtures are real results saved with --out (run, diagnose with --cpu-prof,
// compare with two repeats); the tune comes from the engine over a model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { withWords } from '../../src/report/words.js';
import { renderHtml } from '../../src/report/html/index.js';
import { lineChart, barChart, niceTicks, esc } from '../../src/report/html/svg.js';
import { createTune } from '../../src/tune/tune-engine.js';
import { fakeRuns, MACHINE } from '../tune/fake-run.js';

const fixture = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));

/** Every chart's title, from its aria-label. */
const chartTitles = (html) => [...html.matchAll(/<svg class="chart"[^>]*aria-label="([^"]*)"/g)].map((m) => m[1]);

/** Nothing the browser would fetch: no script, no external src/href/url(), no @import. */
function assertSelfContained(html) {
  assert.match(html, /^<!doctype html>\n<html lang="en"><head><meta charset="utf-8">/);
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /<link/i);
  assert.doesNotMatch(html, /<img/i);
  assert.doesNotMatch(html, /@import/i);
  for (const m of html.matchAll(/\b(?:src|href)\s*=\s*["']?([^"'\s>]*)/gi)) assert.fail(`a ${m[0]} in the document`);
  for (const m of html.matchAll(/url\(\s*["']?([^)"']*)/gi)) assert.doesNotMatch(m[1], /^(https?:)?\/\//, 'a url() to elsewhere');
  assert.match(html, /@media print/);
  assert.equal((html.match(/<style>/g) ?? []).length, 1);
}

/** Each chart has a title, two axis labels, and tick labels. */
function assertChartsLabelled(html) {
  for (const svg of html.match(/<svg class="chart".*?<\/svg>/gs)) {
    assert.match(svg, /<text class="title"[^>]*>[^<]+<\/text>/);
    assert.ok((svg.match(/<text class="label"/g) ?? []).length >= 1, 'an axis label');
    assert.match(svg, /<text class="tick"/);
  }
}

test('run: load over time, latency distribution, every process over time, the process table', () => {
  const result = fixture('run');
  const html = renderHtml(result);
  assertSelfContained(html);
  assertChartsLabelled(html);
  assert.deepEqual(chartTitles(html), [
    'Throughput per second',
    'Latency per second',
    'Latency distribution (HDR histogram)',
    'Event-loop delay p99 per process',
    'Event-loop utilisation per process',
    'Time blocked in spawn per process',
    'CPU per process (mean of each second)',
  ]);
  assert.match(html, /<title>spawnbench run · strategy fork-pool \(2 workers, round-robin\)<\/title>/);
  assert.match(html, /time into the measured window \(s\)/);
  assert.match(html, /requests per second/);
  assert.match(html, /latency \(ms\)/);
  assert.match(html, /<text class="tick"[^>]*>99%<\/text>/, 'the percentile axis reads in nines');
  // The same colour for the same process in all four per-process charts and the table.
  for (const name of ['main', 'worker 0', 'worker 1']) {
    const colours = [...html.matchAll(new RegExp(`<li><span class="swatch" style="background:(#[0-9A-F]{6})"></span>${name}</li>`, 'g'))].map((m) => m[1]);
    assert.equal(colours.length, 4, name);
    assert.equal(new Set(colours).size, 1, `${name} keeps its colour`);
    assert.match(html, new RegExp(`<td><span class="swatch" style="background:${colours[0]}"></span>${name}</td>`));
  }
  assert.match(html, /<th>blocked in spawn<\/th>/);
  assert.match(html, /<pre>spawnbench run · strategy fork-pool/);
  // A saved run without a recommendation gets the one its figures allow: this 2 s, 99-request run is too short to tell.
  assert.match(html, /<h2>Recommendation<\/h2><div class="verdict ok"><p>Cannot tell from this run: it was too short\.<\/p>/);
});

test('run: a recommendation, assertions and a baseline comparison are shown when the result has them', () => {
  const result = {
    ...fixture('run'),
    recommendation: { strategy: null, size: 3, policy: 'p2c', basis: 'one-run', reasons: [{ id: 'workers-saturated', figures: { elu: 0.97 } }] },
    assertions: [{ id: 'assert-fail', expr: 'p99<1ms', metric: 'p99', op: '<', limit: 1, unit: 'ms', measured: 12.5, where: null, process: null, pass: false }],
    against: { file: 'old.json', deltas: [{ metric: 'rps', unit: 'rps', before: 100, after: 150, changePct: 50, significant: true, better: true, noise: { marginRps: 5 } }], summary: { changes: 1, better: 1, worse: 0 } },
  };
  const html = renderHtml(result, { baseline: fixture('run') });
  assertSelfContained(html);
  assert.match(html, /<h2>Recommendation<\/h2>/);
  assert.match(html, /Use 3 workers with p2c \(this run: 2 workers, round-robin\)\./, 'the summary\'s Recommendation block, in words');
  assert.match(html, /<h2>Assertions<\/h2>.*p99&lt;1ms.*<span class="fail">FAIL<\/span>.*12\.5 ms/s);
  assert.match(html, /<h2>Against the baseline<\/h2><p>old\.json: 1 change beyond the noise: 1 better, 0 worse<\/p>.*\+50%.*<span class="pass">better<\/span>/s);
  assert.match(html, /<li><span class="swatch"[^>]*><\/span>baseline \(\d+ requests\)<\/li>/, 'the baseline\'s distribution beside this one');
});

test('the recommendation\'s words come from the summary when it has a Recommendation block', async () => {
  const { recommendationSection } = await import('../../src/report/html/recommendation.js');
  const text = 'Errors none\n\nRecommendation\n  Move to fork-pool with 3 workers: expected ~1,500\n  req/s.\n  - the main loop is saturated (ELU\n    0.99)\n  Confirm with a sweep:\n    spawnbench tune\n\nnote: x';
  const html = recommendationSection({}, text);
  assert.equal(html, '<section><h2>Recommendation</h2><div class="verdict ok"><p>Move to fork-pool with 3 workers: expected ~1,500 req/s.</p><p>- the main loop is saturated (ELU 0.99)</p><p>Confirm with a sweep:</p><p>spawnbench tune</p></div></section>');
});

test('diagnose: the verdict with evidence and next steps first, figures over time, the CPU profile\'s top functions', () => {
  const result = fixture('diagnose');
  const html = renderHtml(result);
  assertSelfContained(html);
  assertChartsLabelled(html);
  const verdict = result.diagnosis.verdict;
  assert.ok(html.indexOf('<h2>Verdict</h2>') < html.indexOf('<h2>Load</h2>'));
  assert.ok(html.includes(`<h3>${esc(verdict.title)}`));
  for (const line of [...verdict.evidence, ...verdict.next]) assert.ok(html.includes(`<li>${esc(line)}</li>`), line);
  assert.ok(chartTitles(html).includes('Throughput per second'));
  assert.ok(chartTitles(html).includes('Event-loop delay p99 per process'));
  assert.match(html, /<h2>CPU profile: top functions by self time<\/h2>/);
  assert.ok(html.includes(`<td class="text">${esc(result.cpuProfile.top.functions[0].name)}</td>`));
});

test('compare: per workload, throughput and p99 bars with min–max whiskers and the ratio to the first', () => {
  const result = fixture('compare');
  const html = renderHtml(result);
  assertSelfContained(html);
  assertChartsLabelled(html);
  assert.deepEqual(chartTitles(html), ['Throughput, workload echo', 'Latency p99, workload echo']);
  assert.equal((html.match(/<path class="whisker"/g) ?? []).length >= 2, true, 'two repeats give whiskers');
  assert.match(html, /1\.00× baseline/);
  assert.match(html, /<th>vs baseline<\/th>/);
});

test('tune: rps and p99 against pool size per policy, spread bands, the USL fit and the recommended point', async () => {
  const rps = { 1: 600, 2: 1150, 3: 1500, 4: 1560, 6: 1540, 8: 1200 };
  const model = (size, policy, call) => ({ rps: rps[size] * (policy === 'p2c' ? 1.01 : 1) * (call % 2 ? 1.02 : 0.98) });
  const base = {
    command: 'tune',
    target: { kind: 'strategy', strategy: 'fork-pool', pool: true, poolSize: 2, balance: 'round-robin', runtime: { name: 'node' }, workerRuntime: { name: 'node' } },
    workload: { name: 'echo', command: 'echo', args: ['hi'] },
    load: { connections: 30, durationMs: 3000, warmupMs: 1000, threads: 1 },
    probe: { enabled: true, intervalMs: 250 },
    output: { json: false, dashboard: false, out: null },
  };
  const plan = { command: 'tune', base, sizes: [1, 2, 3, 4, 6, 8], policies: ['round-robin', 'p2c'], repeat: 2, search: 'exhaustive', output: base.output };
  const result = await createTune(plan, { createRun: fakeRuns(model).createRun, readMachine: async () => MACHINE }).start();
  const html = renderHtml(result);
  assertSelfContained(html);
  assertChartsLabelled(html);
  assert.deepEqual(chartTitles(html), ['Throughput against pool size', 'Latency p99 against pool size']);
  assert.equal((html.match(/<polygon class="band"/g) ?? []).length, 4, 'a band per policy per chart');
  assert.match(html, /<li><span class="swatch"[^>]*><\/span>USL fit \(round-robin\)<\/li>/);
  assert.match(html, /stroke-dasharray/);
  assert.match(html, new RegExp(`recommended: ${result.recommendation.size} × ${result.recommendation.policy}`));
  assert.match(html, /pool size \(workers\)/);
  const { sentences } = withWords(result).recommendation;
  assert.ok(sentences.length > 0);
  for (const s of sentences) assert.ok(html.includes(`<p>${esc(s)}</p>`));
});

test('chart helpers: round ticks, escaped text, a gap for a missing value, an empty chart says so', () => {
  assert.deepEqual(niceTicks(0, 9.3, 4), [0, 2, 4, 6, 8, 10]);
  assert.deepEqual(niceTicks(0, 812, 4), [0, 200, 400, 600, 800, 1000]);
  assert.deepEqual(niceTicks(0, 0.93, 5), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  const chart = lineChart({ title: 'a <b>', xLabel: 'x (s)', yLabel: 'y (ms)', series: [{ name: 'p&q', color: '#000', points: [[0, 1], [1, 2], [2, null], [3, 4], [4, 5]] }] });
  assert.match(chart, /aria-label="a &lt;b&gt;"/);
  assert.match(chart, /p&amp;q/);
  assert.equal((chart.match(/<polyline/g) ?? []).length, 2, 'the null splits the line');
  assert.match(lineChart({ title: 'nothing', xLabel: 'x', yLabel: 'y', series: [] }), /<p class="chart-title">nothing<\/p><p>no data<\/p>/);
  const bars = barChart({ title: 't', xLabel: 'req/s', bars: [{ label: 'a', value: 10, min: 8, max: 12, color: '#111', note: '1.00×' }] });
  assert.match(bars, /<path class="whisker"/);
  assert.match(bars, /10 · 1\.00×/);
});

test('CPU is drawn as the mean of each second: /proc\'s 10 ms ticks make 250 ms samples jump in 4% steps', async () => {
  const { perSecondMeans } = await import('../../src/report/html/parts.js');
  assert.deepEqual(perSecondMeans([[0, 4], [0.25, 8], [0.5, 0], [0.75, 4], [1, 8], [1.25, null], [1.5, 8]]), [[0.5, 4], [1.5, 8]]);
});

test('the process table has a requests column where workers counted requests, and none where nothing did (a user\'s server)', () => {
  const result = fixture('run');
  const withCounts = renderHtml(result);
  const counted = result.samples.processes.some((p) => Number.isFinite(p.requests)) || (result.strategy?.workers ?? []).some((w) => Number.isFinite(w.completed));
  assert.equal(/<th>requests<\/th>/.test(withCounts), counted, 'the fixture\'s workers counted theirs');
  const none = structuredClone(result);
  for (const p of none.samples.processes) p.requests = null;
  if (none.strategy) none.strategy.workers = [];
  const html = renderHtml(none);
  assert.doesNotMatch(html, /<th>requests<\/th>/, 'no column of dashes');
  assert.match(html, /<th>process<\/th><th>pid<\/th><th>ELU<\/th>/);
});

test('a long run (a day of seconds, hours of 250 ms samples of four processes) still gets its report: the charts\' ranges overflowed the stack', () => {
  const result = fixture('run');
  const day = 86_400;
  result.load.durationMs = day * 1000;
  result.load.series = Array.from({ length: day }, (_, i) => ({ second: i + 1, requests: 100, errors: 0, p50Ms: 1, p90Ms: 2, p99Ms: 3 + (i % 7), maxMs: 9 }));
  const [first] = result.samples.processes;
  result.samples.processes = [0, 1, 2, 3].map((k) => ({
    ...first,
    key: `p${k}`,
    label: `node ${k}`,
    series: Array.from({ length: 40_000 }, (_, i) => ({ ...first.series[i % first.series.length], t: first.series[0].t + i * 250 })),
  }));
  const html = renderHtml(withWords(result));
  assertSelfContained(html);
  assert.ok(chartTitles(html).some((t) => /Event-loop utilisation per process/.test(t)), chartTitles(html).join(' | '));
});
