/**
 * Acts on one pool worker of a run while it is measured: once the measured phase
 * has run `afterMs`, the worker with `id` (as the strategy's own workers line names
 * it, so only a process this run started) is handed to `act(worker)`. A cluster
 * worker prints its own workers line, which on a loaded machine may come late: the
 * wait goes on until it does, and stops with the measured phase.
 * @param {{ id: number, afterMs: number, act: (worker: { id: number, pid: number }) => void }} options
 * @returns {{ onEvent: (name: string, payload: any) => void, stop: () => void, acted: () => boolean }}
 *   `onEvent` for run()'s options; `stop()` after the run (clears the timer)
 */
export function onPoolWorker({ id, afterMs, act }) {
  let workers = [];
  let measuring = false;
  let acted = false;
  let timer = null;
  const attempt = () => {
    if (!measuring) return;
    const worker = workers.find((w) => w.id === id);
    if (!worker?.pid) {
      timer = setTimeout(attempt, 100);
      return;
    }
    act(worker);
    acted = true;
  };
  return {
    onEvent(name, payload) {
      if (name === 'workers') workers = payload;
      if (name !== 'phase') return;
      measuring = payload.phase === 'measure';
      if (measuring) timer = setTimeout(attempt, afterMs);
    },
    stop: () => clearTimeout(timer),
    acted: () => acted,
  };
}
