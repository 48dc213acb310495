#!/usr/bin/env node
/**
 * bench:advice's node:cluster wrapper: `node bench/cluster-of.js N script [args…]` runs
 * the unchanged server script in N node:cluster workers (as PM2's cluster mode does),
 * all listening on the PORT it reads, and prints one line once every worker listens.
 * A worker that dies ends it (a smaller cluster would skew the figures); its process
 * group is ended by the bench that started it.
 */
import cluster from 'node:cluster';

const [count, script, ...args] = process.argv.slice(2);
const workers = Number(count);
if (!Number.isInteger(workers) || workers < 1 || !script) {
  process.stderr.write('cluster-of: usage: node bench/cluster-of.js <workers ≥ 1> <script> [args…]\n');
  process.exit(2);
}
cluster.setupPrimary({ exec: script, args });
let listening = 0;
cluster.on('listening', () => {
  listening += 1;
  if (listening === workers) console.log(`cluster-of: ${workers} workers listening`);
});
cluster.on('exit', (worker, code, signal) => {
  process.stderr.write(`cluster-of: worker ${worker.process.pid} exited (${signal ?? code})\n`);
  process.exit(1);
});
for (let i = 0; i < workers; i++) cluster.fork();
