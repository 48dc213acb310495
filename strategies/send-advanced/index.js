// send-advanced: a fork pool whose workers stream. Each stdout chunk of the command
// comes back as its own process.send() message, and the main thread writes it to
// the response as it arrives; the exit status ends the response. With
// serialization: 'advanced' (the V8 structured-clone format) a chunk crosses the
// IPC channel as bytes instead of as JSON text, but every chunk is still one
// serialize + one deserialize + one IPC message, which costs more per byte than a
// plain socket (see comm-channel).
import { fileURLToPath } from 'node:url';
import { readConfig, failAndExit } from '../lib/config.js';
import { sendError } from '../lib/http.js';
import { forkWorker, currentRuntime, workerKind } from '../lib/fork.js';
import { createPool } from '../lib/pool.js';
import { servePool } from '../lib/serve-pool.js';
import { STDOUT, EXIT, SPAWN_ERROR } from './message-types.js';
import { createStreamRelay } from '../lib/stream-relay.js';

const WORKER = fileURLToPath(new URL('./worker.js', import.meta.url));
const config = readConfig();

// 'advanced' is each runtime's own format (V8's serializer in Node): a Node main
// cannot read a Bun or Deno worker's messages, and the pool would wait forever.
const workersOn = workerKind(config);
if (workersOn !== currentRuntime()) {
  await failAndExit()(new Error(`send-advanced: ${workersOn} workers cannot talk 'advanced' IPC to a ${currentRuntime()} main process; use the same runtime for both`));
}

const pool = createPool({
  size: config.poolSize,
  balance: config.balance,
  seed: config.seed,
  start: () => forkWorker(WORKER, config, { serialization: 'advanced' }),
  onFatal: failAndExit(() => pool.stop()),
  // Every message is [request id, type, payload]: stdout chunks go straight into the response.
  onMessage: ([id, type, payload]) => relay(id, type, payload),
});

const relay = createStreamRelay(pool, { STDOUT, EXIT, SPAWN_ERROR });

await servePool({
  config,
  pool,
  onRequest(req, res) {
    pool.submit({ res, fail: (status, text) => sendError(res, text, status) }, (id) => [id, config.command, ...config.args]);
  },
});
