// reuse-port: the workers are the HTTP servers. Each worker listens on the same
// port and serves the connections the kernel gives it (Bun.serve / Deno.serve with
// SO_REUSEPORT; Node workers share one listening socket through node:cluster with
// SCHED_NONE, because Node before 22.12 cannot set SO_REUSEPORT). Each request runs
// its command in the worker that accepted the connection, with the runtime's own
// spawn, and streams stdout back from there.
//
// The Node main thread accepts no connection and sees no request. It picks the
// port, starts the workers, probes each one over IPC every PROBE_INTERVAL_MS
// (the answer carries the worker's counts for the workers line), kills a worker
// that has not answered for PROBE_TIMEOUT_MS (a stuck event loop) and replaces any
// worker that dies in the same slot on the same port. What it costs: a worker that
// dies takes its connections with it (the client sees a reset, as with cluster);
// the kernel spreads connections by a hash of their addresses, so --balance does
// not apply and keep-alive clients stay on the worker they first reached.
import net from 'node:net';
import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { readConfig, failAndExit, announceReady } from '../lib/config.js';
import { forkWorker, workerKind, workerExecArgv } from '../lib/fork.js';
import { createPool } from '../lib/pool.js';
import { reportWorkers, WORKERS_LINE_INTERVAL_MS } from '../lib/workers-line.js';

/** How often the main asks each worker how it is: as often as the workers line, so its counts are fresh. */
const PROBE_INTERVAL_MS = WORKERS_LINE_INTERVAL_MS;
/** A worker silent this long has a stuck event loop. */
const PROBE_TIMEOUT_MS = 5_000;
/** Until it says 'ready', a new worker may stay silent this much longer: Deno takes seconds to start on a loaded 2-core machine. */
const START_GRACE_MS = 15_000;

const WORKER = fileURLToPath(new URL('./worker.js', import.meta.url));
const config = readConfig();
const port = await freePort(config.host);

// Node workers: node:cluster, the primary only holding the listening socket
// (SCHED_NONE: the workers accept from it themselves).
cluster.schedulingPolicy = cluster.SCHED_NONE;
cluster.setupPrimary({ exec: WORKER, execArgv: workerExecArgv(config), args: [String(port)] });

// Deno keeps SO_REUSEPORT behind --unstable-net.
const forkConfig = workerKind(config) === 'deno' ? { ...config, workerExecArgv: [...workerExecArgv(config), '--unstable-net'] } : config;

/** The last counts each slot's worker reported, and those of the workers it replaced. */
const counts = new Map(); // slot id -> { pid, seenAt, inFlight, completed, failed, carried: { completed, failed } }

function startWorker(slotId) {
  const worker = workerKind(config) === 'node'
    ? cluster.fork({ SPAWNBENCH_REUSE_PORT_SLOT: String(slotId) }).process
    : forkWorker(WORKER, forkConfig, { args: [String(port)] });
  const previous = counts.get(slotId);
  const carried = previous
    ? { completed: previous.carried.completed + previous.completed, failed: previous.carried.failed + previous.failed }
    : { completed: 0, failed: 0 };
  counts.set(slotId, { pid: worker.pid, seenAt: Date.now() + START_GRACE_MS, inFlight: 0, completed: 0, failed: 0, carried });
  worker.on('message', (message) => {
    if (message === 'ready') counts.get(slotId).seenAt = Date.now(); // its grace is over
    if (!Array.isArray(message) || message[0] !== 'counts') return;
    const [, inFlight, completed, failed] = message;
    Object.assign(counts.get(slotId), { seenAt: Date.now(), inFlight, completed, failed });
  });
  return worker;
}

const fatal = failAndExit(() => pool.stop());
const pool = createPool({ size: config.poolSize, balance: config.balance, seed: config.seed, start: startWorker, onFatal: fatal });
await pool.ready;

// The probe: every worker is asked for its counts; one that stopped answering is killed,
// and the pool replaces it (the same slot, a new pid, restarts + 1).
const probe = setInterval(() => {
  for (const slot of pool.stats()) {
    const c = counts.get(slot.id);
    if (!c || c.pid !== slot.pid) continue;
    if (Date.now() - c.seenAt > PROBE_TIMEOUT_MS) {
      process.stderr.write(`reuse-port: worker ${slot.id} (pid ${slot.pid}) did not answer the probe for ${PROBE_TIMEOUT_MS} ms; replacing it\n`);
      c.seenAt = Date.now();
      try {
        process.kill(slot.pid, 'SIGKILL');
      } catch {
        // already gone: the pool has seen its exit
      }
      continue;
    }
    pool.send(slot.id, 'probe');
  }
}, PROBE_INTERVAL_MS);

// What spawnbench reads: the workers' own counts, carried over a slot's replacements.
const workerStats = () => pool.stats().map((slot) => {
  const c = counts.get(slot.id);
  return {
    ...slot,
    inFlight: c.inFlight,
    completed: c.carried.completed + c.completed,
    failed: c.carried.failed + c.failed,
  };
});

let stopReporting = () => {};
// The contract wants a server to announce; the port is the workers', so a stand-in
// that reports it and owns nothing.
announceReady({ address: () => ({ port }), close() {}, closeAllConnections() {} }, async () => {
  clearInterval(probe);
  stopReporting();
  await pool.stop();
});
stopReporting = reportWorkers(workerStats);

/** A port free right now on host: the workers will all bind it. */
function freePort(host) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port: free } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(free));
    });
  });
}
