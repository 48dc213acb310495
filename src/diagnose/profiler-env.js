/**
 * The environment that makes the server's Node processes load the probe and,
 * with --cpu-prof, the profiler: both through NODE_OPTIONS `--import`, which
 * reaches every Node process the command starts.
 */
import { mkdtemp, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CPU_PROF_DIR_ENV } from './cpu-prof-env.js';

/** URL of the profiler preload (a file URL needs no quoting inside NODE_OPTIONS). */
export const CPU_PROF_PRELOAD_URL = new URL('./cpu-prof-preload.js', import.meta.url).href;

/**
 * @param {{ channel: object|null, cpuProf: { enabled: boolean, dir: string|null } }} options
 * @returns {Promise<{ env: Record<string, string>, cpuProfDir: string|null, madeDir: boolean }>} madeDir: the
 *   folder is a new temp folder of ours (not --cpu-prof-dir), to remove if the server never wrote to it
 */
export async function targetEnv({ channel, cpuProf }) {
  const env = { ...(channel?.env ?? {}) };
  let cpuProfDir = null;
  if (cpuProf.enabled) {
    cpuProfDir = cpuProf.dir ?? (await mkdtemp(path.join(tmpdir(), 'spawnbench-cpu-prof-')));
    await mkdir(cpuProfDir, { recursive: true });
    const base = env.NODE_OPTIONS ?? process.env.NODE_OPTIONS;
    env.NODE_OPTIONS = [base, `--import=${CPU_PROF_PRELOAD_URL}`].filter(Boolean).join(' ');
    env[CPU_PROF_DIR_ENV] = cpuProfDir;
  }
  return { env, cpuProfDir, madeDir: cpuProf.enabled && !cpuProf.dir };
}
