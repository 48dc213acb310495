/**
 * The strategy side of the contract in strategies/README.md: read the config,
 * announce readiness, exit cleanly when spawnbench says so or goes away.
 */
import { availableParallelism } from 'node:os';

/**
 * The config spawnbench hands a strategy in SPAWNBENCH_STRATEGY_CONFIG (JSON): the one
 * contract both sides use (src/runner/run-engine.js builds it with this type).
 * @typedef {object} StrategyConfig
 * @property {string} host address to listen on
 * @property {number} port port to listen on (0: any free one, reported in the ready line)
 * @property {string} command the command run per request
 * @property {string[]} args its arguments
 * @property {number} poolSize workers, for pool strategies
 * @property {'random'|'round-robin'|'least-requests'|'p2c'} balance the balancing policy
 * @property {string} workerRuntime path of the runtime forked workers run on
 * @property {string} [workerRuntimeKind] node|bun|deno; absent: lib/fork.js derives it from the file name
 * @property {string[]|null} workerExecArgv the workers' runtime flags; null: lib/fork.js derives them
 * @property {number} seed seed of the random and p2c balancers
 * @property {string} [tempDir] a directory of the run's own, removed by spawnbench (comm-channel's socket files)
 */

/**
 * Reads SPAWNBENCH_STRATEGY_CONFIG. Strategies started by hand (for reading and
 * experimenting) fall back to echo hi on a free port.
 * @returns {StrategyConfig}
 */
export function readConfig() {
  const raw = process.env.SPAWNBENCH_STRATEGY_CONFIG;
  const config = raw ? JSON.parse(raw) : {};
  return {
    host: '127.0.0.1',
    port: 0,
    command: 'echo',
    args: ['hi'],
    poolSize: availableParallelism(),
    balance: 'round-robin',
    workerRuntime: process.execPath,
    workerExecArgv: null,
    seed: 1,
    ...config,
  };
}

/** Prints one line spawnbench reads (a JSON object with a `spawnbench` field). */
export function report(type, fields) {
  process.stdout.write(`${JSON.stringify({ spawnbench: type, ...fields })}\n`);
}

/**
 * Says the server is listening, and arranges to stop on SIGTERM, SIGINT, or when
 * stdin closes (the parent is gone: no orphan keeps serving).
 * @param {{ address: () => unknown, close: () => unknown, closeAllConnections?: () => void }} server a net or
 *   http server, or a stand-in that reports a port it does not own (reuse-port)
 * @param {() => (void|Promise<void>)} [stopExtra] stops what the strategy started (workers)
 */
export function announceReady(server, stopExtra = () => {}) {
  // Handlers first: spawnbench may send SIGTERM the moment it reads the ready line.
  onStop(async () => {
    server.close();
    server.closeAllConnections?.();
    await stopExtra();
  });
  report('ready', { port: /** @type {import('node:net').AddressInfo} */ (server.address()).port });
}

/**
 * Runs `stop` once on SIGTERM, SIGINT, or when stdin closes while started by
 * spawnbench, then exits 0 (1 if stop throws).
 * @param {() => (void|Promise<void>)} stop
 */
export function onStop(stop) {
  let stopping = false;
  const run = async () => {
    if (stopping) return;
    stopping = true;
    let code = 0;
    try {
      await stop();
    } catch (error) {
      process.stderr.write(`stopping failed: ${error.message}\n`);
      code = 1;
    }
    process.exit(code);
  };
  process.on('SIGTERM', run);
  process.on('SIGINT', run);
  if (process.env.SPAWNBENCH_STRATEGY_CONFIG) {
    process.stdin.on('end', run);
    process.stdin.on('error', run);
    process.stdin.resume();
  }
}

/**
 * A failure the strategy cannot serve through (a worker runtime that cannot start):
 * one line on stderr for spawnbench's error message, then exit 1.
 * @param {() => (void|Promise<void>)} [cleanup]
 */
export function failAndExit(cleanup = () => {}) {
  return async (error) => {
    process.stderr.write(`${error.message}\n`);
    try {
      await cleanup();
    } finally {
      process.exit(1);
    }
  };
}
