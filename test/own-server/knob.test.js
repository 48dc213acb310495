// The size knob of a user's server, as `run -- <command>` finds it: given
// (--size-env, {size}), found in its arguments (--workers N, -w N, PM2's -i N)
// or its environment (WEB_CONCURRENCY, WORKERS, CLUSTER_WORKERS,
// UV_THREADPOOL_SIZE where its pool threads work), or seen in its process tree
// (a cluster primary with 4 workers is size 4). Pure: no process is started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findSizeKnob, givenSizeKnob, resolveSizeKnob, scriptIndex, tuneArgs } from '../../src/analysis/size-knob.js';
import { serverShape, shapeBetween, launcherName, withOtherThreads } from '../../src/analysis/server-shape.js';
import { describeSizeKnob, describeServer, knobAction } from '../../src/report/own-server.js';
import { POOL_THREADS_MATTER_PCT } from '../../src/base/thresholds.js';
import { parseEnvName } from '../../src/plan/server-command-plan.js';

const found = (command, env = {}) => findSizeKnob({ command, env });

test('flags in the arguments: long anywhere after the executable, short only after the script', () => {
  assert.equal(found(['node', 'server.js', '--workers', '3']).written, '--workers 3');
  assert.deepEqual(found(['node', 'server.js', '-w', '3']).command, ['node', 'server.js', '-w', '{size}']);
  assert.equal(found(['node', '-i', 'server.js']), null, "node's own -i (the REPL) is not a size");
  assert.equal(found(['node', '-r', './otel.js', 'server.js', '-w', '2']).value, 2, 'a runtime option with a value does not hide the script');
  assert.equal(scriptIndex(['node', '--require', 'x', '--inspect', 'app.js', '-w', '1']), 4);
  assert.equal(scriptIndex(['npm', 'start']), 0, 'not a runtime: every argument is its own');
  const pm2 = found(['pm2-runtime', 'start', 'app.js', '-i', '4']);
  assert.deepEqual(pm2, { kind: 'flag', flag: '-i', value: 4, written: '-i 4', command: ['pm2-runtime', 'start', 'app.js', '-i', '{size}'] });
  assert.equal(found(['pm2-runtime', 'start', 'app.js', '--instances=3']).command[3], '--instances={size}');
  const max = found(['pm2-runtime', 'start', 'app.js', '-i', 'max']);
  assert.equal(max.value, null, 'PM2 -i max: one per CPU, the tree tells how many');
  assert.equal(max.written, '-i max');
  assert.equal(found(['npm', 'start', '--', '--concurrency', '6']).value, 6, 'behind npm start --');
  assert.equal(found(['node', 'server.js', '--workers', 'auto']), null);
  const shell = found(['sh', '-c', 'cd app &&  node server.js --workers 3 --quiet']);
  assert.deepEqual([shell.written, shell.command], ['--workers 3', ['sh', '-c', 'cd app &&  node server.js --workers {size} --quiet']], 'inside sh -c, the line kept as written');
  assert.deepEqual(found(['bash', '-c', 'exec node s.js --workers=2']).command, ['bash', '-c', 'exec node s.js --workers={size}']);
  assert.equal(found(['sh', '-c', 'node server.js']), null);
});

test('variables in the environment: the usual names, a flag first', () => {
  assert.equal(found(['node', 's.js'], { CLUSTER_WORKERS: '5' }).written, 'CLUSTER_WORKERS=5');
  assert.equal(found(['node', 's.js'], { WEB_CONCURRENCY: '2', WORKERS: '3' }).name, 'WEB_CONCURRENCY');
  assert.equal(found(['node', 's.js', '--workers', '4'], { WEB_CONCURRENCY: '2' }).kind, 'flag');
  assert.equal(found(['node', 's.js'], { UV_THREADPOOL_SIZE: '8' }).name, 'UV_THREADPOOL_SIZE');
  assert.equal(found(['node', 's.js'], { WORKERS: 'many', PATH: '/bin' }), null);
});

/** A process of a snapshot (runner/server-tree.js's shape). */
function p(pid, ppid, extra = {}) {
  return { pid, ppid, comm: 'node', argv: ['node', 'server.js'], listens: false, clusterWorker: false, ipc: false, schedPolicy: null, poolThreads: { count: 4, cpuTicks: 0 }, ...extra };
}

test('the process tree: the listening process is the server, below its launchers; its IPC children are its workers', () => {
  // npm start → sh -c → node primary (listens) → 4 cluster workers, and an echo it runs per request.
  const tree = [
    p(10, 1, { comm: 'npm start', argv: ['node', '/usr/lib/node_modules/npm/bin/npm-cli.js', 'start'] }),
    p(11, 10, { comm: 'sh', argv: ['sh', '-c', 'node server.js'] }),
    p(12, 11, { listens: true, schedPolicy: 'none' }),
    ...[13, 14, 15, 16].map((pid) => p(pid, 12, { clusterWorker: true, ipc: true, listens: true })),
    p(17, 13, { comm: 'echo', argv: ['echo', 'hi'] }),
  ];
  const shape = serverShape(tree, { rootPid: 10 });
  assert.equal(shape.pid, 12, 'the primary, not a worker that shares its socket (policy none)');
  assert.deepEqual(shape.launchers, [{ pid: 10, name: 'npm' }, { pid: 11, name: 'sh' }]);
  assert.deepEqual(shape.workers, [13, 14, 15, 16], 'the echo is a command it runs, not a worker');
  assert.equal(shape.kind, 'cluster');
  assert.equal(shape.clusterPolicy, 'none');
  assert.equal(describeServer(shape), 'served by pid 12 (cluster primary) behind npm → sh, NODE_CLUSTER_SCHED_POLICY=none');
  assert.equal(describeServer(shape, { daemonised: true }), 'the command daemonised: its server runs in the background, outside its process group; measured pid 12 (a cluster primary), which serves the port, and ended it at the end');

  const forked = serverShape([p(20, 1, { listens: true }), p(21, 20, { ipc: true }), p(22, 20, { ipc: true }), p(23, 21, { comm: 'echo' })], { rootPid: 20 });
  assert.deepEqual([forked.kind, forked.workers, forked.launchers], ['processes', [21, 22], []]);
  // A worker caught spawning its command: the child, between fork and exec, still has the
  // worker's environment (the channel variables) and command line. Not a third worker.
  const worker = ['node', 'workers-flag.js'];
  const spawning = serverShape([
    p(24, 1, { listens: true, argv: ['node', 'workers-flag.js', '--workers', '2'] }),
    p(25, 24, { ipc: true, argv: worker }), p(26, 24, { ipc: true, argv: worker }), p(27, 25, { ipc: true, argv: worker }),
  ], { rootPid: 24 });
  assert.deepEqual(spawning.workers, [25, 26]);
  const nested = serverShape([
    p(24, 1, { listens: true, argv: ['node', 'workers-flag.js', '--workers', '2'] }),
    p(25, 24, { ipc: true, argv: worker }), p(27, 25, { ipc: true, argv: ['node', 'sub-worker.js'] }),
  ], { rootPid: 24 });
  assert.deepEqual(nested.workers, [25, 27], 'a worker forked by a worker, running its own script, still counts');
  const clusterSpawning = serverShape([p(28, 1, { listens: true }), p(29, 28, { clusterWorker: true, ipc: true }), p(30, 29, { clusterWorker: true, ipc: true })], { rootPid: 28 });
  assert.deepEqual(clusterSpawning.workers, [29], 'a cluster worker caught spawning, the same');
  const threaded = serverShape([p(30, 1, { listens: true })], { rootPid: 30, threads: 4 });
  assert.deepEqual([threaded.kind, threaded.threads], ['threads', 4]);
  // A launcher script that execs the server: one process, the same pid as the script was.
  const execd = serverShape([p(40, 1, { listens: true, argv: ['node', 'server.js'] })], { rootPid: 40 });
  assert.deepEqual([execd.pid, execd.kind, execd.launchers], [40, 'single', []]);
  assert.equal(launcherName({ comm: 'node', argv: ['node', '/x/bin/npx-cli.js', 'serve'] }), 'npx');
  assert.equal(launcherName({ comm: 'PM2 v5.4.3: God', argv: ['node', '/x/bin/pm2-runtime', 'start'] }), 'pm2-runtime');
  // The other ports the server and its workers listen on, not those of a launcher above it.
  const ported = serverShape([
    p(10, 1, { comm: 'npm start', otherPorts: [9229] }),
    p(50, 10, { listens: true, otherPorts: [4007] }),
    p(60, 50, { clusterWorker: true, ipc: true, otherPorts: [4014, 4007] }),
  ], { rootPid: 10 });
  assert.deepEqual(ported.otherPorts, [4007, 4014]);
  // Node's own watcher runs the script in a child: it was named after the script ("served by pid N behind s").
  assert.equal(launcherName({ comm: 'node', argv: ['node', '--watch', '/srv/s.js'] }), 'node --watch');
  assert.equal(launcherName({ comm: 'node', argv: ['node', '--watch-path=./src', 'app.js'] }), 'node --watch');

  // Between two snapshots: the pool threads' CPU; a server gone by the end (a crash) keeps the first.
  const sampled = [{ pid: 50, role: 'main', summary: { cpuPct: 8, otherThreads: { count: 10, cpuPct: 2 } } }, { pid: 99, role: 'main', summary: { cpuPct: 50, otherThreads: { count: 4, cpuPct: 40 } } }];
  assert.deepEqual(withOtherThreads(serverShape([p(50, 1, { listens: true, poolThreads: { count: 0, cpuTicks: 0 } })], { rootPid: 50 }), sampled).poolThreads,
    { count: 10, cpuTicks: 0, cpuPct: 2, share: 0.25, from: 'other-threads' }, "the sampler's other threads of the server's own processes only");
  const early = { tree: [p(50, 1, { listens: true, poolThreads: { count: 4, cpuTicks: 100 } })], at: 0, ticksPerSec: 100 };
  const late = { tree: [p(50, 1, { listens: true, poolThreads: { count: 4, cpuTicks: 150 } })], at: 2000, ticksPerSec: 100 };
  assert.equal(shapeBetween(early, late, { rootPid: 50 }).poolThreads.cpuPct, 25, '0.5 s of CPU in 2 s');
  const crashed = { tree: [], at: 2000, ticksPerSec: 100 };
  const clusterEarly = { tree: [p(60, 1, { listens: true }), p(61, 60, { clusterWorker: true, ipc: true })], at: 0, ticksPerSec: 100 };
  assert.deepEqual(shapeBetween(clusterEarly, crashed, { rootPid: 60 }).workers, [61]);
});

test('resolving the knob: a given one always, a found one where the tree agrees, else the size seen', () => {
  const cluster4 = { kind: 'cluster', workers: [1, 2, 3, 4], threads: 0, poolThreads: { count: 4, cpuPct: 0 } };
  const command = ['node', 'server.js'];
  const resolve = (env, shape, given = null, argv = command) => resolveSizeKnob({ given, found: findSizeKnob({ command: argv, env }), shape, command: argv });

  const fromEnv = resolve({ WORKERS: '4' }, cluster4);
  assert.deepEqual([fromEnv.source, fromEnv.name, fromEnv.size], ['environment', 'WORKERS', 4]);
  assert.deepEqual(describeSizeKnob(fromEnv), ['size 4 from WORKERS=4 in the environment; 4 cluster workers seen']);
  assert.equal(knobAction(fromEnv, 2), 'set WORKERS=2');

  const differs = resolve({ WEB_CONCURRENCY: '2' }, cluster4);
  assert.deepEqual([differs.source, differs.size, differs.ignored[0].why], ['seen', 4, 'seen-differs']);
  assert.deepEqual(describeSizeKnob(differs), ['4 cluster workers seen; no knob found', 'WEB_CONCURRENCY=2 in the environment not taken as the knob: 4 workers seen, not 2']);
  assert.equal(knobAction(differs, 2), null);

  const single = { kind: 'single', workers: [], threads: 0, poolThreads: { count: 4, cpuPct: 0 } };
  const idlePool = resolve({ UV_THREADPOOL_SIZE: '8' }, single);
  assert.deepEqual([idlePool.source, idlePool.ignored[0].why], [null, 'threadpool-idle']);
  const busyPool = resolve({ UV_THREADPOOL_SIZE: '8' }, { ...single, poolThreads: { count: 8, cpuPct: POOL_THREADS_MATTER_PCT + 30 } });
  assert.deepEqual([busyPool.source, busyPool.size], ['environment', 8]);
  // Few cores' worth, but a large share of what the server used: it matters (a loaded machine lets few requests through).
  const sharePool = resolve({ UV_THREADPOOL_SIZE: '4' }, { ...single, poolThreads: { count: 10, cpuPct: 2.1, share: 0.26 } });
  assert.equal(sharePool.source, 'environment');
  assert.match(describeSizeKnob(resolve({ UV_THREADPOOL_SIZE: '4' }, { ...single, poolThreads: { count: 10, cpuPct: 0.14, share: 0.02 } }))[1],
    /^UV_THREADPOOL_SIZE=4 in the environment not taken as the knob: libuv's pool threads did no work to speak of \(0% of a core, 2% of the server's CPU\)/);

  const flag = resolve({}, { ...cluster4, kind: 'processes', workers: [1, 2, 3] }, null, ['node', 'server.js', '--workers', '3']);
  assert.deepEqual([flag.source, flag.size, flag.command], ['command', 3, ['node', 'server.js', '--workers', '{size}']]);
  assert.deepEqual(describeSizeKnob(flag), ['size 3 from --workers 3 in its arguments; 3 worker processes seen']);
  assert.equal(knobAction(flag, 2), 'start it with --workers 2');
  const pm2max = resolve({}, cluster4, null, ['pm2-runtime', 'start', 'app.js', '-i', 'max']);
  assert.deepEqual([pm2max.source, pm2max.size], ['command', 4], 'the tree tells what -i max was');

  const given = givenSizeKnob({ sizeEnv: 'WORKERS', sizeArg: false, size: null, command, env: { WORKERS: '4' } });
  const fromGiven = resolve({ WORKERS: '4' }, cluster4, given);
  assert.deepEqual([fromGiven.source, fromGiven.size], ['given', 4]);
  assert.deepEqual(describeSizeKnob(fromGiven), ['size 4 from --size-env WORKERS (WORKERS=4); 4 cluster workers seen']);
  const placeholder = givenSizeKnob({ sizeEnv: null, sizeArg: true, size: 3, command: ['node', 's.js', '--procs', '{size}'], env: {} });
  assert.deepEqual(resolveSizeKnob({ given: placeholder, found: null, shape: null, command: placeholder.command }).command, ['node', 's.js', '--procs', '{size}']);
  assert.deepEqual(describeSizeKnob(resolve({}, single)), ['one process seen (no workers); no knob found']);
});

test('the tune that confirms: the knob as --size-env or {size}, the sizes, the load and the target as run had them', () => {
  const knob = found(['node', 's.js', '-w', '3']);
  assert.deepEqual(
    tuneArgs(knob, { port: null, path: '/api' }, { method: 'GET', headers: {}, body: null }, { sizes: [2, 3, 4], connections: 30, policyEnv: 'NODE_CLUSTER_SCHED_POLICY', policies: ['none', 'rr'] }),
    ['tune', '--sizes', '2,3,4', '--policy-env', 'NODE_CLUSTER_SCHED_POLICY', '--balance-policies', 'none,rr', '-c', '30', '--path', '/api', '--', 'node', 's.js', '-w', '{size}'],
  );
});

test('a knob variable the command needs to start (PATH, HOME, …) is refused before the run, saying why', () => {
  assert.equal(parseEnvName('WORKERS', '--size-env'), 'WORKERS');
  // tune --size-env PATH set PATH to 1, and the command failed with "spawn node ENOENT".
  for (const name of ['PATH', 'HOME', 'LD_PRELOAD']) {
    assert.throws(() => parseEnvName(name, '--size-env'), new RegExp(`^UsageError: --size-env ${name}: that would replace the server's ${name} with a size or policy; use the variable your server reads`), name);
  }
  assert.throws(() => parseEnvName('PATH', '--policy-env'), /--policy-env PATH: that would replace/);
});
