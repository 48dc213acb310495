/**
 * The roles the sampler gives the processes and threads of a server (src/sample/):
 * `main` the server (the process that listens; a strategy's main process),
 * `worker` a process under it (a pool or cluster worker), `thread` a worker
 * thread, `launcher` a process that started the server and stays resident (npm,
 * npx, yarn, pnpm, a shell, nodemon; src/runner/find-server.js), `replaced` a
 * server process that a restart replaced (nodemon ended it and started another
 * that listens: src/sample/index.js follows the server to it). Analysis, the
 * reports and the dashboard all ask the same question of them: is it one of the
 * server's workers?
 */

/**
 * Whether a process (or thread) entry is one of the server's workers: neither the
 * server's main process nor a launcher above it.
 * @param {{ role?: string|null }} entry
 * @returns {boolean}
 */
export function isWorkerEntry(entry) {
  return entry.role === 'worker' || entry.role === 'thread';
}

/**
 * Whether a process (or thread) entry belongs to the server (its main process,
 * workers and threads), not to a launcher that started it, nor to a server process
 * that a restart replaced (it served part of the run only: its figures are not the
 * server's, and it is no second worker).
 * @param {{ role?: string|null }} entry
 * @returns {boolean}
 */
export function isServerEntry(entry) {
  return entry.role !== 'launcher' && entry.role !== 'replaced';
}
