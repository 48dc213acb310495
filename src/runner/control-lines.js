/**
 * The lines a strategy prints for spawnbench (strategies/README.md, "Output"), read
 * and checked: a bad one is the strategy's fault, said with its name and the line,
 * never a crash of spawnbench ("Cannot read properties of null") nor blamed on the
 * user's flags. Only the built-in strategies speak this protocol; a user's server's
 * stdout is just output (process-group.js reads it so).
 */
import { RunError } from '../base/errors.js';

/** Longest part of an offending line quoted in a message, in characters. */
const QUOTE_CHARS = 200;

const quote = (line) => (line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS)}…` : line);

/**
 * What is wrong with a ready line, or null.
 * @param {object} message parsed line
 * @returns {string|null}
 */
export function readyLineProblem(message) {
  const { port } = message;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return `its ready line's "port" must be a whole number from 1 to 65535, not ${JSON.stringify(port)}`;
  return null;
}

/**
 * What is wrong with a workers line, or null.
 * @param {object} message parsed line
 * @returns {string|null}
 */
export function workersLineProblem(message) {
  if (!Array.isArray(message.workers)) return `its workers line's "workers" must be a list, not ${JSON.stringify(message.workers)}`;
  for (const w of message.workers) {
    if (!w || typeof w !== 'object' || Array.isArray(w)) return `its workers line lists ${JSON.stringify(w)}, not a worker object`;
    if (!Number.isInteger(w.id) || w.id < 0) return `a worker in its workers line has "id" ${JSON.stringify(w.id)}, not a whole number ≥ 0`;
    for (const field of ['inFlight', 'completed', 'failed']) {
      if (w[field] !== undefined && !(Number.isFinite(w[field]) && w[field] >= 0)) return `worker ${w.id} in its workers line has "${field}" ${JSON.stringify(w[field])}, not a count`;
    }
  }
  return null;
}

/**
 * What is wrong with a worker-exit line, or null.
 * @param {object} message parsed line
 * @returns {string|null}
 */
export function workerExitLineProblem(message) {
  if (!Number.isInteger(message.id) || message.id < 0) return `its worker-exit line has "id" ${JSON.stringify(message.id)}, not a whole number ≥ 0`;
  if (message.pid != null && !(Number.isInteger(message.pid) && message.pid > 0)) return `its worker-exit line has "pid" ${JSON.stringify(message.pid)}, not a process id`;
  if (!Number.isFinite(message.at)) return `its worker-exit line has "at" ${JSON.stringify(message.at)}, not a time in ms`;
  return null;
}

/** Exits kept per worker slot: a slot that keeps dying is said by its count, not by every exit. */
const MAX_EXITS_PER_WORKER = 16;

/**
 * "strategy 'x' broke the protocol: why; the line: …"
 * @param {string} label
 * @param {string} problem
 * @param {string} line
 */
export function protocolMessage(label, problem, line) {
  return `${label} broke the protocol: ${problem}; the line was: ${quote(line)}`;
}

/** A stdout line for spawnbench, parsed, or null (any other line). */
function parseControlLine(line) {
  if (!line.startsWith('{"spawnbench"')) return null;
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

/**
 * Reads a strategy's stdout: its control lines become events on `events` (`ready`
 * {port}, `workers` the whole list so far, `message` any other, `protocol-error` a
 * RunError, once), every other line goes to `onOutput`. A worker-exit line is kept
 * with its worker: each entry of the list carries `exits` (`[{ pid, threadId, code,
 * signal, at, replacedBy, replacedByThreadId }]`, `replacedBy` the pid (and thread) that
 * took the slot over, null while none has) and `deaths` (how many, even past the ones
 * kept) once its slot has lost a worker.
 * @param {object} options
 * @param {string} options.label "strategy 'x'", for the protocol error
 * @param {import('node:events').EventEmitter} options.events
 * @param {(line: string) => void} options.onOutput
 * @param {(line: string, cut: boolean) => string} options.withCutNote how a cut line is shown
 * @returns {{ read: (line: string, info: { cut: boolean }) => void, workers: () => object[] }}
 */
export function createControlReader({ label, events, onOutput, withCutNote }) {
  const workers = new Map();
  /** slot id → { count, kept: exits, oldest first } */
  const exits = new Map();
  let protocolError = null;
  const list = () => [...workers.values()].map((w) => withExits(w, exits.get(w.id)));
  const lineProblem = (message) => {
    if (message.spawnbench === 'ready') return readyLineProblem(message);
    if (message.spawnbench === 'workers') return workersLineProblem(message);
    if (message.spawnbench === 'worker-exit') return workerExitLineProblem(message);
    return null;
  };
  const read = (line, { cut }) => {
    const message = cut ? null : parseControlLine(line);
    if (!message) return onOutput(withCutNote(line, cut));
    const problem = lineProblem(message);
    if (problem) {
      // The strategy's fault: said once, with the line; the run stops on it (see run-engine.js).
      if (!protocolError) {
        protocolError = new RunError(protocolMessage(label, problem, line));
        events.emit('protocol-error', protocolError);
      }
      return;
    }
    if (message.spawnbench === 'ready') events.emit('ready', message);
    else if (message.spawnbench === 'workers') {
      for (const w of message.workers) workers.set(w.id, w);
      events.emit('workers', list());
    } else if (message.spawnbench === 'worker-exit') {
      const slot = exits.get(message.id) ?? { count: 0, kept: [] };
      slot.count += 1;
      const exit = { pid: message.pid ?? null, threadId: message.threadId ?? null, code: message.code ?? null, signal: message.signal ?? null, at: message.at };
      // The replacement, when the strategy named it (a new worker's own workers line may come much later).
      if (Number.isInteger(message.replacedBy)) Object.assign(exit, { next: { pid: message.replacedBy, threadId: message.replacedByThreadId ?? null } });
      slot.kept = [...slot.kept, exit].slice(-MAX_EXITS_PER_WORKER);
      exits.set(message.id, slot);
      if (workers.has(message.id)) events.emit('workers', list());
    } else events.emit('message', message);
  };
  return { read, workers: list };
}

/**
 * A worker entry with its slot's past exits: each exit's replacement is the next
 * incarnation's pid (the next exit's, or the worker's own for the last one).
 */
function withExits(worker, slot) {
  if (!slot) return worker;
  const kept = slot.kept.map(({ next: named, ...exit }, i) => {
    // The incarnation after this one: as the strategy named it, else the one whose exit comes next, or the worker listed now.
    const next = named ?? slot.kept[i + 1] ?? { pid: worker.pid ?? null, threadId: worker.threadId ?? null };
    const replaced = next.pid !== exit.pid || (next.threadId ?? null) !== exit.threadId;
    return { ...exit, replacedBy: replaced ? next.pid : null, replacedByThreadId: replaced ? next.threadId ?? null : null };
  });
  return { ...worker, exits: kept, deaths: slot.count };
}
