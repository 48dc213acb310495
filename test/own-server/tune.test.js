// tune on a user's own server, through the CLI: the size through an environment
// variable and through {size} in its arguments, a policy through {policy}, a step
// whose server will not start, every step failing, and nothing left running.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, fixture, QUICK, assertNothingLeft } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'spawnbench-own-tune-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('tune --size-env WORKERS --json -- node <cluster fixture>: a size, and the policy stated as not tuned', async () => {
  const { code, out, err } = await cli('tune', '--sizes', '1,2', '--repeat', '1', '--size-env', 'WORKERS', '--json', ...QUICK, '--', process.execPath, fixture('cluster-env'));
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  assert.equal(result.kind, 'tune');
  assert.deepEqual(result.steps.map((s) => [s.size, s.policy]), [[1, null], [2, null]]);
  assert.ok(result.steps.every((s) => s.rps > 0 && s.errors === 0 && !s.failed), JSON.stringify(result.steps));
  assert.ok([1, 2].includes(result.recommendation.size));
  assert.equal(result.recommendation.policy, null);
  assert.equal(result.recommendation.policyReason, 'no-policy-knob');
  assert.ok(result.recommendation.reasons.includes('policy-not-tuned'));
  assert.deepEqual(result.plan.knobs, { sizeEnv: 'WORKERS', sizeArg: false, policyEnv: null, policyArg: false });
  // The probe saw the cluster's workers: as many as the recommended size, beside the primary.
  const workers = result.processes.rows.filter((r) => r.role !== 'main');
  assert.equal(workers.length, result.recommendation.size, JSON.stringify(result.processes.rows));
  assert.ok(workers.every((w) => w.spawnsPerSec > 0), 'each worker spawned');
  await assertNothingLeft({ pids: result.steps.map((s) => s.pid), marker: fixture('cluster-env') });
});

// One sweep for both: size 100 is refused by the fixture at start, after sizes 1 and 2 were measured.
test('tune --sizes 1,2,100 --json -- node <fixture> --workers {size}: the size through its arguments; a step whose server exits at start is marked failed with its stderr, and the sweep goes on', async () => {
  const { code, out, err } = await cli('tune', '--sizes', '1,2,100', '--repeat', '1', '--json', ...QUICK, '--', process.execPath, fixture('workers-flag'), '--workers', '{size}');
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  assert.deepEqual(result.steps.map((s) => s.size), [1, 2, 100]);
  const [, , failed] = result.steps;
  const ok = result.steps.slice(0, 2);
  assert.ok(ok.every((s) => s.rps > 0 && s.errors === 0 && !s.failed), JSON.stringify(result.steps));
  assert.match(failed.failed, /'.*workers-flag\.js --workers 100' exited with code 2 before it was ready; its stderr ends:\nworkers-flag: --workers must be a whole number from 1 to 32, not '100'/);
  assert.match(err, /tune pool 100 \(own\): failed \(.*exited with code 2/);
  assert.ok([1, 2].includes(result.recommendation.size), 'a size that was measured, never the failed one');
  assert.equal(result.recommendation.policy, null);
  assert.equal(result.recommendation.policyReason, 'no-policy-knob');
  // The forked workers, as many as the recommended size, each with its share of the spawns.
  const workers = result.processes.rows.filter((r) => r.role !== 'main');
  assert.equal(workers.length, result.recommendation.size);
  assert.ok(workers.every((w) => w.spawnsPerSec > 0));
  await assertNothingLeft({ pids: ok.map((s) => s.pid), marker: fixture('workers-flag') });
});

test('tune -- … --balance {policy} with --balance-policies: a policy is chosen; the text shows the process table and balance', async () => {
  const out = join(dir, 'policy.json');
  const { code, out: text, err } = await cli(
    'tune', '--sizes', '2', '--repeat', '1', '--balance-policies', 'round-robin,first-free', ...QUICK, '--out', out,
    '--', process.execPath, fixture('workers-flag'), '--workers', '{size}', '--balance', '{policy}',
  );
  assert.equal(code, 0, err);
  assert.match(err, /tune pool 2 round-robin: [\d,]+ rps/);
  assert.match(err, /tune pool 2 first-free: [\d,]+ rps/);
  assert.match(text, /^spawnbench tune · command '.*workers-flag\.js --workers \{size\} --balance \{policy\}' · size via \{size\} · policy via \{policy\} · closed loop, 4 connections, 1s \(up to 1m for enough responses\) after 300ms warm-up per step · sizes 2 × 2 policies × 1 repeat, exhaustive/);
  // Per size: the balance, then how many workers were seen and how busy, and the main thread's busy share.
  assert.match(text, /\npool +policy +req\/s \(min–max\) +p99 ms \(min–max\) +errors +busiest +workers busy +main\n +2 +round-robin +[\d,]+ +[\d.,]+ +0 +\d\.\d\d× +2 × \d+% +\d+%/);
  assert.match(text, /Recommendation\n {2}Use 2 workers with (round-robin|first-free): [\d,]+ req\/s/);
  assert.match(text, /Your server's processes at size 2, (round-robin|first-free) \(repeat 1\)\nprocess +spawns\/s +blocked in spawn +ELU +CPU\nmain, pid \d+ +\d+ /);
  assert.match(text, /\n(Even: the busiest worker \(pid \d+\) did \d+% of the workers' spawns|Lopsided: pid \d+ did \d+% of the workers' spawns)/);
  assert.doesNotMatch(text, /Policy not tuned/);
  assert.equal((await cli('report', out)).out, `${text}`, 'report prints the same text from the file');
  const result = JSON.parse(readFileSync(out, 'utf8'));
  assert.ok(['round-robin', 'first-free'].includes(result.recommendation.policy));
  assert.equal(result.recommendation.policyReason, undefined);
  await assertNothingLeft({ pids: result.steps.map((s) => s.pid), marker: fixture('workers-flag') });
});

test('every step failing: exit 1 with the first step\'s reason', async () => {
  const { code, out, err } = await cli('tune', '--sizes', '40,50', '--repeat', '1', ...QUICK, '--', process.execPath, fixture('workers-flag'), '--workers', '{size}');
  assert.equal(code, 1);
  assert.equal(out, '');
  assert.match(err, /\nspawnbench: '.*workers-flag\.js --workers 40' exited with code 2 before it was ready; its stderr ends:\nworkers-flag: --workers must be a whole number from 1 to 32, not '40'\n$/);
  assert.doesNotMatch(err, /\n\s+at /, 'no stack');
  await assertNothingLeft({ marker: fixture('workers-flag') });
});

test('a server that never listens: the step fails with the readiness reason', async () => {
  const { code, err } = await cli('tune', '--sizes', '1', '--repeat', '1', '--size-env', 'WORKERS', '--ready-timeout', '1s', ...QUICK, '--', process.execPath, fixture('never-listens'));
  assert.equal(code, 1);
  assert.match(err, /spawnbench: '.*never-listens\.js' did not accept connections on port \d+ \(given to it as PORT\) within 1s; nothing it started listens on any port yet: if it starts slowly, give it a longer --ready-timeout \(now 1s\); if it listens on a fixed port, pass --port N\n$/);
  await assertNothingLeft({ marker: fixture('never-listens') });
});
