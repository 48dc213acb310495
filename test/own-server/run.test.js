// `run -- <command>` end to end on the fixture servers: the server started as
// tune and diagnose start it, its knob found where it is (the environment, its
// arguments, behind a script that execs), its shape seen in its process tree,
// a recommendation in --json whose confirm command tune accepts as printed,
// and nothing of it left at the end.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli, ROOT } from '../helpers/harness.js';
import { fixture, assertNothingLeft } from './helpers.js';

/** Short runs: what is checked is the knob, the shape and the advice's form, not its figures. */
const QUICK = ['-d', '2s', '-w', '500ms', '-c', '6'];
/**
 * The same at a low open-loop rate, where nothing read needs the server full (the knob, the shape, the
 * advice's form and its confirm command): each request of these fixtures spawns a process, and a closed
 * loop kept both cores busy for the whole run.
 */
const LIGHT = [...QUICK, '--rate', '20'];
const dir = mkdtempSync(join(tmpdir(), 'spawnbench-own-run-e2e-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const env = (extra) => ({ ...process.env, CI: 'true', ...extra });

/** The recommendation's JSON contract on a user's server. */
function assertAdvice(rec) {
  for (const key of ['size', 'policy', 'strategy', 'basis', 'confidence', 'reasons', 'confirmWith', 'estimate', 'knob']) assert.ok(key in rec, `${key} in the recommendation`);
  assert.ok(rec.reasons.length > 0);
  assert.equal(rec.strategy, null);
}

test('a node:cluster server sized by WORKERS in the environment: the knob found, 3 workers seen, the summary says so', async () => {
  const out = join(dir, 'cluster.json');
  const { code, out: text, err } = await spawnCli(['run', ...LIGHT, '--out', out, '--', process.execPath, fixture('cluster-env')], { env: env({ WORKERS: '3' }) });
  assert.equal(code, 0, err);
  const result = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(result.target.kind, 'command');
  assert.deepEqual([result.sizeKnob.source, result.sizeKnob.name, result.sizeKnob.size], ['environment', 'WORKERS', 3]);
  assert.deepEqual([result.server.kind, result.server.workers.length, result.server.pid], ['cluster', 3, result.target.pid]);
  assert.equal(result.samples.processes.filter((p) => result.server.workers.includes(p.pid)).length, 3, 'the probe reported from each worker');
  assertAdvice(result.recommendation);
  const argv = result.recommendation.confirmWith.argv;
  assert.equal(argv[argv.indexOf('--size-env') + 1], 'WORKERS');
  assert.deepEqual(argv.slice(-3), ['--', process.execPath, fixture('cluster-env')]);
  assert.match(text, /^spawnbench run · command '.*cluster-env\.js'$/m);
  assert.match(text, /^size 3 from WORKERS=3 in the environment; 3 cluster workers seen$/m);
  assert.match(text, /^served by pid \d+ \(cluster primary\)/m);
  assert.match(text, /^Recommendation$/m);
  await assertNothingLeft({ pids: [result.target.pid], marker: fixture('cluster-env') });
});

test('a single process: no workers seen, no knob, a recommendation about a pool all the same', async () => {
  const { code, out, err } = await spawnCli(['run', ...QUICK, '--json', '--', process.execPath, fixture('spawn-per-request')], { env: env({}) });
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  assert.deepEqual([result.server.kind, result.server.workers, result.sizeKnob.source], ['single', [], null]);
  assertAdvice(result.recommendation);
  // No knob to sweep: nothing to confirm, except where one run cannot size it, which proposes the process
  // count that needs no knob (tune --processes: the server's own command in node:cluster workers): a run too
  // short, or cores full with other processes' work (a loaded machine), where a pool's gain cannot be priced.
  const cannotSize = result.recommendation.reasons.some((r) => r.id === 'too-short' || (r.id === 'no-gain-expected' && r.figures.sharedCores != null));
  if (cannotSize) assert.deepEqual(result.recommendation.confirmWith?.argv.slice(0, 2), ['tune', '--processes']);
  else assert.equal(result.recommendation.confirmWith, null, `nothing to sweep without a knob: ${JSON.stringify(result.recommendation.reasons)}`);
  await assertNothingLeft({ pids: [result.target.pid], marker: fixture('spawn-per-request') });
});

test('a launcher script that execs the server: the server is the script\'s own pid, its workers seen below it', async () => {
  const script = join(ROOT, 'fixtures/servers/exec-launcher.sh');
  // An open loop at a low rate: who serves is checked, not how much (no advice read).
  const { code, out, err } = await spawnCli(['run', ...QUICK, '--rate', '20', '--json', '--', script], { env: env({ WORKERS: '2' }) });
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  assert.equal(result.server.pid, result.target.pid, 'exec: no shell left in between');
  assert.deepEqual([result.server.launchers, result.server.kind, result.server.workers.length], [[], 'cluster', 2]);
  assert.deepEqual([result.sizeKnob.source, result.sizeKnob.size], ['environment', 2]);
  await assertNothingLeft({ pids: [result.target.pid], marker: fixture('cluster-env') });
});

// One test, so that the --against run (the default command, no 'run') is also the one whose knob and confirm are read.
test('--out, --html, --assert, report <file> and --against work on a run of your own server as on a strategy run; spawnbench -- <command> (the default command) on --workers 2: the knob found in its arguments, its confirm runs', async () => {
  const saved = join(dir, 'own.json');
  const html = join(dir, 'own.html');
  const server = ['--', process.execPath, fixture('workers-flag'), '--workers', '2'];
  const first = await spawnCli(['run', ...LIGHT, '--out', saved, '--html', html, '--assert', 'errors=0', ...server], { env: env({}) });
  assert.equal(first.code, 0, first.err);
  assert.match(first.err + first.out, /errors=0/, 'the assertion is reported');
  const page = readFileSync(html, 'utf8');
  assert.match(page, /size 2 from --workers 2 in its arguments/);
  assert.match(page, /Recommendation/);
  const report = await spawnCli(['report', saved], { env: env({}) });
  assert.equal(report.code, 0, report.err);
  assert.match(report.out, /^size 2 from --workers 2 in its arguments; 2 worker processes seen$/m);
  assert.match(report.out.replace(/ \\\n\s*/g, ' '), /spawnbench tune --sizes [\d,]+ --rate 20 -c 6 (-d \S+ )?-- \S+ \S+workers-flag\.js --workers '\{size\}'/, 'the confirm command, its lines joined (with the -d its latency needs on a loaded machine)');
  // The default command: no 'run' before the options.
  const again = await spawnCli([...LIGHT, '--json', '--against', saved, '--assert', 'p99<60s', ...server], { env: env({}) });
  assert.equal(again.code, 0, again.err);
  const result = JSON.parse(again.out);
  assert.equal(result.against.id, 'against');
  assert.ok(result.against.deltas.some((d) => d.metric === 'rps'), JSON.stringify(result.against.deltas));
  assert.deepEqual(result.assertions.map((a) => [a.expr, a.pass]), [['p99<60s', true]]);
  assert.equal(result.plan.command, 'run');
  assert.deepEqual([result.sizeKnob.source, result.sizeKnob.written, result.sizeKnob.size], ['command', '--workers 2', 2]);
  assert.deepEqual([result.server.kind, result.server.workers.length], ['processes', 2]);
  const rec = result.recommendation;
  assertAdvice(rec);
  assert.deepEqual(rec.confirmWith.argv.slice(-3), [fixture('workers-flag'), '--workers', '{size}']);
  await assertNothingLeft({ pids: [result.target.leaderPid, result.target.pid], marker: fixture('workers-flag') });

  // The confirm command as printed, made short: the same argv with one size, one repeat, a short step.
  const argv = [...rec.confirmWith.argv];
  // An open loop: tune accepting the command and measuring a step is checked, not the step's figures. At 70 req/s
  // the step runs on to ~3 s for tune's 200 responses (at 20 req/s, to 10 s); one worker served ~110 req/s on a
  // loaded machine, and a rate above what it serves would grow its p99 and run the step on to tune's 1 m.
  argv.splice(argv.indexOf('--'), 0, '--sizes', '1', '--repeat', '1', '-d', '2s', '-w', '500ms', '--rate', '70', '--json');
  const tune = await spawnCli(argv, { env: env({}) });
  assert.equal(tune.code, 0, tune.err);
  const swept = JSON.parse(tune.out);
  assert.deepEqual(swept.steps.map((s) => [s.size, s.failed ?? false]), [[1, false]]);
  assert.ok(swept.steps[0].requests > 0);
  await assertNothingLeft({ pids: swept.steps.map((s) => s.pid), marker: fixture('workers-flag') });
});
