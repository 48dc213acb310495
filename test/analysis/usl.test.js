import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitUsl, uslThroughput, uslPeak } from '../../src/analysis/usl.js';
import { seeded } from './sweeps.js';

const within = (actual, expected, fraction, label) =>
  assert.ok(Math.abs(actual - expected) <= Math.abs(expected) * fraction, `${label}: ${actual} not within ${fraction * 100}% of ${expected}`);

test('recovers σ and κ from exact data', () => {
  const model = { lambda: 900, sigma: 0.08, kappa: 0.004 };
  const points = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32].map((n) => ({ n, x: uslThroughput(model, n) }));
  const fit = fitUsl(points);
  within(fit.sigma, model.sigma, 0.001, 'sigma');
  within(fit.kappa, model.kappa, 0.001, 'kappa');
  within(fit.lambda, model.lambda, 0.001, 'lambda');
  within(fit.peak, uslPeak(model), 0.001, 'peak');
  assert.ok(fit.r2 > 0.9999);
});

test('recovers σ and κ within 10% from noisy repeated data (±1%, three repeats)', () => {
  const random = seeded(7);
  for (const model of [
    { lambda: 650, sigma: 0.05, kappa: 0.002 },
    { lambda: 1200, sigma: 0.2, kappa: 0.01 },
    { lambda: 300, sigma: 0.02, kappa: 0.0008 },
  ]) {
    const points = [];
    for (let repeat = 0; repeat < 3; repeat++) {
      for (const n of [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48]) {
        points.push({ n, x: uslThroughput(model, n) * (1 + 0.01 * (2 * random() - 1)) });
      }
    }
    const fit = fitUsl(points);
    within(fit.sigma, model.sigma, 0.1, `sigma of ${JSON.stringify(model)}`);
    within(fit.kappa, model.kappa, 0.1, `kappa of ${JSON.stringify(model)}`);
  }
});

test('no retrograde region: κ is (about) 0 and the peak far away (Amdahl)', () => {
  const points = [1, 2, 4, 8].map((n) => ({ n, x: (500 * n) / (1 + 0.1 * (n - 1)) }));
  const fit = fitUsl(points);
  assert.ok(fit.kappa < 1e-9, `kappa ${fit.kappa}`);
  within(fit.sigma, 0.1, 0.01, 'sigma');
  assert.ok(fit.peak > 1000);
  const falling = fitUsl([1, 2, 4, 8].map((n) => ({ n, x: (500 * n) / (1 + 0.1 * (n - 1)) * (n === 8 ? 1.2 : 1) })));
  assert.equal(falling.kappa, 0, 'a curve that bends up has no coherency term');
  assert.equal(uslPeak(falling), Infinity);
});

test('a flat or falling curve gives σ ≥ 0 and κ ≥ 0; fewer than three sizes give no fit', () => {
  const flat = fitUsl([1, 2, 4, 8].map((n) => ({ n, x: 700 })));
  assert.ok(flat.sigma >= 0 && flat.kappa >= 0);
  within(flat.sigma, 1, 0.01, 'a flat curve is all contention');
  assert.equal(fitUsl([{ n: 1, x: 100 }, { n: 2, x: 190 }, { n: 2, x: 195 }]), null);
  assert.equal(fitUsl([{ n: 1, x: 0 }, { n: 2, x: 0 }, { n: 4, x: 0 }]), null);
});
