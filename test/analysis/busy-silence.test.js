// A server whose event loop a `for (;;)` held for the last 2 s of a 3 s run: its probe went silent
// (ELU 0.07, loop p99 4 ms over the run) while /proc saw it at 100% of a core. Run and diagnose said
// "find what held it: a stopped process, a lock, a downstream that never answers".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { busySilence, busyFromStart, withSpinning } from '../../src/analysis/busy-silence.js';
import { noResponseReason } from '../../src/load/host-check.js';
import { probeWhileSpinning } from '../../src/sample/index.js';
import { serverStoppedAnswering } from '../../src/analysis/verdict-exited.js';
import { wordFinding } from '../../src/report/diagnose-words.js';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';

const probe = { elu: 0.05, loopDelay: { p50Ms: 0.2, p99Ms: 0.7, maxMs: 0.7 } };
/** Samples every 250 ms: `reported` with a probe report at `cpu`%, then `silent` without one at `silentCpu`%. */
const series = (reported, silent, silentCpu, cpu = 4) => [
  ...Array.from({ length: reported }, (_, i) => ({ t: i * 250, cpuPct: cpu, probe })),
  ...Array.from({ length: silent }, (_, i) => ({ t: (reported + i) * 250, cpuPct: silentCpu, probe: null })),
];

test('a server process whose probe went silent at the end while it kept a CPU busy is found; an idle or probe-less one is not', () => {
  const spin = busySilence([{ pid: 7, label: 'main', series: series(6, 6, 100) }]);
  assert.deepEqual(spin, { pid: 7, label: 'main', silentMs: 1500, cpuPct: 100 });
  assert.equal(busySilence([{ pid: 7, series: series(6, 6, 3) }]), null, 'silent and idle: a stopped process, a lock, a downstream');
  assert.equal(busySilence([{ pid: 7, series: series(6, 1, 100) }]), null, 'one silent sample is a late report, not a held loop');
  assert.equal(busySilence([{ pid: 7, series: series(0, 12, 100) }]), null, 'no probe at all: nothing went silent');
  assert.equal(busySilence([{ pid: 7, series: series(12, 0, 100, 100) }]), null, 'reported to the end');
  assert.equal(withSpinning(null, [{ pid: 7, series: series(6, 6, 100) }]), null);
});

test('the stopped-answering finding and advice name the held loop and what to look for, not a lock or a downstream', () => {
  const stall = withSpinning({ count: 25, oldestMs: 2100 }, [{ pid: 7, label: 'main', series: series(6, 6, 100) }]);
  const finding = serverStoppedAnswering(/** @type {any} */ ({ stall, load: { maxMs: 6 } }));
  const words = wordFinding(/** @type {any} */ (finding));
  assert.match(words.evidence.join('\n'), /pid 7 kept a CPU 100% busy for the last 1\.5 s while its event loop reported nothing/);
  assert.match(words.next.join('\n'), /a loop that does not end, a synchronous call/);
  assert.doesNotMatch(words.next.join('\n'), /a lock/);
  const advice = /** @type {any} */ ({ kind: 'none', reasons: [{ id: 'stopped-answering', figures: stall }] });
  const text = adviceParagraphs(advice).join('\n');
  assert.match(text, /pid 7 kept a CPU 100% busy/);
  assert.doesNotMatch(text, /a lock, a stopped process/);
  const idle = /** @type {any} */ ({ kind: 'none', reasons: [{ id: 'stopped-answering', figures: { count: 25, oldestMs: 2100, spinning: null } }] });
  assert.match(adviceParagraphs(idle).join('\n'), /a lock, a stopped process/);
});

test('a server held by a loop from before its probe\'s first report, answering nothing: named as such, not "the measured phase was too short"', () => {
  // `listen(PORT, () => setTimeout(() => { for (;;); }, 50))` under run -w 0: "no response arrived within the measured 2s:
  // … the measured phase was too short for them; give a longer --duration", "no probe report received (was NODE_OPTIONS
  // replaced by the strategy?)", and "Cannot tell from this run: it was too short".
  const spin = busyFromStart([{ pid: 7, label: 'main', series: series(0, 8, 99) }]);
  assert.deepEqual(spin, { pid: 7, label: 'main', silentMs: 1750, cpuPct: 99, fromStart: true });
  assert.equal(busyFromStart([{ pid: 7, series: series(0, 8, 3) }]), null, 'idle: a server slower than the run');
  assert.equal(busyFromStart([{ pid: 7, series: series(2, 6, 99) }]), null, 'it reported: busySilence\'s case');
  const reason = noResponseReason({ errors: { total: 0 }, bytes: 0, spinning: spin }, { durationMs: 2000 });
  assert.match(reason.what, /^no response arrived within the measured 2s: pid 7 kept a CPU 99% busy all along, its event loop silent: JavaScript or a synchronous call held it$/);
  assert.match(reason.hint, /^find the loop that never ends or the synchronous call/);
  assert.match(noResponseReason({ errors: { total: 0 }, bytes: 0 }, { durationMs: 2000 }).hint, /give a longer --duration/);
  const generic = { available: false, reason: 'no probe report received (was NODE_OPTIONS replaced by the strategy?)' };
  assert.match(probeWhileSpinning(generic, spin)?.reason ?? '', /pid 7 kept a CPU 99% busy all along, so its event loop never ran the probe's report/);
  const advice = /** @type {any} */ ({ kind: 'none', reasons: [{ id: 'loop-held', figures: spin }] });
  const text = adviceParagraphs(advice).join('\n');
  assert.match(text, /No request was answered: pid 7 kept a CPU 99% busy all along/);
  assert.doesNotMatch(text, /too short/);
});
