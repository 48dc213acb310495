/**
 * The fallback where there is no /proc (macOS, Windows): CPU and RSS of the
 * processes spawnbench knows about (the root, probed processes, reported workers)
 * through pidusage, system CPU per core from os.cpus(). Without /proc there is no
 * tree walk, so spawned commands and per-thread CPU are not measured.
 */
import os from 'node:os';
import pidusage from 'pidusage';

/** Said once in the summary's notes, so the missing figures are explained. */
export const PORTABLE_NOTE =
  `no /proc on ${process.platform}: per-process CPU and RSS come from pidusage; ` +
  'spawned commands and per-thread CPU are not measured';

/**
 * @param {{ rootPid: number }} options
 * @returns {{ read: (query: { pids: number[], threads: Array<{ key: string }> }) => Promise<object>, close: () => void }}
 *   `read` resolves to the same reading as proc-sampler.js; `close` drops pidusage's history
 */
export function createPortableSampler({ rootPid }) {
  let previousAt = performance.now();
  let previousCores = coreTimes();
  return {
    async read({ pids, threads }) {
      const now = performance.now();
      const elapsedMs = now - previousAt;
      previousAt = now;
      const processes = new Map();
      const wanted = [...new Set([rootPid, ...pids])];
      const stats = await Promise.all(wanted.map((pid) => pidusage(pid).catch(() => null)));
      wanted.forEach((pid, i) => {
        if (stats[i]) processes.set(pid, { cpuPct: stats[i].cpu, rssBytes: stats[i].memory });
      });
      const cores = coreTimes();
      const cpus = cores.map((core, i) => {
        const total = core.total - previousCores[i].total;
        return total > 0 ? ((core.busy - previousCores[i].busy) / total) * 100 : 0;
      });
      previousCores = cores;
      return {
        elapsedMs,
        processes,
        threads: new Map(threads.map(({ key }) => [key, null])),
        spawned: { count: null, newlySeen: 0, cpuPct: null, rssBytes: null },
        system: { cpus },
      };
    },
    close() {
      pidusage.clear();
    },
  };
}

function coreTimes() {
  return os.cpus().map(({ times }) => {
    const total = times.user + times.nice + times.sys + times.idle + times.irq;
    return { busy: total - times.idle, total };
  });
}
