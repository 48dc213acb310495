/**
 * A process group that outlives spawnbench: a SIGKILL runs none of spawnbench's exit
 * handlers, and a user's server (diagnose, tune of a command) does not watch its stdin as
 * strategies do. So each group spawnbench starts gets a watchdog: a tiny `sh` in a session
 * of its own whose stdin is a pipe from spawnbench. Only spawnbench holds the pipe's write
 * end, so when spawnbench is gone, however it ended, `read` sees end of file and the
 * watchdog sends the group SIGTERM, gives it the stop grace, then SIGKILL, and kills the
 * group's cgroup (escapees included) if it has one. spawnbench kills the watchdog itself
 * when it stops the group the ordinary way; on its other exit paths (a second Ctrl-C, an
 * uncaught error) it kills the group at once and the watchdog finishes with the cgroup.
 */
import { spawn } from 'node:child_process';

/** How often the watchdog checks whether the group has emptied during the grace, in tenths of a second (sleep 0.1). */
const POLL_TENTHS = 1;

// $1: the group, $2: grace in tenths of a second, $3: the cgroup holding it, if any. Signals a terminal or a careless `kill`
// sends are ignored: the watchdog's only job is to outlive spawnbench for that long.
const SCRIPT = `trap '' INT TERM HUP QUIT
read -r _ || :
if kill -TERM -"$1" 2>/dev/null; then
  i=0
  while [ "$i" -lt "$2" ] && kill -0 -"$1" 2>/dev/null; do sleep 0.${POLL_TENTHS}; i=$((i + ${POLL_TENTHS})); done
  kill -KILL -"$1" 2>/dev/null
fi
[ -n "$3" ] || exit 0
echo 1 > "$3/cgroup.kill" 2>/dev/null
i=0
while [ "$i" -lt 10 ] && ! rmdir "$3" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
exit 0`;

/**
 * Starts the watchdog of one process group.
 * @param {number} pgid
 * @param {number} graceMs how long the group gets between SIGTERM and SIGKILL
 * @param {string} [cgroupDir] the group's cgroup: killed whole (cgroup.kill) and removed too
 * @returns {{ pid: number|undefined, stop: () => void }} `stop()`: ends the watchdog (the group was stopped the ordinary way)
 */
export function startGroupWatchdog(pgid, graceMs, cgroupDir = '') {
  const child = spawn('/bin/sh', ['-c', SCRIPT, 'spawnbench-watchdog', String(pgid), String(Math.ceil(graceMs / 100)), cgroupDir], {
    detached: true, // a session of its own: no terminal signal reaches it, and killing spawnbench's group spares it
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.on('error', () => {}); // no /bin/sh: the ordinary stop paths still hold
  child.stdin.on('error', () => {});
  // Neither the process nor its pipe keeps spawnbench's event loop alive.
  child.unref();
  // stdin is a pipe, a net.Socket (typed as the Writable it also is).
  /** @type {import('node:net').Socket} */ (child.stdin).unref?.();
  return {
    pid: child.pid,
    stop() {
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}
