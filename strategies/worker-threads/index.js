// worker-threads: N worker_threads run the commands. The main thread posts
// [id, command, ...args]; a thread runs execFile and posts the whole stdout back.
// It looks like fork-pool, but every thread lives in the same big process: each
// spawn still forks the whole process (all threads' memory), and the kernel
// serializes those forks on the process's memory map. In Node it is slower than
// baseline; in Bun and Deno, which spawn without copying page tables, it helps.
import { Worker } from 'node:worker_threads';
import { readConfig, failAndExit } from '../lib/config.js';
import { sendError } from '../lib/http.js';
import { createPool } from '../lib/pool.js';
import { servePool } from '../lib/serve-pool.js';

const WORKER = new URL('./worker.js', import.meta.url);
const config = readConfig();

const pool = createPool({
  size: config.poolSize,
  balance: config.balance,
  seed: config.seed,
  start: () => new Worker(WORKER),
  onFatal: failAndExit(() => pool.stop()),
  onMessage([id, outcome, payload]) {
    const request = pool.finish(id, { failed: outcome !== 'ok' });
    if (!request) return;
    if (outcome !== 'ok') return sendError(request.res, payload);
    request.res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': payload.byteLength });
    request.res.end(payload);
  },
});

await servePool({
  config,
  pool,
  onRequest(req, res) {
    pool.submit({ res, fail: (status, text) => sendError(res, text, status) }, (id) => [id, config.command, ...config.args]);
  },
});
