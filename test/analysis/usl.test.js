import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitUsl, uslThroughput, uslPeak, uslDisagreement } from '../../src/analysis/usl.js';
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

test('recovers known σ and κ on synthetic curves of the default sizes, noise ±3%', () => {
  const random = seeded(36);
  const sizes = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32];
  for (const model of [
    { lambda: 4000, sigma: 0.1, kappa: 0.01 },
    { lambda: 3500, sigma: 0.3, kappa: 0.002 },
    { lambda: 900, sigma: 0.02, kappa: 0.0005 },
  ]) {
    const points = [];
    for (let repeat = 0; repeat < 5; repeat++) for (const n of sizes) points.push({ n, x: uslThroughput(model, n) * (1 + 0.03 * (2 * random() - 1)) });
    const fit = fitUsl(points);
    within(fit.sigma, model.sigma, 0.25, `sigma of ${JSON.stringify(model)}`);
    within(fit.kappa, model.kappa, 0.25, `kappa of ${JSON.stringify(model)}`);
    within(fit.peak, uslPeak(model), 0.15, `peak of ${JSON.stringify(model)}`);
    const medians = sizes.map((n) => ({ n, x: uslThroughput(model, n) }));
    assert.equal(uslDisagreement(fit, medians), null, `a good fit of ${JSON.stringify(model)} is shown`);
  }
});

// Curves that give the fits seen on a 16-core machine (σ 2.075, κ 0.0111, R² 0.95) and on
// 2 cores (σ 1.275, κ 0.0094, R² 0.83): "peak ≈ 0.0 workers".
const SEEN = [
  { sigma: 2.075, kappa: 0.0111, r2: 0.95, x: [11040, 7881, 5912, 6530, 5222, 5916, 4818, 5478, 4437, 4990] },
  { sigma: 1.275, kappa: 0.0094, r2: 0.83, x: [11280, 10714, 8979, 9818, 8388, 9224, 7872, 8598, 7207, 7723] },
];

test('the fits seen with a peak at 0 workers are not shown: the peak lies below the sizes measured', () => {
  const sizes = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32];
  for (const seen of SEEN) {
    const points = sizes.map((n, i) => ({ n, x: seen.x[i] }));
    const fit = fitUsl(points);
    within(fit.sigma, seen.sigma, 0.02, 'sigma');
    within(fit.kappa, seen.kappa, 0.03, 'kappa');
    assert.ok(Math.abs(fit.r2 - seen.r2) < 0.02, `r2 ${fit.r2}`);
    assert.equal(fit.peak, 0);
    assert.equal(uslDisagreement(fit, points), 'peak-below-sizes');
  }
});

test('a fit that falls where the data rise, or peaks far from the measured best, is not shown', () => {
  // The data rise 1 → 2 by 7.6%, yet this fit (σ 1.155) falls from 1 worker on.
  const rising = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32].map((n) => ({ n, x: uslThroughput({ lambda: 20000, sigma: 2.075, kappa: 0.0111 }, n) * (n === 1 ? 0.6 : 1) }));
  const fit = fitUsl(rising);
  assert.ok(fit.sigma > 1, `sigma ${fit.sigma}`);
  assert.equal(uslDisagreement(fit, rising), 'peak-below-sizes');
  // Judged alone (a peak moved above 1), the fall from 1 to 2 still contradicts the rise.
  assert.equal(uslDisagreement({ ...fit, peak: 1.5 }, rising), 'contradicts-curve');
  // The data peak at 4 (2, 4 and 8 within 5% of it); a fit whose peak sits at 30, past 16.
  const peaked = [1, 2, 4, 8, 16].map((n) => ({ n, x: { 1: 1000, 2: 1960, 4: 2000, 8: 1920, 16: 1850 }[n] }));
  const far = { lambda: 1000, sigma: 0.02, kappa: 0.98 / 900 };
  assert.equal(Math.round(uslPeak(far)), 30);
  assert.equal(uslDisagreement({ ...far, peak: uslPeak(far) }, peaked), 'peak-far-from-best');
  assert.equal(uslDisagreement({ ...far, peak: 12 }, peaked), null, 'a peak between the best sizes\' neighbours agrees');
  // A best at the largest size: any peak beyond it agrees.
  const still = [1, 2, 4, 8].map((n) => ({ n, x: (500 * n) / (1 + 0.1 * (n - 1)) }));
  assert.equal(uslDisagreement(fitUsl(still), still), null);
});
