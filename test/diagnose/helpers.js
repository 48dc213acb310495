/** What the end-to-end diagnose tests share: a fixture's environment for one run, its group proven gone, its thread rows. */
import assert from 'node:assert/strict';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { processesInGroup } from '../helpers/processes.js';
import { cli, waitFor, fixtureServer as server } from '../helpers/harness.js';
import { figuresOf } from './fault.js';

/** Runs `fn` with `env` in this process's environment, which the server spawnbench starts inherits; restores it after. */
export async function withEnv(env, fn) {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** The process group spawnbench started is empty, and spawnbench tracks none. */
export async function assertGroupGone(pgid) {
  await waitFor(() => processesInGroup(pgid).length === 0, { what: () => `group ${pgid} to empty: left ${processesInGroup(pgid)}` });
  assert.equal(trackedGroupCount(), 0);
}

/**
 * `diagnose <load> <extra> -- node <fixture>`: its result and the thread rows of its samples, the group proven gone,
 * each thread's figures said as a diagnostic.
 * @param {import('node:test').TestContext} t
 * @param {string} name fixtures/servers/<name>.js
 * @param {string[]} load duration, warm-up, --json
 * @param {...string} extra
 */
export async function diagnoseThreads(t, name, load, ...extra) {
  const { code, out, err } = await cli('diagnose', ...load, ...extra, '--', process.execPath, server(name));
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  await waitFor(() => processesInGroup(result.target.pid).length === 0, { what: () => `group ${result.target.pid} to empty` });
  const threads = result.samples.processes.filter((p) => p.role === 'thread');
  t.diagnostic(`${figuresOf(result)} · threads ${threads.map((p) => JSON.stringify({ elu: p.summary.elu, cpu: p.summary.cpuPct, busy: p.summary.busy, from: p.summary.busyFrom })).join(' ')}`);
  return { result, threads };
}
