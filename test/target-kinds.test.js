// A strategy, a user's server command and a --url are three kinds of one target:
// each answers what the rest of the code asks of it (src/base/target-kinds.js), boots
// from one table (src/runner/target-runner.js) and is named from one table
// (src/report/target-text.js), so no other module asks a target's kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { targetOf } from '../src/base/target-kinds.js';
import { targetRunner } from '../src/runner/target-runner.js';
import { targetWords } from '../src/report/target-text.js';
import { stepPlan } from '../src/tune/tune-plan.js';
import { buildRunPlan } from '../src/plan/run-plan.js';

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

const STRATEGY = { kind: 'strategy', strategy: 'fork-pool', pool: true, poolSize: 4, balance: 'p2c', runtime: { name: 'node' } };
const COMMAND = { kind: 'command', command: ['node', 'server.js'], port: null, path: '/', readyTimeoutMs: 10000 };
const OWN = { ...COMMAND, sizeKnob: { given: null, found: { kind: 'env', name: 'WORKERS' } } };
const URL_TARGET = { kind: 'url', url: 'http://127.0.0.1:4000/' };

test('each kind answers the same questions', () => {
  assert.deepEqual(targetOf(STRATEGY), {
    kind: 'strategy', name: 'fork-pool', command: null, url: null, external: false, runsWorkload: true,
    processes: 'pool', sizeKnob: { source: 'pool-size', value: 4 }, advice: 'strategy',
  });
  assert.deepEqual(targetOf(OWN), {
    kind: 'command', name: 'node server.js', command: ['node', 'server.js'], url: null, external: false, runsWorkload: false,
    processes: 'tree', sizeKnob: OWN.sizeKnob, advice: 'own',
  });
  // A command of tune's or compare's steps carries no knob to size live.
  assert.equal(targetOf(COMMAND).sizeKnob, null);
  assert.deepEqual(targetOf(URL_TARGET), {
    kind: 'url', name: URL_TARGET.url, command: null, url: URL_TARGET.url, external: true, runsWorkload: false,
    processes: null, sizeKnob: null, advice: null,
  });
  const keys = Object.keys(targetOf(STRATEGY)).sort();
  for (const t of [OWN, URL_TARGET, null, {}, { kind: 'toString' }]) assert.deepEqual(Object.keys(targetOf(t)).sort(), keys);
});

test('a plan without a known kind is nothing started and nothing advised', () => {
  for (const t of [undefined, null, {}, { kind: 'constructor' }]) {
    const asked = targetOf(t);
    assert.equal(asked.kind, null);
    assert.equal(asked.advice, null);
    assert.equal(asked.external, false);
    assert.equal(asked.sizeKnob, null);
  }
});

test("the plan's target stays plain JSON: the answers are not in it", () => {
  const plan = buildRunPlan({ url: 'http://127.0.0.1:4000/', duration: '1s' });
  const before = JSON.stringify(plan.target);
  targetOf(plan.target);
  assert.equal(JSON.stringify(plan.target), before);
  assert.deepEqual(JSON.parse(before), plan.target);
});

test('each kind boots from one row of the runner table; a --url has nothing to boot', () => {
  const rows = [STRATEGY, OWN, URL_TARGET].map((t) => targetRunner(t));
  for (const row of rows) assert.deepEqual(Object.keys(row).sort(), ['boot', 'findServer', 'resultFields', 'what', 'workerDeaths']);
  assert.deepEqual(rows.map((r) => r.what), ['strategy', 'server', 'strategy']);
  assert.equal(targetRunner(URL_TARGET).boot(), null);
  assert.deepEqual(targetRunner(URL_TARGET).resultFields(), { strategy: null });
  assert.deepEqual(targetRunner(STRATEGY).resultFields({ target: STRATEGY }, null, []), { strategy: null });
  // A server's tree shows its workers' deaths; a strategy says them in its control lines.
  const samples = { processes: [] };
  assert.deepEqual(targetRunner(OWN).workerDeaths([], samples, 0), []);
  assert.deepEqual(targetRunner(STRATEGY).workerDeaths([], samples, 0), []);
  assert.equal(targetRunner(STRATEGY).findServer({}), null);
  assert.equal(typeof targetRunner(OWN).findServer({ proc: { pid: 1 }, port: 1 }), 'function');
});

test('each kind is named from one row of words', () => {
  assert.equal(targetWords(STRATEGY).label(STRATEGY), 'strategy fork-pool (4 workers, p2c)');
  assert.equal(targetWords(COMMAND).label({ ...COMMAND, port: 4000, path: '/work' }), "command 'node server.js' on port 4000, path /work");
  assert.equal(targetWords(URL_TARGET).label(URL_TARGET), 'url http://127.0.0.1:4000/');
  const load = { method: 'GET', expectedBytes: null };
  assert.equal(targetWords(COMMAND).requests({ target: COMMAND, load }), 'GET requests, its own responses (bodies not checked)');
  assert.equal(targetWords(URL_TARGET).requests({ target: URL_TARGET, load }), 'GET requests');
  assert.equal(targetWords(URL_TARGET).requests({ target: URL_TARGET, load: { ...load, expectedBytes: 5 }, workload: { name: 'echo' } }), 'GET requests, bodies checked against echo');
  assert.equal(targetWords(URL_TARGET).diagnosed({ ...URL_TARGET }, ' (pid 12)'), 'url http://127.0.0.1:4000/ (pid 12)');
  assert.equal(targetWords({ ...COMMAND, url: 'http://127.0.0.1:5/' }).diagnosed({ ...COMMAND, url: 'http://127.0.0.1:5/' }, ''), "'node server.js' on http://127.0.0.1:5/");
  // A target of no known kind reads as a strategy, as the summary always worded it.
  assert.equal(targetWords({}), targetWords(STRATEGY));
});

test("a tune step sizes each kind its own way: a strategy's pool, a server's knob", () => {
  const strategyStep = stepPlan({ base: { target: STRATEGY } }, { size: 2, policy: 'round-robin' });
  assert.deepEqual(strategyStep.target, { ...STRATEGY, poolSize: 2, balance: 'round-robin' });
  const knobs = { sizeEnv: 'WORKERS', sizeArg: null, policyEnv: null, policyArg: null };
  const commandStep = stepPlan({ base: { target: COMMAND }, knobs }, { size: 3, policy: null });
  assert.equal(commandStep.target.env.WORKERS, '3');
  assert.deepEqual(commandStep.target.command, COMMAND.command);
});

/** Every `kind === 'strategy'|'command'|'url'` (and `!==`) in src/, by file. */
function kindBranches(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...kindBranches(file));
    else if (entry.name.endsWith('.js')) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/kind [!=]== '(command|strategy|url)'/.test(line)) found.push(`${path.relative(SRC, file)}:${i + 1}`);
      });
    }
  }
  return found;
}

test("a target's kind is asked only where targets are made (run-plan.js's input checks)", () => {
  const outside = kindBranches(SRC).filter((where) => !where.startsWith('plan/run-plan.js:'));
  assert.deepEqual(outside, [], 'ask targetOf() (src/base/target-kinds.js), or add a row to the runner or words table');
});
