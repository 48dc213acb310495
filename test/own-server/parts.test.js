// The pure parts behind tune and compare on a user's server: the step's command
// and environment, the size knob diagnose finds, the balance of its workers, and
// the words the reports give them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTunePlan, stepPlan } from '../../src/tune/tune-plan.js';
import { createAdaptiveSearch } from '../../src/tune/adaptive.js';
import { findSizeKnob, tuneArgs } from '../../src/analysis/size-knob.js';
import { workerBalance, chosenProcesses, cellBalances } from '../../src/analysis/worker-balance.js';
import { LOPSIDED_RATIO } from '../../src/base/thresholds.js';
import { formatServerProcesses, shellLine, policyNotTunedSentences, balanceCell } from '../../src/report/own-server.js';
import { formatDiagnosis } from '../../src/report/diagnose-text.js';
import { recommend } from '../../src/analysis/recommend.js';
import { wordRecommendation } from '../../src/report/tune-words.js';
import { policyLabel, OWN_POLICY_LABEL } from '../../src/base/labels.js';
import { sweep } from '../analysis/sweeps.js';

test('a step of a command sweep: {size} and {policy} filled in, the knobs set in its environment', () => {
  const plan = buildTunePlan(
    { sizes: '4,1', sizeEnv: 'WEB_CONCURRENCY', policyEnv: 'NODE_CLUSTER_SCHED_POLICY', balancePolicies: 'rr, none', port: '4000', path: '/api' },
    ['node', 'app.js', '--workers={size}', '--pick', '{policy}'],
  );
  assert.deepEqual(plan.sizes, [1, 4]);
  assert.deepEqual(plan.policies, ['rr', 'none']);
  assert.equal(plan.base.load.durationMs, 3000, 'tune\'s per-step default');
  const step = stepPlan(plan, { size: 4, policy: 'none' }).target;
  assert.deepEqual(step.command, ['node', 'app.js', '--workers=4', '--pick', 'none']);
  assert.deepEqual(step.env, { WEB_CONCURRENCY: '4', NODE_CLUSTER_SCHED_POLICY: 'none' });
  assert.equal(step.port, 4000);
  assert.equal(step.path, '/api');
  assert.deepEqual(plan.base.target.command, ['node', 'app.js', '--workers={size}', '--pick', '{policy}'], 'the base plan is not changed');
  assert.deepEqual(buildTunePlan({ sizeEnv: 'W' }, ['node', 's.js']).policies, [null], 'no policy knob: the server\'s own balancing');
  const adaptive = createAdaptiveSearch({ sizes: [1, 2, 3, 4], policies: [null], repeat: 1 });
  assert.deepEqual(adaptive.nextBatch([]).map((s) => [s.size, s.policy]), [[1, null], [2, null], [4, null]], 'adaptive search leads with the server\'s own balancing');
});

test('the size knob of a command: a --workers-like flag first, then a size variable in its environment', () => {
  assert.deepEqual(findSizeKnob({ command: ['node', 's.js', '--workers', '4'], env: { WEB_CONCURRENCY: '2' } }),
    { kind: 'flag', flag: '--workers', value: 4, written: '--workers 4', command: ['node', 's.js', '--workers', '{size}'] });
  assert.deepEqual(findSizeKnob({ command: ['node', 's.js', '--concurrency=8'], env: {} }).command, ['node', 's.js', '--concurrency={size}']);
  assert.deepEqual(findSizeKnob({ command: ['node', 's.js'], env: { UV_THREADPOOL_SIZE: '8', WORKERS: '3' } }),
    { kind: 'env', name: 'WORKERS', value: 3, written: 'WORKERS=3', command: ['node', 's.js'] });
  assert.equal(findSizeKnob({ command: ['node', 's.js', '--workers', 'auto'], env: { WORKERS: 'many' } }), null);
  assert.equal(findSizeKnob({ command: ['--workers', '2'], env: {} }), null, 'the executable itself is not a flag');
  const knob = findSizeKnob({ command: ['node', 's.js'], env: { WEB_CONCURRENCY: '2' } });
  assert.deepEqual(tuneArgs(knob, { port: 3000, path: '/x' }, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'a b' }),
    ['tune', '--size-env', 'WEB_CONCURRENCY', '--port', '3000', '--path', '/x', '--method', 'POST', '--header', 'content-type: text/plain', '--body', 'a b', '--', 'node', 's.js']);
});

test('diagnose of a server blocked in spawn with a size knob: the exact tune to run comes first among the next steps', () => {
  const verdict = { id: 'spawn-blocked', title: 'blocked', where: null, evidence: ['e'], next: ['move spawns off the main thread'], figures: {} };
  const knob = { kind: 'env', name: 'WEB_CONCURRENCY', value: 2, command: ['node', 'my server.js'], tune: ['tune', '--size-env', 'WEB_CONCURRENCY', '--', 'node', 'my server.js'] };
  const lines = formatDiagnosis({ verdict, findings: [], notSeen: [] }, knob);
  assert.deepEqual(lines.filter((l) => l.includes('next:')).map((l) => l.trim()), [
    "next: find the size that serves best from its WEB_CONCURRENCY (now 2): spawnbench tune --size-env WEB_CONCURRENCY -- node 'my server.js'",
    'next: move spawns off the main thread',
  ]);
  const other = formatDiagnosis({ verdict: { ...verdict, id: 'gc-pressure' }, findings: [], notSeen: [] }, knob);
  assert.ok(!other.some((l) => l.includes('spawnbench tune')), 'only where the server is blocked in spawn');
});

test('shell lines read back to the same words', () => {
  assert.equal(shellLine(['node', 'server.js', '--workers', '{size}']), 'node server.js --workers {size}');
  assert.equal(shellLine(['node', "it's here.js", '']), "node 'it'\\''s here.js' ''");
});

test('the balance of a server\'s workers: by spawns where counted, lopsided from the threshold', () => {
  const row = (label, spawnsPerSec, cpuPct = 20) => ({ label, role: 'worker', pid: 1, threadId: null, spawnsPerSec, cpuPct, elu: 0.5, blockedFraction: 0.4 });
  const main = { label: 'main', role: 'main', pid: 9, spawnsPerSec: 0, cpuPct: 5 };
  const even = workerBalance([main, row('pid 1', 100), row('pid 2', 104)]);
  assert.equal(even.id, 'even');
  assert.equal(even.basis, 'spawns');
  assert.equal(even.busiest, 'pid 2');
  assert.ok(Math.abs(even.ratio - 1.0196) < 0.001);
  const lopsided = workerBalance([main, row('pid 1', 180), row('pid 2', 20)]);
  assert.equal(lopsided.id, 'lopsided');
  assert.equal(lopsided.busiestShare, 0.9);
  assert.equal(lopsided.threshold, LOPSIDED_RATIO);
  assert.equal(workerBalance([main, row('pid 1', null, 90), row('pid 2', null, 30)]).basis, 'cpu');
  assert.equal(workerBalance([main, row('pid 1', 100)]), null, 'one worker has nothing to balance');

  const steps = [
    { size: 2, policy: null, repeat: 1, processes: [main, row('pid 1', 180), row('pid 2', 20)] },
    { size: 2, policy: null, repeat: 2, partial: true, processes: [main] },
  ];
  const chosen = chosenProcesses(steps, { size: 2, policy: null });
  assert.equal(chosen.repeat, 1, 'a partial step is not the evidence');
  const text = formatServerProcesses(chosen);
  assert.equal(text[0], "Your server's processes at size 2 (repeat 1)");
  assert.match(text.at(-1), /^Lopsided: pid 1 did 90% of the workers' spawns \(1\.80× an even share of 50%; lopsided from 1\.3×\)/);
  const cells = cellBalances([
    ...steps,
    { size: 2, policy: null, repeat: 3, processes: [main, row('pid 1', 100), row('pid 2', 100)] },
    { size: 2, policy: null, repeat: 4, processes: [main, row('pid 1', 150), row('pid 2', 50)] },
    { size: 1, policy: null, repeat: 1, processes: [main, row('pid 1', 100)] },
  ]);
  assert.deepEqual(cells, [{ size: 2, policy: null, ratio: 1.5, id: 'lopsided', basis: 'spawns' }], 'the median of the complete steps; one worker has no balance');
  assert.equal(balanceCell(cells[0]), '1.50× lopsided');
  assert.equal(balanceCell({ ratio: 1.02, id: 'even' }), '1.02×');
  assert.equal(balanceCell(undefined), '–');
  assert.deepEqual(policyNotTunedSentences({ policyReason: 'no-policy-knob' }).length, 1);
  assert.deepEqual(policyNotTunedSentences({}), []);
});

test('a server without a policy knob: the analysis says so by ids, report/ words it without a policy', () => {
  const steps = sweep({ sizes: [1, 2], policies: [null], rps: (size) => 500 * size, noise: 0.01 });
  const rec = recommend(steps);
  assert.equal(rec.policy, null);
  assert.equal(rec.sentences, undefined, 'the analysis writes no sentences');
  const [first] = wordRecommendation(rec).sentences;
  assert.match(first, /^Use 2 workers: [\d,]+ req\/s/);
  assert.doesNotMatch(first, /with null/);
  assert.equal(policyLabel(null), OWN_POLICY_LABEL);
  assert.equal(policyLabel('rr'), 'rr');
});
