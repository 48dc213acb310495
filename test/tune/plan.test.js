import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTunePlan, stepPlan } from '../../src/tune/tune-plan.js';
import { defaultSizes } from '../../src/plan/option-declarations.js';
import { coarseSizes, refineSizes } from '../../src/tune/adaptive.js';
import { interleave } from '../../src/tune/exhaustive.js';

test('default sizes: 1-2-3-4-6-8-… up to twice the hardware threads, with that count itself', () => {
  assert.deepEqual(defaultSizes(2), [1, 2, 3, 4]);
  assert.deepEqual(defaultSizes(8), [1, 2, 3, 4, 6, 8, 12, 16]);
  assert.deepEqual(defaultSizes(12), [1, 2, 3, 4, 6, 8, 12, 16, 24]);
  assert.deepEqual(defaultSizes(5), [1, 2, 3, 4, 5, 6, 8, 10]);
});

test('the API takes lists and numbers as values (sizes: [1, 2, 4]), the CLI\'s text too; bad items are the same one-line errors', () => {
  const typed = buildTunePlan({ strategy: 'fork-pool', sizes: [4, 1, 2, 2], balancePolicies: ['p2c', 'random'], repeat: 2 });
  const text = buildTunePlan({ strategy: 'fork-pool', sizes: '4,1,2,2', balancePolicies: 'p2c,random', repeat: '2' });
  assert.deepEqual([typed.sizes, typed.policies, typed.repeat], [[1, 2, 4], ['p2c', 'random'], 2]);
  assert.deepEqual([text.sizes, text.policies, text.repeat], [[1, 2, 4], ['p2c', 'random'], 2]);
  assert.throws(() => buildTunePlan({ strategy: 'fork-pool', sizes: [1, 0] }), /--sizes/);
  assert.throws(() => buildTunePlan({ strategy: 'fork-pool', balancePolicies: ['fastest'] }), /--balance-policies 'fastest' is not one of/);
});

test('a tune plan: the base run plan, the sweep, and one run plan per step', () => {
  const plan = buildTunePlan({ strategy: 'fork-pool', sizes: '4,1,2,2', balancePolicies: 'p2c,random', repeat: '2', search: 'adaptive' });
  assert.deepEqual(plan.sizes, [1, 2, 4]);
  assert.deepEqual(plan.policies, ['p2c', 'random']);
  assert.equal(plan.repeat, 2);
  assert.equal(plan.search, 'adaptive');
  assert.equal(plan.base.load.durationMs, 3000, 'tune\'s own default duration');
  assert.equal(plan.base.load.warmupMs, 1000);
  const step = stepPlan(plan, { size: 4, policy: 'random' });
  assert.equal(step.target.poolSize, 4);
  assert.equal(step.target.balance, 'random');
  assert.equal(plan.base.target.balance, 'round-robin', 'the base plan is not changed');
  assert.equal(buildTunePlan({ strategy: 'fork-pool', duration: '1s', warmup: '0' }).base.load.durationMs, 1000);
});

test('policies: those the strategy declares (cluster: round-robin only), else all', () => {
  assert.deepEqual(buildTunePlan({ strategy: 'cluster' }).policies, ['round-robin']);
  assert.deepEqual(buildTunePlan({ strategy: 'fork-pool' }).policies, ['random', 'round-robin', 'least-requests', 'p2c']);
  assert.throws(() => buildTunePlan({ strategy: 'cluster', balancePolicies: 'p2c,round-robin' }), /--balance-policies: strategy 'cluster' balances with round-robin only, not p2c; drop it/);
});

test('interleaving and the adaptive search\'s coarse and fine sizes', () => {
  assert.deepEqual(interleave([1, 2], ['a'], 2).map((s) => `${s.repeat}:${s.size}`), ['1:1', '1:2', '2:1', '2:2']);
  assert.deepEqual(coarseSizes([1, 2, 3, 4, 6, 8, 12, 16]), [1, 2, 4, 8, 16]);
  assert.deepEqual(coarseSizes([1, 2, 3, 4]), [1, 2, 4]);
  assert.deepEqual(coarseSizes([3, 5, 6]), [3, 6]);
  const sizes = [1, 2, 3, 4, 6, 8, 12, 16];
  // Best at 4, recommended 4: look at 3 (below) and 6 (above).
  assert.deepEqual(refineSizes(sizes, new Set([1, 2, 4, 8, 16]), { best: 4, recommended: 4 }), [3, 6]);
  // Best at 16, recommended 8: the middle of 8..16 and of 4..8.
  assert.deepEqual(refineSizes(sizes, new Set([1, 2, 4, 8, 16]), { best: 16, recommended: 8 }), [6, 12]);
  assert.deepEqual(refineSizes(sizes, new Set(sizes), { best: 4, recommended: 3 }), []);
});
