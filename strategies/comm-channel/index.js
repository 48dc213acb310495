// comm-channel: a fork pool whose workers stream output back on a channel of their
// own. Requests still go out over IPC ([id, command, ...args]), but each worker
// writes its commands' stdout/stderr to its own Unix socket (an abstract one,
// `\0name`, on Linux) as frames [id][type][length][data], and the main thread
// writes each stdout chunk to the response as it arrives. No JSON, no per-message
// serialization: raw bytes on a socket, which is what makes large outputs cheap.
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { readConfig, failAndExit } from '../lib/config.js';
import { sendError } from '../lib/http.js';
import { forkWorker, currentRuntime, workerKind } from '../lib/fork.js';
import { createPool } from '../lib/pool.js';
import { servePool } from '../lib/serve-pool.js';
import { createFrameReader, STDOUT, EXIT, SPAWN_ERROR } from './frames.js';
import { createStreamRelay } from '../lib/stream-relay.js';
import { planChannels } from './channel-address.js';
import { guardChannel, newSecret, SECRET_ENV } from './channel-guard.js';

const WORKER = fileURLToPath(new URL('./worker.js', import.meta.url));
const config = readConfig();
let channels;
try {
  channels = planChannels(currentRuntime(), workerKind(config), config.tempDir);
} catch (error) {
  await failAndExit()(error);
}
const generations = new Map(); // slot id -> workers started in it
const listeners = new Set();
let refusals = 0;

// A frame from a worker's channel: stdout chunks go straight into the response.
const onFrame = (id, type, data) => relay(id, type, data);

/** Listens on a fresh channel for one worker, then forks it with the address to connect to. */
function startWorker(slotId) {
  const generation = (generations.get(slotId) ?? 0) + 1;
  generations.set(slotId, generation);
  const { listen, connect } = channels.address(slotId, generation);
  const secret = newSecret();
  // Only the connection that presents this worker's secret is read; see channel-guard.js.
  const listener = net.createServer(guardChannel({
    secret,
    onAccepted(socket, rest) {
      const read = createFrameReader(onFrame);
      socket.on('data', read); // errors: a killed worker's end, its 'exit' fails its requests
      if (rest.length) read(rest);
    },
    onRefused(reason) {
      refusals++;
      process.stderr.write(`comm-channel: refused a connection to worker ${slotId}'s channel: ${reason} (${refusals} refused so far)\n`);
    },
  }));
  listener.once('error', (error) => fatal(new Error(`comm-channel: channel for worker ${slotId}: ${error.message}`)));
  listener.listen(listen);
  listeners.add(listener);
  // JSON: argv cannot carry the \0 of an abstract name.
  const worker = forkWorker(WORKER, config, { args: [JSON.stringify(connect)], env: { [SECRET_ENV]: secret.toString('hex') } });
  worker.once('exit', () => {
    listener.close();
    listeners.delete(listener);
  });
  return worker;
}

const fatal = failAndExit(() => stop());
const pool = createPool({
  size: config.poolSize,
  balance: config.balance,
  seed: config.seed,
  start: startWorker,
  onFatal: fatal,
});
const relay = createStreamRelay(pool, { STDOUT, EXIT, SPAWN_ERROR });

function closeChannels() {
  for (const listener of listeners) listener.close();
  channels.cleanup();
}

async function stop() {
  await pool.stop();
  closeChannels();
}

await servePool({
  config,
  pool,
  onRequest(req, res) {
    pool.submit({ res, fail: (status, text) => sendError(res, text, status) }, (id) => [id, config.command, ...config.args]);
  },
  stopExtra: closeChannels,
});
