// baseline: the server everyone writes first. Each request calls spawn() on the
// main thread; the main thread is frozen while the kernel forks this whole
// process and the child execs, so throughput is capped by one thread's spawn rate.
import http from 'node:http';
import { spawn } from 'node:child_process';
import { readConfig, announceReady } from '../lib/config.js';
import { sendError, discardBody } from '../lib/http.js';

const config = readConfig();

const server = http.createServer((req, res) => {
  discardBody(req);
  const child = spawn(config.command, config.args, { stdio: ['ignore', 'pipe', 'ignore'] });
  child.once('error', (error) => sendError(res, error));
  child.once('spawn', () => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    child.stdout.pipe(res);
  });
  res.once('close', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
});

server.listen(config.port, config.host, () => announceReady(server));
