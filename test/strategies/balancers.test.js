import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BALANCERS, createBalancer, pickLeastRequests, pickP2C, p2cPair, pickRoundRobin,
} from '../../strategies/lib/balancers.js';
import { seededRandom } from '../../strategies/lib/random.js';

function randomLoads(random, n) {
  return Array.from({ length: n }, () => Math.floor(random() * 6));
}

test('round-robin gives every worker the same count, ±1', () => {
  const pick = createBalancer('round-robin');
  const counts = [0, 0, 0];
  for (let i = 0; i < 301; i++) counts[pick([0, 0, 0])]++;
  assert.deepEqual(counts, [101, 100, 100]);
  assert.equal(pickRoundRobin([5, 0], 3), 1);
});

test('least-requests never picks a worker busier than the least loaded', () => {
  const random = seededRandom(11);
  for (let i = 0; i < 2000; i++) {
    const loads = randomLoads(random, 1 + (i % 8));
    const chosen = pickLeastRequests(loads, i);
    assert.equal(loads[chosen], Math.min(...loads), `loads ${loads} chose ${chosen}`);
  }
});

test('least-requests rotates among tied workers', () => {
  const pick = createBalancer('least-requests');
  const seen = new Set(Array.from({ length: 4 }, () => pick([1, 1, 1, 1])));
  assert.equal(seen.size, 4);
});

test('p2c picks the less loaded of the two it compared, and they are distinct', () => {
  const loadsRandom = seededRandom(3);
  for (let i = 0; i < 2000; i++) {
    const n = 2 + (i % 7);
    const loads = randomLoads(loadsRandom, n);
    // The same seed twice: one replays the pair, the other makes the pick.
    const [a, b] = p2cPair(n, seededRandom(i));
    const chosen = pickP2C(loads, seededRandom(i));
    assert.notEqual(a, b);
    assert.ok(chosen === a || chosen === b);
    assert.equal(loads[chosen], Math.min(loads[a], loads[b]), `loads ${loads} compared ${a},${b} chose ${chosen}`);
  }
});

test('p2c with one worker picks it', () => {
  assert.equal(pickP2C([4], seededRandom(1)), 0);
});

test('random repeats on the same seed and differs from round-robin', () => {
  const sequence = (name, seed) => {
    const pick = createBalancer(name, { seed });
    return Array.from({ length: 40 }, () => pick([0, 0, 0, 0]));
  };
  assert.deepEqual(sequence('random', 42), sequence('random', 42));
  assert.notDeepEqual(sequence('random', 42), sequence('round-robin', 42));
  assert.notDeepEqual(sequence('random', 42), sequence('random', 43));
  for (const w of sequence('random', 42)) assert.ok(w >= 0 && w < 4);
});

test('an unknown balancer is named in the error', () => {
  assert.throws(() => createBalancer('fastest'), /unknown balance 'fastest'; use one of random, round-robin, least-requests, p2c/);
  assert.deepEqual(BALANCERS, ['random', 'round-robin', 'least-requests', 'p2c']);
});
