// The tune a run or diagnose prints for a user's server drives the traffic the run drove:
// its --mix file, or each path of a repeated --path, and never --path, --method or
// --body beside --mix (which refuses them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT } from '../helpers/harness.js';
import { tuneArgs } from '../../src/analysis/size-knob.js';
import { buildDiagnosePlan } from '../../src/diagnose/diagnose-plan.js';
import { buildTunePlan } from '../../src/tune/tune-plan.js';

const MIX = join(ROOT, 'fixtures/mix/api.json');
const knob = { kind: 'env', name: 'WEB_CONCURRENCY', command: ['node', 's.js'] };

test('the printed tune carries --mix <file> and drops the one-request flags', () => {
  const plan = buildDiagnosePlan({ mix: MIX }, ['node', 's.js']);
  assert.equal(plan.load.mixFile, MIX);
  const args = tuneArgs(knob, plan.target, plan.load, { sizes: [1, 2] });
  assert.deepEqual(args, ['tune', '--sizes', '1,2', '--size-env', 'WEB_CONCURRENCY', '--mix', MIX, '--', 'node', 's.js']);
  // Its file gives tune the same mix.
  const tune = buildTunePlan({ mix: args[args.indexOf('--mix') + 1], sizeEnv: 'WEB_CONCURRENCY', sizes: [1, 2] }, ['node', 's.js']);
  assert.deepEqual(tune.base.load.mix.map((e) => e.name), plan.load.mix.map((e) => e.name));
});

test('a repeated --path is carried as each path', () => {
  const plan = buildDiagnosePlan({ path: ['/a', '/b'] }, ['node', 's.js']);
  assert.equal(plan.load.mixFile, undefined);
  assert.deepEqual(tuneArgs(knob, plan.target, plan.load), ['tune', '--size-env', 'WEB_CONCURRENCY', '--path', '/a', '--path', '/b', '--', 'node', 's.js']);
  // One request as before.
  const one = buildDiagnosePlan({ path: '/x', method: 'POST', body: 'b' }, ['node', 's.js']);
  assert.deepEqual(tuneArgs(knob, one.target, one.load), ['tune', '--size-env', 'WEB_CONCURRENCY', '--path', '/x', '--method', 'POST', '--body', 'b', '--', 'node', 's.js']);
});
