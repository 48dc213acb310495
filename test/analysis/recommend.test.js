import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recommend as recommendFigures } from '../../src/analysis/recommend.js';
import { findBottleneck as findBottleneckFigures } from '../../src/analysis/bottleneck.js';
import { wordRecommendation, wordBottleneck, sizeUnit } from '../../src/report/tune-words.js';
import { sweep, CALM } from './sweeps.js';

const POLICIES = ['random', 'round-robin', 'least-requests', 'p2c'];
const table = (values) => (size) => values[size];
// The analysis returns codes and figures; the sentences these tests read are made in report/.
const recommend = (steps) => wordRecommendation(recommendFigures(steps));
const findBottleneck = (signals) => wordBottleneck(findBottleneckFigures(signals));

test('the analysis is wordless: reason codes and figures, no sentences', () => {
  const rec = recommendFigures(sweep({ sizes: [1, 2, 4], rps: table({ 1: 300, 2: 600, 4: 1100 }), noise: 0.01, signals: () => ({ ...CALM, systemCpuPct: 97 }) }));
  assert.equal(rec.sentences, undefined);
  assert.equal(rec.bottleneck.text, undefined);
  assert.deepEqual(rec.bottleneck.findings.map((f) => f.kind), ['machine']);
  assert.equal(rec.bottleneck.findings[0].text, undefined);
  assert.equal(rec.bottleneck.findings[0].figures.systemCpuPct, 97);
});

test('plateau: the smallest size within 5% of the best throughput', () => {
  const steps = sweep({ sizes: [1, 2, 4, 8, 16], rps: table({ 1: 400, 2: 780, 4: 1450, 8: 1500, 16: 1490 }), noise: 0.005 });
  const rec = recommend(steps);
  assert.equal(rec.size, 4);
  assert.equal(rec.policy, 'round-robin');
  assert.equal(rec.best.size, 8);
  assert.deepEqual(rec.reasons.slice(0, 2), ['within-band', 'only-policy']);
  assert.match(rec.sentences.join(' '), /Use 4 workers with round-robin: 1,4\d\d req\/s \(1,4\d\d–1,4\d\d over 3 repeats\)/);
  assert.match(rec.sentences[1], /^With 4 workers, throughput \(1,4\d\d req\/s\) was within 5% of the best size's \(8 workers: 1,[45]\d\d req\/s\) and p99 within 10% of the best \([\d.]+ ms\), with fewer workers\.$/);
});

test('single peak: the peak itself when its neighbours fall outside the band', () => {
  const steps = sweep({
    sizes: [1, 2, 3, 4, 6, 8, 12, 16],
    policies: ['p2c'],
    rps: table({ 1: 500, 2: 950, 3: 1300, 4: 1600, 6: 2000, 8: 1700, 12: 1300, 16: 1000 }),
    noise: 0.01,
  });
  const rec = recommend(steps);
  assert.equal(rec.size, 6);
  assert.equal(rec.best.size, 6);
  assert.equal(rec.policy, 'p2c');
  assert.match(rec.sentences[1], /^6 workers gave the highest throughput measured \((1,9|2,0)\d\d req\/s\) and a p99 within 10% of the best\.$/);
});

test('errors at large sizes: those sizes are left out, and said so', () => {
  const steps = sweep({
    sizes: [1, 2, 4, 8, 12, 16],
    rps: table({ 1: 400, 2: 800, 4: 1500, 8: 2000, 12: 2300, 16: 2400 }),
    errors: (size) => (size >= 12 ? 37 : 0),
  });
  const rec = recommend(steps);
  assert.equal(rec.size, 8);
  assert.ok(rec.reasons.includes('errors-at-sizes'));
  assert.match(rec.sentences.join(' '), /Pool sizes 12, 16 had errors/);
  assert.equal(rec.cells.find((c) => c.size === 16).errors, 37 * 3);
});

test('noisy ties: overlapping repeats give the smaller size and "no meaningful difference"', () => {
  const steps = sweep({
    sizes: [2, 4, 8],
    policies: POLICIES,
    rps: table({ 2: 600, 4: 1000, 8: 1030 }),
    noise: 0.08,
    seed: 3,
  });
  const rec = recommend(steps);
  assert.equal(rec.size, 4);
  assert.ok(rec.reasons.includes('sizes-tie'), rec.reasons.join());
  assert.ok(rec.ties.sizes.includes(8));
  assert.ok(rec.reasons.includes('policies-tie'), rec.reasons.join());
  const text = rec.sentences.join(' ');
  assert.match(text, /No meaningful difference between policies at 4 workers/);
  assert.match(text, /No meaningful difference in throughput between 4 workers and pool sizes? .*8/);
  // The policy is the one with the lowest median p99 at that size.
  const at4 = rec.cells.filter((c) => c.size === 4);
  assert.equal(rec.policy, at4.reduce((a, b) => (b.p99Ms.median < a.p99Ms.median ? b : a)).policy);
});

test('a policy with clearly higher throughput wins over the best p99', () => {
  const steps = sweep({
    sizes: [2, 4],
    policies: ['round-robin', 'least-requests'],
    rps: (size, policy) => (size === 2 ? 500 : policy === 'least-requests' ? 1100 : 1000),
    p99: (size, policy) => (size === 2 ? 80 : policy === 'least-requests' ? 25 : 20),
    noise: 0.01,
  });
  const rec = recommend(steps);
  assert.equal(rec.size, 4);
  assert.equal(rec.policy, 'least-requests');
  assert.ok(rec.reasons.includes('higher-throughput'));
  assert.match(rec.sentences.join(' '), /round-robin had the lowest p99 at 4 workers, but least-requests had clearly higher throughput/);
});

test('still rising at the largest size: says to measure larger pools', () => {
  const rec = recommend(sweep({ sizes: [1, 2, 4], rps: table({ 1: 300, 2: 600, 4: 1100 }), noise: 0.01 }));
  assert.equal(rec.size, 4);
  assert.ok(rec.reasons.includes('still-rising'));
  assert.match(rec.sentences.join(' '), /Throughput was still rising at 4 workers, the largest size measured: measure larger pools too, e\.g\. --sizes 1,2,4,8\./);
  // tune --processes refuses --sizes ("drop --sizes"): its hint names --processes.
  const processes = wordRecommendation(recommendFigures(sweep({ sizes: [1, 2], rps: table({ 1: 904, 2: 1580 }), noise: 0.01 })), sizeUnit({ knobs: { processes: true } }));
  assert.match(processes.sentences.join(' '), /Throughput was still rising at 2 processes, the largest size measured: measure larger pools too, e\.g\. --processes 1,2,4\./);
  const plateau = recommend(sweep({ sizes: [1, 2, 4], rps: table({ 1: 300, 2: 1000, 4: 1010 }), noise: 0.01 }));
  assert.ok(!plateau.reasons.includes('still-rising'));
});

test('the best p99 came with low throughput: p99 is judged among the fast sizes', () => {
  const steps = sweep({ sizes: [2, 4], rps: table({ 2: 1000, 4: 1100 }), p99: (size) => (size === 2 ? 10 : 30) });
  const rec = recommend(steps);
  assert.equal(rec.size, 4);
  assert.deepEqual(rec.reasons.slice(0, 2), ['within-band', 'p99-relaxed']);
});

test('generator-bound: the bottleneck says add --generator-threads', () => {
  const steps = sweep({
    sizes: [1, 2, 4],
    rps: table({ 1: 700, 2: 1300, 4: 1350 }),
    signals: (size) => (size >= 2 ? { generatorCpuPct: 97, generatorElu: 0.96 } : {}),
  });
  const rec = recommend(steps);
  assert.equal(rec.size, 2);
  assert.equal(rec.bottleneck.primary.kind, 'generator');
  assert.ok(rec.reasons.includes('generator'));
  assert.match(rec.sentences.at(-1), /At the best size \(4 workers\), the load generator is the limit .*generator-bound; add --generator-threads 2/);
});

test('main-thread-bound: a flat curve with a saturated main thread says more workers will not help', () => {
  const steps = sweep({
    sizes: [1, 2, 4, 8],
    rps: table({ 1: 450, 2: 690, 4: 700, 8: 695 }),
    signals: (size) => (size >= 2 ? { mainElu: 0.98, mainBlocked: 0.31 } : { mainElu: 0.7 }),
    noise: 0.005,
  });
  const rec = recommend(steps);
  assert.equal(rec.size, 2);
  assert.equal(rec.bottleneck.primary.kind, 'main-thread');
  assert.match(rec.bottleneck.text, /event loop busy 98%, blocked in spawn 31%\): more workers will not help/);
});

test('the generator is judged by its CPU when known, by its event loop otherwise', () => {
  assert.equal(findBottleneck({ ...CALM, generatorCpuPct: 5, generatorElu: 1 }).primary, null, 'a busy-looking loop with idle CPU');
  assert.equal(findBottleneck({ ...CALM, generatorCpuPct: 180, generatorThreads: 2 }).primary.kind, 'generator');
  assert.match(findBottleneck({ ...CALM, generatorCpuPct: 180, generatorThreads: 2 }).text, /90% of a core per thread.*--generator-threads 4/);
  assert.match(findBottleneck({ ...CALM, generatorCpuPct: null, generatorElu: 0.95 }).text, /generator is the limit \(event loop busy 95%\)/);
});

test('machine-bound, and calm signals', () => {
  const machine = findBottleneck({ ...CALM, systemCpuPct: 97, workersCpuPct: 420, spawnedCpuPct: 250 });
  assert.equal(machine.primary.kind, 'machine');
  assert.match(machine.text, /machine is the limit \(cores 97% busy; cores used of 8: workers 4\.2, spawned commands 2\.5/);
  const shared = findBottleneck({ ...CALM, cores: 2, systemCpuPct: 100, workersCpuPct: 40, spawnedCpuPct: 30, mainCpuPct: 10, generatorCpuPct: 10 });
  assert.match(shared.text, /workers 0\.4, spawned commands 0\.3, main 0\.1, generator 0\.1, other processes 1\.1\)/);
  assert.equal(findBottleneck(CALM).primary, null);
  assert.match(findBottleneck(CALM).text, /no limit reached/);
  assert.match(findBottleneck({}).text, /no sampler figures/);
});

test('every step with errors, nothing measured, partial steps and single repeats', () => {
  const broken = recommend(sweep({ sizes: [1, 2], rps: () => 100, errors: () => 5 }));
  assert.equal(broken.size, null);
  assert.deepEqual(broken.reasons, ['all-errors']);
  assert.match(broken.sentences[0], /Every pool size measured \(1, 2\) answered with errors/);

  assert.deepEqual(recommend([]).reasons, ['nothing-measured']);
  const partial = sweep({ sizes: [1, 2], rps: table({ 1: 100, 2: 200 }), repeats: 1 });
  partial[1].partial = true;
  const rec = recommend(partial);
  assert.equal(rec.size, 1, 'the stopped step (size 2) is not used');
  assert.ok(rec.reasons.includes('single-repeat'));
  assert.match(rec.sentences.join(' '), /use --repeat 3/);
});

test('a step that failed to boot counts as an error', () => {
  const steps = sweep({ sizes: [1, 2, 4], rps: table({ 1: 300, 2: 600, 4: 900 }), repeats: 1 });
  steps[2] = { ...steps[2], rps: 0, p99Ms: null, failed: 'strategy exited with code 1 before it was ready' };
  const rec = recommend(steps);
  assert.equal(rec.size, 2);
  assert.equal(rec.cells.find((c) => c.size === 4).failed, 'strategy exited with code 1 before it was ready');
});
