/**
 * The node:cluster primary of `spawnbench tune --processes N -- node [node-flags] <script> [args]`,
 * as PM2's cluster mode runs an unchanged server: started as
 * `node [node-flags] cluster-primary.js <script> [args]` with SPAWNBENCH_PROCESSES=N, it
 * forks N workers, each of which runs the user's script as its own main module (CommonJS or
 * ESM, as `node <script>` would), with the same node flags and environment (the probe's
 * NODE_OPTIONS included). The server's own `listen(port)`, PORT or a fixed port, is shared
 * by node:cluster. The primary forwards the stop signals to its workers and exits once they
 * are gone; a worker that dies takes the server down, with a line on stderr saying which, so
 * a step never measures fewer processes than it names. Node built-ins only: this file runs
 * inside the user's server, not in spawnbench.
 */
import cluster from 'node:cluster';
import { resolve } from 'node:path';

/** The variable tune sets to the step's size (src/tune/process-sweep.js names it too: this file is run, never imported). */
const PROCESSES_ENV = 'SPAWNBENCH_PROCESSES';

if (cluster.isPrimary) runPrimary();

function runPrimary() {
  const count = Number(process.env[PROCESSES_ENV]);
  const [script, ...args] = process.argv.slice(2);
  if (!script || !Number.isInteger(count) || count < 1) {
    process.stderr.write(`spawnbench cluster: needs ${PROCESSES_ENV} (a whole number ≥ 1) and a script, got ${PROCESSES_ENV}=${process.env[PROCESSES_ENV] ?? ''} and '${script ?? ''}'\n`);
    process.exit(2);
  }
  cluster.setupPrimary({ exec: resolve(script), args });
  let stopping = false;
  for (let i = 0; i < count; i++) cluster.fork();

  const stop = (signal) => {
    stopping = true;
    for (const worker of Object.values(cluster.workers)) worker.process.kill(signal);
    // The last worker gone already (a pool of one whose worker died): the exit code it left, not a clean 0.
    if (Object.keys(cluster.workers).length === 0) process.exit(process.exitCode ?? 0);
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => stop(signal));

  cluster.on('exit', (worker, code, signal) => {
    if (!stopping) {
      // One worker fewer would measure N−1 processes under N's name: the server goes down instead.
      process.stderr.write(`spawnbench cluster: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); stopping the others\n`);
      process.exitCode = code || 1;
      stop('SIGTERM');
      return;
    }
    if (Object.keys(cluster.workers).length === 0) process.exit(process.exitCode ?? 0);
  });
}
