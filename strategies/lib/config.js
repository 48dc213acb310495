/**
 * The strategy side of the contract in strategies/README.md: read the config,
 * announce readiness, exit cleanly when spawnbench says so or goes away.
 */

/**
 * Reads SPAWNBENCH_STRATEGY_CONFIG. Strategies started by hand (for reading and
 * experimenting) fall back to echo hi on a free port.
 * @returns {{host: string, port: number, command: string, args: string[], poolSize: number, balance: string, workerRuntime: string, seed: number}}
 */
export function readConfig() {
  const raw = process.env.SPAWNBENCH_STRATEGY_CONFIG;
  const config = raw ? JSON.parse(raw) : {};
  return {
    host: '127.0.0.1',
    port: 0,
    command: 'echo',
    args: ['hi'],
    poolSize: 2,
    balance: 'round-robin',
    workerRuntime: process.execPath,
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
 * @param {import('node:net').Server} server
 * @param {() => (void|Promise<void>)} [stopExtra] stops what the strategy started (workers)
 */
export function announceReady(server, stopExtra = () => {}) {
  report('ready', { port: server.address().port });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeAllConnections?.();
    try {
      await stopExtra();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  if (process.env.SPAWNBENCH_STRATEGY_CONFIG) {
    process.stdin.on('end', stop);
    process.stdin.on('error', stop);
    process.stdin.resume();
  }
}
