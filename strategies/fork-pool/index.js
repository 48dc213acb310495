// fork-pool: the spawns move out of the server into N small forked Node processes.
// A fork() copies the page tables of the process that calls it, so spawning from a
// ~40 MB worker is cheaper than from the server, and N workers spawn in parallel.
// The main thread only parses HTTP and passes messages: [id, command, ...args] goes
// to a worker over IPC, [id, 'ok', stdout] comes back. The whole stdout travels in
// one message (the worker buffers it), so large outputs are not streamed.
import { fileURLToPath } from 'node:url';
import { readConfig, failAndExit } from '../lib/config.js';
import { sendError } from '../lib/http.js';
import { forkWorker } from '../lib/fork.js';
import { createPool } from '../lib/pool.js';
import { servePool } from '../lib/serve-pool.js';

const WORKER = fileURLToPath(new URL('./worker.js', import.meta.url));
const config = readConfig();

const pool = createPool({
  size: config.poolSize,
  balance: config.balance,
  seed: config.seed,
  start: () => forkWorker(WORKER, config),
  onFatal: failAndExit(() => pool.stop()),
  onMessage([id, outcome, payload]) {
    const request = pool.finish(id, { failed: outcome !== 'ok' });
    if (!request) return; // its worker died and it already got a 502
    if (outcome !== 'ok') return sendError(request.res, payload);
    // latin1 maps bytes 0-255 to one character each: a byte-exact round trip through JSON IPC.
    const body = Buffer.from(payload, 'latin1');
    request.res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    request.res.end(body);
  },
});

await servePool({
  config,
  pool,
  onRequest(req, res) {
    pool.submit({ res, fail: (status, text) => sendError(res, text, status) }, (id) => [id, config.command, ...config.args]);
  },
});
