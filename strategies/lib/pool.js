/**
 * A supervised pool of workers (forked processes or worker threads): picks a
 * worker per request with the configured balancer, counts each worker's requests
 * in flight / completed / failed, and replaces a worker that dies after failing
 * the requests it held (502). What a worker does with a request, and how its
 * answer comes back, is each strategy's own idea.
 *
 * A worker is anything that emits 'message', 'exit' and 'error' and can be sent
 * messages: a ChildProcess (send/kill) or a worker_threads Worker (postMessage/terminate).
 * It posts the string 'ready' once it can take work.
 */
import { createBalancer } from './balancers.js';
import { reportWorkerExit } from './workers-line.js';

/** How long stop() waits for workers to exit before it stops waiting (they are killed with SIGKILL). */
const STOP_WAIT_MS = 1_000;

/**
 * @typedef {object} PoolRequest
 * @property {number} id unique in the pool, what the strategy's messages carry
 * @property {object} worker the slot it went to
 * @property {(status: number, text: string) => void} fail answers it with an error
 */

/**
 * @param {object} options
 * @param {number} options.size
 * @param {import('./config.js').StrategyConfig['balance']} options.balance random | round-robin | least-requests | p2c
 * @param {number} [options.seed]
 * @param {(slotId: number) => any} options.start starts one worker
 * @param {(message: any, worker: object) => void} [options.onMessage] every message but 'ready'
 * @param {(error: Error) => void} options.onFatal a worker died before it was ready (bad runtime, crash at start)
 * @param {(exit: { id: number, pid: number|null, threadId: number|null, code: number|null, signal: string|null,
 *   replacedBy: number|null, replacedByThreadId: number|null }) => void} [options.onWorkerExit]
 *   a worker died while serving and was replaced (default: the contract's worker-exit line)
 */
export function createPool({ size, balance, seed, start, onMessage = () => {}, onFatal, onWorkerExit = reportWorkerExit }) {
  const pick = createBalancer(balance, { seed });
  const loads = new Array(size).fill(0);
  const requests = new Map();
  let nextId = 1;
  let stopping = false;
  let readyCount = 0;
  let resolveReady;
  const ready = new Promise((resolve) => (resolveReady = resolve));

  const slots = Array.from({ length: size }, (_, id) => ({
    id, handle: null, pid: null, threadId: null, ready: false, everReady: false,
    completed: 0, failed: 0, restarts: 0, held: new Set(),
  }));

  function launch(slot) {
    const handle = start(slot.id);
    const isThread = handle.threadId !== undefined;
    Object.assign(slot, { handle, ready: false, pid: isThread ? process.pid : handle.pid ?? null, threadId: isThread ? handle.threadId : null });
    handle.on('message', (message) => {
      if (handle !== slot.handle) return;
      if (message === 'ready') return markReady(slot);
      onMessage(message, slot);
    });
    let lastError = null;
    handle.once('exit', (code, signal) => {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      died(slot, handle, lastError ? `${how} (${lastError.message})` : how, { code, signal });
    });
    // A process that could not start has no pid and will not emit 'exit'. Any other
    // error (a send to a dying worker: EPIPE; a thread's uncaught exception) is followed
    // by 'exit', which is where the worker's requests are failed.
    handle.on('error', (error) => {
      if (!isThread && handle.pid === undefined) died(slot, handle, `could not start: ${error.message}`);
      else lastError ??= error;
    });
  }

  function markReady(slot) {
    slot.ready = true;
    if (!slot.everReady) {
      slot.everReady = true;
      if (++readyCount === size) resolveReady();
    }
  }

  function died(slot, handle, why, exit = { code: null, signal: null }) {
    if (handle !== slot.handle) return; // 'error' and 'exit' of the same worker
    slot.handle = null;
    const who = slot.threadId !== null ? `thread ${slot.threadId}` : slot.pid ? `pid ${slot.pid}` : 'not started';
    const text = `worker ${slot.id} (${who}) ${why}`;
    for (const request of slot.held) {
      requests.delete(request.id);
      slot.failed++;
      request.fail(502, text);
    }
    slot.held.clear();
    loads[slot.id] = 0;
    if (stopping) return;
    if (!slot.ready) return onFatal(new Error(`${text} before it was ready`));
    const dead = { id: slot.id, pid: slot.pid, threadId: slot.threadId, ...exit };
    slot.restarts++;
    launch(slot);
    onWorkerExit({ ...dead, replacedBy: slot.pid, replacedByThreadId: slot.threadId });
  }

  for (const slot of slots) launch(slot);

  return {
    /** Resolves once every worker has said 'ready'. */
    ready,

    /**
     * Hands a request to a worker.
     * @param {object} fields kept on the request (e.g. res), plus fail(status, text)
     * @param {(id: number) => any} message what the worker is sent
     * @returns {PoolRequest|null} null when the pool is stopping (already answered 503)
     */
    submit(fields, message) {
      const slot = slots[pick(loads)];
      if (!slot.handle) {
        fields.fail(503, 'the pool is stopping');
        return null;
      }
      const request = { ...fields, id: nextId++, worker: slot };
      requests.set(request.id, request);
      slot.held.add(request);
      loads[slot.id]++;
      send(slot.handle, message(request.id));
      return request;
    },

    /** The request with this id while it is in flight (undefined once finished or failed). */
    get(id) {
      return requests.get(id);
    },

    /**
     * Ends a request's accounting. Returns it, or undefined when it already ended
     * (its worker died and it got a 502).
     * @param {number} id
     * @param {{failed?: boolean}} [outcome]
     */
    finish(id, { failed = false } = {}) {
      const request = requests.get(id);
      if (!request) return undefined;
      requests.delete(id);
      const slot = request.worker;
      slot.held.delete(request);
      loads[slot.id]--;
      if (failed) slot.failed++;
      else slot.completed++;
      return request;
    },

    /**
     * Sends a message to one slot's worker outside the request path (a health probe,
     * say); nothing when the slot has no live worker.
     * @param {number} slotId
     * @param {any} message
     */
    send(slotId, message) {
      const { handle } = slots[slotId];
      if (handle) send(handle, message);
    },

    /** Per-worker accounting for the workers line. */
    stats() {
      return slots.map((s) => ({
        id: s.id, pid: s.pid, threadId: s.threadId, inFlight: loads[s.id],
        completed: s.completed, failed: s.failed, restarts: s.restarts,
      }));
    },

    /** Stops every worker (no replacement) and waits, briefly, for them to exit. */
    async stop() {
      stopping = true;
      const exits = slots.filter((s) => s.handle).map((s) => new Promise((resolve) => {
        s.handle.once('exit', resolve);
        kill(s.handle);
      }));
      let timer;
      await Promise.race([Promise.all(exits), new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
      clearTimeout(timer);
    },
  };
}

function send(handle, message) {
  if (handle.postMessage) handle.postMessage(message);
  else handle.send(message);
}

function kill(handle) {
  if (handle.terminate) handle.terminate();
  else handle.kill('SIGKILL');
}
