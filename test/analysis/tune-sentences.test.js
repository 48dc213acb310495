/**
 * One rule, one sentence: tune's sentences never contradict the size and policy
 * it recommends. Many seeded sweeps (curves rising, flat, peaked; noise; policies;
 * errors), each recommendation checked sentence by sentence.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recommend } from '../../src/analysis/recommend.js';
import { wordRecommendation } from '../../src/report/tune-words.js';
import { sweep, seeded } from './sweeps.js';

const ALL_POLICIES = ['random', 'round-robin', 'least-requests', 'p2c'];
const ALL_SIZES = [1, 2, 3, 4, 5, 6, 8, 12, 16];
const SHAPES = ['rising', 'plateau', 'peak', 'flat'];

/** A seeded sweep of a random shape: sizes, policies, repeats, noise and errors drawn from the seed. */
function seededSweep(seed) {
  const random = seeded(seed * 7919);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const sizes = ALL_SIZES.filter(() => random() < 0.6);
  if (sizes.length < 2) sizes.push(...ALL_SIZES.filter((s) => !sizes.includes(s)).slice(0, 2));
  sizes.sort((a, b) => a - b);
  const policies = ALL_POLICIES.slice(0, 1 + Math.floor(random() * 4));
  const shape = pick(SHAPES);
  const knee = 1 + random() * 8;
  const base = 100 + random() * 2000;
  const curve = (size) => {
    if (shape === 'rising') return base * size;
    if (shape === 'flat') return base;
    if (shape === 'plateau') return base * Math.min(size, knee);
    return base * (size <= knee ? size : Math.max(0.2, knee - (size - knee) * 0.3));
  };
  const policyGain = Object.fromEntries(policies.map((p) => [p, 1 + (random() - 0.5) * 0.2]));
  const errorFrom = random() < 0.2 ? pick(sizes) : Infinity;
  const p99Style = pick(['little', 'random']);
  const p99Table = Object.fromEntries(sizes.map((s) => [s, 5 + random() * 40]));
  return sweep({
    sizes,
    policies,
    repeats: 1 + Math.floor(random() * 3),
    rps: (size, policy) => curve(size) * policyGain[policy],
    p99: p99Style === 'random' ? (size) => p99Table[size] : undefined,
    errors: (size) => (size >= errorFrom ? 3 : 0),
    noise: pick([0, 0.01, 0.05, 0.1, 0.2, 0.3]),
    seed,
  });
}

const NUM = String.raw`(\d+) workers?`;

/**
 * Every sentence that names the recommended size or policy agrees with the recommendation.
 * @returns {string[]} the contradictions found
 */
function contradictions(rec) {
  const found = [];
  const say = (sentence, why) => found.push(`${why}: "${sentence}"`);
  const sizesMeasured = rec.sizes.map((x) => x.size);
  const uses = rec.sentences.filter((s) => /^Use \d+ workers?/.test(s));
  if (rec.size === null) {
    if (uses.length > 0) say(uses[0], 'a "Use" sentence without a recommended size');
    return found;
  }
  if (uses.length !== 1) found.push(`${uses.length} "Use" sentences`);
  for (const s of rec.sentences) {
    let m;
    if ((m = s.match(new RegExp(`^Use ${NUM}(?: with ([\\w-]+))?:`)))) {
      if (Number(m[1]) !== rec.size) say(s, `recommends size ${rec.size}`);
      if ((m[2] ?? null) !== rec.policy) say(s, `recommends policy ${rec.policy}`);
    }
    if ((m = s.match(new RegExp(`^No meaningful difference in throughput between ${NUM} and pool sizes? ([\\d, ]+):`)))) {
      const kept = Number(m[1]);
      const others = m[2].split(',').map(Number);
      if (kept !== rec.size) say(s, `recommends size ${rec.size}`);
      if (/the smaller pool is the one to keep/.test(s) && others.some((o) => o < kept)) say(s, `a smaller size than ${kept} ties, yet ${rec.size} is recommended`);
    }
    if ((m = s.match(new RegExp(`^With ${NUM}, throughput`))) && Number(m[1]) !== rec.size) say(s, `recommends size ${rec.size}`);
    if ((m = s.match(new RegExp(`^${NUM} gave the highest throughput measured`, 'i')))) {
      if (Number(m[1]) !== rec.size) say(s, `recommends size ${rec.size}`);
      if (Number(m[1]) !== rec.best.size) say(s, `the best size is ${rec.best.size}`);
    }
    if ((m = s.match(new RegExp(`had the lowest p99 at ${NUM}, but ([\\w-]+) had clearly higher throughput`)))) {
      if (Number(m[1]) !== rec.size || m[2] !== rec.policy) say(s, `recommends ${rec.size} with ${rec.policy}`);
    }
    if ((m = s.match(new RegExp(`^No meaningful difference between policies at ${NUM}: .*; ([\\w-]+) had the lowest median p99`)))) {
      if (Number(m[1]) !== rec.size || m[2] !== rec.policy) say(s, `recommends ${rec.size} with ${rec.policy}`);
    }
    if ((m = s.match(new RegExp(`^At ${NUM}, ([\\w-]+) had the lowest p99`)))) {
      if (Number(m[1]) !== rec.size || m[2] !== rec.policy) say(s, `recommends ${rec.size} with ${rec.policy}`);
    }
    if ((m = s.match(new RegExp(`^Throughput was still rising at ${NUM}, the largest size measured`)))) {
      if (Number(m[1]) !== rec.size || rec.size !== Math.max(...sizesMeasured)) say(s, `recommends ${rec.size} of ${sizesMeasured.join(',')}`);
    }
    if ((m = s.match(/^Pool sizes ([\d, ]+) had errors/)) && m[1].split(',').map(Number).includes(rec.size)) say(s, `recommends size ${rec.size}, which had errors`);
  }
  return found;
}

test('tune\'s sentences agree with its recommendation on 600 seeded sweeps', () => {
  const problems = [];
  let ties = 0;
  for (let seed = 1; seed <= 600; seed++) {
    const rec = wordRecommendation(recommend(seededSweep(seed)));
    if (rec.reasons.includes('sizes-tie')) ties++;
    for (const p of contradictions(rec)) problems.push(`seed ${seed}: ${p}`);
  }
  assert.ok(ties >= 30, `the seeds cover ties between sizes (${ties})`);
  assert.deepEqual(problems.slice(0, 10), []);
});

test('a smaller size within noise of the band\'s pick is the one recommended', () => {
  // 3 workers is the only size within 5% of the best median; 1 worker's repeats overlap its throughput.
  const passes = { 1: [850, 900, 1010], 3: [1000, 1005, 1010] };
  const steps = [0, 1, 2].flatMap((i) => [1, 3].map((size) => ({ size, policy: 'round-robin', repeat: i + 1, rps: passes[size][i], p99Ms: 20, errors: 0 })));
  const rec = wordRecommendation(recommend(steps));
  assert.deepEqual(contradictions(rec), []);
  assert.equal(rec.size, 1);
  assert.equal(rec.basis.bandSize, 3);
  assert.ok(rec.reasons.includes('tie-smaller'));
  assert.match(rec.sentences[1], /^With 1 worker, throughput \(900 req\/s\) was within the spread of the repeats of 3 workers \(1,005 req\/s\), the best size, .*no meaningful difference, with fewer workers\.$/);
  assert.match(rec.sentences.join(' '), /No meaningful difference in throughput between 1 worker and pool size 3: their repeats overlap, so the smaller pool is the one to keep\./);

  // The same overlap with a p99 far above the best: 3 workers is kept, and the sentence says why.
  const slow = steps.map((s) => (s.size === 1 ? { ...s, p99Ms: 60 } : s));
  const kept = wordRecommendation(recommend(slow));
  assert.deepEqual(contradictions(kept), []);
  assert.equal(kept.size, 3);
  assert.match(kept.sentences.join(' '), /Pool size 1 had throughput within noise of 3 workers, but a p99 more than 10% above the best \(20\.0 ms\), so 3 workers are kept\./);
});

test('the checker finds the contradiction it is for', () => {
  const rec = {
    size: 3, policy: null, best: { size: 4 }, sizes: [{ size: 1 }, { size: 2 }, { size: 3 }, { size: 4 }],
    sentences: ['Use 3 workers: 1,000 req/s, p99 20 ms, no errors.', 'No meaningful difference in throughput between 3 workers and pool sizes 1, 2: their repeats overlap, so the smaller pool is the one to keep.'],
  };
  assert.equal(contradictions(rec).length, 1);
});
