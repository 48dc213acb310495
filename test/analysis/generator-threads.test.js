// The advice never suggests more --generator-threads than the option takes (one
// per CPU of the budget): run's doubt, the bottleneck finder (tune), diagnose's
// finding, and the example in the option's own error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { findBottleneck, moreGeneratorThreads } from '../../src/analysis/bottleneck.js';
import { generatorLimited } from '../../src/analysis/verdict-generator.js';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';
import { wordBottleneck } from '../../src/report/tune-words.js';
import { wordFinding } from '../../src/report/diagnose-words.js';
import { parseGeneratorThreads } from '../../src/plan/option-declarations.js';
import { syntheticRun, evenWorkers } from './synthetic-runs.js';
import { CALM } from './sweeps.js';

const budget = (n) => ({ budget: n, source: 'host', hostThreads: n, physicalCores: n, capacity: n, cpus: [...Array(Math.ceil(n)).keys()], limits: {}, smt: null, unreadable: null });

test('the cap: twice the threads, at most one per CPU of the budget, none when already there', () => {
  assert.equal(moreGeneratorThreads(1, 2, 2), 2);
  assert.equal(moreGeneratorThreads(2, 4, 2), null);
  assert.equal(moreGeneratorThreads(1, 2, 1), null);
  assert.equal(moreGeneratorThreads(1, 2, 1.5), 2, 'a fractional budget rounds up, as the option does');
  assert.equal(moreGeneratorThreads(2, 4, 16), 4);
});

test("run's generator-bound doubt on 2 CPUs with 2 threads: no '--generator-threads 4'", () => {
  const run = syntheticRun({ poolSize: 2, rps: 700, threads: 2, generator: { cpuPct: 195, elu: 0.99 }, workers: evenWorkers(2, { rps: 700 }) });
  run.machine.cpu = budget(2);
  const advice = adviseRun(adviceInput(run));
  const doubt = advice.reasons.find((r) => r.id === 'generator-bound');
  assert.ok(doubt, advice.reasons.map((r) => r.id).join(', '));
  const words = adviceParagraphs(advice, run.plan.target).join('\n');
  assert.doesNotMatch(words, /--generator-threads [3-9]/);
  assert.match(words, /with a thread per CPU spawnbench may use \(2\): drive the server from another machine, or with wrk/);
  // One thread on 2 CPUs: 2 is suggested.
  const one = syntheticRun({ poolSize: 2, rps: 700, threads: 1, generator: { cpuPct: 99, elu: 0.99 }, workers: evenWorkers(2, { rps: 700 }) });
  one.machine.cpu = budget(2);
  assert.match(adviceParagraphs(adviseRun(adviceInput(one)), one.plan.target).join('\n'), /add --generator-threads 2 and measure again/);
});

test("tune's bottleneck sentence and diagnose's finding respect the cap", () => {
  const found = findBottleneck({ ...CALM, generatorElu: 0.99, generatorCpuPct: 198, generatorThreads: 2, cores: 2 });
  const generator = found.findings.find((f) => f.kind === 'generator');
  assert.equal(generator.figures.suggestedThreads, null);
  assert.match(wordBottleneck(found).text, /it already has a thread per CPU spawnbench may use \(2\)/);
  assert.doesNotMatch(wordBottleneck(found).text, /--generator-threads 4/);

  const finding = generatorLimited({ generator: { elu: 0.99, cpuPct: 99, threads: 1 }, cores: 1, load: { measuredMs: 10_000 } });
  assert.equal(finding.figures.suggestedThreads, null);
  assert.doesNotMatch(wordFinding(finding).next.join('\n'), /--generator-threads 2/);
  const room = generatorLimited({ generator: { elu: 0.99, cpuPct: 99, threads: 1 }, cores: 2, load: { measuredMs: 10_000 } });
  assert.match(wordFinding(room).next.join('\n'), /--generator-threads 2 /);
});

test("--generator-threads 1.5 on 2 CPUs: the example is one the option takes", () => {
  assert.throws(() => parseGeneratorThreads('1.5', budget(2)), (error) => {
    assert.match(error.message, /use e\.g\. --generator-threads 2$/);
    return true;
  });
  assert.throws(() => parseGeneratorThreads('3', budget(2)), /give at most 2/);
  assert.equal(parseGeneratorThreads('2', budget(2)), 2);
});
