// A server that restarts itself (fixtures/servers/restarts.js: a nodemon-like parent that
// ends its child every 1.5 s and starts another on the same port). The connects refused
// between two children are spawnbench's own, to the server under test: diagnose and run
// say the server refused them and name the restarts (pid A → B → C), never "the downstream
// refuses"; the sampler follows the server to each new child (the one that listens), and
// a replaced child is no second worker of a pool. Every process is gone afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnCli, fixtureServer } from '../helpers/harness.js';
import { assertNothingLeft } from './helpers.js';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';

const server = fixtureServer('restarts');
// An open loop: each request due while nothing listens is a refused connect (a closed loop's
// connections stay open across most of a restart and would make few). 4 s holds two restarts or more
// on a quiet machine; on a loaded one a child may start so late that it is replaced before it listens,
// and only the restarts of children that listened are seen: one at least.
const ARGS = ['-d', '4s', '-w', '500ms', '-r', '100', '-c', '20', '--json'];
const env = { ...process.env, CI: 'true', RESTART_EVERY_MS: '1200', RESTART_DELAY_MS: '300' };

/** The pids of the restarts in order, as the chain the words give. */
const chain = (restarts) => [restarts[0].from, ...restarts.map((r) => r.to)];
/** "1 time", "2 times": the count as the words give it (a loaded machine may see one restart only). */
const times = (restarts) => `${restarts.length} time${restarts.length === 1 ? '' : 's'}`;

test('diagnose: a server that restarts itself refuses the connects; the restarts are named, no downstream, no pool', async () => {
  const { code, out, err } = await spawnCli(['diagnose', ...ARGS, '--', process.execPath, server], { env });
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  const { verdict, findings } = result.diagnosis;
  const restarts = result.samples.serverRestarts;
  assert.ok(restarts.length >= 1, `the restarts were seen: ${JSON.stringify(restarts)}`);
  assert.equal(verdict.id, 'target-refuses', JSON.stringify(result.diagnosis));
  assert.equal(verdict.figures.restarts, restarts.length);
  assert.match(verdict.title, new RegExp(`the server refuses connections: .*'ECONNREFUSED'; the server restarted ${times(restarts)}: pid ${chain(restarts).join(' → ')}`));
  assert.doesNotMatch(JSON.stringify(result.diagnosis), /downstream refuses|PgBouncer|pool is the limit|worker processes/);
  assert.ok(!findings.some((f) => f.id === 'downstream-refuses' || f.id === 'pool-limited'), JSON.stringify(findings.map((f) => f.id)));
  // The server is followed: the process that listens at the end is the main one; those it replaced are not workers.
  const main = result.samples.processes.filter((p) => p.role === 'main');
  assert.deepEqual(main.map((p) => p.pid), [restarts.at(-1).to]);
  assert.ok(!result.samples.processes.some((p) => p.role === 'worker'), JSON.stringify(result.samples.processes.map((p) => [p.pid, p.role])));
  // Those replaced that were sampled are 'replaced' (on a loaded machine a child may be replaced between two samples).
  const replaced = result.samples.processes.filter((p) => p.role === 'replaced').map((p) => p.pid);
  assert.ok(replaced.length > 0 && replaced.every((pid) => restarts.some((r) => r.from === pid)), JSON.stringify({ replaced, restarts }));
  assert.ok(!result.target.launchers.some((l) => l.pid === result.mainThread?.pid), `the main thread measured is the server's, not its launcher's: ${result.mainThread?.pid}`);
  await assertNothingLeft({ pids: [result.target.leaderPid], marker: server, seen: new Set(chain(restarts)) });
});

test('run: the refusals are the server\'s and its restarts are named; a replaced child is no second worker', async () => {
  const { code, out, err } = await spawnCli(['run', ...ARGS, '--', process.execPath, server], { env });
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  const restarts = result.samples.serverRestarts;
  assert.ok(restarts.length >= 1, `the restarts were seen: ${JSON.stringify(restarts)}`);
  const why = result.recommendation.reasons.find((r) => r.id === 'errors-why');
  assert.equal(why.figures.refusal, null, 'no downstream refused anything');
  assert.deepEqual([why.figures.targetRefusal.restarts, why.figures.targetRefusal.pids], [restarts.length, chain(restarts)]);
  const words = adviceParagraphs(result.recommendation).join(' ');
  assert.match(words, new RegExp(`server refusing spawnbench's connects .*The server restarted ${times(restarts)}: pid ${chain(restarts).join(' → ')}`));
  assert.doesNotMatch(words, /downstream refusing|Fewer workers/);
  // The tree is read as the measured phase starts and ends, maybe between two children: one of the children
  // (the one that served as the measured phase began may have been replaced before the first sample), never the launcher.
  assert.deepEqual(result.server.launchers.map((l) => l.name), ['restarts']);
  assert.ok(!result.server.launchers.some((l) => l.pid === result.server.pid), 'the server is a child, not the launcher');
  assert.deepEqual([result.server.kind, result.server.workers], ['single', []]);
  await assertNothingLeft({ pids: [result.target.leaderPid], marker: server, seen: new Set(chain(restarts)) });
});

test('run: a server that dies on the connect that found it ready, and is restarted by its launcher, is waited for, not taken for a daemon', async () => {
  // The readiness connect ends the first child; for RESTART_DELAY_MS nothing of the group listens.
  const quiet = { ...env, RESTART_ON_CONNECT: '1', RESTART_EVERY_MS: '600000', RESTART_DELAY_MS: '500' };
  const { code, out, err } = await spawnCli(['run', '-d', '1s', '-w', '200ms', '-c', '2', '--json', '--', process.execPath, server], { env: quiet });
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  assert.equal(result.target.daemonised, false, 'no daemon');
  assert.deepEqual(result.server.launchers.map((l) => l.name), ['restarts']);
  // Served by the new child; a few connects may be refused if the load began while the first child, exiting,
  // still held the port (a fresh-clone run: 4), and those are the server's refusals, counted as such.
  assert.ok(result.load.requests > 0 && result.load.errors.total === result.load.errors.connect, JSON.stringify(result.load.errors));
  await assertNothingLeft({ pids: [result.target.leaderPid], marker: server });
});
