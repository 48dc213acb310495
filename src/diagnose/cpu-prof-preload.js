/**
 * Injected with NODE_OPTIONS=--import=<this file> when diagnose runs with
 * --cpu-prof: Node 20 refuses `--cpu-prof` in NODE_OPTIONS ("not allowed"), so the
 * same profile is taken with the inspector's Profiler, which reaches every Node
 * process the command starts. The `.cpuprofile` is written when the process exits
 * or when spawnbench stops it: on SIGTERM/SIGINT/SIGHUP the profile is saved
 * first, then the signal's default action is restored and the signal raised again
 * (so the process ends exactly as it would have), unless the server has a handler
 * of its own, which then decides when to exit. It never throws into the host.
 */
import { isMainThread } from 'node:worker_threads';
import { CPU_PROF_DIR_ENV } from './cpu-prof-env.js';

/** 1000 µs between samples: the default of node --cpu-prof (--cpu-prof-interval). */
const SAMPLING_INTERVAL_US = 1000;
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'];

try {
  const dir = process.env[CPU_PROF_DIR_ENV];
  if (dir && isMainThread) {
    const [{ Session }, { writeFileSync }, path] = await Promise.all([
      import('node:inspector'),
      import('node:fs'),
      import('node:path'),
    ]);
    const session = new Session();
    session.connect();
    session.post('Profiler.enable');
    session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    session.post('Profiler.start');
    let saved = false;
    // In-thread inspector sessions answer synchronously, so this works inside 'exit'.
    const save = () => {
      if (saved) return;
      saved = true;
      session.post('Profiler.stop', (error, result) => {
        if (error || !result?.profile) return;
        const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '.').slice(0, 15);
        const file = path.join(dir, `CPU.${stamp}.${process.pid}.0.001.cpuprofile`);
        try {
          writeFileSync(file, JSON.stringify(result.profile));
        } catch {
          // A folder that went away must not turn a clean exit into a crash.
        }
      });
    };
    process.on('exit', save);
    const onSignal = (signal) => {
      save();
      if (process.listenerCount(signal) > 1) return; // the server's own handler decides
      for (const s of SIGNALS) process.off(s, onSignal);
      process.kill(process.pid, signal);
    };
    for (const s of SIGNALS) process.on(s, onSignal);
  }
} catch {
  // No inspector (a build without it): no profile, the server runs as it would.
}
