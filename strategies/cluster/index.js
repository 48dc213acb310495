// cluster: node:cluster runs N copies of the baseline server on one port. The
// primary accepts connections and hands them to the workers in turn (round-robin,
// the default on Linux); each worker spawns in its own main thread, so N workers
// spawn in parallel and each fork copies one worker, not a server holding N.
// What it costs: N full Node processes (memory), and the unit of balancing is a
// connection, not a request: with keep-alive clients a worker keeps every request
// of the connections it got, whatever --balance says. A worker that dies takes its
// connections with it (the client sees a reset, there is no one left to answer 502).
import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { readConfig, report, onStop, failAndExit } from '../lib/config.js';
import { reportWorkerExit } from '../lib/workers-line.js';

const WORKER = fileURLToPath(new URL('./worker.js', import.meta.url));
const config = readConfig();

if (config.balance !== 'round-robin') {
  process.stderr.write(`cluster: --balance ${config.balance} does not apply; the cluster primary hands out connections round-robin\n`);
}
cluster.schedulingPolicy = cluster.SCHED_RR;
cluster.setupPrimary({ exec: WORKER, silent: false });

let stopping = false;
const fatal = failAndExit(() => stopWorkers());

/** Forks the worker for one slot; the slot number is its id in the workers line. */
function startWorker(slot) {
  const worker = cluster.fork({ SPAWNBENCH_CLUSTER_SLOT: String(slot) });
  let listened = false;
  worker.once('exit', (code, signal) => {
    if (stopping) return;
    if (!listened) return fatal(new Error(`cluster worker ${slot} (pid ${worker.process.pid}) exited (${signal ?? code}) before it listened`));
    const replacement = startWorker(slot); // replaced; its open connections were lost with it
    reportWorkerExit({ id: slot, pid: worker.process.pid, code, signal, replacedBy: replacement.pid });
  });
  worker.once('listening', () => { listened = true; });
  const port = new Promise((resolve) => worker.once('listening', (address) => resolve(address.port)));
  return Object.assign(port, { pid: worker.process.pid });
}

async function stopWorkers() {
  stopping = true;
  const exits = Object.values(cluster.workers).map((w) => new Promise((resolve) => {
    w.once('exit', resolve);
    w.process.kill('SIGKILL');
  }));
  await Promise.all(exits);
}

// Every worker listens on port 0; in a cluster they all get the same free port (the
// primary owns the listening socket, keyed by address and requested port).
const ports = await Promise.all(Array.from({ length: config.poolSize }, (_, slot) => startWorker(slot)));
onStop(stopWorkers); // before the ready line: spawnbench may send SIGTERM the moment it reads it
report('ready', { port: ports[0] });
