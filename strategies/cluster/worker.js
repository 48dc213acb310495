// One cluster worker: the baseline server (spawn per request in this process's
// main thread), plus its own line of per-worker accounting on stdout.
import http from 'node:http';
import { spawn } from 'node:child_process';
import { readConfig } from '../lib/config.js';
import { sendError, discardBody } from '../lib/http.js';
import { reportWorkers } from '../lib/workers-line.js';

const config = readConfig();
const stats = {
  id: Number(process.env.SPAWNBENCH_CLUSTER_SLOT), pid: process.pid, threadId: null,
  inFlight: 0, completed: 0, failed: 0,
};

const server = http.createServer((req, res) => {
  discardBody(req);
  stats.inFlight++;
  let counted = false;
  const done = (failed) => {
    if (counted) return;
    counted = true;
    stats.inFlight--;
    if (failed) stats.failed++;
    else stats.completed++;
  };
  const child = spawn(config.command, config.args, { stdio: ['ignore', 'pipe', 'ignore'] });
  child.once('error', (error) => {
    done(true);
    sendError(res, error);
  });
  child.once('spawn', () => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    child.stdout.pipe(res);
  });
  res.once('finish', () => done(false));
  res.once('close', () => {
    done(true);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
});

server.listen(config.port, config.host, () => reportWorkers(() => [stats]));
// The primary is gone (or stopping us): nothing left to serve for.
process.on('disconnect', () => process.exit(0));
