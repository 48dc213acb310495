// Shares the machine with other test files: what it asserts holds under their load (sizes fail by
// PostgreSQL's max_connections, not by time; postgres at 0.25-0.6 of a core stays among the CPU users
// named beside two busy loops), and its load in test/durations.json counts postgres's CPU, which the
// file does not wait for (pg_ctl puts it in the background).
/**
 * End to end against a real PostgreSQL: the node:cluster example over pg
 * (examples/pg-cluster/), a cluster of the test's own with max_connections 18, so
 * that 3 workers × a pool of 10 exceed it by far, and 2 × 10 may or may not (at 25, and then at 22, three
 * pools on Node 26 once held no more than it between them and none was refused, in fresh-clone CI runs:
 * a pool opens a connection only when a query waits for one). tune recommends a size that works, says
 * why the larger sizes failed in PostgreSQL's own words, does not ask for larger
 * pools, names postgres among the CPU users and keeps the downstream connections
 * per size; `WORKERS=4 diagnose` quotes the database and names the downstream.
 * No mock: without PostgreSQL the test says what to install (and fails in CI,
 * whose .ci/run installs it).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, spawnCli } from '../helpers/harness.js';
import { postgresMissing, startPostgres } from '../helpers/postgres.js';
import { readStat } from '../../src/sample/proc.js';
import { processesMatching } from '../helpers/processes.js';

const API = join(ROOT, 'examples/pg-cluster/api.js');
const missing = postgresMissing();
if (missing && process.env.CI && process.env.CI !== '0' && process.env.CI !== 'false') {
  throw new Error(`${missing}: CI must run this test (.ci/run installs PostgreSQL)`);
}
const skip = missing ? `${missing}` : false;

let pg = null;
let env = null;
before(async () => {
  if (skip) return;
  pg = await startPostgres({ maxConnections: 18 });
  env = { ...process.env, ...pg.env };
  execFileSync(process.execPath, [API, '--setup'], { env, stdio: 'pipe', timeout: 60_000 });
});

after(() => {
  if (!pg) return;
  const { pid, socketDir } = pg;
  pg.stop();
  // Gone, or a zombie waiting for init (pg_ctl daemonised it): not running either way.
  assert.ok(['gone', 'Z'].includes(readStat(pid)?.state ?? 'gone'), `postmaster ${pid} still running`);
  assert.equal(existsSync(socketDir), false, `${socketDir} left behind`);
  assert.deepEqual(processesMatching(API), [], 'an example process outlived spawnbench');
});

const load = ['-d', '2s', '-w', '1s', '-c', '60', '--json'];

test('tune on the database example: a size that works, why the larger failed, no call for larger pools', { skip }, async (t) => {
  const { code, out, err } = await spawnCli(['tune', '--sizes', '1,2,3', '--repeat', '1', ...load, '--size-env', 'WORKERS', '--', 'node', API], { env, timeoutMs: 240_000 });
  assert.equal(code, 0, err.slice(-2000));
  const result = JSON.parse(out);
  const rec = result.recommendation;
  const postgresCores = (x) => x.users.find((u) => u.name === 'postgres')?.cores ?? 0;
  t.diagnostic(`size ${rec.size}; ${result.steps.map((s) => `${s.size}: ${Math.round(s.rps)} rps, ${s.errors} errors`).join('; ')}; postgres ${result.otherUsersBySize.map((x) => `${postgresCores(x)}`).join('/')} cores`);
  const dump = JSON.stringify({ sentences: rec.sentences, steps: result.steps.map((s) => ({ size: s.size, errors: s.errors, errorTexts: s.errorTexts, downstreams: s.downstreams })) }, null, 1);
  assert.ok([1, 2].includes(rec.size), dump);
  assert.ok(!rec.reasons.includes('still-rising'), dump);
  assert.doesNotMatch(rec.sentences.join('\n'), /still rising|measure larger pools/, dump);
  const three = rec.basis.failedSizes.find((f) => f.size === 3);
  assert.ok(three, dump);
  assert.equal(three.status, 500, dump);
  assert.match(three.text, /too many clients already/, dump);
  assert.match(rec.sentences.join('\n'), /^3 workers: 500 ×[\d,]+ 'sorry, too many clients already'.*postgres \(127\.0\.0\.1:\d+\)/m, dump);
  // Downstream connections per size, in --json: one pool of up to 10 per worker.
  const peer = `127.0.0.1:${pg.port}`;
  for (const size of [1, 2, 3]) {
    const at = result.downstreamsBySize.find((x) => x.size === size)?.downstreams.find((d) => d.peer === peer);
    assert.ok(at, `size ${size}: ${dump}`);
    assert.equal(at.name, 'postgres');
    assert.ok(at.connections >= 1 && at.connections <= 10 * size + 2, `size ${size}: ${at.connections} connections`);
  }
  assert.ok(result.steps.every((s) => Array.isArray(s.downstreams)), 'each step keeps its downstreams');
  // postgres among the other CPU users (its backends ran three queries a request).
  assert.ok(result.otherUsersBySize.some((x) => x.users.some((u) => u.name === 'postgres')), JSON.stringify(result.otherUsersBySize));
});

test('WORKERS=4 diagnose on the database example quotes PostgreSQL and names the downstream', { skip }, async () => {
  const { code, out, err } = await spawnCli(['diagnose', ...load, '--', 'node', API], { env: { ...env, WORKERS: '4' }, timeoutMs: 120_000 });
  assert.equal(code, 0, err.slice(-2000));
  const result = JSON.parse(out);
  const { verdict } = result.diagnosis;
  assert.equal(verdict.id, 'downstream-refuses', JSON.stringify(result.diagnosis, null, 1).slice(0, 3000));
  assert.match(verdict.title, /the downstream refuses: .* 'sorry, too many clients already'/);
  assert.equal(verdict.where, `127.0.0.1:${pg.port}`, JSON.stringify({ downstreams: result.samples?.downstreams ?? null, processes: (result.samples?.processes ?? []).map((p) => [p.pid, p.role, p.label]) }));
  assert.match(verdict.evidence.join('\n'), /connections to postgres \(127\.0\.0\.1:\d+\) at once/);
  assert.ok(result.load.errorTexts[0].texts[0].text.includes('too many clients already'));
  assert.ok(result.serverStderr.lines.some((l) => l.text.includes('too many clients already')), JSON.stringify(result.serverStderr));
  assert.ok(result.samples.downstreams.some((d) => d.name === 'postgres' && d.peer === `127.0.0.1:${pg.port}`));
});
